//! The Pike VM: NFA simulation over a flat instruction table, with lookarounds as
//! position oracles.
//!
//! # Table format
//!
//! `insts` holds three `u32` words per instruction, `[op, a, b]`:
//!
//! | op | meaning |
//! |---|---|
//! | [`OP_CHAR`] | consume code point `a`, go to `b` |
//! | [`OP_CLASS`] | consume a code point in class `a`, go to `b` |
//! | [`OP_SPLIT`] | go to both `a` and `b` |
//! | [`OP_JMP`] | go to `a` |
//! | [`OP_ASSERT`] | if assertion `a` holds here, go to `b` (see [`ASSERT_START`] ...) |
//! | [`OP_MATCH`] | a match |
//!
//! Class `i` is the sorted inclusive ranges `ranges[2k], ranges[2k + 1]` for
//! `k` in `class_offsets[i] .. class_offsets[i + 1]`. Lookaround `k` is the sub-program
//! starting at `looks[2k]`, run backwards when bit 0 of `looks[2k + 1]` is set (a lookahead)
//! and forwards otherwise (a lookbehind); assertion `ASSERT_LOOK + 2k` holds where it
//! matches and `ASSERT_LOOK + 2k + 1` where it does not. A lookaround's body may only refer
//! to lookarounds with smaller numbers.

use alloc::vec;
use alloc::vec::Vec;

use super::syntax::is_word_char;

/// Consume one given code point.
pub const OP_CHAR: u32 = 0;
/// Consume one code point of a class.
pub const OP_CLASS: u32 = 1;
/// Fork.
pub const OP_SPLIT: u32 = 2;
/// Jump.
pub const OP_JMP: u32 = 3;
/// Zero-width assertion.
pub const OP_ASSERT: u32 = 4;
/// Match.
pub const OP_MATCH: u32 = 5;

/// `^`.
pub const ASSERT_START: u32 = 0;
/// `$`.
pub const ASSERT_END: u32 = 1;
/// `\b`.
pub const ASSERT_WORD_BOUNDARY: u32 = 2;
/// `\B`.
pub const ASSERT_NOT_WORD_BOUNDARY: u32 = 3;
/// Lookaround `k` holds: `ASSERT_LOOK + 2k`; does not hold: `ASSERT_LOOK + 2k + 1`.
pub const ASSERT_LOOK: u32 = 4;

/// A Pike VM program over borrowed tables (see the module doc for the format).
#[derive(Debug, Clone, Copy)]
pub struct Program<'a> {
    insts: &'a [u32],
    class_offsets: &'a [u32],
    ranges: &'a [u32],
    looks: &'a [u32],
    start: u32,
    anchored: bool,
}

/// Where the VM stands: the characters on either side and the lookaround marks.
struct Ctx<'m> {
    pos: usize,
    len: usize,
    before: Option<char>,
    after: Option<char>,
    marks: &'m [u64],
    stride: usize,
}

/// A set of instruction indices with O(1) insert, membership and clear.
struct SparseSet {
    dense: Vec<u32>,
    sparse: Vec<u32>,
}

impl SparseSet {
    fn new(n: usize) -> Self {
        SparseSet {
            dense: Vec::with_capacity(n),
            sparse: vec![0; n],
        }
    }

    fn insert(&mut self, v: u32) -> bool {
        let Some(slot) = self.sparse.get_mut(v as usize) else {
            return false;
        };
        if self.dense.get(*slot as usize) == Some(&v) {
            return false;
        }
        *slot = self.dense.len() as u32;
        self.dense.push(v);
        true
    }

    fn clear(&mut self) {
        self.dense.clear();
    }
}

impl<'a> Program<'a> {
    /// Assembles a program. `anchored` promises that every match starts at offset 0 (the
    /// pattern begins with `^`), which lets the search stop as soon as no thread is left.
    pub const fn new(
        insts: &'a [u32],
        class_offsets: &'a [u32],
        ranges: &'a [u32],
        looks: &'a [u32],
        start: u32,
        anchored: bool,
    ) -> Self {
        Program {
            insts,
            class_offsets,
            ranges,
            looks,
            start,
            anchored,
        }
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.insts.len() / 3
    }

    /// Whether the program has no instructions.
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    fn inst(&self, pc: u32) -> (u32, u32, u32) {
        let i = pc as usize * 3;
        match self.insts.get(i..i + 3) {
            Some(w) => (w[0], w[1], w[2]),
            // Out-of-range pcs (only from corrupt tables) are dead ends.
            None => (u32::MAX, 0, 0),
        }
    }

    fn class_contains(&self, class: u32, c: u32) -> bool {
        let (Some(&lo), Some(&hi)) = (
            self.class_offsets.get(class as usize),
            self.class_offsets.get(class as usize + 1),
        ) else {
            return false;
        };
        let Some(ranges) = self.ranges.get(lo as usize * 2..hi as usize * 2) else {
            return false;
        };
        // Binary search over the pairs.
        let (mut a, mut b) = (0usize, ranges.len() / 2);
        while a < b {
            let m = (a + b) / 2;
            if c < ranges[2 * m] {
                b = m;
            } else if c > ranges[2 * m + 1] {
                a = m + 1;
            } else {
                return true;
            }
        }
        false
    }

    fn holds(&self, kind: u32, ctx: &Ctx<'_>) -> bool {
        match kind {
            ASSERT_START => ctx.pos == 0,
            ASSERT_END => ctx.pos == ctx.len,
            ASSERT_WORD_BOUNDARY | ASSERT_NOT_WORD_BOUNDARY => {
                let b = ctx.before.is_some_and(is_word_char) != ctx.after.is_some_and(is_word_char);
                b == (kind == ASSERT_WORD_BOUNDARY)
            }
            _ => {
                let k = ((kind - ASSERT_LOOK) / 2) as usize;
                let want = (kind - ASSERT_LOOK) % 2 == 0;
                let word = k * ctx.stride + ctx.pos / 64;
                let bit = ctx
                    .marks
                    .get(word)
                    .is_some_and(|w| (w >> (ctx.pos % 64)) & 1 == 1);
                bit == want
            }
        }
    }

    /// Runs the ε-closure of everything on `lists.stack` at `ctx`: visited instructions go
    /// to `lists.current`, consuming ones also to `lists.runq`. Returns whether a match is
    /// reached.
    fn close(&self, lists: &mut Lists, ctx: &Ctx<'_>) -> bool {
        let mut matched = false;
        while let Some(pc) = lists.stack.pop() {
            if !lists.current.insert(pc) {
                continue;
            }
            let (op, a, b) = self.inst(pc);
            match op {
                OP_CHAR | OP_CLASS => lists.runq.push(pc),
                OP_SPLIT => {
                    lists.stack.push(b);
                    lists.stack.push(a);
                }
                OP_JMP => lists.stack.push(a),
                OP_ASSERT if self.holds(a, ctx) => lists.stack.push(b),
                OP_MATCH => matched = true,
                _ => {}
            }
        }
        matched
    }

    /// One pass of the sub-program at `start` over `hay`, forwards or backwards, with
    /// unanchored starts unless `anchored`. `report(pos, matched)` is called at each position
    /// in scan order and stops the pass by returning `true`.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &self,
        hay: &str,
        start: u32,
        reverse: bool,
        anchored: bool,
        marks: &[u64],
        stride: usize,
        lists: &mut Lists,
        mut report: impl FnMut(usize, bool) -> bool,
    ) {
        let len = hay.len();
        let origin = if reverse { len } else { 0 };
        let mut pos = origin;
        let mut before = if reverse {
            hay.chars().next_back()
        } else {
            None
        };
        let mut after = if reverse { None } else { hay.chars().next() };
        lists.targets.clear();
        loop {
            let ctx = Ctx {
                pos,
                len,
                before,
                after,
                marks,
                stride,
            };
            lists.current.clear();
            lists.runq.clear();
            lists.stack.clear();
            if !anchored || pos == origin {
                lists.stack.push(start);
            }
            // Targets pushed last are closed first: earlier threads keep priority (which
            // does not matter for a yes/no answer, but keeps the order stable).
            lists.stack.extend(lists.targets.dense.iter().rev());
            let matched = self.close(lists, &ctx);
            if report(pos, matched) {
                return;
            }
            lists.targets.clear();
            let next = if reverse { before } else { after };
            let Some(c) = next else { return };
            let cp = c as u32;
            for &pc in &lists.runq {
                let (op, a, b) = self.inst(pc);
                let hit = match op {
                    OP_CHAR => a == cp,
                    _ => self.class_contains(a, cp),
                };
                if hit {
                    lists.targets.insert(b);
                }
            }
            if anchored && lists.targets.dense.is_empty() {
                return;
            }
            if reverse {
                pos -= c.len_utf8();
                after = before;
                before = hay[..pos].chars().next_back();
            } else {
                pos += c.len_utf8();
                before = after;
                after = hay[pos..].chars().next();
            }
        }
    }

    /// Whether the program matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> bool {
        let n = self.len();
        let mut lists = Lists {
            current: SparseSet::new(n),
            targets: SparseSet::new(n),
            runq: Vec::with_capacity(n),
            stack: Vec::with_capacity(n),
        };
        let nlooks = self.looks.len() / 2;
        let stride = if nlooks == 0 {
            0
        } else {
            haystack.len() / 64 + 1
        };
        let mut marks = vec![0u64; nlooks * stride];
        for k in 0..nlooks {
            let start = self.looks[2 * k];
            let reverse = self.looks[2 * k + 1] & 1 == 1;
            let mut mine = vec![0u64; stride];
            self.pass(
                haystack,
                start,
                reverse,
                false,
                &marks,
                stride,
                &mut lists,
                |pos, m| {
                    if m {
                        mine[pos / 64] |= 1 << (pos % 64);
                    }
                    false
                },
            );
            marks[k * stride..(k + 1) * stride].copy_from_slice(&mine);
        }
        let mut found = false;
        self.pass(
            haystack,
            self.start,
            false,
            self.anchored,
            &marks,
            stride,
            &mut lists,
            |_, m| {
                found = m;
                m
            },
        );
        found
    }
}

/// The VM's scratch: thread lists and the closure stack.
struct Lists {
    current: SparseSet,
    targets: SparseSet,
    runq: Vec<u32>,
    stack: Vec<u32>,
}
