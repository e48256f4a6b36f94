//! Evaluation of IR nodes against an instance: the rules of [`crate::ir`]'s
//! "Evaluation semantics", under the budget and depth bounds at the points the plan
//! chooses ([`State::enter_region`], [`State::step_in`]), on a validation's [`Ctx`].
//! Sub-evaluations whose errors are dropped (`anyOf`, `oneOf`, `not`, `contains`, `if`)
//! always run in short-circuit mode.

use super::annotations::Annotations;
use super::context::{
    charge_elements, has_type, pattern_applies, pattern_matches, silently, Ctx, Inst,
};
use super::index::{NameTable, PropertyIndex};
use super::plan::{
    object_pass_at, Bound, BranchesOp, ByKind, ClosedOp, Fast, Flat, FoldedRequired, Lane,
    LookupsOp, NamedPatterns, NodePlan, ObjectOp, ObjectPass, Op, Simple,
};
use super::Interpreter;
use crate::ir::{Check, CheckKind, Edge, Node, NodeId, RegexId};
use crate::plan::kind::Kind;
use crate::plan::lookup::EnumTable;
use crate::plan::thresholds::{FOLDED_REQUIRED_KEYS, FOUND_IN_PASS, KEYS_PER_NAME};
use crate::plan::{messages, Discriminator, Limit};
use schemac_runtime::__private::{get, max_length, min_length, Bits, Res, Stop, Trail};
use schemac_runtime::error::{ErrorKind, TypeSet};
use schemac_runtime::json::Tag;
use schemac_runtime::{annotation, content, json};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

#[cfg(doc)]
use schemac_runtime::__private::State;

/// The branches of an `anyOf` / `oneOf` (edges, or targets as [`Op`]s hold them), and
/// its discriminator's reading of the instance.
#[derive(Clone, Copy)]
struct Branches<'a, T> {
    branches: &'a [T],
    discriminator: Option<&'a Discriminator>,
    tag: Tag<'a>,
}

impl<'a, T> Branches<'a, T> {
    fn new(
        branches: &'a [T],
        discriminator: Option<&'a Discriminator>,
        inst: Inst<'a>,
    ) -> Branches<'a, T> {
        let tag = match (discriminator, inst) {
            (Some(d), Inst::Value(value)) => Tag::of(value, &d.property),
            _ => Tag::NotObject,
        };
        Branches {
            branches,
            discriminator,
            tag,
        }
    }

    /// The branches that may be valid (every other one is invalid for certain), in order.
    fn admitted(self) -> impl Iterator<Item = &'a T> {
        self.branches
            .iter()
            .enumerate()
            .filter_map(move |(i, branch)| {
                self.discriminator
                    .is_none_or(|d| d.branches[i].admits(self.tag))
                    .then_some(branch)
            })
    }
}

/// A number as an `f64` for error messages.
fn limit_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// Whether `inst` (a number; anything else passes) is within `limit`.
#[inline(always)]
fn in_bound(inst: Inst<'_>, limit: Limit, which: Bound) -> bool {
    inst.as_number().is_none_or(|n| {
        let order = limit.compare(n);
        match which {
            Bound::Minimum => order != Ordering::Less,
            Bound::Maximum => order != Ordering::Greater,
            Bound::ExclusiveMinimum => order == Ordering::Greater,
            Bound::ExclusiveMaximum => order == Ordering::Less,
        }
    })
}

impl Interpreter {
    /// Evaluates the root node.
    pub(super) fn eval_root(&self, cx: &mut Ctx, instance: &Value) -> Res {
        self.node(cx, self.shared.program.root, Inst::Value(instance), None)
    }

    /// Evaluates the root node in short-circuit mode ([`Ctx::checking`]): an out-of-line
    /// [`NodePlan::quick`] root that counts no depth (the usual root) is entered here, as
    /// [`Interpreter::enter`] would (its entry cost charged, then its ops), without the
    /// general dispatch around it; any other through [`Interpreter::eval_root`].
    pub(super) fn check_root(&self, cx: &mut Ctx, instance: &Value) -> Res {
        let plan = &self.plans[self.shared.program.root.0];
        if !(plan.quick && plan.out_of_line && !plan.counts_depth) || cx.locates() {
            return self.eval_root(cx, instance);
        }
        cx.state.spend_units(plan.entry_cost)?;
        self.run_ops(cx, &plan.ops, Inst::Value(instance))
    }

    /// Evaluates node `id` against `inst`. When `out` is given and the node collects
    /// evaluated locations, a valid evaluation adds its locations to `out`.
    #[inline(always)]
    fn node(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        inst: Inst<'_>,
        mut out: Option<&mut Annotations>,
    ) -> Res {
        let plan = &self.plans[id.0];
        // Short-circuit mode without annotations: inline nodes run on their own fast
        // paths (nothing to enter or charge).
        if !cx.locates() {
            if let (Some(out), Some(names)) = (out.as_deref_mut(), &plan.evaluates) {
                return self.node_by_name(cx, id, inst, out, names);
            }
            if let Some(verdict) = self.fast(cx, plan, inst) {
                return verdict;
            }
        }
        self.enter(cx, id, plan, inst, out)
    }

    /// [`Interpreter::node`] in short-circuit mode for a node that evaluates properties
    /// only by name ([`NodePlan::evaluates`]): run as a quick node, its `names` added to
    /// `out` when it is valid.
    #[inline(never)]
    fn node_by_name(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        inst: Inst<'_>,
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
    fn lookups(
        &self,
        cx: &mut Ctx,
        lookups: &[(String, NodeId)],
        object: &Map<String, Value>,
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

    /// [`Interpreter::node`] where the caller knows that the locations are not
    /// maintained (short-circuit mode without annotations).
    #[inline(always)]
    fn node_quietly(&self, cx: &mut Ctx, id: NodeId, inst: Inst<'_>) -> Res {
        let plan = &self.plans[id.0];
        match self.fast(cx, plan, inst) {
            Some(verdict) => verdict,
            None => self.enter(cx, id, plan, inst, None),
        }
    }

    /// The fast path of a node planned `plan` in short-circuit mode without
    /// annotations ([`NodePlan::fast`]); `None` when it is entered.
    #[inline(always)]
    fn fast(&self, cx: &mut Ctx, plan: &NodePlan, inst: Inst<'_>) -> Option<Res> {
        Some(match &plan.fast {
            Fast::Valid => Ok(true),
            Fast::Type(types) => Ok(inst.has_type(*types)),
            Fast::Simple(lanes) => simple_lane(cx, lanes, inst),
            Fast::Ops(lanes) => self.run_ops(cx, lanes, inst),
            Fast::Enter => return None,
        })
    }

    /// [`Interpreter::node`] past its fast paths: enters the node when it is out of line
    /// (charging the budget, counting the depth), runs its checks and leaves it.
    #[inline(never)]
    fn enter(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        plan: &NodePlan,
        inst: Inst<'_>,
        out: Option<&mut Annotations>,
    ) -> Res {
        if plan.out_of_line {
            if !plan.counts_depth {
                cx.state.spend_units(plan.entry_cost)?;
            } else if plan.recursive {
                cx.state.enter_cycle(plan.entry_cost, plan.height)?;
            } else {
                cx.state.enter_region(plan.entry_cost, plan.height)?;
            }
        }
        let result = if plan.quick && !cx.locates() {
            self.run_ops(cx, &plan.ops, inst)
        } else {
            let node = &self.shared.program.nodes[id.0];
            if plan.collects || self.shared.program.uses_dynamic_scope || cx.annotate {
                self.node_with_state(cx, node, plan, inst, out)
            } else {
                self.checks(cx, node, plan, inst, None)
            }
        };
        if plan.counts_depth {
            if plan.recursive {
                cx.state.leave_cycle(plan.height);
            } else if plan.out_of_line {
                cx.state.leave(plan.height);
            }
        }
        result
    }

    /// The [`Op`]s of a [`NodePlan::quick`] node in short-circuit mode: the lane of
    /// `inst`'s kind. A lane of one op (most of them) goes straight to
    /// [`Interpreter::run_op`], which hands it to the function that runs it without a
    /// loop or a frame of its own; longer lanes to [`Interpreter::run_lane`].
    #[inline(always)]
    fn run_ops(&self, cx: &mut Ctx, lanes: &ByKind<Op>, inst: Inst<'_>) -> Res {
        let lane = lanes.lane(inst.kind());
        match (&*lane.steps, lane.fails) {
            ([op], false) => self.run_op(cx, op, inst),
            ([], fails) => Ok(!fails),
            _ => self.run_lane(cx, lane, inst),
        }
    }

    /// The ops of `lane` in turn, up to the first that fails.
    #[inline(never)]
    fn run_lane(&self, cx: &mut Ctx, lane: &Lane<Op>, inst: Inst<'_>) -> Res {
        for op in lane.steps.iter() {
            if !self.op(cx, op, inst)? {
                return Ok(false);
            }
        }
        Ok(!lane.fails)
    }

    /// [`Interpreter::op`] out of line, for a lane of one op.
    #[inline(never)]
    fn run_op(&self, cx: &mut Ctx, op: &Op, inst: Inst<'_>) -> Res {
        self.op(cx, op, inst)
    }

    /// Whether `inst` passes `op`, in short-circuit mode.
    #[inline(always)]
    fn op(&self, cx: &mut Ctx, op: &Op, inst: Inst<'_>) -> Res {
        match op {
            Op::Simple(Simple::Required(required)) => {
                Ok(inst.as_object().is_none_or(|o| required.holds(o)))
            }
            Op::Simple(simple) => simple_op(cx, simple, inst),
            Op::Apply(target) => self.apply_quietly(cx, *target, inst),
            Op::Items { target, skip } => inst.as_array().map_or(Ok(true), |items| {
                self.items_quietly(cx, *target, *skip, items)
            }),
            Op::PrefixItems(targets) => inst.as_array().map_or(Ok(true), |items| {
                self.prefix_items_quietly(cx, targets.iter().copied(), items)
            }),
            Op::Properties(properties) => inst.as_object().map_or(Ok(true), |object| {
                let (entries, index) = properties.borrowed();
                self.properties_alone(cx, entries, index, object)
            }),
            Op::Property(entry) => inst
                .as_object()
                .map_or(Ok(true), |object| self.property_quietly(cx, entry, object)),
            Op::Lookups(lookups) => inst
                .as_object()
                .map_or(Ok(true), |object| self.lookups_quietly(cx, lookups, object)),
            Op::Closed(closed) => inst
                .as_object()
                .map_or(Ok(true), |object| self.closed_quietly(cx, closed, object)),
            Op::Object(op) => inst
                .as_object()
                .map_or(Ok(true), |object| self.object_quietly(cx, op, object)),
            Op::AnyOf(branches) => self.any_of_quietly(cx, branches, inst),
            Op::OneOf(branches) => self.one_of_quietly(cx, branches, inst),
            Op::Not(target) => self.not_quietly(cx, *target, inst),
            Op::If {
                condition,
                then,
                otherwise,
            } => self.if_quietly(cx, *condition, *then, *otherwise, inst),
            Op::Check { node, index } => self.quick_check(cx, *node, *index, inst),
        }
    }

    /// [`Op::Apply`]: the node at `target`, in short-circuit mode.
    #[inline(never)]
    fn apply_quietly(&self, cx: &mut Ctx, target: NodeId, inst: Inst<'_>) -> Res {
        self.node(cx, target, inst, None)
    }

    /// [`Op::Object`] in short-circuit mode.
    #[inline(never)]
    fn object_quietly(&self, cx: &mut Ctx, op: &ObjectOp, object: &Map<String, Value>) -> Res {
        self.object_pass(cx, op.pass(), object, None)
    }

    /// [`Op::AnyOf`]: the admitted branches in order, up to the first valid one.
    #[inline(never)]
    fn any_of_quietly(&self, cx: &mut Ctx, op: &BranchesOp, inst: Inst<'_>) -> Res {
        let branches = Branches::new(&op.targets, op.discriminator.as_ref(), inst);
        for &target in branches.admitted() {
            if self.node(cx, target, inst, None)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// [`Op::OneOf`]: the admitted branches in order, up to the second valid one.
    #[inline(never)]
    fn one_of_quietly(&self, cx: &mut Ctx, op: &BranchesOp, inst: Inst<'_>) -> Res {
        let branches = Branches::new(&op.targets, op.discriminator.as_ref(), inst);
        let mut matched = false;
        for &target in branches.admitted() {
            if self.node(cx, target, inst, None)? {
                if matched {
                    return Ok(false);
                }
                matched = true;
            }
        }
        Ok(matched)
    }

    /// [`Op::Not`].
    #[inline(never)]
    fn not_quietly(&self, cx: &mut Ctx, target: NodeId, inst: Inst<'_>) -> Res {
        Ok(!self.node(cx, target, inst, None)?)
    }

    /// [`Op::If`]: the condition, then `then` where it holds and `otherwise` where it
    /// does not.
    #[inline(never)]
    fn if_quietly(
        &self,
        cx: &mut Ctx,
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
        inst: Inst<'_>,
    ) -> Res {
        let holds = self.node(cx, condition, inst, None)?;
        match if holds { then } else { otherwise } {
            Some(target) => self.node(cx, target, inst, None),
            None => Ok(true),
        }
    }

    /// Check `index` of node `id` in short-circuit mode ([`Op::Check`]): a check that
    /// reads only the instance ([`Interpreter::leaf`]) directly, as
    /// [`Interpreter::check`] evaluates it without errors or annotations; any other
    /// through it.
    #[inline(never)]
    fn quick_check(&self, cx: &mut Ctx, id: NodeId, index: usize, inst: Inst<'_>) -> Res {
        let node = &self.shared.program.nodes[id.0];
        let plan = &self.plans[id.0];
        let Some(check) = node.checks.get(index) else {
            return Ok(true);
        };
        match self.leaf(cx, plan, index, &check.kind, inst) {
            Some(verdict) => verdict,
            None => self.check(cx, node, plan, index, check, inst, None),
        }
    }

    /// The verdict of a check that reads only the instance (no subschema, no annotation,
    /// no dynamic scope); `None` for any other check.
    #[inline(always)]
    fn leaf(
        &self,
        cx: &mut Ctx,
        plan: &NodePlan,
        index: usize,
        kind: &CheckKind,
        inst: Inst<'_>,
    ) -> Option<Res> {
        let ok = match kind {
            CheckKind::Type(types) => inst.has_type(*types),
            CheckKind::Enum(values) => {
                return Some(match plan.enum_table(index) {
                    Some(table) => self.enum_lookup(cx, table, values, inst),
                    None => Ok(inst.equals_any(values)),
                })
            }
            CheckKind::Const(value) => inst.equals(value),
            CheckKind::MinLength(limit) => inst.as_str().is_none_or(|s| min_length(s, *limit)),
            CheckKind::MaxLength(limit) => inst.as_str().is_none_or(|s| max_length(s, *limit)),
            CheckKind::Pattern(id) => {
                let regex = self.shared.program.regexes.get(id.0);
                return Some(
                    match (inst.as_str(), regex.and_then(|e| e.compiled.as_ref())) {
                        (Some(s), Some(regex)) => cx.is_match(regex, s),
                        _ => Ok(true),
                    },
                );
            }
            CheckKind::Format(name) => inst.as_str().is_none_or(|s| self.format_ok(name, s)),
            CheckKind::ContentBase64 => inst.as_str().is_none_or(content::is_base64),
            CheckKind::ContentJson { base64 } => {
                inst.as_str().is_none_or(|s| content::is_json(s, *base64))
            }
            CheckKind::Minimum(limit) => in_bound(inst, Limit::of(limit), Bound::Minimum),
            CheckKind::Maximum(limit) => in_bound(inst, Limit::of(limit), Bound::Maximum),
            CheckKind::ExclusiveMinimum(limit) => {
                in_bound(inst, Limit::of(limit), Bound::ExclusiveMinimum)
            }
            CheckKind::ExclusiveMaximum(limit) => {
                in_bound(inst, Limit::of(limit), Bound::ExclusiveMaximum)
            }
            CheckKind::False => false,
            CheckKind::IntegerLiteral(_) => {
                inst.as_number().is_none_or(|n| !json::is_integral_float(n))
            }
            CheckKind::MultipleOf(divisor) => inst
                .as_number()
                .is_none_or(|n| json::is_multiple_of(n, *divisor)),
            CheckKind::MinItems(limit) => inst.as_array().is_none_or(|a| a.len() as u64 >= *limit),
            CheckKind::MaxItems(limit) => inst.as_array().is_none_or(|a| a.len() as u64 <= *limit),
            CheckKind::UniqueItems => {
                return Some(inst.as_array().map_or(Ok(true), |a| cx.state.all_unique(a)))
            }
            CheckKind::MinProperties(limit) => {
                inst.as_object().is_none_or(|o| o.len() as u64 >= *limit)
            }
            CheckKind::MaxProperties(limit) => {
                inst.as_object().is_none_or(|o| o.len() as u64 <= *limit)
            }
            _ => return None,
        };
        Some(Ok(ok))
    }

    /// Reports the failure of the check `check` of `node` that [`Interpreter::leaf`]
    /// decided.
    #[cold]
    fn leaf_error(&self, cx: &mut Ctx, node: &Node, check: &Check, inst: Inst<'_>) {
        let kind = match &check.kind {
            CheckKind::False => return cx.error(node, "", ErrorKind::FalseSchema),
            CheckKind::Type(types) | CheckKind::IntegerLiteral(types) => ErrorKind::Type {
                expected: *types,
                found: inst.json_type(),
            },
            CheckKind::Const(value) => ErrorKind::Const {
                expected: Cow::Owned(messages::value_text(value)),
            },
            CheckKind::Enum(values) => ErrorKind::Enum {
                allowed: Cow::Owned(messages::values_text(values)),
            },
            CheckKind::MultipleOf(divisor) => ErrorKind::MultipleOf { divisor: *divisor },
            CheckKind::Minimum(limit) => ErrorKind::Minimum {
                limit: limit_f64(limit),
            },
            CheckKind::Maximum(limit) => ErrorKind::Maximum {
                limit: limit_f64(limit),
            },
            CheckKind::ExclusiveMinimum(limit) => ErrorKind::ExclusiveMinimum {
                limit: limit_f64(limit),
            },
            CheckKind::ExclusiveMaximum(limit) => ErrorKind::ExclusiveMaximum {
                limit: limit_f64(limit),
            },
            CheckKind::MinLength(limit) => ErrorKind::MinLength { limit: *limit },
            CheckKind::MaxLength(limit) => ErrorKind::MaxLength { limit: *limit },
            CheckKind::Pattern(id) => {
                let entry = self.shared.program.regexes.get(id.0);
                ErrorKind::Pattern {
                    pattern: Cow::Owned(entry.map(|e| e.source.clone()).unwrap_or_default()),
                }
            }
            CheckKind::Format(name) => ErrorKind::Format {
                format: Cow::Owned(name.clone()),
            },
            CheckKind::ContentBase64 => ErrorKind::ContentEncoding {
                encoding: Cow::Borrowed("base64"),
            },
            CheckKind::ContentJson { .. } => ErrorKind::ContentMediaType {
                media_type: Cow::Borrowed("application/json"),
            },
            CheckKind::MinItems(limit) => ErrorKind::MinItems { limit: *limit },
            CheckKind::MaxItems(limit) => ErrorKind::MaxItems { limit: *limit },
            CheckKind::UniqueItems => ErrorKind::UniqueItems,
            CheckKind::MinProperties(limit) => ErrorKind::MinProperties { limit: *limit },
            CheckKind::MaxProperties(limit) => ErrorKind::MaxProperties { limit: *limit },
            // Checks `leaf` does not decide report their own errors.
            _ => return,
        };
        cx.error(node, &check.keyword, kind);
    }

    /// [`Interpreter::node`] for a node that may collect evaluated locations or enter a
    /// resource of the dynamic scope.
    #[inline(never)]
    fn node_with_state(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        inst: Inst<'_>,
        out: Option<&mut Annotations>,
    ) -> Res {
        let pushed = self.shared.program.uses_dynamic_scope
            && cx.state.push_scope(node.resource.scope_key());
        let collects = plan.collect_properties || plan.collect_items;
        let mark = cx.annotation_mark();
        // With errors dropped, a failure fails the node that gave `out` (or it gave a set
        // of its own, `apply_silently`), which drops that set: the node records straight
        // into it. Reporting goes on past a failure: a set of the node's own, kept if it
        // is valid.
        let own = plan.has_unevaluated || (collects && out.is_some() && cx.report);
        let result = if !own {
            self.checks(cx, node, plan, inst, out.filter(|_| collects))
        } else {
            let mut annotations = cx.take_annotations();
            let result = self.checks(cx, node, plan, inst, Some(&mut annotations));
            if result == Ok(true) {
                if let Some(out) = out {
                    out.merge(&annotations);
                }
            }
            cx.give_annotations(annotations);
            result
        };
        if let (Ok(valid), Some(mark)) = (result, mark) {
            cx.end_unit(node, inst, valid, mark);
        }
        cx.state.pop_scope(pushed);
        result
    }

    /// Charges a loop in bulk before it starts: `elements` times the per-element cost of
    /// the inline nodes among `targets` (see [`crate::plan`]).
    fn charge_loop(&self, cx: &mut Ctx, elements: usize, targets: &[NodeId]) -> Result<(), Stop> {
        let per_element = targets
            .iter()
            .map(|t| self.plans[t.0].loop_cost)
            .fold(0, u64::saturating_add);
        charge_elements(cx, elements, per_element)
    }

    /// Steps into a child instance to which `target` applies when the plan says `target`
    /// may recur ([`crate::plan::NodePlan::steps`]): what [`Interpreter::step_out`]
    /// restores, `None` when it is no step.
    #[inline(always)]
    fn step_in(&self, cx: &mut Ctx, target: NodeId) -> Result<Option<u32>, Stop> {
        if !self.plans[target.0].steps {
            return Ok(None);
        }
        cx.state.step_in().map(Some)
    }

    /// Steps back out of a child instance entered with [`Interpreter::step_in`].
    #[inline(always)]
    fn step_out(cx: &mut Ctx, saved: Option<u32>) {
        if let Some(saved) = saved {
            cx.state.step_out(saved);
        }
    }

    /// Evaluates `target` on the child instance `value` in short-circuit mode without
    /// annotations (a step when [`Interpreter::step_in`] says so).
    #[inline(always)]
    fn child_quietly(&self, cx: &mut Ctx, target: NodeId, value: &Value) -> Res {
        if !self.plans[target.0].steps {
            return self.node_quietly(cx, target, Inst::Value(value));
        }
        let saved = cx.state.step_in()?;
        let result = self.node_quietly(cx, target, Inst::Value(value));
        cx.state.step_out(saved);
        result
    }

    /// Applies `target` in place (same instance location), reached through `path`.
    #[inline]
    fn apply(
        &self,
        cx: &mut Ctx,
        path: &str,
        target: NodeId,
        inst: Inst<'_>,
        out: Option<&mut Annotations>,
    ) -> Res {
        let Some(trail) = cx.located() else {
            return self.node(cx, target, inst, out);
        };
        let mark = trail.push_keyword(path);
        let result = self.node(cx, target, inst, out);
        if let Some(trail) = cx.trail.as_deref_mut() {
            trail.pop_keyword(mark);
        }
        result
    }

    /// Applies `edge` to the property `key` of the current object.
    #[inline(always)]
    fn apply_at_key(&self, cx: &mut Ctx, edge: &Edge, key: &str, value: &Value) -> Res {
        if !cx.locates() {
            return self.child_quietly(cx, edge.target, value);
        }
        self.apply_at_key_located(cx, edge, key, value)
    }

    /// [`Interpreter::apply_at_key`] maintaining the locations.
    #[inline(never)]
    fn apply_at_key_located(&self, cx: &mut Ctx, edge: &Edge, key: &str, value: &Value) -> Res {
        self.at_child(cx, edge, |trail| trail.push_key(key), value)
    }

    /// [`Interpreter::apply_at_key`] for `additionalProperties` / `unevaluatedProperties`:
    /// when errors are reported and `refusal` gives the names the object allows (its
    /// subschema is `false`, [`messages::additional_refusal`]), the `false` schema's error
    /// says that the property is not allowed ([`Trail::refuse`]).
    #[inline(always)]
    fn apply_refusing(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        refusal: impl FnOnce() -> Option<String>,
        key: &str,
        value: &Value,
    ) -> Res {
        let allowed = match cx.report {
            true => refusal(),
            false => None,
        };
        let (Some(allowed), Some(trail)) = (allowed, cx.trail.as_deref_mut()) else {
            return self.apply_at_key(cx, edge, key, value);
        };
        let saved = trail.refuse(Cow::Owned(allowed));
        let result = self.apply_at_key(cx, edge, key, value);
        if let Some(trail) = cx.trail.as_deref_mut() {
            trail.end_refusal(saved);
        }
        result
    }

    /// Applies `edge` to the item at `index` of the current array.
    #[inline(always)]
    fn apply_at_index(&self, cx: &mut Ctx, edge: &Edge, index: usize, value: &Value) -> Res {
        if !cx.locates() {
            return self.child_quietly(cx, edge.target, value);
        }
        self.apply_at_index_located(cx, edge, index, value)
    }

    /// [`Interpreter::apply_at_index`] maintaining the locations.
    #[inline(never)]
    fn apply_at_index_located(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        index: usize,
        value: &Value,
    ) -> Res {
        self.at_child(cx, edge, |trail| trail.push_index(index), value)
    }

    /// Applies `edge` to the child instance `value`, whose location `step` appends to the
    /// current instance location (returning the mark to restore it at).
    fn at_child(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        step: impl FnOnce(&mut Trail) -> usize,
        value: &Value,
    ) -> Res {
        let mark = cx.trail.as_deref_mut().map(step);
        let result = self.step_in(cx, edge.target).and_then(|saved| {
            let result = self.apply(cx, &edge.path, edge.target, Inst::Value(value), None);
            Interpreter::step_out(cx, saved);
            result
        });
        if let (Some(mark), Some(trail)) = (mark, cx.trail.as_deref_mut()) {
            trail.pop_instance(mark);
        }
        result
    }

    /// Applies `edge` in place with errors dropped (short-circuit mode). Its failure
    /// need not fail the node, so its locations reach `out` only when it is valid: in a
    /// set of its own unless it keeps one itself ([`Interpreter::records_only_valid`]).
    fn apply_silently(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        inst: Inst<'_>,
        out: Option<&mut Annotations>,
    ) -> Res {
        let apply = |cx: &mut Ctx, out| {
            silently(cx, |cx| self.apply(cx, &edge.path, edge.target, inst, out))
        };
        let out = match out {
            Some(out) if !self.records_only_valid(cx, edge.target) => out,
            // Errors already dropped, no locations: the node itself.
            out if !cx.locates() => return self.node(cx, edge.target, inst, out),
            out => return apply(cx, out),
        };
        let mut own = cx.take_annotations();
        let result = apply(cx, Some(&mut own));
        if result == Ok(true) {
            out.merge(&own);
        }
        cx.give_annotations(own);
        result
    }

    /// Whether evaluating node `id` with errors dropped gives the set it is given only
    /// the locations of a valid evaluation: it collects none, keeps a set of its own
    /// (`unevaluated*`), or records by name in short-circuit mode. Any other node
    /// records straight into the set it is given when errors are dropped
    /// ([`Interpreter::node_with_state`]), where its failure fails the node that gave
    /// the set.
    fn records_only_valid(&self, cx: &Ctx, id: NodeId) -> bool {
        let plan = &self.plans[id.0];
        !(plan.collect_properties || plan.collect_items)
            || plan.has_unevaluated
            || (plan.evaluates.is_some() && !cx.locates())
    }

    /// Runs a node's checks in order.
    fn checks(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        if let (Some(flat), false) = (&plan.flat, cx.locates()) {
            return self.flat_checks(cx, flat, inst, ann);
        }
        let mut valid = true;
        for (index, check) in node.checks.iter().enumerate() {
            let ok = self.check(cx, node, plan, index, check, inst, ann.as_deref_mut())?;
            if check.annotates && cx.annotate {
                self.give_applied(cx, node, check, inst, valid && ok)?;
            }
            if !ok {
                if !cx.report {
                    return Ok(false);
                }
                valid = false;
            }
        }
        Ok(valid)
    }

    /// A node's [`Flat`] steps in short-circuit mode, up to the first that fails.
    fn flat_checks(
        &self,
        cx: &mut Ctx,
        flat: &[Flat],
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        let nodes = &self.shared.program.nodes;
        for step in flat {
            let ok = match *step {
                Flat::Check(id, index) => {
                    let (node, plan) = (&nodes[id.0], &self.plans[id.0]);
                    let Some(check) = node.checks.get(index) else {
                        continue;
                    };
                    // `if` without the general dispatch.
                    if let CheckKind::IfThenElse {
                        condition,
                        then,
                        otherwise,
                    } = &check.kind
                    {
                        let edges = (condition, then, otherwise);
                        self.if_then_else(cx, edges, inst, ann.as_deref_mut())?
                    } else {
                        self.check(cx, node, plan, index, check, inst, ann.as_deref_mut())?
                    }
                }
                Flat::Apply(id) => self.node(cx, id, inst, ann.as_deref_mut())?,
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Runs check `index` of `node`, `check`, reporting its errors when reporting.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn check(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        index: usize,
        check: &Check,
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        let keyword = check.keyword.as_str();
        let ok = match &check.kind {
            CheckKind::Required(names) => match (inst.as_object(), plan.required(index)) {
                (Some(object), Some(required)) if !cx.report => required.holds(object),
                (Some(object), _) => match plan.name_list(index, 0) {
                    Some(list) if cx.report => cx.missing(object, list, |trail, name| {
                        trail.error_of(
                            &node.uri,
                            Some(keyword),
                            ErrorKind::Required {
                                property: Cow::Owned(name.clone()),
                            },
                        )
                    })?,
                    _ => self.required(cx, node, keyword, object, names),
                },
                (None, _) => true,
            },
            CheckKind::DependentRequired(dependencies) => match inst.as_object() {
                Some(object) => self.dependent_required(
                    cx,
                    (node, plan),
                    (index, keyword),
                    object,
                    dependencies,
                )?,
                None => true,
            },
            CheckKind::Ref(edge) => {
                self.apply(cx, &edge.path, edge.target, inst, ann.as_deref_mut())?
            }
            CheckKind::DynamicRef { fallback, anchor } => {
                let target = self.dynamic_target(cx, fallback, anchor.as_deref());
                self.apply(cx, &fallback.path, target, inst, ann.as_deref_mut())?
            }
            CheckKind::Unresolved { uri } => {
                return cx.unresolved(uri);
            }
            CheckKind::AllOf(edges) => {
                let mut ok = true;
                for edge in edges {
                    if !self.apply(cx, &edge.path, edge.target, inst, ann.as_deref_mut())? {
                        ok = false;
                        if !cx.report {
                            break;
                        }
                    }
                }
                ok
            }
            CheckKind::AnyOf(edges) => {
                let branches = Branches::new(edges, plan.discriminator(index), inst);
                self.any_of(cx, node, keyword, branches, inst, ann.as_deref_mut())?
            }
            CheckKind::OneOf(edges) => {
                let branches = Branches::new(edges, plan.discriminator(index), inst);
                self.one_of(cx, node, keyword, branches, inst, ann.as_deref_mut())?
            }
            CheckKind::Not(edge) => {
                // What a valid subschema annotated goes with the node `not` fails.
                let ok = !self.apply_silently(cx, edge, inst, None)?;
                if !ok && cx.report {
                    cx.error(node, keyword, ErrorKind::Not);
                }
                ok
            }
            CheckKind::IfThenElse {
                condition,
                then,
                otherwise,
            } => self.if_then_else(cx, (condition, then, otherwise), inst, ann)?,
            CheckKind::DependentSchemas(dependencies) => match inst.as_object() {
                Some(object) => {
                    let mut ok = true;
                    for (property, edge) in dependencies {
                        if object.contains_key(property)
                            && !self.apply(cx, &edge.path, edge.target, inst, ann.as_deref_mut())?
                        {
                            ok = false;
                            if !cx.report {
                                break;
                            }
                        }
                    }
                    ok
                }
                None => true,
            },
            CheckKind::Properties(_)
            | CheckKind::PatternProperties(_)
            | CheckKind::AdditionalProperties { .. } => match inst.as_object() {
                Some(object) => {
                    let ann = ann.as_deref_mut().filter(|_| plan.collect_properties);
                    self.object_check(cx, node, plan, index, object, ann)?
                }
                None => true,
            },
            CheckKind::PropertyNames(edge) => match inst.as_object() {
                Some(object) => self.property_names(cx, edge, object)?,
                None => true,
            },
            CheckKind::PrefixItems(edges) => match inst.as_array() {
                Some(items) => self.prefix_items(cx, edges, items, ann.as_deref_mut())?,
                None => true,
            },
            CheckKind::Items { schema, skip } => match inst.as_array() {
                Some(items) => self.items(cx, schema, *skip, items, ann.as_deref_mut())?,
                None => true,
            },
            CheckKind::Contains { schema, min, max } => match inst.as_array() {
                Some(items) => {
                    let ann = ann.as_deref_mut().filter(|_| plan.collect_items);
                    let mut matched = (check.annotates && cx.annotate).then(Vec::new);
                    let ok = self.contains(
                        cx,
                        node,
                        keyword,
                        schema,
                        (*min, *max),
                        items,
                        (ann, matched.as_mut()),
                    )?;
                    cx.set_applied(matched.map(Value::from));
                    ok
                }
                None => true,
            },
            CheckKind::UnevaluatedProperties(edge) => match inst.as_object() {
                Some(object) => {
                    // What it applies to, read before it records them as evaluated.
                    let table = plan.name_table.as_deref();
                    let found = (check.annotates && cx.annotate)
                        .then(|| unevaluated_names(object, ann.as_deref(), table));
                    let ann = (ann.as_deref_mut()).map(|ann| (ann, table));
                    let ok = self.unevaluated_properties(cx, node, edge, object, ann)?;
                    cx.set_applied(found);
                    ok
                }
                None => true,
            },
            CheckKind::UnevaluatedItems(edge) => match inst.as_array() {
                Some(items) => {
                    let found = (check.annotates && cx.annotate)
                        .then(|| any_unevaluated_item(items, ann.as_deref()))
                        .flatten();
                    let ok = self.unevaluated_items(cx, edge, items, ann)?;
                    cx.set_applied(found);
                    ok
                }
                None => true,
            },
            kind => {
                let ok = self.leaf(cx, plan, index, kind, inst).unwrap_or(Ok(true))?;
                if !ok && cx.report {
                    self.leaf_error(cx, node, check, inst);
                }
                ok
            }
        };
        Ok(ok)
    }

    /// `if` / `then` / `else`: the condition with errors dropped, then the branch it
    /// chooses.
    #[inline(always)]
    fn if_then_else(
        &self,
        cx: &mut Ctx,
        (condition, then, otherwise): (&Edge, &Option<Edge>, &Option<Edge>),
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        let holds = self.apply_silently(cx, condition, inst, ann.as_deref_mut())?;
        match if holds { then } else { otherwise } {
            Some(edge) => self.apply(cx, &edge.path, edge.target, inst, ann),
            None => Ok(true),
        }
    }

    /// Gives the annotation of the applicator `check` of `node`, evaluated on `inst`, when
    /// the node is still `valid` (else it would be dropped): the one the check found
    /// ([`Output::applied`]), else [`Interpreter::applied`].
    #[cold]
    fn give_applied(
        &self,
        cx: &mut Ctx,
        node: &Node,
        check: &Check,
        inst: Inst<'_>,
        valid: bool,
    ) -> Result<(), Stop> {
        let found = cx.take_applied();
        if !valid {
            return Ok(());
        }
        let value = match found {
            Some(value) => Some(value),
            None => self.applied(cx, check, inst)?,
        };
        if let Some(value) = value {
            cx.annotate(node, &check.keyword, value);
        }
        Ok(())
    }

    /// The annotation of the applicator `check` on `inst` (a value the instance and the
    /// check decide, see [`crate::ir`]'s "Applicator annotations"); `None` when it gives
    /// none (not its instance type, or it applied to nothing).
    #[cold]
    fn applied(&self, cx: &mut Ctx, check: &Check, inst: Inst<'_>) -> Result<Option<Value>, Stop> {
        let names = |cx: &mut Ctx, applies: &dyn Fn(&mut Ctx, &str) -> Res| {
            let Some(object) = inst.as_object() else {
                return Ok(None);
            };
            let mut names = Vec::new();
            for key in object.keys() {
                if applies(cx, key)? {
                    names.push(Value::String(key.clone()));
                }
            }
            Ok(Some(Value::Array(names)))
        };
        let any_match = |cx: &mut Ctx, ids: &mut dyn Iterator<Item = RegexId>, key: &str| {
            for id in ids {
                if pattern_matches(cx, &self.shared.program, id, key)? {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        match &check.kind {
            CheckKind::Properties(entries) => names(cx, &|_, key| {
                Ok(entries.iter().any(|(name, _)| name == key))
            }),
            CheckKind::PatternProperties(entries) => names(cx, &|cx, key| {
                any_match(cx, &mut entries.iter().map(|(id, _)| *id), key)
            }),
            CheckKind::AdditionalProperties {
                known, patterns, ..
            } => names(cx, &|cx, key| {
                Ok(!known.iter().any(|name| name == key)
                    && !any_match(cx, &mut patterns.iter().copied(), key)?)
            }),
            CheckKind::PrefixItems(edges) => Ok(inst
                .as_array()
                .and_then(|items| annotation::prefix_items_value(items.len(), edges.len()))),
            CheckKind::Items { skip, .. } => Ok(inst
                .as_array()
                .filter(|items| items.len() > *skip)
                .map(|_| Value::Bool(true))),
            _ => Ok(None),
        }
    }

    /// Whether `s` passes the asserted format `name`: a custom check first, then the
    /// runtime's; unknown formats pass.
    fn format_ok(&self, name: &str, s: &str) -> bool {
        if let Some(check) = self.formats.get(name) {
            return check(s);
        }
        match schemac_runtime::format::lookup(name) {
            Some(check) => check(s),
            None => true,
        }
    }

    /// `enum` with member tables: a string or number is looked up in its table when it has
    /// one (the lookup charged to the budget), anything else compared member by member.
    fn enum_lookup(
        &self,
        cx: &mut Ctx,
        table: &EnumTable,
        values: &[Value],
        inst: Inst<'_>,
    ) -> Res {
        let members = table.as_runtime();
        match (inst.as_str(), inst.as_number()) {
            (Some(s), _) if table.has_strings() => cx.state.is_str_member(&members, s),
            (_, Some(n)) if table.has_numbers() => cx.state.is_number_member(&members, n),
            _ => Ok(inst.equals_any(values)),
        }
    }

    /// Applies, at `key`, the entries of `patterns` (by index, from `indices`) whose
    /// pattern matches the key: whether any matched, and whether all those applied are
    /// valid (in short-circuit mode, stopping at the first that is not).
    #[inline(always)]
    fn apply_patterns(
        &self,
        cx: &mut Ctx,
        patterns: &[(RegexId, Edge)],
        indices: impl Iterator<Item = usize>,
        key: &str,
        value: &Value,
    ) -> Result<(bool, bool), Stop> {
        let (mut matched, mut valid) = (false, true);
        let program = &self.shared.program;
        for i in indices {
            let Some((id, edge)) = patterns.get(i) else {
                continue;
            };
            let loop_cost = self.plans[edge.target.0].loop_cost;
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
    fn named_patterns_at(
        &self,
        cx: &mut Ctx,
        named: &NamedPatterns,
        patterns: &[(RegexId, Edge)],
        key: &str,
        value: &Value,
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
    fn any_pattern_matches(
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

    /// The node a `$dynamicRef` evaluates: the outermost resource in the dynamic scope
    /// declaring the anchor, else the static target.
    fn dynamic_target(&self, cx: &Ctx, fallback: &Edge, anchor: Option<&str>) -> NodeId {
        let Some(name) = anchor else {
            return fallback.target;
        };
        if !self.shared.program.uses_dynamic_scope {
            return fallback.target;
        }
        let resources = &self.shared.program.resources;
        let target_in = |r: u32| {
            resources
                .get(r as usize)
                .and_then(|resource| resource.dynamic_anchors.get(name))
        };
        cx.state
            .outermost(|r| target_in(r).is_some())
            .and_then(target_in)
            .copied()
            .unwrap_or(fallback.target)
    }

    #[inline(never)]
    fn required(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        object: &Map<String, Value>,
        names: &[String],
    ) -> bool {
        let mut ok = true;
        for name in names {
            if !object.contains_key(name) {
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
    fn dependent_required(
        &self,
        cx: &mut Ctx,
        (node, plan): (&Node, &NodePlan),
        (index, keyword): (usize, &str),
        object: &Map<String, Value>,
        dependencies: &[(String, Vec<String>)],
    ) -> Res {
        let mut ok = true;
        for (entry, (property, required)) in dependencies.iter().enumerate() {
            if !object.contains_key(property) {
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
                if !object.contains_key(name) {
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

    #[inline(never)]
    fn any_of(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        branches: Branches<'_, Edge>,
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // A collecting or annotating node evaluates every branch: all valid ones contribute
        // annotations.
        let every = ann.is_some() || cx.annotate;
        let mut ok = false;
        for edge in branches.admitted() {
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                ok = true;
                if !every {
                    break;
                }
            }
        }
        if !ok && cx.report {
            cx.error(node, keyword, ErrorKind::AnyOf);
        }
        Ok(ok)
    }

    #[inline(never)]
    fn one_of(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        branches: Branches<'_, Edge>,
        inst: Inst<'_>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // Reporting counts every match (the error says how many, and a collecting node's
        // later `unevaluated*` errors depend on every valid branch); in short-circuit mode
        // a second match decides: the node fails, its annotations are dropped.
        let every = cx.report;
        let mut matched = 0u64;
        for edge in branches.admitted() {
            if self.apply_silently(cx, edge, inst, ann.as_deref_mut())? {
                matched += 1;
                if matched > 1 && !every {
                    break;
                }
            }
        }
        let ok = matched == 1;
        if !ok && cx.report {
            cx.error(node, keyword, ErrorKind::OneOf { matched });
        }
        Ok(ok)
    }

    /// `properties`, `patternProperties`, `additionalProperties`: the check at `index`,
    /// fused with its siblings when the plan says so.
    #[inline(never)]
    fn object_check(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        index: usize,
        object: &Map<String, Value>,
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
                if let (Some(ann), Some(names)) = (ann, names) {
                    ann.add_names(names);
                }
                return self.properties_alone(cx, entries, plan.properties_index(index), object);
            }
        }
        match object_pass_at(node, plan, index) {
            Some(pass) => self.object_pass(cx, pass, object, ann),
            None => Ok(true),
        }
    }

    /// `properties` alone, without annotations: one pass over the instance's keys, each
    /// found in the names' index (the deferred entries after, by name), or a lookup of
    /// each name in the instance when the instance has many more keys than there are names.
    #[inline(never)]
    fn properties_alone(
        &self,
        cx: &mut Ctx,
        entries: &[(String, Edge)],
        index: Option<&PropertyIndex>,
        object: &Map<String, Value>,
    ) -> Res {
        let Some(index) =
            index.filter(|_| object.len() <= entries.len().saturating_mul(KEYS_PER_NAME))
        else {
            return self.properties_by_name(cx, entries, object, |_, _| true);
        };
        let mut ok = true;
        let mut deferred = Deferred::default();
        for (key, value) in object {
            let Some(i) = index.find(key, |i| entry_name(entries, i)) else {
                continue;
            };
            let Some((_, edge)) = entries.get(i) else {
                continue;
            };
            if self.plans[edge.target.0].deferred {
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
        if !self.deferred_properties(cx, entries, object, deferred)? {
            ok = false;
        }
        Ok(ok)
    }

    /// [`Op::Property`] `(name, edge)`: its schema applied to the value at `name`
    /// (the runtime's `get`, as generated code looks it up).
    #[inline(never)]
    fn property_quietly(
        &self,
        cx: &mut Ctx,
        (name, edge): &(String, Edge),
        object: &Map<String, Value>,
    ) -> Res {
        let value = get(object, name);
        value.map_or(Ok(true), |value| self.child_quietly(cx, edge.target, value))
    }

    /// [`Op::Lookups`]: each entry's schema applied to the value at its name, in entry
    /// order. An object of at most [`FOUND_IN_PASS`] keys is passed over once, each
    /// key found in the names' index, and the entries found applied in entry order; a
    /// larger one is looked up by name.
    #[inline(never)]
    fn lookups_quietly(
        &self,
        cx: &mut Ctx,
        lookups: &LookupsOp,
        object: &Map<String, Value>,
    ) -> Res {
        /// What an unused slot of `found` holds.
        static NONE: Value = Value::Null;
        let entries = &lookups.entries[..];
        if object.len() > FOUND_IN_PASS {
            for entry in entries {
                if !self.property_quietly(cx, entry, object)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let index = &lookups.index;
        let mut found = [(0, &NONE); FOUND_IN_PASS];
        let mut count = 0;
        for (key, value) in object {
            let at = index.find(key, |i| entry_name(entries, i));
            if let (Some(at), Some(slot)) = (at, found.get_mut(count)) {
                *slot = (at, value);
                count += 1;
            }
        }
        let found = found.get_mut(..count).unwrap_or_default();
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

    /// Runs the deferred `properties` entries found present, in entry order: one with the
    /// value found, several by name.
    #[inline(always)]
    fn deferred_properties(
        &self,
        cx: &mut Ctx,
        entries: &[(String, Edge)],
        object: &Map<String, Value>,
        deferred: Deferred<'_>,
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
    /// else `additional`'s, the deferred entries after), the folded `required` before it
    /// — or, on a small object, within its lookups ([`Interpreter::closed_found`]).
    #[inline(never)]
    fn closed_quietly(&self, cx: &mut Ctx, op: &ClosedOp, object: &Map<String, Value>) -> Res {
        let (entries, index) = op.properties.borrowed();
        if let Some(folded) = &op.required {
            // `properties` alone looks a large object's names up instead of its keys.
            let keys_looked_up = op.additional.is_some()
                || object.len() <= entries.len().saturating_mul(KEYS_PER_NAME);
            match index.filter(|_| object.len() <= FOLDED_REQUIRED_KEYS && keys_looked_up) {
                Some(index) => return self.closed_found(cx, op, (folded, index), object),
                None if !folded.required.holds(object) => return Ok(false),
                None => {}
            }
        }
        match op.additional {
            None => self.properties_alone(cx, entries, index, object),
            Some(_) => self.closed_additional(cx, op, object),
        }
    }

    /// [`Interpreter::closed_quietly`] with `additionalProperties`, each key looked up.
    #[inline(never)]
    fn closed_additional(&self, cx: &mut Ctx, op: &ClosedOp, object: &Map<String, Value>) -> Res {
        let (entries, index) = op.properties.borrowed();
        let find = |key: &str| find_property(entries, index, key);
        let mut deferred = Deferred::default();
        if !self.closed_keys(cx, op, object.iter(), object.len(), find, &mut deferred)? {
            return Ok(false);
        }
        self.deferred_properties(cx, entries, object, deferred)
    }

    /// [`Interpreter::closed_quietly`] on an object of at most [`FOLDED_REQUIRED_KEYS`]
    /// keys, with the folded `required` (and the index of the `properties` names): one
    /// pass looks each key up once, for its entry and the required name it is. Where a
    /// key fails or the pass stops, the keys it did not reach are looked up for the
    /// names alone; a name missing, the object fails as if `required` had run first,
    /// before the pass charged anything: the budget is restored, and a stop the pass
    /// recorded dropped ([`Ctx::rewind`]).
    #[inline(never)]
    fn closed_found(
        &self,
        cx: &mut Ctx,
        op: &ClosedOp,
        (folded, index): (&FoldedRequired, &PropertyIndex),
        object: &Map<String, Value>,
    ) -> Res {
        let entries = &op.properties.entries[..];
        let before = cx.state.budget().clone();
        let find = |key: &str| index.find(key, |i| entry_name(entries, i));
        let bit = |at: usize| folded.bits.get(at).copied().unwrap_or_default();
        let mut seen = 0u64;
        let mut keys = object.iter();
        let mut deferred = Deferred::default();
        let entry = |key: &str| {
            let at = find(key)?;
            seen |= bit(at);
            entries.get(at).map(|(_, edge)| (at, edge))
        };
        let pass = self.closed_keys(cx, op, keys.by_ref(), object.len(), entry, &mut deferred);
        if pass != Ok(true) {
            for (key, _) in keys {
                if seen == folded.all {
                    break;
                }
                seen |= find(key).map_or(0, bit);
            }
        }
        if seen != folded.all {
            cx.rewind(before);
            return Ok(false);
        }
        if !pass? {
            return Ok(false);
        }
        self.deferred_properties(cx, entries, object, deferred)
    }

    /// The loop of [`Interpreter::closed_quietly`] over the keys of an object of `len`
    /// keys (charged first for `additional`), each key's entry given by `entry`, the
    /// deferred entries found added to `deferred`: whether every key passes (the keys
    /// after the first that fails left in `keys`).
    #[inline(always)]
    fn closed_keys<'p, 'v>(
        &self,
        cx: &mut Ctx,
        op: &'p ClosedOp,
        keys: impl Iterator<Item = (&'v String, &'v Value)>,
        len: usize,
        mut entry: impl FnMut(&str) -> Option<(usize, &'p Edge)>,
        deferred: &mut Deferred<'v>,
    ) -> Res {
        let additional = match op.additional {
            Some((target, per_key)) => {
                charge_elements(cx, len, per_key)?;
                Some(target)
            }
            None => None,
        };
        for (key, value) in keys {
            let target = match entry(key) {
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

    /// `properties` by name: each entry `(index, edge)` that `keep` holds for, looked up
    /// in the instance, in entry order.
    fn properties_by_name(
        &self,
        cx: &mut Ctx,
        entries: &[(String, Edge)],
        object: &Map<String, Value>,
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

    /// One pass over the object's properties, running the applicators in `pass` on each.
    fn object_pass(
        &self,
        cx: &mut Ctx,
        pass: ObjectPass<'_>,
        object: &Map<String, Value>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        // Every key pays for `additionalProperties`; a `patternProperties` child is paid
        // for when its pattern matches.
        let per_key = pass.additional.map(|(e, _, _)| e.target);
        self.charge_loop(cx, object.len(), per_key.as_slice())?;
        if let (None, None, Some((edge, [], []))) =
            (pass.properties, pass.patterns, pass.additional)
        {
            if ann.is_none() && !cx.locates() {
                return self.values_quietly(cx, edge.target, object);
            }
        }
        // Recursive or heavy properties run after the loop, by name (the plan's order),
        // unless evaluated properties are recorded by position.
        let defer = ann.is_none();
        let mut deferred = Deferred::default();
        let mut ok = true;
        for (position, (key, value)) in object.iter().enumerate() {
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
                let (matched, valid) = match named {
                    Some(named) => self.named_patterns_at(cx, named, patterns, key, value)?,
                    // Without a prefilter every pattern is tried: no candidate list to build.
                    None => match pass.pattern_set {
                        None => self.apply_patterns(cx, patterns, 0..patterns.len(), key, value)?,
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
            if evaluated {
                if let Some(ann) = ann.as_deref_mut() {
                    ann.add_property(position);
                }
            }
        }
        if let Some((entries, _)) = pass.properties {
            if !self.deferred_properties(cx, entries, object, deferred)? {
                ok = false;
            }
        }
        Ok(ok)
    }

    /// `additionalProperties` alone (no `properties`, no patterns: it applies to every
    /// property), in short-circuit mode and collecting nothing, the loop already charged:
    /// `target` on each value, without the pass's per-key lookups.
    #[inline(never)]
    fn values_quietly(&self, cx: &mut Ctx, target: NodeId, object: &Map<String, Value>) -> Res {
        for value in object.values() {
            if !self.child_quietly(cx, target, value)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[inline(never)]
    fn property_names(&self, cx: &mut Ctx, edge: &Edge, object: &Map<String, Value>) -> Res {
        // Keys have no instance location of their own: errors stay at the object.
        self.charge_loop(cx, object.len(), &[edge.target])?;
        let mut ok = true;
        for key in object.keys() {
            let saved = self.step_in(cx, edge.target)?;
            let valid = self.apply(cx, &edge.path, edge.target, Inst::Key(key), None);
            Interpreter::step_out(cx, saved);
            let valid = valid?;
            if !valid {
                ok = false;
                if !cx.report {
                    break;
                }
            }
        }
        Ok(ok)
    }

    #[inline(never)]
    fn prefix_items(
        &self,
        cx: &mut Ctx,
        edges: &[Edge],
        items: &[Value],
        ann: Option<&mut Annotations>,
    ) -> Res {
        if ann.is_none() && !cx.locates() {
            return self.prefix_items_quietly(cx, edges.iter().map(|e| e.target), items);
        }
        let mut ok = true;
        for (index, (edge, item)) in edges.iter().zip(items).enumerate() {
            if !self.apply_at_index(cx, edge, index, item)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if let Some(ann) = ann {
            ann.add_prefix(edges.len().min(items.len()));
        }
        Ok(ok)
    }

    /// `prefixItems` applying `targets` by position, in short-circuit mode.
    #[inline(never)]
    fn prefix_items_quietly(
        &self,
        cx: &mut Ctx,
        targets: impl Iterator<Item = NodeId>,
        items: &[Value],
    ) -> Res {
        for (target, item) in targets.zip(items) {
            if !self.child_quietly(cx, target, item)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `items` (from index `skip`) over `target`, charged in bulk and applied item by
    /// item, in short-circuit mode: decided for every item at once when `target` is always
    /// valid or only tests the type (neither recurs, so no item is a step), an inline
    /// schema that cannot recur run on each item without the dispatch `node` repeats.
    #[inline(never)]
    fn items_quietly(&self, cx: &mut Ctx, target: NodeId, skip: usize, items: &[Value]) -> Res {
        let plan = &self.plans[target.0];
        let rest = items.get(skip..).unwrap_or_default();
        match &plan.fast {
            Fast::Valid => return items_decided(cx, None, rest, plan.loop_cost),
            Fast::Type(types) => return items_decided(cx, Some(*types), rest, plan.loop_cost),
            _ => {}
        }
        charge_elements(cx, rest.len(), plan.loop_cost)?;
        match (&plan.fast, plan.steps) {
            (Fast::Simple(lanes), false) => simple_items(cx, lanes, rest),
            (Fast::Ops(lanes), false) => {
                for item in rest {
                    if !self.run_ops(cx, lanes, Inst::Value(item))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ => {
                for item in rest {
                    if !self.child_quietly(cx, target, item)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// `items` (from index `skip`): in short-circuit mode [`Interpreter::items_quietly`],
    /// else charged in bulk and applied item by item.
    #[inline(never)]
    fn items(
        &self,
        cx: &mut Ctx,
        schema: &Edge,
        skip: usize,
        items: &[Value],
        ann: Option<&mut Annotations>,
    ) -> Res {
        if ann.is_none() && !cx.locates() {
            return self.items_quietly(cx, schema.target, skip, items);
        }
        let plan = &self.plans[schema.target.0];
        let rest = items.get(skip..).unwrap_or_default();
        charge_elements(cx, rest.len(), plan.loop_cost)?;
        let mut ok = true;
        for (index, item) in items.iter().enumerate().skip(skip) {
            if !self.apply_at_index(cx, schema, index, item)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if let Some(ann) = ann {
            ann.add_all_items();
        }
        Ok(ok)
    }

    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn contains(
        &self,
        cx: &mut Ctx,
        node: &Node,
        keyword: &str,
        schema: &Edge,
        (min, max): (u64, Option<u64>),
        items: &[Value],
        (mut ann, mut matched): (Option<&mut Annotations>, Option<&mut Vec<usize>>),
    ) -> Res {
        // Without annotations to collect, stop as soon as the count decides.
        let every = ann.is_some() || cx.annotate;
        self.charge_loop(cx, items.len(), &[schema.target])?;
        let mut count = 0u64;
        for (index, item) in items.iter().enumerate() {
            if silently(cx, |cx| self.apply_at_index(cx, schema, index, item))? {
                count += 1;
                if let Some(ann) = ann.as_deref_mut() {
                    ann.add_item(index);
                }
                if let Some(matched) = matched.as_deref_mut() {
                    matched.push(index);
                }
                if !every && (max.is_some_and(|m| count > m) || (max.is_none() && count >= min)) {
                    break;
                }
            }
        }
        let ok = count >= min && max.is_none_or(|m| count <= m);
        if !ok && cx.report {
            cx.error(node, keyword, ErrorKind::Contains { min, max });
        }
        Ok(ok)
    }

    #[inline(never)]
    fn unevaluated_properties(
        &self,
        cx: &mut Ctx,
        node: &Node,
        edge: &Edge,
        object: &Map<String, Value>,
        ann: Option<(&mut Annotations, Option<&NameTable>)>,
    ) -> Res {
        cx.state.charge(object.len())?;
        self.charge_loop(cx, object.len(), &[edge.target])?;
        let mut ok = true;
        for (position, (key, value)) in object.iter().enumerate() {
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

    #[inline(never)]
    fn unevaluated_items(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        items: &[Value],
        ann: Option<&mut Annotations>,
    ) -> Res {
        cx.state.charge(items.len())?;
        self.charge_loop(cx, items.len(), &[edge.target])?;
        let mut ok = true;
        for (index, item) in items.iter().enumerate() {
            if ann.as_deref().is_some_and(|a| a.has_item(index)) {
                continue;
            }
            if !self.apply_at_index(cx, edge, index, item)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if let Some(ann) = ann {
            ann.add_all_items();
        }
        Ok(ok)
    }
}

/// The [`Fast::Simple`] ops of a node in the lane of `inst`'s kind, in short-circuit
/// mode.
#[inline(never)]
fn simple_checks(cx: &mut Ctx, lane: &Lane<Simple>, inst: Inst<'_>) -> Res {
    all_simple(cx, lane, inst)
}

/// The [`Fast::Simple`] ops of a node in the lane of `inst`'s kind, in short-circuit
/// mode: one op straight to [`simple_op`] (most lanes: no loop), several through
/// [`simple_checks`].
#[inline(always)]
fn simple_lane(cx: &mut Ctx, lanes: &ByKind<Simple>, inst: Inst<'_>) -> Res {
    let lane = lanes.lane(inst.kind());
    match (&*lane.steps, lane.fails) {
        ([op], false) => simple_op(cx, op, inst),
        ([], fails) => Ok(!fails),
        _ => simple_checks(cx, lane, inst),
    }
}

/// The [`Fast::Simple`] ops of an `items` schema on each of `items` in turn (the lane
/// of its kind), in short-circuit mode: one call for the whole array. When the schema's
/// array lane is one [`Simple::ItemsAtOnce`] (an array of arrays decided at once:
/// coordinates, matrices), the arrays among `items` run it without the lane's dispatch.
#[inline(never)]
fn simple_items(cx: &mut Ctx, lanes: &ByKind<Simple>, items: &[Value]) -> Res {
    let arrays = lanes.lane(Kind::Array);
    if let ([Simple::ItemsAtOnce { .. }], false) = (&*arrays.steps, arrays.fails) {
        let at_once = &arrays.steps[0];
        for item in items {
            let ok = match item {
                Value::Array(inner) => items_at_once(cx, at_once, inner)?,
                _ => all_simple(cx, lanes.lane(Kind::of(item)), Inst::Value(item))?,
            };
            if !ok {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    for item in items {
        if !all_simple(cx, lanes.lane(Kind::of(item)), Inst::Value(item))? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the array `items` passes `step`, a [`Simple::ItemsAtOnce`] (any other step
/// passes): its count tested first, then the items from `skip` decided after charging
/// the loop.
#[inline(always)]
fn items_at_once(cx: &mut Ctx, step: &Simple, items: &[Value]) -> Res {
    let Simple::ItemsAtOnce {
        skip,
        types,
        loop_cost,
        count,
    } = step
    else {
        return Ok(true);
    };
    if !count.contains(&(items.len() as u64)) {
        return Ok(false);
    }
    let rest = items.get(*skip..).unwrap_or_default();
    items_decided(cx, *types, rest, *loop_cost)
}

/// Whether `inst` passes the [`Fast::Simple`] ops of `lane`, in short-circuit mode.
#[inline(always)]
fn all_simple(cx: &mut Ctx, lane: &Lane<Simple>, inst: Inst<'_>) -> Res {
    for op in lane.steps.iter() {
        if !simple_check(cx, op, inst)? {
            return Ok(false);
        }
    }
    Ok(!lane.fails)
}

/// [`simple_check`] out of line, for a loop over [`Op`]s (which then keeps few values
/// in registers).
#[inline(never)]
fn simple_op(cx: &mut Ctx, op: &Simple, inst: Inst<'_>) -> Res {
    simple_check(cx, op, inst)
}

/// Whether `inst` passes the [`Simple`] op `op`, in short-circuit mode.
#[inline(always)]
fn simple_check(cx: &mut Ctx, op: &Simple, inst: Inst<'_>) -> Res {
    Ok(match op {
        Simple::Type(types) => inst.has_type(*types),
        Simple::MinItems(limit) => inst.as_array().is_none_or(|a| a.len() as u64 >= *limit),
        Simple::MaxItems(limit) => inst.as_array().is_none_or(|a| a.len() as u64 <= *limit),
        Simple::Required(required) => inst.as_object().is_none_or(|o| required.holds(o)),
        Simple::MinLength(limit) => inst.as_str().is_none_or(|s| min_length(s, *limit)),
        Simple::MaxLength(limit) => inst.as_str().is_none_or(|s| max_length(s, *limit)),
        Simple::Const(value) => inst.equals(value),
        Simple::Enum(values) => inst.equals_any(values),
        Simple::Strings(members) => inst
            .as_str()
            .is_some_and(|s| members.iter().any(|m| **m == *s)),
        Simple::Bound(limit, which) => in_bound(inst, *limit, *which),
        Simple::PrefixItemsAtOnce(types) => inst.as_array().is_none_or(|items| {
            (types.iter().zip(items)).all(|(t, item)| t.is_none_or(|t| has_type(t, item)))
        }),
        Simple::ItemsAtOnce { .. } => match inst.as_array() {
            Some(items) => items_at_once(cx, op, items)?,
            None => true,
        },
    })
}

/// `items` over `rest` whose schema is always valid (`types` is `None`) or only tests
/// the type: the verdict, after charging `loop_cost` per item (neither recurs, so no item
/// is a step).
#[inline(always)]
fn items_decided(cx: &mut Ctx, types: Option<TypeSet>, rest: &[Value], loop_cost: u64) -> Res {
    let ok = types.is_none_or(|types| rest.iter().all(|item| has_type(types, item)));
    charge_elements(cx, rest.len(), loop_cost).map(|()| ok)
}

/// The `properties` entry named `key` (its index and edge), through the plan's index when
/// there is one.
#[inline(always)]
fn find_property<'p>(
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
fn entry_name(entries: &[(String, Edge)], i: usize) -> Option<&str> {
    entries.get(i).map(|(name, _)| name.as_str())
}

/// The deferred `properties` entries an object has, found during a pass over its keys.
#[derive(Clone, Copy, Default)]
struct Deferred<'v> {
    /// How many.
    count: usize,
    /// The first found: its entry index, with its value.
    first: Option<(usize, &'v Value)>,
    /// The entries found among the first 64.
    few: u64,
}

impl<'v> Deferred<'v> {
    #[inline(always)]
    fn add(&mut self, index: usize, value: &'v Value) {
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
fn unevaluated_names(
    object: &Map<String, Value>,
    ann: Option<&Annotations>,
    table: Option<&NameTable>,
) -> Value {
    let evaluated = |i, key: &str| ann.is_some_and(|a| a.has_property(i, key, table));
    Value::Array(
        object
            .keys()
            .enumerate()
            .filter(|&(i, key)| !evaluated(i, key))
            .map(|(_, k)| Value::String(k.clone()))
            .collect(),
    )
}

/// `unevaluatedItems`' annotation: `true` when some item of `items` is not evaluated.
#[cold]
fn any_unevaluated_item(items: &[Value], ann: Option<&Annotations>) -> Option<Value> {
    let evaluated = |i| ann.is_some_and(|a| a.has_item(i));
    (0..items.len())
        .any(|i| !evaluated(i))
        .then_some(Value::Bool(true))
}
