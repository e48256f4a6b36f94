//! Analysis over a lowered [`Program`]: which nodes must produce evaluated-location sets
//! for `unevaluatedProperties` / `unevaluatedItems`, and whether the dynamic scope is
//! needed. Schemas that use neither pay nothing for them.

use super::{CheckKind, NodeId, Program};

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
    propagate(program, props, |c| &mut c.properties);
    propagate(program, items, |c| &mut c.items);
    for i in 0..program.nodes.len() {
        let c = program.nodes[i].collect;
        if c.properties || c.items {
            for t in in_place_targets(program, NodeId(i)) {
                program.nodes[t.0].collect.given = true;
            }
        }
    }
}

/// Marks every node reachable from `work` through in-place edges (seeds included).
fn propagate(
    program: &mut Program,
    mut work: Vec<NodeId>,
    flag: impl Fn(&mut super::Collect) -> &mut bool,
) {
    while let Some(id) = work.pop() {
        let marked = flag(&mut program.nodes[id.0].collect);
        if *marked {
            continue;
        }
        *marked = true;
        work.extend(in_place_targets(program, id));
    }
}

/// The nodes `id` applies to its own instance location, annotations kept.
fn in_place_targets(program: &Program, id: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    for check in &program.nodes[id.0].checks {
        match &check.kind {
            CheckKind::Not(_) => {}
            CheckKind::DynamicRef { fallback, anchor } => {
                out.push(fallback.target);
                if let Some(name) = anchor {
                    out.extend(program.dynamic_targets(name).into_iter().map(|(_, t)| t));
                }
            }
            kind if kind.is_in_place() => out.extend(kind.edges().iter().map(|e| e.target)),
            _ => {}
        }
    }
    out
}
