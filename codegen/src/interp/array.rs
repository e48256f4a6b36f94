//! The array keywords that apply subschemas: `prefixItems`, `items`, `contains`,
//! `unevaluatedItems`, each in its collecting and short-circuit forms side by side (items
//! decided at once, by a schema that only tests the type or is always valid, are
//! [`Simple`](super::plan::Simple) steps: [`super::assertions`]).

use super::access::count;
use super::annotations::Annotations;
use super::assertions::{items_decided, simple_items};
use super::context::{charge_elements, items_from, silently, Ctx, Inst};
use super::plan::Fast;
use super::Interpreter;
use crate::ir::{Edge, NodeId};
use schemac_runtime::engine::Res;
use schemac_runtime::instance::Instance;
use serde_json::Value;

impl Interpreter {
    #[inline(never)]
    pub(super) fn prefix_items<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edges: &[Edge],
        items: I,
        ann: Option<&mut Annotations>,
    ) -> Res {
        if ann.is_none() && !cx.locates() {
            return self.prefix_items_quietly(cx, edges.iter().map(|e| e.target), items);
        }
        let mut ok = true;
        for (index, (edge, item)) in edges.iter().zip(items.items()).enumerate() {
            if !self.apply_at_index(cx, edge, index, item)? {
                ok = false;
                if !cx.report {
                    return Ok(false);
                }
            }
        }
        if let Some(ann) = ann {
            ann.add_prefix(edges.len().min(count(items)));
        }
        Ok(ok)
    }

    /// `prefixItems` applying `targets` by position, in short-circuit mode.
    #[inline(never)]
    pub(super) fn prefix_items_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        targets: impl Iterator<Item = NodeId>,
        items: I,
    ) -> Res {
        for (target, item) in targets.zip(items.items()) {
            if !self.child_quietly(cx, target, item)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `items` (from index `skip`): in short-circuit mode [`Interpreter::items_quietly`],
    /// else charged in bulk and applied item by item.
    #[inline(never)]
    pub(super) fn items<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        schema: &Edge,
        skip: usize,
        items: I,
        ann: Option<&mut Annotations>,
    ) -> Res {
        if ann.is_none() && !cx.locates() {
            return self.items_quietly(cx, schema.target, skip, items);
        }
        let plan = &self.plans[schema.target.0];
        let rest = items_from(items, skip);
        charge_elements(cx, rest.len(), plan.loop_cost)?;
        let mut ok = true;
        for (index, item) in rest.enumerate() {
            let index = index + skip;
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

    /// `items` (from index `skip`) over `target`, charged in bulk and applied item by
    /// item, in short-circuit mode: decided for every item at once when `target` is always
    /// valid or only tests the type (neither recurs, so no item is a step), an inline
    /// schema that cannot recur run on each item without the dispatch `node` repeats.
    #[inline(never)]
    pub(super) fn items_quietly<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        target: NodeId,
        skip: usize,
        items: I,
    ) -> Res {
        let plan = &self.plans[target.0];
        let rest = items_from(items, skip);
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
}

impl Interpreter {
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn contains<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        schema: &Edge,
        (min, max): (u64, Option<u64>),
        items: I,
        (mut ann, mut matched): (Option<&mut Annotations>, Option<&mut Vec<usize>>),
    ) -> Res {
        // Without annotations to collect, stop as soon as the count decides.
        let every = ann.is_some() || cx.annotate;
        self.charge_loop(cx, count(items), &[schema.target])?;
        let mut found = 0u64;
        for (index, item) in items.items().enumerate() {
            if silently(cx, |cx| self.apply_at_index(cx, schema, index, item))? {
                found += 1;
                if let Some(ann) = ann.as_deref_mut() {
                    ann.add_item(index);
                }
                if let Some(matched) = matched.as_deref_mut() {
                    matched.push(index);
                }
                if !every && (max.is_some_and(|m| found > m) || (max.is_none() && found >= min)) {
                    break;
                }
            }
        }
        Ok(found >= min && max.is_none_or(|m| found <= m))
    }

    #[inline(never)]
    pub(super) fn unevaluated_items<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        edge: &Edge,
        items: I,
        ann: Option<&mut Annotations>,
    ) -> Res {
        cx.state.charge(count(items))?;
        self.charge_loop(cx, count(items), &[edge.target])?;
        let mut ok = true;
        for (index, item) in items.items().enumerate() {
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

/// `unevaluatedItems`' annotation: `true` when some item of `items` is not evaluated.
#[cold]
pub(super) fn any_unevaluated_item<'a, I: Instance<'a>>(
    items: I,
    ann: Option<&Annotations>,
) -> Option<Value> {
    let evaluated = |i| ann.is_some_and(|a| a.has_item(i));
    (0..count(items))
        .any(|i| !evaluated(i))
        .then_some(Value::Bool(true))
}
