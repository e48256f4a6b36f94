//! A schema object's members, for lowering: each object is asked for some forty
//! keywords and holds a few, so a 64-bit filter of the names it holds answers "absent"
//! for most of them without searching the map.

use serde_json::{Map, Value};

/// A schema object with a filter of its member names.
#[derive(Clone, Copy)]
pub(crate) struct Members<'v> {
    map: &'v Map<String, Value>,
    /// Bit [`slot`] of each member's name.
    filter: u64,
}

impl<'v> Members<'v> {
    /// The members of `map`.
    pub fn new(map: &'v Map<String, Value>) -> Members<'v> {
        let filter = map.keys().fold(0, |filter, name| filter | 1 << slot(name));
        Members { map, filter }
    }

    /// The value of member `name`, if the object has one.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&'v Value> {
        if self.filter & 1 << slot(name) == 0 {
            return None;
        }
        self.map.get(name)
    }

    /// Whether the object has a member `name`.
    #[inline]
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The object itself.
    pub fn map(&self) -> &'v Map<String, Value> {
        self.map
    }
}

/// The filter bit of `name`: a hash of its length and its first, middle and last bytes,
/// so that for a keyword written in the source it is a constant once inlined. (The
/// multipliers were picked among random odd ones to spread the dialects' 63 keywords over
/// 47 bits, the 35 most used over 32: a lookup of an absent keyword searches the map
/// only when a member shares its bit.)
#[inline]
fn slot(name: &str) -> u32 {
    let bytes = name.as_bytes();
    let at = |i: usize| u32::from(bytes.get(i).copied().unwrap_or(0));
    let mixed = (bytes.len() as u32)
        .wrapping_mul(0x9B6D_4EB5)
        .wrapping_add(at(0).wrapping_mul(0x0544_152F))
        .wrapping_add(at(bytes.len() / 2).wrapping_mul(0x1815_F07D))
        .wrapping_add(at(bytes.len().wrapping_sub(1)).wrapping_mul(0x0898_A37F));
    mixed.wrapping_mul(0x3463_88D1) >> 26
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::keywords;

    #[test]
    fn finds_every_member_and_nothing_else() {
        let names: Vec<&str> = keywords::all_keywords()
            .chain(["", "x", "ab", "custom-keyword", "$comment"])
            .collect();
        for (i, present) in names.iter().enumerate() {
            let map: Map<String, Value> = names
                .iter()
                .skip(i % 3)
                .step_by(3)
                .map(|n| (n.to_string(), Value::from(*n)))
                .collect();
            let members = Members::new(&map);
            for name in &names {
                assert_eq!(members.get(name), map.get(*name), "{name:?} in {map:?}");
            }
            assert_eq!(members.contains_key(present), map.contains_key(*present));
        }
    }

    #[test]
    fn most_keywords_fall_on_different_bits() {
        let mut names: Vec<&str> = keywords::all_keywords().collect();
        names.sort_unstable();
        names.dedup();
        let bits: std::collections::BTreeSet<u32> = names.iter().map(|n| slot(n)).collect();
        // Sixty-four bits for 63 keywords: 47 taken (random bits would take about 40).
        assert!(
            bits.len() >= 47,
            "{} bits for {} names",
            bits.len(),
            names.len()
        );
    }
}
