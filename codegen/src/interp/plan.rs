//! Per-node plans, computed once when the interpreter is built: which checks of a node
//! are fused into one pass over an object's properties ([`ObjectPass`]), the lookup
//! indices ([`super::index`]) over the `properties` and `required` names for instance
//! keys, and the steps short-circuit evaluation runs ([`Fast`], [`Op`]). It reads the
//! evaluation's context ([`Ctx`]) only to measure what a pass's patterns charge at a
//! known name ([`NamedPatterns`]), never the evaluation itself.

use super::context::{pattern_applies, Ctx};
use super::index::{NameTable, PropertyIndex, Required};
use crate::ir::{CheckKind, Edge, Node, NodeId, Program, RegexId};
use crate::plan::kind::{Kind, TypeTest};
use crate::plan::lookup::{pattern_set, EnumTable, NameList};
use crate::plan::thresholds::MAX_SPLICED;
use crate::plan::{Discriminator, Limit, Plan};
use crate::regex::PatternSet;
use schemac_runtime::__private::Bits;
use schemac_runtime::error::TypeSet;
use schemac_runtime::Limits;
use serde_json::Value;
use std::sync::Arc;

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
    /// The node records evaluated properties (its `collect` flag, or a check of its own).
    pub(super) collect_properties: bool,
    /// The node records evaluated items.
    pub(super) collect_items: bool,
    /// A node that collects evaluated properties (no items) and whose valid evaluation
    /// evaluates exactly the instance's properties among these names (by
    /// [`NameTable`] id), whatever the instance ([`evaluated_by_name`]): short-circuit
    /// evaluation runs it as a [`NodePlan::quick`] node and records the names.
    pub(super) evaluates: Option<Bits>,
    /// In a node that collects evaluated properties, the names (by id) of its
    /// `properties` check with the [`NodePlan::property_index`] when that check runs
    /// alone: short-circuit evaluation runs it as it runs `properties` alone and records
    /// these names.
    pub(super) property_names: Option<Bits>,
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
    pub(super) object: Option<ObjectPlan>,
    /// The check index of the node's `properties` check and a lookup index over its names.
    pub(super) property_index: Option<(usize, PropertyIndex)>,
    /// Prefilters for the `patternProperties` / `additionalProperties` checks with at
    /// least [`PatternSet::MIN_PATTERNS`] patterns, by check index.
    pub(super) pattern_sets: Vec<(usize, PatternSet)>,
    /// The discriminators of the node's `anyOf` / `oneOf` checks, by check index.
    pub(super) discriminators: Vec<(usize, Discriminator)>,
    /// Member tables of the `enum` checks with enough members, by check index.
    pub(super) enum_tables: Vec<(usize, EnumTable)>,
    /// The [`NameList`]s of the `required` checks (entry 0) and `dependentRequired`
    /// entries (by position) with enough names, by (check index, entry).
    pub(super) name_lists: Vec<((usize, usize), NameList)>,
    /// How short-circuit evaluation without annotations evaluates the node.
    pub(super) fast: Fast,
    /// The [`Op`]s short-circuit evaluation runs once it has entered an out-of-line
    /// [`NodePlan::quick`] node (empty for every other node: an inline one's are in
    /// [`NodePlan::fast`]).
    pub(super) ops: ByKind<Op>,
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

/// How short-circuit evaluation without annotations evaluates a node
/// ([`NodePlan::fast`]), decided once so that a node evaluation reads one tag.
#[derive(Debug, Default)]
pub(super) enum Fast {
    /// Not at all: [`NodePlan::always_valid`].
    Valid,
    /// A type test: [`NodePlan::only_type`].
    Type(TypeSet),
    /// A quick inline node whose checks are all [`Simple`]: these, in order, in a loop
    /// of their own.
    Simple(ByKind<Simple>),
    /// Any other quick inline node: its [`Op`]s.
    Ops(ByKind<Op>),
    /// Entered as in every other mode.
    #[default]
    Enter,
}

/// One step of a [`NodePlan::quick`] node's checks as short-circuit evaluation runs
/// them, decided once: the checks in order, an `allOf` as one application per member, an
/// application of an always valid node left out, and the fused object applicators as one
/// step where the first of them stands.
#[derive(Debug, Clone)]
pub(super) enum Op {
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
pub(super) struct BranchesOp {
    /// The branches' targets, in order.
    pub(super) targets: Box<[NodeId]>,
    /// The discriminator over `targets` (only in the object lane: it admits every
    /// other kind).
    pub(super) discriminator: Option<Discriminator>,
}

/// A `properties` check as [`Op::Properties`], [`Op::Closed`] and [`Op::Object`] run it,
/// copied from the check and its node's plan so that running it reads nothing else.
#[derive(Debug, Clone)]
pub(super) struct PropertiesOp {
    /// The entries: name and edge.
    pub(super) entries: Box<[(String, Edge)]>,
    /// The lookup index over the entries' names, when the node's plan has one.
    pub(super) index: Option<PropertyIndex>,
}

/// Consecutive single-property steps as [`Op::Lookups`] runs them.
#[derive(Debug, Clone)]
pub(super) struct LookupsOp {
    /// The entries (name and edge), in the order their schemas apply; the names are
    /// distinct.
    pub(super) entries: Box<[(String, Edge)]>,
    /// The lookup index over the entries' names.
    pub(super) index: PropertyIndex,
}

/// `properties`, and the `additionalProperties` applied to every other key, as
/// [`Op::Closed`] runs them.
#[derive(Debug, Clone)]
pub(super) struct ClosedOp {
    /// `properties`.
    pub(super) properties: PropertiesOp,
    /// The schema of `additionalProperties`, with what it charges per key of the object
    /// ([`NodePlan::loop_cost`], charged for every key before the pass); `None` when
    /// `properties` stands alone.
    pub(super) additional: Option<(NodeId, u64)>,
    /// A `required` of the same lane folded into the pass ([`fold_required`]).
    pub(super) required: Option<Box<FoldedRequired>>,
}

/// A `required` whose names are all `properties` names, run by the [`ClosedOp`] pass
/// that follows it in its lane: on an object of at most [`FOLDED_REQUIRED_KEYS`](crate::plan::thresholds::FOLDED_REQUIRED_KEYS) keys,
/// within the pass's lookups of the keys (each finds both the entry applying to the key
/// and the required name it is), as if it had run before the pass.
#[derive(Debug, Clone)]
pub(super) struct FoldedRequired {
    /// The check itself, for a larger object.
    pub(super) required: Required,
    /// For each `properties` entry, the bit of the required name it is (zero for none).
    pub(super) bits: Box<[u64]>,
    /// The bits of every required name.
    pub(super) all: u64,
}

impl FoldedRequired {
    /// `required` folded into a pass over `entries`, when each of its (at most 64
    /// distinct) names is an entry's.
    fn new(required: &Required, entries: &[(String, Edge)]) -> Option<FoldedRequired> {
        let mut distinct: Vec<&str> = required.names.iter().map(String::as_str).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() > 64 {
            return None;
        }
        let bit = |name: &str| distinct.binary_search(&name).map_or(0, |at| 1u64 << at);
        let bits: Box<[u64]> = entries.iter().map(|(name, _)| bit(name)).collect();
        let all = bits.iter().fold(0u64, |all, b| all | b);
        (all.count_ones() as usize == distinct.len()).then(|| FoldedRequired {
            required: required.clone(),
            bits,
            all,
        })
    }
}

/// `additionalProperties` as [`ObjectOp`] holds it: its schema, names and patterns.
pub(super) type AdditionalOp = (Edge, Box<[String]>, Box<[RegexId]>);

/// The object applicators one pass over an object runs ([`Op::Object`]), copied from the
/// checks and their node's plan (what an [`ObjectPass`] borrows).
#[derive(Debug, Clone)]
pub(super) struct ObjectOp {
    /// `properties`.
    pub(super) properties: Option<PropertiesOp>,
    /// `patternProperties`.
    pub(super) patterns: Option<Box<[(RegexId, Edge)]>>,
    /// `patternProperties`' prefilter, when it has one.
    pub(super) pattern_set: Option<PatternSet>,
    /// `additionalProperties`: its schema, names and patterns.
    pub(super) additional: Option<AdditionalOp>,
    /// The prefilter of `additionalProperties`' patterns, when it has one.
    pub(super) additional_set: Option<PatternSet>,
    /// Whether `additional`'s names and patterns are exactly the sibling ones above.
    pub(super) fused: bool,
    /// With `properties` and `patternProperties`: what the patterns do at each
    /// `properties` name, by entry (empty otherwise, or when a name's patterns would stop
    /// even an unbounded budget).
    pub(super) named: Box<[NamedPatterns]>,
}

/// What `patternProperties` does at an instance key that is a `properties` name, decided
/// when planning (the name is known): the units its prefilter and its patterns charge,
/// and the patterns that match, in the order the pass charges and applies them.
/// Consecutive charges with nothing evaluated between them are one charge, which stops
/// exactly when one of them would.
#[derive(Debug, Clone, Default)]
pub(super) struct NamedPatterns {
    /// The units charged before the first match is applied (all of them when none
    /// matches).
    pub(super) lead: u64,
    /// The matching patterns, by index, each with the units charged after it is applied.
    pub(super) matches: Box<[(usize, u64)]>,
}

/// A check that evaluates no node, as short-circuit evaluation runs it, with what it
/// needs copied from the check and its target's plan ([`Fast::Simple`]).
#[derive(Debug, Clone)]
pub(super) enum Simple {
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
#[derive(Debug)]
pub(super) struct Lane<T> {
    pub(super) steps: Box<[T]>,
    pub(super) fails: bool,
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
#[derive(Debug)]
pub(super) struct ByKind<T> {
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
    pub(super) fn lane(&self, kind: Kind) -> &Lane<T> {
        &self.lanes[kind as usize]
    }
}

/// What a step does on instances of one [`Kind`] ([`ByKind`]).
enum OnKind<T> {
    /// Passes them all without charging anything: left out of the lane.
    Passes,
    /// Runs as this step (the step itself, or one narrowed to the kind).
    Runs(T),
    /// Fails them all: the lane ends, failing.
    Fails,
}

impl<T> ByKind<T> {
    /// Splits `steps` by kind, each step's effect on a kind given by `on`.
    fn split(steps: &[T], on: impl Fn(&T, Kind) -> OnKind<T>) -> ByKind<T> {
        ByKind {
            lanes: Kind::ALL.map(|kind| {
                let mut lane = Vec::new();
                for step in steps {
                    match on(step, kind) {
                        OnKind::Passes => {}
                        OnKind::Runs(step) => lane.push(step),
                        OnKind::Fails => {
                            return Lane {
                                steps: lane.into_boxed_slice(),
                                fails: true,
                            }
                        }
                    }
                }
                Lane {
                    steps: lane.into_boxed_slice(),
                    fails: false,
                }
            }),
        }
    }
}

impl ByKind<Simple> {
    /// Folds the `minItems` and `maxItems` just before an `items` decided at once into it,
    /// in the array lane: all of them read only the array's length, so testing them
    /// together before the `items` (which charges the budget) changes nothing.
    fn fold_item_counts(mut self) -> ByKind<Simple> {
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
fn simple_on_kind(simple: &Simple, kind: Kind) -> OnKind<Simple> {
    let only = |of: Kind| {
        if kind == of {
            OnKind::Runs(simple.clone())
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
        Simple::Const(value) if Kind::of(value) != kind => OnKind::Fails,
        Simple::Const(_) => OnKind::Runs(simple.clone()),
        Simple::Enum(values) => {
            let members: Box<[Value]> = (values.iter())
                .filter(|v| Kind::of(v) == kind)
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
        Simple::Strings(_) => OnKind::Runs(simple.clone()),
    }
}

/// What `op` of `node` does on instances of `kind` ([`simple_on_kind`] for a
/// [`Simple`]; an applicator over array items or object properties passes other kinds,
/// and so does a check through the general evaluation that reads only one kind).
fn op_on_kind(node: &Node, op: &Op, kind: Kind) -> OnKind<Op> {
    let only = |of: Kind| {
        if kind == of {
            OnKind::Runs(op.clone())
        } else {
            OnKind::Passes
        }
    };
    match op {
        Op::Simple(simple) => match simple_on_kind(simple, kind) {
            OnKind::Passes => OnKind::Passes,
            OnKind::Runs(simple) => OnKind::Runs(Op::Simple(simple)),
            OnKind::Fails => OnKind::Fails,
        },
        Op::Apply(_) | Op::AnyOf(_) | Op::OneOf(_) | Op::Not(_) | Op::If { .. } => {
            OnKind::Runs(op.clone())
        }
        Op::Items { .. } | Op::PrefixItems(_) => only(Kind::Array),
        Op::Properties(_) | Op::Property(_) | Op::Lookups(_) | Op::Closed(_) | Op::Object(_) => {
            only(Kind::Object)
        }
        Op::Check { index, .. } => match node.checks.get(*index).map(|c| &c.kind) {
            Some(CheckKind::False) => OnKind::Fails,
            Some(check) => match Kind::only_read_by(check) {
                Some(of) => only(of),
                None => OnKind::Runs(op.clone()),
            },
            None => OnKind::Passes,
        },
    }
}

impl NodePlan {
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
            .as_ref()
            .filter(|(at, _)| *at == index)
            .map(|(_, names)| names)
    }

    /// The discriminator of check `index`, if it has one.
    pub(super) fn discriminator(&self, index: usize) -> Option<&Discriminator> {
        at_check(&self.discriminators, index)
    }

    /// The planned `required` check `index` ([`NodePlan::required`]), if it is one.
    pub(super) fn required(&self, index: usize) -> Option<&Required> {
        at_check(&self.required, index)
    }

    /// The member tables of check `index`, if it has them.
    pub(super) fn enum_table(&self, index: usize) -> Option<&EnumTable> {
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

/// A `properties` check's entries, with their indices sorted by name when known.
pub(super) type PropertiesRef<'p> = (&'p [(String, Edge)], Option<&'p PropertyIndex>);

/// The object applicators one pass over an object runs.
#[derive(Clone, Copy)]
pub(super) struct ObjectPass<'p> {
    /// `properties`, with its entries' indices sorted by name when known.
    pub(super) properties: Option<PropertiesRef<'p>>,
    /// `patternProperties`.
    pub(super) patterns: Option<&'p [(RegexId, Edge)]>,
    /// `patternProperties`' prefilter, when it has one.
    pub(super) pattern_set: Option<&'p PatternSet>,
    /// `additionalProperties`: its schema, names and patterns.
    pub(super) additional: Option<(&'p Edge, &'p [String], &'p [RegexId])>,
    /// The prefilter of `additionalProperties`' patterns, when it has one.
    pub(super) additional_set: Option<&'p PatternSet>,
    /// Whether `additional`'s names and patterns are exactly the sibling ones above, so
    /// that "covered by a sibling" is already known.
    pub(super) fused: bool,
    /// What `patterns` do at each `properties` name ([`ObjectOp::named`]; none when the
    /// pass is borrowed from the node and its plan).
    pub(super) named: &'p [NamedPatterns],
}

/// The pass over an object's properties that check `index` of `node` (an object
/// applicator) runs: the fused applicators at the first of them (`None` at the others,
/// which ran with it), else the check alone.
#[inline(always)]
pub(super) fn object_pass_at<'p>(
    node: &'p Node,
    plan: &'p NodePlan,
    index: usize,
) -> Option<ObjectPass<'p>> {
    let kind = |i: usize| node.checks.get(i).map(|c| &c.kind);
    let properties_at = |i: usize| match kind(i) {
        Some(CheckKind::Properties(entries)) => {
            Some((entries.as_slice(), plan.properties_index(i)))
        }
        _ => None,
    };
    let patterns_at = |i: usize| match kind(i) {
        Some(CheckKind::PatternProperties(entries)) => Some(entries.as_slice()),
        _ => None,
    };
    let additional_at = |i: usize| match kind(i) {
        Some(CheckKind::AdditionalProperties {
            schema,
            known,
            patterns,
        }) => Some((schema, known.as_slice(), patterns.as_slice())),
        _ => None,
    };
    let (properties, patterns, additional, fused) = match &plan.object {
        Some(fused) if fused.first != index => return None,
        Some(fused) => (fused.properties, fused.patterns, fused.additional, true),
        None => match kind(index) {
            Some(CheckKind::Properties(_)) => (Some(index), None, None, false),
            Some(CheckKind::PatternProperties(_)) => (None, Some(index), None, false),
            _ => (None, None, Some(index), false),
        },
    };
    Some(ObjectPass {
        properties: properties.and_then(properties_at),
        patterns: patterns.and_then(patterns_at),
        pattern_set: patterns.and_then(|i| plan.pattern_set(i)),
        additional: additional.and_then(additional_at),
        additional_set: additional.and_then(|i| plan.pattern_set(i)),
        fused,
        named: &[],
    })
}

impl PropertiesOp {
    /// The entries and their index, borrowed as a pass reads them.
    pub(super) fn borrowed(&self) -> PropertiesRef<'_> {
        (&self.entries, self.index.as_ref())
    }
}

impl Op {
    /// The op that runs `pass` (of `program`, every node planned `plans`): [`Op::Closed`]
    /// when `additionalProperties`, if there, applies to exactly the keys that no
    /// `properties` name, else [`Op::Object`].
    pub(super) fn of_pass(pass: ObjectPass<'_>, (program, plans): (&Program, &[NodePlan])) -> Op {
        match (pass.properties, pass.patterns, pass.additional) {
            (Some((entries, index)), None, Some((edge, _, _))) if pass.fused => {
                let target = edge.target;
                Op::Closed(Box::new(ClosedOp {
                    properties: PropertiesOp {
                        entries: entries.into(),
                        index: index.cloned(),
                    },
                    additional: Some((target, plans[target.0].loop_cost)),
                    required: None,
                }))
            }
            _ => Op::Object(Box::new(ObjectOp::of(pass, (program, plans)))),
        }
    }
}

impl ObjectOp {
    /// The op that runs `pass` (of `program`, every node planned `plans`), copying what it
    /// borrows, with what its patterns do at each `properties` name.
    fn of(pass: ObjectPass<'_>, (program, plans): (&Program, &[NodePlan])) -> ObjectOp {
        let named = match (pass.properties, pass.patterns) {
            (Some((entries, _)), Some(patterns)) => (entries.iter())
                .map(|(name, _)| {
                    named_patterns((program, plans), (patterns, pass.pattern_set), name)
                })
                .collect::<Option<_>>()
                .unwrap_or_default(),
            _ => Box::default(),
        };
        ObjectOp {
            properties: pass.properties.map(|(entries, index)| PropertiesOp {
                entries: entries.into(),
                index: index.cloned(),
            }),
            patterns: pass.patterns.map(Into::into),
            pattern_set: pass.pattern_set.cloned(),
            additional: (pass.additional)
                .map(|(edge, known, patterns)| (edge.clone(), known.into(), patterns.into())),
            additional_set: pass.additional_set.cloned(),
            fused: pass.fused,
            named,
        }
    }

    /// The pass the op runs.
    pub(super) fn pass(&self) -> ObjectPass<'_> {
        ObjectPass {
            properties: self.properties.as_ref().map(PropertiesOp::borrowed),
            patterns: self.patterns.as_deref(),
            pattern_set: self.pattern_set.as_ref(),
            additional: (self.additional.as_ref())
                .map(|(edge, known, patterns)| (edge, &known[..], &patterns[..])),
            additional_set: self.additional_set.as_ref(),
            fused: self.fused,
            named: &self.named,
        }
    }
}

/// The object applicators of a node, run together at the first of them.
#[derive(Debug)]
pub(super) struct ObjectPlan {
    /// Index of the first of the fused checks: the pass runs there, the others are skipped.
    pub(super) first: usize,
    /// Index of the `properties` check.
    pub(super) properties: Option<usize>,
    /// Index of the `patternProperties` check.
    pub(super) patterns: Option<usize>,
    /// Index of the `additionalProperties` check.
    pub(super) additional: Option<usize>,
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
            out.quick = !out.collects && !program.uses_dynamic_scope;
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
    let mut fast: Vec<(Fast, ByKind<Op>)> = (program.nodes.iter().zip(&plans))
        .enumerate()
        .map(|(i, (node, plan))| {
            if plan.always_valid {
                return (Fast::Valid, ByKind::default());
            }
            if let Some(types) = plan.only_type {
                return (Fast::Type(types), ByKind::default());
            }
            if !plan.quick {
                return (Fast::Enter, ByKind::default());
            }
            let mut ops = Vec::new();
            for index in 0..node.checks.len() {
                push_ops(&mut ops, (program, &plans), (NodeId(i), node, plan), index);
            }
            let lanes = ByKind::split(&ops, |op, kind| op_on_kind(node, op, kind));
            if plan.out_of_line {
                return (Fast::Enter, lanes);
            }
            (Fast::Ops(lanes), ByKind::default())
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
    for id in 0..fast.len() {
        splice_node(&mut fast, &mut spliced, id);
    }
    for (plan, (fast, ops)) in plans.iter_mut().zip(fast) {
        let fast = match fast {
            Fast::Ops(lanes) => Fast::Ops(lanes.with_required_folded(&program.nodes)),
            fast => fast,
        };
        plan.fast = fast.simplified();
        plan.ops = ops.with_required_folded(&program.nodes);
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
        let edges = match &check.kind {
            CheckKind::Ref(edge) => std::slice::from_ref(edge),
            CheckKind::AllOf(edges) => edges.as_slice(),
            _ => {
                steps.push(Flat::Check(id, index));
                continue;
            }
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
    let mut memo = vec![None; plans.len()];
    for id in 0..plans.len() {
        evaluated_by_name(program, &table, NodeId(id), &mut memo);
    }
    for ((node, plan), evaluates) in program.nodes.iter().zip(plans.iter_mut()).zip(memo) {
        if !plan.collect_properties {
            continue;
        }
        if let Some((at, _)) = plan.property_index {
            if let Some(CheckKind::Properties(entries)) = node.checks.get(at).map(|c| &c.kind) {
                let names = entries.iter().map(|(name, _)| name.as_str());
                plan.property_names = Some(table.set(names));
            }
        }
        if plan.has_unevaluated {
            plan.name_table = Some(Arc::clone(&table));
        } else if !plan.collect_items {
            plan.evaluates = evaluates.flatten();
            plan.quick = plan.evaluates.is_some();
        }
    }
}

/// The names (by id in `table`) whose properties a valid evaluation of node `id`
/// evaluates, when that is all it evaluates whatever the instance: it collects
/// evaluated properties, not items, and its checks evaluate properties only by their
/// `properties` and by `$ref` and `allOf` targets of the same kind (`not` evaluates
/// nothing; no other in-place applicator, no `patternProperties`,
/// `additionalProperties` or `unevaluated*`). `memo` holds each node's answer once
/// found (`None` while it is being found: a cycle is no such node).
fn evaluated_by_name(
    program: &Program,
    table: &NameTable,
    id: NodeId,
    memo: &mut [Option<Option<Bits>>],
) -> Option<Bits> {
    if let Some(found) = &memo[id.0] {
        return found.clone();
    }
    memo[id.0] = Some(None);
    let node = &program.nodes[id.0];
    let mut names = Bits::new();
    let mut by_name = node.collect.properties && !node.collect.items;
    for check in &node.checks {
        if !by_name {
            break;
        }
        match &check.kind {
            CheckKind::Properties(entries) => {
                names.merge(&table.set(entries.iter().map(|(name, _)| name.as_str())));
            }
            CheckKind::Ref(_) | CheckKind::AllOf(_) => {
                for edge in check.kind.edges() {
                    match evaluated_by_name(program, table, edge.target, memo) {
                        Some(theirs) => names.merge(&theirs),
                        None => by_name = false,
                    }
                }
            }
            CheckKind::Not(_) => {}
            CheckKind::PatternProperties(_)
            | CheckKind::AdditionalProperties { .. }
            | CheckKind::UnevaluatedProperties(_)
            | CheckKind::UnevaluatedItems(_) => by_name = false,
            kind => by_name = !kind.is_in_place(),
        }
    }
    let found = by_name.then_some(names);
    memo[id.0] = Some(found.clone());
    found
}

impl ByKind<Op> {
    /// The same lanes, each `required` that an [`Op::Closed`] after it in the object lane
    /// can run folded into it ([`fold_required`]).
    fn with_required_folded(mut self, nodes: &[Node]) -> ByKind<Op> {
        fold_required(&mut self.lanes[Kind::Object as usize].steps, nodes);
        self
    }
}

/// Folds into each [`Op::Closed`] of an object lane the nearest `required` before it
/// that it can run ([`FoldedRequired::new`]), when between them stand only steps that
/// read the object without applying or charging anything: short-circuit evaluation
/// may run such steps in any order. A `properties` alone that takes none is left an
/// [`Op::Properties`], or an [`Op::Property`] when it has one entry; consecutive
/// [`Op::Property`] steps become one [`Op::Lookups`] ([`merge_lookups`]).
fn fold_required(steps: &mut Box<[Op]>, nodes: &[Node]) {
    let mut lane = std::mem::take(steps).into_vec();
    let mut at = 0;
    while at < lane.len() {
        let folded = match &lane[at] {
            Op::Closed(closed) if closed.required.is_none() => (0..at)
                .rev()
                .take_while(|&before| only_reads(&lane[before], nodes))
                .find_map(|before| match &lane[before] {
                    Op::Simple(Simple::Required(required)) => {
                        FoldedRequired::new(required, &closed.properties.entries)
                            .map(|folded| (before, folded))
                    }
                    _ => None,
                }),
            _ => None,
        };
        if let Some((before, folded)) = folded {
            lane.remove(before);
            at -= 1;
            if let Op::Closed(closed) = &mut lane[at] {
                closed.required = Some(Box::new(folded));
            }
        }
        at += 1;
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
    *steps = merge_lookups(lane.into_iter().map(alone));
}

/// `lane` with each run of consecutive [`Op::Property`] steps whose names are distinct
/// (at least two) made one [`Op::Lookups`]: the same schemas applied in the same order,
/// each name found in one pass over the keys instead of a lookup per name.
fn merge_lookups(lane: impl Iterator<Item = Op>) -> Box<[Op]> {
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
fn only_reads(op: &Op, nodes: &[Node]) -> bool {
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
fn splice_node(fast: &mut [(Fast, ByKind<Op>)], spliced: &mut [bool], id: usize) {
    if std::mem::replace(&mut spliced[id], true) {
        return;
    }
    crate::work::add(1);
    let applied: Vec<usize> = (fast[id].0.ops().into_iter())
        .chain([&fast[id].1])
        .flat_map(|lanes| lanes.lanes.iter())
        .flat_map(|lane| lane.steps.iter())
        .flat_map(|op| match op {
            Op::Apply(target) | Op::Not(target) => vec![*target],
            Op::AnyOf(branches) | Op::OneOf(branches) => branches.targets.to_vec(),
            Op::If {
                condition,
                then,
                otherwise,
            } => [Some(*condition), *then, *otherwise]
                .into_iter()
                .flatten()
                .collect(),
            _ => Vec::new(),
        })
        .map(|target| target.0)
        .collect();
    for target in applied {
        splice_node(fast, spliced, target);
    }
    let splice = |lanes: &ByKind<Op>| ByKind {
        lanes: Kind::ALL.map(|kind| {
            let lane = lanes.lane(kind);
            let mut steps = Vec::new();
            for op in lane.steps.iter() {
                let op = match narrow(op, kind, fast) {
                    OnKind::Passes => continue,
                    OnKind::Runs(op) => op,
                    OnKind::Fails => {
                        return Lane {
                            steps: steps.into_boxed_slice(),
                            fails: true,
                        }
                    }
                };
                let inner = match &op {
                    Op::Apply(target) => fast[target.0].0.inline_lane(kind),
                    _ => None,
                };
                match inner {
                    Some(inner) if steps.len() + inner.steps.len() <= MAX_SPLICED => {
                        steps.extend(inner.steps.into_vec());
                        if inner.fails {
                            return Lane {
                                steps: steps.into_boxed_slice(),
                                fails: true,
                            };
                        }
                    }
                    _ => steps.push(op),
                }
            }
            Lane {
                steps: steps.into_boxed_slice(),
                fails: lane.fails,
            }
        }),
    };
    let fast_lanes = fast[id].0.ops().map(splice);
    let ops = splice(&fast[id].1);
    if let Some(lanes) = fast_lanes {
        fast[id].0 = Fast::Ops(lanes);
    }
    fast[id].1 = ops;
}

/// What `op` does on instances of `kind`, given the inline nodes' evaluations (`fast`),
/// where a node is decided when its lane of the kind has no step (so that evaluating it
/// charges nothing): a `not` of a decided node passes or fails, an `if` whose condition
/// is decided applies its branch; an `anyOf` / `oneOf` leaves out each branch decided
/// invalid and, for `anyOf`, the branches after one decided valid that every tag admits
/// (it passes where that branch comes first); with no branch left it fails, with one
/// that every tag admits it applies it. Any other step runs as it is.
fn narrow(op: &Op, kind: Kind, fast: &[(Fast, ByKind<Op>)]) -> OnKind<Op> {
    // Whether the node is decided on the kind: valid or not.
    let decided = |target: NodeId| {
        let lane = fast[target.0].0.inline_lane(kind)?;
        lane.steps.is_empty().then_some(!lane.fails)
    };
    let branches = match op {
        Op::AnyOf(branches) | Op::OneOf(branches) => branches,
        Op::Not(target) => {
            return match decided(*target) {
                Some(true) => OnKind::Fails,
                Some(false) => OnKind::Passes,
                None => OnKind::Runs(op.clone()),
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
                None => OnKind::Runs(op.clone()),
            }
        }
        _ => return OnKind::Runs(op.clone()),
    };
    let any = matches!(op, Op::AnyOf(_));
    let discriminator = (branches.discriminator.as_ref()).filter(|_| kind == Kind::Object);
    let admits_all = |i: usize| discriminator.is_none_or(|d| d.branches[i].admits_all());
    let mut kept = Vec::new();
    for (i, &target) in branches.targets.iter().enumerate() {
        match decided(target) {
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
            discriminator: discriminator.map(|d| Discriminator {
                property: d.property.clone(),
                branches: kept.iter().map(|&i| d.branches[i].clone()).collect(),
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
    fn ops(&self) -> Option<&ByKind<Op>> {
        match self {
            Fast::Ops(lanes) => Some(lanes),
            _ => None,
        }
    }

    /// The steps short-circuit evaluation runs for the inline node evaluated so on an
    /// instance of `kind`, as [`Op`]s: its lane, or its type test (`None` for a node
    /// that is entered).
    fn inline_lane(&self, kind: Kind) -> Option<Lane<Op>> {
        match self {
            Fast::Ops(lanes) => {
                let lane = lanes.lane(kind);
                Some(Lane {
                    steps: lane.steps.clone(),
                    fails: lane.fails,
                })
            }
            Fast::Type(types) => Some(match simple_on_kind(&Simple::Type(*types), kind) {
                OnKind::Passes => Lane::default(),
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
    fn simplified(self) -> Fast {
        let Fast::Ops(lanes) = self else {
            return self;
        };
        let simple = |op: &Op| match op {
            Op::Simple(simple) => Some(simple.clone()),
            _ => None,
        };
        let all_simple =
            (lanes.lanes.iter()).all(|lane| lane.steps.iter().all(|op| simple(op).is_some()));
        if !all_simple {
            return Fast::Ops(lanes);
        }
        let lanes = lanes.lanes.map(|lane| Lane {
            steps: lane.steps.iter().filter_map(simple).collect(),
            fails: lane.fails,
        });
        Fast::Simple(ByKind { lanes }.fold_item_counts())
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

/// How a node planned `plan` is decided on an instance at once, when it is: not at all
/// (`Some(None)`, always valid) or by a type test.
fn at_once(plan: &NodePlan) -> Option<Option<TypeSet>> {
    (plan.always_valid || plan.only_type.is_some()).then_some(plan.only_type)
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
    match kind {
        CheckKind::Ref(edge) => ops.extend(Some(edge.target).filter(applies).map(Op::Apply)),
        CheckKind::AllOf(edges) => {
            ops.extend(
                edges
                    .iter()
                    .map(|e| e.target)
                    .filter(applies)
                    .map(Op::Apply),
            );
        }
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
        CheckKind::Properties(entries) if plan.object.is_none() => {
            ops.push(Op::Closed(Box::new(ClosedOp {
                properties: PropertiesOp {
                    entries: entries.clone().into_boxed_slice(),
                    index: plan.properties_index(index).cloned(),
                },
                additional: None,
                required: None,
            })));
        }
        CheckKind::Properties(_)
        | CheckKind::PatternProperties(_)
        | CheckKind::AdditionalProperties { .. } => {
            // A fused check runs with the first of them (no pass at the others).
            if let Some(pass) = object_pass_at(node, plan, index) {
                ops.push(Op::of_pass(pass, (program, plans)));
            }
        }
        _ => ops.push(Op::Check { node: id, index }),
    }
}

/// The [`Simple`] op of a check of kind `kind`, if it is one, given every node's plan
/// (but their [`NodePlan::fast`]).
fn simple(plans: &[NodePlan], kind: &CheckKind) -> Option<Simple> {
    Some(match kind {
        CheckKind::Type(types) => Simple::Type(*types),
        CheckKind::MinItems(limit) => Simple::MinItems(*limit),
        CheckKind::MaxItems(limit) => Simple::MaxItems(*limit),
        CheckKind::Required(names) => Simple::Required(Box::new(Required::new(names))),
        CheckKind::MinLength(limit) => Simple::MinLength(*limit),
        CheckKind::MaxLength(limit) => Simple::MaxLength(*limit),
        CheckKind::Const(value) => Simple::Const(Box::new(value.clone())),
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

fn plan_node(shared: &Plan, id: NodeId, node: &Node) -> NodePlan {
    let program = &shared.program;
    let mut out = NodePlan {
        collect_properties: node.collect.properties,
        collect_items: node.collect.items,
        discriminators: (0..node.checks.len())
            .filter_map(|i| shared.discriminator(id, i).map(|d| (i, d.clone())))
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
        if let CheckKind::Enum(values) = &check.kind {
            if let Some(table) = EnumTable::new(values) {
                out.enum_tables.push((i, table));
            }
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
    let mut properties = Vec::new();
    let mut patterns = Vec::new();
    let mut additional = Vec::new();
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
            CheckKind::Properties(entries) => {
                if properties.is_empty() {
                    let names = entries.iter().map(|(name, _)| name.as_str());
                    out.property_index = Some((i, PropertyIndex::new(names)));
                }
                properties.push(i);
            }
            CheckKind::PatternProperties(_) => patterns.push(i),
            CheckKind::AdditionalProperties { .. } => additional.push(i),
            _ => {}
        }
    }
    // Fuse only the shape every front end produces: at most one of each, with
    // `additionalProperties` naming exactly its siblings. Anything else runs check by check.
    if properties.len() > 1 || patterns.len() > 1 || additional.len() > 1 {
        return out;
    }
    if patterns.is_empty() && additional.is_empty() {
        return out;
    }
    if let Some(&a) = additional.first() {
        let CheckKind::AdditionalProperties {
            known,
            patterns: ids,
            ..
        } = &node.checks[a].kind
        else {
            return out;
        };
        let mut sibling_names: Vec<&str> = match properties.first() {
            Some(&p) => match &node.checks[p].kind {
                CheckKind::Properties(entries) => entries.iter().map(|(n, _)| n.as_str()).collect(),
                _ => return out,
            },
            None => Vec::new(),
        };
        let mut known_names: Vec<&str> = known.iter().map(String::as_str).collect();
        sibling_names.sort_unstable();
        sibling_names.dedup();
        known_names.sort_unstable();
        known_names.dedup();
        let sibling_ids: Vec<_> = match patterns.first() {
            Some(&p) => match &node.checks[p].kind {
                CheckKind::PatternProperties(entries) => {
                    entries.iter().map(|(id, _)| *id).collect()
                }
                _ => return out,
            },
            None => Vec::new(),
        };
        let mut own_ids = ids.clone();
        let mut sibling_ids = sibling_ids;
        own_ids.sort_unstable();
        own_ids.dedup();
        sibling_ids.sort_unstable();
        sibling_ids.dedup();
        if sibling_names != known_names || sibling_ids != own_ids {
            return out;
        }
    }
    let first = properties
        .iter()
        .chain(&patterns)
        .chain(&additional)
        .copied()
        .min();
    if let Some(first) = first {
        out.object = Some(ObjectPlan {
            first,
            properties: properties.first().copied(),
            patterns: patterns.first().copied(),
            additional: additional.first().copied(),
        });
    }
    out
}

/// The [`NamedPatterns`] of the `properties` name `name`: `patterns` (prefiltered by
/// `set` when it has one) run at it as the interpreter's object pass runs them (in
/// `program`, its nodes planned `plans`), their charges recorded; `None` if they stop.
fn named_patterns(
    (program, plans): (&Program, &[NodePlan]),
    (patterns, set): (&[(RegexId, Edge)], Option<&PatternSet>),
    name: &str,
) -> Option<NamedPatterns> {
    let limits = Limits {
        budget: u64::MAX,
        ..Limits::DEFAULT
    };
    let mut cx = Ctx::checking(&limits);
    let indices: Vec<usize> = match set {
        None => (0..patterns.len()).collect(),
        Some(set) => (cx.candidates(set, name).ok()?)
            .map(|i| i as usize)
            .collect(),
    };
    let (mut left, mut charges, mut matches) = (u64::MAX, Vec::new(), Vec::new());
    let mut spent = |cx: &Ctx| {
        let now = cx.state.budget().remaining();
        std::mem::replace(&mut left, now) - now
    };
    for i in indices {
        let Some((id, edge)) = patterns.get(i) else {
            continue;
        };
        let loop_cost = plans[edge.target.0].loop_cost;
        if pattern_applies(&mut cx, program, (*id, loop_cost), name).ok()? {
            charges.push(spent(&cx));
            matches.push(i);
        }
    }
    charges.push(spent(&cx));
    Some(NamedPatterns {
        lead: charges[0],
        matches: matches
            .into_iter()
            .zip(charges[1..].iter().copied())
            .collect(),
    })
}
