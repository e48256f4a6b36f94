//! The steps short-circuit evaluation runs for a node, as planned: [`Fast`] (how a node
//! is evaluated at all), its [`Op`]s and [`Simple`] checks split into one [`Lane`] per
//! instance kind ([`ByKind`]), the lanes of inline nodes applied in place spliced in (up
//! to [`MAX_SPLICED`] steps), `anyOf` / `oneOf` branches narrowed to a kind, a
//! `required` folded into the pass after it, consecutive one-property steps merged.

use super::object::{object_pass_at, ClosedOp, FoldedRequired, ObjectOp, ObjectPass, PropertiesOp};
use super::{Bound, NodePlan};
use crate::interp::index::{PropertyIndex, Required, Tags};
use crate::ir::kind::{Kind, TypeTest};
use crate::ir::{CheckKind, Edge, Node, NodeId, Program};
use crate::plan::lookup::EnumTable;
use crate::plan::thresholds::MAX_SPLICED;
use crate::plan::{Discriminator, Limit, Plan};
use schemac_runtime::error::TypeSet;
use serde_json::Value;
use std::sync::Arc;

/// How short-circuit evaluation without annotations evaluates a node
/// ([`NodePlan::fast`]), decided once so that a node evaluation reads one tag.
#[derive(Debug, Default, Clone)]
pub(in crate::interp) enum Fast {
    /// Not at all: [`NodePlan::always_valid`].
    Valid,
    /// A type test: [`NodePlan::only_type`].
    Type(TypeSet),
    /// A quick inline node whose checks are all [`Simple`]: these, in order, in a loop
    /// of their own.
    Simple(Arc<ByKind<Simple>>),
    /// Any other quick inline node: its [`Op`]s.
    Ops(Arc<ByKind<Op>>),
    /// Entered as in every other mode.
    #[default]
    Enter,
}

/// One step of a [`NodePlan::quick`] node's checks as short-circuit evaluation runs
/// them, decided once: the checks in order, an `allOf` as one application per member, an
/// application of an always valid node left out, and the fused object applicators as one
/// step where the first of them stands.
#[derive(Debug, Clone)]
pub(in crate::interp) enum Op {
    /// A check that evaluates no node.
    Simple(Simple),
    /// Applies a node in place (`$ref`, an `allOf` member).
    Apply(NodeId),
    /// `items` from index `skip` over `target`, for a schema [`Simple::ItemsAtOnce`] does
    /// not decide.
    Items { target: NodeId, skip: usize },
    /// `prefixItems`, by position.
    PrefixItems(Box<[NodeId]>),
    /// `properties` alone (no `required` folded in).
    Properties(Box<PropertiesOp>),
    /// `properties` alone of one entry (name and edge): a lookup, whose order is the
    /// pass's (the one key it applies to).
    Property(Box<(String, Edge)>),
    /// Consecutive [`Op::Property`] steps of distinct names (`allOf` members of one
    /// property each, spliced), with the index of their names: each entry's schema
    /// applied to the value at its name, in entry order, the names found in one pass over
    /// a small object's keys.
    Lookups(Box<LookupsOp>),
    /// `properties` alone, or fused with an `additionalProperties` that names exactly
    /// its names (no `patternProperties`): a key is a name's or `additional`'s.
    Closed(Box<ClosedOp>),
    /// `properties`, `patternProperties` and `additionalProperties` fused, or one of them
    /// alone, in any other shape: one pass over the object's properties.
    Object(Box<ObjectOp>),
    /// `anyOf`: valid when an admitted branch is, tried in order.
    AnyOf(Box<BranchesOp>),
    /// `oneOf`: valid when exactly one admitted branch is (a second valid one decides).
    OneOf(Box<BranchesOp>),
    /// `not`: valid when the node is not.
    Not(NodeId),
    /// `if`: `then` applied where `condition` is valid, `otherwise` where it is not.
    If {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
    /// Check `index` of `node`, through the checks' general evaluation.
    Check { node: NodeId, index: usize },
}

/// The branches of an `anyOf` / `oneOf` as [`Op::AnyOf`] / [`Op::OneOf`] run them: on
/// an instance of a lane's kind, without the branches certainly invalid on it
/// ([`narrow`]).
#[derive(Debug, Clone)]
pub(in crate::interp) struct BranchesOp {
    /// The branches' targets, in order.
    pub(in crate::interp) targets: Box<[NodeId]>,
    /// The discriminator over `targets` (only in the object lane: it admits every
    /// other kind).
    pub(in crate::interp) discriminator: Option<Tags>,
}

/// Consecutive single-property steps as [`Op::Lookups`] runs them.
#[derive(Debug, Clone)]
pub(in crate::interp) struct LookupsOp {
    /// The entries (name and edge), in the order their schemas apply; the names are
    /// distinct.
    pub(in crate::interp) entries: Box<[(String, Edge)]>,
    /// The lookup index over the entries' names.
    pub(in crate::interp) index: PropertyIndex,
}

/// A check that evaluates no node, as short-circuit evaluation runs it, with what it
/// needs copied from the check and its target's plan ([`Fast::Simple`]).
#[derive(Debug, Clone)]
pub(in crate::interp) enum Simple {
    /// `type`.
    Type(TypeSet),
    /// `minItems`.
    MinItems(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `required`.
    Required(Box<Required>),
    /// `minLength`.
    MinLength(u64),
    /// `maxLength`.
    MaxLength(u64),
    /// `const`.
    Const(Box<Value>),
    /// `enum` with too few members for [`EnumTable`]s: compared member by member.
    Enum(Box<[Value]>),
    /// Such an `enum` in the string lane: its string members, compared with the instance
    /// string.
    Strings(Box<[Box<str>]>),
    /// `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum`.
    Bound(Limit, Bound),
    /// `prefixItems` over schemas each decided at once: always valid (`None`) or only
    /// testing the type.
    PrefixItemsAtOnce(Box<[Option<TypeSet>]>),
    /// `items` from index `skip` over a schema decided for every item at once: always
    /// valid (`types` is `None`) or only testing the type; `loop_cost` per item. The
    /// `minItems` / `maxItems` just before it in an array lane are folded into `count`,
    /// tested first ([`ByKind::fold_item_counts`]).
    ItemsAtOnce {
        skip: usize,
        types: Option<TypeSet>,
        loop_cost: u64,
        count: std::ops::RangeInclusive<u64>,
    },
}

/// The steps of a node that short-circuit evaluation runs on an instance of one
/// [`Kind`]: those that may fail or charge the budget on it, in order, and whether the
/// node then fails (a `type`, `const` or `enum` that no instance of the kind passes ends
/// the lane).
#[derive(Debug, Clone)]
pub(in crate::interp) struct Lane<T> {
    pub(in crate::interp) steps: Box<[T]>,
    pub(in crate::interp) fails: bool,
}

impl<T> Default for Lane<T> {
    fn default() -> Lane<T> {
        Lane {
            steps: Box::default(),
            fails: false,
        }
    }
}

/// A node's steps split into one [`Lane`] per instance [`Kind`], so that an evaluation
/// reads the instance's kind once and tests no `type` it decides.
#[derive(Debug, Clone)]
pub(in crate::interp) struct ByKind<T> {
    lanes: [Lane<T>; 6],
}

impl<T> Default for ByKind<T> {
    fn default() -> ByKind<T> {
        ByKind {
            lanes: Default::default(),
        }
    }
}

impl<T> ByKind<T> {
    /// The lane for instances of `kind`.
    #[inline(always)]
    pub(in crate::interp) fn lane(&self, kind: Kind) -> &Lane<T> {
        &self.lanes[kind as usize]
    }

    /// Whether every lane is empty and passes: the steps of a node valid whatever the
    /// instance.
    pub(in crate::interp) fn is_idle(&self) -> bool {
        self.lanes.iter().all(|l| l.steps.is_empty() && !l.fails)
    }
}

/// What a step does on instances of one [`Kind`] ([`ByKind`]).
pub(super) enum OnKind<T> {
    /// Passes them all without charging anything: left out of the lane.
    Passes,
    /// Runs as it is.
    Same,
    /// Runs as this step, narrowed to the kind.
    Runs(T),
    /// Fails them all: the lane ends, failing.
    Fails,
}

impl<T: Clone> ByKind<T> {
    /// Splits `steps` by kind, each step's effect on a kind given by `on`. A step that
    /// runs as it is in several lanes is copied into all but the last, which takes it;
    /// each lane is allocated once, at its size.
    pub(super) fn split(steps: Vec<T>, on: impl Fn(&T, Kind) -> OnKind<T>) -> ByKind<T> {
        let n = steps.len();
        let mut fails = [false; Kind::ALL.len()];
        // Each step's effect on each kind, kind after kind; none after a step that fails
        // the kind.
        let mut effects = Vec::with_capacity(n * Kind::ALL.len());
        for kind in Kind::ALL {
            for step in &steps {
                let ended = &mut fails[kind as usize];
                let effect = if *ended {
                    OnKind::Passes
                } else {
                    on(step, kind)
                };
                *ended |= matches!(effect, OnKind::Fails);
                effects.push(effect);
            }
        }
        for (i, step) in steps.into_iter().enumerate() {
            let at = |kind: usize| kind * n + i;
            let same = |effect: &OnKind<T>| matches!(effect, OnKind::Same);
            let Some(last) = (0..Kind::ALL.len())
                .rev()
                .find(|&kind| same(&effects[at(kind)]))
            else {
                continue;
            };
            for kind in 0..last {
                if same(&effects[at(kind)]) {
                    effects[at(kind)] = OnKind::Runs(step.clone());
                }
            }
            effects[at(last)] = OnKind::Runs(step);
        }
        let mut effects = effects.into_iter();
        ByKind {
            lanes: Kind::ALL.map(|kind| {
                let runs = (effects.as_slice()[..n].iter())
                    .filter(|effect| matches!(effect, OnKind::Runs(_)))
                    .count();
                let mut steps = Vec::with_capacity(runs);
                steps.extend(effects.by_ref().take(n).filter_map(|effect| match effect {
                    OnKind::Runs(step) => Some(step),
                    _ => None,
                }));
                Lane {
                    steps: steps.into_boxed_slice(),
                    fails: fails[kind as usize],
                }
            }),
        }
    }
}

impl ByKind<Simple> {
    /// Folds the `minItems` and `maxItems` just before an `items` decided at once into it,
    /// in the array lane: all of them read only the array's length, so testing them
    /// together before the `items` (which charges the budget) changes nothing.
    pub(super) fn fold_item_counts(mut self) -> ByKind<Simple> {
        let lane = &mut self.lanes[Kind::Array as usize];
        let mut folded: Vec<Simple> = Vec::new();
        for mut step in std::mem::take(&mut lane.steps).into_vec() {
            if let Simple::ItemsAtOnce { count, .. } = &mut step {
                let (mut min, mut max) = (*count.start(), *count.end());
                while let Some(Simple::MinItems(_) | Simple::MaxItems(_)) = folded.last() {
                    match folded.pop() {
                        Some(Simple::MinItems(limit)) => min = min.max(limit),
                        Some(Simple::MaxItems(limit)) => max = max.min(limit),
                        _ => {}
                    }
                }
                *count = min..=max;
            }
            folded.push(step);
        }
        lane.steps = folded.into_boxed_slice();
        self
    }
}

/// What `simple` does on instances of `kind`: a check of another kind passes, a `type`
/// is decided by the kind (but `integer` on a number), a `const` or `enum` keeps only
/// the members of the kind.
pub(super) fn simple_on_kind(simple: &Simple, kind: Kind) -> OnKind<Simple> {
    let only = |of: Kind| {
        if kind == of {
            OnKind::Same
        } else {
            OnKind::Passes
        }
    };
    match simple {
        Simple::Type(types) => match kind.type_test(*types) {
            TypeTest::Pass => OnKind::Passes,
            TypeTest::IfInteger => OnKind::Runs(Simple::Type(TypeSet::INTEGER)),
            TypeTest::Fail => OnKind::Fails,
        },
        Simple::MinItems(_)
        | Simple::MaxItems(_)
        | Simple::PrefixItemsAtOnce(_)
        | Simple::ItemsAtOnce { .. } => only(Kind::Array),
        Simple::Required(_) => only(Kind::Object),
        Simple::MinLength(_) | Simple::MaxLength(_) => only(Kind::String),
        Simple::Bound(..) => only(Kind::Number),
        Simple::Const(value) if Kind::of(&**value) != kind => OnKind::Fails,
        Simple::Const(_) => OnKind::Same,
        Simple::Enum(values) => {
            let members: Box<[Value]> = (values.iter())
                .filter(|v| Kind::of(*v) == kind)
                .cloned()
                .collect();
            if members.is_empty() {
                OnKind::Fails
            } else if kind == Kind::String {
                let strings = members.iter().filter_map(Value::as_str).map(Box::from);
                OnKind::Runs(Simple::Strings(strings.collect()))
            } else {
                OnKind::Runs(Simple::Enum(members))
            }
        }
        Simple::Strings(_) => OnKind::Same,
    }
}

/// What `op` of `node` does on instances of `kind` ([`simple_on_kind`] for a
/// [`Simple`]; an applicator over array items or object properties passes other kinds,
/// and so does a check through the general evaluation that reads only one kind).
pub(super) fn op_on_kind(node: &Node, op: &Op, kind: Kind) -> OnKind<Op> {
    let only = |of: Kind| {
        if kind == of {
            OnKind::Same
        } else {
            OnKind::Passes
        }
    };
    match op {
        Op::Simple(simple) => match simple_on_kind(simple, kind) {
            OnKind::Passes => OnKind::Passes,
            OnKind::Same => OnKind::Same,
            OnKind::Runs(simple) => OnKind::Runs(Op::Simple(simple)),
            OnKind::Fails => OnKind::Fails,
        },
        Op::Apply(_) | Op::AnyOf(_) | Op::OneOf(_) | Op::Not(_) | Op::If { .. } => OnKind::Same,
        Op::Items { .. } | Op::PrefixItems(_) => only(Kind::Array),
        Op::Properties(_) | Op::Property(_) | Op::Lookups(_) | Op::Closed(_) | Op::Object(_) => {
            only(Kind::Object)
        }
        Op::Check { index, .. } => match node.checks.get(*index).map(|c| &c.kind) {
            Some(CheckKind::False) => OnKind::Fails,
            Some(check) => match check.facts().only_reads {
                Some(of) => only(of),
                None => OnKind::Same,
            },
            None => OnKind::Passes,
        },
    }
}

impl Op {
    /// The op that runs `pass` (of `program`, every node planned `plans`): [`Op::Closed`]
    /// when `additionalProperties`, if there, applies to exactly the keys that no
    /// `properties` name, without `propertyNames`, else [`Op::Object`].
    pub(in crate::interp) fn of_pass(
        pass: ObjectPass<'_>,
        (program, plans): (&Program, &[NodePlan]),
    ) -> Op {
        match (pass.properties, pass.patterns, pass.additional) {
            (Some((entries, index)), None, Some((edge, _, _)))
                if pass.fused && pass.names.is_none() =>
            {
                let target = edge.target;
                Op::Closed(Box::new(ClosedOp {
                    properties: PropertiesOp {
                        entries: entries.into(),
                        index: index.cloned(),
                    },
                    additional: Some((target, plans[target.0].loop_cost)),
                    locations: pass.locations,
                    required: None,
                }))
            }
            _ => Op::Object(Box::new(ObjectOp::of(pass, (program, plans)))),
        }
    }
}

impl ByKind<Op> {
    /// The same lanes, each `required` that an [`Op::Closed`] after it in the object lane
    /// can run folded into it ([`fold_required`]).
    pub(super) fn with_required_folded(mut self, nodes: &[Node]) -> ByKind<Op> {
        fold_required(&mut self.lanes[Kind::Object as usize].steps, nodes);
        self
    }
}

/// Folds into each [`Op::Closed`] and [`Op::Object`] of an object lane the nearest
/// `required` after it ([`FoldedRequired`], [`ObjectOp::required`]: decided once the pass
/// has been over the keys, before the deferred entries run, as generated code decides
/// it), when between them stand only steps that read the object without applying or
/// charging anything: short-circuit evaluation may run such steps in any order. A
/// `properties` alone that takes none is left an [`Op::Properties`], or an
/// [`Op::Property`] when it has one entry; consecutive such
/// steps of distinct names become one [`Op::Properties`] ([`merge_properties`]), or,
/// when all are [`Op::Property`], one [`Op::Lookups`] ([`merge_lookups`]).
pub(super) fn fold_required(steps: &mut Box<[Op]>, nodes: &[Node]) {
    if !(steps.iter()).any(|op| matches!(op, Op::Closed(_) | Op::Object(_) | Op::Property(_))) {
        return; // (nothing to fold, take apart or merge)
    }
    let mut lane = std::mem::take(steps).into_vec();
    let mut next = 0;
    while let Some(op) = lane.get(next) {
        let at = next;
        next += 1;
        if !matches!(op, Op::Closed(_) | Op::Object(_)) {
            continue;
        }
        let after = (next..lane.len())
            .take_while(|&after| only_reads(&lane[after], nodes))
            .find(|&after| matches!(&lane[after], Op::Simple(Simple::Required(_))));
        let Some(Op::Simple(Simple::Required(required))) = after.map(|after| lane.remove(after))
        else {
            continue;
        };
        match &mut lane[at] {
            Op::Closed(closed) => {
                let folded = FoldedRequired::new(&required, &closed.properties.entries);
                closed.required = Some(Box::new(folded));
            }
            Op::Object(object) => object.required = Some(required),
            _ => {}
        }
    }
    let alone = |op: Op| match op {
        Op::Closed(closed) if closed.required.is_none() && closed.additional.is_none() => {
            match &*closed.properties.entries {
                [(name, edge)] => Op::Property(Box::new((name.clone(), edge.clone()))),
                _ => Op::Properties(Box::new(closed.properties)),
            }
        }
        op => op,
    };
    *steps = merge_lookups(merge_properties(lane.into_iter().map(alone)).into_iter());
}

/// `lane` with each run of consecutive [`Op::Properties`] / [`Op::Property`] steps (at
/// least two, one of them an [`Op::Properties`]) whose names are all distinct made one
/// [`Op::Properties`] over their entries in order, with an index over their names: the
/// same schemas applied to the same keys (`properties` charges nothing per key), in one
/// pass over the object's keys instead of one per step, as for the `allOf` members with
/// `properties` of their own that splicing puts side by side.
fn merge_properties(lane: impl Iterator<Item = Op>) -> Vec<Op> {
    fn entries(op: &Op) -> &[(String, Edge)] {
        match op {
            Op::Properties(properties) => &properties.entries,
            Op::Property(entry) => std::slice::from_ref(&**entry),
            _ => &[],
        }
    }
    let takes_part = |op: &Op| matches!(op, Op::Properties(_) | Op::Property(_));
    let mut out = Vec::new();
    let mut lane = lane.peekable();
    while let Some(op) = lane.next() {
        if !takes_part(&op) {
            out.push(op);
            continue;
        }
        let mut run = vec![op];
        run.extend(std::iter::from_fn(|| lane.next_if(takes_part)));
        let mut names: Vec<&str> = (run.iter().flat_map(entries))
            .map(|(name, _)| name.as_str())
            .collect();
        names.sort_unstable();
        let merge = run.len() > 1
            && run.iter().any(|op| matches!(op, Op::Properties(_)))
            && names.windows(2).all(|pair| pair[0] != pair[1]);
        if !merge {
            out.extend(run);
            continue;
        }
        let entries: Box<[(String, Edge)]> = (run.iter().flat_map(entries)).cloned().collect();
        let index = PropertyIndex::new(entries.iter().map(|(name, _)| name.as_str()));
        out.push(Op::Properties(Box::new(PropertiesOp {
            entries,
            index: Some(index),
        })));
    }
    out
}

/// `lane` with each run of consecutive [`Op::Property`] steps whose names are distinct
/// (at least two) made one [`Op::Lookups`]: the same schemas applied in the same order,
/// each name found in one pass over the keys instead of a lookup per name.
pub(super) fn merge_lookups(lane: impl Iterator<Item = Op>) -> Box<[Op]> {
    let mut steps = Vec::new();
    let mut run: Vec<(String, Edge)> = Vec::new();
    let flush = |run: &mut Vec<(String, Edge)>, steps: &mut Vec<Op>| match run.len() {
        0 => {}
        1 => steps.extend(run.drain(..).map(|entry| Op::Property(Box::new(entry)))),
        _ => {
            let entries: Box<[(String, Edge)]> = run.drain(..).collect();
            let index = PropertyIndex::new(entries.iter().map(|(name, _)| name.as_str()));
            steps.push(Op::Lookups(Box::new(LookupsOp { entries, index })));
        }
    };
    for op in lane {
        match op {
            Op::Property(entry) if !run.iter().any(|(name, _)| *name == entry.0) => {
                run.push(*entry);
            }
            Op::Property(entry) => {
                flush(&mut run, &mut steps);
                run.push(*entry);
            }
            op => {
                flush(&mut run, &mut steps);
                steps.push(op);
            }
        }
    }
    flush(&mut run, &mut steps);
    steps.into()
}

/// Whether `op` only reads the instance, never applying a node, charging the budget or
/// stopping (a [`Simple`] step but `items` decided at once, and the object checks
/// [`Op::Check`] runs that read only the object).
pub(super) fn only_reads(op: &Op, nodes: &[Node]) -> bool {
    match op {
        Op::Simple(simple) => !matches!(simple, Simple::ItemsAtOnce { .. }),
        Op::Check { node, index } => matches!(
            nodes
                .get(node.0)
                .and_then(|n| n.checks.get(*index))
                .map(|c| &c.kind),
            Some(
                CheckKind::MinProperties(_)
                    | CheckKind::MaxProperties(_)
                    | CheckKind::DependentRequired(_)
            )
        ),
        _ => false,
    }
}

/// Splices into the [`Op`] lanes of node `id` (its [`Fast::Ops`], or its ops when it is
/// out of line) the lanes of the inline nodes it applies in place (after splicing
/// theirs): short-circuit evaluation of such a node is exactly its lane of the
/// instance's kind, which enters nothing and charges nothing, so the parent runs those
/// steps itself instead of an [`Op::Apply`] (and fails where that lane fails).
/// `fast` holds the lanes of [`canonical`] nodes; `id` must be one.
pub(super) fn splice_node(
    shared: &Plan,
    fast: &mut [(Fast, ByKind<Op>)],
    spliced: &mut [bool],
    id: usize,
) {
    // Children first, without recursion: a chain of subschemas applied in place (`$ref`
    // to `$ref` to …) is as deep as the schema is long, and a recursive walk overflowed a
    // 2 MiB stack at 1,500 links in an unoptimized build. A node is marked when it is
    // first expanded, as a recursive walk would mark it on entry (a node applied from
    // below itself is spliced with its lanes as they stand).
    if spliced[id] {
        return;
    }
    let mut stack = vec![(id, false)];
    while let Some((id, expanded)) = stack.pop() {
        if expanded {
            splice_lanes(shared, fast, id);
            continue;
        }
        if std::mem::replace(&mut spliced[id], true) {
            continue;
        }
        crate::work::add(1);
        stack.push((id, true));
        let applied = applied_nodes(&fast[id]);
        stack.extend((applied.into_iter().rev()).map(|target| (canonical(shared, target), false)));
    }
}

/// The node that stands for node `id` in short-circuit evaluation (its class's
/// [`crate::plan::NodePlan::canonical`]): the only one of its class whose steps are
/// planned, the others take copies.
pub(super) fn canonical(shared: &Plan, id: usize) -> usize {
    shared.nodes[id].canonical.0
}

/// The nodes `id`'s lanes apply in place, in order.
fn applied_nodes(node: &(Fast, ByKind<Op>)) -> Vec<usize> {
    let mut applied = Vec::new();
    let ops = (node.0.ops().into_iter())
        .chain([&node.1])
        .flat_map(|lanes| lanes.lanes.iter())
        .flat_map(|lane| lane.steps.iter());
    for op in ops {
        match op {
            Op::Apply(target) | Op::Not(target) => applied.push(target.0),
            Op::AnyOf(branches) | Op::OneOf(branches) => {
                applied.extend(branches.targets.iter().map(|target| target.0))
            }
            Op::If {
                condition,
                then,
                otherwise,
            } => applied.extend(
                [Some(*condition), *then, *otherwise]
                    .into_iter()
                    .flatten()
                    .map(|target| target.0),
            ),
            _ => {}
        }
    }
    applied
}

/// Splices into node `id`'s lanes those of the inline nodes it applies (already spliced
/// themselves: [`splice_node`]).
fn splice_lanes(shared: &Plan, fast: &mut [(Fast, ByKind<Op>)], id: usize) {
    let splice = |lanes: &ByKind<Op>| {
        Kind::ALL.map(|kind| spliced_lane(shared, lanes.lane(kind), kind, fast))
    };
    let fast_lanes = fast[id].0.ops().map(splice);
    let ops = splice(&fast[id].1);
    let (node_fast, node_ops) = &mut fast[id];
    if let (Fast::Ops(lanes), Some(spliced)) = (node_fast, fast_lanes) {
        // (Not shared yet: planning hands out copies only once it is done.)
        Arc::make_mut(lanes).replace(spliced);
    }
    node_ops.replace(ops);
}

impl<T> ByKind<T> {
    /// Replaces the lanes given (`Some`), keeping the others.
    fn replace(&mut self, lanes: [Option<Lane<T>>; Kind::ALL.len()]) {
        for (lane, new) in self.lanes.iter_mut().zip(lanes) {
            if let Some(new) = new {
                *lane = new;
            }
        }
    }
}

/// `lane` (on instances of `kind`) with its steps narrowed ([`narrow`]) and the lanes of
/// the inline nodes it applies spliced in, up to [`MAX_SPLICED`] steps; `None` when
/// that changes nothing.
fn spliced_lane(
    shared: &Plan,
    lane: &Lane<Op>,
    kind: Kind,
    fast: &[(Fast, ByKind<Op>)],
) -> Option<Lane<Op>> {
    // The lane's steps so far, from the first one that changes (until then, the same).
    let mut steps: Option<Vec<Op>> = None;
    for (at, op) in lane.steps.iter().enumerate() {
        let narrowed = narrow(shared, op, kind, fast);
        let applied = match (&narrowed, op) {
            (OnKind::Same, Op::Apply(target)) | (OnKind::Runs(Op::Apply(target)), _) => {
                Some(*target)
            }
            _ => None,
        };
        let before = steps.as_ref().map_or(at, Vec::len);
        let inner = (applied
            .and_then(|target| fast[canonical(shared, target.0)].0.inline_lane(kind)))
        .filter(|inner| before + inner.steps.len() <= MAX_SPLICED);
        if let (OnKind::Same, None) = (&narrowed, &inner) {
            if let Some(steps) = &mut steps {
                steps.push(op.clone());
            }
            continue;
        }
        let steps = steps.get_or_insert_with(|| lane.steps[..at].to_vec());
        let fails = match (narrowed, inner) {
            (OnKind::Passes, _) => false,
            (OnKind::Fails, _) => true,
            (_, Some(inner)) => {
                steps.extend(inner.steps.into_vec());
                inner.fails
            }
            (OnKind::Runs(op), None) => {
                steps.push(op);
                false
            }
            (OnKind::Same, None) => {
                steps.push(op.clone());
                false
            }
        };
        if fails {
            return Some(Lane {
                steps: std::mem::take(steps).into_boxed_slice(),
                fails: true,
            });
        }
    }
    steps.map(|steps| Lane {
        steps: steps.into_boxed_slice(),
        fails: lane.fails,
    })
}

/// What `op` does on instances of `kind`, given the inline nodes' evaluations (`fast`),
/// where a node is decided when its lane of the kind has no step (so that evaluating it
/// charges nothing): a `not` of a decided node passes or fails, an `if` whose condition
/// is decided applies its branch; an `anyOf` / `oneOf` leaves out each branch decided
/// invalid or that the kind rules out ([`Plan::ruled_out`], even when entering it would
/// charge) and, for `anyOf`, the branches after one decided valid that every tag admits
/// (it passes where that branch comes first); with no branch left it fails, with one
/// that every tag admits it applies it. Any other step runs as it is.
pub(super) fn narrow(
    shared: &Plan,
    op: &Op,
    kind: Kind,
    fast: &[(Fast, ByKind<Op>)],
) -> OnKind<Op> {
    // Whether the node is decided on the kind: valid or not.
    let decided = |target: NodeId| fast[canonical(shared, target.0)].0.decided(kind);
    let branches = match op {
        Op::AnyOf(branches) | Op::OneOf(branches) => branches,
        Op::Not(target) => {
            return match decided(*target) {
                Some(true) => OnKind::Fails,
                Some(false) => OnKind::Passes,
                None => OnKind::Same,
            }
        }
        Op::If {
            condition,
            then,
            otherwise,
        } => {
            return match decided(*condition) {
                Some(holds) => match if holds { then } else { otherwise } {
                    Some(target) => OnKind::Runs(Op::Apply(*target)),
                    None => OnKind::Passes,
                },
                None => OnKind::Same,
            }
        }
        _ => return OnKind::Same,
    };
    let any = matches!(op, Op::AnyOf(_));
    let discriminator = (branches.discriminator.as_ref()).filter(|_| kind == Kind::Object);
    let admits_all = |i: usize| discriminator.is_none_or(|d| d.of.branches[i].admits_all());
    let mut kept = Vec::new();
    for (i, &target) in branches.targets.iter().enumerate() {
        // (A branch the kind rules out is left out whatever it charges on entry.)
        let ruled_out = || shared.ruled_out(target, kind).then_some(false);
        match decided(target).or_else(ruled_out) {
            Some(false) => {}
            Some(true) if any && admits_all(i) => {
                if kept.is_empty() {
                    return OnKind::Passes;
                }
                kept.push(i);
                break;
            }
            _ => kept.push(i),
        }
    }
    let narrowed = match kept[..] {
        [] => return OnKind::Fails,
        [i] if admits_all(i) => return OnKind::Runs(Op::Apply(branches.targets[i])),
        _ => Box::new(BranchesOp {
            targets: kept.iter().map(|&i| branches.targets[i]).collect(),
            discriminator: discriminator.map(|d| {
                Tags::new(Discriminator {
                    property: d.of.property.clone(),
                    branches: kept.iter().map(|&i| d.of.branches[i].clone()).collect(),
                })
            }),
        }),
    };
    OnKind::Runs(if any {
        Op::AnyOf(narrowed)
    } else {
        Op::OneOf(narrowed)
    })
}

impl Fast {
    /// The [`Op`] lanes of a [`Fast::Ops`] node.
    pub(super) fn ops(&self) -> Option<&ByKind<Op>> {
        match self {
            Fast::Ops(lanes) => Some(lanes),
            _ => None,
        }
    }

    /// Whether the inline node evaluated so is decided on instances of `kind` without a
    /// step (its [`Fast::inline_lane`] empty): valid (`Some(true)`) or not; `None` when
    /// it has steps there or is entered.
    fn decided(&self, kind: Kind) -> Option<bool> {
        match self {
            Fast::Ops(lanes) => {
                let lane = lanes.lane(kind);
                lane.steps.is_empty().then_some(!lane.fails)
            }
            Fast::Type(types) => match simple_on_kind(&Simple::Type(*types), kind) {
                OnKind::Passes => Some(true),
                OnKind::Fails => Some(false),
                OnKind::Same | OnKind::Runs(_) => None,
            },
            Fast::Valid => Some(true),
            Fast::Simple(_) | Fast::Enter => None,
        }
    }

    /// The steps short-circuit evaluation runs for the inline node evaluated so on an
    /// instance of `kind`, as [`Op`]s: its lane, or its type test (`None` for a node
    /// that is entered).
    pub(super) fn inline_lane(&self, kind: Kind) -> Option<Lane<Op>> {
        match self {
            Fast::Ops(lanes) => Some(lanes.lane(kind).clone()),
            Fast::Type(types) => Some(match simple_on_kind(&Simple::Type(*types), kind) {
                OnKind::Passes => Lane::default(),
                OnKind::Same => Lane {
                    steps: Box::new([Op::Simple(Simple::Type(*types))]),
                    fails: false,
                },
                OnKind::Runs(simple) => Lane {
                    steps: Box::new([Op::Simple(simple)]),
                    fails: false,
                },
                OnKind::Fails => Lane {
                    steps: Box::default(),
                    fails: true,
                },
            }),
            Fast::Valid => Some(Lane::default()),
            Fast::Simple(_) | Fast::Enter => None,
        }
    }

    /// The same evaluation, [`Fast::Simple`] when it runs only [`Simple`] steps.
    pub(super) fn simplified(self) -> Fast {
        let Fast::Ops(lanes) = self else {
            return self;
        };
        let all_simple = (lanes.lanes.iter())
            .all(|lane| lane.steps.iter().all(|op| matches!(op, Op::Simple(_))));
        if !all_simple {
            return Fast::Ops(lanes);
        }
        let lanes = Arc::unwrap_or_clone(lanes).lanes.map(|lane| Lane {
            steps: (lane.steps.into_vec().into_iter())
                .filter_map(|op| match op {
                    Op::Simple(simple) => Some(simple),
                    _ => None,
                })
                .collect(),
            fails: lane.fails,
        });
        Fast::Simple(Arc::new(ByKind { lanes }.fold_item_counts()))
    }
}

/// How a node planned `plan` is decided on an instance at once, when it is: not at all
/// (`Some(None)`, always valid) or by a type test.
pub(super) fn at_once(plan: &NodePlan) -> Option<Option<TypeSet>> {
    (plan.always_valid || plan.only_type.is_some()).then_some(plan.only_type)
}

/// The [`Op`]s of node `id`'s checks (`shared`'s program, every node planned `plans` but
/// their [`NodePlan::fast`]), in the order generated code runs them: plan order, but
/// with the `allOf` members and `$ref` targets the node absorbs
/// ([`Plan::absorption`]) applied where generated code runs their checks — an inline one
/// with the node's first run of checks that depend on the instance's type (after the run
/// that leads its checks, before its first check that applies a subschema in place), an
/// out-of-line one (copied there) where generated code charges its entry: first when
/// every target of its check is absorbed (or always valid), else where it stands. (A
/// node that absorbs an `if` keeps plan order.)
pub(super) fn node_ops(shared: &Plan, plans: &[NodePlan], id: NodeId) -> Vec<Op> {
    let program = &shared.program;
    let (node, plan) = (&program.nodes[id.0], &plans[id.0]);
    let mut ops = Vec::new();
    let absorbed = match node.checks.iter().any(|c| c.kind.conjuncts().is_some()) {
        true => shared.absorption(id),
        false => Default::default(),
    };
    if absorbed.members.is_empty() || !absorbed.ifs.is_empty() {
        for index in 0..node.checks.len() {
            push_ops(&mut ops, (program, plans), (id, node, plan), index);
        }
        return ops;
    }
    let is_absorbed = |target: &NodeId| absorbed.members.contains(target);
    let applies = |target: &NodeId| !plans[target.0].always_valid;
    // Where generated code applies a target of an in-place check (`None`: it joins the
    // first run).
    let applied_here = |e: &Edge| {
        let target = e.target;
        (applies(&target) && (!is_absorbed(&target) || plans[target.0].out_of_line))
            .then_some(Op::Apply(target))
    };
    // The targets of a check that is absorbed whole (or always valid): applied first.
    let away = |check: &crate::ir::Check| {
        check.kind.conjuncts().is_some_and(|targets| {
            (targets.iter()).all(|e| is_absorbed(&e.target) || !applies(&e.target))
        })
    };
    let taken_first = node.checks.iter().filter(|check| away(check));
    for targets in taken_first.filter_map(|check| check.kind.conjuncts()) {
        ops.extend(targets.iter().filter_map(applied_here));
    }
    let inline_absorbed = (absorbed.members.iter())
        .filter(|member| applies(member) && !plans[member.0].out_of_line)
        .map(|&member| Op::Apply(member));
    let mut joining = Some(inline_absorbed.collect::<Vec<_>>());
    for (index, check) in node.checks.iter().enumerate() {
        if away(check) {
            continue;
        }
        if !check.kind.is_dispatchable() {
            ops.extend(joining.take().into_iter().flatten());
        }
        match check.kind.conjuncts() {
            Some(targets) => ops.extend(targets.iter().filter_map(applied_here)),
            None => push_ops(&mut ops, (program, plans), (id, node, plan), index),
        }
    }
    ops.extend(joining.into_iter().flatten());
    ops
}

/// Appends the [`Op`]s of check `index` of node `id` (`node`, planned `plan`) of
/// `program`, given every node's plan (but their [`NodePlan::fast`]).
fn push_ops(
    ops: &mut Vec<Op>,
    (program, plans): (&Program, &[NodePlan]),
    (id, node, plan): (NodeId, &Node, &NodePlan),
    index: usize,
) {
    let Some(kind) = node.checks.get(index).map(|check| &check.kind) else {
        return;
    };
    if let Some(simple) = simple(plans, kind) {
        ops.push(Op::Simple(simple));
        return;
    }
    let applies = |target: &NodeId| !plans[target.0].always_valid;
    if let Some(targets) = kind.conjuncts() {
        ops.extend(
            targets
                .iter()
                .map(|e| e.target)
                .filter(applies)
                .map(Op::Apply),
        );
        return;
    }
    match kind {
        CheckKind::Items { schema, skip } => ops.push(Op::Items {
            target: schema.target,
            skip: *skip,
        }),
        CheckKind::PrefixItems(edges) => {
            ops.push(Op::PrefixItems(edges.iter().map(|e| e.target).collect()));
        }
        CheckKind::AnyOf(edges) | CheckKind::OneOf(edges) => {
            let branches = Box::new(BranchesOp {
                targets: edges.iter().map(|e| e.target).collect(),
                discriminator: plan.discriminator(index).cloned(),
            });
            ops.push(match kind {
                CheckKind::AnyOf(_) => Op::AnyOf(branches),
                _ => Op::OneOf(branches),
            });
        }
        CheckKind::Not(edge) => ops.push(Op::Not(edge.target)),
        CheckKind::IfThenElse {
            condition,
            then,
            otherwise,
        } => ops.push(Op::If {
            condition: condition.target,
            then: then.as_ref().map(|e| e.target),
            otherwise: otherwise.as_ref().map(|e| e.target),
        }),
        // A closing `unevaluatedProperties` runs with the node's `properties` and
        // `propertyNames`, as their `additionalProperties`.
        CheckKind::Properties(_) | CheckKind::PropertyNames(_) if plan.closing => {}
        CheckKind::UnevaluatedProperties(edge) if plan.closing => {
            let properties = (node.checks.iter()).find_map(|check| match &check.kind {
                CheckKind::Properties(entries) => Some(entries.as_slice()),
                _ => None,
            });
            let names = (node.checks.iter()).find_map(|check| match &check.kind {
                CheckKind::PropertyNames(edge) => Some(edge),
                _ => None,
            });
            let known: Vec<String> = (properties.unwrap_or_default().iter())
                .map(|(name, _)| name.clone())
                .collect();
            let index = plan.property_index.as_deref().map(|(_, index)| index);
            let pass = ObjectPass {
                properties: properties.map(|entries| (entries, index)),
                patterns: None,
                pattern_set: None,
                additional: Some((edge, &known, &[])),
                additional_set: None,
                fused: true,
                names,
                named: &[],
                required: None,
                collects: false,
                locations: true,
            };
            ops.push(Op::of_pass(pass, (program, plans)));
        }
        CheckKind::Properties(entries) if plan.object.is_none() => {
            if !entries.iter().any(|(_, edge)| applies(&edge.target)) {
                return;
            }
            ops.push(Op::Closed(Box::new(ClosedOp {
                properties: PropertiesOp {
                    entries: entries.clone().into_boxed_slice(),
                    index: plan.properties_index(index).cloned(),
                },
                additional: None,
                locations: false,
                required: None,
            })));
        }
        CheckKind::PropertyNames(_) if !plan.fuses(index) => {
            ops.push(Op::Check { node: id, index })
        }
        CheckKind::Properties(_)
        | CheckKind::PatternProperties(_)
        | CheckKind::AdditionalProperties { .. }
        | CheckKind::PropertyNames(_) => {
            // A fused check runs with the first of them (no pass at the others).
            if let Some(pass) = object_pass_at(node, plan, index).filter(|p| p.applies_any(applies))
            {
                ops.push(Op::of_pass(pass, (program, plans)));
            }
        }
        _ => ops.push(Op::Check { node: id, index }),
    }
}

/// The [`Simple`] op of a check of kind `kind`, if it is one, given every node's plan
/// (but their [`NodePlan::fast`]).
pub(super) fn simple(plans: &[NodePlan], kind: &CheckKind) -> Option<Simple> {
    Some(match kind {
        CheckKind::Type(types) => Simple::Type(*types),
        CheckKind::MinItems(limit) => Simple::MinItems(*limit),
        CheckKind::MaxItems(limit) => Simple::MaxItems(*limit),
        CheckKind::Required(names) => Simple::Required(Box::new(Required::new(names))),
        CheckKind::MinLength(limit) => Simple::MinLength(*limit),
        CheckKind::MaxLength(limit) => Simple::MaxLength(*limit),
        CheckKind::Const(value) if EnumTable::new(std::slice::from_ref(value)).is_none() => {
            Simple::Const(Box::new(value.clone()))
        }
        CheckKind::Enum(values) if EnumTable::new(values).is_none() => {
            Simple::Enum(values.clone().into_boxed_slice())
        }
        CheckKind::Minimum(limit) => Simple::Bound(Limit::of(limit), Bound::Minimum),
        CheckKind::Maximum(limit) => Simple::Bound(Limit::of(limit), Bound::Maximum),
        CheckKind::ExclusiveMinimum(limit) => {
            Simple::Bound(Limit::of(limit), Bound::ExclusiveMinimum)
        }
        CheckKind::ExclusiveMaximum(limit) => {
            Simple::Bound(Limit::of(limit), Bound::ExclusiveMaximum)
        }
        CheckKind::PrefixItems(edges) => Simple::PrefixItemsAtOnce(
            (edges.iter())
                .map(|edge| at_once(&plans[edge.target.0]))
                .collect::<Option<_>>()?,
        ),
        CheckKind::Items { schema, skip } => {
            let target = &plans[schema.target.0];
            at_once(target)?;
            Simple::ItemsAtOnce {
                skip: *skip,
                types: target.only_type,
                loop_cost: target.loop_cost,
                count: 0..=u64::MAX,
            }
        }
        _ => return None,
    })
}
