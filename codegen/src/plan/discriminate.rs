//! Discriminators for `anyOf` / `oneOf`: a property whose value tells the branches apart.
//!
//! A tagged union — branches that each restrict one property (`"type"`, `"op"`, `"kind"`)
//! to a `const` or an `enum` of strings, and usually require it — is decided by that one
//! property: a branch whose literals do not include the object's value cannot be valid.
//! Both backends read the property once per `anyOf` / `oneOf` (a [`Tag`]) and evaluate only
//! the branches that [`Admits::admits`] it. Skipped branches are invalid for certain, so
//! verdicts, `oneOf`'s match count, errors and annotations are exactly as if every branch
//! ran; only the work (and the budget it charges) shrinks.
//!
//! What a branch admits is read from what it asserts unconditionally: its own `required`
//! and `properties` checks, and those of the schemas it applies in place without a
//! condition (`$ref`, `allOf`), a few levels deep.

use crate::ir::{CheckKind, Edge, NodeId, Program};
use schemac_runtime::json::Tag;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// How deep [`Facts`] and [`literals`] follow `$ref` / `allOf` (bounds the work on
/// reference chains; what lies deeper is simply not used).
const MAX_DEPTH: u32 = 4;

/// A property that tells the branches of an `anyOf` / `oneOf` apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discriminator {
    /// The property's name.
    pub property: String,
    /// What each branch admits, in branch (edge) order.
    pub branches: Vec<Admits>,
}

/// The [`Tag`]s a branch can be valid with. A value that is not an object is always
/// admitted (the property says nothing about it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admits {
    /// The branch requires the property: an object without it is not admitted.
    pub required: bool,
    /// The strings the property may hold, sorted, or `None` when the branch does not
    /// restrict it to strings.
    pub values: Option<Vec<String>>,
}

impl Admits {
    /// Whether a value with tag `tag` may be valid against the branch.
    pub fn admits(&self, tag: Tag<'_>) -> bool {
        match tag {
            Tag::NotObject => true,
            Tag::Absent => !self.required,
            Tag::Str(s) => self
                .values
                .as_ref()
                .is_none_or(|values| values.iter().any(|v| v == s)),
            Tag::Escaped(s) => self
                .values
                .as_ref()
                .is_none_or(|values| values.iter().any(|v| s.eq_str(v))),
            Tag::Other => self.values.is_none(),
        }
    }

    /// Whether every tag is admitted (the branch needs no test).
    pub fn admits_all(&self) -> bool {
        !self.required && self.values.is_none()
    }
}

/// Every `anyOf` / `oneOf` check that has a discriminator, by (node, check index).
pub(super) fn discriminators(program: &Program) -> BTreeMap<(NodeId, usize), Discriminator> {
    let mut out = BTreeMap::new();
    for (id, node) in program.nodes.iter().enumerate() {
        for (index, check) in node.checks.iter().enumerate() {
            if let CheckKind::AnyOf(edges) | CheckKind::OneOf(edges) = &check.kind {
                if let Some(found) = discriminate(program, edges) {
                    out.insert((NodeId(id), index), found);
                }
            }
        }
    }
    out
}

/// The best discriminating property of `branches`: the one that at least two branches
/// restrict to string literals, restricted by the most branches (then required by the
/// most; then the first name).
fn discriminate(program: &Program, branches: &[Edge]) -> Option<Discriminator> {
    if branches.len() < 2 {
        return None;
    }
    let facts: Vec<Facts> = branches
        .iter()
        .map(|e| Facts::of(program, e.target))
        .collect();
    let names: BTreeSet<&String> = facts.iter().flat_map(|f| f.values.keys()).collect();
    let mut best: Option<((usize, usize), Discriminator)> = None;
    for name in names {
        let admits: Vec<Admits> = facts.iter().map(|f| f.admits(name)).collect();
        let restricted = admits.iter().filter(|a| a.values.is_some()).count();
        let required = admits.iter().filter(|a| a.required).count();
        if restricted < 2 {
            continue;
        }
        let score = (restricted, required);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((
                score,
                Discriminator {
                    property: name.clone(),
                    branches: admits,
                },
            ));
        }
    }
    best.map(|(_, d)| d)
}

/// What a schema asserts about an object's properties, unconditionally.
#[derive(Debug, Default)]
struct Facts {
    /// Names it requires.
    required: BTreeSet<String>,
    /// Names whose value it restricts to a set of strings.
    values: BTreeMap<String, BTreeSet<String>>,
}

impl Facts {
    fn of(program: &Program, id: NodeId) -> Facts {
        let mut facts = Facts::default();
        facts.gather(program, id, 0);
        facts
    }

    fn gather(&mut self, program: &Program, id: NodeId, depth: u32) {
        for check in &program.node(id).checks {
            match &check.kind {
                CheckKind::Required(names) => self.required.extend(names.iter().cloned()),
                CheckKind::Properties(entries) => {
                    for (name, edge) in entries {
                        if let Some(set) = literals(program, edge.target, 0) {
                            self.restrict(name, set);
                        }
                    }
                }
                _ => {
                    if depth < MAX_DEPTH {
                        for edge in unconditional(&check.kind) {
                            self.gather(program, edge.target, depth + 1);
                        }
                    }
                }
            }
        }
    }

    /// Adds "`name` is one of `set`" (every assertion must hold: the sets intersect).
    fn restrict(&mut self, name: &str, set: BTreeSet<String>) {
        match self.values.get_mut(name) {
            Some(known) => known.retain(|v| set.contains(v)),
            None => {
                self.values.insert(name.to_string(), set);
            }
        }
    }

    fn admits(&self, name: &str) -> Admits {
        Admits {
            required: self.required.contains(name),
            values: self
                .values
                .get(name)
                .map(|set| set.iter().cloned().collect()),
        }
    }
}

/// The children a check applies in place, to the same instance, without a condition.
pub(super) fn unconditional(kind: &CheckKind) -> &[Edge] {
    match kind {
        CheckKind::Ref(edge)
        | CheckKind::DynamicRef {
            fallback: edge,
            anchor: None,
        } => std::slice::from_ref(edge),
        CheckKind::AllOf(edges) => edges,
        _ => &[],
    }
}

/// The strings a schema restricts a value to (`const` / `enum` whose members are all
/// strings, intersected over its unconditional checks), if it does.
fn literals(program: &Program, id: NodeId, depth: u32) -> Option<BTreeSet<String>> {
    let mut out: Option<BTreeSet<String>> = None;
    let mut restrict = |set: BTreeSet<String>| {
        out = Some(match out.take() {
            Some(known) => known.intersection(&set).cloned().collect(),
            None => set,
        });
    };
    for check in &program.node(id).checks {
        match &check.kind {
            CheckKind::Const(value) => match strings(std::slice::from_ref(value)) {
                Some(set) => restrict(set),
                None => return None,
            },
            CheckKind::Enum(values) => match strings(values) {
                Some(set) => restrict(set),
                None => return None,
            },
            kind if depth < MAX_DEPTH => {
                for edge in unconditional(kind) {
                    if let Some(set) = literals(program, edge.target, depth + 1) {
                        restrict(set);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The members as strings, if every member is a string.
fn strings(values: &[Value]) -> Option<BTreeSet<String>> {
    values
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;
    use serde_json::json;

    /// The discriminators of the root node's checks.
    fn root_discriminators(schema: Value) -> Vec<Discriminator> {
        let program = crate::check::Compiler::new(crate::options::Options::default())
            .compile(&schema)
            .expect("compiles");
        let plan = Plan::new(program);
        let root = plan.program.root;
        (0..plan.program.node(root).checks.len())
            .filter_map(|i| plan.discriminator(root, i).cloned())
            .collect()
    }

    fn admits(required: bool, values: Option<&[&str]>) -> Admits {
        Admits {
            required,
            values: values.map(|v| v.iter().map(|s| s.to_string()).collect()),
        }
    }

    #[test]
    fn tagged_branches_are_discriminated_through_refs_and_all_of() {
        let found = root_discriminators(json!({
            "oneOf": [
                {"type": "null"},
                {"required": ["type"], "properties": {"type": {"const": "circle"}}},
                {"$ref": "#/$defs/polygon"}
            ],
            "$defs": {
                "polygon": {"required": ["type"], "allOf": [{"$ref": "#/$defs/kind"}]},
                "kind": {"properties": {"type": {"enum": ["triangle", "polygon"]}}}
            }
        }));
        assert_eq!(
            found,
            vec![Discriminator {
                property: "type".into(),
                branches: vec![
                    admits(false, None),
                    admits(true, Some(&["circle"])),
                    admits(true, Some(&["polygon", "triangle"])),
                ],
            }]
        );
        let d = &found[0];
        assert!(d.branches[0].admits_all());
        assert!(d.branches[1].admits(Tag::Str("circle")));
        assert!(!d.branches[1].admits(Tag::Str("polygon")));
        assert!(!d.branches[1].admits(Tag::Absent));
        assert!(!d.branches[1].admits(Tag::Other));
        assert!(d.branches[1].admits(Tag::NotObject));
    }

    #[test]
    fn the_most_restricted_property_wins_and_one_restricted_branch_is_not_enough() {
        let found = root_discriminators(json!({
            "anyOf": [
                {"properties": {"a": {"const": "x"}, "b": {"const": "p"}}, "required": ["a"]},
                {"properties": {"a": {"const": "y"}, "b": {"const": "q"}}},
                {"properties": {"b": {"enum": ["r", 1]}, "a": {"const": "z"}}}
            ]
        }));
        // `a` is restricted by three branches; `b` by two (the enum with a number is not a
        // string restriction).
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].property, "a");
        assert_eq!(found[0].branches[0], admits(true, Some(&["x"])));
        assert_eq!(found[0].branches[1], admits(false, Some(&["y"])));

        let none = root_discriminators(json!({
            "oneOf": [
                {"properties": {"a": {"const": "x"}}, "required": ["a"]},
                {"required": ["a"]}
            ]
        }));
        assert!(none.is_empty(), "{none:?}");
    }
}
