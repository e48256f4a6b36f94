//! Which object applicators of a node run as one pass over an object's properties: the
//! decision the interpreter renders as its fused object pass (run where the first of them
//! stands, each key looked up among the `properties` names, tested against the patterns
//! once, and given to `propertyNames`; every key's share of the budget charged before
//! it starts, as generated code charges its loop). Takes a node; gives the indices of
//! the checks that fuse, or `None` where they run check by check.
//!
//! The Rust backend fuses the object keywords of a dispatch arm into its loop over the
//! object on its own terms (`emit/node/dispatch.rs`, `object.rs`); moving that decision
//! here too is the rest of issue 36 item 1.

use crate::ir::{CheckKind, Node};

/// The object applicators of a node that run together, by check index, at the first of
/// them ([`FusedApplicators::first`]); the others are skipped where they stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FusedApplicators {
    /// Index of the first of the fused checks: the pass runs there.
    pub first: usize,
    /// Index of the `properties` check.
    pub properties: Option<usize>,
    /// Index of the `patternProperties` check.
    pub patterns: Option<usize>,
    /// Index of the `additionalProperties` check.
    pub additional: Option<usize>,
    /// Index of the `propertyNames` check.
    pub names: Option<usize>,
}

/// The applicators of `node` fused into one pass: only the shape every front end
/// produces — at most one each of `properties`, `patternProperties`,
/// `additionalProperties` and `propertyNames`, with `patternProperties` or
/// `additionalProperties` among them, or `propertyNames` beside `properties`, and
/// `additionalProperties` naming exactly its siblings' names and patterns. `None` for
/// any other node: its applicators run check by check.
pub fn fused_applicators(node: &Node) -> Option<FusedApplicators> {
    let (mut properties, mut patterns, mut additional) = (Vec::new(), Vec::new(), Vec::new());
    let mut names = Vec::new();
    for (i, check) in node.checks.iter().enumerate() {
        match &check.kind {
            CheckKind::Properties(_) => properties.push(i),
            CheckKind::PatternProperties(_) => patterns.push(i),
            CheckKind::AdditionalProperties { .. } => additional.push(i),
            CheckKind::PropertyNames(_) => names.push(i),
            _ => {}
        }
    }
    if [&properties, &patterns, &additional, &names]
        .iter()
        .any(|c| c.len() > 1)
    {
        return None;
    }
    if patterns.is_empty() && additional.is_empty() && (names.is_empty() || properties.is_empty()) {
        return None;
    }
    if let Some(&a) = additional.first() {
        let CheckKind::AdditionalProperties {
            known,
            patterns: ids,
            ..
        } = &node.checks[a].kind
        else {
            return None;
        };
        let mut sibling_names: Vec<&str> = match properties.first() {
            Some(&p) => match &node.checks[p].kind {
                CheckKind::Properties(entries) => entries.iter().map(|(n, _)| n.as_str()).collect(),
                _ => return None,
            },
            None => Vec::new(),
        };
        let mut known_names: Vec<&str> = known.iter().map(String::as_str).collect();
        sibling_names.sort_unstable();
        sibling_names.dedup();
        known_names.sort_unstable();
        known_names.dedup();
        let mut sibling_ids: Vec<_> = match patterns.first() {
            Some(&p) => match &node.checks[p].kind {
                CheckKind::PatternProperties(entries) => {
                    entries.iter().map(|(id, _)| *id).collect()
                }
                _ => return None,
            },
            None => Vec::new(),
        };
        let mut own_ids = ids.clone();
        own_ids.sort_unstable();
        own_ids.dedup();
        sibling_ids.sort_unstable();
        sibling_ids.dedup();
        if sibling_names != known_names || sibling_ids != own_ids {
            return None;
        }
    }
    let first = (properties
        .iter()
        .chain(&patterns)
        .chain(&additional)
        .chain(&names))
    .copied()
    .min()?;
    Some(FusedApplicators {
        first,
        properties: properties.first().copied(),
        patterns: patterns.first().copied(),
        additional: additional.first().copied(),
        names: names.first().copied(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Compiler;
    use crate::options::Options;
    use serde_json::json;

    /// The fused applicators of the root of `schema`.
    fn fused(schema: serde_json::Value) -> Option<FusedApplicators> {
        let program = Compiler::new(Options::default())
            .compile(&schema)
            .expect("compiles");
        fused_applicators(program.node(program.root))
    }

    #[test]
    fn applicators_fuse_only_where_additional_names_its_siblings() {
        let closed = fused(json!({
            "properties": {"a": true},
            "patternProperties": {"^x": true},
            "additionalProperties": false
        }))
        .expect("fused");
        assert_eq!(closed.properties.map(|_| ()), Some(()));
        assert_eq!(closed.patterns.map(|_| ()), Some(()));
        assert_eq!(closed.additional.map(|_| ()), Some(()));
        let indices = [closed.properties, closed.patterns, closed.additional];
        assert_eq!(Some(closed.first), indices.iter().flatten().copied().min());
        // `properties` alone runs on its own.
        assert_eq!(fused(json!({"properties": {"a": true}})), None);
        // `patternProperties` alone is a pass of its own.
        let patterns = fused(json!({"patternProperties": {"^x": true}})).expect("fused");
        assert_eq!((patterns.properties, patterns.additional), (None, None));
        // `propertyNames` joins a pass, and makes one with `properties`; alone it runs
        // on its own.
        let names = json!({"maxLength": 3});
        let with = fused(json!({"additionalProperties": {}, "propertyNames": names}));
        assert!(with.expect("fused").names.is_some());
        let beside = fused(json!({"properties": {"a": {}}, "propertyNames": names}));
        assert!(beside.expect("fused").names.is_some());
        assert_eq!(fused(json!({"propertyNames": names})), None);
    }
}
