//! Values of the schema as tokens: the error a check reports ([`error_kind`]), numbers
//! as literals and exact comparisons ([`number_cmp`], [`f64_tokens`]), and `const` /
//! `enum` values of arrays and objects
//! compared structurally: takes a JSON value from the schema, gives a boolean expression
//! that tests a `&Value` for equality in the sense of `json::equal` (numbers by value,
//! object keys in any order), without building the value at run time.

use crate::plan::Limit;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::json::Divisor;
use schemac_runtime::ErrorKind;
use serde_json::{Number, Value};

/// The expression that builds `kind`, an error [`crate::plan::messages::failure`] makes
/// (its text as static strings).
pub(super) fn error_kind(kind: &ErrorKind) -> TokenStream {
    let text = |s: &str| quote!(__rt::Cow::Borrowed(#s));
    match kind {
        ErrorKind::FalseSchema => quote!(__rt::ErrorKind::FalseSchema),
        ErrorKind::Const { expected } => {
            let expected = text(expected);
            quote!(__rt::ErrorKind::Const { expected: #expected })
        }
        ErrorKind::Enum { allowed } => {
            let allowed = text(allowed);
            quote!(__rt::ErrorKind::Enum { allowed: #allowed })
        }
        ErrorKind::MultipleOf { divisor } => {
            let divisor = divisor_tokens(*divisor);
            quote!(__rt::ErrorKind::MultipleOf { divisor: #divisor })
        }
        ErrorKind::Minimum { limit } => bound(quote!(Minimum), *limit),
        ErrorKind::ExclusiveMinimum { limit } => bound(quote!(ExclusiveMinimum), *limit),
        ErrorKind::Maximum { limit } => bound(quote!(Maximum), *limit),
        ErrorKind::ExclusiveMaximum { limit } => bound(quote!(ExclusiveMaximum), *limit),
        ErrorKind::MinLength { limit } => quote!(__rt::ErrorKind::MinLength { limit: #limit }),
        ErrorKind::MaxLength { limit } => quote!(__rt::ErrorKind::MaxLength { limit: #limit }),
        ErrorKind::Pattern { pattern } => {
            let pattern = text(pattern);
            quote!(__rt::ErrorKind::Pattern { pattern: #pattern })
        }
        ErrorKind::Format { format } => {
            let format = text(format);
            quote!(__rt::ErrorKind::Format { format: #format })
        }
        ErrorKind::ContentEncoding { encoding } => {
            let encoding = text(encoding);
            quote!(__rt::ErrorKind::ContentEncoding { encoding: #encoding })
        }
        ErrorKind::ContentMediaType { media_type } => {
            let media_type = text(media_type);
            quote!(__rt::ErrorKind::ContentMediaType { media_type: #media_type })
        }
        ErrorKind::MinItems { limit } => quote!(__rt::ErrorKind::MinItems { limit: #limit }),
        ErrorKind::MaxItems { limit } => quote!(__rt::ErrorKind::MaxItems { limit: #limit }),
        ErrorKind::UniqueItems => quote!(__rt::ErrorKind::UniqueItems),
        ErrorKind::Contains { min, max } => {
            let max = match max {
                Some(m) => quote!(Some(#m)),
                None => quote!(None),
            };
            quote!(__rt::ErrorKind::Contains { min: #min, max: #max })
        }
        ErrorKind::MinProperties { limit } => {
            quote!(__rt::ErrorKind::MinProperties { limit: #limit })
        }
        ErrorKind::MaxProperties { limit } => {
            quote!(__rt::ErrorKind::MaxProperties { limit: #limit })
        }
        ErrorKind::Not => quote!(__rt::ErrorKind::Not),
        // The errors that name what the instance holds (its type, a property, which
        // subschemas matched, a custom check's message) are written where they are
        // found; `ErrorKind` is `non_exhaustive`, so a kind added to the runtime lands
        // here too, and the generated code says so when it is compiled.
        other => {
            let message = format!("schemac cannot write the error {other:?} as a constant");
            quote!(::core::compile_error!(#message))
        }
    }
}

/// A numeric bound's error: `kind` (`Minimum`, ...) with its limit.
fn bound(kind: TokenStream, limit: f64) -> TokenStream {
    let limit = f64_tokens(limit);
    quote!(__rt::ErrorKind::#kind { limit: #limit })
}

/// A `multipleOf` divisor as the runtime's `Divisor`.
pub(super) fn divisor_tokens(divisor: Divisor) -> TokenStream {
    match divisor {
        Divisor::Integer(i) => quote!(__rt::json::Divisor::Integer(#i)),
        Divisor::Float(x) => {
            let x = f64_tokens(x);
            quote!(__rt::json::Divisor::Float(#x))
        }
    }
}

/// A `core::cmp::Ordering` expression comparing the `&Number` `num` with `limit` exactly as
/// `json::compare_numbers` does.
pub(super) fn number_cmp(num: TokenStream, limit: &Number) -> TokenStream {
    match Limit::of(limit) {
        Limit::I64(i) => quote!(__rt::cmp_i64(#num, #i)),
        Limit::U64(u) => quote!(__rt::cmp_u64(#num, #u)),
        Limit::F64(x) => {
            let x = f64_tokens(x);
            quote!(__rt::cmp_f64(#num, #x))
        }
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

/// A `bool` expression: whether the instance expression `x` (an `Instance`) equals
/// `value`.
pub(super) fn equals(x: TokenStream, value: &Value, depth: usize) -> TokenStream {
    match value {
        Value::Null => quote!(#x.kind() == __rt::Kind::Null),
        Value::Bool(b) => quote!(#x.as_bool() == Some(#b)),
        Value::String(s) => quote!(#x.as_str().is_some_and(|s| s.eq_str(#s))),
        Value::Number(n) => {
            let binding = format_ident!("n{}", depth);
            let cmp = number_cmp(quote!(&#binding), n);
            quote!(#x.as_number().is_some_and(|#binding| #cmp.is_eq()))
        }
        Value::Array(items) => {
            let inner = format_ident!("y{}", depth);
            let len = items.len();
            let tests = items.iter().enumerate().map(|(i, item)| {
                let test = equals(quote!(#inner), item, depth + 1);
                quote!(#x.item(#i).is_some_and(|#inner| #test))
            });
            quote!(#x.kind() == __rt::Kind::Array && #x.len() == Some(#len) #(&& #tests)*)
        }
        Value::Object(map) => {
            let inner = format_ident!("y{}", depth);
            let len = map.len();
            let tests = map.iter().map(|(k, item)| {
                let test = equals(quote!(#inner), item, depth + 1);
                quote!(#x.get(#k).is_some_and(|#inner| #test))
            });
            quote!(#x.kind() == __rt::Kind::Object && #x.len() == Some(#len) #(&& #tests)*)
        }
    }
}

/// An expression building `value` as an owned `Value` (a `default` that `apply_defaults`
/// inserts).
pub(super) fn built(value: &Value) -> TokenStream {
    match value {
        Value::Null => quote!(Value::Null),
        Value::Bool(b) => quote!(Value::Bool(#b)),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), ..) => quote!(Value::from(#u)),
            (None, Some(i), _) => quote!(Value::from(#i)),
            (None, None, x) => {
                let x = f64_tokens(x.unwrap_or_default());
                quote!(Value::from(#x))
            }
        },
        Value::String(s) => quote!(Value::from(#s)),
        Value::Array(items) if items.is_empty() => quote!(Value::Array(Default::default())),
        Value::Array(items) => {
            let items = items.iter().map(built);
            quote!(Value::from_iter([#(#items),*]))
        }
        Value::Object(map) if map.is_empty() => quote!(Value::Object(Default::default())),
        Value::Object(map) => {
            let entries = map.iter().map(|(k, v)| {
                let v = built(v);
                quote!(m.insert(#k.into(), #v);)
            });
            quote!({
                let mut m = __rt::serde_json::Map::new();
                #(#entries)*
                Value::Object(m)
            })
        }
    }
}
