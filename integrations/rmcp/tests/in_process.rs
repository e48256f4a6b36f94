//! The server layer and the client layer against each other and against a server that
//! checks nothing, in-process over `tokio::io::duplex`, with validators compiled by the
//! interpreter (the generated-code source is tested in `generated-examples/mcp-server`).

mod common;

use common::{Scripted, basic_output, call, connect, text, tool, weather_tools};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemac::CompileErrorKind;
use schemac_rmcp::{
    ClientError, ClientOptions, ToolCache, ToolValidators, ValidatedPeer, ValidatedServer,
    WatchToolList,
};
use serde_json::json;
use std::time::Duration;

/// A validated scripted server and a plain client.
async fn plain_client_of_validated() -> (
    rmcp::service::RunningService<rmcp::service::RoleClient, ()>,
    Scripted,
) {
    let scripted = Scripted::new(weather_tools());
    let validators = ToolValidators::compile(&weather_tools()).expect("the tools compile");
    let client = connect(ValidatedServer::new(scripted.clone(), validators), ()).await;
    (client, scripted)
}

#[tokio::test]
async fn server_passes_a_valid_call() {
    let (client, scripted) = plain_client_of_validated().await;
    let result = client
        .peer()
        .call_tool(call("forecast", Some(json!({"city": "Lisbon", "days": 2}))))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        result.structured_content,
        Some(json!({"city": "Lisbon", "humidity": 62}))
    );
    assert_eq!(scripted.calls(), 1);
}

#[tokio::test]
async fn server_refuses_invalid_arguments_before_the_handler() {
    let (client, scripted) = plain_client_of_validated().await;
    let secret = "a-secret-value-longer-than-twenty";
    let result = client
        .peer()
        .call_tool(call(
            "forecast",
            Some(json!({"city": secret, "days": 9, "unit": "K"})),
        ))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let text = text(&result);
    assert!(
        text.starts_with("invalid arguments for tool \"forecast\":"),
        "{text}"
    );
    // One line per error, `location: message`, and the basic output under `_meta`.
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for want in ["/city: ", "/days: ", "/unit: "] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "{want} in {text}"
        );
    }
    let basic = basic_output(&result);
    assert_eq!(basic["valid"], false);
    let locations: Vec<&str> = basic["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["instanceLocation"].as_str().unwrap())
        .collect();
    for want in ["/city", "/days", "/unit"] {
        assert!(
            locations.contains(&want),
            "{want} missing from {locations:?}"
        );
    }
    assert!(
        !text.contains(secret),
        "the instance value is echoed: {text}"
    );
    assert_eq!(scripted.calls(), 0, "the handler ran");
}

#[tokio::test]
async fn server_checks_absent_arguments_as_an_empty_object() {
    let (client, scripted) = plain_client_of_validated().await;
    let refused = client
        .peer()
        .call_tool(call("forecast", None))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert!(text(&refused).contains("\n(root): "), "{}", text(&refused));
    assert_eq!(basic_output(&refused)["errors"][0]["instanceLocation"], "");
    let passed = client.peer().call_tool(call("ping", None)).await.unwrap();
    assert_eq!(passed.is_error, Some(false), "{}", text(&passed));
    assert_eq!(scripted.calls(), 1);
}

#[tokio::test]
async fn server_does_not_send_output_that_breaks_the_output_schema() {
    let (client, scripted) = plain_client_of_validated().await;
    let result = client
        .peer()
        .call_tool(call("forecast", Some(json!({"city": "Atlantis"}))))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None, "the bad output was sent");
    let text = text(&result);
    assert!(
        text.starts_with("tool \"forecast\" broke its outputSchema contract"),
        "{text}"
    );
    assert!(text.contains("/humidity"), "{text}");
    assert!(
        !text.contains("140"),
        "the instance value is echoed: {text}"
    );

    let missing = client
        .peer()
        .call_tool(call("forecast", Some(json!({"city": "Nowhere"}))))
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true));
    assert!(common::text(&missing).ends_with("no structuredContent"));
    assert_eq!(scripted.calls(), 2, "the handler ran both times");
}

#[tokio::test]
async fn server_checks_non_object_output_that_rmcp_moves_to_text_for_legacy_peers() {
    let numbers = vec![tool(json!({"name": "numbers",
        "inputSchema": {"type": "object", "properties": {"bad": {"type": "boolean"}}},
        "outputSchema": {"type": "array", "items": {"type": "integer"}}}))];
    let validators = ToolValidators::compile(&numbers).unwrap();
    // The plain client negotiates 2025-11-25 through `initialize`.
    let client = connect(ValidatedServer::new(Scripted::new(numbers), validators), ()).await;
    let good = client
        .peer()
        .call_tool(call("numbers", None))
        .await
        .unwrap();
    assert_eq!(good.is_error, Some(false), "{}", text(&good));
    assert_eq!(
        good.structured_content, None,
        "rmcp strips non-object output for legacy peers"
    );
    assert_eq!(text(&good), "[1,2]");
    let bad = client
        .peer()
        .call_tool(call("numbers", Some(json!({"bad": true}))))
        .await
        .unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("\n/1: "), "{}", text(&bad));
    assert_eq!(basic_output(&bad)["errors"][0]["instanceLocation"], "/1");
    assert!(!text(&bad).contains("two"), "{}", text(&bad));
}

#[tokio::test]
async fn server_refuses_a_tool_it_has_no_validators_for() {
    let scripted = Scripted::new(weather_tools());
    let only_ping = ToolValidators::compile(&weather_tools()[1..2]).unwrap();
    let client = connect(ValidatedServer::new(scripted.clone(), only_ping), ()).await;
    let error = client
        .peer()
        .call_tool(call("forecast", Some(json!({"city": "Oslo"}))))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("tool not found"), "{error}");
    assert_eq!(scripted.calls(), 0);
    // Other requests pass through to the handler.
    let tools = client.peer().list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 3);
}

#[test]
fn a_tool_whose_schema_does_not_compile_stops_start_up() {
    let mut tools = weather_tools();
    tools.push(tool(json!({"name": "custom",
        "inputSchema": {"$schema": "https://example.com/custom", "type": "object"}})));
    tools.push(tool(json!({"name": "remote",
        "inputSchema": {"type": "object", "$ref": "https://example.com/defs.json#/x"}})));
    tools.push(tool(json!({"name": "shape",
        "inputSchema": {"type": "object", "properties": {"a": {"minimum": "1"}}}})));
    tools.push(tool(
        json!({"name": "array_input", "inputSchema": {"type": "array"}}),
    ));
    let errors = ToolValidators::compile(&tools).unwrap_err();
    let by_tool: Vec<&str> = errors.0.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(
        by_tool,
        ["custom", "remote", "shape", "array_input"],
        "{errors}"
    );
    assert!(errors.0[0].has_kind(&CompileErrorKind::UnsupportedDialect));
    assert!(errors.0[1].has_kind(&CompileErrorKind::RemoteRef));
    assert!(errors.0[2].has_kind(&CompileErrorKind::InvalidKeyword));
    let shown = errors.to_string();
    assert!(shown.contains("tool \"remote\""), "{shown}");
    assert!(shown.contains("inputSchema"), "{shown}");
}

// ---- the ToolRouter source: schemas from schemars, compiled at start-up ----

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddRequest {
    /// First addend.
    a: i32,
    /// Second addend.
    b: i32,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: i64,
}

#[derive(Clone)]
struct Calculator {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Calculator {
    fn new() -> Self {
        Calculator {
            tool_router: Self::tool_router(),
        }
    }

    /// Adds two numbers.
    #[tool(description = "Adds two numbers")]
    async fn add(&self, Parameters(request): Parameters<AddRequest>) -> Json<Sum> {
        Json(Sum {
            sum: i64::from(request.a) + i64::from(request.b),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Calculator {}

#[tokio::test]
async fn server_validators_from_a_tool_router() {
    let validators = ToolValidators::from_router(&Calculator::tool_router()).unwrap();
    assert_eq!(validators.names().collect::<Vec<_>>(), ["add"]);
    assert!(validators.get("add").unwrap().has_output());
    let client = connect(ValidatedServer::new(Calculator::new(), validators), ()).await;
    let ok = client
        .peer()
        .call_tool(call("add", Some(json!({"a": 2, "b": 3}))))
        .await
        .unwrap();
    assert_eq!(ok.structured_content, Some(json!({"sum": 5})));
    // `b` is required by the schema schemars derived.
    let refused = client
        .peer()
        .call_tool(call("add", Some(json!({"a": 2}))))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("invalid arguments for tool \"add\""),
        "{}",
        text(&refused)
    );
}

// ---- the client side ----

fn stranger_tools() -> Vec<rmcp::model::Tool> {
    let mut tools = weather_tools();
    tools.push(tool(json!({"name": "custom",
        "inputSchema": {"$schema": "https://example.com/custom", "type": "object"}})));
    tools.push(tool(json!({"name": "remote",
        "inputSchema": {"type": "object",
            "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/id"}}}})));
    tools.push(tool(json!({"name": "liar",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}},
            "required": ["count"]}})));
    tools.push(tool(json!({"name": "failing",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}}})));
    tools
}

/// A validated client of the stranger server.
async fn validated_client_of(
    server: Scripted,
    options: ClientOptions,
) -> (
    rmcp::service::RunningService<rmcp::service::RoleClient, WatchToolList<()>>,
    ValidatedPeer,
) {
    let cache = ToolCache::new();
    let client = connect(server, WatchToolList::new((), cache.clone())).await;
    let peer = ValidatedPeer::new(client.peer().clone(), cache, options);
    (client, peer)
}

#[tokio::test]
async fn client_refuses_strangers_tools_that_do_not_compile() {
    let stranger = Scripted::new(stranger_tools());
    let (_client, peer) = validated_client_of(stranger.clone(), ClientOptions::default()).await;
    let list = peer.list_all_tools().await.unwrap();
    let names: Vec<&str> = list.tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["forecast", "ping", "needs_token", "liar", "failing"]
    );
    let refused: Vec<&str> = list.refused.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(refused, ["custom", "remote"]);
    assert!(
        list.refused[0].has_kind(&CompileErrorKind::UnsupportedDialect),
        "{}",
        list.refused[0]
    );
    assert!(
        list.refused[1].has_kind(&CompileErrorKind::RemoteRef),
        "{}",
        list.refused[1]
    );

    let error = peer.call_tool(call("custom", None)).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::RefusedTool(e) if e.tool == "custom"),
        "{error}"
    );
    let error = peer.call_tool(call("absent", None)).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::UnknownTool(t) if t == "absent"),
        "{error}"
    );
    assert_eq!(stranger.calls(), 0, "a refused tool was called");
}

#[tokio::test]
async fn client_accepts_a_remote_ref_to_a_registered_document() {
    let stranger = Scripted::new(stranger_tools());
    let options = ClientOptions {
        validator: schemac::options().with_document(
            "https://example.com/defs.json",
            json!({"$defs": {"id": {"type": "integer"}}}),
        ),
        ..ClientOptions::default()
    };
    let (_client, peer) = validated_client_of(stranger, options).await;
    let list = peer.list_all_tools().await.unwrap();
    let refused: Vec<&str> = list.refused.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(refused, ["custom"]);
}

#[tokio::test]
async fn client_reports_structured_content_that_breaks_the_output_schema() {
    let stranger = Scripted::new(stranger_tools());
    let (_client, peer) = validated_client_of(stranger.clone(), ClientOptions::default()).await;
    // No listing first: the first call lists and compiles the tools.
    let error = peer.call_tool(call("liar", None)).await.unwrap_err();
    let ClientError::InvalidOutput {
        tool,
        errors,
        result,
    } = &error
    else {
        panic!("expected InvalidOutput, got {error}");
    };
    assert_eq!(tool, "liar");
    assert_eq!(errors["valid"], false);
    assert_eq!(errors["errors"][0]["instanceLocation"], "/count");
    assert_eq!(result.structured_content, Some(json!({"count": "three"})));
    assert!(!error.to_string().contains("three"), "{error}");

    let error = peer
        .call_tool(call("forecast", Some(json!({"city": "Nowhere"}))))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("sent no structuredContent"),
        "{error}"
    );

    // isError results are not checked against the output schema.
    let failing = peer.call_tool(call("failing", None)).await.unwrap();
    assert_eq!(failing.is_error, Some(true));

    let good = peer
        .call_tool(call("forecast", Some(json!({"city": "Oslo"}))))
        .await
        .unwrap();
    assert_eq!(
        good.structured_content,
        Some(json!({"city": "Oslo", "humidity": 62}))
    );
    assert_eq!(stranger.calls(), 4);
}

#[tokio::test]
async fn client_checks_arguments_before_sending_when_asked() {
    let stranger = Scripted::new(stranger_tools());
    let options = ClientOptions {
        check_arguments: true,
        ..ClientOptions::default()
    };
    let (_client, peer) = validated_client_of(stranger.clone(), options).await;
    let error = peer
        .call_tool(call("forecast", Some(json!({"city": ""}))))
        .await
        .unwrap_err();
    assert!(matches!(&error, ClientError::InvalidArguments { tool, .. } if tool == "forecast"));
    let error = peer.call_tool(call("needs_token", None)).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::InvalidArguments { .. }),
        "{error}"
    );
    assert_eq!(stranger.calls(), 0, "an invalid call was sent");
    peer.call_tool(call("needs_token", Some(json!({"token": "t"}))))
        .await
        .unwrap();
    assert_eq!(stranger.calls(), 1);
}

#[tokio::test]
async fn client_recompiles_after_tools_list_changed() {
    let stranger = Scripted::new(stranger_tools());
    let cache = ToolCache::new();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = {
        let stranger = stranger.clone();
        tokio::spawn(async move { rmcp::ServiceExt::serve(stranger, server_io).await })
    };
    let client = rmcp::ServiceExt::serve(WatchToolList::new((), cache.clone()), client_io)
        .await
        .unwrap();
    let server = server.await.unwrap().unwrap();
    let peer = ValidatedPeer::new(
        client.peer().clone(),
        cache.clone(),
        ClientOptions::default(),
    );

    peer.call_tool(call("ping", None)).await.unwrap();
    assert!(cache.is_fresh());

    // The stranger now declares an output schema that `ping`'s result breaks.
    {
        let mut tools = stranger.tools.lock().unwrap();
        let ping = tools.iter_mut().find(|t| t.name == "ping").unwrap();
        ping.output_schema = Some(std::sync::Arc::new(
            json!({"type": "object", "required": ["latency"]})
                .as_object()
                .unwrap()
                .clone(),
        ));
    }
    server.peer().notify_tool_list_changed().await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), async {
        while cache.is_fresh() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("tools/list_changed reached the cache");

    let error = peer.call_tool(call("ping", None)).await.unwrap_err();
    assert!(
        matches!(&error, ClientError::InvalidOutput { .. }),
        "{error}"
    );
    assert!(cache.is_fresh());
}

// ---- both layers ----

#[tokio::test]
async fn validated_client_against_validated_server() {
    let scripted = Scripted::new(stranger_tools()[..3].to_vec());
    let validators = ToolValidators::compile(&weather_tools()).unwrap();
    let cache = ToolCache::new();
    let client = connect(
        ValidatedServer::new(scripted.clone(), validators),
        WatchToolList::new((), cache.clone()),
    )
    .await;
    let options = ClientOptions {
        check_arguments: true,
        ..ClientOptions::default()
    };
    let peer = ValidatedPeer::new(client.peer().clone(), cache, options);
    let list = peer.list_all_tools().await.unwrap();
    assert_eq!(list.tools.len(), 3);
    assert!(list.refused.is_empty());

    let ok = peer
        .call_tool(call("forecast", Some(json!({"city": "Lisbon"}))))
        .await
        .unwrap();
    assert_eq!(
        ok.structured_content,
        Some(json!({"city": "Lisbon", "humidity": 62}))
    );
    // The server does not send the bad output: the client sees the server's error result.
    let caught = peer
        .call_tool(call("forecast", Some(json!({"city": "Atlantis"}))))
        .await
        .unwrap();
    assert_eq!(caught.is_error, Some(true));
    assert!(text(&caught).contains("broke its outputSchema contract"));
    // The client refuses bad arguments before they reach the server.
    let error = peer
        .call_tool(call("forecast", Some(json!({"town": "Lisbon"}))))
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::InvalidArguments { .. }));
    assert_eq!(scripted.calls(), 2);
}
