//! MCP tool definitions: a `tools/list` result in, per tool an input schema (and, where
//! present, an output schema) out, with MCP's rules applied.
//!
//! - an `inputSchema` must have `"type": "object"` at its root;
//! - an `outputSchema` may be any schema (protocol 2026-07-28: object, array, primitive,
//!   a root-level `oneOf`); nothing is injected into it;
//! - the dialects allowed are MCP's: 2020-12 (the default) and draft-07;
//! - a tool's name is non-empty and no other tool of the list has it (the Rust modules
//!   generated for tools are named by [`crate::driver`], which refuses names that would
//!   sanitize alike).

use crate::dialect::Dialect;
use crate::error::{CompileError, CompileErrorKind, Location};
use crate::options::Options;
use serde_json::Value;
use std::collections::BTreeMap;

/// One tool of a `tools/list` result.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The tool's name as the server advertises it.
    pub name: String,
    /// The `inputSchema`.
    pub input_schema: Value,
    /// The `outputSchema`, when the tool declares one.
    pub output_schema: Option<Value>,
}

impl Tool {
    /// The tool's schemas: its `inputSchema`, then its `outputSchema` if it has one.
    pub fn schemas(&self) -> impl Iterator<Item = (SchemaRole, &Value)> {
        let input = std::iter::once((SchemaRole::Input, &self.input_schema));
        input.chain(self.output_schema.iter().map(|s| (SchemaRole::Output, s)))
    }

    /// What the tool's schema `role` is called in errors, in the CLI's output and in a
    /// generated module's doc comment: `tools.json [get_weather inputSchema]`.
    pub fn schema_source(&self, document: &str, role: SchemaRole) -> String {
        format!("{document} [{} {}]", self.name, role.keyword())
    }
}

/// Which of a tool's schemas: its `inputSchema` or its `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SchemaRole {
    /// The `inputSchema`: what the tool's arguments must be.
    Input,
    /// The `outputSchema`: what its `structuredContent` must be.
    Output,
}

impl SchemaRole {
    /// The key in a tool definition: `inputSchema` or `outputSchema`.
    pub fn keyword(self) -> &'static str {
        match self {
            SchemaRole::Input => "inputSchema",
            SchemaRole::Output => "outputSchema",
        }
    }

    /// The suffix of the Rust module generated for it: `input` or `output`.
    pub fn suffix(self) -> &'static str {
        match self {
            SchemaRole::Input => "input",
            SchemaRole::Output => "output",
        }
    }
}

/// A compiled schema that belongs to a tool: which tool, and which of its schemas. The
/// generated tool table (`TOOLS`) lists the tool under [`ToolPart::tool`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolPart {
    /// The tool's name as listed.
    pub tool: String,
    /// Which of its schemas.
    pub role: SchemaRole,
    /// Whether the schema's root says `"type": "object"` (always so for an `inputSchema`).
    pub object_root: bool,
}

impl ToolPart {
    /// The part `role` of `tool`, whose schema is `schema`.
    pub fn new(tool: &str, role: SchemaRole, schema: &Value) -> ToolPart {
        ToolPart {
            tool: tool.to_string(),
            role,
            object_root: schema.get("type").and_then(Value::as_str) == Some("object"),
        }
    }
}

/// The tools of a `tools/list` result that follow MCP's rules, and why the others do not.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolList {
    /// The tools, in the order listed.
    pub tools: Vec<Tool>,
    /// Every entry that is not a tool by MCP's rules, each naming its place in the list;
    /// or, when the document is not a tool list at all, why.
    pub errors: Vec<CompileError>,
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
/// `document` names the file in errors. Every problem is reported, not only the first, and
/// the entries that are tools are kept beside them, so that a caller can compile those
/// and report every error at once.
pub fn tools(document: &str, list: &Value) -> ToolList {
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
    let refused = |error| ToolList {
        tools: Vec::new(),
        errors: vec![error],
    };
    let (entries, prefix) = match list {
        Value::Array(entries) => (entries, ""),
        Value::Object(object) => match object.get("tools") {
            Some(Value::Array(entries)) => (entries, "/tools"),
            _ => {
                return refused(at(
                    String::new(),
                    Some("tools"),
                    "a tools/list result must have a `tools` array".into(),
                ))
            }
        },
        _ => {
            return refused(at(
                String::new(),
                None,
                "expected a tools/list result: {\"tools\": [...]}".into(),
            ))
        }
    };
    let mut out = ToolList::default();
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for (i, entry) in entries.iter().enumerate() {
        let pointer = format!("{prefix}/{i}");
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            out.errors.push(at(
                pointer,
                Some("name"),
                "a tool needs a string `name`".into(),
            ));
            continue;
        };
        if name.is_empty() {
            out.errors.push(at(
                pointer,
                Some("name"),
                "a tool name must not be empty".into(),
            ));
            continue;
        }
        if let Some(first) = seen.get(name) {
            out.errors.push(at(
                pointer,
                Some("name"),
                format!(
                    "tool {name:?} is listed twice (first at {first}); tool names must be unique"
                ),
            ));
            continue;
        }
        seen.insert(name, pointer.clone());
        let Some(input_schema) = entry.get("inputSchema") else {
            out.errors.push(at(
                pointer,
                Some("inputSchema"),
                format!("tool {name:?} has no `inputSchema`"),
            ));
            continue;
        };
        if input_schema.get("type") != Some(&Value::String("object".into())) {
            out.errors.push(CompileError::new(
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
        out.tools.push(Tool {
            name: name.to_string(),
            input_schema: input_schema.clone(),
            output_schema: entry.get("outputSchema").cloned(),
        });
    }
    out
}

/// What `document` looks like when it is an MCP tool (`{"name", "inputSchema", ...}`) or a
/// tool list (`{"tools": [...]}` or an array of tools) rather than a schema: a schema
/// checker given one validates the wrong thing (a tool's unknown keywords are ignored, so
/// it accepts every instance).
pub fn looks_like_tools(document: &Value) -> Option<&'static str> {
    let is_tool = |value: &Value| value.get("inputSchema").is_some_and(Value::is_object);
    match document {
        Value::Object(object) if is_tool(document) && object.contains_key("name") => {
            Some("an MCP tool")
        }
        Value::Object(object) => match object.get("tools") {
            Some(Value::Array(tools)) if tools.first().is_some_and(is_tool) => {
                Some("an MCP tools/list result")
            }
            _ => None,
        },
        Value::Array(tools) if tools.first().is_some_and(is_tool) => Some("a list of MCP tools"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_compiled_as_a_schema_warns_first() {
        let compiler = crate::Compiler::default();
        let tool = json!({"name": "t", "icons": [], "inputSchema": {"type": "object"}});
        let program = compiler.compile_named("tool.json", &tool).unwrap();
        let first = program.warnings[0].to_string();
        assert!(
            first.starts_with("tool.json#: warning: tool.json looks like an MCP tool, not a")
                && first.contains("`schemac check --tools tool.json`")
                && first.contains("`Builder::mcp_tools`"),
            "{first}"
        );
        // A name that could forge a line is escaped in the message as in the location.
        let program = compiler
            .compile_named("a\nb", &json!({"tools": [tool]}))
            .unwrap();
        assert!(!program.warnings[0].to_string().contains('\n'));
        let schema = json!({"type": "object", "properties": {"name": {}, "inputSchema": {}}});
        let program = compiler.compile_named("schema.json", &schema).unwrap();
        assert!(program.warnings.is_empty(), "{:?}", program.warnings);
    }

    #[test]
    fn reads_tools_and_applies_mcp_rules() {
        let list = json!({"tools": [
            {"name": "get-weather", "inputSchema": {"type": "object"},
             "outputSchema": {"oneOf": [{"type": "string"}, {"type": "number"}]}},
            {"name": "bad", "inputSchema": {"type": "array"}},
            {"name": "get_weather", "inputSchema": {"type": "object"}}
        ]});
        let read = tools("tools.json", &list);
        assert_eq!(read.errors.len(), 1, "{:?}", read.errors);
        assert_eq!(read.errors[0].location.pointer, "/tools/1/inputSchema");
        // The tools that follow the rules are kept beside the errors; names that differ
        // only as Rust identifiers are two tools here (modules are the driver's concern).
        let names: Vec<&str> = read.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["get-weather", "get_weather"]);

        let twice = json!([{"name": "a", "inputSchema": {"type": "object"}},
            {"name": "a", "inputSchema": {"type": "object"}}]);
        let read = tools("tools.json", &twice);
        assert_eq!(read.tools.len(), 1);
        assert_eq!(read.errors[0].location.pointer, "/1");
        assert!(read.errors[0]
            .message
            .contains("listed twice (first at /0)"));

        let ok = tools(
            "tools.json",
            &json!({"tools": [{"name": "a", "inputSchema": {"type": "object"},
                "outputSchema": {"oneOf": [{"type": "string"}]}}]}),
        );
        assert!(ok.errors.is_empty());
        assert_eq!(
            ok.tools[0].output_schema,
            Some(json!({"oneOf": [{"type": "string"}]})),
            "nothing is injected into an outputSchema"
        );
    }

    #[test]
    fn tools_and_tool_lists_are_recognized_and_schemas_are_not() {
        let tool = json!({"name": "get", "inputSchema": {"type": "object"}});
        assert_eq!(looks_like_tools(&tool), Some("an MCP tool"));
        assert_eq!(
            looks_like_tools(&json!({"tools": [tool.clone()]})),
            Some("an MCP tools/list result")
        );
        assert_eq!(
            looks_like_tools(&json!([tool])),
            Some("a list of MCP tools")
        );
        for schema in [
            json!({"type": "object", "properties": {"name": {}, "inputSchema": {}}}),
            json!({"properties": {"tools": {"type": "array"}}}),
            json!({"tools": []}),
            json!(true),
        ] {
            assert_eq!(looks_like_tools(&schema), None, "{schema}");
        }
    }
}
