//! The interpreter's run-time indexes over names a schema lists: [`PropertyIndex`]
//! (an instance key found among `properties` names by its length and its first and last
//! eight bytes), [`Required`] (`required`'s names found in one pass over a small object)
//! [`NameTable`] (the ids by which short-circuit evaluation records evaluated
//! properties by name), [`Tags`] (the branches a discriminator's tag admits) and
//! [`EnumIndex`] (a large `enum`'s strings). Built once when the interpreter is; read on
//! every lookup.

use super::access::{count, has_key, text_of};
use crate::plan::lookup::EnumTable;
use crate::plan::thresholds::{KEYS_PER_NAME, REQUIRED_IN_PASS, SCANNED_NAMES};
use crate::plan::Discriminator;
use schemac_runtime::engine::Bits;
use schemac_runtime::instance::Instance;
use schemac_runtime::json::Tag;

#[cfg(doc)]
use crate::plan::Admits;

/// A name's byte length with its first and last eight bytes (overlapping, or zero-padded
/// below eight): two names up to 16 bytes long are equal exactly when their heads are;
/// longer ones compare their bytes once the heads agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Head {
    len: usize,
    first: u64,
    last: u64,
}

impl Head {
    /// Names up to this many bytes are decided by their heads.
    const DECIDES: usize = 16;

    #[inline]
    fn of(name: &str) -> Head {
        let bytes = name.as_bytes();
        let len = bytes.len();
        let (first, last) = if len >= 8 {
            (u64_at(bytes, 0), u64_at(bytes, len - 8))
        } else if len >= 4 {
            (u32_at(bytes, 0), u32_at(bytes, len - 4))
        } else {
            // Byte by byte: a copy of a variable length would call `memcpy`.
            let first = (bytes.iter().rev()).fold(0u64, |w, &b| w << 8 | u64::from(b));
            (first, 0)
        };
        Head { len, first, last }
    }

    /// A bucket for the head among `1 << (64 - shift)` (multiply-shift hashing).
    #[inline]
    fn slot(self, shift: u32) -> usize {
        let fold = self.first ^ self.last.rotate_left(29) ^ (self.len as u64);
        (fold.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
    }
}

/// The eight bytes of `bytes` from `at` (little-endian; zero past the end).
#[inline(always)]
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    if let Some(b) = bytes.get(at..at + 8) {
        w.copy_from_slice(b);
    }
    u64::from_le_bytes(w)
}

/// The four bytes of `bytes` from `at` (little-endian; zero past the end).
#[inline(always)]
fn u32_at(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 4];
    if let Some(b) = bytes.get(at..at + 4) {
        w.copy_from_slice(b);
    }
    u64::from(u32::from_le_bytes(w))
}

/// Finds a `properties` entry by instance key: the key's length is tested against the
/// names' lengths first, then its [`Head`] against the names' heads — all of them for a
/// few names, one hash bucket's for many.
#[derive(Debug, Clone)]
pub(super) struct PropertyIndex {
    /// One bit per name length (modulo 64): a key whose bit is clear is no name.
    lengths: u64,
    /// Each entry's head, in entry order.
    heads: Vec<Head>,
    /// Above [`SCANNED_NAMES`] entries: bucket `b` holds the entry indices
    /// `order[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    order: Vec<u32>,
    shift: u32,
}

impl PropertyIndex {
    pub(super) fn new<'a>(names: impl Iterator<Item = &'a str>) -> PropertyIndex {
        let heads: Vec<Head> = names.map(Head::of).collect();
        let lengths = heads.iter().fold(0u64, |bits, h| bits | 1 << (h.len & 63));
        let mut index = PropertyIndex {
            lengths,
            heads,
            starts: Vec::new(),
            order: Vec::new(),
            shift: 64,
        };
        let n = index.heads.len();
        if n > SCANNED_NAMES {
            let buckets = (2 * n).next_power_of_two();
            index.shift = 64 - buckets.trailing_zeros();
            let mut counts = vec![0u32; buckets + 1];
            for head in &index.heads {
                counts[head.slot(index.shift) + 1] += 1;
            }
            for b in 0..buckets {
                counts[b + 1] += counts[b];
            }
            let mut next = counts.clone();
            index.order = vec![0; n];
            for (i, head) in index.heads.iter().enumerate() {
                let at = &mut next[head.slot(index.shift)];
                index.order[*at as usize] = i as u32;
                *at += 1;
            }
            index.starts = counts;
        }
        index
    }

    /// Whether some name has `len` bytes (or a length equal to it modulo 64).
    #[inline]
    pub(super) fn may_have_length(&self, len: usize) -> bool {
        self.lengths & 1 << (len & 63) != 0
    }

    /// The index of the name `key` among the names this index was built from, which
    /// `name` gives by index (read only for names longer than their heads).
    #[inline(always)]
    pub(super) fn find<'a>(
        &self,
        key: &str,
        name: impl Fn(usize) -> Option<&'a str>,
    ) -> Option<usize> {
        self.find_in(key, name, self.scans())
    }

    /// Whether [`PropertyIndex::find`] scans the heads (a few names) rather than hashing.
    #[inline(always)]
    pub(super) fn scans(&self) -> bool {
        self.starts.is_empty()
    }

    /// [`PropertyIndex::find`] where the caller has decided [`PropertyIndex::scans`]
    /// ([`SCANNED_NAMES`]), so that a loop of lookups decides it once.
    #[inline(always)]
    pub(super) fn find_by<'a, const SCAN: bool>(
        &self,
        key: &str,
        name: impl Fn(usize) -> Option<&'a str>,
    ) -> Option<usize> {
        self.find_in(key, name, SCAN)
    }

    /// [`PropertyIndex::find`], scanning the heads when `scan` (which must be
    /// [`PropertyIndex::scans`]) and hashing otherwise.
    #[inline(always)]
    fn find_in<'a>(
        &self,
        key: &str,
        name: impl Fn(usize) -> Option<&'a str>,
        scan: bool,
    ) -> Option<usize> {
        if !self.may_have_length(key.len()) {
            return None;
        }
        let head = Head::of(key);
        let same =
            |i: usize| self.heads[i] == head && (head.len <= Head::DECIDES || name(i) == Some(key));
        if scan {
            return (0..self.heads.len()).find(|&i| same(i));
        }
        let slot = head.slot(self.shift);
        let bucket = &self.order[self.starts[slot] as usize..self.starts[slot + 1] as usize];
        bucket.iter().map(|&i| i as usize).find(|&i| same(i))
    }
}

/// `required`'s names, and (for one name up to 64) an index to find them all in one pass
/// over a small object instead of a lookup each.
#[derive(Debug, Clone)]
pub(super) struct Required {
    /// The names, in the schema's order.
    pub(super) names: Vec<String>,
    /// The index over the names, and the bits of the first occurrence of each distinct
    /// name (for one up to [`REQUIRED_IN_PASS`] names).
    pass: Option<(PropertyIndex, u64)>,
}

impl Required {
    pub(super) fn new(names: &[String]) -> Required {
        let pass = (1..=REQUIRED_IN_PASS).contains(&names.len()).then(|| {
            let firsts = (0..names.len())
                .filter(|&i| !names[..i].contains(&names[i]))
                .fold(0u64, |bits, i| bits | 1 << i);
            (PropertyIndex::new(names.iter().map(String::as_str)), firsts)
        });
        Required {
            names: names.to_vec(),
            pass,
        }
    }

    /// Whether `object` has every name: one by the runtime's `get` (the lookup generated
    /// code uses); several in one pass over its keys (stopping once all are found) when it
    /// has at most [`KEYS_PER_NAME`] keys per name, else by a lookup of each.
    #[inline(never)]
    pub(super) fn holds<'a, I: Instance<'a>>(&self, object: I) -> bool {
        if let [name] = &self.names[..] {
            return has_key(object, name);
        }
        let Some((index, all)) = &self.pass else {
            return self.names.iter().all(|n| has_key(object, n));
        };
        if count(object) > self.names.len() * KEYS_PER_NAME {
            return self.names.iter().all(|n| has_key(object, n));
        }
        let name = |i: usize| self.names.get(i).map(String::as_str);
        if index.scans() {
            all_found(object, *all, |key| index.find_by::<true>(key, name))
        } else {
            all_found(object, *all, |key| index.find_by::<false>(key, name))
        }
    }
}

/// Whether the keys of `object` that `find` places among some names (by index, below
/// 64) cover the bits `all`: one pass, stopping once they do.
#[inline(always)]
fn all_found<'a, I: Instance<'a>>(
    object: I,
    all: u64,
    find: impl Fn(&str) -> Option<usize>,
) -> bool {
    let mut seen = 0u64;
    for (key, _) in object.entries() {
        let owned;
        if let Some(i) = find(text_of!(key, owned)) {
            seen |= 1 << i;
            if seen == all {
                return true;
            }
        }
    }
    false
}

/// The names that evaluated-location sets may record by name: every `properties` name
/// of a node that collects evaluated properties, numbered in order.
#[derive(Debug, Clone)]
pub(super) struct NameTable {
    names: Vec<String>,
    index: PropertyIndex,
}

impl NameTable {
    pub(super) fn new(names: Vec<String>) -> NameTable {
        let index = PropertyIndex::new(names.iter().map(String::as_str));
        NameTable { names, index }
    }

    /// The id of `name`, if it is in the table.
    #[inline]
    pub(super) fn id(&self, name: &str) -> Option<usize> {
        self.index
            .find(name, |i| self.names.get(i).map(String::as_str))
    }

    /// The set of the ids of `names` (each in the table).
    pub(super) fn set<'a>(&self, names: impl Iterator<Item = &'a str>) -> Bits {
        let mut set = Bits::new();
        for id in names.filter_map(|name| self.id(name)) {
            set.set(id);
        }
        set
    }
}

/// An `anyOf` / `oneOf` discriminator with the branches each tag admits found by one
/// lookup, instead of a test per branch ([`Admits::admits`]), when it has at most 64
/// branches: bit `i` of a mask stands for branch `i`.
#[derive(Debug, Clone)]
pub(super) struct Tags {
    /// The plan's discriminator.
    pub(super) of: Discriminator,
    /// The masks (`None` above 64 branches).
    masks: Option<Box<TagMasks>>,
}

/// The masks of [`Tags`].
#[derive(Debug, Clone)]
struct TagMasks {
    /// Every string some branch restricts the property to, each once.
    strings: Vec<String>,
    /// The index over `strings`.
    index: PropertyIndex,
    /// Per string, the branches restricting the property to strings that admit it.
    admitting: Vec<u64>,
    /// The branches that do not restrict the property to strings (they admit any value).
    unrestricted: u64,
    /// The branches that do not require the property.
    optional: u64,
}

impl Tags {
    pub(super) fn new(of: Discriminator) -> Tags {
        let masks = (of.branches.len() <= 64).then(|| {
            let bit = |i: usize| 1u64 << i;
            let mut strings: Vec<String> = (of.branches.iter())
                .flat_map(|admits| admits.values.iter().flatten().cloned())
                .collect();
            strings.sort_unstable();
            strings.dedup();
            let at = |s: &str| strings.binary_search_by(|v| v.as_str().cmp(s)).ok();
            let mut admitting = vec![0u64; strings.len()];
            let (mut unrestricted, mut optional) = (0, 0);
            for (i, admits) in of.branches.iter().enumerate() {
                match &admits.values {
                    Some(values) => {
                        (values.iter().filter_map(|v| at(v))).for_each(|at| admitting[at] |= bit(i))
                    }
                    None => unrestricted |= bit(i),
                }
                if !admits.required {
                    optional |= bit(i);
                }
            }
            let index = PropertyIndex::new(strings.iter().map(String::as_str));
            Box::new(TagMasks {
                strings,
                index,
                admitting,
                unrestricted,
                optional,
            })
        });
        Tags { of, masks }
    }

    /// The branches a value with tag `tag` may be valid against, as a mask; `None` when
    /// each branch is to be asked ([`Admits::admits`]): above 64 branches, or for a
    /// string with an escape.
    #[inline]
    pub(super) fn admitted(&self, tag: Tag<'_>) -> Option<u64> {
        let masks = self.masks.as_deref()?;
        Some(match tag {
            Tag::NotObject => u64::MAX,
            Tag::Absent => masks.optional,
            Tag::Str(s) => {
                let found = masks
                    .index
                    .find(s, |i| masks.strings.get(i).map(String::as_str));
                masks.unrestricted | found.map_or(0, |at| masks.admitting[at])
            }
            Tag::Escaped(_) => return None,
            Tag::Other => masks.unrestricted,
        })
    }
}

/// A large `enum`'s member table with an index over its strings: a string is found by
/// its head ([`PropertyIndex`]) instead of a binary search of byte comparisons. The
/// lookup charges what the table's does ([`EnumTable::str_units`]), as generated code,
/// which matches the strings inline, does.
#[derive(Debug)]
pub(super) struct EnumIndex {
    /// The table.
    pub(super) table: EnumTable,
    /// The index over [`EnumTable::strings`].
    strings: PropertyIndex,
}

impl EnumIndex {
    pub(super) fn new(table: EnumTable) -> EnumIndex {
        let strings = PropertyIndex::new(table.strings().iter().map(String::as_str));
        EnumIndex { table, strings }
    }

    /// Whether `s` is a string member.
    #[inline]
    pub(super) fn has_str(&self, s: &str) -> bool {
        let strings = self.table.strings();
        (self.strings)
            .find(s, |i| strings.get(i).map(String::as_str))
            .is_some()
    }
}
