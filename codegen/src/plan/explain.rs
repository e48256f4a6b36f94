//! Which subschema explains a failed `anyOf` / `oneOf`: the rule both backends follow to
//! report why no subschema matched, so that a caller (often a language model fixing a
//! tool call) reads what to change rather than "matches none of the subschemas".
//!
//! When an `anyOf`, or a `oneOf` that no subschema matched, fails while errors are
//! reported (`validate` / `evaluate`, not inside a subschema whose errors are dropped, the
//! error list not full), its error is followed by the errors of its **closest**
//! subschema, one [`ValidationError::level`] deeper (text output indents them as
//! `because` lines; `detailed` and `verbose` nest them in the applicator's error unit):
//!
//! 1. A subschema its discriminator ([`super::Discriminator`]) rules out is no candidate,
//!    nor one that does not allow the instance's JSON type ([`branch_types`]: its `type`,
//!    `const` and `enum`, and those of what it applies in place unconditionally).
//! 2. When no subschema allows the instance's type, none is explained: the applicator's
//!    error names the types the subschemas allow and the type found
//!    ([`TypeMismatch`]). When the discriminator rules out every subschema that allows
//!    it (an unknown tag), those that allow it are the candidates.
//! 3. One candidate is the closest. Of several, each is evaluated again, reporting: the
//!    closest is the one whose deepest error lies deepest in the instance (the most
//!    tokens in its instance location: it got furthest), then the one with the fewest
//!    errors, then the first — as python-jsonschema's `best_match` prefers deeper errors
//!    and jsonschema-rs reports the branch errors.
//!
//! The candidates that are evaluated again charge the budget as any evaluation does (the
//! explanation is work, and a stranger's instance must not get it for free); nothing of
//! it runs in `check` / `is_valid`, nor when the applicator passes. The run-time half of
//! the rule — the candidates of an instance, the comparison — is the runtime's
//! (`closest_candidates`, `Trail::end_branch`), called alike by both backends.
//!
//! A `oneOf` that more than one subschema matched names them instead ([`Matched`]).
//!
//! [`ValidationError::level`]: schemac_runtime::ValidationError::level
//! [`TypeMismatch`]: schemac_runtime::error::TypeMismatch
//! [`Matched`]: schemac_runtime::error::Matched

use super::discriminate::unconditional;
use crate::ir::{CheckKind, Edge, NodeId, Program};
use schemac_runtime::error::TypeSet;

/// How deep [`branch_types`] follows `$ref` / `allOf` (what lies deeper is not used).
const MAX_DEPTH: u32 = 4;

/// Every JSON type.
const ANY: TypeSet = TypeSet(0x7f);

/// The JSON types a value may have to be valid against each of `branches`, in order:
/// what their `type`, `const` and `enum` allow, intersected over the checks they apply in
/// place unconditionally (a few levels of `$ref` / `allOf`); every type where nothing says.
pub fn branch_types(program: &Program, branches: &[Edge]) -> Vec<TypeSet> {
    branches
        .iter()
        .map(|edge| types(program, edge.target, 0))
        .collect()
}

/// The union of `types` (of [`branch_types`]): the types some branch allows.
pub fn allowed(types: &[TypeSet]) -> TypeSet {
    types.iter().fold(TypeSet(0), |all, t| all.union(*t))
}

/// `types` with `integer` added where `number` is in it (a number type allows integers),
/// so that sets intersect as the types they allow.
fn widened(types: TypeSet) -> TypeSet {
    if types.contains(TypeSet::NUMBER) {
        types.union(TypeSet::INTEGER)
    } else {
        types
    }
}

/// The types of the values in `values`.
fn value_types<'v>(values: impl Iterator<Item = &'v serde_json::Value>) -> TypeSet {
    values.fold(TypeSet(0), |all, v| all.union(widened(TypeSet::of(v))))
}

fn types(program: &Program, id: NodeId, depth: u32) -> TypeSet {
    let mut out = ANY;
    for check in &program.node(id).checks {
        let allowed = match &check.kind {
            CheckKind::False => TypeSet(0),
            CheckKind::Type(types) => widened(*types),
            CheckKind::Const(value) => value_types(std::iter::once(value)),
            CheckKind::Enum(values) => value_types(values.iter()),
            kind if depth < MAX_DEPTH => unconditional(kind).iter().fold(ANY, |all, edge| {
                TypeSet(all.0 & types(program, edge.target, depth + 1).0)
            }),
            _ => ANY,
        };
        out = TypeSet(out.0 & allowed.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;
    use serde_json::json;

    #[test]
    fn branches_allow_their_types_consts_and_enums() {
        let schema = json!({"oneOf": [
            {"type": "string"},
            {"type": "number"},
            {"$ref": "#/$defs/obj"},
            {"enum": ["a", 1]},
            {"allOf": [{"type": ["integer", "null"]}, {"type": "number"}]},
            {"minimum": 1},
            false
        ], "$defs": {"obj": {"type": "object", "required": ["a"]}}});
        let program = crate::check::Compiler::new(crate::options::Options::default())
            .compile(&schema)
            .expect("compiles");
        let plan = Plan::new(program);
        let root = plan.program.node(plan.program.root);
        let edges = root
            .checks
            .iter()
            .find_map(|c| match &c.kind {
                CheckKind::OneOf(edges) => Some(edges),
                _ => None,
            })
            .expect("a oneOf");
        let types = branch_types(&plan.program, edges);
        let number = TypeSet::NUMBER.union(TypeSet::INTEGER);
        assert_eq!(
            types,
            [
                TypeSet::STRING,
                number,
                TypeSet::OBJECT,
                TypeSet::STRING.union(TypeSet::INTEGER),
                TypeSet::INTEGER,
                ANY,
                TypeSet(0),
            ]
        );
        assert_eq!(
            allowed(&types[..3]),
            TypeSet::STRING.union(number).union(TypeSet::OBJECT)
        );
    }
}
