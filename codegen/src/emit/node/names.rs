//! A `match` on a string's value (an object key): which arm takes which names.
//!
//! rustc compares a string against the names of a `match` one after the other once the
//! length has picked their group: one comparison of a word where the length is 1, 2, 4
//! or 8 bytes, a few instructions more for other lengths. Where a length's group is long
//! enough for that chain to cost more than a jump on one byte, the string's length is
//! tested after the other names (`_ if k.len() == 7 => match k.as_bytes()[2] { .. }`)
//! and its names are told apart by the byte at the position where that costs least (an
//! arm's body repeated for each of its bytes), then compared in full. The costs are
//! estimates, in instructions, of what rustc and LLVM make of it.

use super::code::Cond;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeMap;

/// One arm of [`match_names`].
pub(super) struct NameArm<'a> {
    /// The names the arm takes.
    pub names: Vec<&'a str>,
    /// A condition the arm also needs, if any.
    pub guard: Option<Cond>,
    /// The arm's body, with its comma when it is an expression.
    pub body: TokenStream,
}

/// Comparing a string of the right length with a name of `len` bytes.
fn compare_cost(len: usize) -> usize {
    match len {
        1 | 2 | 4 | 8 => 2,
        0..=16 => 6,
        17..=32 => 8,
        _ => 20,
    }
}

/// The test of the length and the jump on one byte.
const BYTE_JUMP_COST: usize = 2 + 8;

/// For each length whose names are told apart by a byte first, the byte's position.
fn byte_positions(arms: &[NameArm<'_>]) -> BTreeMap<usize, usize> {
    // Per length, its names as the chain meets them: (arm, name).
    let mut groups: BTreeMap<usize, Vec<(usize, &str)>> = BTreeMap::new();
    for (a, arm) in arms.iter().enumerate() {
        for name in &arm.names {
            groups.entry(name.len()).or_default().push((a, name));
        }
    }
    groups
        .into_iter()
        .filter_map(|(len, names)| {
            let n = names.len();
            let chain = compare_cost(len) * n * (n + 1) / 2;
            let (cost, at) = (0..len).map(|at| (dispatched_cost(&names, at), at)).min()?;
            (cost + BYTE_JUMP_COST * n < chain).then_some((len, at))
        })
        .collect()
}

/// What finding each of `names` (one length's, in arm order) costs in all after the jump
/// on the byte at `at`: the names with the same byte there are compared with one after
/// the other.
fn dispatched_cost(names: &[(usize, &str)], at: usize) -> usize {
    let compare = compare_cost(names[0].1.len());
    let mut same_byte = [0usize; 256];
    names
        .iter()
        .map(|(_, name)| {
            let seen = &mut same_byte[usize::from(name.as_bytes()[at])];
            *seen += 1;
            compare * *seen
        })
        .sum()
}

/// `match` on the string `text` (an identifier of type `&String`): each arm where the
/// string is one of its names and its guard holds, `default` otherwise (a body, with
/// its comma when it is an expression). The arms' names must be distinct.
pub(super) fn match_names(
    text: &TokenStream,
    arms: &[NameArm<'_>],
    default: TokenStream,
) -> TokenStream {
    let dispatched = byte_positions(arms);
    let mut rendered: Vec<TokenStream> = arms
        .iter()
        .filter_map(|arm| {
            let names: Vec<&str> = arm
                .names
                .iter()
                .copied()
                .filter(|n| !dispatched.contains_key(&n.len()))
                .collect();
            let body = &arm.body;
            match (names.is_empty(), &arm.guard) {
                (true, _) => None,
                (false, Some(guard)) => Some(quote!(#(#names)|* if #guard => #body)),
                (false, None) => Some(quote!(#(#names)|* => #body)),
            }
        })
        .collect();
    for (&len, &at) in &dispatched {
        // An arm per arm and byte, so that a name is compared with those of its byte only.
        let by_byte = arms.iter().flat_map(|arm| {
            let mut by_byte: BTreeMap<u8, Vec<&str>> = BTreeMap::new();
            for name in arm.names.iter().filter(|n| n.len() == len) {
                by_byte.entry(name.as_bytes()[at]).or_default().push(name);
            }
            by_byte.into_iter().map(|(byte, names)| {
                let byte = Literal::byte_character(byte);
                let is_name = match names.as_slice() {
                    [name] => quote!(#text == #name),
                    _ => quote!(matches!(#text, #(#names)|*)),
                };
                let guard = match &arm.guard {
                    Some(g) => Cond::from(is_name).and(g),
                    None => Cond::from(is_name),
                };
                let body = &arm.body;
                quote!(#byte if #guard => #body)
            })
        });
        let (len, at) = (
            Literal::usize_unsuffixed(len),
            Literal::usize_unsuffixed(at),
        );
        rendered.push(quote! {
            _ if #text.len() == #len => match #text.as_bytes()[#at] {
                #(#by_byte)*
                _ => #default
            }
        });
    }
    quote! {
        match #text {
            #(#rendered)*
            _ => #default
        }
    }
}
