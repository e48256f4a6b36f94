//! Applying a subschema: the call to its function (the instance, the evaluated-location
//! set and the error location it is given), children evaluated in place, what a node
//! absorbs of them into its own checks (the plan's decision, `plan::absorb`), and the
//! budget charged in bulk before a loop.

use super::code::{Code, Expr, Uses};
use super::{pointer_type, state, Fun, Gen, Mode};
use crate::ir::{Edge, NodeId};
use crate::plan::absorb::{Absorption, When};
use crate::plan::messages::Refusal;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};

/// Where a child's instance is, relative to the current one.
pub(super) enum Inst {
    /// The same instance (in-place applicators).
    Same,
    /// `propertyNames`: the key as a string instance, located at the object.
    KeyAsInstance,
    /// The value of object entry `k` (bound as `x`).
    Key,
    /// The value of object entry `k` (bound as `x`) that a pattern of a list matched,
    /// where the list's patterns share their code: the pattern's keyword location is the
    /// site bound as `site` from the list's table ([`Gen::matched_site`]).
    Matched,
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
    /// Array item bound as `x` in short-circuit code's loop that stepped into the array's
    /// items once for all of them (see [`Gen::steps_into`]): the call takes no step.
    SteppedItem,
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

impl When {
    /// Whether this applies, as a `bool` expression (`None` for always).
    pub(super) fn test(self) -> Option<TokenStream> {
        match self {
            When::Always => None,
            When::Holds(n) => {
                let holds = holds_name(n);
                Some(quote!(#holds))
            }
            When::Fails(n) => {
                let holds = holds_name(n);
                Some(quote!(!#holds))
            }
        }
    }

    /// Whether this does not apply, as a `bool` expression (`false` for always).
    pub(super) fn negated(self) -> TokenStream {
        match self {
            When::Always => quote!(false),
            When::Holds(n) => {
                let holds = holds_name(n);
                quote!(!#holds)
            }
            When::Fails(n) => {
                let holds = holds_name(n);
                quote!(#holds)
            }
        }
    }

    /// `code` run only when this applies.
    pub(super) fn guard(self, code: Code) -> Code {
        match self.test() {
            None => code,
            Some(test) => Code::when(test, code),
        }
    }
}

/// The variable holding absorbed condition `n`'s verdict.
pub(super) fn holds_name(n: usize) -> proc_macro2::Ident {
    format_ident!("holds{}", n)
}

impl Gen<'_> {
    /// In short-circuit code, what node `id` evaluates of its in-place children with its
    /// own checks (the plan's decision, [`crate::plan::Plan::absorption`]); nothing in
    /// error-collecting code.
    pub(super) fn absorbed(&self, id: NodeId, mode: Mode) -> Absorption {
        match mode {
            Mode::Check => self.plan.absorption(id),
            Mode::Errors => Absorption::default(),
        }
    }

    /// Whether applying `target` to a child instance is a step into the instance, counted
    /// against the depth bound: where it may recur (see `crate::plan`) and depth is
    /// counted.
    pub(super) fn steps_into(&self, target: NodeId) -> bool {
        self.plan.node(target).steps && !self.plan.depth_free
    }

    /// The evaluated-location argument of a call to `target` (none when it records none),
    /// with whether it is the node's own set `ev`.
    fn ev_arg(&self, target: NodeId, ev: &EvArg) -> (TokenStream, Uses) {
        match (self.collects(target), ev) {
            (false, _) => (quote!(), Uses::default()),
            (true, EvArg::Sub) => (quote!(, &mut sub), Uses::default()),
            (true, EvArg::Parent) => (quote!(, ev), Uses::EV),
            (true, EvArg::Throwaway) => (quote!(, &mut __rt::Eval::new()), Uses::default()),
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
    ) -> Expr {
        // Calls made inside a runtime helper's closure: every error-collecting one, and
        // a short-circuit one that steps into the instance.
        let through_pointer = match f.mode {
            Mode::Errors => true,
            Mode::Check => !matches!(inst, Inst::Same) && self.steps_into(target),
        };
        // A key is an instance of its own type (`KeyStr`) that lives for one pass of the
        // loop: its pointer is bound at the call, not at the top of the function.
        let name = if through_pointer && !matches!(inst, Inst::KeyAsInstance) {
            self.pointer_callee(target, f.mode)
        } else {
            self.call_name(target, f.mode)
        };
        let (value, mut uses) = match inst {
            Inst::Same => (quote!(v), Uses::V),
            Inst::KeyAsInstance => (quote!(__rt::KeyStr(k)), Uses::K),
            Inst::Key
            | Inst::Matched
            | Inst::Property(_)
            | Inst::Named(_)
            | Inst::Index(_)
            | Inst::IndexVar
            | Inst::SteppedItem => (quote!(x), Uses::X),
        };
        let (ev_arg, ev_uses) = self.ev_arg(target, ev);
        uses |= ev_uses | Uses::CX;
        let call = quote!(#name(#value, cx #ev_arg));
        // A child instance that may recur is a step into the instance (see `crate::plan`).
        let steps = !matches!(inst, Inst::Same | Inst::SteppedItem) && self.steps_into(target);
        // On the error path, a method call of the state's but for a property's lookup.
        let mut state_call = false;
        let tokens = match f.mode {
            // A `move` closure where it captures only copies (the instance, the function
            // pointer): LLVM then calls the function directly (one captured by reference
            // cost w2_tree 1.9% more instructions); the evaluated-location set is borrowed.
            Mode::Check if steps && ev_arg.is_empty() => quote!(cx.stepping(move |cx| #call)),
            Mode::Check if steps => quote!(cx.stepping(|cx| #call)),
            Mode::Check => call,
            Mode::Errors => {
                let mut path = edge.path.as_str();
                // Located as a `properties` entry (`At::Property`).
                let mut entry = false;
                let at = match inst {
                    Inst::Same => quote!(At::Here),
                    Inst::KeyAsInstance => quote!(At::Name),
                    Inst::Key | Inst::Matched => {
                        uses |= Uses::K;
                        quote!(At::Key(k))
                    }
                    Inst::Property(name) | Inst::Named(name) => {
                        let key = match inst {
                            Inst::Named(_) => quote!(#name),
                            _ => {
                                uses |= Uses::K;
                                quote!(k)
                            }
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
                    Inst::IndexVar | Inst::SteppedItem => {
                        uses |= Uses::I;
                        quote!(At::Index(i))
                    }
                };
                // The callee itself where it takes only the instance and the state, so
                // that the call stays on one line.
                let eval = if ev_arg.is_empty() {
                    quote!(#name)
                } else {
                    quote!(|x, cx| #name(x, cx #ev_arg))
                };
                let site = match inst {
                    Inst::Matched => quote!(site),
                    _ => self
                        .child_site(f, edge, target, path, steps)
                        .into_token_stream(),
                };
                if !matches!(inst, Inst::Named(_) if entry) {
                    self.uses_at.set(true);
                }
                match inst {
                    // (The call looks the property up itself: no `x` read.)
                    Inst::Named(name) if entry => {
                        uses = ev_uses | Uses::CX;
                        state_call = true;
                        quote!(cx.property(*obj, #name, #site, #eval))
                    }
                    Inst::Named(name) => {
                        uses = ev_uses | Uses::CX;
                        quote!(match obj.get(#name) {
                            Some(x) => cx.child(#site, #at, x, #eval),
                            None => Ok(()),
                        })
                    }
                    _ => {
                        state_call = true;
                        quote!(cx.child(#site, #at, #value, #eval))
                    }
                }
            }
        };
        let tokens = if through_pointer && matches!(inst, Inst::KeyAsInstance) {
            let ty = pointer_type(f.mode, self.collects(target));
            quote!({
                let #name: #ty<__rt::KeyStr<'_>> = #name;
                #tokens
            })
        } else {
            tokens
        };
        Expr {
            tokens,
            uses,
            state_call,
        }
    }

    /// The site (keyword location, absolute location, whether it steps into the
    /// instance) of an error-collecting call of `target` through `edge`, at keyword path
    /// `path` from the node. A child that is not where its parent's location leads (a
    /// `$ref` target, a `$dynamicRef`'s) has its own absolute location set.
    fn child_site(
        &self,
        f: &Fun<'_>,
        edge: &Edge,
        target: NodeId,
        path: &str,
        steps: bool,
    ) -> Literal {
        let base =
            if target == edge.target && crate::plan::extends_location(self.program, f.node, edge) {
                quote!(None)
            } else {
                let uri = self.base_uri(&self.program.node(target).uri);
                quote!(Some(#uri))
            };
        self.site(path, base, steps)
    }

    /// The site of the error-collecting call of `edge`'s subschema on a key a pattern
    /// matched ([`Inst::Matched`]): the one the call would have as [`Inst::Key`].
    pub(super) fn matched_site(&self, f: &Fun<'_>, edge: &Edge) -> Literal {
        let steps = self.steps_into(edge.target);
        self.child_site(f, edge, edge.target, &edge.path, steps)
    }

    /// `call` (an expression from [`Gen::child`], the evaluation of a `false` subschema
    /// on property `k`) made to say that the property is not allowed, as `refusal` tells
    /// ([`crate::plan::messages::additional_refusal`]), on the error path.
    pub(super) fn refusing(&self, f: &Fun<'_>, call: Expr, refusal: Option<Refusal>) -> Expr {
        match (refusal, f.mode) {
            (Some(refusal), Mode::Errors) => {
                let tokens = &call.tokens;
                let allowed = &refusal.allowed;
                let (declared, uses) = match refusal.declared.as_slice() {
                    [] => (quote!(false), Uses::CX),
                    names => (quote!(matches!(k, #(#names)|*)), Uses::CX | Uses::K),
                };
                Expr {
                    tokens: quote!(cx.refusing(#allowed, #declared, |cx| #tokens)),
                    uses: call.uses | uses,
                    state_call: true,
                }
            }
            _ => call,
        }
    }

    /// A `Res` expression of whether the child evaluated by `call` (an expression from
    /// [`Gen::child`]) is valid: the call itself (check), or what it adds (errors).
    pub(super) fn validity(&self, f: &Fun<'_>, call: Expr) -> Expr {
        match f.mode {
            Mode::Check => call,
            Mode::Errors => Expr::new(quote!(cx.valid(|cx| #call)), call.uses | Uses::CX),
        }
    }

    /// An in-place child whose errors pass up and whose annotations count when it is
    /// valid (`$ref`, `allOf`, `then`, `dependentSchemas`); failing fails the node.
    pub(super) fn in_place_child(&self, f: &Fun<'_>, edge: &Edge, target: NodeId) -> Code {
        if self.plan.node(target).constant == Some(true) {
            return Code::default();
        }
        let merge = self.node_collects(f) && self.collects(target);
        if merge && f.mode == Mode::Check && !self.reads_evaluated(target) {
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Parent);
            return self.applied_child(f, &call);
        }
        if merge {
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Sub);
            let fail = self.fail_silent(f);
            let valid = self.validity(f, call);
            let uses = valid.uses | Uses::EV;
            Code::around([fail], |[fail]| {
                let otherwise = if fail.is_empty() {
                    quote!()
                } else {
                    quote!(else { #fail })
                };
                quote! {{
                    let mut sub = __rt::Eval::new();
                    let valid = #valid?;
                    if valid { ev.merge(&sub); } #otherwise
                }}
            })
            .using(uses)
        } else {
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Throwaway);
            self.applied_child(f, &call)
        }
    }

    /// A child evaluated by `call` (from [`Gen::child`]) whose failure fails the node:
    /// short-circuit code exits where it fails; the error path runs it (its errors are
    /// the node's).
    pub(super) fn applied_child(&self, f: &Fun<'_>, call: &Expr) -> Code {
        match f.mode {
            Mode::Check => Code::if_then(quote!(!#call?), self.fail_silent(f)),
            Mode::Errors => call.tried(),
        }
        .using(call.uses)
    }

    /// An `allOf` member or a `$ref` target: evaluated in place, unless the node absorbed
    /// it ([`Gen::absorbed`]) — then only an out-of-line one's entry cost is charged here.
    pub(super) fn member(&self, f: &Fun<'_>, edge: &Edge) -> Code {
        if !f.absorbed.members.contains(&edge.target) {
            return self.in_place_child(f, edge, edge.target);
        }
        let plan = self.plan.node(edge.target);
        let cost = plan.entry_cost;
        match plan.out_of_line {
            true => Code::stmt(quote!(cx.spend_units(#cost)?;)).using(Uses::CX),
            false => Code::default(),
        }
    }

    /// The bulk budget charge before a loop over `count` elements that applies `targets`
    /// to each (see [`crate::plan::Plan::loop_cost`]); nothing when they all charge on their own.
    pub(super) fn loop_charge(&self, f: &Fun<'_>, count: TokenStream, targets: &[NodeId]) -> Code {
        let per_element = self.plan.loop_cost(targets);
        if per_element == 0 {
            return Code::default();
        }
        let st = state(f.mode);
        Code::stmt(quote!(#st.spend(#count, #per_element)?;)).using(Uses::CX)
    }

    /// An expression of type `Res` evaluating `edge`'s target in short-circuit mode on
    /// `inst` (the current value, or item `i` bound as `x`), as the children whose errors
    /// are dropped (`anyOf`, `oneOf`, `not`, `if`, `contains`) always are — except in an
    /// evaluation, where the error-collecting function runs silently, for annotations.
    pub(super) fn silent_call(&self, f: &Fun<'_>, edge: &Edge, inst: &Inst, ev: &EvArg) -> Expr {
        let (value, value_uses) = match inst {
            Inst::Same => (quote!(v), Uses::V),
            _ => (quote!(x), Uses::X),
        };
        let name = self.call_name(edge.target, Mode::Check);
        let (ev_arg, ev_uses) = self.ev_arg(edge.target, ev);
        let uses = value_uses | ev_uses | Uses::CX;
        match f.mode {
            Mode::Check => Expr::new(quote!(#name(#value, cx #ev_arg)), uses),
            Mode::Errors if self.evaluate => {
                let annotating = self.child(f, edge, edge.target, inst, ev);
                let tokens = quote! {
                    (if cx.annotating() {
                        cx.silently(|cx| #annotating)
                    } else {
                        #name(#value, &mut cx.state #ev_arg)
                    })
                };
                Expr::new(tokens, uses | annotating.uses)
            }
            Mode::Errors => Expr::new(quote!(#name(#value, &mut cx.state #ev_arg)), uses),
        }
    }
}
