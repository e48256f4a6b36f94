//! The coarsest partition of a graph's vertices that agrees with their labels and is
//! stable under their ordered successors, for sharing (see `share` in the parent module):
//! two vertices end in one class exactly when they have the same label and, position by
//! position, successors in one class. It is DFA minimization with successor positions as
//! letters, and this is Valmari's algorithm ("Fast brief practical DFA minimization",
//! Information Processing Letters 112, 2012), in O(m log n) for n vertices and m edges:
//! refining by one class at a time (all but the largest part of each split), where
//! refining until nothing changes, a round at a time, takes a round per link of a chain.

use super::graph::Graph;
use std::collections::HashMap;

/// A partition of `0..len` into sets that can be split by marking elements: the sets lie
/// in consecutive runs of `elements`, a set's marked elements at the front of its run.
struct Refinable {
    /// The elements, each set's in one run.
    elements: Vec<usize>,
    /// Where each element is in `elements`.
    location: Vec<usize>,
    /// Each element's set.
    set_of: Vec<usize>,
    /// Each set's run: `elements[first[s]..past[s]]`.
    first: Vec<usize>,
    /// See `first`.
    past: Vec<usize>,
    /// How many elements at the front of each set's run are marked.
    marked: Vec<usize>,
    /// The sets with a marked element.
    touched: Vec<usize>,
}

impl Refinable {
    /// One set per distinct key, in increasing key order.
    fn by_key(keys: &[usize]) -> Refinable {
        let mut elements: Vec<usize> = (0..keys.len()).collect();
        elements.sort_by_key(|&e| keys[e]);
        let mut location = vec![0; keys.len()];
        let mut set_of = vec![0; keys.len()];
        let (mut first, mut past) = (Vec::new(), Vec::new());
        for (at, &e) in elements.iter().enumerate() {
            if at == 0 || keys[e] != keys[elements[at - 1]] {
                if at > 0 {
                    past.push(at);
                }
                first.push(at);
            }
            set_of[e] = first.len() - 1;
            location[e] = at;
        }
        if !elements.is_empty() {
            past.push(elements.len());
        }
        let sets = first.len();
        Refinable {
            elements,
            location,
            set_of,
            first,
            past,
            marked: vec![0; sets],
            touched: Vec::new(),
        }
    }

    /// The number of sets.
    fn sets(&self) -> usize {
        self.first.len()
    }

    /// The elements of set `s`.
    fn members(&self, s: usize) -> &[usize] {
        &self.elements[self.first[s]..self.past[s]]
    }

    /// Marks element `e` (once; marking it again does nothing).
    fn mark(&mut self, e: usize) {
        crate::work::add(1);
        let s = self.set_of[e];
        let front = self.first[s] + self.marked[s];
        let at = self.location[e];
        if at < front {
            return;
        }
        self.elements.swap(at, front);
        self.location[self.elements[at]] = at;
        self.location[e] = front;
        if self.marked[s] == 0 {
            self.touched.push(s);
        }
        self.marked[s] += 1;
    }

    /// Splits every set with marked and unmarked elements in two: the smaller part
    /// becomes a new set (numbered after the others), and marks are cleared.
    fn split(&mut self) {
        while let Some(s) = self.touched.pop() {
            let boundary = self.first[s] + self.marked[s];
            self.marked[s] = 0;
            if boundary == self.past[s] {
                continue;
            }
            let new = self.sets();
            if boundary - self.first[s] <= self.past[s] - boundary {
                self.first.push(self.first[s]);
                self.past.push(boundary);
                self.first[s] = boundary;
            } else {
                self.first.push(boundary);
                self.past.push(self.past[s]);
                self.past[s] = boundary;
            }
            self.marked.push(0);
            crate::work::add(self.past[new] - self.first[new]);
            for at in self.first[new]..self.past[new] {
                self.set_of[self.elements[at]] = new;
            }
        }
    }
}

/// [`coarsest_partition`] without the refinement when nothing could split the vertices of
/// one label: each vertex has a label of its own or no successors (as in most small
/// schemas, whose repeated shapes are leaves). The classes are then the labels.
pub(super) fn classes(labels: &[usize], graph: &Graph) -> Vec<usize> {
    let mut alike = vec![0usize; labels.iter().max().map_or(0, |&most| most + 1)];
    for &label in labels {
        alike[label] += 1;
    }
    if (labels.iter().enumerate()).all(|(v, &l)| alike[l] == 1 || graph.successors(v).is_empty()) {
        labels.to_vec()
    } else {
        coarsest_partition(labels, graph)
    }
}

/// The vertices of `graph`, each after its successors, or `None` if it has a cycle.
pub(super) fn successors_first(graph: &Graph) -> Option<Vec<usize>> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; graph.len()];
    let mut order = Vec::with_capacity(graph.len());
    // The path from the current root: each vertex and how many of its successors it took.
    let mut path: Vec<(usize, usize)> = Vec::new();
    for root in 0..graph.len() {
        if state[root] != NEW {
            continue;
        }
        state[root] = ON_PATH;
        path.push((root, 0));
        while let Some((v, taken)) = path.last_mut() {
            crate::work::add(1);
            let v = *v;
            let Some(&w) = graph.successors(v).get(*taken) else {
                state[v] = DONE;
                order.push(v);
                path.pop();
                continue;
            };
            *taken += 1;
            match state[w] {
                NEW => {
                    state[w] = ON_PATH;
                    path.push((w, 0));
                }
                ON_PATH => return None,
                _ => {}
            }
        }
    }
    Some(order)
}

/// The coarsest partition of an acyclic graph's vertices, labelled by `label` (bytes
/// that no other label's bytes extend), found without the refinement: taken in `order`
/// (each after its successors), a vertex's class is that of the vertices before it with
/// its label and, position by position, successors of one class; one map lookup each.
pub(super) fn acyclic_classes<'l>(
    graph: &Graph,
    order: &[usize],
    label: impl Fn(usize) -> &'l [u8],
) -> Vec<usize> {
    let mut class = vec![0; graph.len()];
    let mut classes: HashMap<Vec<u8>, usize> = HashMap::with_capacity(order.len());
    // One vertex's label then its successors' classes (copied only when new).
    let mut key = Vec::new();
    for &v in order {
        key.clear();
        key.extend_from_slice(label(v));
        for &w in graph.successors(v) {
            key.extend_from_slice(&(class[w] as u64).to_le_bytes());
        }
        crate::work::add(key.len());
        class[v] = match classes.get(&key) {
            Some(&c) => c,
            None => {
                let fresh = classes.len();
                classes.insert(key.clone(), fresh);
                fresh
            }
        };
    }
    class
}

/// The class of each vertex in the coarsest partition that puts vertices with different
/// `labels` apart and in which two vertices of a class have, at each position of their
/// `successors` lists, successors of one class (vertices of one label must have as many
/// successors). Classes are numbered arbitrarily.
pub(super) fn coarsest_partition(labels: &[usize], graph: &Graph) -> Vec<usize> {
    // Edge e goes from tails[e] at position positions[e] of its tail's successors.
    let (mut tails, mut positions) = (Vec::new(), Vec::new());
    for tail in 0..graph.len() {
        for position in 0..graph.successors(tail).len() {
            tails.push(tail);
            positions.push(position);
        }
    }
    // The edges into each vertex: the reversed graph's successors, by edge number.
    let incoming = graph.reversed_edges();
    let mut blocks = Refinable::by_key(labels);
    // Edges by position, then split so that each set's edges lead into one block.
    let mut cords = Refinable::by_key(&positions);
    // Every block but the first splits the cords (the first is what the others leave),
    // and every cord the blocks.
    let (mut block, mut cord) = (1, 0);
    while cord < cords.sets() {
        for at in cords.first[cord]..cords.past[cord] {
            blocks.mark(tails[cords.elements[at]]);
        }
        blocks.split();
        cord += 1;
        while block < blocks.sets() {
            for &vertex in blocks.members(block) {
                for &e in incoming.successors(vertex) {
                    cords.mark(e);
                }
            }
            cords.split();
            block += 1;
        }
    }
    blocks.set_of
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The same partition refined a round at a time until no class splits (the
    /// definition, in quadratic time), as block numbers in order of first appearance.
    fn refined_by_rounds(labels: &[usize], successors: &[Vec<usize>]) -> Vec<usize> {
        let mut class = labels.to_vec();
        loop {
            let mut ids: BTreeMap<(usize, Vec<usize>), usize> = BTreeMap::new();
            let next: Vec<usize> = (0..labels.len())
                .map(|v| {
                    let key = (class[v], successors[v].iter().map(|&t| class[t]).collect());
                    let fresh = ids.len();
                    *ids.entry(key).or_insert(fresh)
                })
                .collect();
            let settled = ids.len()
                == class
                    .iter()
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
            class = next;
            if settled {
                return normalized(&class);
            }
        }
    }

    /// Class numbers renamed in order of first appearance, so partitions compare equal.
    fn normalized(class: &[usize]) -> Vec<usize> {
        let mut names = BTreeMap::new();
        class
            .iter()
            .map(|&c| {
                let fresh = names.len();
                *names.entry(c).or_insert(fresh)
            })
            .collect()
    }

    #[test]
    fn agrees_with_refinement_by_rounds_on_random_graphs() {
        let mut next = crate::plan::graph::tests::numbers(0x5eed);
        for round in 0..400 {
            let n = 1 + next(24);
            let kinds = 1 + next(3);
            // A label fixes the number of successors, as a node's shape does.
            let arity: Vec<usize> = (0..kinds).map(|_| next(4)).collect();
            // Every other round acyclic: edges only to later vertices in a shuffled
            // order, where a vertex with none after it gets a label without successors.
            let acyclic = round % 2 == 1;
            let mut rank: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                rank.swap(i, next(i + 1));
            }
            let later =
                |v: usize| -> Vec<usize> { (0..n).filter(|&w| rank[w] > rank[v]).collect() };
            let labels: Vec<usize> = (0..n)
                .map(|v| match next(kinds) {
                    l if acyclic && arity[l] > 0 && later(v).is_empty() => kinds,
                    l => l,
                })
                .collect();
            let arity_of = |l: usize| arity.get(l).copied().unwrap_or(0);
            let successors: Vec<Vec<usize>> = (0..n)
                .map(|v| {
                    let later = later(v);
                    (0..arity_of(labels[v]))
                        .map(|_| {
                            if acyclic {
                                later[next(later.len())]
                            } else {
                                next(n)
                            }
                        })
                        .collect()
                })
                .collect();
            let expected = refined_by_rounds(&labels, &successors);
            let graph = Graph::from_lists(&successors);
            assert!(!acyclic || successors_first(&graph).is_some());
            assert_eq!(
                normalized(&coarsest_partition(&labels, &graph)),
                expected,
                "round {round}: labels {labels:?}, successors {successors:?}"
            );
            assert_eq!(
                normalized(&classes(&labels, &graph)),
                expected,
                "round {round} (classes): labels {labels:?}, successors {successors:?}"
            );
            if let Some(order) = successors_first(&graph) {
                let bytes: Vec<[u8; 8]> =
                    labels.iter().map(|&l| (l as u64).to_le_bytes()).collect();
                assert_eq!(
                    normalized(&acyclic_classes(&graph, &order, |v| &bytes[v])),
                    expected,
                    "round {round} (acyclic): labels {labels:?}, successors {successors:?}"
                );
            }
        }
    }

    #[test]
    fn a_chain_is_told_apart_link_by_link_and_a_ring_is_one_class() {
        // 0 -> 1 -> ... -> 99, whose end has another label: every link differs.
        let mut labels = vec![0; 100];
        labels[99] = 1;
        let chain: Vec<Vec<usize>> = (0..100)
            .map(|v| if v < 99 { vec![v + 1] } else { vec![] })
            .collect();
        let class = coarsest_partition(&labels, &Graph::from_lists(&chain));
        let distinct: std::collections::BTreeSet<_> = class.iter().collect();
        assert_eq!(distinct.len(), 100);
        // A ring of one label: all alike.
        let ring: Vec<Vec<usize>> = (0..100).map(|v| vec![(v + 1) % 100]).collect();
        let class = coarsest_partition(&[0; 100], &Graph::from_lists(&ring));
        assert!(class.iter().all(|&c| c == class[0]));
    }
}
