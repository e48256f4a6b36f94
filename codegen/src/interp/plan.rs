//! Per-node plans, computed once when the interpreter is built: which checks of a node
//! are fused into one pass over an object's properties, and a sorted index of the
//! `properties` names for lookups by instance key.

use crate::ir::{CheckKind, Edge, Node, Program};
use crate::plan::lookup::{pattern_set, EnumTable};
use crate::regex::PatternSet;

/// What the interpreter precomputes about one node.
#[derive(Debug, Default)]
pub(super) struct NodePlan {
    /// The node has an `unevaluatedProperties` / `unevaluatedItems` check of its own, so
    /// it needs evaluated-location sets even when no parent asks for them.
    pub(super) has_unevaluated: bool,
    /// The node records evaluated properties (its `collect` flag, or a check of its own).
    pub(super) collect_properties: bool,
    /// The node records evaluated items.
    pub(super) collect_items: bool,
    /// `properties`, `patternProperties` and `additionalProperties` fused into one pass.
    pub(super) object: Option<ObjectPlan>,
    /// The check index of the node's `properties` check and a lookup index over its names.
    pub(super) property_index: Option<(usize, PropertyIndex)>,
    /// Prefilters for the `patternProperties` / `additionalProperties` checks with at
    /// least [`PatternSet::MIN_PATTERNS`] patterns, by check index.
    pub(super) pattern_sets: Vec<(usize, PatternSet)>,
    /// Member tables of the `enum` checks with enough members, by check index.
    pub(super) enum_tables: Vec<(usize, EnumTable)>,
}

impl NodePlan {
    /// The prefilter of check `index`, if it has one.
    pub(super) fn pattern_set(&self, index: usize) -> Option<&PatternSet> {
        self.pattern_sets
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, set)| set)
    }

    /// The member tables of check `index`, if it has them.
    pub(super) fn enum_table(&self, index: usize) -> Option<&EnumTable> {
        self.enum_tables
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, table)| table)
    }
}

/// Finds a `properties` entry by instance key: a scan of name lengths for a few names,
/// binary search over the sorted names for many.
#[derive(Debug)]
pub(super) struct PropertyIndex {
    /// Byte length of each entry's name, in entry order.
    lengths: Vec<usize>,
    /// Entry indices sorted by name (used above [`PropertyIndex::SCAN`] entries).
    sorted: Vec<u32>,
}

impl PropertyIndex {
    /// Up to this many names, a linear scan (lengths first) beats binary search.
    const SCAN: usize = 16;

    fn new(entries: &[(String, Edge)]) -> PropertyIndex {
        let lengths = entries.iter().map(|(name, _)| name.len()).collect();
        let mut sorted: Vec<u32> = Vec::new();
        if entries.len() > PropertyIndex::SCAN {
            sorted = (0..entries.len() as u32).collect();
            sorted.sort_by(|&a, &b| entries[a as usize].0.cmp(&entries[b as usize].0));
        }
        PropertyIndex { lengths, sorted }
    }

    /// The entry of `entries` (the ones this index was built from) named `key`.
    pub(super) fn find<'p>(&self, entries: &'p [(String, Edge)], key: &str) -> Option<&'p Edge> {
        if self.sorted.is_empty() {
            let len = key.len();
            for (i, &l) in self.lengths.iter().enumerate() {
                if l == len {
                    if let Some((name, edge)) = entries.get(i) {
                        if name.as_bytes() == key.as_bytes() {
                            return Some(edge);
                        }
                    }
                }
            }
            return None;
        }
        let at = self
            .sorted
            .binary_search_by(|&i| {
                entries
                    .get(i as usize)
                    .map_or(std::cmp::Ordering::Less, |(name, _)| name.as_str().cmp(key))
            })
            .ok()?;
        entries.get(self.sorted[at] as usize).map(|(_, edge)| edge)
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

/// Plans every node of `program`.
pub(super) fn plan(program: &Program) -> Vec<NodePlan> {
    program
        .nodes
        .iter()
        .map(|node| plan_node(program, node))
        .collect()
}

fn plan_node(program: &Program, node: &Node) -> NodePlan {
    let mut out = NodePlan {
        collect_properties: node.collect.properties,
        collect_items: node.collect.items,
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
                    out.property_index = Some((i, PropertyIndex::new(entries)));
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
