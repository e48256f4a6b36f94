//! `stranger`: an MCP server that validates nothing and is not to be trusted — the
//! fixture that `mcp-client` starts as a child process.
//!
//! Its tools: `lookup` (fine, but it reports a negative count, breaking its own
//! `outputSchema`), `custom_dialect` (an `inputSchema` in a dialect nobody knows),
//! `remote_ref` (an `inputSchema` that needs a document from the network) and `echo`
//! (fine).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::json;

struct Stranger;

fn tools() -> Vec<Tool> {
    let list = json!([
        {"name": "lookup", "description": "Counts the records matching a key.",
         "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}},
            "required": ["key"]},
         "outputSchema": {"type": "object",
            "properties": {"count": {"type": "integer", "minimum": 0}}, "required": ["count"]}},
        {"name": "custom_dialect", "description": "Declares a dialect of its own.",
         "inputSchema": {"$schema": "https://example.com/custom", "type": "object"}},
        {"name": "remote_ref", "description": "Its schema lives elsewhere.",
         "inputSchema": {"type": "object",
            "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/id"}}}},
        {"name": "echo", "description": "Echoes its text.",
         "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
         "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
    ]);
    serde_json::from_value(list).unwrap_or_default()
}

impl ServerHandler for Stranger {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "lookup" => json!({"count": -3}),
            "echo" => json!({"text": args.get("text").cloned().unwrap_or(json!(""))}),
            "custom_dialect" | "remote_ref" => json!({}),
            _ => return Err(ErrorData::invalid_params("tool not found", None)),
        };
        Ok(CallToolResult::structured(result).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Stranger.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
