//! Static data as Rust constant expressions: the tables of compiled regexes, of pattern
//! prefilters and of large `enum`s, for `static NAME: TYPE = <expr>;` items (over
//! `runtime`, the path of the runtime crate).

use crate::plan::lookup::EnumTable;
use crate::regex::{CompiledRegex, Fast, PatternSet};
use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens};
use schemac_runtime::lookup::Key;
use serde_json::Value;

/// A constant expression of type `#runtime::regex::Regex<'static>` over `re`'s tables.
pub fn regex(re: &CompiledRegex, runtime: &TokenStream) -> TokenStream {
    let fast = match &re.fast {
        None => quote!(::core::option::Option::None),
        Some(Fast::Literal { text, start, end }) => quote!(
            ::core::option::Option::Some(#runtime::regex::FastPath::Literal {
                text: #text, start: #start, end: #end
            })
        ),
        Some(Fast::Prefix(text)) => {
            quote!(::core::option::Option::Some(#runtime::regex::FastPath::Prefix(#text)))
        }
        Some(Fast::Leading { ascii, non_ascii }) => {
            let [lo, hi] = ascii.map(hex_word);
            quote!(::core::option::Option::Some(#runtime::regex::FastPath::Leading {
                ascii: [#lo, #hi], non_ascii: #non_ascii
            }))
        }
        Some(Fast::ClassRun {
            ascii,
            ranges,
            min,
            max,
            start,
            end,
        }) => {
            let [lo, hi] = ascii.map(hex_word);
            let ranges = words(ranges);
            let (min, max) = (count(*min), count(*max));
            quote!(::core::option::Option::Some(#runtime::regex::FastPath::ClassRun(
                #runtime::regex::ClassRun::new([#lo, #hi], #ranges, #min, #max, #start, #end)
            )))
        }
        Some(Fast::AsciiRuns { head, runs, end }) => {
            let head = if head.is_empty() {
                quote!(#runtime::regex::Choice::NONE)
            } else {
                let (text, ends) = (&head.text, words(&head.ends));
                quote!(#runtime::regex::Choice::new(#text, #ends))
            };
            let runs = runs.iter().map(|run| {
                let [lo, hi] = run.ascii().map(hex_word);
                let (min, max) = run.bounds();
                let (min, max) = (count(min), count(max));
                quote!(#runtime::regex::AsciiRun::new([#lo, #hi], #min, #max))
            });
            quote!(::core::option::Option::Some(#runtime::regex::FastPath::AsciiRuns {
                head: #head, runs: &[#(#runs),*], end: #end
            }))
        }
    };
    let table = |table| word_table(table, runtime);
    let ops = Literal::byte_string(&re.ops);
    let args = table(&re.args);
    let offsets = table(&re.class_offsets);
    let ranges = table(&re.ranges);
    let looks = words(&re.looks);
    let start = Literal::u32_unsuffixed(re.start);
    let anchored = re.anchored;
    let dfa = match &re.dfa {
        Some(d) => {
            let ascii = Literal::byte_string(&d.ascii[..]);
            let bounds = table(&d.bounds);
            let bound_classes = table(&d.bound_classes);
            let classes = Literal::u32_unsuffixed(d.classes);
            let trans = table(&d.trans);
            let accept_end = Literal::byte_string(&d.accept_end);
            let dstart = Literal::u16_unsuffixed(d.start);
            quote!(::core::option::Option::Some(#runtime::regex::Dfa::new(
                #ascii, #bounds, #bound_classes, #classes, #trans, #accept_end, #dstart
            )))
        }
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #runtime::regex::Regex::new(
            #fast,
            #runtime::regex::Program::new(
                #ops, #args, #offsets, #ranges, #looks, #start, #anchored
            ),
            #dfa
        )
    }
}

/// A constant expression of type `#runtime::regex::PrefixSet<'static>` over `set`'s tables.
pub fn pattern_set(set: &PatternSet, runtime: &TokenStream) -> TokenStream {
    let text = Literal::string(&set.text);
    let bounds = words(&set.bounds);
    let offsets = words(&set.offsets);
    let patterns = words(&set.patterns);
    let lengths = words(&set.lengths);
    let always = words(&set.always);
    quote!(#runtime::regex::PrefixSet::new(
        #text, #bounds, #offsets, #patterns, #lengths, #always
    ))
}

/// A constant expression of type `#runtime::lookup::Members<'static>` over `table`'s
/// sorted members.
pub fn enum_table(table: &EnumTable, runtime: &TokenStream) -> TokenStream {
    let strings = table.strings.iter().map(|s| Literal::string(s));
    let ints = table.ints.iter().map(|&i| Literal::i64_unsuffixed(i));
    let uints = table.uints.iter().map(|&u| Literal::u64_unsuffixed(u));
    let floats = table.floats.iter().map(|&f| Literal::f64_suffixed(f));
    quote!(#runtime::lookup::Members::new(
        &[#(#strings),*], &[#(#ints),*], &[#(#uints),*], &[#(#floats),*]
    ))
}

/// A constant expression of type `#runtime::lookup::Composites<'static>` over `table`'s
/// arrays and objects: their `(hash, member, size)` entries, sorted by hash, each member
/// numbered as the index of [`composite_members`]' array.
pub fn composites(table: &EnumTable, runtime: &TokenStream) -> TokenStream {
    let entries = table
        .composite_entries()
        .iter()
        .map(|&(hash, member, size)| {
            let hash = hex_word(hash);
            quote!((#hash, #member, #size))
        });
    quote!(#runtime::lookup::Composites::new(&[#(#entries),*]))
}

/// The arrays and objects among the `enum` `values`, in the order [`composites`] numbers
/// them, as a constant expression of type `[#runtime::instance::Constant<'static>; N]`,
/// with the array's type.
pub fn composite_members(values: &[Value], runtime: &TokenStream) -> (TokenStream, TokenStream) {
    let members: Vec<TokenStream> = EnumTable::composite_members(values).map(constant).collect();
    let n = Literal::usize_unsuffixed(members.len());
    (
        quote!([#runtime::instance::Constant<'static>; #n]),
        quote!({
            use #runtime::instance::Constant as C;
            [#(#members),*]
        }),
    )
}

/// `value` as a constant expression of type `#runtime::instance::Constant<'static>` (a
/// custom keyword's value).
pub fn constant_value(value: &Value, runtime: &TokenStream) -> TokenStream {
    let value = constant(value);
    quote!({
        use #runtime::instance::Constant as C;
        #value
    })
}

/// `value` as a constant expression of type `Constant<'static>`, the runtime's
/// `instance::Constant` imported as `C`: numbers divided as
/// `schemac_runtime::lookup::Key` divides them, object entries sorted by key.
fn constant(value: &Value) -> TokenStream {
    match value {
        Value::Null => quote!(C::Null),
        Value::Bool(b) => quote!(C::Bool(#b)),
        Value::Number(n) => match Key::of(n) {
            Key::Int(i) => quote!(C::Int(#i)),
            Key::Uint(u) => quote!(C::Uint(#u)),
            Key::Float(f) => {
                let f = super::value::f64_tokens(f);
                quote!(C::Float(#f))
            }
        },
        Value::String(text) => quote!(C::String(#text)),
        Value::Array(items) => {
            let items = items.iter().map(constant);
            quote!(C::Array(&[#(#items),*]))
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by_key(|&(key, _)| key);
            let entries = entries.into_iter().map(|(key, v)| {
                let v = constant(v);
                quote!((#key, #v))
            });
            quote!(C::Object(&[#(#entries),*]))
        }
    }
}

/// A `u64` as a hexadecimal literal (bit sets read better so).
fn hex_word(w: u64) -> Literal {
    format!("0x{w:016X}")
        .parse::<Literal>()
        .unwrap_or_else(|_| Literal::u64_unsuffixed(w))
}

/// A repetition bound (`u32::MAX`: unbounded, spelled so).
fn count(n: u32) -> TokenStream {
    if n == u32::MAX {
        quote!(::core::primitive::u32::MAX)
    } else {
        Literal::u32_unsuffixed(n).into_token_stream()
    }
}

/// A `&[u32]` slice literal of `v`.
fn words<T: Copy + Into<u32>>(v: &[T]) -> TokenStream {
    let items = v.iter().map(|&x| Literal::u32_unsuffixed(x.into()));
    quote!(&[#(#items),*])
}

/// A runtime `Words` table over `(bytes, width)`: numbers of `width` bytes each.
fn word_table((bytes, width): &(Vec<u8>, u8), runtime: &TokenStream) -> TokenStream {
    let bytes = Literal::byte_string(bytes);
    let width = Literal::u8_unsuffixed(*width);
    quote!(#runtime::regex::Words::new(#bytes, #width))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn an_enum_table_is_a_static_expression() {
        let values: Vec<Value> = (0..16).map(|i| json!(format!("s\"{i}"))).collect();
        let tokens = enum_table(
            &EnumTable::new(&values).unwrap(),
            &quote!(::schemac_runtime),
        );
        let text = tokens.to_string();
        assert!(
            text.starts_with(":: schemac_runtime :: lookup :: Members :: new"),
            "{text}"
        );
        syn::parse2::<syn::Expr>(tokens).expect("an expression");
    }
}
