//! Absorption: what a node's short-circuit evaluation takes into its own checks from the
//! in-place subschemas it applies, so that one pass over an object does the work of
//! several — `allOf` members and `$ref` targets with `properties` / `required`, the
//! branches of `if`s under their conditions, and an `unevaluatedProperties` then decided
//! on each key in the pass. Takes a node of the plan; gives its [`Absorption`]. Generated
//! code renders it (`emit/node/`: the absorbed checks join the node's first run); the
//! interpreter charges what the absorbed `unevaluatedProperties` charges where generated
//! code does (`NodePlan::unevaluated_first` in `interp/plan/`), and renders the
//! absorption of nothing but the node's own names itself
//! ([`super::object_pass::unevaluated_in_pass`]).

use super::object_pass::unevaluated_by_name;
use super::Plan;
use crate::ir::{Check, CheckKind, Edge, Node, NodeId};

/// Whether a check of an absorbed child ([`Plan::absorption`]) may join a run of the
/// node's own: it depends on the instance's type, and it neither depends on the other
/// names of its node (`patternProperties`, `additionalProperties`), nor is one of the
/// keywords the object pass has one of (`propertyNames`), nor reads evaluated locations.
pub fn joins_a_run(kind: &CheckKind) -> bool {
    kind.is_dispatchable()
        && !matches!(
            kind,
            CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::PropertyNames(_)
                | CheckKind::UnevaluatedProperties(_)
                | CheckKind::UnevaluatedItems(_)
        )
}

/// Whether checks evaluate an object's properties by name (`properties`, `required`): what
/// makes a child worth absorbing.
fn object_checks(checks: &[Check]) -> bool {
    checks
        .iter()
        .any(|c| matches!(c.kind, CheckKind::Properties(_) | CheckKind::Required(_)))
}

/// When an absorbed check applies: always, or under the verdict of an `if` whose branches
/// the node absorbed, evaluated before the node's checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum When {
    /// Always.
    Always,
    /// Where absorbed condition `n` holds: a `then`'s check.
    Holds(usize),
    /// Where it does not: an `else`'s check.
    Fails(usize),
}

/// What a node's short-circuit evaluation evaluates of its in-place children with its
/// own checks ([`Plan::absorption`]).
#[derive(Debug, Default)]
pub struct Absorption {
    /// The `allOf` members and `$ref` targets whose application it replaces.
    pub members: Vec<NodeId>,
    /// Its own `if` checks (by index) whose branches it absorbs.
    pub ifs: Vec<usize>,
    /// The conditions of the absorbed `if`s, evaluated first, in order.
    pub conditions: Vec<Edge>,
    /// The absorbed checks, with when they apply: they join the node's first run.
    pub checks: Vec<(Check, When)>,
    /// The node's `unevaluatedProperties` joins its pass over the object too: every
    /// property it could see evaluated is evaluated by name there.
    pub unevaluated: bool,
}

impl Plan {
    /// In short-circuit evaluation, what node `id` evaluates of its in-place children
    /// with its own checks, so that one pass over an object does the work of several:
    ///
    /// - `allOf` members and `$ref` targets that have `properties` or `required` and whose
    ///   other checks are of those that join a run (see [`joins_a_run`]). An inline one
    ///   costs nothing to absorb; an out-of-line one (not recursive, in a program that
    ///   counts no depth) is copied, so it is absorbed only where its pass merges with
    ///   another, and its entry cost is charged where its application was.
    /// - `if` / `then` / `else`, the node's own or those of an inline member, whose
    ///   branches are inline, have `properties` or `required`, and have only checks that
    ///   join a run: the condition is evaluated first, the branches' checks join the
    ///   node's under its verdict.
    ///
    /// Not where the node has `patternProperties` / `additionalProperties` of its own
    /// (whose keys are the node's own names) or the program has a dynamic scope; no `if`
    /// where the plan says so ([`Plan::absorbs_ifs`]). The verdict is the same, found in
    /// another order.
    pub fn absorption(&self, id: NodeId) -> Absorption {
        let node = self.program.node(id);
        let mut out = Absorption::default();
        if self.program.uses_dynamic_scope
            || node.checks.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::PatternProperties(_) | CheckKind::AdditionalProperties { .. }
                )
            })
        {
            return out;
        }
        for (index, check) in node.checks.iter().enumerate() {
            if self.absorb_if(id, check, &mut out) {
                out.ifs.push(index);
            }
        }
        let members: Vec<NodeId> = node
            .checks
            .iter()
            .flat_map(|c| c.kind.conjuncts().unwrap_or_default())
            .map(|e| e.target)
            .filter(|&t| {
                let plan = self.node(t);
                t != id
                    && plan.constant.is_none()
                    && !plan.recursive
                    && (!plan.out_of_line || self.depth_free)
            })
            .collect();
        let joining = |t: NodeId| {
            let checks = &self.program.node(t).checks;
            object_checks(checks) && checks.iter().all(|c| joins_a_run(&c.kind))
        };
        let conditional = |t: NodeId| {
            let checks = &self.program.node(t).checks;
            !self.node(t).out_of_line
                && checks.iter().any(|c| self.absorbable_if(id, c))
                && checks
                    .iter()
                    .all(|c| joins_a_run(&c.kind) || self.absorbable_if(id, c))
        };
        // An out-of-line member is copied only where its pass merges with another.
        let passes = usize::from(object_checks(&node.checks))
            + out.ifs.len()
            + members
                .iter()
                .filter(|&&t| joining(t) || conditional(t))
                .count();
        for t in members {
            if joining(t) && (!self.node(t).out_of_line || passes > 1) {
                let checks = &self.program.node(t).checks;
                out.checks
                    .extend(checks.iter().map(|c| (c.clone(), When::Always)));
                out.members.push(t);
            } else if conditional(t) {
                for check in &self.program.node(t).checks {
                    if !self.absorb_if(id, check, &mut out) {
                        out.checks.push((check.clone(), When::Always));
                    }
                }
                out.members.push(t);
            }
        }
        out.unevaluated = self.unevaluated_joins(node, &out);
        out
    }

    /// Whether `node`'s `unevaluatedProperties` can be decided in its pass over the object,
    /// given what it absorbs: it evaluates properties only by name — by its own
    /// `properties`, its absorbed children's and its absorbed conditions' — so that the
    /// names and the conditions' verdicts tell which keys are evaluated
    /// ([`unevaluated_by_name`]).
    fn unevaluated_joins(&self, node: &Node, out: &Absorption) -> bool {
        let by_name = |kind: &CheckKind| !matches!(kind, CheckKind::DependentSchemas(_));
        let absorbed = |e: &Edge| out.members.contains(&e.target);
        unevaluated_by_name(&self.program, node, absorbed, |i| out.ifs.contains(&i))
            && out.checks.iter().all(|(c, _)| by_name(&c.kind))
            && out.conditions.iter().all(|e| {
                let checks = &self.program.node(e.target).checks;
                checks
                    .iter()
                    .all(|c| joins_a_run(&c.kind) && by_name(&c.kind))
            })
    }

    /// Whether `check` is an `if` whose branches node `id` can absorb (see
    /// [`Plan::absorption`]).
    fn absorbable_if(&self, id: NodeId, check: &Check) -> bool {
        if !self.absorbs_ifs {
            return false;
        }
        let CheckKind::IfThenElse {
            then, otherwise, ..
        } = &check.kind
        else {
            return false;
        };
        let branch = |edge: &Option<Edge>| match edge {
            None => Some(false),
            Some(e) => {
                let plan = self.node(e.target);
                let checks = &self.program.node(e.target).checks;
                match plan.constant {
                    Some(true) => Some(false),
                    Some(false) => None,
                    None => (e.target != id
                        && !plan.recursive
                        && !plan.out_of_line
                        && checks.iter().all(|c| joins_a_run(&c.kind)))
                    .then(|| object_checks(checks)),
                }
            }
        };
        match (branch(then), branch(otherwise)) {
            (Some(t), Some(e)) => t || e,
            _ => false,
        }
    }

    /// Absorbs `check` into `out` when it is an `if` that node `id` can absorb: its
    /// condition evaluated first, its branches' checks under its verdict.
    fn absorb_if(&self, id: NodeId, check: &Check, out: &mut Absorption) -> bool {
        if !self.absorbable_if(id, check) {
            return false;
        }
        let CheckKind::IfThenElse {
            condition,
            then,
            otherwise,
        } = &check.kind
        else {
            return false;
        };
        let n = out.conditions.len();
        out.conditions.push(condition.clone());
        for (edge, when) in [(then, When::Holds(n)), (otherwise, When::Fails(n))] {
            if let Some(e) = edge
                .as_ref()
                .filter(|e| self.node(e.target).constant.is_none())
            {
                let checks = &self.program.node(e.target).checks;
                out.checks.extend(checks.iter().map(|c| (c.clone(), when)));
            }
        }
        true
    }
}
