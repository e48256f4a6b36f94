//! The fused object pass as the interpreter plans it: which object applicators of a node
//! run together ([`ObjectPass`], at the first of them), and the copies of their data a
//! short-circuit step owns ([`ObjectOp`], [`ClosedOp`], [`PropertiesOp`], a folded
//! `required`), with what the patterns do at each `properties` name ([`NamedPatterns`],
//! measured by running them on a [`Ctx`]).

use super::NodePlan;
use crate::interp::context::{pattern_applies, Ctx};
use crate::interp::index::{PropertyIndex, Required};
use crate::ir::{CheckKind, Edge, Node, NodeId, Program, RegexId};
use crate::regex::PatternSet;
use schemac_runtime::Limits;

#[cfg(doc)]
use super::Op;

/// A `properties` check as [`Op::Properties`], [`Op::Closed`] and [`Op::Object`] run it,
/// copied from the check and its node's plan so that running it reads nothing else.
#[derive(Debug, Clone)]
pub(in crate::interp) struct PropertiesOp {
    /// The entries: name and edge.
    pub(in crate::interp) entries: Box<[(String, Edge)]>,
    /// The lookup index over the entries' names, when the node's plan has one.
    pub(in crate::interp) index: Option<PropertyIndex>,
}

/// `properties`, and the `additionalProperties` applied to every other key, as
/// [`Op::Closed`] runs them.
#[derive(Debug, Clone)]
pub(in crate::interp) struct ClosedOp {
    /// `properties`.
    pub(in crate::interp) properties: PropertiesOp,
    /// The schema of `additionalProperties`, with what it charges per key of the object
    /// ([`NodePlan::loop_cost`], charged for every key before the pass); `None` when
    /// `properties` stands alone.
    pub(in crate::interp) additional: Option<(NodeId, u64)>,
    /// See [`ObjectPass::locations`].
    pub(in crate::interp) locations: bool,
    /// A `required` of the same lane folded into the pass ([`fold_required`](super::steps::fold_required)).
    pub(in crate::interp) required: Option<Box<FoldedRequired>>,
}

/// A `required` folded into the [`ClosedOp`] pass before it in its lane: decided once
/// the pass has been over the object's keys, before the deferred entries run (as
/// generated code decides it after its loop over the keys). On an object of at most
/// [`FOLDED_REQUIRED_KEYS`](crate::plan::thresholds::FOLDED_REQUIRED_KEYS) keys, from the
/// names the pass's lookups of the keys found (each finds both the entry applying to the
/// key and the required name it is), when it has `found`; else by a lookup of each name.
#[derive(Debug, Clone)]
pub(in crate::interp) struct FoldedRequired {
    /// The check itself.
    pub(in crate::interp) required: Required,
    /// When each of its (at most 64 distinct) names is an entry's: for each `properties`
    /// entry, the bit of the required name it is (zero for none), and the bits of every
    /// required name.
    pub(in crate::interp) found: Option<(Box<[u64]>, u64)>,
}

impl FoldedRequired {
    /// `required` folded into a pass over `entries`.
    pub(super) fn new(required: &Required, entries: &[(String, Edge)]) -> FoldedRequired {
        let mut distinct: Vec<&str> = required.names.iter().map(String::as_str).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let bit = |name: &str| distinct.binary_search(&name).map_or(0, |at| 1u64 << at);
        let found = (distinct.len() <= 64).then(|| {
            let bits: Box<[u64]> = entries.iter().map(|(name, _)| bit(name)).collect();
            let all = bits.iter().fold(0u64, |all, b| all | b);
            (bits, all)
        });
        FoldedRequired {
            required: required.clone(),
            found: found.filter(|(_, all)| all.count_ones() as usize == distinct.len()),
        }
    }
}

/// `additionalProperties` as [`ObjectOp`] holds it: its schema, names and patterns.
pub(in crate::interp) type AdditionalOp = (Edge, Box<[String]>, Box<[RegexId]>);

/// The object applicators one pass over an object runs ([`Op::Object`]), copied from the
/// checks and their node's plan (what an [`ObjectPass`] borrows).
#[derive(Debug, Clone)]
pub(in crate::interp) struct ObjectOp {
    /// `properties`.
    pub(in crate::interp) properties: Option<PropertiesOp>,
    /// `patternProperties`.
    pub(in crate::interp) patterns: Option<Box<[(RegexId, Edge)]>>,
    /// `patternProperties`' prefilter, when it has one.
    pub(in crate::interp) pattern_set: Option<PatternSet>,
    /// `additionalProperties`: its schema, names and patterns.
    pub(in crate::interp) additional: Option<AdditionalOp>,
    /// The prefilter of `additionalProperties`' patterns, when it has one.
    pub(in crate::interp) additional_set: Option<PatternSet>,
    /// Whether `additional`'s names and patterns are exactly the sibling ones above.
    pub(in crate::interp) fused: bool,
    /// `propertyNames`: its schema, given each key.
    pub(in crate::interp) names: Option<Edge>,
    /// With `properties` and `patternProperties`: what the patterns do at each
    /// `properties` name, by entry (empty otherwise, or when a name's patterns would stop
    /// even an unbounded budget).
    pub(in crate::interp) named: Box<[NamedPatterns]>,
    /// A `required` of the same lane folded into the pass ([`fold_required`](super::steps::fold_required)):
    /// decided once the pass has been over the keys, before the deferred entries run.
    pub(in crate::interp) required: Option<Box<Required>>,
    /// See [`ObjectPass::collects`].
    pub(in crate::interp) collects: bool,
    /// See [`ObjectPass::locations`].
    pub(in crate::interp) locations: bool,
}

/// What `patternProperties` does at an instance key that is a `properties` name, decided
/// when planning (the name is known): the units its prefilter and its patterns charge,
/// and the patterns that match, in the order the pass charges and applies them.
/// Consecutive charges with nothing evaluated between them are one charge, which stops
/// exactly when one of them would.
#[derive(Debug, Clone, Default)]
pub(in crate::interp) struct NamedPatterns {
    /// The units charged before the first match is applied (all of them when none
    /// matches).
    pub(in crate::interp) lead: u64,
    /// The matching patterns, by index, each with the units charged after it is applied.
    pub(in crate::interp) matches: Box<[(usize, u64)]>,
}

/// A `properties` check's entries, with their indices sorted by name when known.
pub(in crate::interp) type PropertiesRef<'p> = (&'p [(String, Edge)], Option<&'p PropertyIndex>);

/// The object applicators one pass over an object runs.
#[derive(Clone, Copy)]
pub(in crate::interp) struct ObjectPass<'p> {
    /// `properties`, with its entries' indices sorted by name when known.
    pub(in crate::interp) properties: Option<PropertiesRef<'p>>,
    /// `patternProperties`.
    pub(in crate::interp) patterns: Option<&'p [(RegexId, Edge)]>,
    /// `patternProperties`' prefilter, when it has one.
    pub(in crate::interp) pattern_set: Option<&'p PatternSet>,
    /// `additionalProperties`: its schema, names and patterns.
    pub(in crate::interp) additional: Option<(&'p Edge, &'p [String], &'p [RegexId])>,
    /// The prefilter of `additionalProperties`' patterns, when it has one.
    pub(in crate::interp) additional_set: Option<&'p PatternSet>,
    /// Whether `additional`'s names and patterns are exactly the sibling ones above, so
    /// that "covered by a sibling" is already known.
    pub(in crate::interp) fused: bool,
    /// `propertyNames`: its schema, given each key.
    pub(in crate::interp) names: Option<&'p Edge>,
    /// What `patterns` do at each `properties` name ([`ObjectOp::named`]; none when the
    /// pass is borrowed from the node and its plan).
    pub(in crate::interp) named: &'p [NamedPatterns],
    /// A folded `required` ([`ObjectOp::required`]; none when the pass is borrowed).
    pub(in crate::interp) required: Option<&'p Required>,
    /// Whether the node may record the properties it evaluates (`Node::collect`), for
    /// an `unevaluatedProperties` that reads them.
    pub(in crate::interp) collects: bool,
    /// `additional` is an `unevaluatedProperties` decided in the pass
    /// ([`NodePlan::closing`]): every key's location is charged before the pass too, as
    /// recording it evaluated is.
    pub(in crate::interp) locations: bool,
}

impl ObjectPass<'_> {
    /// Whether a pattern whose subschema is always valid ([`NodePlan::always_valid`]) is
    /// not tried where nothing records what it evaluates (the node does not collect, and
    /// no annotations are asked for: the caller's part): it does nothing at a key it
    /// matches — unless it covers the key from `additionalProperties`, when that skips
    /// exactly the sibling patterns ([`ObjectPass::fused`]). Generated code does not
    /// try it either.
    pub(in crate::interp) fn skips_always_valid(&self) -> bool {
        !(self.collects || self.fused && self.additional.is_some())
    }

    /// Whether the pass applies a subschema that `applies` (one that is not valid
    /// whatever the instance, with nothing to charge): short-circuit evaluation of a pass
    /// that applies none has nothing to do.
    pub(in crate::interp) fn applies_any(&self, applies: impl Fn(&NodeId) -> bool) -> bool {
        let properties = self.properties.map_or(&[][..], |(entries, _)| entries);
        let patterns = self.patterns.unwrap_or_default();
        (properties.iter().map(|(_, edge)| edge))
            .chain(patterns.iter().map(|(_, edge)| edge))
            .chain(self.additional.map(|(edge, _, _)| edge))
            .chain(self.names)
            .any(|edge| applies(&edge.target))
    }
}

/// The pass over an object's properties that check `index` of `node` (an object
/// applicator) runs: the fused applicators at the first of them (`None` at the others,
/// which ran with it), else the check alone.
#[inline(always)]
pub(in crate::interp) fn object_pass_at<'p>(
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
    let names_at = |i: usize| match kind(i) {
        Some(CheckKind::PropertyNames(edge)) => Some(edge),
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
    let names = plan.object.as_ref().and_then(|fused| fused.names);
    Some(ObjectPass {
        properties: properties.and_then(properties_at),
        patterns: patterns.and_then(patterns_at),
        pattern_set: patterns.and_then(|i| plan.pattern_set(i)),
        additional: additional.and_then(additional_at),
        additional_set: additional.and_then(|i| plan.pattern_set(i)),
        fused,
        names: names.and_then(names_at),
        named: &[],
        required: None,
        collects: node.collect.properties,
        locations: false,
    })
}

impl PropertiesOp {
    /// The entries and their index, borrowed as a pass reads them.
    pub(in crate::interp) fn borrowed(&self) -> PropertiesRef<'_> {
        (&self.entries, self.index.as_ref())
    }
}

impl ObjectOp {
    /// The op that runs `pass` (of `program`, every node planned `plans`), copying what it
    /// borrows, with what its patterns do at each `properties` name.
    pub(super) fn of(pass: ObjectPass<'_>, (program, plans): (&Program, &[NodePlan])) -> ObjectOp {
        // Patterns that all apply an always valid subschema do nothing here
        // ([`ObjectPass::skips_always_valid`]): no patterns at all.
        let mut pass = pass;
        if let Some(patterns) = pass.patterns.filter(|_| pass.skips_always_valid()) {
            if patterns
                .iter()
                .all(|(_, edge)| plans[edge.target.0].always_valid)
            {
                (pass.patterns, pass.pattern_set) = (None, None);
            }
        }
        let named = match (pass.properties, pass.patterns) {
            (Some((entries, _)), Some(patterns)) => (entries.iter())
                .map(|(name, _)| {
                    let set = pass.pattern_set;
                    named_patterns(
                        (program, plans),
                        (patterns, set),
                        pass.skips_always_valid(),
                        name,
                    )
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
            names: pass.names.cloned(),
            named,
            required: None,
            collects: pass.collects,
            locations: pass.locations,
        }
    }

    /// The pass the op runs.
    pub(in crate::interp) fn pass(&self) -> ObjectPass<'_> {
        ObjectPass {
            properties: self.properties.as_ref().map(PropertiesOp::borrowed),
            patterns: self.patterns.as_deref(),
            pattern_set: self.pattern_set.as_ref(),
            additional: (self.additional.as_ref())
                .map(|(edge, known, patterns)| (edge, &known[..], &patterns[..])),
            additional_set: self.additional_set.as_ref(),
            fused: self.fused,
            names: self.names.as_ref(),
            named: &self.named,
            required: self.required.as_deref(),
            collects: self.collects,
            locations: self.locations,
        }
    }
}

/// The [`NamedPatterns`] of the `properties` name `name`: `patterns` (prefiltered by
/// `set` when it has one) run at it as the interpreter's object pass runs them (in
/// `program`, its nodes planned `plans`), their charges recorded; `None` if they stop.
pub(super) fn named_patterns(
    (program, plans): (&Program, &[NodePlan]),
    (patterns, set): (&[(RegexId, Edge)], Option<&PatternSet>),
    skips_always_valid: bool,
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
        if skips_always_valid && plans[edge.target.0].always_valid {
            continue;
        }
        let loop_cost = || plans[edge.target.0].loop_cost;
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
