//! Assertions on a value of the arm's variant that apply no subschema: comparisons, `const`
//! / `enum`, and the tokens of numbers and error kinds they use.

use super::super::value;
use super::dispatch::{ArmCx, Variant};
use super::{state, Gen, Mode};
use crate::ir::Check;
use crate::plan::lookup::EnumTable;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use schemac_runtime::error::TypeSet;
use serde_json::{Number, Value};

/// The error kind of a failed `type` check allowing `ts`.
pub(super) fn type_kind(ts: TypeSet) -> TokenStream {
    let bits = ts.0;
    quote!(__rt::type_error(#bits))
}

/// Name of the runtime's function for a built-in format (`date-time` → `date_time`).
pub(super) fn format_fn_name(name: &str) -> String {
    super::super::module_name(name).unwrap_or_else(|| "_".to_string())
}

/// A `core::cmp::Ordering` expression comparing the `&Number` `num` with `limit` exactly as
/// `json::compare_numbers` does.
pub(in crate::emit) fn number_cmp(num: TokenStream, limit: &Number) -> TokenStream {
    if let Some(i) = limit.as_i64() {
        quote!(__rt::cmp_i64(#num, #i))
    } else if let Some(u) = limit.as_u64() {
        quote!(__rt::cmp_u64(#num, #u))
    } else {
        let x = f64_tokens(limit.as_f64().unwrap_or(f64::NAN));
        quote!(__rt::cmp_f64(#num, #x))
    }
}

/// An `f64` literal (or constant for non-finite values).
pub(super) fn f64_tokens(x: f64) -> TokenStream {
    if x.is_nan() {
        quote!(f64::NAN)
    } else if x == f64::INFINITY {
        quote!(f64::INFINITY)
    } else if x == f64::NEG_INFINITY {
        quote!(f64::NEG_INFINITY)
    } else {
        let lit = Literal::f64_suffixed(x);
        quote!(#lit)
    }
}

impl Gen<'_> {
    /// A numeric bound: fails when `num` compared with `limit` satisfies `test` (`is_lt`, ..).
    pub(super) fn compare(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        limit: &Number,
        test: TokenStream,
        kind: TokenStream,
    ) -> TokenStream {
        a.uses_binding.set(true);
        let cmp = number_cmp(quote!(num), limit);
        let as_f64 = f64_tokens(limit.as_f64().unwrap_or(f64::NAN));
        let fail = self.fail(
            a.f,
            check,
            quote!(__rt::ErrorKind::#kind { limit: #as_f64 }),
        );
        quote!(if #cmp.#test() { #fail })
    }

    /// `const` / `enum`: the values of the arm's variant, compared without allocating.
    pub(super) fn enum_test(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        values: &[Value],
        kind: TokenStream,
    ) -> TokenStream {
        let f = a.f;
        let of_variant: Vec<&Value> = values
            .iter()
            .filter(|v| Variant::of(v) == a.variant)
            .collect();
        if of_variant.is_empty() {
            if f.mode == Mode::Check {
                a.terminal.set(true);
            }
            return self.fail(f, check, kind);
        }
        let fail = self.fail(f, check, kind);
        let st = state(f.mode);
        match (a.variant, EnumTable::new(values)) {
            (Variant::String, Some(table)) if table.has_strings() && table.matches_inline() => {
                a.uses_binding.set(true);
                let units = table.str_units();
                let members = table.strings();
                return quote! {
                    #st.spend_units(#units)?;
                    if !matches!(text.as_str(), #(#members)|*) { #fail }
                };
            }
            (Variant::String, Some(table)) if table.has_strings() => {
                a.uses_binding.set(true);
                let name = self.enum_table(&table);
                return quote!(if !#st.is_str_member(&#name, text)? { #fail });
            }
            (Variant::Number, Some(table)) if table.has_numbers() => {
                a.uses_binding.set(true);
                let name = self.enum_table(&table);
                return quote!(if !#st.is_number_member(&#name, num)? { #fail });
            }
            _ => {}
        }
        match a.variant {
            Variant::Null => quote!(),
            Variant::Bool => {
                let t = of_variant.iter().any(|v| v.as_bool() == Some(true));
                let fa = of_variant.iter().any(|v| v.as_bool() == Some(false));
                match (t, fa) {
                    (true, true) => quote!(),
                    (true, false) => {
                        a.uses_binding.set(true);
                        quote!(if !*b { #fail })
                    }
                    _ => {
                        a.uses_binding.set(true);
                        quote!(if *b { #fail })
                    }
                }
            }
            Variant::String => {
                a.uses_binding.set(true);
                let mut strs: Vec<&str> = of_variant.iter().filter_map(|v| v.as_str()).collect();
                strs.dedup();
                if strs.len() == 1 {
                    let s = strs[0];
                    quote!(if text != #s { #fail })
                } else {
                    let mut sorted = strs.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    quote!(if !matches!(text.as_str(), #(#sorted)|*) { #fail })
                }
            }
            Variant::Number => {
                a.uses_binding.set(true);
                let tests: Vec<_> = of_variant
                    .iter()
                    .filter_map(|v| v.as_number())
                    .map(|n| {
                        let cmp = number_cmp(quote!(num), n);
                        quote!(#cmp.is_eq())
                    })
                    .collect();
                quote!(if !(#(#tests)||*) { #fail })
            }
            Variant::Array | Variant::Object => {
                f.uses_v.set(true);
                let tests: Vec<_> = of_variant
                    .iter()
                    .map(|val| value::equals(quote!(v), val, 0))
                    .collect();
                quote! {
                    let equal = #(#tests)||*;
                    if !equal { #fail }
                }
            }
        }
    }
}
