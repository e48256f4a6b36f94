//! Analysis over a lowered [`Program`]: which nodes must produce evaluated-location sets
//! for `unevaluatedProperties` / `unevaluatedItems`, and whether the dynamic scope is
//! needed. Schemas that use neither pay nothing for them.

use super::{CheckKind, NodeId, Program};
use std::collections::{BTreeMap, BTreeSet};

/// Fills [`super::Node::collect`] and [`Program::uses_dynamic_scope`].
///
/// A node collects evaluated properties (items) when it has an `unevaluatedProperties`
/// (`unevaluatedItems`) check, or when a collecting node applies it in place (through
/// `$ref`, `$dynamicRef` and every target it may resolve to, `allOf`, `anyOf`, `oneOf`,
/// `if`/`then`/`else`, `dependentSchemas`). `not` never contributes annotations. The nodes
/// a collecting node applies in place give it their sets ([`super::Collect::given`]).
pub fn analyse(program: &mut Program) {
    program.uses_dynamic_scope = program.nodes.iter().any(|n| {
        n.checks.iter().any(|c| {
            matches!(
                &c.kind,
                CheckKind::DynamicRef {
                    anchor: Some(_),
                    ..
                }
            )
        })
    });

    // Each anchor's declaring nodes, looked up (not scanned for) per `$dynamicRef`.
    let dynamic: DynamicTargets = program
        .dynamic_targets_by_name()
        .into_iter()
        .map(|(name, targets)| {
            (
                name.to_owned(),
                targets.into_iter().map(|(_, t)| t).collect(),
            )
        })
        .collect();
    let mut props: Vec<NodeId> = Vec::new();
    let mut items: Vec<NodeId> = Vec::new();
    for (i, node) in program.nodes.iter().enumerate() {
        for check in &node.checks {
            match check.kind {
                CheckKind::UnevaluatedProperties(_) => props.push(NodeId(i)),
                CheckKind::UnevaluatedItems(_) => items.push(NodeId(i)),
                _ => {}
            }
        }
    }
    propagate(program, &dynamic, props, |c| &mut c.properties);
    propagate(program, &dynamic, items, |c| &mut c.items);
    let mut anchors_given = BTreeSet::new();
    for i in 0..program.nodes.len() {
        let c = program.nodes[i].collect;
        if c.properties || c.items {
            for t in in_place_targets(program, &dynamic, &mut anchors_given, NodeId(i)) {
                program.nodes[t.0].collect.given = true;
            }
        }
    }
}

/// The nodes declaring each dynamic anchor, by name.
type DynamicTargets = BTreeMap<String, Vec<NodeId>>;

/// Marks every node reachable from `work` through in-place edges (seeds included).
fn propagate(
    program: &mut Program,
    dynamic: &DynamicTargets,
    mut work: Vec<NodeId>,
    flag: impl Fn(&mut super::Collect) -> &mut bool,
) {
    let mut anchors_taken = BTreeSet::new();
    while let Some(id) = work.pop() {
        let marked = flag(&mut program.nodes[id.0].collect);
        if *marked {
            continue;
        }
        *marked = true;
        let targets = in_place_targets(program, dynamic, &mut anchors_taken, id);
        crate::work::add(1 + targets.len());
        work.extend(targets);
    }
}

/// The nodes `id` applies to its own instance location, annotations kept; the nodes
/// declaring a `$dynamicRef`'s anchor only when the anchor is not in `anchors_taken`
/// (it is added), so that a walk lists each anchor's targets once however many
/// references name it.
fn in_place_targets(
    program: &Program,
    dynamic: &DynamicTargets,
    anchors_taken: &mut BTreeSet<String>,
    id: NodeId,
) -> Vec<NodeId> {
    let mut out = Vec::new();
    for check in &program.nodes[id.0].checks {
        match &check.kind {
            CheckKind::Not(_) => {}
            CheckKind::DynamicRef { fallback, anchor } => {
                out.push(fallback.target);
                if let Some(name) = anchor {
                    if !anchors_taken.contains(name) {
                        anchors_taken.insert(name.clone());
                        out.extend(dynamic.get(name).into_iter().flatten().copied());
                    }
                }
            }
            kind if kind.is_in_place() => out.extend(kind.edges().map(|e| e.target)),
            _ => {}
        }
    }
    out
}
