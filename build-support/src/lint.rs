//! Warnings for likely misspelled keywords (`minLenght`, `requried`): takes a schema
//! document, gives one warning line per unknown keyword within a small edit distance of a
//! known 2020-12 or draft-07 keyword. Used when the `strict` option is off (with it, the
//! compiler refuses unknown keywords outright).

use serde_json::Value;

/// Every keyword of 2020-12 and draft-07 (core, applicator, validation, unevaluated,
/// format, content and meta-data vocabularies).
const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "$recursiveRef",
    "$recursiveAnchor",
    "definitions",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "dependencies",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];

/// Keywords whose value is a schema.
const SCHEMA_VALUED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is an object of schemas.
const SCHEMA_MAPS: &[&str] = &[
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is an array of schemas.
const SCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// One warning line per likely misspelled keyword in `schema` (the document named
/// `document`), as `document#pointer: warning: ...`.
pub(crate) fn misspelled_keywords(document: &str, schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(document, schema, &mut String::new(), &mut out, 0);
    out
}

fn walk(document: &str, schema: &Value, pointer: &mut String, out: &mut Vec<String>, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > 128 {
        return;
    }
    for (key, value) in map {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&escape(key));
        if KEYWORDS.contains(&key.as_str()) {
            if SCHEMA_VALUED.contains(&key.as_str()) {
                walk(document, value, pointer, out, depth + 1);
            }
            if SCHEMA_MAPS.contains(&key.as_str()) {
                if let Value::Object(children) = value {
                    for (name, child) in children {
                        let l = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&escape(name));
                        walk(document, child, pointer, out, depth + 1);
                        pointer.truncate(l);
                    }
                }
            }
            if SCHEMA_ARRAYS.contains(&key.as_str()) {
                if let Value::Array(children) = value {
                    for (i, child) in children.iter().enumerate() {
                        let l = pointer.len();
                        pointer.push_str(&format!("/{i}"));
                        walk(document, child, pointer, out, depth + 1);
                        pointer.truncate(l);
                    }
                }
            }
        } else if let Some(meant) = closest(key) {
            out.push(format!(
                "{document}#{pointer}: warning: unknown keyword `{key}` is ignored; did you mean `{meant}`?"
            ));
        }
        pointer.truncate(len);
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The known keyword within edit distance 2 (1 for short words) of `word`, if exactly one
/// is closest.
fn closest(word: &str) -> Option<&'static str> {
    if word.len() < 3 {
        return None;
    }
    let limit = if word.len() <= 5 { 1 } else { 2 };
    let mut best: Option<(usize, &'static str)> = None;
    for &k in KEYWORDS {
        let d = distance(&word.to_ascii_lowercase(), &k.to_ascii_lowercase());
        if d <= limit && !matches!(best, Some((bd, _)) if bd <= d) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn suggests_the_intended_keyword() {
        let schema = json!({
            "type": "object",
            "requried": ["a"],
            "properties": {"a": {"minLenght": 3, "x-vendor": true}},
            "allOf": [{"maximun": 3}],
            "title": "not a typo"
        });
        let warnings = misspelled_keywords("s.json", &schema);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings
            .iter()
            .any(|w| w.contains("#/requried") && w.contains("`required`")));
        assert!(warnings
            .iter()
            .any(|w| w.contains("#/properties/a/minLenght") && w.contains("`minLength`")));
        assert!(warnings
            .iter()
            .any(|w| w.contains("#/allOf/0/maximun") && w.contains("`maximum`")));
    }

    #[test]
    fn distant_words_are_left_alone() {
        assert_eq!(closest("x-vendor"), None);
        assert_eq!(closest("foo"), None);
        assert_eq!(closest("typ"), Some("type"));
        assert_eq!(distance("requried", "required"), 1);
    }
}
