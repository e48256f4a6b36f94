//! What validation adds to an MCP `tools/call`: an in-process round trip through rmcp
//! (client → duplex pipe → server → tool → back) to the example server, without the
//! schemac layer, with it over the generated validators, and with it over the
//! interpreter. Two calls: `get_weather` (small arguments, a two-day forecast checked
//! against its output schema) and `search_docs` (an `unevaluatedProperties` input and an
//! array output). For scale, the argument and output checks alone.
//!
//! `cargo bench -p schemac-example-mcp-server --bench round_trip`

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RoleServer, RunningService, Service};
use rmcp::ServiceExt;
use schemac_example_mcp_server::{
    generated_validators, server, tool_list, tools, Validators, WeatherServer,
};
use schemac_rmcp::ToolValidators;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

fn connect<S: Service<RoleServer>>(rt: &Runtime, server: S) -> RunningService<RoleClient, ()> {
    rt.block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_io).await.expect("client starts")
    })
}

fn params(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name);
    params.arguments = arguments.as_object().cloned();
    params
}

fn calls() -> [(&'static str, CallToolRequestParams); 2] {
    [
        (
            "get_weather",
            params(
                "get_weather",
                json!({"location": "Lisbon", "units": "metric", "days": 2}),
            ),
        ),
        (
            "search_docs",
            params(
                "search_docs",
                json!({"query": "mcp guide", "filters": {"tags": ["mcp", "tools"]}, "limit": 5}),
            ),
        ),
    ]
}

fn round_trip(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let clients = [
        ("no validation", connect(&rt, WeatherServer::new())),
        (
            "generated",
            connect(&rt, server(Validators::Generated).unwrap()),
        ),
        (
            "interpreted",
            connect(&rt, server(Validators::Interpreted).unwrap()),
        ),
    ];
    for (call, params) in calls() {
        let mut group = c.benchmark_group(format!("tools/call {call}"));
        for (name, client) in &clients {
            let peer = client.peer().clone();
            let check = rt.block_on(peer.call_tool(params.clone())).unwrap();
            assert_eq!(check.is_error, Some(false), "{name}: {check:?}");
            group.bench_function(*name, |b| {
                b.to_async(&rt).iter(|| peer.call_tool(params.clone()))
            });
        }
        group.finish();
    }
}

fn checks_alone(c: &mut Criterion) {
    let generated = generated_validators();
    let interpreted = ToolValidators::compile(&tool_list().unwrap()).unwrap();
    let arguments = json!({"location": "Lisbon", "units": "metric", "days": 2});
    let output = tools::get_weather(&arguments);
    let mut group = c.benchmark_group("get_weather checks alone");
    for (name, table) in [("generated", &generated), ("interpreted", &interpreted)] {
        let tool = table.get("get_weather").unwrap();
        group.bench_function(format!("{name} arguments"), |b| {
            b.iter_batched(
                || arguments.as_object().cloned(),
                |args| tool.check_arguments(args),
                criterion::BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("{name} output"), |b| {
            b.iter(|| tool.check_output(&output))
        });
    }
    group.finish();
}

criterion_group!(benches, round_trip, checks_alone);
criterion_main!(benches);
