//! Fast paths: patterns simple enough to decide (or reject) without an automaton.
//!
//! The compiler recognizes them from the pattern's syntax tree and hands them over as plain
//! data (`&'static str`, arrays) that generated code holds in its `static` regex and the
//! interpreter borrows, next to the automata. [`Regex::is_match`](super::Regex::is_match)
//! consults them first.

use super::pikevm::ranges_contain;
use crate::error::IncompleteReason;
use crate::limits::Budget;

/// A pattern's fast path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastPath<'a> {
    /// The whole pattern is a literal string, optionally anchored: `abc` (substring
    /// search), `^abc` (prefix), `abc$` (suffix), `^abc$` (equality). Decides the match.
    Literal {
        /// The literal.
        text: &'a str,
        /// The pattern starts with `^`.
        start: bool,
        /// The pattern ends with `$`.
        end: bool,
    },
    /// The pattern starts with `^` and a literal, and goes on with something else
    /// (`^abc[0-9]+`): an input that does not start with the literal is rejected at once;
    /// one that does is left to the automaton.
    Prefix(&'a str),
    /// The pattern starts with `^` and a code point of a set (`^[a-z]+_\d+$`,
    /// `^(get|put)_`): an input whose first byte cannot start one is rejected at once;
    /// the others are left to the automaton.
    Leading {
        /// ASCII members: bit `c % 64` of `ascii[c / 64]`.
        ascii: [u64; 2],
        /// Whether the set has members from `0x80` on (an input starting with one is
        /// left to the automaton).
        non_ascii: bool,
    },
    /// The whole pattern is one class repeated, optionally anchored: `^[a-z0-9_-]+$`,
    /// `^[A-Za-z0-9_-]{1,64}$`, `\d{4}`. Decides the match.
    ClassRun(ClassRun<'a>),
    /// The pattern is `^`, optionally a choice of literals none of which starts another
    /// (`(get|put|post)`), and a sequence of runs of ASCII sets, optionally ending with `$`
    /// (`^[a-z]+_[0-9]{1,4}$`, `^x-[a-z][a-z0-9-]*$`, `^\d{4}-\d{2}`,
    /// `^(get|put)_[a-z]+$`), where every run of varying length is the last or is followed
    /// by a run, required, of a set disjoint from its own, so that taking each run as long
    /// as it goes finds a match if there is one. Decides the match.
    AsciiRuns {
        /// The literals the input must start with one of (none when empty).
        head: Choice<'a>,
        /// The runs, in order.
        runs: &'a [AsciiRun],
        /// The pattern ends with `$`.
        end: bool,
    },
}

/// A choice of literals, none a prefix of another (so at most one starts an input): one
/// text and where each literal ends in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice<'a> {
    text: &'a str,
    ends: &'a [u32],
}

impl<'a> Choice<'a> {
    /// No literal.
    pub const NONE: Choice<'static> = Choice {
        text: "",
        ends: &[],
    };

    /// The literals `text[0..ends[0]]`, `text[ends[0]..ends[1]]`, and so on.
    pub const fn new(text: &'a str, ends: &'a [u32]) -> Self {
        Choice { text, ends }
    }

    /// The length of the literal that `bytes` starts with, if any.
    // Always inlined: on a `static` regex the number of literals and each literal are
    // constants, so the loop unrolls into comparisons of words.
    #[inline(always)]
    fn length_at_start(&self, bytes: &[u8]) -> Option<usize> {
        let text = self.text.as_bytes();
        let mut start = 0;
        for &end in self.ends {
            let end = end as usize;
            let literal = text.get(start..end).unwrap_or_default();
            // The first byte first: most inputs start with none of the literals.
            if literal.first() == bytes.first() && bytes.starts_with(literal) {
                return Some(literal.len());
            }
            start = end;
        }
        None
    }
}

/// One run of [`FastPath::AsciiRuns`]: `[set]{min,max}` for a set of ASCII characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsciiRun {
    ascii: [u64; 2],
    /// The set by byte, built from `ascii` at compile time: one load per byte tested.
    members: ByteSet,
    min: u32,
    max: u32,
}

impl AsciiRun {
    /// At least `min` and at most `max` (`u32::MAX`: unbounded) characters `c` with bit
    /// `c % 64` of `ascii[c / 64]` set.
    pub const fn new(ascii: [u64; 2], min: u32, max: u32) -> Self {
        AsciiRun {
            ascii,
            members: ByteSet::of_ascii(ascii),
            min,
            max,
        }
    }

    /// The ASCII bitmap.
    pub fn ascii(&self) -> [u64; 2] {
        self.ascii
    }

    /// Least and most repetitions (`u32::MAX`: unbounded).
    pub fn bounds(&self) -> (u32, u32) {
        (self.min, self.max)
    }
}

/// Whether `haystack` starts with one of the literals of `head` (when there are any) and
/// then `runs`, each taken as long as it goes (see [`FastPath::AsciiRuns`]), and, under
/// `end`, has nothing after them.
// Always inlined: on a `static` regex the runs become constants.
#[inline(always)]
fn ascii_runs_match(head: Choice<'_>, runs: &[AsciiRun], end: bool, haystack: &str) -> bool {
    let bytes = haystack.as_bytes();
    let mut i = 0usize;
    if !head.ends.is_empty() {
        match head.length_at_start(bytes) {
            Some(n) => i = n,
            None => return false,
        }
    }
    for run in runs {
        let from = i;
        let limit = bytes.len().min(from.saturating_add(run.max as usize));
        while i < limit && run.members.contains(bytes[i]) {
            i += 1;
        }
        if i - from < run.min as usize {
            return false;
        }
    }
    !end || i == bytes.len()
}

/// `[set]{min,max}`, optionally anchored at either end: a bitmap for ASCII and sorted
/// ranges for the rest, checked in one loop over the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassRun<'a> {
    ascii: [u64; 2],
    ranges: &'a [u32],
    min: u32,
    max: u32,
    start: bool,
    end: bool,
}

impl<'a> ClassRun<'a> {
    /// A run of at least `min` and at most `max` (`u32::MAX`: unbounded) code points of a
    /// set: bit `c % 64` of `ascii[c / 64]` for ASCII `c`, and the sorted inclusive pairs
    /// `ranges[2k], ranges[2k + 1]` for the code points from `0x80` on. `start` / `end`:
    /// the pattern is anchored by `^` / `$`.
    pub const fn new(
        ascii: [u64; 2],
        ranges: &'a [u32],
        min: u32,
        max: u32,
        start: bool,
        end: bool,
    ) -> Self {
        ClassRun {
            ascii,
            ranges,
            min,
            max,
            start,
            end,
        }
    }

    /// The ASCII bitmap.
    pub fn ascii(&self) -> [u64; 2] {
        self.ascii
    }

    /// The non-ASCII ranges, as flat inclusive pairs.
    pub fn ranges(&self) -> &'a [u32] {
        self.ranges
    }

    /// Least and most repetitions (`u32::MAX`: unbounded).
    pub fn bounds(&self) -> (u32, u32) {
        (self.min, self.max)
    }

    /// Whether the run is anchored at the start / end of the input.
    pub fn anchors(&self) -> (bool, bool) {
        (self.start, self.end)
    }

    #[inline]
    fn contains(&self, c: char) -> bool {
        let c = c as u32;
        if c < 0x80 {
            ascii_member(&self.ascii, c as u8)
        } else {
            ranges_contain(self.ranges, c)
        }
    }

    /// Whether the input matches: for `^…$` every code point is in the set and their
    /// number is within bounds; for `^…` / `…$` the leading / trailing run is at least
    /// `min` long (a longer one has a match of `min` within it); unanchored, some run is.
    // Always inlined: on a `static` regex the set and the bounds become constants.
    #[inline(always)]
    pub fn is_match(&self, haystack: &str) -> bool {
        let min = self.min as usize;
        match (self.start, self.end) {
            (true, true) => {
                let max = self.max as usize;
                let bytes = haystack.as_bytes();
                if self.ranges.is_empty() {
                    // An ASCII set: a match is one byte per code point.
                    return (min..=max).contains(&bytes.len())
                        && bytes.iter().all(|&b| ascii_member(&self.ascii, b));
                }
                // Each code point is at least one byte.
                if min > bytes.len() {
                    return false;
                }
                // The ASCII head byte by byte, then the rest by code point.
                let mut i = 0;
                while let Some(&b) = bytes.get(i) {
                    if b >= 0x80 {
                        break;
                    }
                    if !ascii_member(&self.ascii, b) {
                        return false;
                    }
                    i += 1;
                }
                let mut count = i;
                if count > max {
                    return false;
                }
                // `i` is a character boundary: everything before it is ASCII.
                for c in haystack.get(i..).unwrap_or("").chars() {
                    count += 1;
                    if count > max || !self.contains(c) {
                        return false;
                    }
                }
                count >= min
            }
            _ if min == 0 => true,
            // An ASCII set: the first / last `min` bytes (a byte of a code point beyond
            // ASCII is never a member).
            (true, false) if self.ranges.is_empty() => haystack
                .as_bytes()
                .get(..min)
                .is_some_and(|head| head.iter().all(|&b| ascii_member(&self.ascii, b))),
            (false, true) if self.ranges.is_empty() => {
                haystack.len().checked_sub(min).is_some_and(|from| {
                    haystack.as_bytes()[from..]
                        .iter()
                        .all(|&b| ascii_member(&self.ascii, b))
                })
            }
            (true, false) => {
                haystack
                    .chars()
                    .take(min)
                    .filter(|&c| self.contains(c))
                    .count()
                    == min
            }
            (false, true) => {
                haystack
                    .chars()
                    .rev()
                    .take(min)
                    .filter(|&c| self.contains(c))
                    .count()
                    == min
            }
            (false, false) => {
                let mut run = 0usize;
                for c in haystack.chars() {
                    if self.contains(c) {
                        run += 1;
                        if run >= min {
                            return true;
                        }
                    } else {
                        run = 0;
                    }
                }
                false
            }
        }
    }
}

/// A set of bytes as a table by byte.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ByteSet([bool; 256]);

impl ByteSet {
    /// The members of the ASCII bitmap `ascii` (see [`ascii_member`]).
    const fn of_ascii(ascii: [u64; 2]) -> ByteSet {
        let mut members = [false; 256];
        let mut b = 0;
        while b < 0x80 {
            members[b] = (ascii[b / 64] >> (b % 64)) & 1 == 1;
            b += 1;
        }
        ByteSet(members)
    }

    /// Whether `b` is a member.
    #[inline(always)]
    fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b)]
    }
}

impl core::fmt::Debug for ByteSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let members = (0..=255u8).filter(|&b| self.contains(b)).map(char::from);
        f.debug_set().entries(members).finish()
    }
}

/// Whether byte `b` is a member of the ASCII bitmap `ascii` (bit `b % 64` of
/// `ascii[b / 64]`); never for `b >= 0x80`, which starts or continues a code point beyond
/// ASCII.
#[inline(always)]
fn ascii_member(ascii: &[u64; 2], b: u8) -> bool {
    b < 0x80 && (ascii[usize::from(b >> 6) & 1] >> (b & 63)) & 1 == 1
}

impl FastPath<'_> {
    /// `Some(answer)` when the fast path decides, `None` when the automaton must.
    // Always inlined, as `decide_budgeted`: on a `static` regex the compiler keeps only
    // the pattern's own kind, with its bounds and set as constants.
    #[inline(always)]
    pub fn decide(&self, haystack: &str) -> Option<bool> {
        match *self {
            FastPath::Literal { text, start, end } => Some(match (start, end) {
                (false, false) => haystack.contains(text),
                (true, false) => haystack.starts_with(text),
                (false, true) => haystack.ends_with(text),
                (true, true) => haystack == text,
            }),
            FastPath::Prefix(text) => (!haystack.starts_with(text)).then_some(false),
            FastPath::Leading { ascii, non_ascii } => {
                let may_start = match haystack.as_bytes().first() {
                    None => false,
                    Some(&b) if b < 0x80 => ascii_member(&ascii, b),
                    Some(_) => non_ascii,
                };
                (!may_start).then_some(false)
            }
            FastPath::ClassRun(run) => Some(run.is_match(haystack)),
            FastPath::AsciiRuns { head, runs, end } => {
                Some(ascii_runs_match(head, runs, end, haystack))
            }
        }
    }

    /// [`FastPath::decide`] with its work charged to `budget` as
    /// [`super::Regex::is_match_budgeted`] charges it (one unit per
    /// [`super::STEPS_PER_UNIT`] input bytes, at least one); `None`, with nothing charged,
    /// when the automaton must decide.
    #[inline(always)]
    pub fn decide_budgeted(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Option<Result<bool, IncompleteReason>> {
        let answer = self.decide(haystack)?;
        Some(
            budget
                .charge(super::units(haystack.len() as u64))
                .map(|()| answer),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{ascii_member, ByteSet};

    #[test]
    fn a_byte_set_holds_the_bitmap_members_and_nothing_from_0x80() {
        let lower = [0, 0x07FF_FFFE << 32];
        let digits_and_dash = [0x03FF_2000_0000_0000, 0];
        for ascii in [lower, digits_and_dash, [u64::MAX; 2], [0; 2]] {
            let set = ByteSet::of_ascii(ascii);
            for b in 0..=255u8 {
                assert_eq!(set.contains(b), ascii_member(&ascii, b), "{ascii:x?} {b}");
            }
        }
        assert!(ByteSet::of_ascii(lower).contains(b'q'));
        assert!(!ByteSet::of_ascii(lower).contains(b'Q'));
        assert!(!ByteSet::of_ascii([u64::MAX; 2]).contains(0x80));
    }
}
