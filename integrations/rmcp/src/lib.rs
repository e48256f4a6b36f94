//! JSON Schema validation of MCP tool calls for [rmcp](https://docs.rs/rmcp) servers and
//! clients, by schemac.
//!
//! rmcp deserializes a tool's arguments into `Parameters<T>` and checks nothing against
//! the tool's JSON Schema. This crate does:
//!
//! - **servers** — [`ValidatedServer`] wraps any `Service<RoleServer>` (every
//!   `ServerHandler` is one): each `tools/call` has its arguments checked against the
//!   tool's `inputSchema` before the handler runs (absent arguments as `{}`), and its
//!   `structuredContent` against the `outputSchema` after. A failed check answers a
//!   `CallToolResult` with `isError: true` whose text says what failed in one line per
//!   error, `location: message` (locations escaped and cut, never instance values), with
//!   the 2020-12 basic output under its `_meta` ([`report`]); an output that breaks its
//!   schema is not sent. The validators ([`ToolValidators`]) are generated at build time
//!   (`schemac_build::Builder::mcp_tools`) or compiled at start-up from a `ToolRouter` or
//!   a tool list; a schema that does not compile stops start-up with the compiler's errors.
//! - **clients** — [`ValidatedPeer`] wraps the client's `Peer`: listing tools compiles
//!   each tool's schemas under MCP's rules and refuses the tools that do not compile;
//!   calls have their `structuredContent` checked (and, optionally, their arguments).
//!   [`WatchToolList`] rebuilds the cache on `notifications/tools/list_changed`. A hostile
//!   server is bounded: the list as a whole ([`ListLimits`]), each request
//!   ([`ClientOptions::request_timeout`]), duplicated tool names refused, compilation off
//!   the async threads (see [`client`]).
//!
//! A server whose schemas come from `schemars` via `#[tool_router]`:
//!
//! ```no_run
//! use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
//! use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router, transport::stdio};
//! use schemac_rmcp::{ToolValidators, ValidatedServer};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Add { a: i64, b: i64 }
//!
//! #[derive(Clone)]
//! struct Calculator { tool_router: ToolRouter<Self> }
//!
//! #[tool_router]
//! impl Calculator {
//!     #[tool(description = "Adds two numbers")]
//!     async fn add(&self, Parameters(Add { a, b }): Parameters<Add>) -> String {
//!         a.saturating_add(b).to_string()
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Calculator {}
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Compiled once, at start-up: a schema that does not compile stops here.
//! let validators = ToolValidators::from_router(&Calculator::tool_router())?;
//! let calculator = Calculator { tool_router: Calculator::tool_router() };
//! let running = ValidatedServer::new(calculator, validators).serve(stdio()).await?;
//! running.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! With validators generated at build time (`schemac_build::Builder::mcp_tools` over the
//! server's `tools.json`), take the generated table instead, every tool in one call:
//! `ToolValidators::from_table(validators::TOOLS)` (see `generated-examples/mcp-server`).
//!
//! Arguments are validated as rmcp holds them, a `serde_json::Map`: the map is moved into
//! a `Value::Object` and back, never cloned ([`ToolValidator::check_arguments`]).
//!
//! Defaults: a server that wants the arguments its handlers read filled in asks for them
//! — `ToolValidators::from_table(validators::TOOLS).with_defaults()` over code generated
//! with the builder's `defaults(true)`, or `ToolValidators::compile_with(&tools,
//! &ValidatorOptions::default().defaults(true))` — and every valid call's missing
//! properties get their schema's `default` before the handler runs
//! ([`ToolValidator::with_defaults`]).
#![deny(missing_docs)]

pub mod client;
pub mod report;
pub mod server;
pub mod tools;

pub use client::{
    ClientError, ClientOptions, ListBound, ListLimits, ListTooLarge, ToolCache, ToolList,
    ValidatedPeer, WatchToolList,
};
pub use schemac::ValidatorOptions;
pub use server::ValidatedServer;
pub use tools::{SharedValidator, ToolError, ToolErrors, ToolValidator, ToolValidators};
