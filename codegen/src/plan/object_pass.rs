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

use crate::ir::{CheckKind, Edge, Node, Program};

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

/// Whether `node`'s `unevaluatedProperties` is decided in its one loop over an object's
/// keys, as `additionalProperties` over the names that evaluate properties: `node` has
/// one, the program keeps no dynamic scope, the node has no `patternProperties` /
/// `additionalProperties` (whose keys are its own names), and its other checks evaluate
/// properties only by name — its own `properties`, and those of the in-place subschemas
/// that join the loop: the `$ref` / `allOf` targets `joins` names (a constant `true` one
/// evaluates nothing) and the `if`s (by check index) `absorbs_if` names. Generated code
/// decides it so with what it absorbs (`emit/node/call.rs`); the plan's check order puts
/// it in the pass where the node's own names are all (no in-place subschema joins,
/// [`unevaluated_in_pass`]), and the interpreter renders that.
pub fn unevaluated_by_name(
    program: &Program,
    node: &Node,
    joins: impl Fn(&Edge) -> bool,
    absorbs_if: impl Fn(usize) -> bool,
) -> bool {
    let member = |e: &Edge| joins(e) || super::constant(program, e.target) == Some(true);
    !program.uses_dynamic_scope
        && (node.checks.iter()).any(|c| matches!(c.kind, CheckKind::UnevaluatedProperties(_)))
        && node
            .checks
            .iter()
            .enumerate()
            .all(|(index, c)| match &c.kind {
                CheckKind::False | CheckKind::Not(_) => true,
                CheckKind::Ref(e) => member(e),
                CheckKind::AllOf(es) => es.iter().all(member),
                CheckKind::IfThenElse { .. } => absorbs_if(index),
                CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::DependentSchemas(_) => false,
                kind => kind.is_dispatchable(),
            })
}

/// [`unevaluated_by_name`] by the node's own names alone: its `unevaluatedProperties`
/// stands in the object pass, after the applicators there.
pub fn unevaluated_in_pass(program: &Program, node: &Node) -> bool {
    unevaluated_by_name(program, node, |_| false, |_| false)
}

/// Whether `node`'s `unevaluatedProperties` closes its object pass: decided by the
/// node's own names ([`unevaluated_in_pass`]), so that short-circuit evaluation runs it
/// as the pass's `additionalProperties` over the `properties` names, with no set of
/// evaluated locations — one `unevaluatedProperties` and at most one `properties` and
/// `propertyNames` (the pass's shape), and nothing reads what the node evaluates: no
/// parent collects its locations, no `unevaluatedItems` beside it.
pub fn closes_pass(program: &Program, node: &Node) -> bool {
    let count = |of: fn(&CheckKind) -> bool| node.checks.iter().filter(|c| of(&c.kind)).count();
    count(|kind| matches!(kind, CheckKind::UnevaluatedProperties(_))) == 1
        && count(|kind| matches!(kind, CheckKind::Properties(_))) <= 1
        && count(|kind| matches!(kind, CheckKind::PropertyNames(_))) <= 1
        && count(|kind| matches!(kind, CheckKind::UnevaluatedItems(_))) == 0
        && !(node.collect.given || node.collect.items)
        && unevaluated_in_pass(program, node)
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

    #[test]
    fn unevaluated_properties_joins_the_pass_where_the_node_s_own_names_decide_it() {
        let plan = |schema: serde_json::Value| {
            let mut schema = schema;
            schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
            let program = Compiler::new(Options::default())
                .compile(&schema)
                .expect("compiles");
            crate::plan::Plan::new(program)
        };
        let own = plan(json!({
            "required": ["a"],
            "properties": {"a": {"type": "string"}},
            "propertyNames": {"maxLength": 3},
            "allOf": [true, {}],
            "unevaluatedProperties": false
        }));
        let root = own.program.node(own.program.root);
        assert!(unevaluated_in_pass(&own.program, root));
        assert!(closes_pass(&own.program, root));
        // Decided by its names, but beside an `unevaluatedItems` that reads the set: it
        // does not close the pass.
        let items = plan(json!({
            "properties": {"a": {}},
            "unevaluatedProperties": false,
            "unevaluatedItems": false
        }));
        let items_root = items.program.node(items.program.root);
        assert!(unevaluated_in_pass(&items.program, items_root));
        assert!(!closes_pass(&items.program, items_root));
        // In the plan's order: with the other applicators of the pass, after them, and
        // before the `required` it finds the names of.
        let order: Vec<&str> = (root.checks.iter())
            .map(|check| check.keyword.rsplit('/').next().unwrap_or_default())
            .filter(|keyword| keyword.contains("ropert") || *keyword == "required")
            .collect();
        assert_eq!(
            order,
            [
                "properties",
                "propertyNames",
                "unevaluatedProperties",
                "required"
            ]
        );
        // Anything else that evaluates properties, or may: not by the node's own names.
        for other in [
            json!({"patternProperties": {"^x": true}}),
            json!({"additionalProperties": true}),
            json!({"allOf": [{"properties": {"b": true}}]}),
            json!({"anyOf": [{"required": ["a"]}]}),
            json!({"if": {"required": ["a"]}, "then": {"properties": {"b": true}}}),
            json!({"dependentSchemas": {"a": {"properties": {"b": true}}}}),
        ] {
            let mut schema = other.clone();
            schema["properties"] = json!({"a": {}});
            schema["unevaluatedProperties"] = json!(false);
            let plan = plan(schema);
            let root = plan.program.node(plan.program.root);
            assert!(!unevaluated_in_pass(&plan.program, root), "{other}");
        }
    }
}
