//! Finding which names a key of an object is: a dispatch on the key's length and one byte
//! where comparing it with many names in turn would cost more.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeMap;

/// How a loop over an object's keys finds which group of names a key `k` is in, when
/// rustc's own `match` on a `&str` would compare it against many names in turn: by its
/// length, then by its byte at a position that tells the names of that length apart, then
/// one comparison with the one name left. (A `match` on a `&str` tests the names in order;
/// LLVM switches on the length first but then compares one name after the other.)
pub(super) struct KeyDispatch<'a> {
    /// The number of groups: the index of "no group".
    none: usize,
    /// The names of each length.
    by_length: BTreeMap<usize, SameLength<'a>>,
}

/// The names of one length.
#[derive(Debug, Default, PartialEq)]
struct SameLength<'a> {
    /// The position of the byte that tells them apart, where a dispatch on it pays.
    position: Option<usize>,
    /// Each name with its group.
    names: Vec<(&'a str, usize)>,
}

impl<'a> KeyDispatch<'a> {
    /// The instructions (roughly) of a byte dispatch: a load and a jump table.
    const DISPATCH_COST: usize = 8;

    /// The instructions (roughly) that comparing a key with a name of `len` bytes costs
    /// once the lengths agree: one load and compare where a register holds the name (1, 2,
    /// 4 or 8 bytes), two overlapping ones up to 16 bytes, and so on.
    fn compare_cost(len: usize) -> usize {
        if len.is_power_of_two() && len <= 8 {
            2
        } else {
            5 * len.div_ceil(16)
        }
    }

    /// Whether `names` names of `len` bytes are better told apart by a byte than compared
    /// in turn: when comparing a key of that length with each (which a key that is none
    /// of them costs) is more than twice the dispatch. (Measured on the corpus: a dispatch
    /// among four 4-byte names costs more than it saves.)
    fn pays(len: usize, names: usize) -> bool {
        names > 1 && names * Self::compare_cost(len) > 2 * Self::DISPATCH_COST
    }

    /// The dispatch over the names of `groups` (group `i` holds the names with the `i`th
    /// list), if some length has enough of them to need one.
    pub(super) fn new<'g>(
        groups: impl IntoIterator<Item = &'g [&'a str]>,
    ) -> Option<KeyDispatch<'a>>
    where
        'a: 'g,
    {
        let mut by_length: BTreeMap<usize, SameLength<'a>> = BTreeMap::new();
        let mut none = 0;
        for (group, names) in groups.into_iter().enumerate() {
            for name in names {
                by_length
                    .entry(name.len())
                    .or_default()
                    .names
                    .push((name, group));
            }
            none = group + 1;
        }
        if !by_length
            .iter()
            .any(|(&len, same)| Self::pays(len, same.names.len()))
        {
            return None;
        }
        for (&len, SameLength { position, names }) in by_length.iter_mut() {
            if Self::pays(len, names.len()) {
                // The position with the most distinct bytes, then with the fewest names
                // sharing one, then the first.
                *position = (0..len).rev().max_by_key(|&p| {
                    let mut counts: BTreeMap<u8, usize> = BTreeMap::new();
                    for (name, _) in names.iter() {
                        *counts.entry(name.as_bytes()[p]).or_default() += 1;
                    }
                    let largest = counts.values().max().copied().unwrap_or(0);
                    (counts.len(), std::cmp::Reverse(largest))
                });
            }
        }
        Some(KeyDispatch { none, by_length })
    }

    /// An expression of `k`'s group index (or `self.none`).
    pub(super) fn to_tokens(&self) -> TokenStream {
        let none = Literal::usize_unsuffixed(self.none);
        let lengths = self
            .by_length
            .iter()
            .map(|(&len, SameLength { position, names })| {
                let len = Literal::usize_unsuffixed(len);
                let tests = names.iter().map(|(name, group)| {
                    let group = Literal::usize_unsuffixed(*group);
                    (quote!(k == #name), group)
                });
                match position {
                    None => {
                        let arms = tests.map(|(test, group)| quote!(#len if #test => #group,));
                        quote!(#(#arms)*)
                    }
                    Some(p) => {
                        let bytes = names
                            .iter()
                            .map(|(n, _)| Literal::byte_character(n.as_bytes()[*p]));
                        let arms = bytes
                            .zip(tests)
                            .map(|(b, (test, group))| quote!(#b if #test => #group,));
                        let p = Literal::usize_unsuffixed(*p);
                        quote!(#len => match k.as_bytes()[#p] { #(#arms)* _ => #none },)
                    }
                }
            });
        quote!(match k.len() { #(#lengths)* _ => #none })
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyDispatch, SameLength};

    fn dispatch<'a>(groups: &[&[&'a str]]) -> Option<KeyDispatch<'a>> {
        KeyDispatch::new(groups.iter().copied())
    }

    #[test]
    fn a_dispatch_pays_only_for_many_or_long_names_of_one_length() {
        assert!(!KeyDispatch::pays(4, 8));
        assert!(KeyDispatch::pays(4, 9));
        assert!(!KeyDispatch::pays(7, 3));
        assert!(KeyDispatch::pays(7, 4));
        assert!(KeyDispatch::pays(40, 2));
        assert!(!KeyDispatch::pays(40, 1));
        assert!(dispatch(&[&["name", "root", "post", "tabs"], &["windows"]]).is_none());
    }

    #[test]
    fn among_bytes_as_distinct_the_one_with_the_smallest_bucket_wins() {
        // Every byte has three values; byte 0 leaves three names to compare (a), bytes 1
        // and 2 two at most.
        let found = dispatch(&[&["axa", "ayb", "aza"], &["bxb"], &["cyc"]])
            .expect("a dispatch among five 3-byte names pays");
        assert_eq!(found.by_length[&3].position, Some(1));
    }

    #[test]
    fn names_of_one_length_are_told_apart_by_their_most_distinct_byte() {
        let groups: &[&[&str]] = &[
            &["project_name", "project_root"],
            &["startup_pane", "tmux_command", "tmux_options"],
            &["pre"],
        ];
        let found = dispatch(groups).expect("five 12-byte names pay");
        let twelve = &found.by_length[&12];
        // Byte 8 is n, r, p, m, i: all five differ; no earlier byte does.
        assert_eq!(twelve.position, Some(8));
        assert_eq!(twelve.names.len(), 5);
        let three = SameLength {
            position: None,
            names: vec![("pre", 2)],
        };
        assert_eq!(found.by_length[&3], three);
        let code = found.to_tokens().to_string();
        assert!(code.contains("k . as_bytes () [8]"), "{code}");
        assert!(
            code.contains("b'n' if k == \"project_name\" => 0"),
            "{code}"
        );
        assert!(code.contains("3 if k == \"pre\" => 2"), "{code}");
        assert!(code.ends_with("_ => 3 }"), "{code}");
    }
}
