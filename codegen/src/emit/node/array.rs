//! The array keywords that apply subschemas: `prefixItems`, `items`, `contains`,
//! `unevaluatedItems`.

use super::call::{EvArg, Inst};
use super::code::{Code, Uses};
use super::dispatch::ArmCx;
use super::{state, Fun, Gen, Mode};
use crate::ir::{Check, CheckKind, Edge};
use crate::plan::thresholds::{PEELED_ITEMS, PEELED_ITEM_CHECKS};
use proc_macro2::Literal;
use quote::quote;

impl Gen<'_> {
    /// `contains` with its `minContains` / `maxContains` bounds: the number of matching items,
    /// counted until it decides.
    pub(super) fn contains(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        schema: &Edge,
        min: u64,
        max: Option<u64>,
    ) -> Code {
        let f = a.f;
        let mark = f.node.collect.items;
        let call = self.silent_call(f, schema, &Inst::IndexVar, &EvArg::Throwaway);
        let fail = self.fail_check(f, check);
        // An evaluation locates each item (its annotations) and never stops early.
        let evaluates = self.evaluate && f.mode == Mode::Errors;
        let (iter, index) = if mark || evaluates {
            (quote!(arr.iter().enumerate()), quote!((i, x)))
        } else {
            (quote!(arr.iter()), quote!(x))
        };
        let mark_code = if mark {
            quote!(ev.items.set(i);)
        } else {
            quote!()
        };
        // What the loop reads of the function's (it binds the item `x` and its index `i`).
        let reads =
            (call.uses | if mark { Uses::EV } else { Uses::default() }).without(Uses::X | Uses::I);
        // Its annotation (2020-12): the indices that match.
        let (matched, record, applied) = if self.annotates(f, check) {
            let give = self.give(check, quote!(__rt::Value::from(matched)));
            (
                quote!(let mut matched = __rt::Indices::new();),
                quote!(if cx.annotating() {
                    matched.push(i);
                }),
                quote!(if cx.annotating() && cx.mark() == start { #give }),
            )
        } else {
            (quote!(), quote!(), quote!())
        };
        // `cond && ` when an evaluation must not stop early.
        let unless_evaluating = if evaluates {
            quote!(!cx.annotating() &&)
        } else {
            quote!()
        };
        let charge = self.loop_charge(f, quote!(arr.len()), &[schema.target]);
        if min == 0 && max.is_none() {
            // Cannot fail: evaluated for annotations (and the budget) only.
            let body = if mark {
                quote!(if #call? { #mark_code #record })
            } else if !record.is_empty() {
                quote!(if #call? { #record if !cx.annotating() { break; } })
            } else if evaluates {
                quote!(if #call? && !cx.annotating() { break; })
            } else {
                quote!(if #call? { break; })
            };
            return Code::around([charge], |[charge]| {
                quote! {
                    #charge
                    #matched
                    for #index in #iter {
                        #body
                    }
                    #applied
                }
            })
            .using(reads)
            .binding();
        }
        // Without annotations to collect, stop as soon as the count decides.
        let early = if mark {
            quote!()
        } else {
            match max {
                None => quote!(if #unless_evaluating count >= #min { break; }),
                Some(m) => quote!(if #unless_evaluating count > #m { break; }),
            }
        };
        let verdict = match (min, max) {
            (0, Some(m)) => Code::if_then(quote!(count > #m), fail),
            (min, None) => Code::if_then(quote!(count < #min), fail),
            (min, Some(m)) => Code::if_then(quote!(!__rt::in_range(count, #min, #m)), fail),
        };
        Code::around([charge, verdict], |[charge, verdict]| {
            quote! {{
                #charge
                #matched
                let mut count: u64 = 0;
                for #index in #iter {
                    if #call? {
                        count += 1;
                        #mark_code
                        #record
                        #early
                    }
                }
                #verdict
                #applied
            }}
        })
        .using(reads)
        .binding()
    }

    /// `prefixItems`: each item of the prefix against its subschema.
    pub(super) fn prefix_items(&self, a: &ArmCx<'_, '_>, check: &Check, edges: &[Edge]) -> Code {
        let f = a.f;
        let mark = self.node_collects(f) && f.node.collect.items;
        let parts: Code = edges
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let call = self.child(f, e, e.target, &Inst::Index(i), &EvArg::Throwaway);
                let get = if i == 0 {
                    quote!(arr.first())
                } else {
                    let idx = Literal::usize_unsuffixed(i);
                    quote!(arr.get(#idx))
                };
                let test = self.applied_child(f, &call);
                Code::around([test], |[test]| quote!(if let Some(x) = #get { #test }))
                    .declaring(Uses::X)
            })
            .collect();
        let mark_code = if mark {
            let n = Literal::usize_unsuffixed(edges.len());
            Code::stmt(quote!(ev.items.set_range(0, arr.len().min(#n));)).using(Uses::EV)
        } else {
            Code::default()
        };
        parts.then(mark_code).then(self.applied(a, check)).binding()
    }

    /// `items` (after `skip` prefix items): every further item against `schema`, charged in bulk.
    pub(super) fn items(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        schema: &Edge,
        skip: usize,
    ) -> Code {
        let f = a.f;
        let mark = f.node.collect.items;
        // Short-circuit code steps into the items once for all of them, where they are
        // steps (every item is at the same depth; none, no step).
        let stepped = f.mode == Mode::Check && self.steps_into(schema.target);
        let inst = if stepped {
            Inst::SteppedItem
        } else {
            Inst::IndexVar
        };
        let call = self.child(f, schema, schema.target, &inst, &EvArg::Throwaway);
        let (iter, index) = match (skip, f.mode) {
            (0, Mode::Check) => (quote!(arr.iter()), quote!(x)),
            (0, Mode::Errors) => (quote!(arr.iter().enumerate()), quote!((i, x))),
            (n, Mode::Check) => {
                let n = Literal::usize_unsuffixed(n);
                (quote!(arr.iter().skip(#n)), quote!(x))
            }
            (n, Mode::Errors) => {
                let n = Literal::usize_unsuffixed(n);
                (quote!(arr.iter().enumerate().skip(#n)), quote!((i, x)))
            }
        };
        let each = if stepped {
            let some = match skip {
                0 => quote!(!arr.is_empty()),
                n => {
                    let n = Literal::usize_unsuffixed(n);
                    quote!(arr.len() > #n)
                }
            };
            let all = quote! {
                cx.stepping(move |cx| {
                    for #index in #iter {
                        if !#call? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                })?
            };
            Code::if_then(quote!(#some && !#all), self.fail_silent(f))
                .using(call.uses.without(Uses::X))
        } else {
            let body = self.applied_child(f, &call);
            match self.peeled_items(f, schema, skip) {
                0 => Code::around([body], |[body]| quote!(for #index in #iter { #body })),
                head => {
                    let head = Literal::usize_unsuffixed(head);
                    Code::around([body.clone(), body], |[first, rest]| {
                        quote! {
                            let (head, rest) = arr.split_at(arr.len().min(#head));
                            for x in head.iter() { #first }
                            for x in rest.iter() { #rest }
                        }
                    })
                }
            }
        };
        let mark_code = if mark {
            Code::stmt(quote!(ev.items.set_range(0, arr.len());)).using(Uses::EV)
        } else {
            Code::default()
        };
        let count = match skip {
            0 => quote!(arr.len()),
            n => {
                let n = Literal::usize_unsuffixed(n);
                quote!(arr.len().saturating_sub(#n))
            }
        };
        let charge = self.loop_charge(f, count, &[schema.target]);
        let applied = self.applied(a, check);
        Code::around(
            [charge, each, mark_code, applied],
            |[charge, each, mark_code, applied]| {
                quote! {
                    #charge
                    #each
                    #mark_code
                    #applied
                }
            },
        )
        .declaring(Uses::X | Uses::I)
        .binding()
    }

    /// How many leading items short-circuit `items` tests before its loop, in code of
    /// their own (the loop peeled): the node's `minItems`, at most [`PEELED_ITEMS`], when
    /// each item's check is a few ([`PEELED_ITEM_CHECKS`]) constant-time tests. The node
    /// has failed by then when the array is shorter (`minItems` is planned before every
    /// check with a subschema), so the compiler knows the peeled part's length and
    /// unrolls it: a short array (a coordinate pair) is then tested without a loop's
    /// setup and per-item branches. Zero (no peeling) otherwise; splitting at the
    /// length's minimum is correct either way.
    fn peeled_items(&self, f: &Fun<'_>, schema: &Edge, skip: usize) -> usize {
        let target = self.program.node(schema.target);
        let leaf = !self.plan.node(schema.target).out_of_line
            && target.checks.len() <= PEELED_ITEM_CHECKS
            && target.checks.iter().all(|c| c.kind.facts().constant_time);
        if f.mode != Mode::Check || skip != 0 || !leaf {
            return 0;
        }
        let min = f.node.checks.iter().find_map(|c| match c.kind {
            CheckKind::MinItems(n) => Some(n),
            _ => None,
        });
        min.map_or(0, |n| n.min(PEELED_ITEMS as u64) as usize)
    }

    /// `unevaluatedItems`: the items no other keyword evaluated, against `edge`'s subschema.
    pub(super) fn unevaluated_items(&self, a: &ArmCx<'_, '_>, check: &Check, edge: &Edge) -> Code {
        let f = a.f;
        let st = state(f.mode);
        let call = self.child(f, edge, edge.target, &Inst::IndexVar, &EvArg::Throwaway);
        let body = match f.mode {
            Mode::Check => Code::if_then(quote!(!ev.items.get(i) && !#call?), self.fail_silent(f)),
            Mode::Errors => Code::stmt(quote!(if !ev.items.get(i) { #call?; })),
        }
        .using(call.uses);
        let charge = self.loop_charge(f, quote!(arr.len()), &[edge.target]);
        // Every item is evaluated then (for a caller that reads the node's set).
        let evaluated_all = self
            .collects(f.id)
            .then(|| quote!(ev.items.set_range(0, arr.len());));
        // Its annotation: whether it applies to an item.
        let (applies, applied) = if self.annotates(f, check) {
            let give = self.give(check, quote!(__rt::Value::Bool(true)));
            (
                quote!(let applies = cx.annotating() && (0..arr.len()).any(|i| !ev.items.get(i));),
                quote!(if applies && cx.mark() == start { #give }),
            )
        } else {
            (quote!(), quote!())
        };
        Code::around([charge, body], |[charge, body]| {
            quote! {
                #st.charge(arr.len())?;
                #charge
                #applies
                for (i, x) in arr.iter().enumerate() {
                    #body
                }
                #evaluated_all
                #applied
            }
        })
        .using(Uses::EV | Uses::CX)
        .declaring(Uses::X | Uses::I)
        .binding()
    }
}
