//! Fixtures shared by the in-process tests: a scripted MCP server that checks nothing
//! (the "stranger"), and helpers that connect a server and a client over
//! `tokio::io::duplex`.

#![allow(dead_code)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService, Service};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A tool from its JSON definition.
pub fn tool(definition: Value) -> Tool {
    serde_json::from_value(definition).expect("a tool definition")
}

/// The tools of the scripted server.
pub fn weather_tools() -> Vec<Tool> {
    vec![
        tool(json!({
            "name": "forecast",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "minLength": 1, "maxLength": 20},
                    "days": {"type": "integer", "minimum": 1, "maximum": 7}
                },
                "required": ["city"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "humidity": {"type": "integer", "minimum": 0, "maximum": 100}
                },
                "required": ["city", "humidity"]
            }
        })),
        tool(json!({
            "name": "ping",
            "inputSchema": {"type": "object", "properties": {"echo": {"type": "string"}}}
        })),
        tool(json!({
            "name": "needs_token",
            "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object", "required": ["token"]}
        })),
    ]
}

/// A server that answers from a script and checks nothing: `forecast` reports humidity
/// 140 for "Atlantis" (breaking its outputSchema), and omits structured content for
/// "Nowhere". Counts the calls that reach it.
#[derive(Clone)]
pub struct Scripted {
    pub tools: Arc<Mutex<Vec<Tool>>>,
    pub calls: Arc<AtomicUsize>,
}

impl Scripted {
    pub fn new(tools: Vec<Tool>) -> Scripted {
        Scripted {
            tools: Arc::new(Mutex::new(tools)),
            calls: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl ServerHandler for Scripted {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.tools.lock().unwrap().clone();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "forecast" => {
                let city = args.get("city").and_then(Value::as_str).unwrap_or("?");
                match city {
                    "Atlantis" => {
                        CallToolResult::structured(json!({"city": city, "humidity": 140}))
                    }
                    "Nowhere" => CallToolResult::success(vec![]),
                    _ => CallToolResult::structured(json!({"city": city, "humidity": 62})),
                }
            }
            "ping" | "needs_token" | "custom" | "remote" => {
                CallToolResult::structured(json!({"pong": true}))
            }
            "liar" => CallToolResult::structured(json!({"count": "three"})),
            "numbers" => match args.get("bad") {
                Some(Value::Bool(true)) => CallToolResult::structured(json!([1, "two"])),
                _ => CallToolResult::structured(json!([1, 2])),
            },
            "failing" => CallToolResult::structured_error(json!({"count": "n/a"})),
            _ => return Err(ErrorData::invalid_params("tool not found", None)),
        };
        Ok(result.into())
    }
}

/// A client of `server` over an in-process duplex pipe; the server runs on a task.
pub async fn connect<S, C>(server: S, client: C) -> RunningService<RoleClient, C>
where
    S: Service<RoleServer>,
    C: Service<RoleClient>,
{
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    let client = client.serve(client_io).await.expect("client starts");
    drop(server);
    client
}

/// The text of a result's first content block.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The basic output an `isError` result carries under `_meta` (`Null` without one).
pub fn basic_output(result: &CallToolResult) -> Value {
    result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get(schemac_rmcp::report::META_KEY))
        .cloned()
        .unwrap_or(Value::Null)
}

/// `tools/call` parameters.
pub fn call(name: &'static str, arguments: Option<Value>) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(name);
    params.arguments = arguments.map(|a| match a {
        Value::Object(map) => map,
        other => panic!("arguments must be an object, not {other}"),
    });
    params
}
