//! The client side: a stranger's tools compiled under MCP's rules before they are called,
//! and their results checked.
//!
//! [`ValidatedPeer`] wraps the client's `Peer<RoleClient>`. Listing tools compiles every
//! tool's schemas (2020-12 default, draft-07 allowed, other dialects refused, nothing
//! fetched, limits on); a tool whose schemas do not compile is reported in
//! [`ToolList::refused`] and cannot be called. A call's `structuredContent` is checked
//! against the tool's `outputSchema` (not when the result says `isError: true`), and,
//! when [`ClientOptions::check_arguments`] is set, its arguments before they are sent.
//!
//! A hostile server cannot make the client work without bound:
//!
//! - a listing is bounded as a whole ([`ListLimits`]: pages, tools, bytes; over a bound the
//!   list is refused with [`ClientError::ToolListTooLarge`]), and the schemas are compiled
//!   on tokio's blocking threads (`spawn_blocking`), never on the async ones;
//! - every entry of a tool name listed more than once is refused, so that a second entry
//!   without an `outputSchema` cannot stand in for the first;
//! - every request (each `tools/list` page, each `tools/call`) has a timeout
//!   ([`ClientOptions::request_timeout`], default 60 s): a reply that never comes, or that
//!   rmcp drops as unreadable, ends in [`ClientError::Timeout`] and the request is
//!   cancelled.
//!
//! Validators are cached per tool. [`WatchToolList`] wraps the client's handler so that
//! `notifications/tools/list_changed` marks the cache stale; the next call lists the tools
//! again. One listing runs at a time and serves every call that was waiting for it, so a
//! flood of notifications costs at most one listing per change seen by a call; a tool
//! whose schemas did not change keeps its compiled validators.

mod listing;

pub use listing::{ListBound, ListLimits, ListTooLarge, ToolList};

use crate::report;
use crate::tools::{ToolError, ToolValidator};
use listing::{CachedTool, Listing};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, PaginatedRequestParams, ProtocolVersion,
    ServerNotification,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleClient, Service, ServiceError, ServiceRole,
};
use schemac::ValidatorOptions;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// What the client checks, the compiler options for strangers' schemas, and the bounds on
/// what a server can make the client do.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Check arguments against the `inputSchema` before sending a call (default: off; the
    /// server should check them, and a refused call costs a round trip only).
    pub check_arguments: bool,
    /// Compiler options (offline documents, limits, format assertion); MCP's dialect rules
    /// are always applied on top.
    pub validator: ValidatorOptions,
    /// Bounds on one listing of the server's tools as a whole.
    pub list_limits: ListLimits,
    /// How long to wait for the answer to one request (a `tools/list` page, a
    /// `tools/call`) before giving up with [`ClientError::Timeout`] and cancelling it
    /// (default [`ClientOptions::DEFAULT_REQUEST_TIMEOUT`]).
    pub request_timeout: Duration,
}

impl ClientOptions {
    /// The default [`ClientOptions::request_timeout`]: 60 seconds.
    pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            check_arguments: false,
            validator: ValidatorOptions::default(),
            list_limits: ListLimits::default(),
            request_timeout: ClientOptions::DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

/// The compiled tools, shared by a [`ValidatedPeer`] and its [`WatchToolList`].
#[derive(Debug, Clone, Default)]
pub struct ToolCache {
    state: Arc<Mutex<CacheState>>,
    /// Held while a listing runs, so that one runs at a time.
    listing: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Debug, Default)]
struct CacheState {
    /// Set when the tools were listed and nothing changed since.
    fresh: bool,
    /// Counts invalidations, so that a listing that raced with one is not taken as fresh.
    generation: u64,
    /// The generation at the start of the last listing that completed.
    listed_at: Option<u64>,
    tools: BTreeMap<String, CachedTool>,
    /// Set when the last listing was over a bound: then no tool may be called.
    too_large: Option<ListTooLarge>,
}

impl ToolCache {
    /// An empty cache.
    pub fn new() -> ToolCache {
        ToolCache::default()
    }

    /// Marks the cache stale: the next call or listing lists the tools again.
    pub fn invalidate(&self) {
        let mut state = self.lock();
        state.fresh = false;
        state.generation += 1;
    }

    /// Whether the tools were listed and no `tools/list_changed` arrived since.
    pub fn is_fresh(&self) -> bool {
        self.lock().fresh
    }

    /// Records a completed listing that started at `generation`: its tools, or the bound
    /// it went over.
    fn settle(
        &self,
        generation: u64,
        tools: BTreeMap<String, CachedTool>,
        too_large: Option<ListTooLarge>,
    ) {
        let mut state = self.lock();
        state.tools = tools;
        state.too_large = too_large;
        state.listed_at = Some(generation);
        state.fresh = state.generation == generation;
    }

    fn lock(&self) -> MutexGuard<'_, CacheState> {
        // A panic while holding the lock leaves only a map behind; keep using it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Wraps a client handler (any `Service<RoleClient>`, `()` included) so that
/// `notifications/tools/list_changed` invalidates a [`ToolCache`]; everything is then
/// passed on to the handler.
#[derive(Debug, Clone)]
pub struct WatchToolList<S> {
    inner: S,
    cache: ToolCache,
}

impl<S> WatchToolList<S> {
    /// `inner`, invalidating `cache` when the server's tool list changes.
    pub fn new(inner: S, cache: ToolCache) -> WatchToolList<S> {
        WatchToolList { inner, cache }
    }
}

impl<S: Service<RoleClient>> Service<RoleClient> for WatchToolList<S> {
    async fn handle_request(
        &self,
        request: <RoleClient as ServiceRole>::PeerReq,
        context: RequestContext<RoleClient>,
    ) -> Result<<RoleClient as ServiceRole>::Resp, McpError> {
        self.inner.handle_request(request, context).await
    }

    async fn handle_notification(
        &self,
        notification: <RoleClient as ServiceRole>::PeerNot,
        context: NotificationContext<RoleClient>,
    ) -> Result<(), McpError> {
        if matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ) {
            self.cache.invalidate();
        }
        self.inner.handle_notification(notification, context).await
    }

    fn get_info(&self) -> ClientConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
}

/// Why a checked call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The request failed in rmcp (transport, protocol, a JSON-RPC error).
    Service(ServiceError),
    /// The tool is not in the server's tool list.
    UnknownTool(String),
    /// The tool's schemas did not compile, so it is not called.
    RefusedTool(ToolError),
    /// The arguments break the tool's `inputSchema` (with
    /// [`ClientOptions::check_arguments`]); nothing was sent.
    InvalidArguments {
        /// The tool.
        tool: String,
        /// The errors, in the 2020-12 basic output format as the crate's messages hold
        /// it ([`crate::report::structured`]: long locations cut).
        errors: Value,
    },
    /// The server's tool list is over a bound of [`ListLimits`]; no tool can be called
    /// until the list changes.
    ToolListTooLarge(ListTooLarge),
    /// No answer to a request within [`ClientOptions::request_timeout`] (the server sent
    /// none, or one rmcp could not read); the request was cancelled.
    Timeout {
        /// The request: `tools/list`, or `tools/call` and the tool's name.
        request: String,
        /// How long the client waited.
        after: Duration,
    },
    /// The result's `structuredContent` breaks the tool's `outputSchema` (or is missing).
    InvalidOutput {
        /// The tool.
        tool: String,
        /// The errors, in the 2020-12 basic output format as the crate's messages hold
        /// it ([`crate::report::structured`]; `Null` when the structured content is
        /// missing).
        errors: Value,
        /// The result as received, for inspection; do not trust it.
        result: Box<CallToolResult>,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Service(error) => write!(f, "{error}"),
            ClientError::UnknownTool(tool) => {
                write!(f, "tool {tool:?} is not in the server's tool list")
            }
            ClientError::RefusedTool(error) => write!(f, "refused {error}"),
            ClientError::ToolListTooLarge(too_large) => write!(f, "{too_large}"),
            ClientError::Timeout { request, after } => write!(
                f,
                "{request}: no answer within {} s (ClientOptions::request_timeout); \
                 the request was cancelled",
                after.as_secs_f64()
            ),
            ClientError::InvalidArguments { tool, errors } => {
                let heading = format!("invalid arguments for tool {tool:?}:");
                f.write_str(&report::text(&heading, errors))
            }
            ClientError::InvalidOutput { tool, errors, .. } if errors.is_null() => write!(
                f,
                "tool {tool:?} declares an outputSchema but sent no structuredContent"
            ),
            ClientError::InvalidOutput { tool, errors, .. } => {
                let heading =
                    format!("tool {tool:?} sent structuredContent that breaks its outputSchema:");
                f.write_str(&report::text(&heading, errors))
            }
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Service(error) => Some(error),
            ClientError::RefusedTool(error) => Some(error),
            ClientError::ToolListTooLarge(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ServiceError> for ClientError {
    fn from(error: ServiceError) -> Self {
        ClientError::Service(error)
    }
}

/// A client `Peer` whose tools are compiled and whose calls are checked: see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct ValidatedPeer {
    peer: Peer<RoleClient>,
    cache: ToolCache,
    options: Arc<ClientOptions>,
}

impl ValidatedPeer {
    /// Wraps `peer`; `cache` is the one given to the client's [`WatchToolList`] (a fresh
    /// [`ToolCache`] when the handler is not wrapped: then the cache is only rebuilt by
    /// [`ValidatedPeer::list_all_tools`]).
    pub fn new(peer: Peer<RoleClient>, cache: ToolCache, options: ClientOptions) -> ValidatedPeer {
        ValidatedPeer {
            peer,
            cache,
            options: Arc::new(options),
        }
    }

    /// The wrapped peer, for everything that is not a tool.
    pub fn peer(&self) -> &Peer<RoleClient> {
        &self.peer
    }

    /// The cache of compiled tools.
    pub fn cache(&self) -> &ToolCache {
        &self.cache
    }

    /// Lists every tool (page by page, within [`ClientOptions::list_limits`]), compiles
    /// each — reusing the validators of a tool whose schemas did not change — and
    /// replaces the cache with the result. A list over a bound is refused: the cache then
    /// holds no tool until the list changes. A `tools/list_changed` that arrives while the
    /// listing is under way leaves the cache stale, so the next call lists again.
    pub async fn list_all_tools(&self) -> Result<ToolList, ClientError> {
        let _one_at_a_time = self.cache.listing.lock().await;
        self.relist().await
    }

    /// Lists and compiles the tools; the caller holds the cache's listing lock.
    async fn relist(&self) -> Result<ToolList, ClientError> {
        let generation = self.cache.lock().generation;
        let listing = match self.fetch().await {
            Ok(listing) => listing,
            Err(ClientError::ToolListTooLarge(too_large)) => {
                self.cache
                    .settle(generation, BTreeMap::new(), Some(too_large));
                return Err(ClientError::ToolListTooLarge(too_large));
            }
            Err(error) => return Err(error),
        };
        let previous = self.cache.lock().tools.clone();
        let options = self.options.clone();
        let (tools, list) =
            off_thread(move || listing.compile(&previous, &options.validator)).await?;
        self.cache.settle(generation, tools, None);
        Ok(list)
    }

    /// Every page of the server's tool list, within the limits.
    async fn fetch(&self) -> Result<Listing, ClientError> {
        let mut listing = Listing::new(self.options.list_limits);
        let mut cursor = None;
        loop {
            let params = cursor.map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
            let page = self
                .timed(|| "tools/list".into(), self.peer.list_tools(params))
                .await?;
            listing
                .add_page(page.tools, page.next_cursor.is_some())
                .map_err(ClientError::ToolListTooLarge)?;
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(listing),
            }
        }
    }

    /// `request`'s answer, or [`ClientError::Timeout`] after
    /// [`ClientOptions::request_timeout`] (dropping the request makes rmcp cancel it).
    async fn timed<T>(
        &self,
        request: impl FnOnce() -> String,
        answer: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, ClientError> {
        let after = self.options.request_timeout;
        match tokio::time::timeout(after, answer).await {
            Ok(answer) => answer.map_err(ClientError::Service),
            Err(_) => Err(ClientError::Timeout {
                request: request(),
                after,
            }),
        }
    }

    /// Lists the tools again when the cache is stale, unless a listing that started since
    /// this call saw it stale has completed meanwhile (one listing serves every call that
    /// waited for it).
    async fn ensure_listed(&self) -> Result<(), ClientError> {
        let stale_at = {
            let state = self.cache.lock();
            if state.fresh {
                return Ok(());
            }
            state.generation
        };
        let _one_at_a_time = self.cache.listing.lock().await;
        if self.cache.lock().listed_at.is_some_and(|at| at >= stale_at) {
            return Ok(());
        }
        self.relist().await.map(drop)
    }

    /// The compiled validators of `name`, listing the tools first when the cache is stale.
    async fn validator(&self, name: &str) -> Result<ToolValidator, ClientError> {
        self.ensure_listed().await?;
        let state = self.cache.lock();
        if let Some(too_large) = state.too_large {
            return Err(ClientError::ToolListTooLarge(too_large));
        }
        match state.tools.get(name).map(|cached| &cached.outcome) {
            Some(Ok(validator)) => Ok(validator.clone()),
            Some(Err(error)) => Err(ClientError::RefusedTool(error.clone())),
            None => Err(ClientError::UnknownTool(name.to_string())),
        }
    }

    /// Calls a tool the server listed and whose schemas compiled; checks the arguments
    /// first when asked ([`ClientOptions::check_arguments`]), and the result's
    /// `structuredContent` against the `outputSchema` (unless the result is an error).
    pub async fn call_tool(
        &self,
        mut params: CallToolRequestParams,
    ) -> Result<CallToolResult, ClientError> {
        let name = params.name.to_string();
        let tool = self.validator(&name).await?;
        if self.options.check_arguments {
            let (arguments, checked) = tool.check_arguments(params.arguments.take());
            params.arguments = arguments;
            if let Err(failed) = checked {
                return Err(ClientError::InvalidArguments {
                    tool: name,
                    errors: report::structured(&failed),
                });
            }
        }
        let result = self
            .timed(
                || format!("tools/call {name:?}"),
                self.peer.call_tool(params),
            )
            .await?;
        if !tool.has_output() || result.is_error == Some(true) {
            return Ok(result);
        }
        let Some(structured) = &result.structured_content else {
            return Err(ClientError::InvalidOutput {
                tool: name,
                errors: Value::Null,
                result: Box::new(result),
            });
        };
        match tool.check_output(structured) {
            Ok(()) => Ok(result),
            Err(failed) => Err(ClientError::InvalidOutput {
                tool: name,
                errors: report::structured(&failed),
                result: Box::new(result),
            }),
        }
    }
}

/// Runs `work` on tokio's blocking threads, so that a long compile never holds an async
/// worker thread (a panic in `work` is resumed here).
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ClientError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => Ok(done),
        Err(failed) => match failed.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(_) => Err(ClientError::Service(ServiceError::Cancelled {
                reason: Some("the runtime shut down while the tools compiled".into()),
            })),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn compilation_runs_off_the_async_thread() {
        let here = std::thread::current().id();
        let there = off_thread(|| std::thread::current().id()).await.unwrap();
        assert_ne!(here, there);
    }
}
