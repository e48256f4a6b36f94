//! MCP tool definitions: a `tools/list` result in, per tool an input schema (and, where
//! present, an output schema) out, with MCP's rules applied.
//!
//! - an `inputSchema` must have `"type": "object"` at its root;
//! - an `outputSchema` may be any schema (protocol 2026-07-28: object, array, primitive,
//!   a root-level `oneOf`); nothing is injected into it;
//! - the dialects allowed are MCP's: 2020-12 (the default) and draft-07;
//! - each tool gets a Rust module name ([`crate::names::module_name`]); two tools whose
//!   names sanitize alike are an error.

use crate::error::{CompileError, CompileErrorKind, Location};
use crate::names::{ModuleNames, Unclaimable};
use crate::{Dialect, Options};
use serde_json::Value;

/// One tool of a `tools/list` result.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The tool's name as the server advertises it.
    pub name: String,
    /// The Rust module name derived from it (see [`crate::names::module_name`]).
    pub module: String,
    /// The `inputSchema`.
    pub input_schema: Value,
    /// The `outputSchema`, when the tool declares one.
    pub output_schema: Option<Value>,
}

/// `base` narrowed to MCP's rules: dialects 2020-12 and draft-07 only (a caller may widen
/// `allowed_dialects` afterwards). A tool schema that declares another dialect — even one
/// schemac supports, such as draft-04 — is `UnsupportedDialect`, and the message says that
/// MCP's rule refused it.
pub fn options(base: Options) -> Options {
    Options {
        allowed_dialects: vec![Dialect::Draft2020_12, Dialect::Draft7],
        dialect_rule: Some(
            "MCP (tool schemas are JSON Schema 2020-12, or draft-07 as seen in the wild)"
                .to_string(),
        ),
        ..base
    }
}

/// Reads the tools of a `tools/list` result (`{"tools": [...]}`, or the bare array).
/// `document` names the file in errors. Every problem is reported, not only the first.
pub fn tools(document: &str, list: &Value) -> Result<Vec<Tool>, Vec<CompileError>> {
    let at = |pointer: String, keyword: Option<&str>, message: String| {
        CompileError::new(
            CompileErrorKind::InvalidDocument,
            Location {
                document: document.to_string(),
                pointer,
                keyword: keyword.map(str::to_string),
            },
            message,
        )
    };
    let (entries, prefix) = match list {
        Value::Array(entries) => (entries, ""),
        Value::Object(object) => match object.get("tools") {
            Some(Value::Array(entries)) => (entries, "/tools"),
            _ => {
                return Err(vec![at(
                    String::new(),
                    Some("tools"),
                    "a tools/list result must have a `tools` array".into(),
                )])
            }
        },
        _ => {
            return Err(vec![at(
                String::new(),
                None,
                "expected a tools/list result: {\"tools\": [...]}".into(),
            )])
        }
    };
    let mut errors = Vec::new();
    let mut tools = Vec::new();
    let mut modules = ModuleNames::new();
    for (i, entry) in entries.iter().enumerate() {
        let pointer = format!("{prefix}/{i}");
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            errors.push(at(
                pointer,
                Some("name"),
                "a tool needs a string `name`".into(),
            ));
            continue;
        };
        let Some(input_schema) = entry.get("inputSchema") else {
            errors.push(at(
                pointer,
                Some("inputSchema"),
                format!("tool {name:?} has no `inputSchema`"),
            ));
            continue;
        };
        if input_schema.get("type") != Some(&Value::String("object".into())) {
            errors.push(CompileError::new(
                CompileErrorKind::InvalidKeyword,
                Location {
                    document: document.to_string(),
                    pointer: format!("{pointer}/inputSchema"),
                    keyword: Some("type".into()),
                },
                format!(
                    "tool {name:?}: an MCP inputSchema must have \"type\": \"object\" at its root"
                ),
            ));
            continue;
        }
        let module = match modules.claim(name, name) {
            Ok(module) => module,
            Err(Unclaimable::Empty) => {
                errors.push(at(
                    pointer,
                    Some("name"),
                    "a tool name must not be empty".into(),
                ));
                continue;
            }
            Err(Unclaimable::Taken { module, first }) => {
                errors.push(at(
                    pointer,
                    Some("name"),
                    format!("tools {first:?} and {name:?} both map to the Rust module `{module}`"),
                ));
                continue;
            }
        };
        tools.push(Tool {
            name: name.to_string(),
            module,
            input_schema: input_schema.clone(),
            output_schema: entry.get("outputSchema").cloned(),
        });
    }
    if errors.is_empty() {
        Ok(tools)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_tools_and_applies_mcp_rules() {
        let list = json!({"tools": [
            {"name": "get-weather", "inputSchema": {"type": "object"},
             "outputSchema": {"oneOf": [{"type": "string"}, {"type": "number"}]}},
            {"name": "bad", "inputSchema": {"type": "array"}},
            {"name": "get_weather", "inputSchema": {"type": "object"}}
        ]});
        let errors = tools("tools.json", &list).unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].location.pointer, "/tools/1/inputSchema");
        assert!(errors[1].message.contains("both map"));

        let ok = tools(
            "tools.json",
            &json!({"tools": [{"name": "a", "inputSchema": {"type": "object"},
                "outputSchema": {"oneOf": [{"type": "string"}]}}]}),
        )
        .unwrap();
        assert_eq!(
            ok[0].output_schema,
            Some(json!({"oneOf": [{"type": "string"}]})),
            "nothing is injected into an outputSchema"
        );
    }
}
