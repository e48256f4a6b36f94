//! How the interpreter evaluates a node and applies subschemas: the root, a node entered
//! (out of line: its region charged, its depth counted) or run in place, its checks in
//! plan order — every check through [`Interpreter::eval_check`] (the collecting form, also
//! used in short-circuit mode when a node is entered) and the short-circuit steps a node's
//! plan lists through [`Interpreter::op`] — and a subschema applied to the instance, to a
//! property value or key, or to an item, with the instance and keyword locations kept
//! while reporting. The keywords themselves are in [`super::assertions`],
//! [`super::object`], [`super::array`] and [`super::applicators`].

use super::access::{count, has_key};
use super::annotations::Annotations;
use super::applicators::Branches;
use super::array::any_unevaluated_item;
use super::assertions::{simple_lane, simple_op};
use super::context::{charge_elements, pattern_matches, silently, Ctx, Inst};
use super::object::unevaluated_names;
use super::plan::{ByKind, Fast, Flat, Lane, NodePlan, Op, Simple};
use super::Interpreter;
use crate::ir::{leaf_kind, Check, CheckKind, Edge, Node, NodeId, RegexId};
use crate::plan::messages::Refusal;
use schemac_runtime::annotation;
use schemac_runtime::engine::{Res, Stop, Trail};
use schemac_runtime::error::ErrorKind;
use schemac_runtime::instance::Instance;
use serde_json::Value;
use std::borrow::Cow;

#[cfg(doc)]
use crate::plan::messages;

impl Interpreter {
    /// Evaluates the root node.
    pub(super) fn eval_root<'a, I: Instance<'a>>(&self, cx: &mut Ctx, instance: I) -> Res {
        self.node(cx, self.shared.program.root, Inst::Value(instance), None)
    }

    /// Evaluates the root node in short-circuit mode ([`Ctx::checking`]): an out-of-line
    /// [`NodePlan::quick`] root that counts no depth (the usual root) is entered here, as
    /// [`Interpreter::enter`] would (its entry cost charged, then its ops), without the
    /// general dispatch around it; any other through [`Interpreter::eval_root`].
    pub(super) fn check_root<'a, I: Instance<'a>>(&self, cx: &mut Ctx, instance: I) -> Res {
        let plan = &self.plans[self.shared.program.root.0];
        if !(plan.quick && plan.out_of_line && !plan.counts_depth) || cx.locates() {
            return self.eval_root(cx, instance);
        }
        cx.state.spend_units(plan.entry_cost)?;
        self.entered_ops(cx, plan, Inst::Value(instance))
    }

    /// The ops of the [`NodePlan::quick`] node planned `plan`, entered, on `inst`
    /// ([`NodePlan::ops`]; none: valid).
    #[inline(always)]
    fn entered_ops<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        plan: &NodePlan,
        inst: Inst<'_, I>,
    ) -> Res {
        match plan.ops.as_deref() {
            Some(ops) => self.run_ops(cx, ops, inst),
            None => Ok(true),
        }
    }

    /// Evaluates node `id` against `inst`. When `out` is given and the node collects
    /// evaluated locations, a valid evaluation adds its locations to `out`.
    #[inline(always)]
    pub(super) fn node<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        inst: Inst<'_, I>,
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

    /// [`Interpreter::node`] where the caller knows that the locations are not
    /// maintained (short-circuit mode without annotations).
    #[inline(always)]
    pub(super) fn node_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        inst: Inst<'_, I>,
    ) -> Res {
        let plan = &self.plans[id.0];
        match self.fast(cx, plan, inst) {
            Some(verdict) => verdict,
            None => self.enter(cx, id, plan, inst, None),
        }
    }

    /// The fast path of a node planned `plan` in short-circuit mode without
    /// annotations ([`NodePlan::fast`]); `None` when it is entered.
    #[inline(always)]
    pub(super) fn fast<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        plan: &NodePlan,
        inst: Inst<'_, I>,
    ) -> Option<Res> {
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
    pub(super) fn enter<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        plan: &NodePlan,
        inst: Inst<'_, I>,
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
            self.entered_ops(cx, plan, inst)
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
    pub(super) fn run_ops<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        lanes: &ByKind<Op>,
        inst: Inst<'_, I>,
    ) -> Res {
        let lane = lanes.lane(inst.kind());
        match (&*lane.steps, lane.fails) {
            ([op], false) => self.run_op(cx, op, inst),
            ([], fails) => Ok(!fails),
            _ => self.run_lane(cx, lane, inst),
        }
    }

    /// The ops of `lane` in turn, up to the first that fails.
    #[inline(never)]
    pub(super) fn run_lane<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        lane: &Lane<Op>,
        inst: Inst<'_, I>,
    ) -> Res {
        for op in lane.steps.iter() {
            if !self.op(cx, op, inst)? {
                return Ok(false);
            }
        }
        Ok(!lane.fails)
    }

    /// [`Interpreter::op`] out of line, for a lane of one op.
    #[inline(never)]
    pub(super) fn run_op<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        op: &Op,
        inst: Inst<'_, I>,
    ) -> Res {
        self.op(cx, op, inst)
    }

    /// Runs check `index` of `node`, `check`, reporting its errors when reporting.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn eval_check<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        index: usize,
        check: &Check,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        let keyword = &*check.keyword;
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
                    self.report_failure(cx, node, check, inst);
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
                        if has_key(object, property)
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
            CheckKind::PropertyNames(edge) if !plan.fuses(index) => match inst.as_object() {
                Some(object) => self.property_names(cx, edge, object)?,
                None => true,
            },
            CheckKind::Properties(_)
            | CheckKind::PatternProperties(_)
            | CheckKind::AdditionalProperties { .. }
            | CheckKind::PropertyNames(_) => match inst.as_object() {
                Some(object) => {
                    let ann = ann.as_deref_mut().filter(|_| plan.collect_properties);
                    self.object_check(cx, node, plan, index, object, ann)?
                }
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
                    let ok =
                        self.contains(cx, schema, (*min, *max), items, (ann, matched.as_mut()))?;
                    if !ok && cx.report {
                        self.report_failure(cx, node, check, inst);
                    }
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
                    let charged = plan.unevaluated_on_entry(cx);
                    let ok = self.unevaluated_properties(cx, (node, charged), edge, object, ann)?;
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
            kind @ leaf_kind!() => {
                let ok = self.leaf(cx, plan, index, kind, inst).unwrap_or(Ok(true))?;
                if !ok && cx.report {
                    self.report_failure(cx, node, check, inst);
                }
                ok
            }
        };
        Ok(ok)
    }

    /// Whether `inst` passes `op`, in short-circuit mode.
    #[inline(always)]
    pub(super) fn op<'a, I: Instance<'a>>(&self, cx: &mut Ctx, op: &Op, inst: Inst<'_, I>) -> Res {
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
                self.properties_alone::<_, true>(cx, properties.borrowed(), object, None)
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

    /// Check `index` of node `id` in short-circuit mode ([`Op::Check`]): a check that
    /// reads only the instance ([`Interpreter::leaf`]) directly, as
    /// [`Interpreter::eval_check`] evaluates it without errors or annotations; any other
    /// through it.
    #[inline(never)]
    pub(super) fn quick_check<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        id: NodeId,
        index: usize,
        inst: Inst<'_, I>,
    ) -> Res {
        let node = &self.shared.program.nodes[id.0];
        let plan = &self.plans[id.0];
        let Some(check) = node.checks.get(index) else {
            return Ok(true);
        };
        match self.leaf(cx, plan, index, &check.kind, inst) {
            Some(verdict) => verdict,
            None => self.eval_check(cx, node, plan, index, check, inst, None),
        }
    }

    /// Runs a node's checks in order.
    pub(super) fn checks<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        inst: Inst<'_, I>,
        mut ann: Option<&mut Annotations>,
    ) -> Res {
        if let (true, Some(object)) = (plan.unevaluated_on_entry(cx), inst.as_object()) {
            self.charge_unevaluated(cx, node, object)?;
        }
        if let (Some(flat), false) = (&plan.flat, cx.locates()) {
            return self.flat_checks(cx, flat, inst, ann);
        }
        let mut valid = true;
        for (index, check) in node.checks.iter().enumerate() {
            let ok = self.eval_check(cx, node, plan, index, check, inst, ann.as_deref_mut())?;
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
    pub(super) fn flat_checks<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        flat: &[Flat],
        inst: Inst<'_, I>,
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
                        self.eval_check(cx, node, plan, index, check, inst, ann.as_deref_mut())?
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

    /// Gives the annotation of the applicator `check` of `node`, evaluated on `inst`, when
    /// the node is still `valid` (else it would be dropped): the one the check found
    /// ([`Spare::applied`](super::context::Spare::applied)), else [`Interpreter::applied`].
    #[cold]
    pub(super) fn give_applied<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        check: &Check,
        inst: Inst<'_, I>,
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
    pub(super) fn applied<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        check: &Check,
        inst: Inst<'_, I>,
    ) -> Result<Option<Value>, Stop> {
        let names = |cx: &mut Ctx, applies: &dyn Fn(&mut Ctx, &str) -> Res| {
            let Some(object) = inst.as_object() else {
                return Ok(None);
            };
            let mut names = Vec::new();
            for (key, _) in object.entries() {
                let key = key.unescaped();
                if applies(cx, &key)? {
                    names.push(Value::String(key.into_owned()));
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
                .and_then(|items| annotation::prefix_items_value(count(items), edges.len()))),
            CheckKind::Items { skip, .. } => Ok(inst
                .as_array()
                .filter(|items| count(*items) > *skip)
                .map(|_| Value::Bool(true))),
            _ => Ok(None),
        }
    }

    /// [`Interpreter::node`] for a node that may collect evaluated locations or enter a
    /// resource of the dynamic scope.
    #[inline(never)]
    pub(super) fn node_with_state<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        plan: &NodePlan,
        inst: Inst<'_, I>,
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
    pub(super) fn charge_loop(
        &self,
        cx: &mut Ctx,
        elements: usize,
        targets: &[NodeId],
    ) -> Result<(), Stop> {
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
    pub(super) fn step_in(&self, cx: &mut Ctx, target: NodeId) -> Result<Option<u32>, Stop> {
        if !self.plans[target.0].steps {
            return Ok(None);
        }
        cx.state.step_in().map(Some)
    }

    /// Steps back out of a child instance entered with [`Interpreter::step_in`].
    #[inline(always)]
    pub(super) fn step_out(cx: &mut Ctx, saved: Option<u32>) {
        if let Some(saved) = saved {
            cx.state.step_out(saved);
        }
    }

    /// Applies `target` in place (same instance location), reached through `path`.
    #[inline]
    pub(super) fn apply<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        path: &str,
        target: NodeId,
        inst: Inst<'_, I>,
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

    /// [`Op::Apply`]: the node at `target`, in short-circuit mode.
    #[inline(never)]
    pub(super) fn apply_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        target: NodeId,
        inst: Inst<'_, I>,
    ) -> Res {
        self.node(cx, target, inst, None)
    }

    /// Evaluates `target` on the child instance `value` in short-circuit mode without
    /// annotations (a step when [`Interpreter::step_in`] says so).
    #[inline(always)]
    pub(super) fn child_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        target: NodeId,
        value: I,
    ) -> Res {
        if !self.plans[target.0].steps {
            return self.node_quietly(cx, target, Inst::Value(value));
        }
        let saved = cx.state.step_in()?;
        let result = self.node_quietly(cx, target, Inst::Value(value));
        cx.state.step_out(saved);
        result
    }

    /// Applies `edge` to the property `key` of the current object.
    #[inline(always)]
    pub(super) fn apply_at_key<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        key: &str,
        value: I,
    ) -> Res {
        if !cx.locates() {
            return self.child_quietly(cx, edge.target, value);
        }
        self.apply_at_key_located(cx, edge, key, value)
    }

    /// [`Interpreter::apply_at_key`] maintaining the locations.
    #[inline(never)]
    pub(super) fn apply_at_key_located<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        key: &str,
        value: I,
    ) -> Res {
        self.at_child(cx, edge, |trail| trail.push_key(key), value)
    }

    /// [`Interpreter::apply_at_key`] for `additionalProperties` / `unevaluatedProperties`:
    /// when errors are reported and `refusal` gives the names the object allows (its
    /// subschema is `false`, [`messages::additional_refusal`]), the `false` schema's error
    /// says that the property is not allowed ([`Trail::refuse`]).
    #[inline(always)]
    pub(super) fn apply_refusing<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        refusal: impl FnOnce() -> Option<Refusal>,
        key: &str,
        value: I,
    ) -> Res {
        // Not reporting, nothing is built: the refusal is for the error's message.
        if !cx.report || cx.trail.is_none() {
            return self.apply_at_key(cx, edge, key, value);
        }
        let (Some(refusal), Some(trail)) = (refusal(), cx.trail.as_deref_mut()) else {
            return self.apply_at_key(cx, edge, key, value);
        };
        let declared = refusal.declares(key);
        let saved = trail.refuse(Cow::Owned(refusal.allowed), declared);
        let result = self.apply_at_key(cx, edge, key, value);
        if let Some(trail) = cx.trail.as_deref_mut() {
            trail.end_refusal(saved);
        }
        result
    }

    /// Applies `edge` to the item at `index` of the current array.
    #[inline(always)]
    pub(super) fn apply_at_index<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        index: usize,
        value: I,
    ) -> Res {
        if !cx.locates() {
            return self.child_quietly(cx, edge.target, value);
        }
        self.apply_at_index_located(cx, edge, index, value)
    }

    /// [`Interpreter::apply_at_index`] maintaining the locations.
    #[inline(never)]
    pub(super) fn apply_at_index_located<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        index: usize,
        value: I,
    ) -> Res {
        self.at_child(cx, edge, |trail| trail.push_index(index), value)
    }

    /// Applies `edge` to the child instance `value`, whose location `step` appends to the
    /// current instance location (returning the mark to restore it at).
    pub(super) fn at_child<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        step: impl FnOnce(&mut Trail) -> usize,
        value: I,
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
    pub(super) fn apply_silently<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        inst: Inst<'_, I>,
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
    pub(super) fn records_only_valid(&self, cx: &Ctx, id: NodeId) -> bool {
        let plan = &self.plans[id.0];
        !(plan.collect_properties || plan.collect_items)
            || plan.has_unevaluated
            || (plan.evaluates.is_some() && !cx.locates())
    }

    /// The node a `$dynamicRef` evaluates: the outermost resource in the dynamic scope
    /// declaring the anchor, else the static target.
    pub(super) fn dynamic_target(&self, cx: &Ctx, fallback: &Edge, anchor: Option<&str>) -> NodeId {
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
}
