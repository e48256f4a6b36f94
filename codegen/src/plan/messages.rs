//! What error messages show of the schema, decided once for both backends: the error a
//! failing check reports ([`failure`]), the allowed values of `enum` / `const` and the
//! names an object allows, as text that the interpreter builds at run time and generated
//! code carries as static data — the same text.
//!
//! Values are written as JSON, shortened ([`LISTED_VALUES`] values, strings cut after
//! [`SHOWN_CHARS`] characters, a value's text after [`SHOWN_VALUE`], each cut marked
//! `…`) and escaped for a line of text output: besides JSON's own escapes, every character
//! that [`Escaped`] escapes (controls, invisible formatting characters and separators) is
//! written `\uXXXX` (a surrogate pair beyond the BMP), so the text can neither break a
//! line nor hide or reorder one, and still reads as JSON.

use crate::ir::{CheckKind, CustomKeyword, Edge, Node, NodeId, Program, RegexId};
use schemac_runtime::error::{Escaped, TypeSet};
use schemac_runtime::ErrorKind;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write;

/// How many values of an `enum` a message lists; the rest are counted (`… 3 more`).
pub const LISTED_VALUES: usize = 5;

/// How many characters of a string value a message shows before cutting it (`"abc…"`).
pub const SHOWN_CHARS: usize = 40;

/// How many characters of one value's text a message shows before cutting it.
pub const SHOWN_VALUE: usize = 80;

/// Up to how many names an object may allow for a message to list them.
pub const LISTED_NAMES: usize = 10;

/// `value` as JSON text for a message: compact, shortened and escaped (see the module
/// documentation).
pub fn value_text(value: &Value) -> String {
    let mut text = Text {
        out: String::new(),
        left: SHOWN_VALUE,
    };
    if !text.value(value) {
        text.out.push('…');
    }
    text.out
}

/// The first [`LISTED_VALUES`] of `values` as [`value_text`]s, joined by `, `, then
/// `… N more` when there are more: what an `enum` error lists.
pub fn values_text(values: &[Value]) -> String {
    let mut listed: Vec<String> = values.iter().take(LISTED_VALUES).map(value_text).collect();
    if values.len() > LISTED_VALUES {
        listed.push(format!("… {} more", values.len() - LISTED_VALUES));
    }
    listed.join(", ")
}

/// The error a check reports when it fails, as far as the check decides it: the one
/// mapping from check to error that both backends read (the interpreter reports it,
/// generated code writes it as a constant). Every kind is named, so a new one must say.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure<'p> {
    /// This error, at the check's keyword (the `false` schema's keyword is empty).
    Reports(ErrorKind),
    /// A `type` error: the allowed types, and the instance's, which only it says.
    Type(TypeSet),
    /// A custom keyword's error: the message its check gives.
    Custom(&'p CustomKeyword),
    /// None of its own: its errors depend on how it was applied (which names are
    /// missing, which subschemas matched, what they reported), and each backend's code
    /// for the keyword reports them.
    Applied,
}

/// What check `kind` of `program` reports when it fails ([`Failure`]).
pub fn failure<'p>(program: &Program, kind: &'p CheckKind) -> Failure<'p> {
    let text = |s: &str| Cow::Owned(s.to_owned());
    let limit = |n: &Number| n.as_f64().unwrap_or(f64::NAN);
    Failure::Reports(match kind {
        CheckKind::False => ErrorKind::FalseSchema,
        CheckKind::Type(types) | CheckKind::IntegerLiteral(types) => return Failure::Type(*types),
        CheckKind::Const(value) => ErrorKind::Const {
            expected: Cow::Owned(value_text(value)),
        },
        CheckKind::Enum(values) => ErrorKind::Enum {
            allowed: Cow::Owned(values_text(values)),
        },
        CheckKind::MultipleOf(divisor) => ErrorKind::MultipleOf { divisor: *divisor },
        CheckKind::Minimum(n) => ErrorKind::Minimum { limit: limit(n) },
        CheckKind::Maximum(n) => ErrorKind::Maximum { limit: limit(n) },
        CheckKind::ExclusiveMinimum(n) => ErrorKind::ExclusiveMinimum { limit: limit(n) },
        CheckKind::ExclusiveMaximum(n) => ErrorKind::ExclusiveMaximum { limit: limit(n) },
        CheckKind::MinLength(limit) => ErrorKind::MinLength { limit: *limit },
        CheckKind::MaxLength(limit) => ErrorKind::MaxLength { limit: *limit },
        CheckKind::Pattern(id) => ErrorKind::Pattern {
            pattern: text(program.regexes.get(id.0).map_or("", |e| &e.source)),
        },
        CheckKind::Format(name) => ErrorKind::Format { format: text(name) },
        CheckKind::ContentBase64 => ErrorKind::ContentEncoding {
            encoding: Cow::Borrowed("base64"),
        },
        CheckKind::ContentJson { .. } => ErrorKind::ContentMediaType {
            media_type: Cow::Borrowed("application/json"),
        },
        CheckKind::MinItems(limit) => ErrorKind::MinItems { limit: *limit },
        CheckKind::MaxItems(limit) => ErrorKind::MaxItems { limit: *limit },
        CheckKind::UniqueItems => ErrorKind::UniqueItems,
        CheckKind::Contains { min, max, .. } => ErrorKind::Contains {
            min: *min,
            max: *max,
        },
        CheckKind::MinProperties(limit) => ErrorKind::MinProperties { limit: *limit },
        CheckKind::MaxProperties(limit) => ErrorKind::MaxProperties { limit: *limit },
        CheckKind::Not(_) => ErrorKind::Not,
        CheckKind::Custom(custom) => return Failure::Custom(custom),
        CheckKind::Required(_)
        | CheckKind::DependentRequired(_)
        | CheckKind::Ref(_)
        | CheckKind::DynamicRef { .. }
        | CheckKind::Unresolved { .. }
        | CheckKind::AllOf(_)
        | CheckKind::AnyOf(_)
        | CheckKind::OneOf(_)
        | CheckKind::IfThenElse { .. }
        | CheckKind::DependentSchemas(_)
        | CheckKind::Properties(_)
        | CheckKind::PatternProperties(_)
        | CheckKind::AdditionalProperties { .. }
        | CheckKind::PropertyNames(_)
        | CheckKind::PrefixItems(_)
        | CheckKind::Items { .. }
        | CheckKind::UnevaluatedProperties(_)
        | CheckKind::UnevaluatedItems(_) => return Failure::Applied,
    })
}

/// What the error of a `false` subschema of `additionalProperties` /
/// `unevaluatedProperties` says on a property it refuses
/// ([`schemac_runtime::ErrorKind::PropertyNotAllowed`], at the `false` schema's locations).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The names the object allows as [`value_text`]s joined by `, `; empty when they are
    /// not known or more than [`LISTED_NAMES`].
    pub allowed: String,
    /// The names, among those listed, that a subschema declares: `unevaluatedProperties`
    /// refuses one of them only when the subschema that declares it failed, and the
    /// message says so. Empty for `additionalProperties`, which never sees its siblings'
    /// names.
    pub declared: Vec<String>,
}

impl Refusal {
    /// Whether the refused property `key` is one of [`Refusal::declared`].
    pub fn declares(&self, key: &str) -> bool {
        self.declared.iter().any(|name| name == key)
    }
}

/// What the error of `additionalProperties`' subschema (`schema`, skipping the names
/// `known` and the `patterns`) says on a property it applies to: `Some` when the
/// subschema is `false`, with the names the object allows — its sibling `properties`
/// (`known`), not known when there are sibling `patternProperties`. `None` when the
/// subschema is not `false`.
pub fn additional_refusal(
    program: &Program,
    schema: &Edge,
    known: &[String],
    patterns: &[RegexId],
) -> Option<Refusal> {
    let names = patterns
        .is_empty()
        .then(|| known.iter().map(String::as_str).collect());
    refuses(program, schema).then(|| Refusal {
        allowed: allowed_text(listed(names)),
        declared: Vec::new(),
    })
}

/// [`additional_refusal`] for `unevaluatedProperties` of `node` (subschema `schema`): the
/// names allowed are the `properties` of the node and of the subschemas it always applies
/// in place (`$ref`, a static `$dynamicRef`, `allOf`; `not` evaluates none); not known
/// when one of them has `patternProperties`, `additionalProperties` or
/// `unevaluatedProperties` (they evaluate any name), or an applicator that evaluates names
/// only on some instances (`anyOf`, `oneOf`, `if`, `dependentSchemas`, a dynamic
/// `$dynamicRef`).
pub fn unevaluated_refusal(program: &Program, node: &Node, schema: &Edge) -> Option<Refusal> {
    refuses(program, schema).then(|| {
        let names = listed(declared_names(program, node));
        Refusal {
            allowed: allowed_text(names.clone()),
            declared: names.into_iter().map(str::to_owned).collect(),
        }
    })
}

/// Whether `schema` leads to a `false` subschema.
fn refuses(program: &Program, schema: &Edge) -> bool {
    (program.node(schema.target).checks.iter()).any(|c| matches!(c.kind, CheckKind::False))
}

/// `names` when they are known and at most [`LISTED_NAMES`], else none.
fn listed(names: Option<Vec<&str>>) -> Vec<&str> {
    names
        .filter(|names| names.len() <= LISTED_NAMES)
        .unwrap_or_default()
}

/// `names` as [`value_text`]s joined by `, `.
fn allowed_text(names: Vec<&str>) -> String {
    let texts: Vec<String> = names
        .iter()
        .map(|name| value_text(&Value::String((*name).to_owned())))
        .collect();
    texts.join(", ")
}

/// The `properties` names of `node` and of the subschemas it always applies in place, in
/// schema order, each once; `None` when a name outside them may be evaluated too, or when
/// which names are evaluated depends on the instance.
fn declared_names<'p>(program: &'p Program, start: &'p Node) -> Option<Vec<&'p str>> {
    let mut names: Vec<&str> = Vec::new();
    let mut seen: BTreeSet<NodeId> = BTreeSet::new();
    let mut queue: Vec<&Node> = vec![start];
    let mut next = 0;
    while let Some(&node) = queue.get(next) {
        next += 1;
        for check in &node.checks {
            match &check.kind {
                CheckKind::Properties(entries) => {
                    for (name, _) in entries {
                        if !names.contains(&name.as_str()) {
                            names.push(name);
                        }
                    }
                }
                CheckKind::Ref(edge)
                | CheckKind::DynamicRef {
                    fallback: edge,
                    anchor: None,
                } => queue.extend(seen.insert(edge.target).then(|| program.node(edge.target))),
                CheckKind::AllOf(edges) => {
                    for edge in edges {
                        queue.extend(seen.insert(edge.target).then(|| program.node(edge.target)));
                    }
                }
                // `not` evaluates nothing; other in-place applicators evaluate names only
                // on some instances, and the rest of the object applicators whatever names
                // they meet.
                CheckKind::Not(_) => {}
                kind if kind.is_in_place() => return None,
                CheckKind::PatternProperties(_) | CheckKind::AdditionalProperties { .. } => {
                    return None
                }
                CheckKind::UnevaluatedProperties(_) if !std::ptr::eq(node, start) => return None,
                _ => {}
            }
        }
        if names.len() > LISTED_NAMES {
            return None;
        }
    }
    Some(names)
}

/// JSON text being written with at most `left` more characters.
struct Text {
    out: String,
    left: usize,
}

impl Text {
    /// Writes `s` as far as room is left; whether all of it fit.
    fn push(&mut self, s: &str) -> bool {
        for c in s.chars() {
            if self.left == 0 {
                return false;
            }
            self.out.push(c);
            self.left -= 1;
        }
        true
    }

    /// Writes `value`; whether all of it fit.
    fn value(&mut self, value: &Value) -> bool {
        match value {
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.push("[")
                    && items
                        .iter()
                        .enumerate()
                        .all(|(i, item)| (i == 0 || self.push(",")) && self.value(item))
                    && self.push("]")
            }
            Value::Object(map) => {
                self.push("{")
                    && map.iter().enumerate().all(|(i, (k, v))| {
                        (i == 0 || self.push(","))
                            && self.string(k)
                            && self.push(":")
                            && self.value(v)
                    })
                    && self.push("}")
            }
            other => self.push(&other.to_string()),
        }
    }

    /// Writes the string `s` quoted and escaped, cut after [`SHOWN_CHARS`] characters.
    fn string(&mut self, s: &str) -> bool {
        if !self.push("\"") {
            return false;
        }
        let mut escaped = String::new();
        for (i, c) in s.chars().enumerate() {
            if i == SHOWN_CHARS {
                return self.push("…\"");
            }
            escaped.clear();
            match c {
                '"' => escaped.push_str("\\\""),
                '\\' => escaped.push_str("\\\\"),
                '\n' => escaped.push_str("\\n"),
                '\r' => escaped.push_str("\\r"),
                '\t' => escaped.push_str("\\t"),
                c if Escaped::needs_escape(c) => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let _ = write!(escaped, "\\u{unit:04x}");
                    }
                }
                c => escaped.push(c),
            }
            if !self.push(&escaped) {
                return false;
            }
        }
        self.push("\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_json_listed_shortened_and_escaped() {
        assert_eq!(
            values_text(&[json!("create"), json!("update")]),
            r#""create", "update""#
        );
        let many: Vec<Value> = (0..12).map(|i| json!(i)).collect();
        assert_eq!(values_text(&many), "0, 1, 2, 3, 4, … 7 more");
        assert_eq!(value_text(&json!({"a": [1, null]})), r#"{"a":[1,null]}"#);
        let long = "x".repeat(100);
        assert_eq!(
            value_text(&json!(long)),
            format!("\"{}…\"", "x".repeat(SHOWN_CHARS))
        );
        let wide: Vec<Value> = (0..100).map(|i| json!(i)).collect();
        let text = value_text(&Value::Array(wide));
        assert_eq!(text.chars().count(), SHOWN_VALUE + 1, "{text}");
        assert!(text.ends_with('…'));
        // Controls, DEL, C1 and bidirectional controls are escaped; the text reads back.
        let nasty = "a\"b\\c\nd\u{7f}\u{85}\u{202e}é\u{e0041}";
        let text = value_text(&json!(nasty));
        assert_eq!(text, r#""a\"b\\c\nd\u007f\u0085\u202eé\udb40\udc41""#);
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), nasty);
    }
}
