//! The example server (generated and interpreted validators) against schemac-rmcp's
//! validating client, in-process over `tokio::io::duplex`.

use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::ServiceExt;
use schemac_example_mcp_server::{server, Validators};
use schemac_rmcp::{ClientError, ClientOptions, ToolCache, ValidatedPeer, WatchToolList};
use serde_json::{json, Value};

async fn connect(
    source: Validators,
    options: ClientOptions,
) -> (RunningService<RoleClient, WatchToolList<()>>, ValidatedPeer) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = server(source).expect("the tool schemas compile");
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    let cache = ToolCache::new();
    let client = WatchToolList::new((), cache.clone())
        .serve(client_io)
        .await
        .expect("client starts");
    let peer = ValidatedPeer::new(client.peer().clone(), cache, options);
    (client, peer)
}

fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name);
    params.arguments = arguments.as_object().cloned();
    params
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    let first = result.content.first().and_then(|c| c.as_text());
    first.map(|t| t.text.clone()).unwrap_or_default()
}

#[tokio::test]
async fn both_validator_sources_check_calls_end_to_end() {
    for source in [Validators::Generated, Validators::Interpreted] {
        let (_client, peer) = connect(source, ClientOptions::default()).await;
        let list = peer.list_all_tools().await.unwrap();
        assert_eq!(list.tools.len(), 3, "{source:?}");
        assert!(list.refused.is_empty(), "{:?}", list.refused);

        let ok = peer
            .call_tool(call("get_weather", json!({"location": "Oslo", "days": 3})))
            .await
            .unwrap();
        let forecast = &ok.structured_content.as_ref().unwrap()["forecast"];
        assert_eq!(forecast.as_array().unwrap().len(), 3, "{source:?}");

        // The server refuses the arguments (the client does not check them by default).
        let refused = peer
            .call_tool(call("get_weather", json!({"location": "Oslo", "days": 0})))
            .await
            .unwrap();
        assert_eq!(refused.is_error, Some(true));
        assert!(text(&refused).contains("\n/days: "), "{}", text(&refused));
        // The keyword is in the basic output, under the result's `_meta`.
        let basic = &refused.meta.as_ref().unwrap().0[schemac_rmcp::report::META_KEY];
        assert_eq!(
            basic["errors"][0]["keywordLocation"],
            "/properties/days/minimum"
        );

        // The server does not send output that breaks its schema.
        let caught = peer
            .call_tool(call("get_weather", json!({"location": "Atlantis"})))
            .await
            .unwrap();
        assert_eq!(caught.is_error, Some(true));
        assert!(
            text(&caught).contains("/forecast/0/humidity"),
            "{}",
            text(&caught)
        );

        // A non-object result (the client negotiated 2025-11-25: rmcp moves it to text).
        let docs = peer
            .call_tool(call("search_docs", json!({"query": "guide"})))
            .await
            .unwrap();
        assert_eq!(docs.is_error, Some(false), "{}", text(&docs));
    }
}

#[tokio::test]
async fn the_client_refuses_bad_arguments_before_sending() {
    let options = ClientOptions {
        check_arguments: true,
        ..ClientOptions::default()
    };
    let (_client, peer) = connect(Validators::Generated, options).await;
    let error = peer
        .call_tool(call(
            "convert_currency",
            json!({"amount": -1, "from": "usd"}),
        ))
        .await
        .unwrap_err();
    let ClientError::InvalidArguments { tool, errors } = &error else {
        panic!("expected InvalidArguments, got {error}");
    };
    assert_eq!(tool, "convert_currency");
    let locations: Vec<&str> = errors["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["instanceLocation"].as_str().unwrap())
        .collect();
    assert!(
        locations.contains(&"/amount") && locations.contains(&"/from"),
        "{locations:?}"
    );
}
