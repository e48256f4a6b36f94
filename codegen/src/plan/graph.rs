//! The graph the plan's analyses walk: which nodes a node's evaluation may evaluate next,
//! with the targets of every `$dynamicRef` reached through one vertex per anchor name, so
//! that its size stays linear in the program's: `r` references to an anchor that `d`
//! resources declare are `r + d` edges, not `r × d`.

use crate::ir::{CheckKind, NodeId, Program};
use std::collections::BTreeMap;

/// Vertices `0..nodes` are the program's nodes; one vertex per dynamic anchor name follows.
#[derive(Debug)]
pub(super) struct Graph {
    /// Each vertex's successors: a node's are its edges' targets, in order, then the
    /// anchor vertex of each `$dynamicRef` with an anchor; an anchor vertex's are the
    /// nodes declaring the anchor.
    pub(super) successors: Vec<Vec<usize>>,
    /// The number of node vertices.
    pub(super) nodes: usize,
}

impl Graph {
    /// The graph of `program` with every target taken through `canon`; a node that is not
    /// its own `canon` (another node stands for it) has no successors.
    pub(super) fn new(program: &Program, canon: &impl Fn(NodeId) -> NodeId) -> Graph {
        let nodes = program.nodes.len();
        let declaring = program.dynamic_targets_by_name();
        let anchor_vertex: BTreeMap<&str, usize> = (declaring.keys().enumerate())
            .map(|(i, &name)| (name, nodes + i))
            .collect();
        let mut successors: Vec<Vec<usize>> = (0..nodes)
            .map(|i| {
                let mut out = Vec::new();
                if canon(NodeId(i)) != NodeId(i) {
                    return out;
                }
                for check in &program.nodes[i].checks {
                    out.extend(check.kind.edges().map(|e| canon(e.target).0));
                    if let CheckKind::DynamicRef {
                        anchor: Some(name), ..
                    } = &check.kind
                    {
                        out.extend(anchor_vertex.get(name.as_str()));
                    }
                }
                out
            })
            .collect();
        successors.extend(
            (declaring.values()).map(|targets| targets.iter().map(|&(_, t)| canon(t).0).collect()),
        );
        let graph = Graph { successors, nodes };
        crate::work::add(graph.len() + graph.edges());
        graph
    }

    /// The number of vertices.
    pub(super) fn len(&self) -> usize {
        self.successors.len()
    }

    /// The number of edges.
    pub(super) fn edges(&self) -> usize {
        self.successors.iter().map(Vec::len).sum()
    }

    /// Each vertex's predecessors (one entry per edge).
    pub(super) fn predecessors(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.len()];
        for (v, list) in self.successors.iter().enumerate() {
            for &t in list {
                out[t].push(v);
            }
        }
        out
    }

    /// Whether each node (anchor vertices left out) is on a cycle, by Tarjan's algorithm
    /// without recursion. A node whose `$dynamicRef` may land on itself is on one.
    pub(super) fn on_cycles(&self) -> Vec<bool> {
        let succ = &self.successors;
        let n = succ.len();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut out = vec![false; n];
        let mut next = 0;
        // (The walk's and each component's lists, reused.)
        let (mut call, mut members): (Vec<(usize, usize)>, Vec<usize>) = (Vec::new(), Vec::new());
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            call.push((root, 0));
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut i)) = call.last_mut() {
                crate::work::add(1);
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
                    members.clear();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = members.len() > 1 || succ[v].contains(&v);
                    for &w in &members {
                        out[w] = cyclic;
                    }
                }
            }
        }
        out.truncate(self.nodes);
        out
    }
}
