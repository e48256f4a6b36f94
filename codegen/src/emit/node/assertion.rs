//! Assertions on a value of the arm's kind that apply no subschema: comparisons, `const`
//! / `enum`.

use super::super::value::{self, number_cmp};
use super::code::{Code, Uses};
use super::dispatch::ArmCx;
use super::{state, Gen};
use crate::ir::kind::Kind;
use crate::ir::Check;
use crate::plan::lookup::EnumTable;
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Number, Value};

impl Gen<'_> {
    /// A numeric bound: fails when `num` compared with `limit` satisfies `test` (`is_lt`, ..).
    pub(super) fn compare(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        limit: &Number,
        test: TokenStream,
    ) -> Code {
        let cmp = number_cmp(quote!(num), limit);
        Code::if_then(quote!(#cmp.#test()), self.fail_check(a.f, check)).binding()
    }

    /// `const` / `enum`: the values of the arm's variant, compared without allocating.
    pub(super) fn enum_test(&self, a: &ArmCx<'_, '_>, check: &Check, values: &[Value]) -> Code {
        let f = a.f;
        let of_variant: Vec<&Value> = values.iter().filter(|v| Kind::of(*v) == a.kind).collect();
        let fail = self.fail_check(f, check);
        if of_variant.is_empty() {
            return fail;
        }
        let st = state(f.mode);
        match (a.kind, EnumTable::new(values)) {
            (Kind::String, Some(table)) if table.has_strings() && table.matches_inline() => {
                let units = table.str_units();
                let members = table.strings();
                return Code::stmt(quote!(#st.spend_units(#units)?;))
                    .then(Code::if_then(
                        quote!(!matches!(text.as_ref(), #(#members)|*)),
                        fail,
                    ))
                    .using(Uses::CX | Uses::BINDING);
            }
            (Kind::String, Some(table)) if table.has_strings() => {
                let name = self.enum_table(&table);
                return Code::if_then(quote!(!#st.is_str_member(&#name, text)?), fail)
                    .using(Uses::CX | Uses::BINDING);
            }
            (Kind::Number, Some(table)) if table.has_numbers() => {
                let name = self.enum_table(&table);
                return Code::if_then(quote!(!#st.is_number_member(&#name, num)?), fail)
                    .using(Uses::CX | Uses::BINDING);
            }
            (Kind::Array | Kind::Object, Some(table)) if table.has_composites() => {
                // Found by its hash; compared with the members of its hash only, held as
                // static data.
                let [table, members] = self.composites(&table, values);
                let equal = quote!(|i, v| #members.get(i).is_some_and(|m| __rt::json::equal(v, m)));
                return Code::if_then(quote!(!#st.is_composite_member(&#table, v, #equal)?), fail)
                    .using(Uses::CX | Uses::V);
            }
            _ => {}
        }
        match a.kind {
            Kind::Null => Code::default(),
            Kind::Boolean => {
                let t = of_variant.iter().any(|v| v.as_bool() == Some(true));
                let fa = of_variant.iter().any(|v| v.as_bool() == Some(false));
                match (t, fa) {
                    (true, true) => Code::default(),
                    (true, false) => Code::if_then(quote!(!*b), fail).binding(),
                    _ => Code::if_then(quote!(*b), fail).binding(),
                }
            }
            Kind::String => {
                let mut strs: Vec<&str> = of_variant.iter().filter_map(|v| v.as_str()).collect();
                strs.dedup();
                let cond = if strs.len() == 1 {
                    let s = strs[0];
                    quote!(text != #s)
                } else {
                    let mut sorted = strs.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    quote!(!matches!(text.as_ref(), #(#sorted)|*))
                };
                Code::if_then(cond, fail).binding()
            }
            Kind::Number => {
                let tests: Vec<_> = of_variant
                    .iter()
                    .filter_map(|v| v.as_number())
                    .map(|n| {
                        let cmp = number_cmp(quote!(num), n);
                        quote!(#cmp.is_eq())
                    })
                    .collect();
                Code::if_then(quote!(!(#(#tests)||*)), fail).binding()
            }
            Kind::Array | Kind::Object => {
                let tests: Vec<_> = of_variant
                    .iter()
                    .map(|val| value::equals(quote!(v), val, 0))
                    .collect();
                Code::stmt(quote!(let equal = #(#tests)||*;))
                    .using(Uses::V)
                    .then(Code::if_then(quote!(!equal), fail))
            }
        }
    }
}
