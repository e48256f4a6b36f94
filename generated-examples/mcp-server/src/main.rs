//! `mcp-server`: the example MCP server over stdio, on rmcp.
//!
//! Every `tools/call` is checked by the validators generated at build time; with
//! `--interpreted`, by the same schemas compiled at start-up by schemac's interpreter.

use rmcp::ServiceExt;
use schemac_example_mcp_server::{server, Validators};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let source = if std::env::args().skip(1).any(|a| a == "--interpreted") {
        Validators::Interpreted
    } else {
        Validators::Generated
    };
    let running = server(source)?.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
