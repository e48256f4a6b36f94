//! Sorted member tables for large `enum`s: an instance is looked up by binary search
//! instead of being compared with every member (issue 9: a 10,000-member `enum` against
//! 100,000 items).
//!
//! The compiler sorts an `enum`'s strings in byte order and its numbers into three lists
//! by value: integers that fit `i64`, integers above `i64::MAX` that fit `u64`, and every
//! other number (`f64`s that are not integers, or beyond the `u64` / `i64` range), each
//! ascending; an integral `f64` member such as `1.0` counts as the integer it equals. An
//! instance number is normalized the same way and looked up in the one list its value
//! belongs to, so the comparison is exact, as [`crate::json::compare_numbers`]: `1` finds
//! `1.0`, `9007199254740993` does not find `9007199254740992.0`. Generated code holds the lists as `static` data; the interpreter
//! borrows them from its plan. Both charge a lookup to the budget alike
//! ([`Members::is_str_member_budgeted`], [`Members::is_number_member_budgeted`]).
//!
//! Array and object members are found by their hash ([`Composites`]).

use core::cmp::Ordering;
use serde_json::Number;

use crate::error::IncompleteReason;
use crate::instance::Instance;
use crate::json::{hash_value, Meter};
use crate::limits::Budget;

/// The members of a large `enum`, sorted (see the module documentation). `S` is how a
/// string member is held: `&str` in generated code, `String` in the interpreter.
#[derive(Debug, Clone, Copy)]
pub struct Members<'a, S = &'a str> {
    /// String members, sorted by bytes, without duplicates.
    strings: &'a [S],
    /// Integer members that fit `i64`, ascending.
    ints: &'a [i64],
    /// Integer members above `i64::MAX` that fit `u64`, ascending.
    uints: &'a [u64],
    /// The other members: `f64`s that are not integers in the `i64` / `u64` range,
    /// ascending.
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

    /// The work of looking `n` up, in steps: the probes of a binary search over the list
    /// its value belongs to.
    pub fn number_steps(&self, n: &Number) -> u64 {
        probes(match Key::of(n) {
            Key::Int(_) => self.ints.len(),
            Key::Uint(_) => self.uints.len(),
            Key::Float(_) => self.floats.len(),
        })
    }

    /// Whether `n` equals a number member, compared exactly.
    pub fn is_number_member(&self, n: &Number) -> bool {
        match Key::of(n) {
            Key::Int(i) => search(self.ints, |m| m.cmp(&i)),
            Key::Uint(u) => search(self.uints, |m| m.cmp(&u)),
            Key::Float(f) => search(self.floats, |m| m.total_cmp(&f)),
        }
    }

    /// [`Members::is_number_member`], charged to `budget`: one unit per
    /// [`crate::regex::STEPS_PER_UNIT`] of [`Members::number_steps`], at least one.
    pub fn is_number_member_budgeted(
        &self,
        n: &Number,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        budget.charge(crate::regex::units(self.number_steps(n)))?;
        Ok(self.is_number_member(n))
    }
}

impl<S: AsRef<str>> Members<'_, S> {
    /// Whether `s` is a string member.
    pub fn is_str_member(&self, s: &str) -> bool {
        search(self.strings, |m| m.as_ref().cmp(s))
    }

    /// The budget units a string lookup costs: one per [`crate::regex::STEPS_PER_UNIT`] of
    /// [`Members::str_steps`], at least one. Generated code that compares a table's
    /// strings inline (a `match`) charges the same.
    pub fn str_units(&self) -> u64 {
        crate::regex::units(self.str_steps())
    }

    /// [`Members::is_str_member`], charged to `budget` ([`Members::str_units`]).
    pub fn is_str_member_budgeted(
        &self,
        s: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        budget.charge(self.str_units())?;
        Ok(self.is_str_member(s))
    }
}

/// The array and object members of an `enum`, or a `const`'s array or object, when they
/// hold too many values to be compared one by one on every test (the compiler decides
/// when): each member's [`crate::json::hash_value`] with its index and its size in values,
/// sorted by hash. An instance is hashed once, found among the members of its hash by
/// binary search, and compared with those members only ([`Composites::find`]). Generated
/// code holds the entries as `static` data, the interpreter borrows them from its plan;
/// both run this one lookup, so both charge alike.
#[derive(Debug, Clone, Copy)]
pub struct Composites<'a> {
    /// `(hash, member index, values in the member)`, ascending by hash.
    entries: &'a [(u64, u32, u32)],
}

impl<'a> Composites<'a> {
    /// A table from its entries, sorted by hash (the compiler builds them; unsorted entries
    /// give wrong answers, never a panic).
    pub const fn new(entries: &'a [(u64, u32, u32)]) -> Self {
        Composites { entries }
    }

    /// Whether `value` equals a member, the work charged to `budget`
    /// ([`crate::json::Meter`]: one unit per [`crate::json::NODES_PER_UNIT`] values):
    /// every value of `value` hashed, one per probe of the binary search, and for each
    /// member whose hash is `value`'s, the values of the member (as many pairs as
    /// comparing it may read) before `equal(member index, value)` compares them. So a
    /// table of members that share a hash costs what comparing them all does, and is
    /// charged for it. `Err` when the budget runs out.
    pub fn find<'v, I: Instance<'v>>(
        &self,
        value: I,
        budget: &mut Budget,
        mut equal: impl FnMut(usize, I) -> bool,
    ) -> Result<bool, IncompleteReason> {
        let mut meter = Meter::new(budget);
        let mut nodes = probes(self.entries.len());
        let hash = hash_value(value, &mut nodes);
        meter.add(nodes)?;
        let from = self.entries.partition_point(|e| e.0 < hash);
        for &(h, member, size) in &self.entries[from..] {
            if h != hash {
                break;
            }
            meter.add(u64::from(size))?;
            if equal(member as usize, value) {
                meter.finish()?;
                return Ok(true);
            }
        }
        meter.finish()?;
        Ok(false)
    }
}

/// A number by value, as the member lists hold it (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key {
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX` that fits `u64`.
    Uint(u64),
    /// Any other number.
    Float(f64),
}

impl Key {
    /// The key of `n`: an integral `f64` inside the `i64` / `u64` range is the integer it
    /// equals (`-0.0` is `0`).
    pub fn of(n: &Number) -> Key {
        if let Some(i) = n.as_i64() {
            return Key::Int(i);
        }
        if let Some(u) = n.as_u64() {
            return Key::Uint(u);
        }
        Key::of_f64(n.as_f64().unwrap_or(f64::NAN))
    }

    /// The key of the value `f`.
    pub fn of_f64(f: f64) -> Key {
        // 2^63 and 2^64, exactly.
        const I64_END: f64 = 9_223_372_036_854_775_808.0;
        const U64_END: f64 = 18_446_744_073_709_551_616.0;
        if f.is_finite() && f % 1.0 == 0.0 {
            // In these ranges `as` converts integral values exactly.
            if (-I64_END..I64_END).contains(&f) {
                return Key::Int(f as i64);
            }
            if (I64_END..U64_END).contains(&f) {
                return Key::Uint(f as u64);
            }
        }
        // `0.0 == -0.0` is impossible here (zero is an `Int`): `total_cmp` is exact.
        Key::Float(f)
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
        &[-5, 0, 1, 9_007_199_254_740_992, 9_007_199_254_740_993],
        &[10_000_000_000_000_000_000, 18_446_744_073_709_551_615],
        &[-1e300, -2.5, 0.5, 1.8446744073709552e19],
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
            "9007199254740992.0",
            "18446744073709551616",
            "-1e300",
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
            "-9223372036854775808",
        ] {
            assert!(!NUMBERS.is_number_member(&parse(text)), "{text}");
        }
    }

    #[test]
    fn composites_compare_only_the_members_of_a_hash_and_charge_them() {
        use crate::json::equal;
        use alloc::vec::Vec;
        use serde_json::{json, Value};
        let members = [json!([1, [2]]), json!({"a": 1, "b": [true]}), json!([])];
        let mut entries: Vec<(u64, u32, u32)> = (members.iter().enumerate())
            .map(|(i, m)| {
                let mut size = 0;
                (hash_value(m, &mut size), i as u32, size as u32)
            })
            .collect();
        entries.sort_unstable();
        let table = Composites::new(&entries);
        let mut budget = Budget::new(&Limits::DEFAULT);
        let mut compared = Vec::new();
        let mut find = |v: &Value, compared: &mut Vec<usize>| {
            table.find(v, &mut budget, |i, v| {
                compared.push(i);
                equal(&members[i], v)
            })
        };
        // Equal by value: numbers by value, objects in any key order.
        assert_eq!(
            find(&json!({"b": [true], "a": 1.0}), &mut compared),
            Ok(true)
        );
        assert_eq!(find(&json!([1.0, [2]]), &mut compared), Ok(true));
        assert_eq!(compared, [1, 0]);
        compared.clear();
        for other in [json!([1, [3]]), json!({"a": 1}), json!([[]]), json!({})] {
            assert_eq!(find(&other, &mut compared), Ok(false), "{other}");
        }
        assert!(compared.is_empty(), "{compared:?}");

        // 1,000 members that share the instance's hash (as crafted collisions would), none
        // equal to it: every one compared, and charged its 100 values before it is.
        let value = json!([[1]]);
        let mut size = 0;
        let hash = hash_value(&value, &mut size);
        let colliding: Vec<(u64, u32, u32)> = (0..1_000).map(|i| (hash, i, 100)).collect();
        let table = Composites::new(&colliding);
        // Hashing 3 values, 10 probes, 1,000 x 100 values compared: 100,013 / 16, rounded up.
        let cost = (size + 10 + 100_000).div_ceil(16);
        assert_eq!(cost, 6_251);
        let run = |budget: u64| {
            let mut compared = 0;
            let found = table.find(
                &value,
                &mut Budget::new(&Limits {
                    budget,
                    ..Limits::DEFAULT
                }),
                |_, _| {
                    compared += 1;
                    false
                },
            );
            (found, compared)
        };
        assert_eq!(run(cost), (Ok(false), 1_000));
        assert_eq!(run(cost - 1).0, Err(IncompleteReason::BudgetExceeded));
        // The comparisons stop where the budget does (charged 1,024 values at a time at
        // least, 11 members): with half of it, about half are made.
        let (found, compared) = run(cost / 2);
        assert_eq!(found, Err(IncompleteReason::BudgetExceeded));
        assert!((500..=511).contains(&compared), "{compared}");
    }

    #[test]
    fn lookups_charge_their_probes() {
        assert_eq!(STRINGS.str_steps(), 3);
        assert_eq!(NUMBERS.number_steps(&parse("1")), 3);
        assert_eq!(NUMBERS.number_steps(&parse("1e19")), 2);
        assert_eq!(NUMBERS.number_steps(&parse("0.5")), 3);
        let big: alloc::vec::Vec<i64> = (0..100_000).collect();
        let table: Members<'_> = Members::new(&[], &big, &[], &[]);
        assert_eq!(table.number_steps(&parse("99999.0")), 17);
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

/// The names an object must have — a `required` list, or one `dependentRequired` entry's —
/// when there are enough that error-collecting evaluation counts the missing ones at once
/// past [`crate::Limits::max_errors`] ([`crate::engine::Trail::missing`]): in their
/// order, and sorted by bytes (duplicates kept: each is an error of its own). `S` is how
/// a name is held: `&str` in generated code, `String` in the interpreter.
#[derive(Debug, Clone, Copy)]
pub struct NameList<'a, S = &'a str> {
    in_order: &'a [S],
    sorted: &'a [S],
}

impl<'a, S: AsRef<str>> NameList<'a, S> {
    /// A list from its names in order and the same names sorted (the compiler sorts them;
    /// an unsorted copy gives wrong counts, never a panic).
    pub const fn new(in_order: &'a [S], sorted: &'a [S]) -> Self {
        NameList { in_order, sorted }
    }

    /// The names, in the order the schema gives them.
    pub fn in_order(&self) -> &'a [S] {
        self.in_order
    }

    /// How many of the names (with their repetitions) `object` has, the lookups counted on
    /// `meter`: a pass over the object's keys, each looked up among the sorted names,
    /// when the object has fewer keys than there are names; else a lookup of each name.
    pub fn present<K: Keys + ?Sized>(
        &self,
        object: &K,
        meter: &mut crate::json::Meter<'_>,
    ) -> Result<u64, IncompleteReason> {
        if object.key_count() < self.sorted.len() {
            meter.add(object.key_count() as u64)?;
            let mut found = 0;
            object.each_key(&mut |key: &str| {
                let from = self.sorted.partition_point(|n| n.as_ref() < key);
                let to = self.sorted.partition_point(|n| n.as_ref() <= key);
                found += (to - from) as u64;
            });
            Ok(found)
        } else {
            meter.add(self.in_order.len() as u64)?;
            let present = self.in_order.iter();
            Ok(present.filter(|n| object.has_key(n.as_ref())).count() as u64)
        }
    }
}

/// The keys of an object as the name checks ([`NameList::present`],
/// [`crate::engine::Trail::missing`]) read them: a `serde_json` map (generated code), or an
/// object [`Instance`] ([`ObjectKeys`], the interpreter, on a `&Value` or a document).
pub trait Keys {
    /// How many keys (distinct).
    fn key_count(&self) -> usize;
    /// Whether `name` is one of them.
    fn has_key(&self, name: &str) -> bool;
    /// Calls `f` on each key, unescaped.
    fn each_key(&self, f: &mut dyn FnMut(&str));
}

impl Keys for serde_json::Map<alloc::string::String, serde_json::Value> {
    fn key_count(&self) -> usize {
        self.len()
    }

    fn has_key(&self, name: &str) -> bool {
        self.contains_key(name)
    }

    fn each_key(&self, f: &mut dyn FnMut(&str)) {
        self.keys().for_each(|k| f(k));
    }
}

/// The keys of an object [`Instance`] (anything else has none).
#[derive(Debug, Clone, Copy)]
pub struct ObjectKeys<I>(pub I);

impl<'a, I: Instance<'a>> Keys for ObjectKeys<I> {
    fn key_count(&self) -> usize {
        if self.0.kind() == crate::instance::Kind::Object {
            self.0.len().unwrap_or(0)
        } else {
            0
        }
    }

    fn has_key(&self, name: &str) -> bool {
        self.0.get(name).is_some()
    }

    fn each_key(&self, f: &mut dyn FnMut(&str)) {
        self.0.entries().for_each(|(k, _)| f(&k.unescaped()));
    }
}
