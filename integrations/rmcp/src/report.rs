//! What a failed check says, to a model and to a program: a compact text — a heading, then
//! one line per error, `location: message` — and the 2020-12 basic output as a structured
//! part.
//!
//! The server layer sends the text as the `isError` result's content (what a model reads
//! to fix its call) and the structured part under the result's `_meta`, key [`META_KEY`],
//! where a client program can read it and a model is not shown it. The client layer keeps
//! the structured part in [`ClientError`](crate::ClientError) and displays the text.
//!
//! Both name locations, never instance values. An instance location names the
//! instance's keys, which a stranger chose, so:
//!
//! - in the text it is written through [`Escaped`]: a location holding a control
//!   character, a line separator or an invisible formatting character (U+202E, U+2028,
//!   U+200B, U+FEFF, ...) is written as a JSON string literal with those escaped;
//! - everywhere, a location longer than [`MAX_LOCATION_CHARS`] characters is cut there,
//!   and the output says so: `… (cut: N characters)` in the text, a member
//!   `instanceLocationCut` (or `keywordLocationCut`) holding the full length in the
//!   structured part. A 15 MB key costs a few hundred bytes of answer.
//!
//! `absoluteKeywordLocation` is kept only when the schema has a real base URI (a `$id`):
//! schemac's placeholder for a schema without one ([`DEFAULT_BASE_URI`],
//! `https://schemac.invalid/...`) is invented, and a model may take it at face value.

use schemac::load::DEFAULT_BASE_URI;
use schemac_runtime::Report;
use schemac_runtime::error::Escaped;
use schemac_runtime::output::basic;
use serde_json::{Map, Value};
use std::fmt::Write;

/// The `_meta` key of an `isError` result that carries the 2020-12 basic output of the
/// failed check (see the [module docs](self)).
pub const META_KEY: &str = "schemac/validation";

/// The longest location, in characters, that a message holds; a longer one is cut to this
/// length and marked as cut.
pub const MAX_LOCATION_CHARS: usize = 200;

/// The location members of an output unit that are cut, each with the member that records
/// the full length.
const CUT_MEMBERS: [(&str, &str); 2] = [
    ("instanceLocation", "instanceLocationCut"),
    ("keywordLocation", "keywordLocationCut"),
];

/// The 2020-12 basic output of a failed check as this crate sends it: locations cut at
/// [`MAX_LOCATION_CHARS`] (with the full length beside), no invented
/// `absoluteKeywordLocation`.
pub fn structured(report: &Report) -> Value {
    let mut output = basic(report);
    if let Some(Value::Array(units)) = output.get_mut("errors") {
        for unit in units.iter_mut().filter_map(Value::as_object_mut) {
            shape_unit(unit);
        }
    }
    output
}

/// One unit as sent: the invented absolute location dropped, long locations cut.
fn shape_unit(unit: &mut Map<String, Value>) {
    if unit
        .get("absoluteKeywordLocation")
        .and_then(Value::as_str)
        .is_some_and(is_invented)
    {
        unit.remove("absoluteKeywordLocation");
    }
    for (member, cut_member) in CUT_MEMBERS {
        let Some(Value::String(location)) = unit.get_mut(member) else {
            continue;
        };
        if let Some((end, _)) = location.char_indices().nth(MAX_LOCATION_CHARS) {
            let length = location.chars().count();
            location.truncate(end);
            unit.insert(cut_member.into(), Value::from(length));
        }
    }
}

/// Whether `uri` is under schemac's placeholder base URI (a schema without `$id`).
fn is_invented(uri: &str) -> bool {
    let placeholder_dir = DEFAULT_BASE_URI
        .rsplit_once('/')
        .map_or(DEFAULT_BASE_URI, |(dir, _)| dir);
    uri.strip_prefix(placeholder_dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The compact text of a failed check's [`structured`] output: `heading`, then one line
/// per error, `location: message` (`(root)` for the instance itself), a line for a check
/// that did not finish and one counting the errors not listed. The errors that explain a
/// failed `anyOf` / `oneOf` (those of its closest subschema, which follow its error in the
/// basic output, located under it) are indented under its line, as `because` lines.
pub fn text(heading: &str, structured: &Value) -> String {
    let mut out = String::from(heading);
    let root_error = structured.get("error").and_then(Value::as_str);
    if let Some(error) = root_error {
        let _ = write!(out, "\n(root): {error}");
    }
    let units = structured.get("errors").and_then(Value::as_array);
    // The failed `anyOf` / `oneOf` whose explanation the next units may be.
    let mut explained: Vec<(&str, &str)> = Vec::new();
    for unit in units.into_iter().flatten() {
        let at = |member| unit.get(member).and_then(Value::as_str).unwrap_or("");
        let (keyword, instance) = (at("keywordLocation"), at("instanceLocation"));
        while let Some((k, i)) = explained.last() {
            if is_under(keyword, k) && (instance == *i || is_under(instance, i)) {
                break;
            }
            explained.pop();
        }
        out.push('\n');
        if !explained.is_empty() {
            out.push_str(&"  ".repeat(explained.len()));
            out.push_str("because ");
        }
        let whole = unit.get("keywordLocationCut").is_none();
        if whole && (keyword.ends_with("/anyOf") || keyword.ends_with("/oneOf")) {
            explained.push((keyword, instance));
        }
        write_location(&mut out, unit);
        let message = unit.get("error").and_then(Value::as_str).unwrap_or("");
        let _ = write!(out, ": {message}");
    }
    let omitted = structured.get("errorsOmitted").and_then(Value::as_u64);
    if let Some(omitted) = omitted.filter(|&n| n > 0) {
        let _ = write!(out, "\n… and {omitted} more error(s), not listed");
    }
    out
}

/// Whether the JSON pointer `pointer` lies strictly under `parent`.
fn is_under(pointer: &str, parent: &str) -> bool {
    pointer
        .strip_prefix(parent)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// A unit's instance location as a line shows it: escaped, and marked when it was cut.
fn write_location(out: &mut String, unit: &Value) {
    let location = unit
        .get("instanceLocation")
        .and_then(Value::as_str)
        .unwrap_or("");
    if location.is_empty() {
        out.push_str("(root)");
        return;
    }
    let _ = write!(out, "{}", Escaped(location));
    if let Some(length) = unit.get("instanceLocationCut").and_then(Value::as_u64) {
        let _ = write!(out, "… (cut: {length} characters)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac::Validate;
    use serde_json::json;

    #[test]
    fn one_line_per_error_naming_locations_not_values() {
        let validator = schemac::validator_for(&json!({"type": "object",
            "properties": {"a": {"maxLength": 3}, "b": {"minimum": 5}}}))
        .unwrap();
        let report = validator.validate(&json!({"a": "secret-value", "b": 1}));
        let output = structured(&report);
        let text = text("heading:", &output);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], "heading:");
        assert!(lines[1].starts_with("/a: "), "{text}");
        assert!(lines[2].starts_with("/b: "), "{text}");
        assert!(!text.contains("secret-value"), "{text}");
        // The 2020-12 basic shape, without the placeholder base URI.
        assert_eq!(output["valid"], false);
        assert_eq!(
            output["errors"][0]["keywordLocation"],
            "/properties/a/maxLength"
        );
        assert!(!output.to_string().contains("schemac.invalid"), "{output}");
        assert!(output["errors"][0].get("absoluteKeywordLocation").is_none());
    }

    #[test]
    fn the_errors_explaining_a_failed_one_of_are_indented_under_it() {
        let validator = schemac::validator_for(&json!({"properties": {"labels": {"items": {
            "oneOf": [{"type": "string"}, {"type": "object",
                "properties": {"confidence": {"enum": ["LOW", "MEDIUM", "HIGH"]}},
                "required": ["confidence"]}]}}}}))
        .unwrap();
        let report = validator.validate(&json!({"labels": [{"confidence": "VERY"}, 5, "ok"]}));
        let output = structured(&report);
        assert_eq!(
            output["errors"].as_array().map(Vec::len),
            Some(3),
            "{output}"
        );
        let text = text("heading:", &output);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "heading:",
                "/labels/0: value matches none of the `oneOf` subschemas",
                r#"  because /labels/0/confidence: value must be one of "LOW", "MEDIUM", "HIGH""#,
                "/labels/1: value matches none of the `oneOf` subschemas: expected object or string, found integer",
            ],
            "{text}"
        );
        assert!(!text.contains("VERY"), "{text}");
    }

    #[test]
    fn a_real_base_uri_is_kept() {
        let validator = schemac::validator_for(&json!({"$id": "https://example.com/tool.json",
            "minimum": 5}))
        .unwrap();
        let output = structured(&validator.validate(&json!(1)));
        assert_eq!(
            output["errors"][0]["absoluteKeywordLocation"],
            "https://example.com/tool.json#/minimum"
        );
        let relative = schemac::validator_for(&json!({"$id": "tool.json", "minimum": 5})).unwrap();
        let output = structured(&relative.validate(&json!(1)));
        assert!(
            output["errors"][0].get("absoluteKeywordLocation").is_none(),
            "{output}"
        );
    }

    #[test]
    fn keys_are_escaped_and_long_locations_cut() {
        let validator = schemac::validator_for(&json!({"additionalProperties": false})).unwrap();
        let sneaky = "a\u{202e}b\u{2028}c\u{2029}d\u{200b}e\u{feff}f";
        let long = "k".repeat(15_000);
        let mut instance = Map::new();
        instance.insert(sneaky.into(), json!(1));
        instance.insert(long.clone(), json!(1));
        let output = structured(&validator.validate(&Value::Object(instance)));
        let shown = text("heading:", &output);
        assert!(shown.len() < 1_000, "{} bytes", shown.len());
        assert_eq!(shown.lines().count(), 3, "{shown}");
        for c in ['\u{202e}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{feff}'] {
            assert!(!shown.contains(c), "U+{:04X} raw in {shown:?}", c as u32);
        }
        assert!(
            shown.contains(r#""/a\u202eb\u2028c\u2029d\u200be\ufefff": "#),
            "{shown}"
        );
        let cut = format!("/{}… (cut: 15001 characters): ", "k".repeat(199));
        assert!(shown.contains(&cut), "{shown}");
        // The structured part is cut alike and says the full length.
        let units = output["errors"].as_array().unwrap();
        let long_unit = units
            .iter()
            .find(|u| u.get("instanceLocationCut").is_some())
            .unwrap();
        assert_eq!(long_unit["instanceLocationCut"], 15_001);
        assert_eq!(
            long_unit["instanceLocation"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            MAX_LOCATION_CHARS
        );
        assert!(output.to_string().len() < 2_000);
    }

    #[test]
    fn incomplete_checks_and_omitted_errors_have_lines() {
        let validator = schemac::options()
            .limits(schemac_runtime::Limits {
                max_errors: 1,
                ..Default::default()
            })
            .build(&json!({"items": {"type": "string"}}))
            .unwrap();
        let omitted = text("h", &structured(&validator.validate(&json!([1, 2, 3]))));
        assert!(
            omitted.ends_with("\n… and 2 more error(s), not listed"),
            "{omitted}"
        );
        let budget = schemac::options()
            .limits(schemac_runtime::Limits {
                budget: 1,
                ..Default::default()
            })
            .build(&json!({"items": {"anyOf": [{"type": "string"}, {"minimum": 1}]}}))
            .unwrap();
        let incomplete = text("h", &structured(&budget.validate(&json!([1, 2, 3, 4]))));
        assert!(
            incomplete.contains("\n(root): the check did not finish"),
            "{incomplete}"
        );
    }
}
