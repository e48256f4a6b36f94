//! An example MCP server whose tool calls are checked by validators that schemac
//! generated at build time.
//!
//! `build.rs` compiles each tool's `inputSchema` and `outputSchema` in `tools/tools.json`
//! with `schemac_build::Builder::mcp_tools`; [`validators`] includes the result, one module
//! per schema (`get_weather_input`, `get_weather_output`, ...). The same generated code is
//! checked in as `tools/tools.rs` for reading, and a test fails when it drifts.
//!
//! [`protocol`] speaks MCP over JSON-RPC: every `tools/call` has its arguments validated
//! before the tool runs and its structured result validated before it is sent.

pub mod protocol;
pub mod tools;

/// The generated validators, one module per tool schema.
pub mod validators {
    schemac_runtime::include_validators!();
}

use protocol::Tool;

/// The tools this server offers, each wired to its generated validators.
pub static TOOLS: &[Tool] = &[
    Tool {
        name: "get_weather",
        definition: r#"{"name": "get_weather", "title": "Weather forecast", "description": "Daily forecast for a city: high and low temperature, conditions and humidity."}"#,
        input_schema: validators::get_weather_input::SCHEMA,
        validate_input: validators::get_weather_input::validate,
        output: Some((
            validators::get_weather_output::SCHEMA,
            validators::get_weather_output::validate,
        )),
        run: tools::get_weather,
    },
    Tool {
        name: "search_docs",
        definition: r#"{"name": "search_docs", "title": "Search documentation", "description": "Full-text search over the project documentation, with tag and date filters and pagination."}"#,
        input_schema: validators::search_docs_input::SCHEMA,
        validate_input: validators::search_docs_input::validate,
        output: Some((
            validators::search_docs_output::SCHEMA,
            validators::search_docs_output::validate,
        )),
        run: tools::search_docs,
    },
    Tool {
        name: "convert_currency",
        definition: r#"{"name": "convert_currency", "title": "Currency conversion", "description": "Converts an amount between two ISO 4217 currencies at a fixed reference rate."}"#,
        input_schema: validators::convert_currency_input::SCHEMA,
        validate_input: validators::convert_currency_input::validate,
        output: Some((
            validators::convert_currency_output::SCHEMA,
            validators::convert_currency_output::validate,
        )),
        run: tools::convert_currency,
    },
];
