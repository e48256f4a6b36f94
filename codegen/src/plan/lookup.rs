//! Lookups instead of linear scans, decided here for both backends (their budget charges
//! must agree): the sorted member tables of large `enum`s ([`EnumTable`], run by
//! `schemac_runtime::lookup::Members`) and the prefilter of long pattern lists
//! ([`pattern_set`], run by `schemac_runtime::regex::PrefixSet`).
//!
//! Below the thresholds a backend compares members / tries patterns one by one, which
//! costs about as much as a lookup and charges nothing extra.

use crate::ir::{Program, RegexId};
use crate::regex::PatternSet;
use schemac_runtime::lookup::Members;
use serde_json::Value;

/// The sorted tables of an `enum`'s strings and numbers (see
/// `schemac_runtime::lookup`); a list is filled only when the `enum` has at least
/// [`EnumTable::MIN_MEMBERS`] members of its type, otherwise the backends compare one by
/// one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnumTable {
    strings: Vec<String>,
    ints: Vec<i64>,
    uints: Vec<u64>,
    floats: Vec<f64>,
}

impl EnumTable {
    /// From this many members of one type (strings, or numbers) on, an `enum` looks the
    /// instance up instead of comparing it with each member.
    pub const MIN_MEMBERS: usize = 16;

    /// The tables of an `enum` with members `values`; `None` when it has fewer than
    /// [`EnumTable::MIN_MEMBERS`] strings and fewer numbers.
    pub fn new(values: &[Value]) -> Option<EnumTable> {
        let mut table = EnumTable::default();
        let strings = values.iter().filter(|v| v.is_string()).count();
        let numbers = values.iter().filter(|v| v.is_number()).count();
        if strings >= Self::MIN_MEMBERS {
            table.strings = values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            table.strings.sort_unstable();
            table.strings.dedup();
        }
        if numbers >= Self::MIN_MEMBERS {
            for n in values.iter().filter_map(Value::as_number) {
                if let Some(i) = n.as_i64() {
                    table.ints.push(i);
                } else if let Some(u) = n.as_u64() {
                    table.uints.push(u);
                } else if let Some(f) = n.as_f64() {
                    table.floats.push(f);
                }
            }
            table.ints.sort_unstable();
            table.ints.dedup();
            table.uints.sort_unstable();
            table.uints.dedup();
            // serde_json holds no NaN: the order is total.
            table.floats.sort_by(f64::total_cmp);
            table.floats.dedup_by(|a, b| a == b);
        }
        (!table.strings.is_empty() || table.has_numbers()).then_some(table)
    }

    /// Whether strings are looked up in the table.
    pub fn has_strings(&self) -> bool {
        !self.strings.is_empty()
    }

    /// Whether numbers are looked up in the table.
    pub fn has_numbers(&self) -> bool {
        !(self.ints.is_empty() && self.uints.is_empty() && self.floats.is_empty())
    }

    /// The runtime's view of the tables.
    pub fn as_runtime(&self) -> Members<'_, String> {
        Members::new(&self.strings, &self.ints, &self.uints, &self.floats)
    }

    /// A constant expression of type `#runtime::lookup::Members<'static>` over the same
    /// tables, for `static TABLE: #runtime::lookup::Members<'static> = <expr>;`.
    #[cfg(feature = "emit")]
    pub fn to_tokens(&self, runtime: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
        use proc_macro2::Literal;
        use quote::quote;
        let strings = self.strings.iter().map(|s| Literal::string(s));
        let ints = self.ints.iter().map(|&i| Literal::i64_unsuffixed(i));
        let uints = self.uints.iter().map(|&u| Literal::u64_unsuffixed(u));
        let floats = self.floats.iter().map(|&f| Literal::f64_suffixed(f));
        quote!(#runtime::lookup::Members::new(
            &[#(#strings),*], &[#(#ints),*], &[#(#uints),*], &[#(#floats),*]
        ))
    }
}

/// The prefilter over the patterns `ids` of a `patternProperties` check, or of the
/// patterns an `additionalProperties` check skips, when there are at least
/// [`PatternSet::MIN_PATTERNS`] of them (numbered in the order given).
pub fn pattern_set(
    program: &Program,
    ids: impl ExactSizeIterator<Item = RegexId>,
) -> Option<PatternSet> {
    if ids.len() < PatternSet::MIN_PATTERNS {
        return None;
    }
    Some(PatternSet::new(ids.map(|id| {
        program.regexes.get(id.0).and_then(|e| e.compiled.as_ref())
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_enums_keep_the_scan() {
        let few: Vec<Value> = (0..EnumTable::MIN_MEMBERS - 1)
            .map(|i| json!(format!("s{i}")))
            .chain((0..EnumTable::MIN_MEMBERS - 1).map(|i| json!(i)))
            .collect();
        assert_eq!(EnumTable::new(&few), None);
    }

    #[test]
    fn tables_are_sorted_deduplicated_and_split_by_representation() {
        let mut values: Vec<Value> = (0..20).rev().map(|i| json!(format!("s{i}"))).collect();
        values.push(json!("s3"));
        values.push(json!(null));
        let table = EnumTable::new(&values).expect("a string table");
        assert!(table.has_strings() && !table.has_numbers());
        assert_eq!(table.strings.len(), 20);
        assert!(table.strings.windows(2).all(|w| w[0] < w[1]));
        let numbers: Vec<Value> = (0..16)
            .map(|i| json!(i - 8))
            .chain([
                json!(u64::MAX),
                json!(2.5),
                json!(-0.0),
                json!(0.0),
                json!(1.0),
            ])
            .collect();
        let table = EnumTable::new(&numbers).expect("a number table");
        assert!(!table.has_strings() && table.has_numbers());
        assert_eq!(table.ints, (-8..8).collect::<Vec<i64>>());
        assert_eq!(table.uints, vec![u64::MAX]);
        assert_eq!(table.floats, vec![-0.0, 1.0, 2.5]);
        let members = table.as_runtime();
        for (text, found) in [
            ("1", true),
            ("1.0", true),
            ("0", true),
            ("2.5", true),
            ("9", false),
        ] {
            let n: serde_json::Number = serde_json::from_str(text).unwrap();
            assert_eq!(members.is_number_member(&n), found, "{text}");
        }
    }

    #[cfg(feature = "emit")]
    #[test]
    fn tokens_form_a_static_table() {
        let values: Vec<Value> = (0..16).map(|i| json!(format!("s\"{i}"))).collect();
        let tokens = EnumTable::new(&values)
            .unwrap()
            .to_tokens(&quote::quote!(::schemac_runtime));
        let text = tokens.to_string();
        assert!(
            text.starts_with(":: schemac_runtime :: lookup :: Members :: new"),
            "{text}"
        );
        syn::parse2::<syn::Expr>(tokens).expect("an expression");
    }
}
