//! The checks that are not type-dependent: `$ref` and `allOf` (see [`Gen::member`]),
//! `$dynamicRef`, `anyOf` / `oneOf` with their discriminators and type guards, `not`, and
//! `if` / `then` / `else`.

use super::call::{holds_name, EvArg, Inst};
use super::code::{Code, Expr, Uses};
use super::dispatch::{kind_pattern, kind_test, ARMS};
use super::{state, Fun, Gen, Mode};
use crate::ir::kind::Kind;
use crate::ir::{dispatched_kind, Check, CheckKind, Edge, NodeId};
use crate::plan::lookup::EnumTable;
use crate::plan::thresholds::MAX_DECIDED_TOGETHER;
use crate::plan::{explain, Discriminator};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The branches of an `anyOf` / `oneOf` as emitted: with a discriminator, `tag` binds the
/// instance's [`schemac_runtime::json::Tag`] just before the first branch whose guard
/// reads it (branch `tag_from`), and each branch's guard (`matches!(tag, ..) &&`, empty
/// where every tag is admitted) comes before its call. So an `anyOf` whose first branch
/// admits every tag and passes never looks the tag up.
struct Branches<'e> {
    edges: &'e [Edge],
    tag: TokenStream,
    /// The first branch whose guard reads the tag (`edges.len()` where none does).
    tag_from: usize,
    guards: Vec<TokenStream>,
    /// Whether the discriminator admits each branch (`true` without one): what explains a
    /// failure reads ([`Gen::none_matched`]).
    admits: Vec<TokenStream>,
    /// What the tag and the guards read.
    uses: Uses,
    /// Without a discriminator, where each branch passes only on some variants of the
    /// instance, no two on the same: those variants (at most one branch applies).
    by_variant: Option<Vec<Vec<Kind>>>,
}

impl Branches<'_> {
    /// The statements of the branches, one per branch in order, with the tag bound
    /// before the first that reads it.
    fn with_tag(&self, mut parts: Vec<TokenStream>) -> Vec<TokenStream> {
        if self.tag_from < parts.len() {
            parts.insert(self.tag_from, self.tag.clone());
        }
        parts
    }

    /// Whether one of the branch tests `calls` (one per branch, in order) passes, the tag
    /// bound before the first that reads it.
    fn any(&self, calls: &[TokenStream]) -> TokenStream {
        let tag = &self.tag;
        match calls.split_at(self.tag_from.min(calls.len())) {
            (before, []) => quote!(#(#before)||*),
            ([], after) => quote!({ #tag #(#after)||* }),
            (before, after) => quote!(#(#before)||* || { #tag #(#after)||* }),
        }
    }
}

/// The code of a check that [`CheckKind::is_dispatchable`] sends to the dispatch
/// (`Gen::typed` writes it): none here.
fn dispatched(kind: &CheckKind) -> Code {
    debug_assert!(kind.is_dispatchable());
    Code::default()
}

/// A pattern matching exactly the sorted ids `ids`, consecutive runs as ranges.
fn id_pattern(ids: &[u32]) -> TokenStream {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        let (a, b) = (ids[i], ids[j]);
        parts.push(if a == b { quote!(#a) } else { quote!(#a..=#b) });
        i = j + 1;
    }
    quote!(#(#parts)|*)
}

impl Gen<'_> {
    /// A custom keyword's call: the user's function given the keyword's value (a `static`
    /// constant) and the instance; its `Err` fails the node (check) or is the error's
    /// message (errors).
    fn custom(&self, f: &Fun<'_>, check: &Check, value: &serde_json::Value) -> Code {
        let rt = self.rt;
        let value = self.table(
            "KW",
            " A custom keyword's value.",
            quote!(#rt::instance::Constant<'static>),
            super::super::tables::constant_value(value, rt),
        );
        let keyword = &check.keyword;
        // `generate_tokens` refused a program with a custom keyword it has no path for.
        let Some(path) = self.keywords.get(&**keyword) else {
            return Code::default();
        };
        let call = quote!(#path(&#value, &v.to_value()));
        match f.mode {
            Mode::Check => {
                Code::if_then(quote!(#call.is_err()), Code::exit(f.exit.clone())).using(Uses::V)
            }
            Mode::Errors => Code::stmt(quote! {
                if let Err(message) = #call {
                    cx.error(#keyword, __rt::ErrorKind::Custom {
                        keyword: __rt::Cow::Borrowed(#keyword),
                        message: __rt::Cow::Owned(message),
                    });
                }
            })
            .using(Uses::CX | Uses::V),
        }
    }

    /// Code of check `index` of the node (not a dispatched one).
    pub(super) fn in_place(&self, f: &Fun<'_>, index: usize, check: &Check) -> Code {
        match &check.kind {
            CheckKind::False => match f.mode {
                Mode::Check => Code::exit(f.exit.clone()),
                Mode::Errors => Code::unit(quote!(cx.error_here())).using(Uses::CX),
            },
            CheckKind::Unresolved { uri } => {
                let st = state(f.mode);
                Code::stmt(quote!(#st.unresolved(#uri)?;)).using(Uses::CX)
            }
            CheckKind::Ref(edge) => self.member(f, edge),
            CheckKind::AllOf(edges) => edges.iter().map(|e| self.member(f, e)).collect(),
            CheckKind::DynamicRef { fallback, anchor } => match anchor {
                None => self.in_place_child(f, fallback, fallback.target),
                Some(name) => self.dynamic_ref(f, fallback, name),
            },
            CheckKind::AnyOf(edges) | CheckKind::OneOf(edges) => {
                let branches = self.branches(f, edges, self.plan.discriminator(f.id, index));
                match check.kind {
                    CheckKind::AnyOf(_) => self.any_of(f, check, &branches),
                    _ => self.one_of(f, check, &branches),
                }
            }
            CheckKind::Not(edge) => {
                let call = self.silent_call(f, edge, &Inst::Same, &EvArg::Throwaway);
                let fail = self.fail_check(f, check);
                Code::if_then(quote!(#call?), fail).using(call.uses)
            }
            // Absorbed: its condition evaluated first, its branches' checks in a run.
            CheckKind::IfThenElse { .. } if f.absorbed.ifs.contains(&index) => Code::default(),
            CheckKind::IfThenElse {
                condition,
                then,
                otherwise,
            } => self.if_then_else(f, condition, then.as_ref(), otherwise.as_ref()),
            CheckKind::Custom(custom) => self.custom(f, check, &custom.value),
            dispatched_kind!() => dispatched(&check.kind),
        }
    }

    /// `$dynamicRef` whose anchor is resolved at run time: the outermost dynamic scope that
    /// declares `name` picks the target, else `fallback`'s.
    fn dynamic_ref(&self, f: &Fun<'_>, fallback: &Edge, name: &str) -> Code {
        let targets = self.program.dynamic_targets(name);
        let st = state(f.mode);
        let merge_any = self.node_collects(f);
        // Short-circuit evaluation records straight into the node's set (see `EvArg::Parent`).
        let direct = f.mode == Mode::Check
            && !self.reads_evaluated(fallback.target)
            && !targets.iter().any(|(_, t)| self.reads_evaluated(*t));
        let call_for = |target: NodeId| -> Expr {
            let ev = match (merge_any && self.collects(target), direct) {
                (false, _) => EvArg::Throwaway,
                (true, true) => EvArg::Parent,
                (true, false) => EvArg::Sub,
            };
            self.child(f, fallback, target, &Inst::Same, &ev)
        };
        let ids: Vec<u32> = targets.iter().map(|(r, _)| *r as u32).collect();
        let ids_pattern = id_pattern(&ids);
        let mut uses = Uses::CX;
        let arms: Vec<TokenStream> = targets
            .iter()
            .map(|(r, t)| {
                let r = *r as u32;
                let call = call_for(*t);
                uses |= call.uses;
                quote!(Some(#r) => #call,)
            })
            .collect();
        let fallback_call = call_for(fallback.target);
        uses |= fallback_call.uses;
        let merge = !direct
            && merge_any
            && (self.collects(fallback.target) || targets.iter().any(|(_, t)| self.collects(*t)));
        let (sub, on_valid) = if merge {
            uses |= Uses::EV;
            (
                quote!(let mut sub = __rt::Eval::new();),
                quote!(ev.merge(&sub);),
            )
        } else {
            (quote!(), quote!())
        };
        let call = Expr::new(
            quote! {
                match #st.outermost(|r| matches!(r, #ids_pattern)) {
                    #(#arms)*
                    _ => #fallback_call,
                }
            },
            uses,
        );
        let valid = self.validity(f, call);
        let uses = valid.uses;
        Code::around([self.fail_silent(f)], |[fail]| {
            let on_invalid = if fail.is_empty() {
                quote!()
            } else {
                quote!(else { #fail })
            };
            quote! {{
                #sub
                let valid = #valid?;
                if valid { #on_valid } #on_invalid
            }}
        })
        .using(uses)
    }

    /// The branches of an `anyOf` / `oneOf`, with the tests of its discriminator.
    fn branches<'e>(
        &self,
        f: &Fun<'_>,
        edges: &'e [Edge],
        discriminator: Option<&Discriminator>,
    ) -> Branches<'e> {
        let type_guards: Vec<TokenStream> =
            edges.iter().map(|e| self.type_guard(f, e.target)).collect();
        // A guard tests the instance `v`.
        let guards_read = if type_guards.iter().any(|g| !g.is_empty()) {
            Uses::V
        } else {
            Uses::default()
        };
        let Some(d) = discriminator else {
            let admitted: Option<Vec<Vec<Kind>>> =
                edges.iter().map(|e| self.admitted(f, e.target)).collect();
            let disjoint = |admitted: &Vec<Vec<Kind>>| {
                let all: Vec<Kind> = admitted.iter().flatten().copied().collect();
                (0..all.len()).all(|i| !all[i + 1..].contains(&all[i]))
            };
            return Branches {
                edges,
                tag: quote!(),
                tag_from: edges.len(),
                guards: type_guards,
                admits: vec![quote!(true); edges.len()],
                uses: guards_read,
                by_variant: admitted.filter(disjoint),
            };
        };
        let property = &d.property;
        // (A string with an escape, from bytes, is decoded into `tag_text`.)
        let tag = quote! {
            let mut tag_text = Default::default();
            let tag = __rt::Tag::of(v, #property).unescaped(&mut tag_text);
        };
        let admits: Vec<TokenStream> = d
            .branches
            .iter()
            .map(|admits| {
                if admits.admits_all() {
                    return quote!(true);
                }
                let mut tags = vec![quote!(__rt::Tag::NotObject)];
                if !admits.required {
                    tags.push(quote!(__rt::Tag::Absent));
                }
                match &admits.values {
                    None => tags.push(quote!(__rt::Tag::Str(_) | __rt::Tag::Other)),
                    Some(values) if values.is_empty() => {}
                    Some(values) => tags.push(quote!(__rt::Tag::Str(#(#values)|*))),
                }
                quote!(matches!(tag, #(#tags)|*))
            })
            .collect();
        let guards = (d.branches.iter().zip(&admits).zip(type_guards))
            .map(|((branch, test), type_guard)| match branch.admits_all() {
                true => type_guard,
                false => quote!(#test && #type_guard),
            })
            .collect();
        let tag_from = (d.branches.iter())
            .position(|b| !b.admits_all())
            .unwrap_or(edges.len());
        Branches {
            edges,
            tag,
            tag_from,
            guards,
            admits,
            uses: Uses::V,
            by_variant: None,
        }
    }

    /// A test of the instance's variant before a branch that fails at once on the other
    /// variants (an inline node whose first check is `type`), so that no call is made where
    /// it could only fail. An inline node charges nothing before that check: the budget is
    /// spent as if the call were made. Empty where there is nothing to test.
    fn type_guard(&self, f: &Fun<'_>, target: NodeId) -> TokenStream {
        let Some(admitted) = self.admitted(f, target) else {
            return quote!();
        };
        let test = kind_test(&admitted);
        quote!(#test &&)
    }

    /// The variants a branch can pass on where a type guard tests them ([`Gen::type_guard`]):
    /// fewer than all, at least one.
    fn admitted(&self, f: &Fun<'_>, target: NodeId) -> Option<Vec<Kind>> {
        if self.evaluate && f.mode == Mode::Errors {
            return None;
        }
        let callee = self.callee(target, Mode::Check);
        let plan = self.plan.node(callee);
        // Out of line, the guard also spares the entry's charge: only in short-circuit
        // code, where the interpreter leaves the branch out alike (`Plan::ruled_out`).
        if (plan.out_of_line || plan.recursive)
            && (f.mode != Mode::Check || self.program.uses_dynamic_scope)
        {
            return None;
        }
        let admitted: Vec<Kind> = ARMS
            .into_iter()
            .filter(|&v| !self.plan.ruled_out(callee, v))
            .collect();
        (!admitted.is_empty() && admitted.len() < ARMS.len()).then_some(admitted)
    }

    /// Where at most one branch applies ([`Branches::by_variant`]): whether the one the
    /// instance's variant admits passes (`false` where none does).
    fn by_variant(&self, f: &Fun<'_>, branches: &Branches<'_>) -> Option<Expr> {
        let by_variant = branches.by_variant.as_ref()?;
        let mut uses = Uses::V;
        let arms: Vec<TokenStream> = branches
            .edges
            .iter()
            .zip(by_variant)
            .map(|(e, variants)| {
                let call = self.silent_call(f, e, &Inst::Same, &EvArg::Throwaway);
                uses |= call.uses;
                let patterns = variants.iter().map(|&v| kind_pattern(v));
                quote!(#(#patterns)|* => #call?,)
            })
            .collect();
        // (The variants are disjoint: when they are all of them, no other arm is reached.)
        let covered: usize = by_variant.iter().map(Vec::len).sum();
        let otherwise = (covered < ARMS.len()).then(|| quote!(_ => false));
        Some(Expr::new(
            quote!(match v.kind() { #(#arms)* #otherwise }),
            uses,
        ))
    }

    /// `anyOf`: a valid branch passes (every branch runs where annotations or evaluated
    /// locations are collected).
    fn any_of(&self, f: &Fun<'_>, check: &Check, branches: &Branches<'_>) -> Code {
        let Branches { edges, guards, .. } = branches;
        let fail = match f.mode {
            Mode::Check => Code::exit(f.exit.clone()),
            Mode::Errors => self.none_matched(
                f,
                check,
                branches,
                |types| quote!(__rt::ErrorKind::AnyOf { types: #types }),
            ),
        };
        // What the branches read.
        let mut uses = branches.uses;
        if !self.node_collects(f) {
            let calls: Vec<_> = edges
                .iter()
                .zip(guards)
                .map(|(e, guard)| {
                    let c = self.silent_call(f, e, &Inst::Same, &EvArg::Throwaway);
                    uses |= c.uses;
                    quote!(#guard #c?)
                })
                .collect();
            if self.evaluate && f.mode == Mode::Errors {
                // An evaluation runs every branch: each valid one annotates.
                let parts = branches.with_tag(
                    (calls.iter())
                        .map(|call| quote!(if (every || !any) && #call { any = true; }))
                        .collect(),
                );
                return Code::around([fail], |[fail]| {
                    quote! {{
                        let every = cx.annotating();
                        let mut any = false;
                        #(#parts)*
                        if !any { #fail }
                    }}
                })
                .using(uses | Uses::CX);
            }
            return match self.by_variant(f, branches) {
                Some(passes) => Code::stmt(quote!(let passes = #passes;))
                    .using(passes.uses)
                    .then(Code::if_then(quote!(!passes), fail)),
                // The explanation of a failure reads the tag: bound before every branch.
                None if f.mode == Mode::Errors && !branches.tag.is_empty() => {
                    let tag = &branches.tag;
                    let test = Code::if_then(quote!(!(#(#calls)||*)), fail).using(uses);
                    Code::around([test], |[test]| quote!({ #tag #test })).using(uses)
                }
                None => {
                    let any = branches.any(&calls);
                    Code::if_then(quote!(!(#any)), fail).using(uses)
                }
            };
        }
        // A collecting node evaluates every branch: each valid one contributes annotations.
        let parts: Vec<_> = edges
            .iter()
            .zip(guards)
            .map(|(e, guard)| {
                if self.collects(e.target) {
                    let call = self.silent_call(f, e, &Inst::Same, &EvArg::Sub);
                    uses |= call.uses | Uses::EV;
                    quote! {{
                        let mut sub = __rt::Eval::new();
                        if #guard #call? { any = true; ev.merge(&sub); }
                    }}
                } else {
                    let call = self.silent_call(f, e, &Inst::Same, &EvArg::Throwaway);
                    uses |= call.uses;
                    quote!(if #guard #call? { any = true; })
                }
            })
            .collect();
        let parts = branches.with_tag(parts);
        Code::around([fail], |[fail]| {
            quote! {{
                let mut any = false;
                #(#parts)*
                if !any { #fail }
            }}
        })
        .using(uses)
    }

    /// `oneOf`: exactly one valid branch passes (short-circuit code stops at the second).
    fn one_of(&self, f: &Fun<'_>, check: &Check, branches: &Branches<'_>) -> Code {
        let Branches { edges, guards, .. } = branches;
        let errors = f.mode == Mode::Errors;
        let collecting = self.node_collects(f);
        // Reporting counts every match; otherwise a second match decides (it fails the
        // node, whose evaluated locations are then dropped), as in the interpreter.
        let every = errors;
        // The error's kind holds the matches: not a constant error site.
        let fail = match f.mode {
            Mode::Check => Code::exit(f.exit.clone()),
            Mode::Errors => {
                let keyword = &check.keyword;
                let none = self.none_matched(
                    f,
                    check,
                    branches,
                    |types| quote!(__rt::ErrorKind::OneOf { matched, types: #types }),
                );
                let uses = none.uses() | Uses::CX;
                Code::around([none], |[none]| {
                    quote! {
                        if matched.count() == 0 {
                            #none
                        } else {
                            cx.error(#keyword, __rt::ErrorKind::OneOf { matched, types: None });
                        }
                    }
                })
                .using(uses)
            }
        };
        // Errors name the matches; short-circuit code counts them.
        let (count, matches) = match f.mode {
            Mode::Check => (quote!(matched), quote!(let mut matched: u64 = 0;)),
            Mode::Errors => (
                quote!(matched.count()),
                quote!(let mut matched = __rt::Matched::default();),
            ),
        };
        if !every {
            if let Some(passes) = self.by_variant(f, branches) {
                // At most one branch applies: exactly one passes where it does.
                return Code::stmt(quote!(let passes = #passes;))
                    .using(passes.uses)
                    .then(Code::if_then(quote!(!passes), fail));
            }
        }
        // What the branches read.
        let mut uses = branches.uses;
        let fail_tokens = fail.render();
        let parts: Vec<_> = edges
            .iter()
            .zip(guards)
            .enumerate()
            .map(|(idx, (e, guard))| {
                let merge = collecting && self.collects(e.target);
                let call = self.silent_call(
                    f,
                    e,
                    &Inst::Same,
                    if merge {
                        &EvArg::Sub
                    } else {
                        &EvArg::Throwaway
                    },
                );
                uses |= call.uses;
                let too_many = if idx > 0 && !every {
                    quote!(if matched > 1 { #fail_tokens })
                } else {
                    quote!()
                };
                let add = match f.mode {
                    Mode::Check => quote!(matched += 1;),
                    Mode::Errors => {
                        let idx = Literal::u32_unsuffixed(idx as u32);
                        quote!(matched.add(#idx);)
                    }
                };
                if merge {
                    uses |= Uses::EV;
                    quote! {{
                        let mut sub = __rt::Eval::new();
                        if #guard #call? {
                            #add
                            #too_many
                            ev.merge(&sub);
                        }
                    }}
                } else {
                    quote! {
                        if #guard #call? {
                            #add
                            #too_many
                        }
                    }
                }
            })
            .collect();
        let parts = branches.with_tag(parts);
        Code::around([fail], |[fail]| {
            quote! {{
                #matches
                #(#parts)*
                if #count != 1 { #fail }
            }}
        })
        .using(uses)
    }

    /// The error of an `anyOf` / `oneOf` that none of `branches` matched (its kind
    /// `kind` makes of the tokens of an `Option<TypeMismatch>`) and its explanation by the
    /// errors of its closest branch ([`crate::plan::explain`]; the error path only).
    fn none_matched(
        &self,
        f: &Fun<'_>,
        check: &Check,
        branches: &Branches<'_>,
        kind: impl FnOnce(TokenStream) -> TokenStream,
    ) -> Code {
        let types = explain::branch_types(self.program, branches.edges);
        let allowed = Literal::u8_unsuffixed(explain::allowed(&types).0);
        let kind = kind(quote!(__rt::TypeMismatch::of(__rt::TypeSet(#allowed), v)));
        let keyword = &check.keyword;
        let entries = branches.admits.iter().zip(&types).map(|(admits, types)| {
            let bits = Literal::u8_unsuffixed(types.0);
            quote!((#admits, __rt::TypeSet(#bits)))
        });
        let mut uses = Uses::CX | Uses::V;
        let arms: Vec<TokenStream> = (branches.edges.iter().enumerate())
            .map(|(i, edge)| {
                let call = self.child(f, edge, edge.target, &Inst::Same, &EvArg::Throwaway);
                uses |= call.uses;
                let i = Literal::usize_unsuffixed(i);
                quote!(#i => #call,)
            })
            .collect();
        Code::stmt(quote! {
            cx.error(#keyword, #kind);
            cx.explain(v, &[#(#entries),*], |i, cx| match i {
                #(#arms)*
                _ => Ok(()),
            })?;
        })
        .using(uses)
    }

    /// The evaluation of the absorbed conditions ([`Gen::absorbed`]) before the node's
    /// checks, in order: `holdsN` binds condition `N`'s verdict. Conditions that each
    /// compare the same property with string constants (the `if` / `then` discriminator:
    /// `{"properties": {"kind": {"const": "click"}}}`, one per branch) are decided together,
    /// by one `match` on that property's string.
    pub(super) fn conditions(&self, f: &Fun<'_>) -> Code {
        let conditions = &f.absorbed.conditions;
        let tests: Vec<_> = conditions.iter().map(|c| self.string_test(f, c)).collect();
        let mut out = Code::default();
        let mut lookups = Vec::new();
        let mut done = vec![false; conditions.len()];
        for (n, condition) in conditions.iter().enumerate() {
            if done[n] {
                continue;
            }
            let group: Vec<usize> = match &tests[n] {
                Some((name, _)) => (n..conditions.len())
                    .filter(|&m| tests[m].as_ref().is_some_and(|(other, _)| other == name))
                    .take(MAX_DECIDED_TOGETHER)
                    .collect(),
                None => Vec::new(),
            };
            if group.len() < 2 {
                out.push(self.condition(f, condition, n, &mut lookups));
                continue;
            }
            for &m in &group {
                done[m] = true;
            }
            let name = tests[n].as_ref().map_or("", |(name, _)| name);
            let (prop, lookup) = property_lookup(name, &mut lookups);
            let sets: Vec<&[&str]> = group
                .iter()
                .filter_map(|&m| tests[m].as_ref().map(|(_, set)| set.as_slice()))
                .collect();
            out.push(lookup.then(Code::stmt(string_conditions(&group, &sets, &prop))));
        }
        out
    }

    /// The evaluation of absorbed condition `n` alone: `holdsN` binds its verdict; a node
    /// that records evaluated locations adds the condition's where it holds. A condition
    /// that only tests one property is evaluated on that property's value, looked up once
    /// for every condition that tests it (`lookups`: the names looked up so far, `propK`
    /// the value of the Kth).
    fn condition(
        &self,
        f: &Fun<'_>,
        condition: &Edge,
        n: usize,
        lookups: &mut Vec<String>,
    ) -> Code {
        let holds = holds_name(n);
        let merge = self.merges(f, condition);
        if let Some((name, edge)) = self.one_property(condition.target).filter(|_| !merge) {
            let (prop, lookup) = property_lookup(name, lookups);
            let call = self.child(f, edge, edge.target, &Inst::Key, &EvArg::Throwaway);
            // (The match binds the value `x`.)
            let verdict = quote! {
                let #holds = match #prop {
                    Some(x) => #call?,
                    None => true,
                };
            };
            return lookup.then(Code::stmt(verdict).using(call.uses.without(Uses::X)));
        }
        let ev = if merge {
            &EvArg::Sub
        } else {
            &EvArg::Throwaway
        };
        let call = self.silent_call(f, condition, &Inst::Same, ev);
        if !merge {
            return Code::stmt(quote!(let #holds = #call?;)).using(call.uses);
        }
        let verdict = quote! {
            let #holds = {
                let mut sub = __rt::Eval::new();
                let holds = #call?;
                if holds { ev.merge(&sub); }
                holds
            };
        };
        Code::stmt(verdict).using(call.uses | Uses::EV)
    }

    /// Whether absorbed `condition` adds its evaluated locations to the node's where it
    /// holds. (Not where the node's pass decides `unevaluatedProperties`: it records every
    /// property then.)
    fn merges(&self, f: &Fun<'_>, condition: &Edge) -> bool {
        self.node_collects(f) && self.collects(condition.target) && !f.absorbed.unevaluated
    }

    /// The property a condition tests and the strings it allows there, when that is all
    /// it does: `{"properties": {P: {"const": S}}}` or with an `enum` of strings, the
    /// subschema inline and annotating nothing. Such a condition holds where the instance
    /// is no object, has no `P`, or has one of those strings at `P`; deciding it costs no
    /// budget of its own (its node is inline, its `enum` too short for a lookup table,
    /// which would charge the lookup).
    fn string_test<'p>(&'p self, f: &Fun<'_>, condition: &Edge) -> Option<(&'p str, Vec<&'p str>)> {
        if self.merges(f, condition) {
            return None;
        }
        let (name, edge) = self.one_property(condition.target)?;
        let target = self.callee(edge.target, Mode::Check);
        let plan = self.plan.node(target);
        let node = self.program.node(target);
        if plan.out_of_line || plan.recursive || !node.annotations.is_empty() {
            return None;
        }
        let values = match node.checks.as_slice() {
            [Check {
                kind: CheckKind::Const(value),
                ..
            }] => std::slice::from_ref(value),
            [Check {
                kind: CheckKind::Enum(values),
                ..
            }] => values.as_slice(),
            _ => return None,
        };
        if EnumTable::new(values).is_some_and(|table| table.has_strings()) {
            return None;
        }
        let strings = values
            .iter()
            .map(|v| v.as_str())
            .collect::<Option<Vec<_>>>()?;
        Some((name, strings))
    }

    /// The one property that inline node `id` tests, with its subschema, when that is all
    /// it does (`{"properties": {P: S}}`): then it holds where the instance is no object,
    /// has no `P`, or has a `P` valid against `S`.
    fn one_property(&self, id: NodeId) -> Option<(&str, &Edge)> {
        let plan = self.plan.node(self.callee(id, Mode::Check));
        if plan.out_of_line || plan.recursive {
            return None;
        }
        match self.program.node(id).checks.as_slice() {
            [Check {
                kind: CheckKind::Properties(entries),
                ..
            }] => match entries.as_slice() {
                [(name, edge)] => Some((name.as_str(), edge)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `if` / `then` / `else`: the condition's verdict picks the branch that applies.
    fn if_then_else(
        &self,
        f: &Fun<'_>,
        condition: &Edge,
        then: Option<&Edge>,
        otherwise: Option<&Edge>,
    ) -> Code {
        let collecting = self.node_collects(f);
        let merge_cond = collecting && self.collects(condition.target);
        let call = self.silent_call(
            f,
            condition,
            &Inst::Same,
            if merge_cond {
                &EvArg::Sub
            } else {
                &EvArg::Throwaway
            },
        );
        let cond = quote!(let holds = #call?;);
        let mut uses = call.uses;
        let (sub, merge) = if merge_cond {
            uses |= Uses::EV;
            (
                quote!(let mut sub = __rt::Eval::new();),
                quote!(ev.merge(&sub);),
            )
        } else {
            (quote!(), quote!())
        };
        let branch = |edge: Option<&Edge>| {
            edge.map(|e| self.in_place_child(f, e, e.target))
                .filter(|code| !code.is_empty())
        };
        let (then_code, else_code) = (branch(then), branch(otherwise));
        let same = then_code.as_ref().map(|c| c.render().to_string())
            == else_code.as_ref().map(|c| c.render().to_string());
        let branches = match (merge_cond, then_code, else_code) {
            // `then` and `else` run the same code (identical subschemas): no test.
            (false, Some(t), Some(_)) if same => Code::stmt(quote!(let _ = holds;)).then(t),
            (false, None, None) => Code::stmt(quote!(let _ = holds;)),
            (false, Some(t), None) => Code::when(quote!(holds), t),
            (false, None, Some(e)) => Code::when(quote!(!holds), e),
            (_, t, e) => {
                let else_code = e.is_some();
                Code::around([t.unwrap_or_default(), e.unwrap_or_default()], |[t, e]| {
                    let e = if else_code {
                        quote!(else { #e })
                    } else {
                        quote!()
                    };
                    quote!(if holds { #merge #t } #e)
                })
            }
        };
        Code::around([branches], |[branches]| {
            quote! {{
                #sub
                #cond
                #branches
            }}
        })
        .using(uses)
    }
}

/// The variable holding the value of property `name` of the instance (`propK`, `None`
/// where the instance is no object or has no such property), with the code that looks it
/// up when this is its first use in the function (`lookups`: the names looked up so far).
fn property_lookup(name: &str, lookups: &mut Vec<String>) -> (proc_macro2::Ident, Code) {
    if let Some(index) = lookups.iter().position(|p| p == name) {
        return (format_ident!("prop{}", index), Code::default());
    }
    lookups.push(name.to_string());
    let prop = format_ident!("prop{}", lookups.len() - 1);
    let lookup = quote! {
        let #prop = v.get(#name);
    };
    (prop, Code::stmt(lookup).using(Uses::V))
}

/// Binds `holdsN` for each absorbed condition `N` of `group`, the one whose allowed
/// strings are the same-placed entry of `sets`, by one `match` on property `prop`: every
/// condition holds where it is absent; none where it is no string or another string.
fn string_conditions(group: &[usize], sets: &[&[&str]], prop: &proc_macro2::Ident) -> TokenStream {
    let names = group.iter().map(|&n| holds_name(n));
    let verdicts = |f: &dyn Fn(&[&str]) -> bool| {
        let each = sets.iter().map(|set| f(set));
        quote!((#(#each),*))
    };
    let mut strings: Vec<&str> = Vec::new();
    for s in sets.iter().flat_map(|set| set.iter()) {
        if !strings.contains(s) {
            strings.push(s);
        }
    }
    let arms = strings.iter().map(|s| {
        let holds = verdicts(&|set| set.contains(s));
        quote!(#s => #holds,)
    });
    let all = verdicts(&|_| true);
    let none = verdicts(&|_| false);
    quote! {
        let (#(#names),*) = match #prop.map(|p| p.as_str()) {
            None => #all,
            Some(Some(text)) => match &*text.unescaped() {
                #(#arms)*
                _ => #none,
            },
            Some(None) => #none,
        };
    }
}
