//! The keywords each dialect knows, and suggestions for misspelled ones.

use crate::Dialect;

/// Keywords of every supported dialect (core, applicator, validation, annotations).
const COMMON: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$comment",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
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
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "dependencies",
    "items",
    "contains",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "format",
    "contentMediaType",
    "contentEncoding",
];

/// Keywords 2019-09 and 2020-12 add to [`COMMON`].
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

/// Every keyword of every supported dialect, each once.
pub fn all_keywords() -> impl Iterator<Item = &'static str> {
    COMMON.iter().chain(MODERN).chain(DIALECT_SPECIFIC).copied()
}

/// Keywords only some dialects know.
const DIALECT_SPECIFIC: &[&str] = &[
    "prefixItems",
    "$dynamicRef",
    "$dynamicAnchor",
    "additionalItems",
    "$recursiveRef",
    "$recursiveAnchor",
];

/// Whether `name` is a keyword of `dialect`.
pub(crate) fn is_known(dialect: Dialect, name: &str) -> bool {
    COMMON.contains(&name)
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
            Dialect::Draft7 => name == "additionalItems",
        }
}

/// The known keyword `name` most likely misspells (edit distance at most 2), if any.
pub(crate) fn suggestion(dialect: Dialect, name: &str) -> Option<&'static str> {
    if name.chars().count() < 5 {
        return None;
    }
    COMMON
        .iter()
        .chain(MODERN)
        .chain(&[
            "prefixItems",
            "additionalItems",
            "$dynamicRef",
            "$dynamicAnchor",
        ])
        .filter(|k| is_known(dialect, k))
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, _)| *d <= 2)
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
        assert_eq!(suggestion(Dialect::Draft7, "prefixItem"), None);
        assert!(is_known(Dialect::Draft7, "additionalItems"));
        assert!(!is_known(Dialect::Draft2020_12, "additionalItems"));
    }
}
