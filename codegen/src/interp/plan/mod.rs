//! Per-node plans, computed once when the interpreter is built: which checks of a node
//! are fused into one pass over an object's properties ([`ObjectPass`]), the lookup
//! indices ([`super::index`]) over the `properties` and `required` names for instance
//! keys, and the steps short-circuit evaluation runs ([`Fast`], [`Op`]). It reads the
//! evaluation's context ([`Ctx`](super::context::Ctx)) only to measure what a pass's patterns charge at a
//! known name ([`NamedPatterns`]), never the evaluation itself.
//!
//! Short-circuit steps are planned once per class of structurally identical nodes (the
//! shared plan's [`crate::plan::NodePlan::canonical`]), whose members decide, charge and
//! apply the same; the other members hold the class's steps, shared, not copies.
//!
//! Its files: this one (the per-node record and the planning that fills it),
//! [`steps`] (the short-circuit steps by kind) and [`object`] (the fused object pass).

mod object;
mod steps;

use super::context::Ctx;
use super::index::{EnumIndex, NameTable, PropertyIndex, Required, Tags};
use crate::ir::kind::Kind;
use crate::ir::{Check, CheckKind, Node, NodeId, Program};
use crate::plan::lookup::{pattern_set, EnumTable, NameList};
use crate::plan::object_pass::{closes_pass, fused_applicators, FusedApplicators};
use crate::plan::{evaluated, Plan};
use crate::regex::PatternSet;
pub(super) use object::{
    object_pass_at, ClosedOp, NamedPatterns, ObjectOp, ObjectPass, PropertiesRef,
};
use schemac_runtime::engine::Bits;
use schemac_runtime::error::TypeSet;
use std::sync::Arc;
use steps::{canonical, node_ops, op_on_kind, splice_node};
pub(super) use steps::{BranchesOp, ByKind, Fast, Lane, LookupsOp, Op, Simple};

/// What the interpreter precomputes about one node.
#[derive(Debug, Default)]
pub(super) struct NodePlan {
    /// Evaluated out of line (the shared plan's decision, [`crate::plan::NodePlan`]): a
    /// budget charge point and one level of depth.
    pub(super) out_of_line: bool,
    /// On a cycle of the schema: entering it is also a level of nesting in place.
    pub(super) recursive: bool,
    /// The nesting levels entering the node counts when it is out of line.
    pub(super) height: u32,
    /// The units entering the node charges when it is out of line.
    pub(super) entry_cost: u64,
    /// What a loop charges per element for applying this node: its region cost when it
    /// is inline, nothing when it is out of line (it charges on entry;
    /// [`crate::plan::Plan::loop_cost`]).
    pub(super) loop_cost: u64,
    /// Applying the node to a child instance is a step into the instance (never when
    /// the depth is not counted, [`NodePlan::counts_depth`]).
    pub(super) steps: bool,
    /// Entering the node out of line counts nesting levels: unless the program is
    /// [`Plan::depth_free`] under the interpreter's limits ([`count_depth`]), where it
    /// only charges the budget.
    pub(super) counts_depth: bool,
    /// An inline node without checks: valid whatever the instance, with nothing to charge
    /// (its region paid for it) or record, so it is not evaluated at all.
    pub(super) always_valid: bool,
    /// A `properties` entry applying this node runs after the object's other properties
    /// ([`crate::plan::Plan::is_deferred`]).
    pub(super) deferred: bool,
    /// The node may need an evaluated-location set: it collects, or has `unevaluated*`.
    pub(super) collects: bool,
    /// Short-circuit evaluation runs the node's checks on their own fast loop: the node
    /// collects nothing and the program has no dynamic scope to maintain.
    pub(super) quick: bool,
    /// An inline node whose only check is `type`: short-circuit evaluation tests the
    /// type without running the checks.
    pub(super) only_type: Option<TypeSet>,
    /// The node has an `unevaluatedProperties` / `unevaluatedItems` check of its own, so
    /// it needs evaluated-location sets even when no parent asks for them.
    pub(super) has_unevaluated: bool,
    /// The node's `unevaluatedProperties` closes its object pass
    /// ([`crate::plan::object_pass::closes_pass`]): short-circuit evaluation runs it as
    /// `additionalProperties` over the `properties` names ([`Op::Closed`]), the node
    /// [`NodePlan::quick`] (it needs no set of its own there), as generated code does.
    pub(super) closing: bool,
    /// The node's `unevaluatedProperties` is decided in its pass over the object in
    /// generated code, with what the node absorbs ([`crate::plan::Plan::absorption`]),
    /// where the interpreter does not ([`NodePlan::closing`]): short-circuit evaluation
    /// charges what it charges (its locations, its schema per key) when it enters the
    /// node on an object, as generated code charges it before its pass, not where the
    /// check stands.
    pub(super) unevaluated_first: bool,
    /// The node records evaluated properties (its `collect` flag, or a check of its own).
    pub(super) collect_properties: bool,
    /// The node records evaluated items.
    pub(super) collect_items: bool,
    /// A node that collects evaluated properties (no items) and whose valid evaluation
    /// evaluates exactly the instance's properties among these names (by
    /// [`NameTable`] id), whatever the instance ([`evaluated::by_name`]): short-circuit
    /// evaluation runs it as a [`NodePlan::quick`] node and records the names.
    pub(super) evaluates: Option<Box<Bits>>,
    /// In a node that collects evaluated properties, the names (by id) of its
    /// `properties` check with the [`NodePlan::property_index`] when that check runs
    /// alone: short-circuit evaluation runs it as it runs `properties` alone and records
    /// these names.
    pub(super) property_names: Option<Box<Bits>>,
    /// A [`NodePlan::evaluates`] node whose only step on any instance is a `properties`
    /// on an object, over schemas that charge nothing: its entries (name and schema),
    /// which short-circuit evaluation looks up in the object, whatever its size (the
    /// order of schemas that charge nothing is no matter).
    pub(super) lookups: Option<Box<[(String, NodeId)]>>,
    /// For a node with `unevaluatedProperties`: the ids of the names recorded by name
    /// (the program's one table, shared: a copy per node would grow as the square of
    /// the schema).
    pub(super) name_table: Option<Arc<NameTable>>,
    /// The node's checks as short-circuit evaluation runs them when it enters the node
    /// ([`Flat`]), when they take in those of a node it applies in place.
    pub(super) flat: Option<Box<[Flat]>>,
    /// The `required` checks of a node that is not [`NodePlan::quick`], by check index,
    /// for short-circuit evaluation.
    pub(super) required: Vec<(usize, Required)>,
    /// `properties`, `patternProperties` and `additionalProperties` fused into one pass.
    pub(super) object: Option<Box<FusedApplicators>>,
    /// The check index of the node's `properties` check and a lookup index over its names.
    pub(super) property_index: Option<Box<(usize, PropertyIndex)>>,
    /// Prefilters for the `patternProperties` / `additionalProperties` checks with at
    /// least [`PatternSet::MIN_PATTERNS`] patterns, by check index.
    pub(super) pattern_sets: Vec<(usize, PatternSet)>,
    /// The discriminators of the node's `anyOf` / `oneOf` checks, by check index.
    pub(super) discriminators: Vec<(usize, Tags)>,
    /// Member tables of the `enum` checks with enough members, by check index.
    pub(super) enum_tables: Vec<(usize, EnumIndex)>,
    /// The [`NameList`]s of the `required` checks (entry 0) and `dependentRequired`
    /// entries (by position) with enough names, by (check index, entry).
    pub(super) name_lists: Vec<((usize, usize), NameList)>,
    /// How short-circuit evaluation without annotations evaluates the node (its class's).
    pub(super) fast: Fast,
    /// The [`Op`]s short-circuit evaluation runs once it has entered an out-of-line
    /// [`NodePlan::quick`] node (`None` when there are none, as for every other node: an
    /// inline one's are in [`NodePlan::fast`]).
    pub(super) ops: Option<Arc<ByKind<Op>>>,
}

/// One step of a node's checks as short-circuit evaluation runs them once it has
/// entered a node that is not [`NodePlan::quick`] ([`NodePlan::flat`]): the node's
/// checks in order, where an inline `$ref` or `allOf` target that is entered too (it
/// collects evaluated locations and keeps no set of its own) has its own steps in place
/// of its application, so that they run on the node's set without entering it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Flat {
    /// Check `index` of node `id`.
    Check(NodeId, usize),
    /// Applies a node in place.
    Apply(NodeId),
}

impl NodePlan {
    /// Whether short-circuit evaluation of this node in `cx` charges what its
    /// `unevaluatedProperties` charges on entry ([`NodePlan::unevaluated_first`]): not
    /// where it locates errors, which evaluates the check where it stands.
    pub(super) fn unevaluated_on_entry(&self, cx: &Ctx) -> bool {
        self.unevaluated_first && !cx.locates()
    }

    /// Whether check `index` runs in the node's fused object pass ([`NodePlan::object`]).
    pub(super) fn fuses(&self, index: usize) -> bool {
        self.object.as_ref().is_some_and(|fused| {
            let FusedApplicators {
                properties,
                patterns,
                additional,
                names,
                ..
            } = **fused;
            [properties, patterns, additional, names].contains(&Some(index))
        })
    }

    /// The prefilter of check `index`, if it has one.
    pub(super) fn pattern_set(&self, index: usize) -> Option<&PatternSet> {
        self.pattern_sets
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, set)| set)
    }

    /// The lookup index over the names of check `index` (a `properties`), if it has one.
    pub(super) fn properties_index(&self, index: usize) -> Option<&PropertyIndex> {
        self.property_index
            .as_deref()
            .filter(|(at, _)| *at == index)
            .map(|(_, names)| names)
    }

    /// The discriminator of check `index`, if it has one.
    pub(super) fn discriminator(&self, index: usize) -> Option<&Tags> {
        at_check(&self.discriminators, index)
    }

    /// The planned `required` check `index` ([`NodePlan::required`]), if it is one.
    pub(super) fn required(&self, index: usize) -> Option<&Required> {
        at_check(&self.required, index)
    }

    /// The member tables of check `index`, if it has them.
    pub(super) fn enum_table(&self, index: usize) -> Option<&EnumIndex> {
        at_check(&self.enum_tables, index)
    }

    /// The [`NameList`] of entry `entry` of check `index` (see [`NodePlan::name_lists`]).
    pub(super) fn name_list(&self, index: usize, entry: usize) -> Option<&NameList> {
        self.name_lists
            .iter()
            .find(|(at, _)| *at == (index, entry))
            .map(|(_, list)| list)
    }
}

/// The entry of check `index` in a node's list of per-check plans, if it has one.
fn at_check<T>(list: &[(usize, T)], index: usize) -> Option<&T> {
    list.iter()
        .find(|(i, _)| *i == index)
        .map(|(_, entry)| entry)
}

/// Which numeric bound a check is.
#[derive(Debug, Clone, Copy)]
pub(super) enum Bound {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
}

/// Plans every node of `shared`'s program, copying the shared plan's per-node decisions
/// (read once per node evaluation) beside the interpreter's own.
pub(super) fn plan(shared: &Plan) -> Vec<NodePlan> {
    let program = &shared.program;
    let mut plans: Vec<NodePlan> = program
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            crate::work::add(1 + node.checks.len());
            let decided = shared.node(NodeId(i));
            let mut out = plan_node(shared, NodeId(i), node);
            out.out_of_line = decided.out_of_line;
            out.recursive = decided.recursive;
            out.height = decided.height;
            out.entry_cost = decided.entry_cost;
            out.loop_cost = shared.loop_cost(&[NodeId(i)]);
            out.steps = decided.steps && !shared.depth_free;
            out.counts_depth = !shared.depth_free;
            out.always_valid = node.checks.is_empty() && !decided.out_of_line;
            out.deferred = shared.is_deferred(NodeId(i));
            out.collects = out.collect_properties || out.collect_items || out.has_unevaluated;
            out.quick = (!out.collects || out.closing) && !program.uses_dynamic_scope;
            if let [check] = node.checks.as_slice() {
                if let (CheckKind::Type(types), false) = (&check.kind, decided.out_of_line) {
                    out.only_type = Some(*types);
                }
            }
            out
        })
        .collect();
    if !program.uses_dynamic_scope {
        plan_names(program, &mut plans);
    }
    for (node, plan) in program.nodes.iter().zip(plans.iter_mut()) {
        if plan.quick {
            continue;
        }
        for (i, check) in node.checks.iter().enumerate() {
            if let CheckKind::Required(names) = &check.kind {
                plan.required.push((i, Required::new(names)));
            }
        }
    }
    // Short-circuit steps are planned once per class of structurally identical nodes
    // (what they decide, charge and apply is the class's), and copied to its other
    // members: a placeholder stands for those until then.
    let mut fast: Vec<(Fast, ByKind<Op>)> = (program.nodes.iter().zip(&plans))
        .enumerate()
        .map(|(i, (node, plan))| {
            if plan.always_valid {
                return (Fast::Valid, ByKind::default());
            }
            if let Some(types) = plan.only_type {
                return (Fast::Type(types), ByKind::default());
            }
            if !plan.quick || canonical(shared, i) != i {
                return (Fast::Enter, ByKind::default());
            }
            let ops = node_ops(shared, &plans, NodeId(i));
            let lanes = ByKind::split(ops, |op, kind| op_on_kind(node, op, kind));
            if plan.out_of_line {
                return (Fast::Enter, lanes);
            }
            (Fast::Ops(Arc::new(lanes)), ByKind::default())
        })
        .collect();
    if !program.uses_dynamic_scope {
        let flat: Vec<_> = (0..plans.len())
            .map(|id| (!plans[id].quick).then(|| flatten(program, &plans, NodeId(id))))
            .collect();
        for (plan, flat) in plans.iter_mut().zip(flat) {
            plan.flat = flat.flatten().map(Vec::into_boxed_slice);
        }
    }
    let mut spliced = vec![false; fast.len()];
    for id in (0..fast.len()).filter(|&id| canonical(shared, id) == id) {
        splice_node(shared, &mut fast, &mut spliced, id);
    }
    for (id, (fast, ops)) in fast.into_iter().enumerate() {
        let class = canonical(shared, id);
        let (fast, ops) = if class == id {
            let fast = match fast {
                Fast::Ops(lanes) => Fast::Ops(Arc::new(
                    Arc::unwrap_or_clone(lanes).with_required_folded(&program.nodes),
                )),
                fast => fast,
            };
            let ops = ops.with_required_folded(&program.nodes);
            // (Most nodes have none: eight bytes then, not six lanes.)
            (fast.simplified(), (!ops.is_idle()).then(|| Arc::new(ops)))
        } else {
            // (The class's first member, planned above: ids below this one.)
            (plans[class].fast.clone(), plans[class].ops.clone())
        };
        plans[id].fast = fast;
        plans[id].ops = ops;
    }
    let lookups: Vec<_> = (plans.iter())
        .map(|plan| plan.evaluates.as_ref().and_then(|_| lookups(plan, &plans)))
        .collect();
    for (plan, lookups) in plans.iter_mut().zip(lookups) {
        plan.lookups = lookups;
    }
    plans
}

/// The [`NodePlan::lookups`] of a node planned `plan`, given every node's plan: when
/// its only step on any instance is a `properties` on an object, over schemas that
/// charge nothing (decided at once, or [`Fast::Simple`] without an `items`).
fn lookups(plan: &NodePlan, plans: &[NodePlan]) -> Option<Box<[(String, NodeId)]>> {
    let Fast::Ops(lanes) = &plan.fast else {
        return None;
    };
    let others_pass = (Kind::ALL.iter())
        .filter(|&&kind| kind != Kind::Object)
        .all(|&kind| lanes.lane(kind).steps.is_empty() && !lanes.lane(kind).fails);
    let object = lanes.lane(Kind::Object);
    let entries = match &object.steps[..] {
        [Op::Properties(properties)] => &properties.entries[..],
        [Op::Property(entry)] => std::slice::from_ref(&**entry),
        _ => return None,
    };
    let free = |target: NodeId| match &plans[target.0].fast {
        Fast::Valid | Fast::Type(_) => true,
        Fast::Simple(lanes) => !(lanes.lane(Kind::Array).steps.iter())
            .any(|step| matches!(step, Simple::ItemsAtOnce { .. })),
        _ => false,
    };
    (others_pass && !object.fails && entries.iter().all(|(_, edge)| free(edge.target))).then(|| {
        (entries.iter())
            .map(|(name, edge)| (name.clone(), edge.target))
            .collect()
    })
}

/// Whether short-circuit evaluation enters node `target`, applied in place by another
/// node, only to run its checks on the set it is given: an inline node that collects
/// evaluated locations, keeps no set of its own and is not quick.
fn entered_in_place(plans: &[NodePlan], target: NodeId) -> bool {
    let plan = &plans[target.0];
    !plan.out_of_line
        && !plan.recursive
        && !plan.quick
        && !plan.always_valid
        && plan.only_type.is_none()
        && !plan.has_unevaluated
        && (plan.collect_properties || plan.collect_items)
}

/// The [`NodePlan::flat`] steps of node `id` (in a program without a dynamic scope),
/// when some `$ref` or `allOf` target's steps stand in place of its application.
fn flatten(program: &Program, plans: &[NodePlan], id: NodeId) -> Option<Vec<Flat>> {
    let node = &program.nodes[id.0];
    let mut steps = Vec::new();
    let mut taken = false;
    for (index, check) in node.checks.iter().enumerate() {
        let Some(edges) = check.kind.conjuncts() else {
            steps.push(Flat::Check(id, index));
            continue;
        };
        for edge in edges {
            if edge.target == id || !entered_in_place(plans, edge.target) {
                steps.push(Flat::Apply(edge.target));
                continue;
            }
            taken = true;
            match flatten(program, plans, edge.target) {
                Some(theirs) => steps.extend(theirs),
                None => steps.extend(
                    (0..program.nodes[edge.target.0].checks.len())
                        .map(|i| Flat::Check(edge.target, i)),
                ),
            }
        }
    }
    taken.then_some(steps)
}

/// Plans what nodes that collect evaluated properties record by name
/// ([`NodePlan::evaluates`], [`NodePlan::property_names`], [`NodePlan::name_table`]),
/// in a program without a dynamic scope.
fn plan_names(program: &Program, plans: &mut [NodePlan]) {
    let mut names: Vec<&str> = (program.nodes.iter().zip(plans.iter()))
        .filter(|(_, plan)| plan.collect_properties)
        .flat_map(|(node, _)| node.checks.iter())
        .flat_map(|check| match &check.kind {
            CheckKind::Properties(entries) => entries.as_slice(),
            _ => &[],
        })
        .map(|(name, _)| name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let table = Arc::new(NameTable::new(
        names.into_iter().map(String::from).collect(),
    ));
    let asked = (plans.iter().enumerate())
        .filter(|(_, plan)| plan.collect_properties && !plan.has_unevaluated && !plan.collect_items)
        .map(|(id, _)| NodeId(id));
    let by_name = evaluated::by_name(program, asked);
    for ((node, plan), evaluates) in program.nodes.iter().zip(plans.iter_mut()).zip(by_name) {
        if !plan.collect_properties {
            continue;
        }
        if let Some(&(at, _)) = plan.property_index.as_deref() {
            if let Some(CheckKind::Properties(entries)) = node.checks.get(at).map(|c| &c.kind) {
                let names = entries.iter().map(|(name, _)| name.as_str());
                plan.property_names = Some(Box::new(table.set(names)));
            }
        }
        if plan.has_unevaluated {
            plan.name_table = Some(Arc::clone(&table));
        } else if !plan.collect_items {
            plan.evaluates = evaluates.map(|names| Box::new(table.set(names.into_iter())));
            plan.quick = plan.evaluates.is_some();
        }
    }
}

/// Sets whether `plans` (of `shared`'s program) count depth: not when `free`, which the
/// caller may say only when the program is [`Plan::depth_free`] under its limits.
pub(super) fn count_depth(plans: &mut [NodePlan], shared: &Plan, free: bool) {
    for (i, plan) in plans.iter_mut().enumerate() {
        plan.steps = shared.node(NodeId(i)).steps && !free;
        plan.counts_depth = !free;
    }
}

fn plan_node(shared: &Plan, id: NodeId, node: &Node) -> NodePlan {
    let program = &shared.program;
    let mut out = NodePlan {
        collect_properties: node.collect.properties,
        collect_items: node.collect.items,
        discriminators: (node.checks.iter().enumerate())
            .filter(|(_, check)| matches!(check.kind, CheckKind::AnyOf(_) | CheckKind::OneOf(_)))
            .filter_map(|(i, _)| {
                shared
                    .discriminator(id, i)
                    .map(|d| (i, Tags::new(d.clone())))
            })
            .collect(),
        ..NodePlan::default()
    };
    for (i, check) in node.checks.iter().enumerate() {
        let set = match &check.kind {
            CheckKind::PatternProperties(entries) => {
                pattern_set(program, entries.iter().map(|(id, _)| *id))
            }
            CheckKind::AdditionalProperties { patterns, .. } => {
                pattern_set(program, patterns.iter().copied())
            }
            _ => None,
        };
        if let Some(set) = set {
            out.pattern_sets.push((i, set));
        }
        let members = match &check.kind {
            CheckKind::Enum(values) => &values[..],
            CheckKind::Const(value) => std::slice::from_ref(value),
            _ => &[],
        };
        if let Some(table) = EnumTable::new(members) {
            out.enum_tables.push((i, EnumIndex::new(table)));
        }
        let lists: Vec<&[String]> = match &check.kind {
            CheckKind::Required(names) => vec![names],
            CheckKind::DependentRequired(deps) => deps.iter().map(|(_, n)| &n[..]).collect(),
            _ => Vec::new(),
        };
        for (entry, names) in lists.into_iter().enumerate() {
            if let Some(list) = NameList::new(names) {
                out.name_lists.push(((i, entry), list));
            }
        }
    }
    let mut properties = None;
    for (i, check) in node.checks.iter().enumerate() {
        match &check.kind {
            CheckKind::UnevaluatedProperties(_) => {
                out.has_unevaluated = true;
                out.collect_properties = true;
            }
            CheckKind::UnevaluatedItems(_) => {
                out.has_unevaluated = true;
                out.collect_items = true;
            }
            CheckKind::Properties(entries) if properties.is_none() => {
                let names = entries.iter().map(|(name, _)| name.as_str());
                properties = Some((i, PropertyIndex::new(names)));
            }
            _ => {}
        }
    }
    out.property_index = properties.map(Box::new);
    out.object = fused_applicators(node).map(Box::new);
    out.closing = closes_pass(program, node);
    // (An absorbed `unevaluatedProperties` is one the node has: asked only then.)
    let unevaluated = |c: &Check| matches!(c.kind, CheckKind::UnevaluatedProperties(_));
    out.unevaluated_first =
        !out.closing && node.checks.iter().any(unevaluated) && shared.absorption(id).unevaluated;
    out
}
