//! MCP tool definitions: a `tools/list` result in, per tool an input schema (and, where
//! present, an output schema) out, with MCP's rules applied.
//!
//! - an `inputSchema` must have `"type": "object"` at its root;
//! - an `outputSchema` may be any schema (protocol 2026-07-28: object, array, primitive,
//!   a root-level `oneOf`); nothing is injected into it;
//! - the dialects allowed are MCP's: 2020-12 (the default) and draft-07;
//! - each tool gets a Rust module name; two tools whose names sanitize alike are an error.

use crate::error::{CompileError, CompileErrorKind, Location};
use crate::{Dialect, Options};
use serde_json::Value;
use std::collections::BTreeMap;

/// One tool of a `tools/list` result.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The tool's name as the server advertises it.
    pub name: String,
    /// The Rust module name derived from it (see [`module_name`]).
    pub module: String,
    /// The `inputSchema`.
    pub input_schema: Value,
    /// The `outputSchema`, when the tool declares one.
    pub output_schema: Option<Value>,
}

/// `base` narrowed to MCP's rules: dialects 2020-12 and draft-07 only.
pub fn options(base: Options) -> Options {
    Options {
        allowed_dialects: vec![Dialect::Draft2020_12, Dialect::Draft7],
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
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
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
        let module = module_name(name);
        if let Some(other) = modules.insert(module.clone(), name.to_string()) {
            errors.push(at(
                pointer,
                Some("name"),
                format!("tools {other:?} and {name:?} both map to the Rust module `{module}`"),
            ));
            continue;
        }
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

/// A Rust module name for `name`: ASCII lowercase letters, digits and `_`, every other
/// run of characters becomes one `_`; `camelCase` splits into `camel_case`; a leading
/// digit or a Rust keyword gets a trailing or leading `_`.
pub fn module_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower && !out.ends_with('_') {
                out.push('_');
            }
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c.to_ascii_lowercase());
        } else {
            previous_lower = false;
            if !out.ends_with('_') {
                out.push('_');
            }
        }
    }
    let trimmed = out.trim_matches('_');
    let mut out = if trimmed.is_empty() {
        "schema".to_string()
    } else {
        trimmed.to_string()
    };
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "async"
            | "await"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "try"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn module_names_are_identifiers() {
        assert_eq!(module_name("aws-cdk"), "aws_cdk");
        assert_eq!(module_name("get_weather"), "get_weather");
        assert_eq!(module_name("getWeather"), "get_weather");
        assert_eq!(module_name("search.files v2"), "search_files_v2");
        assert_eq!(module_name("3d"), "_3d");
        assert_eq!(module_name("type"), "type_");
        assert_eq!(module_name("--"), "schema");
    }

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
