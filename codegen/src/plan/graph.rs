//! The graph the plan's analyses walk: which nodes a node's evaluation may evaluate next,
//! with the targets of every `$dynamicRef` reached through one vertex per anchor name, so
//! that its size stays linear in the program's: `r` references to an anchor that `d`
//! resources declare are `r + d` edges, not `r × d`.

use crate::ir::{CheckKind, NodeId, Program};
use std::collections::BTreeMap;

/// Vertices `0..nodes` are the program's nodes; one vertex per dynamic anchor name follows.
#[derive(Debug)]
pub(super) struct Graph {
    /// Each vertex's successors, one run per vertex (see [`Graph::successors`]): a node's
    /// are its edges' targets, in order, then the anchor vertex of each `$dynamicRef` with
    /// an anchor; an anchor vertex's are the nodes declaring the anchor.
    targets: Vec<usize>,
    /// Where each vertex's run starts in `targets`, and past the last, where it ends.
    starts: Vec<usize>,
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
        let mut starts = Vec::with_capacity(nodes + declaring.len() + 1);
        let mut targets = Vec::new();
        for (i, node) in program.nodes.iter().enumerate() {
            starts.push(targets.len());
            if canon(NodeId(i)) != NodeId(i) {
                continue;
            }
            for check in &node.checks {
                targets.extend(check.kind.edges().map(|e| canon(e.target).0));
                if let CheckKind::DynamicRef {
                    anchor: Some(name), ..
                } = &check.kind
                {
                    targets.extend(anchor_vertex.get(name.as_str()));
                }
            }
        }
        for declared in declaring.values() {
            starts.push(targets.len());
            targets.extend(declared.iter().map(|&(_, t)| canon(t).0));
        }
        starts.push(targets.len());
        let graph = Graph {
            targets,
            starts,
            nodes,
        };
        crate::work::add(graph.len() + graph.edges());
        graph
    }

    /// A graph of vertices without dynamic anchors, whose successors are given as one run
    /// per vertex: vertex `v`'s are `targets[starts[v]..starts[v + 1]]`.
    pub(super) fn from_runs(starts: Vec<usize>, targets: Vec<usize>) -> Graph {
        debug_assert!(starts.last() == Some(&targets.len()));
        let nodes = starts.len() - 1;
        Graph {
            targets,
            starts,
            nodes,
        }
    }

    /// The successors of vertex `v`.
    pub(super) fn successors(&self, v: usize) -> &[usize] {
        &self.targets[self.starts[v]..self.starts[v + 1]]
    }

    /// The number of vertices.
    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The number of edges.
    pub(super) fn edges(&self) -> usize {
        self.targets.len()
    }

    /// The graph with every edge reversed: each vertex's successors are its predecessors
    /// (one per edge, in increasing order of the edge's source).
    pub(super) fn reversed(&self) -> Graph {
        self.reverse(|_, source| source)
    }

    /// Per vertex, the edges into it by number (an edge's number is its place among all
    /// successors, vertex by vertex), as the runs of a graph.
    pub(super) fn reversed_edges(&self) -> Graph {
        self.reverse(|edge, _| edge)
    }

    /// The reversed graph, each edge `edge` from `source` written as `entry(edge, source)`.
    fn reverse(&self, entry: impl Fn(usize, usize) -> usize) -> Graph {
        let mut starts = vec![0; self.starts.len()];
        for &t in &self.targets {
            starts[t + 1] += 1;
        }
        for v in 1..starts.len() {
            starts[v] += starts[v - 1];
        }
        let mut next = starts.clone();
        let mut targets = vec![0; self.targets.len()];
        for v in 0..self.len() {
            for edge in self.starts[v]..self.starts[v + 1] {
                let t = self.targets[edge];
                targets[next[t]] = entry(edge, v);
                next[t] += 1;
            }
        }
        Graph {
            targets,
            starts,
            nodes: self.nodes,
        }
    }

    /// The graph whose vertex `v` has the successors `lists[v]`.
    #[cfg(test)]
    pub(super) fn from_lists(lists: &[Vec<usize>]) -> Graph {
        let mut starts = vec![0];
        starts.extend(lists.iter().scan(0, |end, list| {
            *end += list.len();
            Some(*end)
        }));
        Graph::from_runs(starts, lists.concat())
    }

    /// Whether each node (anchor vertices left out) is on a cycle, by Tarjan's algorithm
    /// without recursion. A node whose `$dynamicRef` may land on itself is on one.
    pub(super) fn on_cycles(&self) -> Vec<bool> {
        let n = self.len();
        // Where every edge leads to a later vertex, no path comes back: no cycle. (So it is
        // in most schemas without shared subschemas, which lowering numbers parents first.)
        if (0..n).all(|v| self.successors(v).iter().all(|&w| w > v)) {
            return vec![false; self.nodes];
        }
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
                if let Some(&w) = self.successors(v).get(*i) {
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
                    let cyclic = members.len() > 1 || self.successors(v).contains(&v);
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

#[cfg(test)]
pub(super) mod tests {
    use super::Graph;

    /// Numbers below the bound asked for, from a small linear congruential generator
    /// started at `seed`: the random graphs of the tests are the same on every run.
    pub(in crate::plan) fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % bound
        }
    }

    /// Whether vertex `v` of `lists` reaches itself by one edge or more.
    fn reaches_itself(lists: &[Vec<usize>], v: usize) -> bool {
        let mut seen = vec![false; lists.len()];
        let mut stack = lists[v].clone();
        while let Some(w) = stack.pop() {
            if w == v {
                return true;
            }
            if !std::mem::replace(&mut seen[w], true) {
                stack.extend(&lists[w]);
            }
        }
        false
    }

    #[test]
    fn on_cycles_agrees_with_reachability_on_random_graphs() {
        let mut next = numbers(0xc7c1e);
        let mut forward = 0;
        for round in 0..600 {
            let n = 1 + next(16);
            // A third of the rounds only has edges to later vertices (the shortcut's
            // case), another third to later ones but one, the rest anywhere.
            let lists: Vec<Vec<usize>> = (0..n)
                .map(|v| {
                    (0..next(4))
                        .map(|_| match round % 3 {
                            0 | 1 if v + 1 < n => v + 1 + next(n - v - 1),
                            0 | 1 => v,
                            _ => next(n),
                        })
                        .collect()
                })
                .collect();
            let mut lists = lists;
            if round % 3 == 1 {
                // One edge back, somewhere: a cycle unless the walk never closes it.
                let from = next(n);
                lists[from].push(next(from + 1));
            }
            let graph = Graph::from_lists(&lists);
            forward += usize::from(
                lists
                    .iter()
                    .enumerate()
                    .all(|(v, l)| l.iter().all(|&w| w > v)),
            );
            let expected: Vec<bool> = (0..n).map(|v| reaches_itself(&lists, v)).collect();
            assert_eq!(graph.on_cycles(), expected, "{lists:?}");
        }
        assert!(
            forward > 40,
            "the shortcut's case comes up ({forward} rounds)"
        );
    }
}
