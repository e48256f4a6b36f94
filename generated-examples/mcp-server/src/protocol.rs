//! MCP over JSON-RPC 2.0: `initialize`, `ping`, `tools/list` and `tools/call`, with every
//! tool call's arguments checked by the tool's generated input validator before the tool
//! runs, and its structured output checked by the generated output validator before it
//! is sent.

use schemac_runtime::{output, Report};
use serde_json::{json, Map, Value};

/// The newest protocol version spoken, offered unless the client asks for an older one.
pub const LATEST_PROTOCOL: &str = "2026-07-28";
/// The protocol versions this server speaks.
pub const PROTOCOLS: &[&str] = &[LATEST_PROTOCOL, "2025-11-25"];

/// A generated validator's `validate` function.
pub type ValidateFn = fn(&Value) -> Report;

/// One tool: its advertised definition, its implementation and its generated validators.
pub struct Tool {
    /// The tool's name.
    pub name: &'static str,
    /// The `tools/list` entry as written in tools.json (name, title, description).
    pub definition: &'static str,
    /// The exact `inputSchema` text the input validator was generated from.
    pub input_schema: &'static str,
    /// The generated input validator.
    pub validate_input: ValidateFn,
    /// The exact `outputSchema` text and the generated output validator, if any.
    pub output: Option<(&'static str, ValidateFn)>,
    /// The implementation.
    pub run: fn(&Value) -> Value,
}

/// A server session: the tools and the negotiated protocol version.
pub struct Server {
    tools: &'static [Tool],
    protocol: &'static str,
}

impl Server {
    /// A server offering `tools`.
    pub fn new(tools: &'static [Tool]) -> Server {
        Server {
            tools,
            protocol: LATEST_PROTOCOL,
        }
    }

    /// Handles one line of input; returns the line to answer with, if any
    /// (notifications get no answer).
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let message: Value = match serde_json::from_str(line) {
            Ok(message) => message,
            Err(_) => return Some(error(Value::Null, -32700, "parse error: not JSON").to_string()),
        };
        self.handle(&message).map(|answer| answer.to_string())
    }

    fn handle(&mut self, message: &Value) -> Option<Value> {
        let id = message.get("id").cloned();
        let method = message.get("method").and_then(Value::as_str);
        let (Some(method), Some("2.0")) = (method, message.get("jsonrpc").and_then(Value::as_str))
        else {
            return Some(error(
                id.unwrap_or(Value::Null),
                -32600,
                "invalid request: expected a JSON-RPC 2.0 request with a method",
            ));
        };
        let Some(id) = id else {
            // A notification (`notifications/initialized`, `notifications/cancelled`, ...).
            return None;
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        Some(match method {
            "initialize" => self.initialize(id, &params),
            "ping" => result(id, json!({})),
            "tools/list" => result(id, self.list()),
            "tools/call" => self.call(id, &params),
            _ => error(id, -32601, &format!("method not found: {method}")),
        })
    }

    fn initialize(&mut self, id: Value, params: &Value) -> Value {
        let asked = params["protocolVersion"]
            .as_str()
            .unwrap_or(LATEST_PROTOCOL);
        self.protocol = PROTOCOLS
            .iter()
            .find(|v| **v == asked)
            .copied()
            .unwrap_or(LATEST_PROTOCOL);
        result(
            id,
            json!({
                "protocolVersion": self.protocol,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "schemac-example-mcp-server", "version": env!("CARGO_PKG_VERSION")},
            }),
        )
    }

    /// Before 2026-07-28 structured content must be an object, so a tool whose output
    /// schema is not an object schema is listed without one.
    fn object_output_only(&self) -> bool {
        self.protocol != LATEST_PROTOCOL
    }

    fn list(&self) -> Value {
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|tool| {
                let mut entry: Map<String, Value> =
                    serde_json::from_str(tool.definition).unwrap_or_default();
                entry.insert("inputSchema".into(), parse(tool.input_schema));
                if let Some((schema, _)) = tool.output {
                    let schema = parse(schema);
                    if !self.object_output_only() || schema["type"] == "object" {
                        entry.insert("outputSchema".into(), schema);
                    }
                }
                Value::Object(entry)
            })
            .collect();
        json!({"tools": tools})
    }

    fn call(&self, id: Value, params: &Value) -> Value {
        let name = params["name"].as_str().unwrap_or_default();
        let Some(tool) = self.tools.iter().find(|t| t.name == name) else {
            return error(id, -32602, &format!("unknown tool: {name:?}"));
        };
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        let report = (tool.validate_input)(&arguments);
        if !report.is_valid() {
            return result(id, tool_error("invalid arguments", &report));
        }
        let structured = (tool.run)(&arguments);
        let Some((schema, validate_output)) = tool.output else {
            return result(id, json!({"content": [text(&structured.to_string())]}));
        };
        let report = validate_output(&structured);
        if !report.is_valid() {
            return result(
                id,
                tool_error(
                    "the tool produced output that violates its outputSchema",
                    &report,
                ),
            );
        }
        let mut answer = json!({"content": [text(&structured.to_string())]});
        if !self.object_output_only()
            || (structured.is_object() && parse(schema)["type"] == "object")
        {
            answer["structuredContent"] = structured;
        }
        result(id, answer)
    }
}

/// A tool execution error: `isError: true` with the errors in the 2020-12 basic output
/// format, as structured content and as text. Messages never quote instance values.
fn tool_error(what: &str, report: &Report) -> Value {
    let basic = output::basic(report);
    let mut lines = vec![format!("{what}:")];
    lines.extend(report.errors.iter().map(|e| format!("  {e}")));
    if let schemac_runtime::Verdict::Incomplete(reason) = &report.verdict {
        lines.push(format!("  check incomplete: {reason}"));
    }
    json!({
        "isError": true,
        "content": [text(&lines.join("\n"))],
        "structuredContent": basic,
    })
}

fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

fn parse(schema: &str) -> Value {
    serde_json::from_str(schema).unwrap_or(Value::Null)
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
