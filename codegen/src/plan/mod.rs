//! The plan: what both backends follow. Takes a lowered, analysed [`Program`]; gives a
//! [`Plan`] — the same program rewritten for evaluation, plus per-node decisions — so that
//! the interpreter and the Rust backend evaluate the same checks in the same order and
//! charge the budget at the same points by construction.
//!
//! The rewrites (each keeps the program's meaning, error locations included):
//!
//! 1. **Static `$dynamicRef`.** A `$dynamicRef` whose anchor only one resource declares
//!    always lands on its static target (the outermost resource declaring the anchor can
//!    only be that one), and one whose anchor the root's resource declares always lands
//!    there (the root's resource is the outermost of every scope), so it becomes a plain
//!    reference; a program left without dynamic references keeps no dynamic scope.
//! 2. **Reference wrappers.** An edge to a node whose only check is a reference goes
//!    straight to the reference's target; the edge's keyword path keeps the `/$ref` step.
//!    (Under a dynamic scope, only when the target is in the wrapper's resource.)
//! 3. **Check order.** Cheap assertions first (type, bounds, `required`), then costlier
//!    assertions (patterns, formats, `uniqueItems`), then applicators by estimated
//!    [`NodePlan::weight`], lightest first; `unevaluated*` stay last. The applicators
//!    that loop over the object's keys ([`in_object_pass`]) stand together, at the
//!    lightest one's place, and a `required` beside them right after them: their one loop
//!    finds its names, and it is decided once the loop is done. An
//!    `unevaluatedProperties` that the node's own names decide
//!    ([`object_pass::unevaluated_in_pass`]) joins them, last: the loop decides it on
//!    each key (as `additionalProperties`). `properties` entries
//!    and `allOf` members are ordered lightest first too, and [`Plan::is_deferred`]
//!    entries — recursive or heavy subschemas — are evaluated after every other property
//!    of the object.
//!
//! The decisions, per node ([`NodePlan`]):
//!
//! - **Discriminators.** An `anyOf` / `oneOf` whose branches restrict one property to
//!   string literals reads that property once and evaluates only the branches that admit
//!   its value ([`Plan::discriminator`], `discriminate`).
//! - **Sharing.** Structurally identical nodes (same checks, same targets up to sharing)
//!   form one class; short-circuit evaluation uses the class's [`NodePlan::canonical`]
//!   node. Error-collecting evaluation shares finer classes, whose members also agree on
//!   keyword paths and on the locations they cannot derive from where they are
//!   ([`Plan::error_representative`]): a child's absolute location is its parent's
//!   followed by the edge's path, unless it is a `$ref` target, whose location is set.
//! - **Out of line or inline.** A node is evaluated out of line — its own function in
//!   generated code, a budget charge point and one level of depth — when it is the root,
//!   on a cycle (unless it is reached from one place and inlining it closes no cycle of
//!   inline nodes nor raises the stack a region counts by more than a little: every
//!   cycle passes through an out-of-line node), reached from more than one place (unless
//!   its tree is small), a possible `$dynamicRef` target, a resource root under a dynamic
//!   scope, or nested too deeply in inline code. Every other node is inlined into its
//!   user (or users).
//! - **Budget, charged in bulk.** Entering an out-of-line node charges its
//!   [`NodePlan::entry_cost`]: one unit for itself (and one per custom keyword it
//!   calls) and for every inline node it applies
//!   at most once per evaluation (in-place applicators, `properties`, `prefixItems`),
//!   recursively — none for a constant node (`true`, `false`, `{}`: no evaluation, so a
//!   loop applying only constants, such as `additionalProperties: false`, charges
//!   nothing). A loop over an object's properties or an array's items charges, before
//!   it starts, the element count times the [`Plan::loop_cost`] of the children it
//!   applies per element (inline ones; out-of-line children charge on their own entry);
//!   a `patternProperties` child is charged when its pattern matches a key, since a key
//!   usually matches few of many patterns. So every node evaluation is paid for, at most
//!   once per loop element, and no input can run longer than the budget allows —
//!   exponential `anyOf` / `$ref` fan-out included, since every cycle passes through an
//!   out-of-line node.
//! - **Depth.** Entering an out-of-line node is one level of nesting, and one level in
//!   place when the node is on a cycle ([`NodePlan::recursive`]); applying
//!   a node to a child instance (an item, a property value, a property name) is one step
//!   into the instance when the child's evaluation may enter an out-of-line node
//!   ([`NodePlan::steps`]), and no step otherwise (it cannot recur). Both backends bound
//!   the three counts of [`schemac_runtime::Limits`]: instance depth, nesting without a
//!   step (cycles that make no progress), and nesting in all (the stack guard).
//! - **Lookups instead of scans** ([`lookup`]): a large `enum` is looked up in sorted
//!   tables, a long pattern list goes through a prefilter; both charge the budget, alike
//!   in both backends.

pub mod absorb;
mod discriminate;
pub mod evaluated;
pub mod explain;
mod graph;
mod partition;
mod shape;

pub use discriminate::{Admits, Discriminator};
use graph::Graph;
pub mod lookup;
pub mod messages;
pub mod object_pass;
pub mod thresholds;

use crate::ir::kind::{Kind, TypeTest};
use crate::ir::{Applies, CheckKind, Edge, NodeId, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Estimated weight from which a node counts as heavy; also the weight of a recursive node.
pub const HEAVY: u32 = 10_000;

/// A `properties` entry whose subschema weighs at least this is deferred (see
/// [`Plan::is_deferred`]). Deferring costs every object a slot, set and read whether the
/// property is there or not, and pays off only on an instance that a cheaper property
/// fails, so only subschemas whose evaluation dwarfs the slot are deferred: measured
/// over the benchmark's 27 workloads, a threshold of 64 cost valid instances up to 9%
/// more instructions than 1000, and deferring only recursive subschemas cost an
/// instance failed by a cheap property after a heavy one 50% more.
pub const DEFERRED_WEIGHT: u32 = 1000;

/// A node reached from several places is still inlined into each when its tree has at
/// most this many checks (see [`inline_sizes`]): a call would cost more than the copy.
const SMALL_INLINE: u32 = 6;

/// Nodes nested deeper than this in inline code become out of line (bounds the stack
/// used between two depth checks).
const MAX_INLINE_NESTING: u32 = 12;

/// A planned program.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The program, rewritten (see the module documentation).
    pub program: Program,
    /// Per node, by [`NodeId`].
    pub nodes: Vec<NodePlan>,
    /// Per node, its [`Plan::error_representative`]: computed on first use (only the
    /// error-collecting functions of generated code need it, never the interpreter).
    error_functions: std::sync::OnceLock<Vec<NodeId>>,
    /// The `anyOf` / `oneOf` checks that have a [`Discriminator`], by (node, check index).
    discriminators: BTreeMap<(NodeId, usize), Discriminator>,
    /// No evaluation can reach a depth bound under the program's limits: the schema has
    /// no cycle, and its deepest chain of out-of-line nodes nests at most
    /// [`schemac_runtime::Limits::unmeasured_nesting`] (where the stack guard would measure
    /// nothing either: past it frames larger than the units count could overflow the
    /// stack uncounted) and steps into the instance at most
    /// [`schemac_runtime::Limits::max_depth`] times. Generated code then counts neither:
    /// an out-of-line node only charges the budget, and a call is no step.
    pub depth_free: bool,
    /// Whether [`Plan::absorption`] may absorb `if`s: not in a program whose
    /// `$dynamicRef`s only the root rule of `resolve_static_dynamic_refs` made static.
    /// Such a program kept its dynamic scope before that rule, and absorbed nothing;
    /// absorbed `if`s are evaluated in plan order by the interpreter and conditions first
    /// by generated code, which spend alike on every case of the corpora but not on every
    /// instance (issue 36: the interpreter does not render them yet), so the rule does
    /// not extend them to programs that had none.
    pub absorbs_ifs: bool,
}

/// What the plan decided about one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodePlan {
    /// The node that stands for this one's class in short-circuit evaluation (the
    /// smallest id among structurally identical nodes).
    pub canonical: NodeId,
    /// Evaluated out of line: a function, a budget charge point, a depth level.
    pub out_of_line: bool,
    /// What entering the node counts against [`schemac_runtime::Limits::max_nesting`]
    /// when it is out of line: the stack its region may use, as the most `frame_units`
    /// along a chain of inline nodes from it (inline nodes evaluate inside its region).
    pub height: u32,
    /// Out of line and on a cycle of the (shared) schema graph: entering it is also a
    /// level of nesting in place, bounded by [`schemac_runtime::Limits::max_in_place`]
    /// until a step into the instance.
    pub recursive: bool,
    /// Budget units charged on entering the node when it is out of line (see the module
    /// documentation); for an inline node, what it adds to its region.
    pub entry_cost: u64,
    /// Estimated cost of evaluating the node (saturates at [`HEAVY`]; recursive nodes
    /// weigh [`HEAVY`]).
    pub weight: u32,
    /// The node's verdict when it does not depend on the instance: `Some(true)` for a
    /// node without checks nor annotations (`{}`, `true`), `Some(false)` for one with a
    /// `false` check.
    /// Short-circuit evaluation need not apply such a node at all.
    pub constant: Option<bool>,
    /// Whether evaluating the node may enter an out-of-line node (it is one, or an inline
    /// node below it is): applying it to a child instance is then a step into the
    /// instance, counted against [`schemac_runtime::Limits::max_depth`].
    pub steps: bool,
}

impl Plan {
    /// Plans `program` (lowered and analysed).
    pub fn new(mut program: Program) -> Plan {
        let rooted = resolve_static_dynamic_refs(&mut program);
        collapse_reference_wrappers(&mut program);
        // Reordering checks keeps every edge, so the cycles found here stay true.
        let recursive = Graph::new(&program, &|id| id).on_cycles();
        let weights = weights(&program, &recursive);
        order_checks(&mut program, &weights);
        let canonical = share(&program, Sharing::Verdicts);
        let graph = Graph::new(&program, &|id| canonical[id.0]);
        let acyclic = !recursive.contains(&true);
        let nodes = decide(&program, &canonical, (&graph, acyclic), &weights);
        let discriminators = discriminate::discriminators(&program);
        let depth_free = depth_free(&program, &graph, &nodes);
        Plan {
            program,
            nodes,
            error_functions: std::sync::OnceLock::new(),
            discriminators,
            depth_free,
            absorbs_ifs: !rooted,
        }
    }

    /// The node whose error-collecting evaluation stands for `id`'s: structurally
    /// identical nodes whose error locations differ only by where they are share it (see
    /// `Sharing::Errors`).
    pub fn error_representative(&self, id: NodeId) -> NodeId {
        self.error_functions
            .get_or_init(|| share(&self.program, Sharing::Errors))[id.0]
    }

    /// The discriminator of check `index` of node `id` (an `anyOf` / `oneOf`), if it has
    /// one: only the branches that admit the instance's tag need to be evaluated.
    pub fn discriminator(&self, id: NodeId, index: usize) -> Option<&Discriminator> {
        self.discriminators.get(&(id, index))
    }

    /// The plan of node `id` (its class's decisions).
    pub fn node(&self, id: NodeId) -> &NodePlan {
        &self.nodes[self.nodes[id.0].canonical.0]
    }

    /// The budget units a loop charges per element for applying `targets` to it: the
    /// region cost of each inline target; an out-of-line one charges on its own entry.
    pub fn loop_cost(&self, targets: &[NodeId]) -> u64 {
        targets
            .iter()
            .map(|&t| self.node(t))
            .filter(|plan| !plan.out_of_line)
            .map(|plan| plan.entry_cost)
            .fold(0, u64::saturating_add)
    }

    /// Whether an `anyOf` / `oneOf` branch applying node `target` fails at once on an
    /// instance of `kind`: the node's first check is a `type` that no instance of the kind
    /// passes. Short-circuit evaluation does not apply such a branch to such an instance
    /// in either backend: no call, and nothing charged where the node is out of line
    /// (issue 40's fifth pattern, a `$ref` branch whose type rules the instance out).
    pub fn ruled_out(&self, target: NodeId, kind: Kind) -> bool {
        matches!(
            self.program.node(target).checks.first().map(|c| &c.kind),
            Some(CheckKind::Type(types)) if matches!(kind.type_test(*types), TypeTest::Fail)
        )
    }

    /// Whether a `properties` entry applying `target` is evaluated after the object's
    /// other properties (by name lookup), because it is recursive or heavy.
    pub fn is_deferred(&self, target: NodeId) -> bool {
        self.node(target).weight >= DEFERRED_WEIGHT
    }
}

/// Rewrite 1: `$dynamicRef`s that land in one place whatever the dynamic scope holds
/// become static: to an anchor that one resource declares, or one that the root's
/// resource declares. (Evaluation enters the root's resource first, so it is the
/// outermost of every dynamic scope: a reference to an anchor it declares always lands on
/// its — the 2020-12 meta-schema's `#meta`, which every vocabulary declares again.)
/// Whether the root's anchors made any static that the one-resource rule did not.
fn resolve_static_dynamic_refs(program: &mut Program) -> bool {
    let mut rooted = false;
    let mut declaring: BTreeMap<String, usize> = BTreeMap::new();
    for resource in &program.resources {
        for name in resource.dynamic_anchors.keys() {
            *declaring.entry(name.clone()).or_default() += 1;
        }
    }
    let root_resource = program.node(program.root).resource;
    let in_root = program
        .resources
        .get(root_resource.0)
        .map(|r| r.dynamic_anchors.clone())
        .unwrap_or_default();
    for node in &mut program.nodes {
        for check in &mut node.checks {
            let CheckKind::DynamicRef { fallback, anchor } = &mut check.kind else {
                continue;
            };
            let Some(name) = anchor.as_deref() else {
                continue;
            };
            if declaring.get(name).copied().unwrap_or(0) <= 1 {
                *anchor = None;
            } else if let Some(&target) = in_root.get(name) {
                fallback.target = target;
                *anchor = None;
                rooted = true;
            }
        }
    }
    program.uses_dynamic_scope = program.nodes.iter().any(|n| {
        n.checks.iter().any(|c| {
            matches!(
                c.kind,
                CheckKind::DynamicRef {
                    anchor: Some(_),
                    ..
                }
            )
        })
    });
    rooted
}

/// The edge a reference-only node forwards to, if `id` is one.
fn forwarded(program: &Program, id: NodeId) -> Option<&Edge> {
    let node = program.node(id);
    if !node.annotations.is_empty() {
        // Its annotations are located at the wrapper.
        return None;
    }
    let edge = match node.checks.as_slice() {
        [check] => match &check.kind {
            CheckKind::Ref(edge)
            | CheckKind::DynamicRef {
                fallback: edge,
                anchor: None,
            } => edge,
            _ => return None,
        },
        _ => return None,
    };
    // Under a dynamic scope, entering the wrapper's resource is part of the meaning.
    let same_resource = program.node(edge.target).resource == node.resource;
    (!program.uses_dynamic_scope || same_resource).then_some(edge)
}

/// The most reference-only nodes one edge skips: a longer chain of them (or a cycle) is
/// left as it is, so that rewriting costs a bounded amount per edge and no edge's keyword
/// path grows with the length of a chain.
const MAX_SKIPPED_WRAPPERS: usize = 32;

/// Rewrite 2: edges skip reference-only nodes (up to [`MAX_SKIPPED_WRAPPERS`] of them; a
/// longer chain or a cycle of them is left alone).
fn collapse_reference_wrappers(program: &mut Program) {
    // Each wrapper's edge, as lowered: followed below while edges are rewritten.
    let forwards: Vec<Option<Edge>> = (0..program.nodes.len())
        .map(|i| forwarded(program, NodeId(i)).cloned())
        .collect();
    for node in &mut program.nodes {
        for check in &mut node.checks {
            for edge in check.kind.edges_mut() {
                if forwards[edge.target.0].is_none() {
                    continue; // (not to a wrapper)
                }
                let mut path = edge.path.clone();
                let mut target = edge.target;
                let mut skipped = 0;
                while let Some(next) = &forwards[target.0] {
                    crate::work::add(1);
                    skipped += 1;
                    if skipped > MAX_SKIPPED_WRAPPERS {
                        break;
                    }
                    path.push_str(&next.path);
                    target = next.target;
                }
                if skipped <= MAX_SKIPPED_WRAPPERS && target != edge.target {
                    edge.path = path;
                    edge.target = target;
                }
            }
        }
    }
}

/// Whether a check's edges are applied once per evaluation (in place, or to one named
/// property or index) rather than once per element of the instance.
fn applies_once(kind: &CheckKind) -> bool {
    matches!(kind.applies(), Applies::InPlace | Applies::Once)
}

/// Every node's estimated weight: its own checks plus its children's (ten times over for
/// children applied per element); [`HEAVY`] for nodes on a cycle.
fn weights(program: &Program, recursive: &[bool]) -> Vec<u32> {
    let n = program.nodes.len();
    let mut weight: Vec<Option<u32>> = vec![None; n];
    for id in 0..n {
        if recursive[id] {
            weight[id] = Some(HEAVY);
        }
    }
    // Post-order over the acyclic rest, with an explicit stack.
    for start in 0..n {
        if weight[start].is_some() {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((id, expanded)) = stack.pop() {
            if weight[id].is_some() {
                continue;
            }
            let node = &program.nodes[id];
            if !expanded {
                stack.push((id, true));
                for check in &node.checks {
                    for edge in check.kind.edges() {
                        if weight[edge.target.0].is_none() {
                            stack.push((edge.target.0, false));
                        }
                    }
                }
                continue;
            }
            let mut total: u32 = 0;
            for check in &node.checks {
                total = total.saturating_add(1);
                let per = if applies_once(&check.kind) { 1 } else { 10 };
                for edge in check.kind.edges() {
                    let child = weight[edge.target.0].unwrap_or(HEAVY);
                    total = total.saturating_add(child.saturating_mul(per));
                }
            }
            weight[id] = Some(total.min(HEAVY));
        }
    }
    weight.into_iter().map(|w| w.unwrap_or(HEAVY)).collect()
}

/// Rewrite 3: each node's checks, and each `properties` check's entries, in plan order.
fn order_checks(program: &mut Program, weights: &[u32]) {
    let heaviest = |kind: &CheckKind| -> u32 {
        kind.edges()
            .map(|e| weights[e.target.0])
            .fold(0u32, u32::saturating_add)
    };
    // An `unevaluatedProperties` decided by the node's own names
    // ([`object_pass::unevaluated_in_pass`]) joins them, after the others: generated code
    // decides it on each key in the loop, before `required`.
    let closing: Vec<bool> = (program.nodes.iter())
        .map(|node| object_pass::unevaluated_in_pass(program, node))
        .collect();
    for (node, closing) in program.nodes.iter_mut().zip(closing) {
        for check in &mut node.checks {
            match &mut check.kind {
                CheckKind::Properties(entries) => {
                    entries.sort_by_key(|(_, edge)| weights[edge.target.0]);
                }
                CheckKind::AllOf(members) => members.sort_by_key(|edge| weights[edge.target.0]),
                _ => {}
            }
        }
        // The applicators that loop over the object's keys run in one loop, where the
        // first of them stands; `required` is decided right after it: the loop finds
        // the required names as it goes, so both backends look for them in it and
        // decide them once it is done (issue 36: generated code did, the interpreter
        // decided them first, and the two spent differently when a name was missing).
        // So they stand together, at the lightest one's weight, then `required`, then
        // the other applicators of that weight.
        let in_pass = |kind: &CheckKind| {
            in_object_pass(kind) || closing && matches!(kind, CheckKind::UnevaluatedProperties(_))
        };
        let object_pass = (node.checks.iter())
            .filter(|check| in_pass(&check.kind))
            .map(|check| heaviest(&check.kind))
            .min();
        node.checks.sort_by_cached_key(|check| {
            let kind = &check.kind;
            match (kind, object_pass) {
                (CheckKind::UnevaluatedProperties(_), Some(pass)) if closing => {
                    (2, pass, 0, u32::MAX)
                }
                (CheckKind::UnevaluatedProperties(_) | CheckKind::UnevaluatedItems(_), _) => {
                    (4, 0, 0, 0)
                }
                (CheckKind::Unresolved { .. } | CheckKind::False, _) => (0, 0, 0, 0),
                (CheckKind::Required(_), Some(pass)) => (2, pass, 1, 0),
                (
                    CheckKind::Pattern(_)
                    | CheckKind::Format(_)
                    | CheckKind::UniqueItems
                    | CheckKind::Custom(_),
                    _,
                ) => (1, 0, 0, 0),
                _ if kind.edges().next().is_none() => (0, 0, 0, 0),
                (_, Some(pass)) if in_object_pass(kind) => (2, pass, 0, heaviest(kind)),
                _ => (2, heaviest(kind), 2, 0),
            }
        });
    }
}

/// Whether `kind` is an applicator run by the one loop over an object's keys, which also
/// finds a sibling `required`'s names (the plan's check order puts it right after them).
pub fn in_object_pass(kind: &CheckKind) -> bool {
    matches!(
        kind,
        CheckKind::Properties(_)
            | CheckKind::PatternProperties(_)
            | CheckKind::AdditionalProperties { .. }
            | CheckKind::PropertyNames(_)
    )
}

/// What tells two nodes apart when [`share`] forms classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sharing {
    /// Short-circuit evaluation: what the nodes check (keyword paths dropped).
    Verdicts,
    /// Error collection: also the keyword paths, the absolute location of each child
    /// that does not extend its parent's (a `$ref` target: generated code sets it), and
    /// the annotations (an evaluation gives them).
    Errors,
}

/// A numeric bound's limit as both backends compare an instance number with it, exactly:
/// an integer literal by the runtime's `cmp_i64` (or `cmp_u64` above `i64::MAX`), any
/// other number by `cmp_f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// An integer in `i64`'s range.
    I64(i64),
    /// An integer above `i64::MAX`.
    U64(u64),
    /// Any other number.
    F64(f64),
}

impl Limit {
    /// The limit `n` (a schema's number).
    pub fn of(n: &serde_json::Number) -> Limit {
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Limit::I64(i),
            (None, Some(u)) => Limit::U64(u),
            (None, None) => Limit::F64(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    /// The instance number `n` compared with the limit.
    #[inline(always)]
    pub fn compare(self, n: &serde_json::Number) -> std::cmp::Ordering {
        use schemac_runtime::engine::{cmp_f64, cmp_i64, cmp_u64};
        match self {
            Limit::I64(y) => cmp_i64(n, y),
            Limit::U64(y) => cmp_u64(n, y),
            Limit::F64(y) => cmp_f64(n, y),
        }
    }
}

/// Whether `edge` of `node` leads to a child whose absolute location is the node's
/// followed by the edge's path: error collection then derives it instead of setting it.
pub fn extends_location(program: &Program, node: &crate::ir::Node, edge: &Edge) -> bool {
    let child = &program.node(edge.target).uri;
    child.len() == node.uri.len() + edge.path.len()
        && child.starts_with(&node.uri)
        && child.ends_with(&edge.path)
}

/// Sharing: each node's class representative (its smallest id), the classes being the
/// coarsest partition in which a class's nodes have one shape — their checks with targets
/// left out (see [`Sharing`]) — and targets of one class, edge by edge
/// ([`partition::classes`]).
fn share(program: &Program, sharing: Sharing) -> Vec<NodeId> {
    let n = program.nodes.len();
    // Every node's shape, one after another, and where each starts and ends.
    let (mut shapes, mut ends) = (Vec::new(), Vec::with_capacity(n));
    // Each node's edge targets, one run per node, and where each run starts.
    let (mut starts, mut targets) = (Vec::with_capacity(n + 1), Vec::new());
    for node in &program.nodes {
        starts.push(targets.len());
        shape::Shape::append(program, node, sharing, &mut shapes, &mut targets);
        ends.push(shapes.len());
    }
    starts.push(targets.len());
    crate::work::add(shapes.len());
    let graph = Graph::from_runs(starts, targets);
    let shape = |v: usize| &shapes[v.checked_sub(1).map_or(0, |u| ends[u])..ends[v]];
    let class = match partition::successors_first(&graph) {
        Some(order) => partition::acyclic_classes(&graph, &order, shape),
        None => {
            let mut labels: HashMap<&[u8], usize> = HashMap::new();
            let labels: Vec<usize> = (0..n)
                .map(|v| {
                    let fresh = labels.len();
                    *labels.entry(shape(v)).or_insert(fresh)
                })
                .collect();
            partition::classes(&labels, &graph)
        }
    };
    // The first node of each class, by class (numbered below the number of nodes).
    let mut first = vec![None; class.len()];
    class
        .iter()
        .enumerate()
        .map(|(i, &c)| *first[c].get_or_insert(NodeId(i)))
        .collect()
}

/// A node's verdict when it does not depend on the instance (see [`NodePlan::constant`]);
/// a node without checks that annotates is not constant, since only evaluating it gives
/// its annotations.
fn constant(program: &Program, id: NodeId) -> Option<bool> {
    let node = program.node(id);
    let checks = &node.checks;
    if checks.is_empty() && node.annotations.is_empty() {
        Some(true)
    } else if checks.iter().any(|c| matches!(c.kind, CheckKind::False)) {
        Some(false)
    } else {
        None
    }
}

/// Per canonical node, the number of checks in the tree below it (children counted as if
/// inlined, edges through `canon`), or `limit + 1` when that is more than `limit` — a node
/// whose tree is infinite (it reaches itself) included. Children first, without recursion,
/// each node once.
fn inline_sizes(program: &Program, canon: &impl Fn(NodeId) -> NodeId, limit: u32) -> Vec<u32> {
    const STARTED: u32 = u32::MAX;
    let n = program.nodes.len();
    let mut size: Vec<Option<u32>> = vec![None; n];
    let children = |id: usize| {
        (program.nodes[id].checks.iter())
            .flat_map(|c| c.kind.edges())
            .map(|e| canon(e.target).0)
    };
    let mut stack = Vec::new();
    for start in (0..n).filter(|&i| canon(NodeId(i)).0 == i) {
        stack.push((start, false));
        while let Some((id, expanded)) = stack.pop() {
            if !expanded {
                if size[id].is_none() {
                    size[id] = Some(STARTED);
                    stack.push((id, true));
                    stack.extend(
                        children(id)
                            .filter(|&t| size[t].is_none())
                            .map(|t| (t, false)),
                    );
                }
                continue;
            }
            crate::work::add(1);
            let mut total = 0u32;
            for check in &program.nodes[id].checks {
                total = total.saturating_add(1);
                for edge in check.kind.edges() {
                    // A child still started is on the path to it: a cycle, an infinite tree.
                    let child = match size[canon(edge.target).0] {
                        Some(STARTED) | None => limit + 1,
                        Some(child) => child,
                    };
                    total = total.saturating_add(child);
                }
            }
            size[id] = Some(total.min(limit + 1));
        }
    }
    size.into_iter().map(|s| s.unwrap_or(limit + 1)).collect()
}

/// The out-of-line decisions and entry costs, over the shared (canonical) graph, of a
/// program that is `acyclic` or not.
fn decide(
    program: &Program,
    canonical: &[NodeId],
    (graph, acyclic): (&Graph, bool),
    weights: &[u32],
) -> Vec<NodePlan> {
    let n = program.nodes.len();
    let canon = |id: NodeId| canonical[id.0];
    // Cycles of the shared graph (sharing can close a cycle no original node is on, but
    // not where there is none: a class's members have successors in the same classes, so
    // a cycle of classes would lift to an endless path of nodes).
    let cyclic = if acyclic {
        vec![false; graph.nodes]
    } else {
        graph.on_cycles()
    };
    // Referrers of each canonical node, from canonical nodes reachable from the root; the
    // nodes declaring a dynamic anchor that a reachable `$dynamicRef` names are forced out
    // of line (each anchor's vertex is walked once).
    let mut referrers = vec![0u32; n];
    let mut forced = vec![false; n];
    let root = canon(program.root);
    forced[root.0] = true;
    let mut seen = vec![false; graph.len()];
    let mut work = vec![root.0];
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut seen[v], true) {
            continue;
        }
        crate::work::add(1 + graph.successors(v).len());
        let is_node = v < n;
        if is_node && program.uses_dynamic_scope && program.nodes[v].is_resource_root {
            forced[v] = true;
        }
        for &t in graph.successors(v) {
            match (is_node, t < n) {
                (true, true) => referrers[t] += 1,
                (false, _) => forced[t] = true,
                (true, false) => {}
            }
            work.push(t);
        }
    }
    let sizes = inline_sizes(program, &canon, SMALL_INLINE);
    // A node on a cycle reached from several places is where the cycle is entered; the
    // others on cycles too, unless they can be inlined (see `inline_cycle_members`).
    let entry: Vec<bool> = (0..n)
        .map(|i| forced[i] || (referrers[i] > 1 && (cyclic[i] || sizes[i] > SMALL_INLINE)))
        .collect();
    let mut out_of_line: Vec<bool> = (0..n).map(|i| entry[i] || cyclic[i]).collect();
    let members: Vec<usize> = (0..n)
        .filter(|&i| seen[i] && cyclic[i] && !entry[i])
        .collect();
    inline_cycle_members(program, graph, &members, &mut out_of_line);
    // Bound inline nesting: walk from each out-of-line node through inline children.
    let mut order: Vec<usize> = (0..n).filter(|&i| seen[i] && out_of_line[i]).collect();
    while let Some(start) = order.pop() {
        let mut stack = vec![(NodeId(start), 0u32)];
        while let Some((id, depth)) = stack.pop() {
            crate::work::add(1);
            for check in &program.node(id).checks {
                for edge in check.kind.edges() {
                    let t = canon(edge.target);
                    if out_of_line[t.0] {
                        continue;
                    }
                    if depth + 1 > MAX_INLINE_NESTING {
                        out_of_line[t.0] = true;
                        order.push(t.0);
                        continue;
                    }
                    stack.push((t, depth + 1));
                }
            }
        }
    }
    // Entry costs, children first (inline children form trees below out-of-line nodes).
    let mut cost: Vec<Option<u64>> = vec![None; n];
    for start in 0..n {
        let start = canon(NodeId(start));
        if cost[start.0].is_some() {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((id, expanded)) = stack.pop() {
            if cost[id.0].is_some() {
                continue;
            }
            crate::work::add(1);
            let once_children = program
                .node(id)
                .checks
                .iter()
                .filter(|c| applies_once(&c.kind))
                .flat_map(|c| c.kind.edges())
                .map(|e| canon(e.target))
                .filter(|t| !out_of_line[t.0] && *t != id);
            if !expanded {
                stack.push((id, true));
                for t in once_children {
                    if cost[t.0].is_none() {
                        stack.push((t, false));
                    }
                }
                continue;
            }
            // A constant node (`true`, `false`, `{}`) is no evaluation: it costs nothing.
            // A custom keyword's call is a unit of its own (the caller's code).
            let own = 1 + program
                .node(id)
                .checks
                .iter()
                .filter(|c| matches!(c.kind, CheckKind::Custom(_)))
                .count() as u64;
            let total = match constant(program, id) {
                Some(_) => 0,
                None => once_children
                    .map(|t| cost[t.0].unwrap_or(1))
                    .fold(own, u64::saturating_add),
            };
            cost[id.0] = Some(total);
        }
    }
    let (steps, height) = steps_and_height(program, graph, &out_of_line);
    (0..n)
        .map(|i| {
            let c = canonical[i];
            NodePlan {
                canonical: c,
                out_of_line: out_of_line[c.0],
                recursive: cyclic[c.0] && out_of_line[c.0],
                entry_cost: cost[c.0].unwrap_or(1),
                weight: weights[c.0],
                constant: constant(program, c),
                steps: steps[c.0],
                height: height[c.0],
            }
        })
        .collect()
}

/// How much inlining nodes on cycles may raise the height of a region (see
/// [`inline_cycle_members`]): two leaves' frames.
const HEIGHT_SLACK: u32 = 8;

/// How many vertex visits per vertex and edge of the graph [`inline_cycle_members`] may
/// spend trying candidates: each try visits the inline nodes below the candidate and
/// above it up to their regions, a few in most schemas; past this bound the remaining
/// candidates stay out of line, so planning stays linear in the schema's size.
const INLINING_WORK_PER_ELEMENT: usize = 16;

/// Inlines the nodes on a cycle reached from one place, one at a time, where that closes
/// no cycle of inline nodes (every cycle still passes through an out-of-line node) and
/// raises no region's [`NodePlan::height`] by more than [`HEIGHT_SLACK`] over what it was
/// with all of them out of line. An inlined node saves a region entry per cycle turn (a
/// call, a budget charge, a depth level), and the slack bound keeps the nesting of every
/// evaluation about what it was: a region's height is counted on every entry, whichever
/// branch runs.
///
/// Heights are kept up to date as candidates are inlined: inlining one adds its height
/// (unchanged: inline or not, it is its frame and its inline children's) to its parents,
/// and the rise goes up through inline parents to the regions above.
fn inline_cycle_members(
    program: &Program,
    graph: &Graph,
    candidates: &[usize],
    out_of_line: &mut [bool],
) {
    let ool = |v: usize, out_of_line: &[bool]| v < graph.nodes && out_of_line[v];
    let parents = graph.reversed();
    let (_, mut height) = steps_and_height(program, graph, out_of_line);
    let base = height.clone();
    let mut work = 0usize;
    let budget = INLINING_WORK_PER_ELEMENT.saturating_mul(graph.len() + graph.edges());
    for &c in candidates {
        if work > budget {
            break;
        }
        out_of_line[c] = false;
        // Whether `c` now reaches itself through inline nodes.
        let mut seen = BTreeSet::new();
        let mut stack = vec![c];
        let mut closes_cycle = false;
        'walk: while let Some(v) = stack.pop() {
            for &t in graph.successors(v) {
                work += 1;
                if t == c {
                    closes_cycle = true;
                    break 'walk;
                }
                if !ool(t, out_of_line) && seen.insert(t) {
                    stack.push(t);
                }
            }
        }
        if closes_cycle {
            out_of_line[c] = true;
            continue;
        }
        // Raise the heights above `c`, undoing it if a region rises past its slack.
        let mut raised: Vec<(usize, u32)> = Vec::new();
        let mut stack = vec![c];
        let mut too_high = false;
        'raise: while let Some(v) = stack.pop() {
            for &p in parents.successors(v) {
                work += 1;
                let h = frame_units(program, p).saturating_add(height[v]);
                if h <= height[p] {
                    continue;
                }
                raised.push((p, height[p]));
                height[p] = h;
                if !ool(p, out_of_line) {
                    stack.push(p);
                } else if h > base[p].saturating_add(HEIGHT_SLACK) {
                    too_high = true;
                    break 'raise;
                }
            }
        }
        if too_high {
            for (p, was) in raised.into_iter().rev() {
                height[p] = was;
            }
            out_of_line[c] = true;
        }
    }
    crate::work::add(work);
}

/// Per vertex of the shared graph, whether its evaluation may enter an out-of-line node
/// (see [`NodePlan::steps`]), and its height (see [`NodePlan::height`]): children first
/// over the inline nodes, which form no cycle. An anchor vertex is no evaluation of its
/// own (no frame), and the nodes it leads to are out of line.
fn steps_and_height(
    program: &Program,
    graph: &Graph,
    out_of_line: &[bool],
) -> (Vec<bool>, Vec<u32>) {
    let ool = |v: usize| v < graph.nodes && out_of_line[v];
    // Per vertex: (steps, height); out-of-line children count as 0 levels, stepping.
    let mut done: Vec<Option<(bool, u32)>> = vec![None; graph.len()];
    let mut stack = Vec::new();
    for start in 0..graph.len() {
        stack.push((start, false));
        while let Some((id, expanded)) = stack.pop() {
            if done[id].is_some() {
                continue;
            }
            let children = graph.successors(id);
            crate::work::add(1 + children.len());
            if expanded {
                let mut steps = ool(id);
                let mut below = 0;
                for &t in children {
                    // A child still unknown is on the current path: a cycle, which the
                    // plan makes out of line, so this only guards against a broken plan.
                    let (s, h) = if ool(t) {
                        (true, 0)
                    } else {
                        done[t].unwrap_or((true, UNKNOWN_HEIGHT))
                    };
                    steps |= s;
                    below = below.max(h);
                }
                done[id] = Some((steps, below.saturating_add(frame_units(program, id))));
                continue;
            }
            stack.push((id, true));
            stack.extend(
                (children.iter())
                    .filter(|&&t| !ool(t) && done[t].is_none())
                    .map(|&t| (t, false)),
            );
        }
    }
    done.into_iter()
        .map(|d| d.unwrap_or((true, UNKNOWN_HEIGHT)))
        .unzip()
}

/// See [`Plan::depth_free`]: over the shared graph, children first (it has no cycle, or
/// the answer is `false` at once), the most nesting and the most steps an evaluation
/// below each vertex can count, and the root's against the limits.
fn depth_free(program: &Program, graph: &Graph, nodes: &[NodePlan]) -> bool {
    if nodes.iter().any(|p| p.recursive) {
        return false;
    }
    // The plan of an out-of-line node (anchor vertices are neither).
    let region = |v: usize| (v < graph.nodes && nodes[v].out_of_line).then(|| &nodes[v]);
    // Per vertex: (nesting, steps) of the deepest chain of out-of-line nodes below it.
    let mut below: Vec<Option<(u64, u64)>> = vec![None; graph.len()];
    let mut entered = vec![false; graph.len()];
    let root = nodes[program.root.0].canonical.0;
    let mut stack = vec![(root, false)];
    while let Some((id, expanded)) = stack.pop() {
        if below[id].is_some() {
            continue;
        }
        let children = graph.successors(id).iter().copied();
        crate::work::add(1 + graph.successors(id).len());
        if !expanded {
            if std::mem::replace(&mut entered[id], true) {
                // Entered again below itself: a cycle of the shared graph.
                return false;
            }
            stack.push((id, true));
            stack.extend(children.filter(|&t| below[t].is_none()).map(|t| (t, false)));
            continue;
        }
        let deepest = children
            .map(|t| {
                // Every child is done by now (a cycle returned above); count one that is
                // not as deep as can be.
                let (nesting, steps) = below[t].unwrap_or((u64::MAX, u64::MAX));
                match region(t) {
                    Some(plan) => (
                        nesting.saturating_add(u64::from(plan.height)),
                        steps.saturating_add(1),
                    ),
                    None => (nesting, steps),
                }
            })
            .fold((0, 0), |(n, s), (cn, cs)| (n.max(cn), s.max(cs)));
        below[id] = Some(deepest);
    }
    let (nesting, steps) = below[root].unwrap_or((u64::MAX, u64::MAX));
    let nesting = nesting.saturating_add(u64::from(nodes[root].height));
    let limits = &program.limits;
    nesting <= u64::from(limits.unmeasured_nesting()) && steps <= u64::from(limits.max_depth)
}

/// The height assumed for a node the plan could not measure (it cannot happen; see
/// [`steps_and_height`]): the most a region may count.
const UNKNOWN_HEIGHT: u32 = schemac_runtime::Limits::DEFAULT_MAX_NESTING;

/// What one node evaluation counts against the stack guard: 4, plus 1 per edge of its
/// checks; nothing for a graph's anchor vertex (`id` past the nodes), which is no
/// evaluation. Its stack frame grows with its checks in generated code (at opt-level 0 a
/// function keeps a slot for every local of every branch) and is about 4 edges' worth in
/// the interpreter; the defaults are measured in `tests/tests/depth.rs`.
fn frame_units(program: &Program, id: usize) -> u32 {
    let Some(node) = program.nodes.get(id) else {
        return 0;
    };
    let edges: usize = node.checks.iter().map(|c| c.kind.edges().count()).sum();
    u32::try_from(edges).map_or(u32::MAX, |e| e.saturating_add(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn planned(schema: serde_json::Value) -> Plan {
        let program = crate::check::Compiler::new(crate::options::Options::default())
            .compile(&schema)
            .expect("compiles");
        Plan::new(program)
    }

    /// The plans of the nodes whose location ends with `suffix`.
    fn located<'a>(plan: &'a Plan, suffix: &str) -> Vec<&'a NodePlan> {
        (0..plan.program.nodes.len())
            .filter(|&i| plan.program.nodes[i].uri.ends_with(suffix))
            .map(|i| plan.node(NodeId(i)))
            .collect()
    }

    #[test]
    fn a_dynamic_reference_to_an_anchor_the_root_declares_lands_there() {
        // Three resources declare `#meta`: the root's is the outermost of every dynamic
        // scope, so a reference from another lands on the root's.
        let schema = |root_declares: bool| {
            let mut schema = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://example.com/root",
                "allOf": [{"$ref": "inner"}, {"$ref": "other"}],
                "$defs": {
                    "inner": {
                        "$id": "inner",
                        "$dynamicAnchor": "meta",
                        "properties": {"child": {"$dynamicRef": "#meta"}}
                    },
                    "other": {"$id": "other", "$dynamicAnchor": "meta", "$ref": "inner"}
                }
            });
            if root_declares {
                schema["$dynamicAnchor"] = json!("meta");
                schema["type"] = json!("object");
            }
            schema
        };
        let dynamic_refs = |plan: &Plan| -> Vec<(Option<String>, String)> {
            (plan.program.nodes.iter().flat_map(|n| &n.checks))
                .filter_map(|c| match &c.kind {
                    CheckKind::DynamicRef { fallback, anchor } => {
                        let uri = &plan.program.node(fallback.target).uri;
                        Some((anchor.clone(), uri.clone()))
                    }
                    _ => None,
                })
                .collect()
        };
        let plan = planned(schema(true));
        assert!(!plan.program.uses_dynamic_scope);
        // (It absorbs no `if`: it had none absorbed with the dynamic scope.)
        assert!(!plan.absorbs_ifs);
        assert_eq!(
            dynamic_refs(&plan),
            [(None, "https://example.com/root#".to_string())]
        );
        // Without the root's: where it lands depends on the scope (the inner resource's
        // anchor as written, or `other`'s where it entered `inner`).
        let plan = planned(schema(false));
        assert!(plan.program.uses_dynamic_scope && plan.absorbs_ifs);
        assert_eq!(
            dynamic_refs(&plan),
            [(
                Some("meta".to_string()),
                "https://example.com/inner#".to_string()
            )]
        );
    }

    #[test]
    fn a_cycle_is_out_of_line_only_where_it_is_entered() {
        // node -> children -> items -> node: `node` has two referrers (the root and the
        // items), `children` one and only connects back to `node`.
        let mut schema = json!({
            "$ref": "#/$defs/node",
            "$defs": {"node": {"properties": {
                "name": {"type": "string"},
                "children": {"items": {"$ref": "#/$defs/node"}}
            }}}
        });
        let plan = planned(schema.clone());
        let node = located(&plan, "#/$defs/node");
        assert!(
            node.iter().all(|p| p.out_of_line && p.recursive),
            "{node:?}"
        );
        let children = located(&plan, "#/$defs/node/properties/children");
        assert!(
            children.iter().all(|p| !p.out_of_line && !p.recursive),
            "{children:?}"
        );

        // Without the leaf, and with `children` applying a leaf of its own, inlining it
        // would raise the height `node` counts on every entry by more than the slack: it
        // keeps its own region.
        let node = &mut schema["$defs"]["node"]["properties"];
        node.as_object_mut().expect("properties").remove("name");
        node["children"]["contains"] = json!({"type": "string"});
        let plan = planned(schema);
        let children = located(&plan, "#/$defs/node/properties/children");
        assert!(
            children.iter().all(|p| p.out_of_line && p.recursive),
            "{children:?}"
        );
    }
}
