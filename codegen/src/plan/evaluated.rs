//! Which properties a node's valid evaluation evaluates when that is fixed by name: the
//! decision that lets the interpreter record a collecting node's evaluated properties as
//! one precomputed set of names instead of evaluating it with a set of its own
//! (`NodePlan::evaluates` in `interp/plan/`). Takes the program and the nodes asked
//! about; gives each one's names, or `None` where what it evaluates depends on the
//! instance.

use crate::ir::{CheckKind, NodeId, Program};
use std::collections::BTreeSet;

/// A node's answer: the names it evaluates by (`None`: not by name alone).
type Found<'p> = Option<BTreeSet<&'p str>>;

/// For each node of `program`, the names whose properties a valid evaluation of it
/// evaluates when that is all it evaluates whatever the instance — asked of the nodes
/// `asked` (and found for those they reach; `None` for every other). Such a node collects
/// evaluated properties, not items, and its checks evaluate properties only by their
/// `properties` and by `$ref` and `allOf` targets of the same kind (`not` evaluates
/// nothing; no other in-place applicator, no `patternProperties`,
/// `additionalProperties` or `unevaluated*`). A cycle is no such node.
pub fn by_name(program: &Program, asked: impl IntoIterator<Item = NodeId>) -> Vec<Found<'_>> {
    // `None` while a node is being found.
    let mut memo: Vec<Option<Found<'_>>> = vec![None; program.nodes.len()];
    for id in asked {
        if memo[id.0].is_none() {
            find(program, id, &mut memo);
        }
    }
    memo.into_iter().map(Option::flatten).collect()
}

/// Finds node `id`'s answer (and those of the nodes it reaches) into `memo`. Depth first,
/// one target at a time as a recursive walk would go, but on a stack of its own: a chain
/// of `allOf`s / `$ref`s is as deep as the schema is long, and the recursive walk
/// overflowed a 2 MiB stack at 3,000 links in an unoptimized build.
fn find<'p>(program: &'p Program, id: NodeId, memo: &mut [Option<Found<'p>>]) {
    let mut stack = vec![ByName::enter(program, id, memo)];
    let mut returned = None;
    while let Some(frame) = stack.last_mut() {
        if let Some(theirs) = returned.take() {
            frame.take(theirs);
        }
        match frame.next_target(program, memo) {
            Some(target) => stack.push(ByName::enter(program, target, memo)),
            None => returned = stack.pop().map(|frame| frame.finish(memo)),
        }
    }
}

/// A node under [`find`]: where its checks stand and what they found.
struct ByName<'p> {
    id: NodeId,
    /// The check under way, and the next of its edges (`$ref` / `allOf`).
    check: usize,
    edge: usize,
    names: BTreeSet<&'p str>,
    by_name: bool,
}

impl<'p> ByName<'p> {
    /// Starts on node `id`, marked as under way in `memo` (a cycle back to it finds no
    /// such node).
    fn enter(program: &Program, id: NodeId, memo: &mut [Option<Found<'p>>]) -> ByName<'p> {
        memo[id.0] = Some(None);
        let node = program.node(id);
        ByName {
            id,
            check: 0,
            edge: 0,
            names: BTreeSet::new(),
            by_name: node.collect.properties && !node.collect.items,
        }
    }

    /// Takes in the answer of the target of the edge under way.
    fn take(&mut self, theirs: Found<'p>) {
        match theirs {
            Some(theirs) => self.names.extend(theirs),
            None => self.by_name = false,
        }
        self.edge += 1;
    }

    /// Goes through the checks until a `$ref` / `allOf` target not yet found (returned),
    /// or the end: an edge's target already found (or under way) is taken in at once;
    /// the checks stop at the first after one that is not by name, but a check's edges
    /// are all followed.
    fn next_target(&mut self, program: &'p Program, memo: &[Option<Found<'p>>]) -> Option<NodeId> {
        let node = program.node(self.id);
        while let Some(check) = node.checks.get(self.check) {
            if self.edge == 0 && !self.by_name {
                return None;
            }
            match &check.kind {
                CheckKind::Properties(entries) => {
                    self.names
                        .extend(entries.iter().map(|(name, _)| name.as_str()));
                }
                CheckKind::Ref(_) | CheckKind::AllOf(_) => {
                    if let Some(edge) = check.kind.edges().nth(self.edge) {
                        match &memo[edge.target.0] {
                            Some(found) => self.take(found.clone()),
                            None => return Some(edge.target),
                        }
                        continue;
                    }
                }
                CheckKind::Not(_) => {}
                CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::UnevaluatedProperties(_)
                | CheckKind::UnevaluatedItems(_) => self.by_name = false,
                kind => self.by_name = !kind.is_in_place(),
            }
            self.check += 1;
            self.edge = 0;
        }
        None
    }

    /// The node's answer, kept in `memo`.
    fn finish(self, memo: &mut [Option<Found<'p>>]) -> Found<'p> {
        let found = self.by_name.then_some(self.names);
        memo[self.id.0] = Some(found.clone());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Compiler;
    use crate::options::Options;
    use serde_json::json;

    /// The names the root of `schema` (2020-12, collecting: it has
    /// `unevaluatedProperties` beside an `allOf` of `member`) evaluates by, through
    /// its `allOf` member.
    fn member_names(member: serde_json::Value) -> Option<Vec<String>> {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "allOf": [member],
            "unevaluatedProperties": false
        });
        let program = Compiler::new(Options::default())
            .compile(&schema)
            .expect("compiles");
        let root = program.node(program.root);
        let member = root.checks.iter().find_map(|c| match &c.kind {
            CheckKind::AllOf(edges) => Some(edges[0].target),
            _ => None,
        })?;
        let found = by_name(&program, [member]);
        found[member.0]
            .as_ref()
            .map(|names| names.iter().map(|n| n.to_string()).collect())
    }

    #[test]
    fn a_node_evaluates_by_name_only_through_properties_refs_and_all_of() {
        let names = member_names(json!({
            "properties": {"b": true},
            "allOf": [{"properties": {"a": {"type": "string"}}}, {"not": {"required": ["c"]}}],
            "required": ["b"]
        }));
        assert_eq!(names, Some(vec!["a".to_string(), "b".to_string()]));
        for other in [
            json!({"patternProperties": {"^x": true}}),
            json!({"additionalProperties": true}),
            json!({"anyOf": [{"properties": {"a": true}}]}),
            json!({"allOf": [{"properties": {"a": true}, "if": true, "then": true}]}),
        ] {
            assert_eq!(member_names(other.clone()), None, "{other}");
        }
    }
}
