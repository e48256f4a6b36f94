//! Sorted member tables for large `enum`s: an instance is looked up by binary search
//! instead of being compared with every member (issue 9: a 10,000-member `enum` against
//! 100,000 items).
//!
//! The compiler sorts an `enum`'s strings in byte order and splits its numbers by how
//! serde_json holds them — `i64`, `u64` above `i64::MAX`, `f64` — each list in numeric
//! order. A lookup searches the lists of the instance's type with the exact comparisons
//! of [`crate::json::compare_numbers`]: `1` finds `1.0`, `9007199254740993` does not find
//! `9007199254740992.0`. Generated code holds the lists as `static` data; the interpreter
//! borrows them from its plan. Both charge a lookup to the budget alike
//! ([`Members::is_str_member_budgeted`], [`Members::is_number_member_budgeted`]).

use core::cmp::Ordering;
use serde_json::Number;

use crate::__private::{cmp_f64, cmp_i64, cmp_u64};
use crate::error::IncompleteReason;
use crate::limits::Budget;

/// The members of a large `enum`, sorted (see the module documentation). `S` is how a
/// string member is held: `&str` in generated code, `String` in the interpreter.
#[derive(Debug, Clone, Copy)]
pub struct Members<'a, S = &'a str> {
    /// String members, sorted by bytes, without duplicates.
    strings: &'a [S],
    /// Members held as `i64`, ascending.
    ints: &'a [i64],
    /// Members held as `u64` (above `i64::MAX`), ascending.
    uints: &'a [u64],
    /// Members held as `f64` (no NaN), ascending.
    floats: &'a [f64],
}

impl<'a, S> Members<'a, S> {
    /// A table from its sorted lists (the compiler builds them; unsorted lists give wrong
    /// answers, never a panic).
    pub const fn new(
        strings: &'a [S],
        ints: &'a [i64],
        uints: &'a [u64],
        floats: &'a [f64],
    ) -> Self {
        Members {
            strings,
            ints,
            uints,
            floats,
        }
    }

    /// The work of looking a string up, in steps (see [`crate::regex::STEPS_PER_UNIT`]):
    /// the probes of a binary search over the string list, `⌈log2(len + 1)⌉`.
    pub fn str_steps(&self) -> u64 {
        probes(self.strings.len())
    }

    /// The work of looking a number up, in steps: the probes of a binary search over each
    /// of the three number lists.
    pub fn number_steps(&self) -> u64 {
        probes(self.ints.len()) + probes(self.uints.len()) + probes(self.floats.len())
    }

    /// Whether `n` equals a number member, compared exactly.
    pub fn is_number_member(&self, n: &Number) -> bool {
        search(self.ints, |&m| cmp_i64(n, m).reverse())
            || search(self.uints, |&m| cmp_u64(n, m).reverse())
            || search(self.floats, |&m| cmp_f64(n, m).reverse())
    }

    /// [`Members::is_number_member`], charged to `budget`: one unit per
    /// [`crate::regex::STEPS_PER_UNIT`] of [`Members::number_steps`], at least one.
    pub fn is_number_member_budgeted(
        &self,
        n: &Number,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        budget.charge(crate::regex::units(self.number_steps()))?;
        Ok(self.is_number_member(n))
    }
}

impl<S: AsRef<str>> Members<'_, S> {
    /// Whether `s` is a string member.
    pub fn is_str_member(&self, s: &str) -> bool {
        search(self.strings, |m| m.as_ref().cmp(s))
    }

    /// [`Members::is_str_member`], charged to `budget`: one unit per
    /// [`crate::regex::STEPS_PER_UNIT`] of [`Members::str_steps`], at least one.
    pub fn is_str_member_budgeted(
        &self,
        s: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        budget.charge(crate::regex::units(self.str_steps()))?;
        Ok(self.is_str_member(s))
    }
}

/// The probes of a binary search over `len` items, at most.
fn probes(len: usize) -> u64 {
    u64::from(usize::BITS - len.leading_zeros())
}

/// Binary search: whether some item of the ascending `list` compares `Equal`
/// (`order(item)` is the item's order relative to the target).
fn search<T>(list: &[T], order: impl Fn(&T) -> Ordering) -> bool {
    let (mut low, mut high) = (0, list.len());
    while low < high {
        let mid = low + (high - low) / 2;
        match order(&list[mid]) {
            Ordering::Less => low = mid + 1,
            Ordering::Greater => high = mid,
            Ordering::Equal => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn parse(text: &str) -> Number {
        serde_json::from_str(text).unwrap()
    }

    static STRINGS: Members<'static> = Members::new(&["", "a", "ab", "b", "é"], &[], &[], &[]);

    static NUMBERS: Members<'static> = Members::new(
        &[],
        &[-5, 0, 1, 9_007_199_254_740_993],
        &[18_446_744_073_709_551_615],
        &[-2.5, 0.5, 9_007_199_254_740_992.0, 1e19],
    );

    #[test]
    fn strings_are_found_by_bytes() {
        for s in ["", "a", "ab", "b", "é"] {
            assert!(STRINGS.is_str_member(s), "{s:?}");
        }
        for s in ["aa", "c", "e", "A", " a"] {
            assert!(!STRINGS.is_str_member(s), "{s:?}");
        }
        let owned = [String::from("x"), String::from("y")];
        assert!(Members::new(&owned, &[], &[], &[]).is_str_member("y"));
    }

    #[test]
    fn numbers_compare_exactly() {
        for text in [
            "-5",
            "-5.0",
            "0",
            "-0.0",
            "1.0",
            "9007199254740993",
            "18446744073709551615",
            "-2.5",
            "0.5",
            "10000000000000000000",
            "1e19",
            "9007199254740992",
        ] {
            assert!(NUMBERS.is_number_member(&parse(text)), "{text}");
        }
        for text in [
            "2",
            "-2.4",
            "9007199254740994",
            "18446744073709551614",
            "10000000000000000001",
            "1e300",
            "0.25",
        ] {
            assert!(!NUMBERS.is_number_member(&parse(text)), "{text}");
        }
    }

    #[test]
    fn lookups_charge_their_probes() {
        assert_eq!(STRINGS.str_steps(), 3);
        assert_eq!(NUMBERS.number_steps(), 3 + 1 + 3);
        let big: alloc::vec::Vec<i64> = (0..100_000).collect();
        let table: Members<'_> = Members::new(&[], &big, &[], &[]);
        assert_eq!(table.number_steps(), 17);
        let mut budget = Budget::new(&Limits {
            budget: 3,
            ..Limits::DEFAULT
        });
        // 17 probes: two units; 3 probes: one.
        assert_eq!(
            table.is_number_member_budgeted(&parse("99999"), &mut budget),
            Ok(true)
        );
        assert_eq!(STRINGS.is_str_member_budgeted("z", &mut budget), Ok(false));
        assert_eq!(
            STRINGS.is_str_member_budgeted("a", &mut budget),
            Err(IncompleteReason::BudgetExceeded)
        );
    }
}
