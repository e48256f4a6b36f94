//! Lookups instead of linear scans, decided here for both backends (their budget charges
//! must agree): the sorted member tables of large `enum`s ([`EnumTable`], run by
//! `schemac_runtime::lookup::Members`) and the prefilter of long pattern lists
//! ([`pattern_set`], run by `schemac_runtime::regex::PrefixSet`).
//!
//! Below the thresholds a backend compares members / tries patterns one by one, which
//! costs about as much as a lookup and charges nothing extra.

use super::thresholds::INLINE_COMPOSITE_VALUES;
use crate::ir::kind::Kind;
use crate::ir::{Program, RegexId};
use crate::regex::PatternSet;
use schemac_runtime::lookup::{Key, Members};
use serde_json::Value;

/// The sorted tables of an `enum`'s strings and numbers (see
/// `schemac_runtime::lookup`); the strings are filled only when the `enum` has at least
/// [`EnumTable::MIN_STRINGS`] of them, the numbers likewise ([`EnumTable::MIN_NUMBERS`]);
/// its arrays and objects are hashed when they hold more than
/// [`INLINE_COMPOSITE_VALUES`] values in all (a `const`'s array or object likewise: its
/// table is that of an `enum` of one member); otherwise the backends compare member by
/// member.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnumTable {
    pub(crate) strings: Vec<String>,
    pub(crate) ints: Vec<i64>,
    pub(crate) uints: Vec<u64>,
    pub(crate) floats: Vec<f64>,
    /// The arrays and objects: `(hash, member, values in the member)`, sorted
    /// (`schemac_runtime::lookup::Composites`), each member numbered by its place among
    /// the `enum`'s arrays and objects ([`EnumTable::composite_members`]).
    pub(crate) composites: Vec<(u64, u32, u32)>,
    /// The place in the `enum` of each array and object, by that number.
    composite_positions: Vec<u32>,
    /// The kinds among those members (arrays, objects).
    composite_kinds: Vec<Kind>,
}

impl EnumTable {
    /// From this many strings on, an `enum` looks a string up instead of comparing it with
    /// each member. Measured in instructions per test (callgrind, a release build): a
    /// lookup costs about as much as comparing 8 strings in generated code (`==`: 245
    /// instructions against 199 at 8 members, 438 against 248 at 16) and beats the
    /// interpreter's `json::equal` scan from 4 members on.
    pub const MIN_STRINGS: usize = 8;

    /// From this many numbers on, an `enum` looks a number up: exact comparisons in
    /// generated code cost about as much as a lookup at 16 members (224 instructions
    /// against 227), half as much at 8.
    pub const MIN_NUMBERS: usize = 16;

    /// The tables of an `enum` with members `values`; `None` when it has fewer than
    /// [`EnumTable::MIN_STRINGS`] strings and fewer than [`EnumTable::MIN_NUMBERS`]
    /// numbers.
    pub fn new(values: &[Value]) -> Option<EnumTable> {
        let mut table = EnumTable::default();
        let strings = values.iter().filter(|v| v.is_string()).count();
        let numbers = values.iter().filter(|v| v.is_number()).count();
        if strings >= Self::MIN_STRINGS {
            table.strings = values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            table.strings.sort_unstable();
            table.strings.dedup();
        }
        if numbers >= Self::MIN_NUMBERS {
            for n in values.iter().filter_map(Value::as_number) {
                match Key::of(n) {
                    Key::Int(i) => table.ints.push(i),
                    Key::Uint(u) => table.uints.push(u),
                    Key::Float(f) => table.floats.push(f),
                }
            }
            table.ints.sort_unstable();
            table.ints.dedup();
            table.uints.sort_unstable();
            table.uints.dedup();
            table.floats.sort_by(f64::total_cmp);
            table.floats.dedup();
        }
        (table.composites, table.composite_positions) = composites(values);
        if table.has_composites() {
            table.composite_kinds = [Kind::Array, Kind::Object]
                .into_iter()
                .filter(|&kind| values.iter().any(|v| Kind::of(v) == kind))
                .collect();
        }
        (!table.strings.is_empty() || table.has_numbers() || table.has_composites())
            .then_some(table)
    }

    /// Whether arrays and objects are found by their hash.
    pub fn has_composites(&self) -> bool {
        !self.composites.is_empty()
    }

    /// Whether instances of `kind` are found by their hash: the table has members of that
    /// kind. An array or object of a kind no member has is no member, decided without a
    /// lookup (as generated code's dispatch decides it), so both backends charge alike.
    pub fn has_composites_of(&self, kind: Kind) -> bool {
        self.composite_kinds.contains(&kind)
    }

    /// The runtime's table of the arrays and objects.
    pub fn composites(&self) -> schemac_runtime::lookup::Composites<'_> {
        schemac_runtime::lookup::Composites::new(&self.composites)
    }

    /// The sorted `(hash, member, size)` entries of the arrays and objects.
    pub fn composite_entries(&self) -> &[(u64, u32, u32)] {
        &self.composites
    }

    /// The arrays and objects among the `enum`'s members `values`, in the order their
    /// entries number them.
    pub fn composite_members(values: &[Value]) -> impl Iterator<Item = &Value> {
        values.iter().filter(|v| is_composite(v))
    }

    /// The member of `values` (the `enum`'s) that entry number `member` stands for.
    pub fn composite_member<'v>(&self, values: &'v [Value], member: usize) -> Option<&'v Value> {
        let position = *self.composite_positions.get(member)?;
        values.get(position as usize)
    }

    /// Whether strings are looked up in the table.
    pub fn has_strings(&self) -> bool {
        !self.strings.is_empty()
    }

    /// At most this many strings are compared by a `match` in generated code
    /// ([`EnumTable::matches_inline`]).
    pub const MAX_INLINE_STRINGS: usize = 256;

    /// At most this many strings of one length are compared by a `match`: rustc compiles
    /// it to a switch on the length, then compares the strings of that length one by one.
    pub const MAX_INLINE_SAME_LENGTH: usize = 16;

    /// Whether generated code compares a string with the members by a `match` instead of
    /// a binary search over the table: a switch on the length and word compares, about
    /// 10 instructions against 250 (callgrind, 16 members). Both charge
    /// [`EnumTable::str_units`], so the budget is the interpreter's.
    pub fn matches_inline(&self) -> bool {
        let longest_run = self
            .strings
            .iter()
            .map(String::len)
            .fold(
                std::collections::BTreeMap::<usize, usize>::new(),
                |mut count, len| {
                    *count.entry(len).or_default() += 1;
                    count
                },
            )
            .into_values()
            .max()
            .unwrap_or(0);
        self.strings.len() <= Self::MAX_INLINE_STRINGS
            && longest_run <= Self::MAX_INLINE_SAME_LENGTH
    }

    /// The string members, sorted, without duplicates.
    pub fn strings(&self) -> &[String] {
        &self.strings
    }

    /// The budget units of a string lookup, alike however it is run.
    pub fn str_units(&self) -> u64 {
        self.as_runtime().str_units()
    }

    /// Whether numbers are looked up in the table.
    pub fn has_numbers(&self) -> bool {
        !(self.ints.is_empty() && self.uints.is_empty() && self.floats.is_empty())
    }

    /// The runtime's view of the tables.
    pub fn as_runtime(&self) -> Members<'_, String> {
        Members::new(&self.strings, &self.ints, &self.uints, &self.floats)
    }
}

fn is_composite(value: &Value) -> bool {
    value.is_array() || value.is_object()
}

/// The entries of the arrays and objects among `values` (`(hash, number among them,
/// values in it)`, sorted) and each one's place in `values`, when they hold more than
/// [`INLINE_COMPOSITE_VALUES`] values in all; else none.
fn composites(values: &[Value]) -> (Vec<(u64, u32, u32)>, Vec<u32>) {
    let (mut entries, mut positions) = (Vec::new(), Vec::new());
    let mut total = 0u64;
    for (position, v) in values.iter().enumerate().filter(|(_, v)| is_composite(v)) {
        let mut size = 0;
        let hash = schemac_runtime::json::hash_value(v, &mut size);
        total += size;
        let member = u32::try_from(entries.len()).unwrap_or(u32::MAX);
        entries.push((hash, member, u32::try_from(size).unwrap_or(u32::MAX)));
        positions.push(u32::try_from(position).unwrap_or(u32::MAX));
    }
    if total <= INLINE_COMPOSITE_VALUES as u64 {
        return (Vec::new(), Vec::new());
    }
    entries.sort_unstable();
    (entries, positions)
}

/// The names an object must have (a `required` list, or one `dependentRequired` entry's)
/// when there are at least [`NameList::MIN_NAMES`]: error-collecting evaluation in both
/// backends reports them through `schemac_runtime::engine::Trail::missing`, which
/// counts the missing names left at once past the error bound instead of one by one
/// (with fewer names, each is looked up and counted on its own: a bounded cost). The
/// names in order and sorted (`schemac_runtime::lookup::NameList`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameList {
    pub(crate) in_order: Vec<String>,
    pub(crate) sorted: Vec<String>,
}

impl NameList {
    /// From this many names on, missing ones are counted at once past the error bound.
    pub const MIN_NAMES: usize = 16;

    /// The list of `names`, when there are at least [`NameList::MIN_NAMES`].
    pub fn new(names: &[String]) -> Option<NameList> {
        (names.len() >= Self::MIN_NAMES).then(|| {
            let mut sorted = names.to_vec();
            sorted.sort_unstable();
            NameList {
                in_order: names.to_vec(),
                sorted,
            }
        })
    }

    /// The runtime's view of the list.
    pub fn as_runtime(&self) -> schemac_runtime::lookup::NameList<'_, String> {
        schemac_runtime::lookup::NameList::new(&self.in_order, &self.sorted)
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
        let few: Vec<Value> = (0..EnumTable::MIN_STRINGS - 1)
            .map(|i| json!(format!("s{i}")))
            .chain((0..EnumTable::MIN_NUMBERS - 1).map(|i| json!(i)))
            .collect();
        assert_eq!(EnumTable::new(&few), None);
        let mut enough = few.clone();
        enough.push(json!("s-last"));
        let table = EnumTable::new(&enough).expect("enough strings");
        assert!(table.has_strings() && !table.has_numbers());
        let mut enough = few;
        enough.push(json!(-1));
        let table = EnumTable::new(&enough).expect("enough numbers");
        assert!(!table.has_strings() && table.has_numbers());
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
        assert_eq!(table.floats, vec![2.5]);
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
}
