//! The client side: a stranger's tools compiled under MCP's rules before they are called,
//! and their results checked.
//!
//! [`ValidatedPeer`] wraps the client's `Peer<RoleClient>`. Listing tools compiles every
//! tool's schemas (2020-12 default, draft-07 allowed, other dialects refused, nothing
//! fetched, limits on); a tool whose schemas do not compile is reported in
//! [`ToolList::refused`] and cannot be called. A call's `structuredContent` is checked
//! against the tool's `outputSchema` (not when the result says `isError: true`), and,
//! when [`ClientOptions::check_arguments`] is set, its arguments before they are sent.
//!
//! Validators are cached per tool. [`WatchToolList`] wraps the client's handler so that
//! `notifications/tools/list_changed` marks the cache stale; the next call or listing
//! lists the tools again and recompiles them.

use crate::tools::{ToolError, ToolValidator};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, PaginatedRequestParams, ProtocolVersion,
    ServerNotification, Tool,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleClient, Service, ServiceError, ServiceRole,
};
use schemac::ValidatorOptions;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// What the client checks, and the compiler options for strangers' schemas.
#[derive(Debug, Clone, Default)]
pub struct ClientOptions {
    /// Check arguments against the `inputSchema` before sending a call (default: off; the
    /// server should check them, and a refused call costs a round trip only).
    pub check_arguments: bool,
    /// Compiler options (offline documents, limits, format assertion); MCP's dialect rules
    /// are always applied on top.
    pub validator: ValidatorOptions,
}

/// The compiled tools, shared by a [`ValidatedPeer`] and its [`WatchToolList`].
#[derive(Debug, Clone, Default)]
pub struct ToolCache {
    state: Arc<Mutex<CacheState>>,
}

#[derive(Debug, Default)]
struct CacheState {
    /// Set when the tools were listed and nothing changed since.
    fresh: bool,
    /// Counts invalidations, so that a listing that raced with one is not taken as fresh.
    generation: u64,
    tools: BTreeMap<String, Result<ToolValidator, ToolError>>,
}

impl ToolCache {
    /// An empty cache.
    pub fn new() -> ToolCache {
        ToolCache::default()
    }

    /// Marks the cache stale: the next call or listing lists the tools again.
    pub fn invalidate(&self) {
        let mut state = self.lock();
        state.fresh = false;
        state.generation += 1;
    }

    /// Whether the tools were listed and no `tools/list_changed` arrived since.
    pub fn is_fresh(&self) -> bool {
        self.lock().fresh
    }

    fn lock(&self) -> MutexGuard<'_, CacheState> {
        // A panic while holding the lock leaves only a map behind; keep using it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Wraps a client handler (any `Service<RoleClient>`, `()` included) so that
/// `notifications/tools/list_changed` invalidates a [`ToolCache`]; everything is then
/// passed on to the handler.
#[derive(Debug, Clone)]
pub struct WatchToolList<S> {
    inner: S,
    cache: ToolCache,
}

impl<S> WatchToolList<S> {
    /// `inner`, invalidating `cache` when the server's tool list changes.
    pub fn new(inner: S, cache: ToolCache) -> WatchToolList<S> {
        WatchToolList { inner, cache }
    }
}

impl<S: Service<RoleClient>> Service<RoleClient> for WatchToolList<S> {
    async fn handle_request(
        &self,
        request: <RoleClient as ServiceRole>::PeerReq,
        context: RequestContext<RoleClient>,
    ) -> Result<<RoleClient as ServiceRole>::Resp, McpError> {
        self.inner.handle_request(request, context).await
    }

    async fn handle_notification(
        &self,
        notification: <RoleClient as ServiceRole>::PeerNot,
        context: NotificationContext<RoleClient>,
    ) -> Result<(), McpError> {
        if matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ) {
            self.cache.invalidate();
        }
        self.inner.handle_notification(notification, context).await
    }

    fn get_info(&self) -> ClientConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
}

/// Tools as listed: those that compiled, and those refused with their errors.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    /// The tools whose schemas compiled: these may be called.
    pub tools: Vec<Tool>,
    /// The tools whose schemas did not compile, each with the compiler's errors.
    pub refused: Vec<ToolError>,
}

/// Why a checked call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The request failed in rmcp (transport, protocol, a JSON-RPC error).
    Service(ServiceError),
    /// The tool is not in the server's tool list.
    UnknownTool(String),
    /// The tool's schemas did not compile, so it is not called.
    RefusedTool(ToolError),
    /// The arguments break the tool's `inputSchema` (with
    /// [`ClientOptions::check_arguments`]); nothing was sent.
    InvalidArguments {
        /// The tool.
        tool: String,
        /// The errors, in the 2020-12 basic output format.
        errors: Value,
    },
    /// The result's `structuredContent` breaks the tool's `outputSchema` (or is missing).
    InvalidOutput {
        /// The tool.
        tool: String,
        /// The errors, in the 2020-12 basic output format (`Null` when the structured
        /// content is missing).
        errors: Value,
        /// The result as received, for inspection; do not trust it.
        result: Box<CallToolResult>,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Service(error) => write!(f, "{error}"),
            ClientError::UnknownTool(tool) => {
                write!(f, "tool {tool:?} is not in the server's tool list")
            }
            ClientError::RefusedTool(error) => write!(f, "refused {error}"),
            ClientError::InvalidArguments { tool, errors } => {
                write!(f, "invalid arguments for tool {tool:?}: {errors}")
            }
            ClientError::InvalidOutput { tool, errors, .. } if errors.is_null() => write!(
                f,
                "tool {tool:?} declares an outputSchema but sent no structuredContent"
            ),
            ClientError::InvalidOutput { tool, errors, .. } => write!(
                f,
                "tool {tool:?} sent structuredContent that breaks its outputSchema: {errors}"
            ),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Service(error) => Some(error),
            ClientError::RefusedTool(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ServiceError> for ClientError {
    fn from(error: ServiceError) -> Self {
        ClientError::Service(error)
    }
}

/// A client `Peer` whose tools are compiled and whose calls are checked: see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct ValidatedPeer {
    peer: Peer<RoleClient>,
    cache: ToolCache,
    options: ClientOptions,
}

impl ValidatedPeer {
    /// Wraps `peer`; `cache` is the one given to the client's [`WatchToolList`] (a fresh
    /// [`ToolCache`] when the handler is not wrapped: then the cache is only rebuilt by
    /// [`ValidatedPeer::list_all_tools`]).
    pub fn new(peer: Peer<RoleClient>, cache: ToolCache, options: ClientOptions) -> ValidatedPeer {
        ValidatedPeer {
            peer,
            cache,
            options,
        }
    }

    /// The wrapped peer, for everything that is not a tool.
    pub fn peer(&self) -> &Peer<RoleClient> {
        &self.peer
    }

    /// The cache of compiled tools.
    pub fn cache(&self) -> &ToolCache {
        &self.cache
    }

    /// Lists one page of tools and compiles each; compiled tools join the cache.
    pub async fn list_tools(
        &self,
        params: Option<PaginatedRequestParams>,
    ) -> Result<(ToolList, Option<String>), ClientError> {
        let page = self.peer.list_tools(params).await?;
        let compiled = self.compile(page.tools);
        let mut state = self.cache.lock();
        let list = Self::record(&mut state, compiled);
        Ok((list, page.next_cursor))
    }

    /// Lists every tool, compiles each, and replaces the cache with the result.
    /// A `tools/list_changed` that arrives while the listing is under way leaves the cache
    /// stale, so the next call lists again.
    pub async fn list_all_tools(&self) -> Result<ToolList, ClientError> {
        let generation = self.cache.lock().generation;
        let tools = self.peer.list_all_tools().await?;
        let compiled = self.compile(tools);
        let mut state = self.cache.lock();
        state.tools.clear();
        let list = Self::record(&mut state, compiled);
        state.fresh = state.generation == generation;
        Ok(list)
    }

    fn compile(&self, tools: Vec<Tool>) -> Vec<(Tool, Result<ToolValidator, ToolError>)> {
        tools
            .into_iter()
            .map(|tool| {
                let compiled = ToolValidator::compile(&tool, &self.options.validator);
                (tool, compiled)
            })
            .collect()
    }

    fn record(
        state: &mut CacheState,
        compiled: Vec<(Tool, Result<ToolValidator, ToolError>)>,
    ) -> ToolList {
        let mut list = ToolList::default();
        for (tool, outcome) in compiled {
            match &outcome {
                Ok(_) => list.tools.push(tool.clone()),
                Err(error) => list.refused.push(error.clone()),
            }
            state.tools.insert(tool.name.to_string(), outcome);
        }
        list
    }

    /// The compiled validators of `name`, listing the tools first when the cache is stale.
    async fn validator(&self, name: &str) -> Result<ToolValidator, ClientError> {
        if !self.cache.is_fresh() {
            self.list_all_tools().await?;
        }
        match self.cache.lock().tools.get(name) {
            Some(Ok(validator)) => Ok(validator.clone()),
            Some(Err(error)) => Err(ClientError::RefusedTool(error.clone())),
            None => Err(ClientError::UnknownTool(name.to_string())),
        }
    }

    /// Calls a tool the server listed and whose schemas compiled; checks the arguments
    /// first when asked ([`ClientOptions::check_arguments`]), and the result's
    /// `structuredContent` against the `outputSchema` (unless the result is an error).
    pub async fn call_tool(
        &self,
        mut params: CallToolRequestParams,
    ) -> Result<CallToolResult, ClientError> {
        let name = params.name.to_string();
        let tool = self.validator(&name).await?;
        if self.options.check_arguments {
            let (arguments, checked) = tool.check_arguments(params.arguments.take());
            params.arguments = arguments;
            if let Err(report) = checked {
                return Err(ClientError::InvalidArguments {
                    tool: name,
                    errors: schemac_runtime::output::basic(&report),
                });
            }
        }
        let result = self.peer.call_tool(params).await?;
        if !tool.has_output() || result.is_error == Some(true) {
            return Ok(result);
        }
        let Some(structured) = &result.structured_content else {
            return Err(ClientError::InvalidOutput {
                tool: name,
                errors: Value::Null,
                result: Box::new(result),
            });
        };
        match tool.check_output(structured) {
            Ok(()) => Ok(result),
            Err(report) => Err(ClientError::InvalidOutput {
                tool: name,
                errors: schemac_runtime::output::basic(&report),
                result: Box::new(result),
            }),
        }
    }
}
