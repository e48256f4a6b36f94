//! Annotations in an evaluation's error-collecting code: a node's own, and the applicator
//! annotations that the instance decides (which names, which items).

use super::code::{Code, Uses};
use super::dispatch::ArmCx;
use super::{regex_name, state, Fun, Gen, Mode};
use crate::ir::{Check, CheckKind, RegexId};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

impl Gen<'_> {
    /// The node's annotations as the runtime's list (`&[(token, absolute, JSON, strings
    /// only)]`), in an error-collecting function of generated code that evaluates (given
    /// with the instance `v`); `None` when there is nothing to give.
    pub(super) fn own_annotations(&self, f: &Fun<'_>) -> Option<TokenStream> {
        if !self.evaluate || f.mode != Mode::Errors {
            return None;
        }
        if f.node.annotations.is_empty() && f.node.checks.is_empty() {
            return None;
        }
        let entries = f.node.annotations.iter().map(|a| {
            let token = crate::load::uri::escape_token(&a.keyword);
            let json = a.value.to_string();
            let strings_only = a.strings_only;
            quote!((#token, #json, #strings_only))
        });
        Some(quote!(&[#(#entries),*]))
    }

    /// Whether `check` gives an applicator annotation in this function: an evaluation's
    /// error-collecting function (see [`crate::ir`]'s "Applicator annotations").
    pub(super) fn annotates(&self, f: &Fun<'_>, check: &Check) -> bool {
        self.evaluate && f.mode == Mode::Errors && check.annotates
    }

    /// Gives `check`'s applicator annotation `value` (an expression of type `Value`) at the
    /// current locations.
    pub(super) fn give(&self, check: &Check, value: TokenStream) -> TokenStream {
        let keyword = &check.keyword;
        quote!(cx.annotate_applied(#keyword, #value);)
    }

    /// The applicator annotation of `check` that the instance decides (the object
    /// applicators, `prefixItems`, `items`), given after the check while the node is valid
    /// — `start` is the error mark the function began with — in an evaluation; nothing
    /// otherwise. Patterns are tried again, in order, as the interpreter does.
    pub(super) fn applied(&self, a: &ArmCx<'_, '_>, check: &Check) -> Code {
        let f = a.f;
        if !self.annotates(f, check) {
            return Code::default();
        }
        // Given while the node is valid, in an evaluation.
        let valid = quote!(cx.annotating() && cx.mark() == start);
        let st = state(f.mode);
        // Whether a key is named, or matches a live pattern: each test, in order.
        let tests = |names: &[String], ids: &mut dyn Iterator<Item = RegexId>| {
            let names: BTreeSet<&str> = names.iter().map(String::as_str).collect();
            let named = (!names.is_empty()).then(|| quote!(matches!(k, #(#names)|*)));
            let tries = ids
                .filter(|id| self.program.regexes[id.0].compiled.is_some())
                .map(|id| self.regex_test(f.mode, id, quote!(k)).tokens);
            named.into_iter().chain(tries).collect::<Vec<_>>()
        };
        // Whether one of `tests` holds (each reads `k`).
        let any_of = |tests: Vec<TokenStream>| {
            if tests.is_empty() {
                (quote!(false), false)
            } else {
                (quote!(#(#tests)||*), true)
            }
        };
        // The test of a key, and whether it reads the key.
        let (test, reads_key) = match &check.kind {
            CheckKind::Properties(entries) => {
                let names: Vec<String> = entries.iter().map(|(n, _)| n.clone()).collect();
                any_of(tests(&names, &mut std::iter::empty()))
            }
            CheckKind::PatternProperties(entries) => {
                let tries = tests(&[], &mut entries.iter().map(|(id, _)| *id));
                match tries.as_slice() {
                    // One pattern: its own result (`Ok(..?)` would be needless).
                    [_] => {
                        let id = entries
                            .iter()
                            .map(|(id, _)| *id)
                            .find(|id| self.program.regexes[id.0].compiled.is_some());
                        let re = id.map(regex_name);
                        let give = self.give(check, quote!(value));
                        let give = quote! {
                            let value = __rt::applied_names(*obj, |_, k| #st.is_match(&#re, k))?;
                            #give
                        };
                        return Code::if_then(valid, Code::stmt(give))
                            .using(Uses::CX | Uses::BINDING);
                    }
                    _ => any_of(tries),
                }
            }
            CheckKind::AdditionalProperties {
                known, patterns, ..
            } => {
                let covered = tests(known, &mut patterns.iter().copied());
                if covered.is_empty() {
                    (quote!(true), false)
                } else {
                    (quote!(#(!#covered)&&*), true)
                }
            }
            CheckKind::PrefixItems(edges) => {
                let n = Literal::usize_unsuffixed(edges.len());
                let give = self.give(check, quote!(value));
                let give =
                    quote!(if let Some(value) = __rt::prefix_items_value(arr.len(), #n) { #give });
                return Code::if_then(valid, Code::stmt(give)).using(Uses::CX | Uses::BINDING);
            }
            CheckKind::Items { skip, .. } => {
                let applies = match *skip {
                    0 => quote!(!arr.is_empty()),
                    n => {
                        let n = Literal::usize_unsuffixed(n);
                        quote!(arr.len() > #n)
                    }
                };
                let give = self.give(check, quote!(__rt::Value::Bool(true)));
                return Code::if_then(quote!(#applies && #valid), Code::stmt(give))
                    .using(Uses::CX | Uses::BINDING);
            }
            _ => return Code::default(),
        };
        let give = self.give(check, quote!(value));
        let k = if reads_key { quote!(k) } else { quote!(_) };
        let give = quote! {
            let value = __rt::applied_names(*obj, |_, #k| Ok(#test))?;
            #give
        };
        Code::if_then(valid, Code::stmt(give)).using(Uses::CX | Uses::BINDING)
    }
}
