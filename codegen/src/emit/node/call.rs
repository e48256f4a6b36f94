//! Applying a subschema: the call to its function (the instance, the evaluated-location
//! set and the error location it is given), children evaluated in place, the absorption of
//! `allOf` members and `$ref` targets into the node's own checks, and the budget charged in
//! bulk before a loop.

use super::{dispatchable, state, Fun, Gen, Mode};
use crate::ir::{Check, CheckKind, Edge, NodeId};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// Where a child's instance is, relative to the current one.
pub(super) enum Inst {
    /// The same instance (in-place applicators).
    Same,
    /// `propertyNames`: the key as a string instance, located at the object.
    KeyAsValue,
    /// The value of object entry `k` (bound as `x`).
    Key,
    /// The value of object entry `k` (bound as `x`) as `properties` entry `name`: the
    /// keyword location is derived from `k`, so that entries alike but for their names
    /// share their code.
    Property(String),
    /// The value of property `name`, looked up by name rather than met in the pass over
    /// the object (a deferred property): by the call itself on the error path, else bound
    /// as `x`.
    Named(String),
    /// Array item `i` (bound as `x`), at a literal index.
    Index(usize),
    /// Array item `i` (bound as `x`), index bound as `i`.
    IndexVar,
}

/// What a child call passes for the child's evaluated-location set.
pub(super) enum EvArg {
    /// A fresh set whose contents are dropped.
    Throwaway,
    /// The fresh set bound to `sub`.
    Sub,
    /// The node's own set `ev`: in short-circuit evaluation, a child whose failure fails
    /// the node records straight into it (a failed node's set is always dropped) unless
    /// the child reads its set ([`Gen::reads_evaluated`]).
    Parent,
}

/// Whether a check of an absorbed child ([`Gen::absorbed`]) may join a run of the node's
/// own: it depends on the instance's type, and it neither depends on the other names of its
/// node (`patternProperties`, `additionalProperties`), nor is one of the keywords the
/// object pass has one of (`propertyNames`), nor reads evaluated locations.
fn joins_a_run(kind: &CheckKind) -> bool {
    dispatchable(kind)
        && !matches!(
            kind,
            CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::PropertyNames(_)
                | CheckKind::UnevaluatedProperties(_)
                | CheckKind::UnevaluatedItems(_)
        )
}

impl Gen<'_> {
    /// In short-circuit code, the in-place children of node `id` (`allOf` members, `$ref`
    /// targets) whose checks join the node's own, so that one pass over an object does
    /// the work of several: each child has `properties` or `required`, and its other
    /// checks are of those that join a run (see [`joins_a_run`]); the node neither
    /// records evaluated locations nor has `patternProperties` / `additionalProperties` of
    /// its own (whose keys are the node's own names). An inline child costs nothing to absorb; an out-of-line one (not
    /// recursive, in a program that counts no depth) is copied, so it is absorbed only
    /// where its pass merges with another. The verdict is the same, found in another
    /// order; the budget is the same, an out-of-line child's entry cost charged where
    /// its call was.
    pub(super) fn absorbed(&self, id: NodeId, mode: Mode) -> Vec<NodeId> {
        let node = self.program.node(id);
        if mode != Mode::Check
            || node.collect.properties
            || node.collect.items
            || self.program.uses_dynamic_scope
            || node.checks.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::PatternProperties(_) | CheckKind::AdditionalProperties { .. }
                )
            })
        {
            return Vec::new();
        }
        let object_checks = |checks: &[Check]| {
            checks
                .iter()
                .any(|c| matches!(c.kind, CheckKind::Properties(_) | CheckKind::Required(_)))
        };
        let candidates: Vec<NodeId> = node
            .checks
            .iter()
            .flat_map(|c| match &c.kind {
                CheckKind::Ref(edge) => std::slice::from_ref(edge),
                CheckKind::AllOf(edges) => edges.as_slice(),
                _ => &[],
            })
            .map(|e| e.target)
            .filter(|&t| {
                let plan = self.plan.node(t);
                let checks = &self.program.node(t).checks;
                t != id
                    && plan.constant.is_none()
                    && !plan.recursive
                    && (!plan.out_of_line || self.plan.depth_free)
                    && object_checks(checks)
                    && checks.iter().all(|c| joins_a_run(&c.kind))
            })
            .collect();
        // An out-of-line child is copied only where its pass merges with another.
        let passes = usize::from(object_checks(&node.checks)) + candidates.len();
        candidates
            .into_iter()
            .filter(|&t| !self.plan.node(t).out_of_line || passes > 1)
            .collect()
    }

    /// The evaluated-location argument of a call to `target` (none when it records none).
    fn ev_arg(&self, target: NodeId, ev: &EvArg) -> TokenStream {
        match (self.collects(target), ev) {
            (false, _) => quote!(),
            (true, EvArg::Sub) => quote!(, &mut sub),
            (true, EvArg::Parent) => quote!(, ev),
            (true, EvArg::Throwaway) => quote!(, &mut __rt::Eval::new()),
        }
    }

    /// An expression evaluating `edge`'s target on the instance `inst`: of type `Res`
    /// (check), or `Done` (errors: see [`Gen::validity`]).
    pub(super) fn child(
        &self,
        f: &Fun<'_>,
        edge: &Edge,
        target: NodeId,
        inst: &Inst,
        ev: &EvArg,
    ) -> TokenStream {
        let name = self.call_name(target, f.mode);
        let value = match inst {
            Inst::Same => {
                f.uses_v.set(true);
                quote!(v)
            }
            Inst::KeyAsValue => quote!(__rt::key_value(&mut name, k)),
            Inst::Key | Inst::Property(_) | Inst::Named(_) | Inst::Index(_) | Inst::IndexVar => {
                quote!(x)
            }
        };
        let ev_arg = self.ev_arg(target, ev);
        let call = quote!(#name(#value, cx #ev_arg));
        // A child instance that may recur is a step into the instance (see `crate::plan`).
        let steps =
            !matches!(inst, Inst::Same) && self.plan.node(target).steps && !self.plan.depth_free;
        match f.mode {
            Mode::Check if steps => quote!(cx.stepping(|cx| #call)),
            Mode::Check => call,
            Mode::Errors => {
                let mut path = edge.path.as_str();
                // Located as a `properties` entry (`At::Property`).
                let mut entry = false;
                let at = match inst {
                    Inst::Same => quote!(At::Here),
                    Inst::KeyAsValue => quote!(At::Name),
                    Inst::Key => quote!(At::Key(k)),
                    Inst::Property(name) | Inst::Named(name) => {
                        let key = match inst {
                            Inst::Named(_) => quote!(#name),
                            _ => quote!(k),
                        };
                        let named = format!("/properties/{}", crate::load::uri::escape_token(name));
                        match path.strip_prefix(named.as_str()) {
                            Some(rest) => {
                                path = rest;
                                entry = true;
                                quote!(At::Property(#key))
                            }
                            None => quote!(At::Key(#key)),
                        }
                    }
                    Inst::Index(i) => {
                        let i = Literal::usize_unsuffixed(*i);
                        quote!(At::Index(#i))
                    }
                    Inst::IndexVar => quote!(At::Index(i)),
                };
                // A child that is not where its parent's location leads (a `$ref` target,
                // a `$dynamicRef`'s) has its own absolute location set.
                let base = if target == edge.target
                    && crate::plan::extends_location(self.program, f.node, edge)
                {
                    quote!(None)
                } else {
                    let uri = self.base_uri(&self.program.node(target).uri);
                    quote!(Some(#uri))
                };
                // The callee itself where it takes only the instance and the state, so
                // that the call stays on one line.
                let eval = if ev_arg.is_empty() {
                    quote!(#name)
                } else {
                    quote!(|x, cx| #name(x, cx #ev_arg))
                };
                let site = self.site(path, base, steps);
                if !matches!(inst, Inst::Named(_) if entry) {
                    self.uses_at.set(true);
                }
                match inst {
                    Inst::Named(name) if entry => quote!(cx.property(obj, #name, #site, #eval)),
                    Inst::Named(name) => quote!(match obj.get(#name) {
                        Some(x) => cx.child(#site, #at, x, #eval),
                        None => Ok(()),
                    }),
                    _ => quote!(cx.child(#site, #at, #value, #eval)),
                }
            }
        }
    }

    /// A `Res` expression of whether the child evaluated by `call` (an expression from
    /// [`Gen::child`]) is valid: the call itself (check), or what it adds (errors).
    pub(super) fn validity(&self, f: &Fun<'_>, call: TokenStream) -> TokenStream {
        match f.mode {
            Mode::Check => call,
            Mode::Errors => quote!(cx.valid(|cx| #call)),
        }
    }

    /// An in-place child whose errors pass up and whose annotations count when it is
    /// valid (`$ref`, `allOf`, `then`, `dependentSchemas`); failing fails the node.
    pub(super) fn in_place_child(&self, f: &Fun<'_>, edge: &Edge, target: NodeId) -> TokenStream {
        if self.plan.node(target).constant == Some(true) {
            return quote!();
        }
        let merge = self.node_collects(f) && self.collects(target);
        if merge && f.mode == Mode::Check && !self.reads_evaluated(target) {
            f.uses_ev.set(true);
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Parent);
            let fail = self.fail_silent(f);
            return quote!(if !#call? { #fail });
        }
        if merge {
            f.uses_ev.set(true);
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Sub);
            let fail = self.fail_silent(f);
            let otherwise = if fail.is_empty() {
                quote!()
            } else {
                quote!(else { #fail })
            };
            let valid = self.validity(f, call);
            quote! {{
                let mut sub = __rt::Eval::new();
                let valid = #valid?;
                if valid { ev.merge(&sub); } #otherwise
            }}
        } else {
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Throwaway);
            match f.mode {
                Mode::Check => {
                    let fail = self.fail_silent(f);
                    quote!(if !#call? { #fail })
                }
                Mode::Errors => quote!(#call?;),
            }
        }
    }

    /// An `allOf` member or a `$ref` target: evaluated in place, unless the node absorbed
    /// it ([`Gen::absorbed`]) — then only an out-of-line one's entry cost is charged here.
    pub(super) fn member(&self, f: &Fun<'_>, edge: &Edge) -> TokenStream {
        if !f.absorbed.contains(&edge.target) {
            return self.in_place_child(f, edge, edge.target);
        }
        let plan = self.plan.node(edge.target);
        let cost = plan.entry_cost;
        match plan.out_of_line {
            true => quote!(cx.spend_units(#cost)?;),
            false => quote!(),
        }
    }

    /// The bulk budget charge before a loop over `count` elements that applies `targets`
    /// to each (see [`crate::plan::Plan::loop_cost`]); nothing when they all charge on their own.
    pub(super) fn loop_charge(
        &self,
        f: &Fun<'_>,
        count: TokenStream,
        targets: &[NodeId],
    ) -> TokenStream {
        let per_element = self.plan.loop_cost(targets);
        if per_element == 0 {
            return quote!();
        }
        let st = state(f.mode);
        quote!(#st.spend(#count, #per_element)?;)
    }

    /// An expression of type `Res` evaluating `edge`'s target in short-circuit mode on
    /// `inst` (the current value, or item `i` bound as `x`), as the children whose errors
    /// are dropped (`anyOf`, `oneOf`, `not`, `if`, `contains`) always are — except in an
    /// evaluation, where the error-collecting function runs silently, for annotations.
    pub(super) fn silent_call(
        &self,
        f: &Fun<'_>,
        edge: &Edge,
        inst: &Inst,
        ev: &EvArg,
    ) -> TokenStream {
        let value = match inst {
            Inst::Same => {
                f.uses_v.set(true);
                quote!(v)
            }
            _ => quote!(x),
        };
        let name = self.call_name(edge.target, Mode::Check);
        let ev_arg = self.ev_arg(edge.target, ev);
        match f.mode {
            Mode::Check => quote!(#name(#value, cx #ev_arg)),
            Mode::Errors if self.evaluate => {
                let annotating = self.child(f, edge, edge.target, inst, ev);
                quote! {
                    (if cx.annotating() {
                        cx.silently(|cx| #annotating)
                    } else {
                        #name(#value, &mut cx.state #ev_arg)
                    })
                }
            }
            Mode::Errors => quote!(#name(#value, &mut cx.state #ev_arg)),
        }
    }
}
