//! An example MCP server on [rmcp](https://docs.rs/rmcp) whose tool calls are checked by
//! validators that schemac generated at build time.
//!
//! `build.rs` compiles each tool's `inputSchema` and `outputSchema` in `tools/tools.json`
//! with `schemac_build::Builder::mcp_tools`; [`validators`] includes the result, one module
//! per schema (`get_weather_input`, `get_weather_output`, ...), and the table `TOOLS` of
//! the tools under their listed names, which [`generated_validators`] hands to
//! `schemac_rmcp` in one call. The same generated code is checked in as `tools/tools.rs`
//! for reading, and a test fails when it drifts.
//!
//! [`WeatherServer`] is a plain rmcp `ServerHandler` that checks nothing itself;
//! [`server`] wraps it in `schemac_rmcp::ValidatedServer`, so that every `tools/call` has
//! its arguments checked before the tool runs and its structured result checked before it
//! is sent — with the generated validators, or ([`Validators::Interpreted`]) with the same
//! schemas compiled at start-up by schemac's interpreter.

pub mod tools;

/// The generated validators, one module per tool schema.
pub mod validators {
    schemac_runtime::include_validators!();
}

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use schemac_rmcp::{ToolErrors, ToolValidators, ValidatedServer, ValidatorOptions};
use serde_json::Value;
use std::sync::Arc;

/// The tool list the server advertises: `tools/tools.json`, the file the validators were
/// generated from.
pub const TOOLS_JSON: &str = include_str!("../tools/tools.json");

/// The tools of [`TOOLS_JSON`].
pub fn tool_list() -> Result<Vec<Tool>, serde_json::Error> {
    let mut list: Value = serde_json::from_str(TOOLS_JSON)?;
    serde_json::from_value(list["tools"].take())
}

/// The validators generated at build time, by tool name (zero start-up cost): the
/// generated `TOOLS` table, in one call; valid arguments get their schema's defaults
/// (generated with the builder's `defaults(true)`) before a tool runs.
pub fn generated_validators() -> ToolValidators {
    ToolValidators::from_table(validators::TOOLS).with_defaults()
}

/// Where the server's validators come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validators {
    /// Generated at build time ([`generated_validators`]).
    Generated,
    /// Compiled at start-up by schemac's interpreter from the tool list.
    Interpreted,
}

/// The example server, its tool calls checked by validators from `source`. A schema that
/// does not compile (interpreted source) is an error here, at start-up.
pub fn server(source: Validators) -> Result<ValidatedServer<WeatherServer>, ToolErrors> {
    let handler = WeatherServer::new();
    let validators = match source {
        Validators::Generated => generated_validators(),
        Validators::Interpreted => ToolValidators::compile_with(
            &handler.tools,
            &ValidatorOptions::default().defaults(true),
        )?,
    };
    Ok(ValidatedServer::new(handler, validators))
}

/// The three tools as a plain rmcp handler: it lists [`TOOLS_JSON`] and runs the tools of
/// [`tools`], checking nothing itself.
#[derive(Debug, Clone)]
pub struct WeatherServer {
    tools: Arc<Vec<Tool>>,
}

impl Default for WeatherServer {
    fn default() -> Self {
        WeatherServer::new()
    }
}

impl WeatherServer {
    /// The server over the tools of [`TOOLS_JSON`] (checked in; a test parses it).
    pub fn new() -> WeatherServer {
        WeatherServer {
            tools: Arc::new(tool_list().unwrap_or_default()),
        }
    }
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info =
            Implementation::new("schemac-example-mcp-server", env!("CARGO_PKG_VERSION"));
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let run = match request.name.as_ref() {
            "get_weather" => tools::get_weather,
            "search_docs" => tools::search_docs,
            "convert_currency" => tools::convert_currency,
            _ => return Err(ErrorData::invalid_params("tool not found", None)),
        };
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        Ok(CallToolResult::structured(run(&arguments)).into())
    }
}
