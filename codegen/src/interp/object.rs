//! The object keywords: `required`, `dependentRequired`, the object applicators
//! (`properties`, `patternProperties`, `additionalProperties`) as one pass over an
//! object's properties, in their collecting form ([`Interpreter::object_pass`]) and the
//! short-circuit forms the plan's ops choose (properties alone, looked up, closed, with
//! a folded `required`), `propertyNames` and `unevaluatedProperties`.

use super::access::{count, has_key, text_of};
use super::annotations::Annotations;
use super::context::{charge_elements, pattern_applies, pattern_matches, Ctx, Inst};
use super::index::{NameTable, PropertyIndex, Required};
use super::plan::{
    object_pass_at, ClosedOp, LookupsOp, NamedPatterns, NodePlan, ObjectOp, ObjectPass,
    PropertiesRef,
};
use super::Interpreter;
use crate::ir::{CheckKind, Edge, Node, NodeId, RegexId};
use crate::plan::messages;
use crate::plan::thresholds::{FOLDED_REQUIRED_KEYS, FOUND_IN_PASS, KEYS_PER_NAME};
use schemac_runtime::document::JsonStr;
use schemac_runtime::engine::{Bits, Res, Stop};
use schemac_runtime::error::ErrorKind;
use schemac_runtime::instance::Instance;
use serde_json::Value;
use std::borrow::Cow;

#[cfg(doc)]
use super::plan::Op;

impl Interpreter {
    #[inline(never)]
    pub(super) fn required<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        object: I,
        names: &[String],
    ) -> bool {
        let mut ok = true;
        for name in names {
            if !has_key(object, name) {
                ok = false;
                if !cx.report {
                    break;
                }
                cx.error(
                    node,
                    keyword,
                    ErrorKind::Required {
                        property: Cow::Owned(name.clone()),
                    },
                );
            }
        }
        ok
    }

    #[inline(never)]
    pub(super) fn dependent_required<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (node, plan): (&Node, &NodePlan),
        (index, keyword): (usize, &str),
        object: I,
        dependencies: &[(String, Vec<String>)],
    ) -> Res {
        let mut ok = true;
        for (entry, (property, required)) in dependencies.iter().enumerate() {
            if !has_key(object, property) {
                continue;
            }
            if let (Some(list), true) = (plan.name_list(index, entry), cx.report) {
                ok &= cx.missing(object, list, |trail, name| {
                    trail.error_of(
                        &node.uri,
                        Some(keyword),
                        ErrorKind::DependentRequired {
                            property: Cow::Owned(property.clone()),
                            missing: Cow::Owned(name.clone()),
                        },
                    )
                })?;
                continue;
            }
            for name in required {
                if !has_key(object, name) {
                    ok = false;
                    if !cx.report {
                        return Ok(false);
                    }
                    cx.error(
                        node,
                        keyword,
                        ErrorKind::DependentRequired {
                            property: Cow::Owned(property.clone()),
                            missing: Cow::Owned(name.clone()),
                        },
                    );
                }
            }
        }
        Ok(ok)
    }

    /// `properties`, `patternProperties`, `additionalProperties` (and `propertyNames`
    /// fused with them): the check at `index`, fused with its siblings when the plan
    /// says so.
    #[inline(never)]
    pub(super) fn object_check<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        index: usize,
        object: I,
        ann: Option<&mut Annotations>,
    ) -> Res {
        if let (None, Some(CheckKind::Properties(entries))) =
            (&plan.object, node.checks.get(index).map(|c| &c.kind))
        {
            // Alone, without a set to record in or with its names to record there
            // (short-circuit mode).
            let names = (plan.property_names.as_ref())
                .filter(|_| !cx.locates() && plan.properties_index(index).is_some());
            if ann.is_none() || names.is_some() {
                // Recording, it applies the entries in the keys' order, as generated code
                // does where it records by position.
                let defer = ann.is_none();
                if let (Some(ann), Some(names)) = (ann, names) {
                    ann.add_names(names);
                }
                let properties = (entries.as_slice(), plan.properties_index(index));
                return match defer {
                    true => self.properties_alone::<_, true>(cx, properties, object, None),
                    false => self.properties_alone::<_, false>(cx, properties, object, None),
                };
            }
        }
        match object_pass_at(node, plan, index) {
            Some(pass) => self.object_pass(cx, pass, object, ann),
            None => Ok(true),
        }
    }

    /// [`Op::Object`] in short-circuit mode.
    #[inline(never)]
    pub(super) fn object_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &ObjectOp,
        object: I,
    ) -> Res {
        self.object_pass(cx, op.pass(), object, None)
    }

    /// One pass over the object's properties, running the applicators in `pass` on each.
    pub(super) fn object_pass<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        pass: ObjectPass<'_>,
        object: I,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // Every key pays for `additionalProperties` and `propertyNames` before the pass; a
        // `patternProperties` child is paid for when its pattern matches.
        let per_key = [pass.additional.map(|(e, _, _)| e), pass.names];
        let per_key = (per_key.into_iter().flatten())
            .map(|edge| self.plans[edge.target.0].loop_cost)
            .fold(0, u64::saturating_add);
        if pass.locations {
            cx.state.charge(count(object))?;
        }
        charge_elements(cx, count(object), per_key)?;
        if let (None, None, Some((edge, [], [])), None) =
            (pass.properties, pass.patterns, pass.additional, pass.names)
        {
            if ann.is_none() && !cx.locates() {
                return self.values_quietly(cx, edge.target, object);
            }
        }
        // Recursive or heavy properties run after the loop, by name (the plan's order),
        // unless evaluated properties are recorded by position.
        let defer = ann.is_none();
        let skips = ann.is_none() && !cx.annotate && pass.skips_always_valid();
        let mut deferred = Deferred::default();
        let mut ok = true;
        for (position, (key, value)) in object.entries().enumerate() {
            let owned;
            let key = text_of!(key, owned);
            let mut covered = false;
            let mut evaluated = false;
            let mut named = None;
            if let Some((entries, order)) = pass.properties {
                if let Some((at, edge)) = find_property(entries, order, key) {
                    covered = true;
                    evaluated = true;
                    named = pass.named.get(at);
                    let later = defer && self.plans[edge.target.0].deferred;
                    if later {
                        deferred.add(at, value);
                    }
                    if !later && !self.apply_at_key(cx, edge, key, value)? {
                        ok = false;
                        if !cx.report {
                            return Ok(false);
                        }
                    }
                }
            }
            if let Some(patterns) = pass.patterns {
                let patterns = (patterns, skips);
                let (matched, valid) = match named {
                    Some(named) => self.named_patterns_at(cx, named, patterns.0, key, value)?,
                    // Without a prefilter every pattern is tried: no candidate list to build.
                    None => match pass.pattern_set {
                        None => {
                            let all = 0..patterns.0.len();
                            self.apply_patterns(cx, patterns, all, key, value)?
                        }
                        Some(set) => {
                            let candidates = cx.candidates(set, key)?.map(|i| i as usize);
                            self.apply_patterns(cx, patterns, candidates, key, value)?
                        }
                    },
                };
                if matched {
                    covered = true;
                    evaluated = true;
                }
                if !valid {
                    ok = false;
                    if !cx.report {
                        return Ok(false);
                    }
                }
            }
            if let Some((edge, known, patterns)) = pass.additional {
                if !pass.fused {
                    covered = known.iter().any(|k| k == key);
                    if !covered {
                        covered = match pass.additional_set {
                            None => {
                                self.any_pattern_matches(cx, patterns, 0..patterns.len(), key)?
                            }
                            Some(set) => {
                                let candidates = cx.candidates(set, key)?;
                                let candidates = candidates.map(|i| i as usize);
                                self.any_pattern_matches(cx, patterns, candidates, key)?
                            }
                        };
                    }
                }
                if !covered {
                    evaluated = true;
                    let refusal =
                        || messages::additional_refusal(self.program(), edge, known, patterns);
                    if !self.apply_refusing(cx, edge, refusal, key, value)? {
                        ok = false;
                        if !cx.report {
                            return Ok(false);
                        }
                    }
                }
            }
            if let Some(edge) = pass.names {
                if !self.property_name::<I>(cx, edge, key)? {
                    ok = false;
                    if !cx.report {
                        return Ok(false);
                    }
                }
            }
            if evaluated {
                if let Some(ann) = ann.as_deref_mut() {
                    ann.add_property(position);
                }
            }
        }
        if pass
            .required
            .is_some_and(|required| !required.holds(object))
        {
            return Ok(false);
        }
        if let Some((entries, _)) = pass.properties {
            if !self.deferred_properties(cx, entries, object, deferred)? {
                ok = false;
            }
        }
        Ok(ok)
    }

    /// `properties` alone, without annotations: one pass over the instance's keys, each
    /// found in the names' index (the deferred entries after, by name, where the node
    /// does not record what it evaluates: `DEFER`, as generated code defers them; a
    /// constant, so that the loop of the usual case is not slowed by the test), or a
    /// lookup of each name in the instance when the instance has many more keys than
    /// there are names.
    #[inline(never)]
    pub(super) fn properties_alone<'a, I: Instance<'a>, const DEFER: bool>(
        &self,
        cx: &mut Ctx,
        (entries, index): PropertiesRef<'_>,
        object: I,
        required: Option<&Required>,
    ) -> Res {
        let Some(index) =
            index.filter(|_| count(object) <= entries.len().saturating_mul(KEYS_PER_NAME))
        else {
            let Some(required) = required else {
                return self.properties_by_name(cx, entries, object, |_, _| true);
            };
            let deferred = |_, edge: &Edge| self.plans[edge.target.0].deferred;
            return Ok(self
                .properties_by_name(cx, entries, object, |i, edge| !deferred(i, edge))?
                && required.holds(object)
                && self.properties_by_name(cx, entries, object, deferred)?);
        };
        let mut ok = true;
        let mut deferred = Deferred::default();
        for (key, value) in object.entries() {
            let owned;
            let key = text_of!(key, owned);
            let Some(i) = index.find(key, |i| entry_name(entries, i)) else {
                continue;
            };
            let Some((_, edge)) = entries.get(i) else {
                continue;
            };
            if DEFER && self.plans[edge.target.0].deferred {
                deferred.add(i, value);
                continue;
            }
            if !self.apply_at_key(cx, edge, key, value)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if required.is_some_and(|required| !required.holds(object))
            || !self.deferred_properties(cx, entries, object, deferred)?
        {
            ok = false;
        }
        Ok(ok)
    }

    /// `properties` by name: each entry `(index, edge)` that `keep` holds for, looked up
    /// in the instance, in entry order.
    pub(super) fn properties_by_name<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        entries: &[(String, Edge)],
        object: I,
        keep: impl Fn(usize, &Edge) -> bool,
    ) -> Res {
        let mut ok = true;
        for (i, (name, edge)) in entries.iter().enumerate() {
            if !keep(i, edge) {
                continue;
            }
            if let Some(value) = object.get(name) {
                if !self.apply_at_key(cx, edge, name, value)? {
                    ok = false;
                    if !cx.report {
                        break;
                    }
                }
            }
        }
        Ok(ok)
    }

    /// [`Op::Property`] `(name, edge)`: its schema applied to the value at `name`
    /// (the runtime's `get`, as generated code looks it up).
    #[inline(never)]
    pub(super) fn property_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (name, edge): &(String, Edge),
        object: I,
    ) -> Res {
        let value = object.get(name);
        value.map_or(Ok(true), |value| self.child_quietly(cx, edge.target, value))
    }

    /// [`Op::Lookups`]: each entry's schema applied to the value at its name, in entry
    /// order. An object of at most [`FOUND_IN_PASS`] keys is passed over once, each
    /// key found in the names' index, and the entries found applied in entry order; a
    /// larger one is looked up by name.
    #[inline(never)]
    pub(super) fn lookups_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        lookups: &LookupsOp,
        object: I,
    ) -> Res {
        let entries = &lookups.entries[..];
        if count(object) > FOUND_IN_PASS {
            for entry in entries {
                if !self.property_quietly(cx, entry, object)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let index = &lookups.index;
        // An unused slot holds the object itself.
        let mut found = [(0, object); FOUND_IN_PASS];
        let mut used = 0;
        for (key, value) in object.entries() {
            let owned;
            let at = index.find(text_of!(key, owned), |i| entry_name(entries, i));
            if let (Some(at), Some(slot)) = (at, found.get_mut(used)) {
                *slot = (at, value);
                used += 1;
            }
        }
        let found = found.get_mut(..used).unwrap_or_default();
        found.sort_unstable_by_key(|&(at, _)| at);
        for &(at, value) in found.iter() {
            if let Some((_, edge)) = entries.get(at) {
                if !self.child_quietly(cx, edge.target, value)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// [`Interpreter::node`] in short-circuit mode for a node that evaluates properties
    /// only by name ([`NodePlan::evaluates`]): run as a quick node, its `names` added to
    /// `out` when it is valid.
    #[inline(never)]
    pub(super) fn node_by_name<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        inst: Inst<'_, I>,
        out: &mut Annotations,
        names: &Bits,
    ) -> Res {
        let valid = match (&self.plans[id.0].lookups, inst.as_object()) {
            (Some(lookups), Some(object)) => self.lookups(cx, lookups, object)?,
            (Some(_), None) => true,
            (None, _) => self.node(cx, id, inst, None)?,
        };
        if valid {
            out.add_names(names);
        }
        Ok(valid)
    }

    /// A node's [`NodePlan::lookups`] on `object`: each name looked up, its schema
    /// applied to the value found.
    pub(super) fn lookups<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        lookups: &[(String, NodeId)],
        object: I,
    ) -> Res {
        for (name, target) in lookups {
            if let Some(value) = object.get(name) {
                if !self.child_quietly(cx, *target, value)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Runs the deferred `properties` entries found present, in entry order: one with the
    /// value found, several by name.
    #[inline(always)]
    pub(super) fn deferred_properties<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        entries: &[(String, Edge)],
        object: I,
        deferred: Deferred<I>,
    ) -> Res {
        match (deferred.count, deferred.first) {
            (0, _) => Ok(true),
            (1, Some((i, value))) => match entries.get(i) {
                Some((name, edge)) => self.apply_at_key(cx, edge, name, value),
                None => Ok(true),
            },
            _ => self.properties_by_name(cx, entries, object, |i, edge| {
                if i < 64 {
                    deferred.few & 1 << i != 0
                } else {
                    self.plans[edge.target.0].deferred
                }
            }),
        }
    }

    /// [`Op::Closed`] in short-circuit mode: as [`Interpreter::properties_alone`] runs
    /// `properties` alone and [`Interpreter::object_pass`] runs it with
    /// `additionalProperties` (the loop charged, each key applied its entry's schema or
    /// else `additional`'s, the deferred entries after), the folded `required` decided
    /// between the keys and the deferred entries — on a small object, from the names the
    /// pass's lookups found ([`Interpreter::closed_found`]).
    #[inline(never)]
    pub(super) fn closed_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &ClosedOp,
        object: I,
    ) -> Res {
        if op.locations {
            // (Before `closed_keys` charges the keys.)
            cx.state.charge(count(object))?;
        }
        let (entries, index) = op.properties.borrowed();
        let folded = op.required.as_deref();
        if let (Some(found), Some(index)) = (folded.and_then(|f| f.found.as_ref()), index) {
            // `properties` alone looks a large object's names up instead of its keys.
            let keys_looked_up = op.additional.is_some()
                || count(object) <= entries.len().saturating_mul(KEYS_PER_NAME);
            if count(object) <= FOLDED_REQUIRED_KEYS && keys_looked_up {
                return self.closed_found(cx, op, (found, index), object);
            }
        }
        let required = folded.map(|folded| &folded.required);
        match op.additional {
            None => self.properties_alone::<_, true>(cx, (entries, index), object, required),
            Some(_) => self.closed_additional(cx, op, object, required),
        }
    }

    /// [`Interpreter::closed_quietly`] with `additionalProperties`, each key looked up,
    /// `required` (if any) decided before the deferred entries.
    #[inline(never)]
    pub(super) fn closed_additional<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &ClosedOp,
        object: I,
        required: Option<&Required>,
    ) -> Res {
        let (entries, index) = op.properties.borrowed();
        let find = |key: &str| find_property(entries, index, key);
        let mut deferred = Deferred::default();
        if !self.closed_keys(cx, op, object.entries(), count(object), find, &mut deferred)?
            || required.is_some_and(|required| !required.holds(object))
        {
            return Ok(false);
        }
        self.deferred_properties(cx, entries, object, deferred)
    }

    /// [`Interpreter::closed_quietly`] on an object of at most [`FOLDED_REQUIRED_KEYS`]
    /// keys, with the folded `required`'s bits (`found`: by entry, and all of them) and
    /// the index of the `properties` names: one pass looks each key up once, for its
    /// entry and the required name it is; once it passed, the names it found decide
    /// `required`, before the deferred entries run.
    #[inline(never)]
    pub(super) fn closed_found<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &ClosedOp,
        ((bits, all), index): (&(Box<[u64]>, u64), &PropertyIndex),
        object: I,
    ) -> Res {
        let entries = &op.properties.entries[..];
        let find = |key: &str| index.find(key, |i| entry_name(entries, i));
        let bit = |at: usize| bits.get(at).copied().unwrap_or_default();
        let mut seen = 0u64;
        let mut deferred = Deferred::default();
        let entry = |key: &str| {
            let at = find(key)?;
            seen |= bit(at);
            entries.get(at).map(|(_, edge)| (at, edge))
        };
        if !self.closed_keys(
            cx,
            op,
            object.entries(),
            count(object),
            entry,
            &mut deferred,
        )? || seen != *all
        {
            return Ok(false);
        }
        self.deferred_properties(cx, entries, object, deferred)
    }

    /// The loop of [`Interpreter::closed_quietly`] over the keys of an object of `len`
    /// keys (charged first for `additional`), each key's entry given by `entry`, the
    /// deferred entries found added to `deferred`: whether every key passes (the keys
    /// after the first that fails left in `keys`).
    #[inline(always)]
    pub(super) fn closed_keys<'p, 'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &'p ClosedOp,
        keys: impl Iterator<Item = (JsonStr<'a>, I)>,
        len: usize,
        mut entry: impl FnMut(&str) -> Option<(usize, &'p Edge)>,
        deferred: &mut Deferred<I>,
    ) -> Res {
        let additional = match op.additional {
            Some((target, per_key)) => {
                charge_elements(cx, len, per_key)?;
                Some(target)
            }
            None => None,
        };
        for (key, value) in keys {
            let owned;
            let target = match entry(text_of!(key, owned)) {
                Some((at, edge)) if self.plans[edge.target.0].deferred => {
                    deferred.add(at, value);
                    continue;
                }
                Some((_, edge)) => edge.target,
                None => match additional {
                    Some(target) => target,
                    None => continue,
                },
            };
            if !self.child_quietly(cx, target, value)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Applies, at `key`, the entries of `patterns` (by index, from `indices`; without
    /// those whose subschema is always valid when `skips`: [`ObjectPass::skips_always_valid`])
    /// whose pattern matches the key: whether any matched, and whether all those applied
    /// are valid (in short-circuit mode, stopping at the first that is not).
    #[inline(always)]
    pub(super) fn apply_patterns<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (patterns, skips): (&[(RegexId, Edge)], bool),
        indices: impl Iterator<Item = usize>,
        key: &str,
        value: I,
    ) -> Result<(bool, bool), Stop> {
        let (mut matched, mut valid) = (false, true);
        let program = &self.shared.program;
        for i in indices {
            let Some((id, edge)) = patterns.get(i) else {
                continue;
            };
            if skips && self.plans[edge.target.0].always_valid {
                continue;
            }
            let loop_cost = || self.plans[edge.target.0].loop_cost;
            if pattern_applies(cx, program, (*id, loop_cost), key)? {
                matched = true;
                if !self.apply_at_key(cx, edge, key, value)? {
                    valid = false;
                    if !cx.report {
                        break;
                    }
                }
            }
        }
        Ok((matched, valid))
    }

    /// `patternProperties` at a `properties` name, as [`NamedPatterns`] says they run
    /// there (what [`Interpreter::apply_patterns`] gives, without running a pattern).
    #[inline(always)]
    pub(super) fn named_patterns_at<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        named: &NamedPatterns,
        patterns: &[(RegexId, Edge)],
        key: &str,
        value: I,
    ) -> Result<(bool, bool), Stop> {
        charge_elements(cx, 1, named.lead)?;
        let mut valid = true;
        for &(i, after) in named.matches.iter() {
            let Some((_, edge)) = patterns.get(i) else {
                continue;
            };
            if !self.apply_at_key(cx, edge, key, value)? {
                valid = false;
                if !cx.report {
                    break;
                }
            }
            charge_elements(cx, 1, after)?;
        }
        Ok((!named.matches.is_empty(), valid))
    }

    /// Whether one of `patterns` (by index, from `indices`) matches `key`.
    #[inline(always)]
    pub(super) fn any_pattern_matches(
        &self,
        cx: &mut Ctx,
        patterns: &[RegexId],
        indices: impl Iterator<Item = usize>,
        key: &str,
    ) -> Res {
        for i in indices {
            if let Some(id) = patterns.get(i) {
                if pattern_matches(cx, &self.shared.program, *id, key)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// `additionalProperties` alone (no `properties`, no patterns: it applies to every
    /// property), in short-circuit mode and collecting nothing, the loop already charged:
    /// `target` on each value, without the pass's per-key lookups.
    #[inline(never)]
    pub(super) fn values_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        target: NodeId,
        object: I,
    ) -> Res {
        for (_, value) in object.entries() {
            if !self.child_quietly(cx, target, value)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[inline(never)]
    pub(super) fn property_names<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        object: I,
    ) -> Res {
        self.charge_loop(cx, count(object), &[edge.target])?;
        let mut ok = true;
        for (key, _) in object.entries() {
            if !self.property_name::<I>(cx, edge, &key.unescaped())? {
                ok = false;
                if !cx.report {
                    break;
                }
            }
        }
        Ok(ok)
    }

    /// What the `unevaluatedProperties` of `node` charges on `object` before it looks at
    /// a key: the object's locations (as recording them evaluated does), and its schema
    /// per key ([`Interpreter::charge_loop`]).
    pub(super) fn charge_unevaluated<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        object: I,
    ) -> Result<(), Stop> {
        let edge = (node.checks.iter()).find_map(|check| match &check.kind {
            CheckKind::UnevaluatedProperties(edge) => Some(edge),
            _ => None,
        });
        match edge {
            Some(edge) => self.charge_unevaluated_schema(cx, edge, count(object)),
            None => Ok(()),
        }
    }

    /// What an `unevaluatedProperties` applying `edge` charges on an object of `len` keys.
    fn charge_unevaluated_schema(&self, cx: &mut Ctx, edge: &Edge, len: usize) -> Result<(), Stop> {
        cx.state.charge(len)?;
        self.charge_loop(cx, len, &[edge.target])
    }

    /// `propertyNames`' schema (`edge`) applied to `key`, one of the object's keys. Keys
    /// have no instance location of their own: errors stay at the object.
    fn property_name<'a, I: Instance<'a>>(&self, cx: &mut Ctx, edge: &Edge, key: &str) -> Res {
        let saved = self.step_in(cx, edge.target)?;
        let valid = self.apply(cx, &edge.path, edge.target, Inst::<I>::Key(&key), None);
        Interpreter::step_out(cx, saved);
        valid
    }

    /// `unevaluatedProperties` (`edge`, of `node`) on `object`: its locations and its
    /// schema per key charged first, unless they were (`charged`:
    /// [`NodePlan::unevaluated_first`]).
    #[inline(never)]
    pub(super) fn unevaluated_properties<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        (node, charged): (&Node, bool),
        edge: &Edge,
        object: I,
        ann: Option<(&mut Annotations, Option<&NameTable>)>,
    ) -> Res {
        if !charged {
            self.charge_unevaluated_schema(cx, edge, count(object))?;
        }
        let mut ok = true;
        for (position, (key, value)) in object.entries().enumerate() {
            let owned;
            let key = text_of!(key, owned);
            if (ann.as_ref()).is_some_and(|(a, table)| a.has_property(position, key, *table)) {
                continue;
            }
            let refusal = || messages::unevaluated_refusal(self.program(), node, edge);
            if !self.apply_refusing(cx, edge, refusal, key, value)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if let Some((ann, _)) = ann {
            ann.add_all_properties();
        }
        Ok(ok)
    }
}

/// The `properties` entry named `key` (its index and edge), through the plan's index when
/// there is one.
#[inline(always)]
pub(super) fn find_property<'p>(
    entries: &'p [(String, Edge)],
    index: Option<&PropertyIndex>,
    key: &str,
) -> Option<(usize, &'p Edge)> {
    let at = match index {
        Some(index) => index.find(key, |i| entry_name(entries, i))?,
        None => entries.iter().position(|(name, _)| name == key)?,
    };
    entries.get(at).map(|(_, e)| (at, e))
}

/// The name of entry `i` of `properties`.
#[inline(always)]
pub(super) fn entry_name(entries: &[(String, Edge)], i: usize) -> Option<&str> {
    entries.get(i).map(|(name, _)| name.as_str())
}

/// The deferred `properties` entries an object has, found during a pass over its keys.
#[derive(Clone, Copy)]
pub(super) struct Deferred<I> {
    /// How many.
    count: usize,
    /// The first found: its entry index, with its value.
    first: Option<(usize, I)>,
    /// The entries found among the first 64.
    few: u64,
}

impl<I> Default for Deferred<I> {
    fn default() -> Self {
        Deferred {
            count: 0,
            first: None,
            few: 0,
        }
    }
}

impl<I> Deferred<I> {
    #[inline(always)]
    pub(super) fn add(&mut self, index: usize, value: I) {
        if self.count == 0 {
            self.first = Some((index, value));
        }
        if index < 64 {
            self.few |= 1 << index;
        }
        self.count += 1;
    }
}

/// `unevaluatedProperties`' annotation: the names of `object`'s properties that `ann`
/// does not hold as evaluated (read before it evaluates them).
#[cold]
pub(super) fn unevaluated_names<'a, I: Instance<'a>>(
    object: I,
    ann: Option<&Annotations>,
    table: Option<&NameTable>,
) -> Value {
    let evaluated = |i, key: &str| ann.is_some_and(|a| a.has_property(i, key, table));
    Value::Array(
        object
            .entries()
            .map(|(key, _)| key.unescaped())
            .enumerate()
            .filter(|(i, key)| !evaluated(*i, key))
            .map(|(_, k)| Value::String(k.into_owned()))
            .collect(),
    )
}
