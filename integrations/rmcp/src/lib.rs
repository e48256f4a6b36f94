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
//!   `CallToolResult` with `isError: true` whose text lists the errors in the 2020-12
//!   basic output format (locations, never instance values); an output that breaks its
//!   schema is not sent. The validators ([`ToolValidators`]) are generated at build time
//!   (`schemac_build::Builder::mcp_tools`) or compiled at start-up from a `ToolRouter` or
//!   a tool list; a schema that does not compile stops start-up with the compiler's errors.
//! - **clients** — [`ValidatedPeer`] wraps the client's `Peer`: listing tools compiles
//!   each tool's schemas under MCP's rules and refuses the tools that do not compile;
//!   calls have their `structuredContent` checked (and, optionally, their arguments).
//!   [`WatchToolList`] rebuilds the cache on `notifications/tools/list_changed`.
//!
//! A server whose schemas come from `schemars` via `#[tool_router]`:
//!
//! ```ignore
//! use rmcp::{ServiceExt, transport::stdio};
//! use schemac_rmcp::{ToolValidators, ValidatedServer};
//!
//! let validators = ToolValidators::from_router(&Calculator::tool_router())?; // compile errors stop here
//! let server = ValidatedServer::new(Calculator::new(), validators)
//!     .serve(stdio())
//!     .await?;
//! server.waiting().await?;
//! ```
//!
//! Arguments are validated as rmcp holds them, a `serde_json::Map`: the map is moved into
//! a `Value::Object` and back, never cloned ([`ToolValidator::check_arguments`]).
#![deny(missing_docs)]

pub mod client;
pub mod server;
pub mod tools;

pub use client::{ClientError, ClientOptions, ToolCache, ToolList, ValidatedPeer, WatchToolList};
pub use server::ValidatedServer;
pub use tools::{SharedValidator, ToolError, ToolErrors, ToolValidator, ToolValidators};
