//! The server layer: every `tools/call` checked against the tool's schemas.
//!
//! [`ValidatedServer`] wraps any `Service<RoleServer>` (rmcp implements it for every
//! `ServerHandler`): arguments are checked against the `inputSchema` before the handler
//! runs, `structuredContent` against the `outputSchema` after. Every other request and
//! notification passes through untouched.

use crate::report::{self, META_KEY};
use crate::tools::{ToolValidator, ToolValidators};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolResult, ClientRequest, ContentBlock, MetaObject, ProtocolVersion, ServerConfig,
    ServerResult,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, Service, ServiceRole};
use schemac_runtime::Report;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// A server whose tool calls are checked: see the [module docs](self), and the crate docs
/// for an example.
#[derive(Debug, Clone)]
pub struct ValidatedServer<S> {
    inner: S,
    tools: Arc<ToolValidators>,
}

impl<S> ValidatedServer<S> {
    /// `inner` with its tool calls checked by `tools`. A call to a tool `tools` does not
    /// know is refused as rmcp's router refuses an unknown tool (`invalid_params`, "tool
    /// not found"): nothing reaches a handler unchecked.
    pub fn new(inner: S, tools: ToolValidators) -> ValidatedServer<S> {
        ValidatedServer {
            inner,
            tools: Arc::new(tools),
        }
    }

    /// The wrapped service.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The validators.
    pub fn tools(&self) -> &ToolValidators {
        &self.tools
    }
}

/// Whether the protocol version strips non-object output (before 2026-07-28).
fn is_legacy(version: Option<&ProtocolVersion>) -> bool {
    version.is_none_or(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// Why a call is answered with an error result instead of its handler's result.
struct Refusal {
    /// What failed, ending in a colon when errors follow.
    heading: String,
    /// The failed check, when there was one to run.
    report: Option<Report>,
}

impl Refusal {
    /// The `isError: true` result: the heading and one line per error as text, the basic
    /// output under `_meta` ([`META_KEY`]); shaped for the peer's protocol version as rmcp
    /// shapes a handler's result (no `resultType` for legacy peers).
    fn into_result(self, legacy: bool) -> ServerResult {
        let (text, meta) = match &self.report {
            Some(failed) => {
                let structured = report::structured(failed);
                let text = report::text(&self.heading, &structured);
                let mut meta = MetaObject::default();
                meta.0.insert(META_KEY.into(), structured);
                (text, Some(meta))
            }
            None => (self.heading, None),
        };
        let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
        result.meta = meta;
        let mut result = ServerResult::CallToolResult(result);
        if legacy {
            result.strip_result_type_for_legacy_peer();
        }
        result
    }
}

/// Checks a handler's result against the tool's output schema; `Err` says why the result
/// is replaced by an error result (the output broke the contract).
fn check_result(
    name: &str,
    tool: &ToolValidator,
    result: &CallToolResult,
    legacy: bool,
) -> Result<(), Refusal> {
    if !tool.has_output() || result.is_error == Some(true) {
        return Ok(());
    }
    let heading =
        format!("tool {name:?} broke its outputSchema contract; its result was not sent:");
    let missing = |what: &str| Refusal {
        heading: format!("{heading} no {what}"),
        report: None,
    };
    let stripped;
    let structured = match &result.structured_content {
        Some(value) => value,
        // rmcp moved non-object output into the first text block for a legacy peer.
        None if legacy && !tool.output_object_root() => {
            let text = result.content.first().and_then(ContentBlock::as_text);
            match text.and_then(|t| serde_json::from_str::<Value>(&t.text).ok()) {
                Some(value) => {
                    stripped = value;
                    &stripped
                }
                None => return Err(missing("structured content")),
            }
        }
        None => return Err(missing("structuredContent")),
    };
    tool.check_output(structured).map_err(|failed| Refusal {
        heading,
        report: Some(failed),
    })
}

impl<S: Service<RoleServer>> ValidatedServer<S> {
    /// The error rmcp's request handling gives a `tools/call` before any handler runs
    /// (a protocol version the server does not support; the 2026-07-28 per-request
    /// `_meta` missing), so that invalid arguments do not hide it: rmcp only checks
    /// these when the request reaches the inner service, which a refused call does not.
    fn lifecycle_error(&self, context: &RequestContext<RoleServer>) -> Option<McpError> {
        let requested = context.meta.protocol_version();
        if let Some(version) = &requested {
            let supported = self.inner.supported_protocol_versions();
            if !supported.contains(version) {
                return Some(McpError::unsupported_protocol_version(
                    version.clone(),
                    &supported,
                ));
            }
        }
        // No `initialize` handshake: the session uses the inline lifecycle.
        let inline =
            context.peer.peer_info().is_none() || requested.is_some_and(|v| !is_legacy(Some(&v)));
        let missing = context
            .meta
            .missing_required_keys(&ProtocolVersion::V_2026_07_28);
        (inline && !missing.is_empty()).then(|| {
            McpError::invalid_params(
                format!(
                    "request _meta is missing or has malformed required fields: {}",
                    missing.join(", ")
                ),
                None,
            )
        })
    }
}

impl<S: Service<RoleServer>> Service<RoleServer> for ValidatedServer<S> {
    async fn handle_request(
        &self,
        request: <RoleServer as ServiceRole>::PeerReq,
        context: RequestContext<RoleServer>,
    ) -> Result<<RoleServer as ServiceRole>::Resp, McpError> {
        let ClientRequest::CallToolRequest(mut call) = request else {
            return self.inner.handle_request(request, context).await;
        };
        let name = call.params.name.to_string();
        let Some(tool) = self.tools.get(&name) else {
            return Err(McpError::invalid_params("tool not found", None));
        };
        let legacy = is_legacy(context.protocol_version().as_ref());
        let (arguments, checked) = tool.check_arguments(call.params.arguments.take());
        call.params.arguments = arguments;
        if let Err(report) = checked {
            if let Some(error) = self.lifecycle_error(&context) {
                return Err(error);
            }
            let refusal = Refusal {
                heading: format!("invalid arguments for tool {name:?}:"),
                report: Some(report),
            };
            return Ok(refusal.into_result(legacy));
        }
        let response = self
            .inner
            .handle_request(ClientRequest::CallToolRequest(call), context)
            .await?;
        match &response {
            ServerResult::CallToolResult(result) => {
                match check_result(&name, tool, result, legacy) {
                    Ok(()) => Ok(response),
                    Err(refusal) => Ok(refusal.into_result(legacy)),
                }
            }
            // Input-required rounds and tasks carry no final output yet.
            _ => Ok(response),
        }
    }

    async fn handle_notification(
        &self,
        notification: <RoleServer as ServiceRole>::PeerNot,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.inner.handle_notification(notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
}
