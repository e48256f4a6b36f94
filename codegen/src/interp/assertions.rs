//! Assertions (checks that apply no subschema): the general evaluation of each, with its
//! error ([`Interpreter::leaf`], [`Interpreter::report_failure`]), and the short-circuit form
//! of those a node's plan lists as [`Simple`] steps, run in lanes by the instance's kind
//! (`items` and `prefixItems` decided at once for every item among them).

use super::access::count;
use super::context::{charge_elements, has_type, items_from, Ctx, Inst};
use super::index::EnumIndex;
use super::plan::{Bound, ByKind, Lane, NodePlan, Simple};
use super::Interpreter;
use crate::ir::kind::Kind;
use crate::ir::{applied_kind, Check, CheckKind, CustomKeyword, Node};
use crate::plan::messages::{self, Failure};
use crate::plan::Limit;
use schemac_runtime::engine::{max_length, min_length, Res};
use schemac_runtime::error::{ErrorKind, TypeSet};
use schemac_runtime::instance::Instance;
use schemac_runtime::{content, json};
use serde_json::Value;
use std::borrow::Cow;
use std::cmp::Ordering;

#[cfg(doc)]
use super::plan::{Fast, Op};

/// Whether `inst` (a number; anything else passes) is within `limit`.
#[inline(always)]
pub(super) fn in_bound<'a, I: Instance<'a>>(inst: Inst<'_, I>, limit: Limit, which: Bound) -> bool {
    inst.as_number().is_none_or(|n| {
        let order = limit.compare(&n);
        match which {
            Bound::Minimum => order != Ordering::Less,
            Bound::Maximum => order != Ordering::Greater,
            Bound::ExclusiveMinimum => order == Ordering::Greater,
            Bound::ExclusiveMaximum => order == Ordering::Less,
        }
    })
}

impl Interpreter {
    /// The verdict of a check that reads only the instance (no subschema, no annotation,
    /// no dynamic scope); `None` for any other check.
    #[inline(always)]
    pub(super) fn leaf<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        plan: &NodePlan,
        index: usize,
        kind: &CheckKind,
        inst: Inst<'_, I>,
    ) -> Option<Res> {
        let ok = match kind {
            CheckKind::Type(types) => inst.has_type(*types),
            CheckKind::Enum(values) => {
                return Some(match plan.enum_table(index) {
                    Some(table) => self.enum_lookup(cx, table, values, inst),
                    None => Ok(inst.equals_any(values)),
                })
            }
            CheckKind::Const(value) => {
                return Some(match plan.enum_table(index) {
                    Some(table) => self.enum_lookup(cx, table, std::slice::from_ref(value), inst),
                    None => Ok(inst.equals(value)),
                })
            }
            CheckKind::MinLength(limit) => inst.with_str(|s| min_length(s, *limit)) != Some(false),
            CheckKind::MaxLength(limit) => inst.with_str(|s| max_length(s, *limit)) != Some(false),
            CheckKind::Pattern(id) => {
                let regex = self.shared.program.regexes.get(id.0);
                return Some(match regex.and_then(|e| e.compiled.as_ref()) {
                    Some(regex) => inst.with_str(|s| cx.is_match(regex, s)).unwrap_or(Ok(true)),
                    None => Ok(true),
                });
            }
            CheckKind::Format(name) => inst.with_str(|s| self.format_ok(name, s)) != Some(false),
            CheckKind::ContentBase64 => inst.with_str(content::is_base64) != Some(false),
            CheckKind::ContentJson { base64 } => {
                inst.with_str(|s| content::is_json(s, *base64)) != Some(false)
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
            CheckKind::IntegerLiteral(_) => inst
                .as_number()
                .is_none_or(|n| !json::is_integral_float(&n) || inst.written_integral()),
            CheckKind::MultipleOf(divisor) => inst
                .as_number()
                .is_none_or(|n| json::is_multiple_of(&n, *divisor)),
            CheckKind::MinItems(limit) => inst.as_array().is_none_or(|a| count(a) as u64 >= *limit),
            CheckKind::MaxItems(limit) => inst.as_array().is_none_or(|a| count(a) as u64 <= *limit),
            CheckKind::UniqueItems => {
                return Some(
                    inst.as_array()
                        .map_or(Ok(true), |a| cx.state.all_unique(a.items())),
                )
            }
            CheckKind::MinProperties(limit) => {
                inst.as_object().is_none_or(|o| count(o) as u64 >= *limit)
            }
            CheckKind::MaxProperties(limit) => {
                inst.as_object().is_none_or(|o| count(o) as u64 <= *limit)
            }
            CheckKind::Custom(custom) => self.custom(custom, inst).is_ok(),
            // `Interpreter::eval_check` applies them.
            applied_kind!() => return None,
        };
        Some(Ok(ok))
    }

    /// Reports the failure of the check `check` of `node`: the error [`messages::failure`]
    /// says it reports (none for a check whose errors depend on how it was applied).
    #[cold]
    pub(super) fn report_failure<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        node: &Node,
        check: &Check,
        inst: Inst<'_, I>,
    ) {
        let kind = match messages::failure(&self.shared.program, &check.kind) {
            Failure::Reports(kind) => kind,
            Failure::Type(expected) => ErrorKind::Type {
                expected,
                found: inst.json_type(),
            },
            Failure::Custom(custom) => ErrorKind::Custom {
                keyword: check.keyword.clone(),
                message: Cow::Owned(self.custom(custom, inst).err().unwrap_or_default()),
            },
            Failure::Applied => return,
        };
        cx.error(node, &check.keyword, kind);
    }

    /// What the check of the custom keyword occurrence `custom` says of `inst` (a key is
    /// given as a string `Value`, a document's node as the `Value` of its subtree).
    fn custom<'a, I: Instance<'a>>(
        &self,
        custom: &CustomKeyword,
        inst: Inst<'_, I>,
    ) -> Result<(), String> {
        let Some(check) = self.keywords.get(custom.id).and_then(Option::as_ref) else {
            return Err("no check was given for this custom keyword \
                        (schemac::ValidatorOptions::keyword)"
                .to_string());
        };
        match inst {
            Inst::Value(v) => check(&v.to_value()),
            Inst::Key(k) => check(&Value::String(k.to_string())),
        }
    }

    /// Whether `s` passes the asserted format `name`: a custom check first, then the
    /// runtime's; unknown formats pass.
    pub(super) fn format_ok(&self, name: &str, s: &str) -> bool {
        if let Some(check) = self.formats.get(name) {
            return check(s);
        }
        match schemac_runtime::format::lookup(name) {
            Some(check) => check(s),
            None => true,
        }
    }

    /// `enum` (or `const`: one member) with member tables: a string or number is looked up
    /// in its table when it has one, an array or object found by its hash when the members
    /// have one (the lookup charged to the budget), anything else compared member by member.
    pub(super) fn enum_lookup<'a, I: Instance<'a>>(
        &self,
        cx: &mut Ctx,
        index: &EnumIndex,
        values: &[Value],
        inst: Inst<'_, I>,
    ) -> Res {
        let table = &index.table;
        let members = table.as_runtime();
        if table.has_strings() {
            let found = |s: &str| -> Res {
                cx.state.spend_units(table.str_units())?;
                Ok(index.has_str(s))
            };
            if let Some(found) = inst.with_str(found) {
                return found;
            }
        }
        match inst.as_number() {
            Some(n) if table.has_numbers() => cx.state.is_number_member(&members, &n),
            _ if table.has_composites() => match inst.as_array().or(inst.as_object()) {
                Some(v) if table.has_composites_of(inst.kind()) => {
                    let equal = |i: usize, v: I| {
                        table
                            .composite_member(values, i)
                            .is_some_and(|m| json::equal(m, v))
                    };
                    cx.state.is_composite_member(&table.composites(), v, equal)
                }
                Some(_) => Ok(false),
                None => Ok(inst.equals_any(values)),
            },
            _ => Ok(inst.equals_any(values)),
        }
    }
}

/// The [`Fast::Simple`] ops of a node in the lane of `inst`'s kind, in short-circuit
/// mode: one op straight to [`simple_op`] (most lanes: no loop), several through
/// [`simple_checks`].
#[inline(always)]
pub(super) fn simple_lane<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    lanes: &ByKind<Simple>,
    inst: Inst<'_, I>,
) -> Res {
    let lane = lanes.lane(inst.kind());
    match (&*lane.steps, lane.fails) {
        ([op], false) => simple_op(cx, op, inst),
        ([], fails) => Ok(!fails),
        _ => simple_checks(cx, lane, inst),
    }
}

/// The [`Fast::Simple`] ops of a node in the lane of `inst`'s kind, in short-circuit
/// mode.
#[inline(never)]
pub(super) fn simple_checks<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    lane: &Lane<Simple>,
    inst: Inst<'_, I>,
) -> Res {
    all_simple(cx, lane, inst)
}

/// Whether `inst` passes the [`Fast::Simple`] ops of `lane`, in short-circuit mode.
#[inline(always)]
pub(super) fn all_simple<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    lane: &Lane<Simple>,
    inst: Inst<'_, I>,
) -> Res {
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
pub(super) fn simple_op<'a, I: Instance<'a>>(cx: &mut Ctx, op: &Simple, inst: Inst<'_, I>) -> Res {
    simple_check(cx, op, inst)
}

/// Whether `inst` passes the [`Simple`] op `op`, in short-circuit mode.
#[inline(always)]
pub(super) fn simple_check<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    op: &Simple,
    inst: Inst<'_, I>,
) -> Res {
    Ok(match op {
        Simple::Type(types) => inst.has_type(*types),
        Simple::MinItems(limit) => inst.as_array().is_none_or(|a| count(a) as u64 >= *limit),
        Simple::MaxItems(limit) => inst.as_array().is_none_or(|a| count(a) as u64 <= *limit),
        Simple::Required(required) => inst.as_object().is_none_or(|o| required.holds(o)),
        Simple::MinLength(limit) => inst.with_str(|s| min_length(s, *limit)) != Some(false),
        Simple::MaxLength(limit) => inst.with_str(|s| max_length(s, *limit)) != Some(false),
        Simple::Const(value) => inst.equals(value),
        Simple::Enum(values) => inst.equals_any(values),
        Simple::Strings(members) => inst
            .with_str(|s| members.iter().any(|m| **m == *s))
            .unwrap_or(false),
        Simple::Bound(limit, which) => in_bound(inst, *limit, *which),
        Simple::PrefixItemsAtOnce(types) => inst.as_array().is_none_or(|items| {
            (types.iter().zip(items.items())).all(|(t, item)| t.is_none_or(|t| has_type(t, item)))
        }),
        Simple::ItemsAtOnce { .. } => match inst.as_array() {
            Some(items) => items_at_once(cx, op, items)?,
            None => true,
        },
    })
}

/// The [`Fast::Simple`] ops of an `items` schema on each of `items` in turn (the lane
/// of its kind), in short-circuit mode: one call for the whole array. When the schema's
/// array lane is one [`Simple::ItemsAtOnce`] (an array of arrays decided at once:
/// coordinates, matrices), the arrays among `items` run it without the lane's dispatch.
#[inline(never)]
pub(super) fn simple_items<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    lanes: &ByKind<Simple>,
    items: impl Iterator<Item = I>,
) -> Res {
    let arrays = lanes.lane(Kind::Array);
    if let ([Simple::ItemsAtOnce { .. }], false) = (&*arrays.steps, arrays.fails) {
        let at_once = &arrays.steps[0];
        for item in items {
            let ok = match Kind::of(item) {
                Kind::Array => items_at_once(cx, at_once, item)?,
                kind => all_simple(cx, lanes.lane(kind), Inst::Value(item))?,
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
pub(super) fn items_at_once<'a, I: Instance<'a>>(cx: &mut Ctx, step: &Simple, items: I) -> Res {
    let Simple::ItemsAtOnce {
        skip,
        types,
        loop_cost,
        count,
    } = step
    else {
        return Ok(true);
    };
    if !count.contains(&(self::count(items) as u64)) {
        return Ok(false);
    }
    items_decided(cx, *types, items_from(items, *skip), *loop_cost)
}

/// `items` over `rest` whose schema is always valid (`types` is `None`) or only tests
/// the type: the verdict, after charging `loop_cost` per item (neither recurs, so no item
/// is a step).
#[inline(always)]
pub(super) fn items_decided<'a, I: Instance<'a>>(
    cx: &mut Ctx,
    types: Option<TypeSet>,
    mut rest: impl ExactSizeIterator<Item = I>,
    loop_cost: u64,
) -> Res {
    let len = rest.len();
    let ok = types.is_none_or(|types| rest.all(|item| has_type(types, item)));
    charge_elements(cx, len, loop_cost).map(|()| ok)
}
