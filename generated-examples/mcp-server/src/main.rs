//! `mcp-server`: the example MCP server over stdio (one JSON-RPC message per line).

use schemac_example_mcp_server::protocol::Server;
use schemac_example_mcp_server::TOOLS;
use std::io::{BufRead, Write};

fn main() -> std::io::Result<()> {
    let mut server = Server::new(TOOLS);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(answer) = server.handle_line(&line) {
            writeln!(stdout, "{answer}")?;
            stdout.flush()?;
        }
    }
    Ok(())
}
