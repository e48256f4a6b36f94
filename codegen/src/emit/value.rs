//! `const` / `enum` values of arrays and objects compared structurally: takes a JSON
//! value from the schema, gives a boolean expression that tests a `&Value` for equality
//! in the sense of `json::equal` (numbers by value, object keys in any order), without
//! building the value at run time.

use super::node::number_cmp;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

/// A `bool` expression: whether the `&Value` expression `x` equals `value`.
pub(super) fn equals(x: TokenStream, value: &Value, depth: usize) -> TokenStream {
    match value {
        Value::Null => quote!(#x.is_null()),
        Value::Bool(b) => quote!(#x.as_bool() == Some(#b)),
        Value::String(s) => quote!(#x.as_str() == Some(#s)),
        Value::Number(n) => {
            let binding = format_ident!("n{}", depth);
            let cmp = number_cmp(quote!(#binding), n);
            quote!(#x.as_number().is_some_and(|#binding| #cmp.is_eq()))
        }
        Value::Array(items) => {
            let binding = format_ident!("a{}", depth);
            let len = items.len();
            let tests: Vec<_> = items
                .iter()
                .enumerate()
                .map(|(i, item)| equals(quote!(#binding[#i]), item, depth + 1))
                .collect();
            if items.is_empty() {
                return quote!(#x.as_array().is_some_and(|#binding| #binding.is_empty()));
            }
            quote!(#x.as_array().is_some_and(|#binding| #binding.len() == #len #(&& #tests)*))
        }
        Value::Object(map) => {
            let binding = format_ident!("m{}", depth);
            let inner = format_ident!("y{}", depth);
            let len = map.len();
            let tests: Vec<_> = map
                .iter()
                .map(|(k, item)| {
                    let test = equals(quote!(#inner), item, depth + 1);
                    quote!(#binding.get(#k).is_some_and(|#inner| #test))
                })
                .collect();
            if map.is_empty() {
                return quote!(#x.as_object().is_some_and(|#binding| #binding.is_empty()));
            }
            quote!(#x.as_object().is_some_and(|#binding| #binding.len() == #len #(&& #tests)*))
        }
    }
}
