//! The table of MCP tools that `schemac_build::Builder::mcp_tools` generates: a `static
//! TOOLS: &[Tool]` beside the modules, one entry per tool of the tool list in the order
//! listed, with the tool's name as the server advertises it (`github.get-me`, where the
//! module is `github_get_me_input`), its validators and its schema texts.
//!
//! ```ignore
//! mod validators {
//!     schemac_runtime::include_validators!();
//! }
//!
//! for tool in validators::TOOLS {
//!     println!("{}: {}", tool.name, tool.input.text);
//! }
//! ```
//!
//! The validators are `&'static dyn Validate + Sync` ([`Validate`]); generated with the
//! builder's `validate(false)`, `&'static dyn Check + Sync` ([`Check`](crate::Check)): the table's type
//! is `&[Tool<dyn Check + Sync>]` then.

use crate::Validate;
use core::fmt;

/// One tool of a generated tool table.
pub struct Tool<V: ?Sized + 'static = dyn Validate + Sync> {
    /// The tool's name, exactly as the tool list gives it.
    pub name: &'static str,
    /// Its `inputSchema`.
    pub input: ToolSchema<V>,
    /// Its `outputSchema`, when the tool declares one.
    pub output: Option<ToolSchema<V>>,
}

/// One schema of a tool: its validator and its text.
pub struct ToolSchema<V: ?Sized + 'static = dyn Validate + Sync> {
    /// The generated validator (the module's `Validator`).
    pub validator: &'static V,
    /// The schema's text, as compiled (the module's `SCHEMA`).
    pub text: &'static str,
    /// Whether the schema's root says `"type": "object"` (always so for an `inputSchema`;
    /// MCP peers before protocol 2026-07-28 accept only such output schemas).
    pub object_root: bool,
}

// Written out rather than derived: a derive would ask the validator type `V` (a trait
// object) to be `Clone`, `Copy` and `Debug`, where only references to it are held.
impl<V: ?Sized> Clone for Tool<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: ?Sized> Copy for Tool<V> {}

impl<V: ?Sized> Clone for ToolSchema<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: ?Sized> Copy for ToolSchema<V> {}

impl<V: ?Sized> fmt::Debug for Tool<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("input", &self.input)
            .field("output", &self.output)
            .finish()
    }
}

impl<V: ?Sized> fmt::Debug for ToolSchema<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSchema")
            .field("text", &self.text)
            .field("object_root", &self.object_root)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Report, Verdict};
    use serde_json::Value;

    /// A validator that accepts objects only.
    struct Objects;

    impl Validate for Objects {
        fn check(&self, instance: &Value) -> Verdict {
            if instance.is_object() {
                Verdict::Valid
            } else {
                Verdict::Invalid
            }
        }

        fn validate(&self, instance: &Value) -> Report {
            Report {
                verdict: self.check(instance),
                errors: alloc::vec::Vec::new(),
                errors_omitted: 0,
                usage: Default::default(),
            }
        }

        fn check_with_usage(&self, instance: &Value) -> (Verdict, crate::Usage) {
            (self.check(instance), crate::Usage::default())
        }
    }

    static TABLE: &[Tool] = &[Tool {
        name: "github.get-me",
        input: ToolSchema {
            validator: &Objects,
            text: "{\"type\":\"object\"}",
            object_root: true,
        },
        output: None,
    }];

    #[test]
    fn a_static_table_holds_trait_objects_under_the_listed_name() {
        let tool = TABLE.iter().find(|t| t.name == "github.get-me");
        let input = tool.expect("listed").input;
        assert!(input.validator.is_valid(&serde_json::json!({})));
        assert!(!input.validator.is_valid(&serde_json::json!([])));
        assert!(input.object_root);
        let copy = *tool.expect("listed");
        assert_eq!(
            alloc::format!("{copy:?}"),
            "Tool { name: \"github.get-me\", input: ToolSchema { text: \"{\\\"type\\\":\\\"object\\\"}\", object_root: true, .. }, output: None }"
        );
    }
}
