//! `ValidatedPeer` against a hostile server, in-process over `tokio::io::duplex`: endless
//! pagination, lists over the bounds, duplicated tool names, floods of
//! `tools/list_changed`, replies that never come, and keys made to forge or flood an
//! `isError` text. Every bound is proved by counts (pages served, listings, compilations,
//! bytes), the timeout on tokio's paused clock.

mod common;

use common::{Scripted, basic_output, call, connect, text, tool};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService};
use rmcp::{ServerHandler, ServiceExt};
use schemac_rmcp::{
    ClientError, ClientOptions, ListBound, ListLimits, ToolCache, ToolValidators, ValidatedPeer,
    ValidatedServer, WatchToolList,
};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the hostile server answers `tools/list`.
#[derive(Clone)]
enum Pages {
    /// These tools on one page.
    One(Vec<Tool>),
    /// One tool a page and always a `nextCursor` — up to this many pages, so that a
    /// client without a bound still ends and the test can count what it fetched.
    Endless(usize),
}

/// A server that lists `pages`, never answers `tools/call` for the tool `silent`, and
/// counts the `tools/list` requests it served.
#[derive(Clone)]
struct Hostile {
    pages: Arc<Mutex<Pages>>,
    served: Arc<AtomicUsize>,
}

impl Hostile {
    fn new(pages: Pages) -> Hostile {
        Hostile {
            pages: Arc::new(Mutex::new(pages)),
            served: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn served(&self) -> usize {
        self.served.load(Ordering::SeqCst)
    }
}

impl ServerHandler for Hostile {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let served = self.served.fetch_add(1, Ordering::SeqCst) + 1;
        let pages = self.pages.lock().unwrap().clone();
        Ok(match pages {
            Pages::One(tools) => ListToolsResult::with_all_items(tools),
            Pages::Endless(cap) => {
                let cursor = request.and_then(|r| r.cursor).unwrap_or_default();
                let mut page =
                    ListToolsResult::with_all_items(vec![tiny_tool(&format!("tool{served}"))]);
                page.next_cursor = (served < cap).then(|| format!("{cursor}+"));
                page
            }
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "silent" {
            std::future::pending::<()>().await;
        }
        Ok(rmcp::model::CallToolResult::structured(json!({})).into())
    }
}

fn tiny_tool(name: &str) -> Tool {
    tool(json!({"name": name, "inputSchema": {"type": "object"}}))
}

/// A validated client of `server`, its cache watching `tools/list_changed`.
async fn client_of(
    server: Hostile,
    options: ClientOptions,
) -> (RunningService<RoleClient, WatchToolList<()>>, ValidatedPeer) {
    let cache = ToolCache::new();
    let client = connect(server, WatchToolList::new((), cache.clone())).await;
    let peer = ValidatedPeer::new(client.peer().clone(), cache, options);
    (client, peer)
}

/// How long a test may run before it fails as hung: a client bug that makes it wait for
/// ever must fail the test, not stall the run.
const TEST_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs a test's body within [`TEST_TIMEOUT`].
async fn bounded<T>(body: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(TEST_TIMEOUT, body)
        .await
        .expect("the test hung: its body did not finish within TEST_TIMEOUT")
}

// ---- 14: endless pagination ----

#[tokio::test]
async fn endless_pagination_stops_at_max_pages() {
    bounded(async {
        // Before the bound, the client fetched every page offered: 10,000 here, without end
        // against a server that never stops.
        let server = Hostile::new(Pages::Endless(10_000));
        let (_client, peer) = client_of(server.clone(), ClientOptions::default()).await;
        let error = peer.list_all_tools().await.unwrap_err();
        let ClientError::ToolListTooLarge(too_large) = &error else {
            panic!("expected ToolListTooLarge, got {error}");
        };
        assert_eq!(too_large.bound, ListBound::Pages);
        assert_eq!(server.served(), ListLimits::DEFAULT_MAX_PAGES);
        assert!(error.to_string().contains("max_pages"), "{error}");

        // A refused list leaves no tool callable, and a call does not list again by itself
        // until the list changes.
        let error = peer.call_tool(call("tool1", None)).await.unwrap_err();
        assert!(matches!(error, ClientError::ToolListTooLarge(_)), "{error}");
        assert_eq!(server.served(), ListLimits::DEFAULT_MAX_PAGES);
    })
    .await
}

// ---- 13: a budget for the whole list ----

#[tokio::test]
async fn lists_over_the_tool_or_byte_bound_are_refused() {
    bounded(async {
        let many: Vec<Tool> = (0..1_001).map(|i| tiny_tool(&format!("t{i}"))).collect();
        let server = Hostile::new(Pages::One(many));
        let (_client, peer) = client_of(server.clone(), ClientOptions::default()).await;
        let error = peer.list_all_tools().await.unwrap_err();
        assert!(
            matches!(&error, ClientError::ToolListTooLarge(t)
                if t.bound == ListBound::Tools && t.limit == ListLimits::DEFAULT_MAX_TOOLS),
            "{error}"
        );
        assert!(
            error.to_string().contains("more than 1000 tools"),
            "{error}"
        );

        // 9 MiB of schema in two tools, each far below every per-schema limit.
        let enum_of =
            |n: usize| -> Vec<Value> { (0..n).map(|i| json!(format!("{i:0>40}"))).collect() };
        let big = |name: &str| {
            tool(json!({"name": name, "inputSchema": {"type": "object",
                "properties": {"x": {"enum": enum_of(110_000)}}}}))
        };
        *server.pages.lock().unwrap() = Pages::One(vec![big("a"), big("b")]);
        let error = peer.list_all_tools().await.unwrap_err();
        assert!(
            matches!(&error, ClientError::ToolListTooLarge(t) if t.bound == ListBound::Bytes),
            "{error}"
        );
        // Under a raised bound the same list compiles.
        let options = ClientOptions {
            list_limits: ListLimits {
                max_bytes: 16 << 20,
                ..ListLimits::default()
            },
            ..ClientOptions::default()
        };
        let (_client, peer) = client_of(server, options).await;
        let list = peer.list_all_tools().await.unwrap();
        assert_eq!((list.tools.len(), list.compiled), (2, 2));
    })
    .await
}

// ---- 15: duplicated names ----

#[tokio::test]
async fn every_entry_of_a_duplicated_name_is_refused() {
    bounded(async {
        let strict = tool(json!({"name": "strict", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "required": ["result"]}}));
        let lax = tiny_tool("strict");
        let server = Hostile::new(Pages::One(vec![strict, tiny_tool("other"), lax]));
        let (_client, peer) = client_of(server, ClientOptions::default()).await;
        let list = peer.list_all_tools().await.unwrap();
        let callable: Vec<&str> = list.tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(callable, ["other"]);
        let refused: Vec<&str> = list.refused.iter().map(|e| e.tool.as_str()).collect();
        assert_eq!(refused, ["strict", "strict"]);
        assert!(
            list.refused[0]
                .to_string()
                .contains("listed 2 times (entries 0, 2"),
            "{}",
            list.refused[0]
        );
        // Before, the second entry replaced the first, and `structuredContent: {}` passed.
        let error = peer.call_tool(call("strict", None)).await.unwrap_err();
        assert!(
            matches!(&error, ClientError::RefusedTool(e) if e.tool == "strict"),
            "{error}"
        );
    })
    .await
}

// ---- 16: floods of tools/list_changed ----

#[tokio::test]
async fn a_flood_of_list_changed_costs_one_listing_per_change_and_no_recompilation() {
    bounded(async {
        let tools: Vec<Tool> = (0..500).map(|i| tiny_tool(&format!("t{i}"))).collect();
        let server = Hostile::new(Pages::One(tools));
        let cache = ToolCache::new();
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let running_server = {
            let server = server.clone();
            tokio::spawn(async move { server.serve(server_io).await })
        };
        let notified = Notified::default();
        let client = WatchToolList::new(notified.clone(), cache.clone())
            .serve(client_io)
            .await
            .unwrap();
        let running_server = running_server.await.unwrap().unwrap();
        let peer = ValidatedPeer::new(
            client.peer().clone(),
            cache.clone(),
            ClientOptions::default(),
        );
        let first = peer.list_all_tools().await.unwrap();
        assert_eq!((first.compiled, first.reused), (500, 0));

        // A flood of notifications, then 20 calls at once: one listing serves them all.
        for _ in 0..1_000 {
            running_server
                .peer()
                .notify_tool_list_changed()
                .await
                .unwrap();
        }
        // The wrapper invalidates the cache before the handler sees a notification.
        notified.wait_for(1_000).await;
        assert!(!cache.is_fresh());
        let served = server.served();
        let calls: Vec<_> = (0..20)
            .map(|i| {
                let peer = peer.clone();
                tokio::spawn(async move { peer.call_tool(call_owned(format!("t{i}"))).await })
            })
            .collect();
        for call in calls {
            call.await.unwrap().unwrap();
        }
        // Before: each of the 20 calls listed (and compiled 500 tools) again.
        assert_eq!(server.served() - served, 1, "listings for 20 calls");

        // The schemas did not change: nothing is compiled again.
        let again = peer.list_all_tools().await.unwrap();
        assert_eq!((again.compiled, again.reused), (0, 500));
        // A changed schema is compiled again, and only that one.
        {
            let mut pages = server.pages.lock().unwrap();
            let Pages::One(tools) = &mut *pages else {
                unreachable!()
            };
            tools[7] = tool(json!({"name": "t7", "inputSchema": {"type": "object",
                "required": ["now"]}}));
        }
        let changed = peer.list_all_tools().await.unwrap();
        assert_eq!((changed.compiled, changed.reused), (1, 499));
    })
    .await
}

/// `tools/call` parameters for a tool named at run time.
fn call_owned(name: String) -> CallToolRequestParams {
    CallToolRequestParams::new(name)
}

/// A client handler that counts `tools/list_changed` notifications.
#[derive(Clone, Default)]
struct Notified(Arc<AtomicUsize>);

impl Notified {
    /// Waits until `count` notifications were handled (at most 30 s, then panics).
    async fn wait_for(&self, count: usize) {
        tokio::time::timeout(Duration::from_secs(30), async {
            while self.0.load(Ordering::SeqCst) < count {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the notifications reached the client");
    }
}

impl rmcp::ClientHandler for Notified {
    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

// ---- 17: replies that never come ----

#[tokio::test(start_paused = true)]
async fn a_call_without_an_answer_times_out() {
    let server = Hostile::new(Pages::One(vec![tiny_tool("silent")]));
    let (_client, peer) = client_of(server, ClientOptions::default()).await;
    // The paused clock advances by itself while everything waits: no real waiting.
    let started = tokio::time::Instant::now();
    let outcome = tokio::time::timeout(
        Duration::from_secs(3_600),
        peer.call_tool(call("silent", None)),
    )
    .await
    .expect("before the request timeout, the call waited for ever");
    let error = outcome.unwrap_err();
    let ClientError::Timeout { request, after } = &error else {
        panic!("expected Timeout, got {error}");
    };
    assert_eq!(request, "tools/call \"silent\"");
    assert_eq!(*after, ClientOptions::DEFAULT_REQUEST_TIMEOUT);
    assert_eq!(started.elapsed().as_secs(), 60, "on the paused clock");
    assert!(error.to_string().contains("request_timeout"), "{error}");
}

// ---- 18: isError texts that keys cannot forge or flood ----

#[tokio::test]
async fn is_error_texts_escape_keys_and_cut_long_locations() {
    bounded(async {
        let tools = vec![tool(
            json!({"name": "strict", "inputSchema": {"type": "object",
            "additionalProperties": false}}),
        )];
        let validators = ToolValidators::compile(&tools).unwrap();
        let scripted = Scripted::new(tools);
        let client = connect(ValidatedServer::new(scripted, validators), ()).await;
        let sneaky = "a\u{202e}b\u{2028}c\u{2029}d\u{200b}e\u{feff}f";
        let long = "k".repeat(15_000_000);
        let mut arguments = Map::new();
        arguments.insert(sneaky.into(), json!(1));
        arguments.insert(long, json!(1));
        let mut params = CallToolRequestParams::new("strict");
        params.arguments = Some(arguments);
        let result = client.peer().call_tool(params).await.unwrap();
        assert_eq!(result.is_error, Some(true));
        // Before: the 15 MB key came back whole (a 15.7 MB answer), the others raw.
        let answer = serde_json::to_string(&result).unwrap();
        assert!(answer.len() < 4_000, "{} bytes", answer.len());
        let shown = text(&result);
        for c in ['\u{202e}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{feff}'] {
            assert!(!shown.contains(c), "U+{:04X} raw in {shown:?}", c as u32);
        }
        assert!(
            shown.contains(r#""/a\u202eb\u2028c\u2029d\u200be\ufefff": "#),
            "{shown}"
        );
        assert!(shown.contains("… (cut: 15000001 characters): "), "{shown}");
        let basic = basic_output(&result);
        let cut = basic["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|e| e.get("instanceLocationCut"));
        assert_eq!(cut, Some(&json!(15_000_001)));
    })
    .await
}
