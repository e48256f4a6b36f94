//! The DFA runner: one table lookup per input character, no allocation.
//!
//! # Table format
//!
//! The alphabet is a partition of the code points into classes. `ascii[b]` is the class of
//! ASCII byte `b` (128 entries; the compiler numbers classes in code-point order, so
//! ASCII's fit a byte); a non-ASCII code point `c` has class `bound_classes[i]`
//! for the last `i` with `bounds[i] <= c` (`bounds[0]` is `0x80`). States are numbered
//! `0, 1, 2, ...` and stored premultiplied: state `s` is the row offset `s * classes`, and
//! on class `k` goes to `trans[s * classes + k]`, itself a row offset. `trans` is a
//! [`Words`] table (1 to 4 bytes per entry, the narrowest that holds the largest
//! offset), which generated code embeds as a byte string. State 0 is dead (no
//! match can follow) and state 1 is a match (the search is over): both are absorbing.
//! `accept_end[s]` is 1 when the input may end in state `s` (a pattern ending in `$`
//! reaches its match only there); `start` is the initial state's number.

use super::words::{Width, Words, W1, W2, W3, W4};
use crate::error::IncompleteReason;
use crate::limits::Budget;

/// The dead state.
pub const DEAD: u16 = 0;
/// The match state.
pub const MATCH: u16 = 1;

/// A DFA over borrowed tables (see the module doc for the format).
#[derive(Debug, Clone, Copy)]
pub struct Dfa<'a> {
    ascii: &'a [u8; 128],
    bounds: Words<'a>,
    bound_classes: Words<'a>,
    classes: u32,
    trans: Words<'a>,
    accept_end: &'a [u8],
    start: u16,
}

impl<'a> Dfa<'a> {
    /// Assembles a DFA from its tables.
    pub const fn new(
        ascii: &'a [u8; 128],
        bounds: Words<'a>,
        bound_classes: Words<'a>,
        classes: u32,
        trans: Words<'a>,
        accept_end: &'a [u8],
        start: u16,
    ) -> Self {
        Dfa {
            ascii,
            bounds,
            bound_classes,
            classes,
            trans,
            accept_end,
            start,
        }
    }

    /// Number of states (including the dead and match states).
    pub fn states(&self) -> usize {
        if self.classes == 0 {
            0
        } else {
            self.trans.len() / self.classes as usize
        }
    }

    #[inline]
    fn class_of_non_ascii(&self, c: u32) -> u32 {
        // The number of bounds at or below `c`.
        let (mut a, mut b) = (0, self.bounds.len());
        while a < b {
            let m = a + (b - a) / 2;
            if self.bounds.get(m).is_some_and(|x| x <= c) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        match a.checked_sub(1) {
            Some(i) => self.bound_classes.get(i).unwrap_or(0),
            None => 0,
        }
    }

    /// [`Dfa::is_match`], charged to `budget` as [`super::Regex::is_match_budgeted`]
    /// charges the DFA: one step per input byte, up front.
    #[inline]
    pub fn is_match_budgeted(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        budget.charge(super::units(haystack.len() as u64))?;
        Ok(self.is_match(haystack))
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> bool {
        match self.trans.width() {
            1 => self.run::<W1>(haystack),
            2 => self.run::<W2>(haystack),
            3 => self.run::<W3>(haystack),
            _ => self.run::<W4>(haystack),
        }
    }

    /// The search, specialized to the width of `trans`.
    #[inline(always)]
    fn run<W: Width>(&self, haystack: &str) -> bool {
        let bytes = haystack.as_bytes();
        let classes = self.classes as usize;
        if u32::from(self.start) <= u32::from(MATCH) {
            return self.start == MATCH;
        }
        // Row offsets: dead is 0, match is `classes`, live states are above.
        let match_row = classes;
        let mut s = self.start as usize * classes;
        let trans = self.trans.bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let class = if b < 0x80 {
                i += 1;
                u32::from(self.ascii[b as usize])
            } else {
                let (c, w) = decode(bytes, i);
                i += w;
                self.class_of_non_ascii(c)
            };
            s = match W::read(trans, s + class as usize) {
                Some(t) => t as usize,
                None => return false,
            };
            if s <= match_row {
                return s == match_row && classes != 0;
            }
        }
        let state = s.checked_div(classes).unwrap_or(0);
        self.accept_end.get(state).is_some_and(|&a| a != 0)
    }
}

/// Decodes the multi-byte UTF-8 sequence at `i` (the input is a `str`, so it is valid).
#[inline]
fn decode(bytes: &[u8], i: usize) -> (u32, usize) {
    let b0 = u32::from(bytes[i]);
    let cont = |k: usize| u32::from(bytes.get(i + k).copied().unwrap_or(0x80) & 0x3F);
    if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | cont(1), 2)
    } else if b0 < 0xF0 {
        (((b0 & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (
            ((b0 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
            4,
        )
    }
}
