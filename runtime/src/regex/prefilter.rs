//! A prefilter over a list of patterns (`patternProperties`, the patterns
//! `additionalProperties` skips): which patterns can match a key, from the literal each
//! must start with.
//!
//! A pattern whose fast path is an anchored literal (`^x-`, `^foo$`) or an anchored literal
//! prefix (`^abc[0-9]+`) can only match a key that starts with that literal. The set keeps
//! those literals sorted; a key is looked up once per distinct literal length (a binary
//! search each), so that 5,000 `^prefix` patterns cost a few comparisons per key instead of
//! 5,000 matches. Patterns without such a literal are always candidates. The caller runs the
//! real match on each candidate, in pattern order.

use alloc::vec::Vec;

use crate::error::IncompleteReason;
use crate::limits::Budget;

/// The literal starts of a list of patterns, over borrowed tables (static in generated
/// code, owned by the compiler's `PatternSet` otherwise).
#[derive(Debug, Clone, Copy)]
pub struct PrefixSet<'a> {
    /// The distinct literals, sorted, concatenated.
    text: &'a str,
    /// Literal `i` is `text[bounds[i]..bounds[i + 1]]`.
    bounds: &'a [u32],
    /// The patterns with literal `i` are `patterns[offsets[i]..offsets[i + 1]]`.
    offsets: &'a [u32],
    patterns: &'a [u32],
    /// The distinct literal lengths in bytes, ascending.
    lengths: &'a [u32],
    /// The patterns without a literal start, ascending.
    always: &'a [u32],
}

impl<'a> PrefixSet<'a> {
    /// Assembles a set from its tables (see the field docs in the source; the compiler
    /// builds them).
    pub const fn new(
        text: &'a str,
        bounds: &'a [u32],
        offsets: &'a [u32],
        patterns: &'a [u32],
        lengths: &'a [u32],
        always: &'a [u32],
    ) -> Self {
        PrefixSet {
            text,
            bounds,
            offsets,
            patterns,
            lengths,
            always,
        }
    }

    /// Number of patterns that are candidates for every key.
    pub fn always_tried(&self) -> usize {
        self.always.len()
    }

    /// The work of one lookup, in regex steps (see [`super::STEPS_PER_UNIT`]): one per key
    /// byte and one per distinct literal length.
    pub fn steps(&self, key: &str) -> u64 {
        key.len() as u64 + self.lengths.len() as u64
    }

    fn literal(&self, i: usize) -> &'a str {
        let (Some(&a), Some(&b)) = (self.bounds.get(i), self.bounds.get(i + 1)) else {
            return "";
        };
        self.text.get(a as usize..b as usize).unwrap_or("")
    }

    /// [`PrefixSet::candidates`], the lookup charged to `budget` (one unit per
    /// [`super::STEPS_PER_UNIT`] of [`PrefixSet::steps`], at least one).
    pub fn candidates_budgeted(
        &self,
        key: &str,
        budget: &mut Budget,
    ) -> Result<Candidates<'a>, IncompleteReason> {
        budget.charge(super::units(self.steps(key)))?;
        Ok(self.candidates(key))
    }

    /// The patterns that may match `key`, ascending (the others cannot). Allocates nothing
    /// unless more than [`Candidates::LISTS`]` - 1` distinct literals start the key.
    pub fn candidates(&self, key: &str) -> Candidates<'a> {
        let mut out = Candidates {
            lists: [&[]; Candidates::LISTS],
            spilled: None,
        };
        out.lists[0] = self.always;
        let groups = self.lengths.iter().filter_map(|&len| self.group(key, len));
        for (used, group) in (1..).zip(groups) {
            match out.lists.get_mut(used) {
                Some(list) => *list = group,
                None => {
                    let groups = self.lengths.iter().filter_map(|&len| self.group(key, len));
                    return Candidates::spill(core::iter::once(self.always).chain(groups));
                }
            }
        }
        out
    }

    /// The patterns whose literal is the first `len` bytes of `key` (ascending).
    fn group(&self, key: &str, len: u32) -> Option<&'a [u32]> {
        let head = key.get(..len as usize)?;
        // Binary search for `head` among the literals.
        let n = self.bounds.len().saturating_sub(1);
        let (mut a, mut b) = (0, n);
        while a < b {
            let m = a + (b - a) / 2;
            if self.literal(m) < head {
                a = m + 1;
            } else {
                b = m;
            }
        }
        if a == n || self.literal(a) != head {
            return None;
        }
        let (from, to) = (*self.offsets.get(a)?, *self.offsets.get(a + 1)?);
        self.patterns.get(from as usize..to as usize)
    }
}

/// The candidates of one key ([`PrefixSet::candidates`]), ascending: a merge of the
/// patterns without a literal start and the group of each literal that starts the key
/// (disjoint, each ascending).
#[derive(Debug, Clone)]
pub struct Candidates<'a> {
    /// The lists still to merge (empty ones are done).
    lists: [&'a [u32]; Candidates::LISTS],
    /// All candidates, sorted, when more lists matched than `lists` holds.
    spilled: Option<alloc::vec::IntoIter<u32>>,
}

impl<'a> Candidates<'a> {
    /// How many lists are merged without allocating: the patterns without a literal
    /// start, and up to seven literal groups (one per distinct literal length that
    /// starts the key).
    pub const LISTS: usize = 8;

    fn spill(lists: impl Iterator<Item = &'a [u32]>) -> Candidates<'a> {
        let mut all: Vec<u32> = lists.flatten().copied().collect();
        all.sort_unstable();
        Candidates {
            lists: [&[]; Candidates::LISTS],
            spilled: Some(all.into_iter()),
        }
    }
}

impl Iterator for Candidates<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if let Some(spilled) = &mut self.spilled {
            return spilled.next();
        }
        let mut best: Option<(usize, u32)> = None;
        for (i, list) in self.lists.iter().enumerate() {
            if let Some(&head) = list.first() {
                if best.is_none_or(|(_, b)| head < b) {
                    best = Some((i, head));
                }
            }
        }
        let (i, head) = best?;
        self.lists[i] = &self.lists[i][1..];
        Some(head)
    }
}
