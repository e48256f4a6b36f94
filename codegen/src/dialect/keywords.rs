//! The keywords each dialect knows, and suggestions for misspelled ones.

use crate::dialect::Dialect;

/// Keywords of every supported dialect, draft-04 included (core, applicator, validation,
/// annotations).
const COMMON: &[&str] = &[
    "$schema",
    "$ref",
    "definitions",
    "title",
    "description",
    "default",
    "type",
    "enum",
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
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "dependencies",
    "items",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "format",
];

/// Keywords draft-06 adds to [`COMMON`] (and every later dialect keeps).
const SINCE_DRAFT6: &[&str] = &["$id", "const", "contains", "propertyNames", "examples"];

/// Keywords draft-07 adds (and every later dialect keeps).
const SINCE_DRAFT7: &[&str] = &[
    "$comment",
    "if",
    "then",
    "else",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
];

/// Keywords 2019-09 and 2020-12 add.
const MODERN: &[&str] = &[
    "$anchor",
    "$defs",
    "$vocabulary",
    "deprecated",
    "contentSchema",
    "dependentRequired",
    "dependentSchemas",
    "maxContains",
    "minContains",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords only some dialects know.
const DIALECT_SPECIFIC: &[&str] = &[
    "id",
    "prefixItems",
    "$dynamicRef",
    "$dynamicAnchor",
    "additionalItems",
    "$recursiveRef",
    "$recursiveAnchor",
];

/// Annotations that well-known tools and specifications add to JSON Schema (OpenAPI, VS
/// Code, ajv-errors, SchemaStore, JSON Forms, TypeScript generators). They are not typos:
/// they never draw a "did you mean" warning, and neither does any `x-*` keyword nor any
/// keyword starting with `@` (JSON-LD's `@context` / `@type`, SchemaStore's `@comment`).
/// Listed in the README.
pub const KNOWN_EXTENSIONS: &[&str] = &[
    // OpenAPI
    "example",
    "nullable",
    "discriminator",
    "externalDocs",
    "xml",
    // VS Code's JSON language service
    "markdownDescription",
    "markdownEnumDescriptions",
    "enumDescriptions",
    "enumItemLabels",
    "enumSortTexts",
    "deprecationMessage",
    "markdownDeprecationMessage",
    "defaultSnippets",
    "errorMessage",
    "patternErrorMessage",
    "doNotSuggest",
    "suggestSortText",
    "allowComments",
    "allowTrailingCommas",
    // Code generators and form builders
    "tsType",
    "tsEnumNames",
    "options",
];

/// Every keyword of every supported dialect, each once.
pub fn all_keywords() -> impl Iterator<Item = &'static str> {
    COMMON
        .iter()
        .chain(SINCE_DRAFT6)
        .chain(SINCE_DRAFT7)
        .chain(MODERN)
        .chain(DIALECT_SPECIFIC)
        .copied()
}

/// Whether `name` is a keyword of `dialect`.
pub(crate) fn is_known(dialect: Dialect, name: &str) -> bool {
    if COMMON.contains(&name) {
        return true;
    }
    let since6 = dialect != Dialect::Draft4 && SINCE_DRAFT6.contains(&name);
    let since7 =
        !matches!(dialect, Dialect::Draft4 | Dialect::Draft6) && SINCE_DRAFT7.contains(&name);
    since6
        || since7
        || match dialect {
            Dialect::Draft2020_12 => {
                MODERN.contains(&name)
                    || matches!(name, "prefixItems" | "$dynamicRef" | "$dynamicAnchor")
            }
            Dialect::Draft2019_09 => {
                MODERN.contains(&name)
                    || matches!(
                        name,
                        "additionalItems" | "$recursiveRef" | "$recursiveAnchor"
                    )
            }
            Dialect::Draft7 | Dialect::Draft6 => name == "additionalItems",
            Dialect::Draft4 => matches!(name, "additionalItems" | "id"),
        }
}

/// Whether `name` is an annotation in `dialect` (2020-12 §7.7 and the earlier dialects'
/// equivalents): a meta-data, `format` or content keyword, or a keyword the dialect does
/// not know. `contentSchema` is one only beside `contentMediaType` (the caller's
/// check).
pub(crate) fn is_annotation(dialect: Dialect, name: &str) -> bool {
    matches!(
        name,
        "title"
            | "description"
            | "default"
            | "format"
            | "examples"
            | "readOnly"
            | "writeOnly"
            | "deprecated"
            | "contentMediaType"
            | "contentEncoding"
    ) || !is_known(dialect, name)
}

/// Whether `name` is a well-known extension annotation (see [`KNOWN_EXTENSIONS`]), an
/// `x-*` keyword or an `@` keyword.
pub(crate) fn is_extension(name: &str) -> bool {
    name.starts_with("x-") || name.starts_with('@') || KNOWN_EXTENSIONS.contains(&name)
}

/// The known keyword `name` most likely misspells, if any: one edit away (a letter
/// added, dropped or changed, or two neighbours swapped), or two for a name of nine
/// characters or more — so `minLenght` suggests `minLength`, but a short word two edits
/// from a keyword is a word of its own (an MCP tool's `icons` is not `const`). Never for
/// a keyword of another dialect (`$defs` in draft-07 is not a typo of `$ref`) nor for a
/// well-known extension.
pub(crate) fn suggestion(dialect: Dialect, name: &str) -> Option<&'static str> {
    let length = name.chars().count();
    if length < 5 || is_extension(name) || all_keywords().any(|k| k == name) {
        return None;
    }
    let most = if length >= 9 { 2 } else { 1 };
    all_keywords()
        // (The lengths alone bound the distance from below: keywords are ASCII.)
        .filter(|k| length.abs_diff(k.len()) <= most && is_known(dialect, k))
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, _)| *d <= most)
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance with adjacent transpositions counted as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_misspelled_keywords() {
        assert_eq!(
            suggestion(Dialect::Draft2020_12, "minLenght"),
            Some("minLength")
        );
        assert_eq!(
            suggestion(Dialect::Draft2020_12, "requried"),
            Some("required")
        );
        assert_eq!(
            suggestion(Dialect::Draft2020_12, "markdownDescription"),
            None
        );
        assert_eq!(
            suggestion(Dialect::Draft2020_12, "propertys"),
            Some("properties")
        );
        assert_eq!(suggestion(Dialect::Draft2020_12, "titel"), Some("title"));
        // Fields of an MCP tool are words of their own, not typos.
        for word in [
            "icons",
            "annotations",
            "inputSchema",
            "outputSchema",
            "_meta",
        ] {
            assert_eq!(suggestion(Dialect::Draft2020_12, word), None, "{word}");
        }
        assert_eq!(suggestion(Dialect::Draft7, "prefixItem"), None);
        for extension in [
            "example",
            "markdownDescription",
            "x-examples",
            "errorMessage",
            "@comment",
        ] {
            assert_eq!(suggestion(Dialect::Draft7, extension), None, "{extension}");
        }
        // A keyword of another dialect is not a typo.
        assert_eq!(suggestion(Dialect::Draft7, "$defs"), None);
        assert_eq!(suggestion(Dialect::Draft4, "examples"), None);
        assert!(is_known(Dialect::Draft4, "id"));
        assert!(!is_known(Dialect::Draft4, "const"));
        assert!(is_known(Dialect::Draft6, "const"));
        assert!(!is_known(Dialect::Draft6, "if"));
        assert!(is_known(Dialect::Draft7, "additionalItems"));
        assert!(!is_known(Dialect::Draft2020_12, "additionalItems"));
    }
}
