//! The plan: what both backends follow. Takes a lowered, analysed [`Program`]; gives a
//! [`Plan`] — the same program rewritten for evaluation, plus per-node decisions — so that
//! the interpreter and the Rust backend evaluate the same checks in the same order and
//! charge the budget at the same points by construction.
//!
//! The rewrites (each keeps the program's meaning, error locations included):
//!
//! 1. **Static `$dynamicRef`.** A `$dynamicRef` whose anchor only one resource declares
//!    always lands on its static target (the outermost resource declaring the anchor can
//!    only be that one), so it becomes a plain reference; a program left without dynamic
//!    references keeps no dynamic scope.
//! 2. **Reference wrappers.** An edge to a node whose only check is a reference goes
//!    straight to the reference's target; the edge's keyword path keeps the `/$ref` step.
//!    (Under a dynamic scope, only when the target is in the wrapper's resource.)
//! 3. **Check order.** Cheap assertions first (type, bounds, `required`), then costlier
//!    assertions (patterns, formats, `uniqueItems`), then applicators by estimated
//!    [`NodePlan::weight`], lightest first; `unevaluated*` stay last. `properties` entries
//!    are ordered lightest first too, and [`Plan::is_deferred`] entries — recursive or
//!    heavy subschemas — are evaluated after every other property of the object.
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
//!   [`NodePlan::entry_cost`]: one unit for itself and for every inline node it applies
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

mod discriminate;

pub use discriminate::{Admits, Discriminator};
pub mod lookup;

use crate::ir::{CheckKind, Edge, NodeId, Program};
use std::collections::BTreeMap;

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
/// most this many checks (see [`inline_size`]): a call would cost more than the copy.
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
    /// Per node, its [`Plan::error_representative`].
    error_functions: Vec<NodeId>,
    /// The `anyOf` / `oneOf` checks that have a [`Discriminator`], by (node, check index).
    discriminators: BTreeMap<(NodeId, usize), Discriminator>,
    /// No evaluation can reach a depth bound under the program's limits: the schema has
    /// no cycle, and its deepest chain of out-of-line nodes nests less than
    /// [`schemac_runtime::Limits::max_nesting`] and steps into the instance at most
    /// [`schemac_runtime::Limits::max_depth`] times. Generated code then counts neither:
    /// an out-of-line node only charges the budget, and a call is no step.
    pub depth_free: bool,
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
    pub fn new(program: &Program) -> Plan {
        let mut program = program.clone();
        resolve_static_dynamic_refs(&mut program);
        collapse_reference_wrappers(&mut program);
        // Reordering checks keeps every edge, so the cycles found here stay true.
        let recursive = recursive_nodes(&program);
        let weights = weights(&program, &recursive);
        order_checks(&mut program, &weights);
        let canonical = share(&program, Sharing::Verdicts);
        let error_functions = share(&program, Sharing::Errors);
        let nodes = decide(&program, &canonical, &weights);
        let discriminators = discriminate::discriminators(&program);
        let depth_free = depth_free(&program, &nodes);
        Plan {
            program,
            nodes,
            error_functions,
            discriminators,
            depth_free,
        }
    }

    /// The node whose error-collecting evaluation stands for `id`'s: structurally
    /// identical nodes whose error locations differ only by where they are share it (see
    /// `Sharing::Errors`).
    pub fn error_representative(&self, id: NodeId) -> NodeId {
        self.error_functions[id.0]
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

    /// Whether a `properties` entry applying `target` is evaluated after the object's
    /// other properties (by name lookup), because it is recursive or heavy.
    pub fn is_deferred(&self, target: NodeId) -> bool {
        self.node(target).weight >= DEFERRED_WEIGHT
    }
}

/// Rewrite 1: `$dynamicRef`s whose anchor has one declaring resource become static.
fn resolve_static_dynamic_refs(program: &mut Program) {
    let mut declaring: BTreeMap<String, usize> = BTreeMap::new();
    for resource in &program.resources {
        for name in resource.dynamic_anchors.keys() {
            *declaring.entry(name.clone()).or_default() += 1;
        }
    }
    for node in &mut program.nodes {
        for check in &mut node.checks {
            if let CheckKind::DynamicRef { anchor, .. } = &mut check.kind {
                if anchor
                    .as_ref()
                    .is_some_and(|name| declaring.get(name).copied().unwrap_or(0) <= 1)
                {
                    *anchor = None;
                }
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

/// Rewrite 2: edges skip reference-only nodes (a cycle of them is left alone).
fn collapse_reference_wrappers(program: &mut Program) {
    let n = program.nodes.len();
    for at in 0..n {
        for c in 0..program.nodes[at].checks.len() {
            let mut kind = program.nodes[at].checks[c].kind.clone();
            for edge in kind.edges_mut() {
                let mut path = edge.path.clone();
                let mut target = edge.target;
                let mut steps = 0;
                while let Some(next) = forwarded(program, target) {
                    steps += 1;
                    if steps > n {
                        break;
                    }
                    path.push_str(&next.path);
                    target = next.target;
                }
                if steps <= n && target != edge.target {
                    edge.path = path;
                    edge.target = target;
                }
            }
            program.nodes[at].checks[c].kind = kind;
        }
    }
}

/// Whether a check's edges are applied once per evaluation (in place, or to one named
/// property or index) rather than once per element of the instance.
fn applies_once(kind: &CheckKind) -> bool {
    kind.is_in_place() || matches!(kind, CheckKind::Properties(_) | CheckKind::PrefixItems(_))
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

/// Nodes on a cycle of edges (dynamic-reference targets included).
fn recursive_nodes(program: &Program) -> Vec<bool> {
    let succ: Vec<Vec<usize>> = (0..program.nodes.len())
        .map(|i| successors(program, NodeId(i)))
        .collect();
    on_cycles(&succ)
}

/// Nodes on a cycle of the graph whose successors `succ` lists, by Tarjan's algorithm
/// without recursion.
fn on_cycles(succ: &[Vec<usize>]) -> Vec<bool> {
    let n = succ.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < succ[v].len() {
                let w = succ[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || succ[v].contains(&v);
                for w in members {
                    out[w] = cyclic;
                }
            }
        }
    }
    out
}

/// The nodes `id` may evaluate next: its edges' targets and, for a dynamic reference,
/// every node declaring its anchor.
fn successors(program: &Program, id: NodeId) -> Vec<usize> {
    let mut out = Vec::new();
    for check in &program.node(id).checks {
        out.extend(check.kind.edges().iter().map(|e| e.target.0));
        if let CheckKind::DynamicRef {
            anchor: Some(name), ..
        } = &check.kind
        {
            out.extend(program.dynamic_targets(name).iter().map(|(_, t)| t.0));
        }
    }
    out
}

/// Rewrite 3: each node's checks, and each `properties` check's entries, in plan order.
fn order_checks(program: &mut Program, weights: &[u32]) {
    let heaviest = |kind: &CheckKind| -> u32 {
        kind.edges()
            .iter()
            .map(|e| weights[e.target.0])
            .fold(0u32, u32::saturating_add)
    };
    for node in &mut program.nodes {
        for check in &mut node.checks {
            if let CheckKind::Properties(entries) = &mut check.kind {
                entries.sort_by_key(|(_, edge)| weights[edge.target.0]);
            }
        }
        node.checks.sort_by_cached_key(|check| {
            let kind = &check.kind;
            match kind {
                CheckKind::UnevaluatedProperties(_) | CheckKind::UnevaluatedItems(_) => (4, 0),
                CheckKind::Unresolved { .. } | CheckKind::False => (0, 0),
                CheckKind::Pattern(_) | CheckKind::Format(_) | CheckKind::UniqueItems => (1, 0),
                _ if kind.edges().is_empty() => (0, 0),
                _ => (2, heaviest(kind)),
            }
        });
    }
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
        use schemac_runtime::__private::{cmp_f64, cmp_i64, cmp_u64};
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

/// Sharing: each node's class representative, by partition refinement over the nodes'
/// shapes (checks with targets replaced by their class; see [`Sharing`]).
fn share(program: &Program, sharing: Sharing) -> Vec<NodeId> {
    let n = program.nodes.len();
    let mut class: Vec<usize> = vec![0; n];
    let mut classes = 1;
    loop {
        let mut ids: BTreeMap<(usize, String), usize> = BTreeMap::new();
        let mut next = vec![0; n];
        for (i, node) in program.nodes.iter().enumerate() {
            // An annotated node is never constant (see `constant`): a class of its own.
            let mut shape = format!("{:?}|{}|", node.collect, node.annotations.is_empty());
            if program.uses_dynamic_scope {
                shape.push_str(&format!("{}:{}|", node.resource.0, node.is_resource_root));
            }
            if sharing == Sharing::Errors {
                shape.push_str(&format!("{:?}|", node.annotations));
            }
            for check in &node.checks {
                if sharing == Sharing::Errors {
                    shape.push_str(&format!("{}|", check.annotates));
                }
                let mut kind = check.kind.clone();
                for edge in kind.edges_mut() {
                    match sharing {
                        Sharing::Verdicts => edge.path.clear(),
                        Sharing::Errors if !extends_location(program, node, edge) => {
                            shape.push_str(&program.node(edge.target).uri);
                            shape.push('|');
                        }
                        Sharing::Errors => {}
                    }
                    edge.target = NodeId(class[edge.target.0]);
                }
                shape.push_str(&format!("{kind:?};"));
            }
            let fresh = ids.len();
            next[i] = *ids.entry((class[i], shape)).or_insert(fresh);
        }
        let count = ids.len();
        class = next;
        if count == classes {
            break;
        }
        classes = count;
    }
    let mut first: BTreeMap<usize, NodeId> = BTreeMap::new();
    for (i, &c) in class.iter().enumerate() {
        first.entry(c).or_insert(NodeId(i));
    }
    class.iter().map(|c| first[c]).collect()
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

/// The number of checks in the tree below `id` (children counted as if inlined), or any
/// number above `limit` once it is known to exceed it (which bounds the walk).
fn inline_size(
    program: &Program,
    canon: &impl Fn(NodeId) -> NodeId,
    id: NodeId,
    limit: u32,
) -> u32 {
    let mut size = 0u32;
    for check in &program.node(id).checks {
        size += 1;
        for edge in check.kind.edges() {
            if size > limit {
                return size;
            }
            size += inline_size(program, canon, canon(edge.target), limit - size);
        }
        if size > limit {
            return size;
        }
    }
    size
}

/// The out-of-line decisions and entry costs, over the shared (canonical) graph.
fn decide(program: &Program, canonical: &[NodeId], weights: &[u32]) -> Vec<NodePlan> {
    let n = program.nodes.len();
    let canon = |id: NodeId| canonical[id.0];
    // Cycles of the shared graph (sharing can close a cycle no original node is on).
    let cyclic = on_cycles(
        &(0..n)
            .map(|i| {
                let succ = successors(program, NodeId(i));
                succ.into_iter().map(|t| canonical[t].0).collect()
            })
            .collect::<Vec<_>>(),
    );
    // Referrers of each canonical node, from canonical nodes reachable from the root.
    let mut referrers = vec![0u32; n];
    let mut forced = vec![false; n];
    let root = canon(program.root);
    forced[root.0] = true;
    let mut seen = vec![false; n];
    let mut work = vec![root];
    while let Some(id) = work.pop() {
        if std::mem::replace(&mut seen[id.0], true) {
            continue;
        }
        let node = program.node(id);
        if program.uses_dynamic_scope && node.is_resource_root {
            forced[id.0] = true;
        }
        for check in &node.checks {
            for edge in check.kind.edges() {
                let t = canon(edge.target);
                referrers[t.0] += 1;
                work.push(t);
            }
            if let CheckKind::DynamicRef {
                anchor: Some(name), ..
            } = &check.kind
            {
                for (_, t) in program.dynamic_targets(name) {
                    let t = canon(t);
                    forced[t.0] = true;
                    work.push(t);
                }
            }
        }
    }
    let small = |id: NodeId| inline_size(program, &canon, id, SMALL_INLINE) <= SMALL_INLINE;
    // A node on a cycle reached from several places is where the cycle is entered; the
    // others on cycles too, unless they can be inlined (see `inline_cycle_members`).
    let entry: Vec<bool> = (0..n)
        .map(|i| forced[i] || (referrers[i] > 1 && (cyclic[i] || !small(NodeId(i)))))
        .collect();
    let mut out_of_line: Vec<bool> = (0..n).map(|i| entry[i] || cyclic[i]).collect();
    let members: Vec<usize> = (0..n)
        .filter(|&i| seen[i] && cyclic[i] && !entry[i])
        .collect();
    inline_cycle_members(program, &canon, &members, &mut out_of_line);
    // Bound inline nesting: walk from each out-of-line node through inline children.
    let mut order: Vec<usize> = (0..n).filter(|&i| seen[i] && out_of_line[i]).collect();
    while let Some(start) = order.pop() {
        let mut stack = vec![(NodeId(start), 0u32)];
        while let Some((id, depth)) = stack.pop() {
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
            let total = match constant(program, id) {
                Some(_) => 0,
                None => once_children
                    .map(|t| cost[t.0].unwrap_or(1))
                    .fold(1u64, u64::saturating_add),
            };
            cost[id.0] = Some(total);
        }
    }
    let (steps, height) = steps_and_height(program, &canon, &out_of_line);
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

/// How many node visits [`inline_cycle_members`] may spend trying candidates (each try
/// visits every node): enough for thousands of candidates in a schema of hundreds of
/// nodes, and a bound for the largest schemas.
const INLINING_WORK: usize = 1 << 22;

/// Inlines the nodes on a cycle reached from one place, one at a time, where that closes
/// no cycle of inline nodes (every cycle still passes through an out-of-line node) and
/// raises no region's [`NodePlan::height`] by more than [`HEIGHT_SLACK`] over what it was
/// with all of them out of line. An inlined node saves a region entry per cycle turn (a
/// call, a budget charge, a depth level), and the slack bound keeps the nesting of every
/// evaluation about what it was: a region's height is counted on every entry, whichever
/// branch runs.
fn inline_cycle_members(
    program: &Program,
    canon: &impl Fn(NodeId) -> NodeId,
    candidates: &[usize],
    out_of_line: &mut [bool],
) {
    let inline_children = |id: NodeId, out_of_line: &[bool]| -> Vec<NodeId> {
        let edges = program.node(id).checks.iter().flat_map(|c| c.kind.edges());
        edges
            .map(|e| canon(e.target))
            .filter(|t| !out_of_line[t.0])
            .collect()
    };
    // Whether `id` reaches itself through inline nodes.
    let closes_cycle = |id: NodeId, out_of_line: &[bool]| {
        let mut seen = vec![false; out_of_line.len()];
        let mut stack = inline_children(id, out_of_line);
        while let Some(t) = stack.pop() {
            if t == id {
                return true;
            }
            if !std::mem::replace(&mut seen[t.0], true) {
                stack.extend(inline_children(t, out_of_line));
            }
        }
        false
    };
    let regions: Vec<usize> = (0..out_of_line.len()).filter(|&i| out_of_line[i]).collect();
    let (_, base) = steps_and_height(program, canon, out_of_line);
    // Each try walks the program: a bound on the tries keeps planning linear.
    let tries = (INLINING_WORK / out_of_line.len().max(1)).max(1);
    for &c in candidates.iter().take(tries) {
        out_of_line[c] = false;
        if closes_cycle(NodeId(c), out_of_line) {
            out_of_line[c] = true;
            continue;
        }
        let (_, height) = steps_and_height(program, canon, out_of_line);
        let raised = regions
            .iter()
            .any(|&r| out_of_line[r] && height[r] > base[r].saturating_add(HEIGHT_SLACK));
        if raised {
            out_of_line[c] = true;
        }
    }
}

/// Per canonical node, whether its evaluation may enter an out-of-line node (see
/// [`NodePlan::steps`]), and its height (see [`NodePlan::height`]): children first
/// over the inline nodes, which form no cycle.
fn steps_and_height(
    program: &Program,
    canon: &impl Fn(NodeId) -> NodeId,
    out_of_line: &[bool],
) -> (Vec<bool>, Vec<u32>) {
    let n = program.nodes.len();
    // Per node: (steps, height); out-of-line children count as 0 levels, stepping.
    let mut done: Vec<Option<(bool, u32)>> = vec![None; n];
    for start in 0..n {
        let mut stack = vec![(canon(NodeId(start)), false)];
        while let Some((id, expanded)) = stack.pop() {
            if done[id.0].is_some() {
                continue;
            }
            let children: Vec<NodeId> = successors(program, id)
                .into_iter()
                .map(|t| canon(NodeId(t)))
                .collect();
            if expanded {
                let mut steps = out_of_line[id.0];
                let mut below = 0;
                for t in children {
                    // A child still unknown is on the current path: a cycle, which the
                    // plan makes out of line, so this only guards against a broken plan.
                    let (s, h) = if out_of_line[t.0] {
                        (true, 0)
                    } else {
                        done[t.0].unwrap_or((true, UNKNOWN_HEIGHT))
                    };
                    steps |= s;
                    below = below.max(h);
                }
                done[id.0] = Some((steps, below.saturating_add(frame_units(program, id))));
                continue;
            }
            stack.push((id, true));
            stack.extend(
                children
                    .into_iter()
                    .filter(|t| !out_of_line[t.0] && done[t.0].is_none())
                    .map(|t| (t, false)),
            );
        }
    }
    done.into_iter()
        .map(|d| d.unwrap_or((true, UNKNOWN_HEIGHT)))
        .unzip()
}

/// See [`Plan::depth_free`]: over the canonical nodes, children first (the graph has no
/// cycle, or the answer is `false` at once), the most nesting and the most steps an
/// evaluation below each node can count, and the root's against the limits.
fn depth_free(program: &Program, nodes: &[NodePlan]) -> bool {
    if nodes.iter().any(|p| p.recursive) {
        return false;
    }
    let plan = |id: usize| &nodes[nodes[id].canonical.0];
    let canon = |id: usize| nodes[id].canonical.0;
    // Per node: (nesting, steps) of the deepest chain of out-of-line nodes below it.
    let mut below: Vec<Option<(u64, u64)>> = vec![None; nodes.len()];
    let mut entered = vec![false; nodes.len()];
    let mut stack = vec![(canon(program.root.0), false)];
    while let Some((id, expanded)) = stack.pop() {
        if below[id].is_some() {
            continue;
        }
        let children = successors(program, NodeId(id)).into_iter().map(canon);
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
                if plan(t).out_of_line {
                    (
                        nesting.saturating_add(u64::from(plan(t).height)),
                        steps.saturating_add(1),
                    )
                } else {
                    (nesting, steps)
                }
            })
            .fold((0, 0), |(n, s), (cn, cs)| (n.max(cn), s.max(cs)));
        below[id] = Some(deepest);
    }
    let root = canon(program.root.0);
    let (nesting, steps) = below[root].unwrap_or((u64::MAX, u64::MAX));
    let nesting = nesting.saturating_add(u64::from(plan(root).height));
    nesting <= u64::from(program.limits.max_nesting) && steps <= u64::from(program.limits.max_depth)
}

/// The height assumed for a node the plan could not measure (it cannot happen; see
/// [`steps_and_height`]): the most a region may count.
const UNKNOWN_HEIGHT: u32 = schemac_runtime::Limits::DEFAULT_MAX_NESTING;

/// What one node evaluation counts against the stack guard: 4, plus 1 per edge of its
/// checks. Its stack frame grows with its checks in generated code (at opt-level 0 a
/// function keeps a slot for every local of every branch) and is about 4 edges' worth in
/// the interpreter; the defaults are measured in `tests/tests/depth.rs`.
fn frame_units(program: &Program, id: NodeId) -> u32 {
    let edges: usize = program
        .node(id)
        .checks
        .iter()
        .map(|c| c.kind.edges().len())
        .sum();
    u32::try_from(edges).map_or(u32::MAX, |e| e.saturating_add(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn planned(schema: serde_json::Value) -> Plan {
        let program = crate::Compiler::new(crate::Options::default())
            .compile(&schema)
            .expect("compiles");
        Plan::new(&program)
    }

    /// The plans of the nodes whose location ends with `suffix`.
    fn located<'a>(plan: &'a Plan, suffix: &str) -> Vec<&'a NodePlan> {
        (0..plan.program.nodes.len())
            .filter(|&i| plan.program.nodes[i].uri.ends_with(suffix))
            .map(|i| plan.node(NodeId(i)))
            .collect()
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
