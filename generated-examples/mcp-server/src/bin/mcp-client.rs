//! `mcp-client`: an MCP client that does not trust the server it talks to.
//!
//! Starts a server as a child process over stdio (by default the `stranger` fixture built
//! beside this binary; or the command given as arguments), lists its tools through
//! `schemac_rmcp::ValidatedPeer` — each tool's schemas compiled under MCP's rules, the
//! tools that do not compile refused with the compiler's errors — and calls the callable
//! ones, checking each result's `structuredContent` against the tool's `outputSchema`.
//!
//! Prints one line per finding; exits 0 when it could talk to the server.

use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use schemac_rmcp::{ClientError, ClientOptions, ToolCache, ValidatedPeer, WatchToolList};
use std::path::PathBuf;

fn server_command() -> std::io::Result<tokio::process::Command> {
    let mut args = std::env::args_os().skip(1);
    let program = match args.next() {
        Some(program) => PathBuf::from(program),
        None => {
            let me = std::env::current_exe()?;
            me.with_file_name(format!("stranger{}", std::env::consts::EXE_SUFFIX))
        }
    };
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    Ok(command)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let transport = TokioChildProcess::new(server_command()?)?;
    let cache = ToolCache::new();
    let client = WatchToolList::new((), cache.clone())
        .serve(transport)
        .await?;
    let peer = ValidatedPeer::new(client.peer().clone(), cache, ClientOptions::default());

    let list = peer.list_all_tools().await?;
    for tool in &list.tools {
        println!("tool {:?}: schemas compiled", tool.name);
    }
    for refused in &list.refused {
        let kinds: Vec<&str> = refused
            .errors
            .errors()
            .iter()
            .map(|e| e.kind.name())
            .collect();
        println!(
            "tool {:?}: refused ({}): {}",
            refused.tool,
            kinds.join(", "),
            refused.errors
        );
    }
    for tool in &list.tools {
        let params = CallToolRequestParams::new(tool.name.clone());
        match peer.call_tool(params).await {
            Ok(result) if result.is_error == Some(true) => {
                println!("call {:?}: the tool reported an error", tool.name)
            }
            Ok(_) => println!("call {:?}: result checked", tool.name),
            Err(error @ ClientError::InvalidOutput { .. }) => {
                println!("call {:?}: bad output caught: {error}", tool.name)
            }
            Err(error) => println!("call {:?}: failed: {error}", tool.name),
        }
    }
    client.cancel().await?;
    Ok(())
}
