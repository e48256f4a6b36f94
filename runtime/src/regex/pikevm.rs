//! The Pike VM: NFA simulation over a flat instruction table, with lookarounds as
//! position oracles.
//!
//! # Table format
//!
//! Instruction `pc` is `[op, a, b]`: `ops[pc]` (one byte) and the two words
//! `args[2 pc], args[2 pc + 1]` (a [`Words`] table: little-endian bytes, so that generated
//! code embeds both as byte strings):
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
//! `k` in `class_offsets[i] .. class_offsets[i + 1]` (both [`Words`] tables too).
//! Lookaround `k` is the sub-program starting at `looks[2k]`, run backwards when bit 0 of `looks[2k + 1]` is set (a lookahead)
//! and forwards otherwise (a lookbehind); assertion `ASSERT_LOOK + 2k` holds where it
//! matches and `ASSERT_LOOK + 2k + 1` where it does not. A lookaround's body may only refer
//! to lookarounds with smaller numbers.

use alloc::vec;

use super::syntax::is_word_char;
use super::words::Words;
use crate::error::IncompleteReason;
use crate::limits::Budget;

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
    ops: &'a [u8],
    args: Words<'a>,
    class_offsets: Words<'a>,
    ranges: Words<'a>,
    looks: &'a [u32],
    start: u32,
    anchored: bool,
}

/// Programs of at most this many instructions run on scratch space held on the stack
/// (1.25 KiB); no allocation.
pub const SMALL_PROGRAM: usize = 64;
/// Programs of at most this many instructions run on scratch space held on the stack
/// (5 KiB up to half as many, 10 KiB above); larger ones allocate theirs once per call.
pub const MEDIUM_PROGRAM: usize = 512;
/// Lookaround marks of up to this many 64-bit words (one bit per input byte and
/// lookaround, e.g. one lookaround over 4 KiB of input) live on the stack; more are
/// allocated once per call.
pub const STACK_MARK_WORDS: usize = 64;

/// Words of scratch per instruction.
const SCRATCH_WORDS: usize = 5;

/// Where the VM stands: the characters on either side and the lookaround marks.
struct Ctx<'m> {
    pos: usize,
    len: usize,
    before: Option<char>,
    after: Option<char>,
    marks: &'m [u64],
    stride: usize,
}

/// Which assertions an ε-closure evaluated: what its result depends on besides its seeds.
#[derive(Clone, Copy, Default)]
struct Depends {
    /// `^` (holds only at offset 0).
    start: bool,
    /// `$` (holds only at the end).
    end: bool,
    /// `\b`, `\B` or a lookaround (depend on the characters or the marks).
    other: bool,
}

/// The VM's scratch, five slices of `n` words (`n` = instruction count):
///
/// - `seen[pc] == gen`: `pc` was reached at the current position (a generation stamp, so
///   moving on costs nothing instead of a clear);
/// - `stack`: the ε-closure work list (each pc is pushed at most once per position, so `n`
///   slots suffice);
/// - `runq[..nrun]`: the consuming instructions reached at the current position;
/// - `seeds[..nseeds]`: where the threads that consumed the last character went (at most
///   one per queued thread);
/// - `cached[..ncached]`: the seeds whose closure `runq` holds — a one-entry memo: when
///   the next position has the same seeds and the closure's assertions give the same
///   answers there, the closure is not recomputed (in a loop such as `(a+)+` or `\w+`
///   the thread set repeats from character to character).
struct Scratch<'s> {
    seen: &'s mut [u32],
    gen: u32,
    stack: &'s mut [u32],
    runq: &'s mut [u32],
    nrun: usize,
    seeds: &'s mut [u32],
    nseeds: usize,
    cached: &'s mut [u32],
    ncached: usize,
}

impl<'s> Scratch<'s> {
    fn new(buf: &'s mut [u32], n: usize) -> Self {
        let (seen, rest) = buf.split_at_mut(n);
        let (stack, rest) = rest.split_at_mut(n);
        let (runq, rest) = rest.split_at_mut(n);
        let (seeds, rest) = rest.split_at_mut(n);
        let cached = &mut rest[..n];
        Scratch {
            seen,
            gen: 0,
            stack,
            runq,
            nrun: 0,
            seeds,
            nseeds: 0,
            cached,
            ncached: 0,
        }
    }

    /// Starts a new position: nothing is seen yet.
    #[inline]
    fn next_generation(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.seen.fill(0);
            self.gen = 1;
        }
    }
}

/// Pushes `pc` on the closure stack unless it was already reached at this position.
/// Out-of-range pcs (only from corrupt tables) are dropped.
#[inline(always)]
fn push(seen: &mut [u32], gen: u32, stack: &mut [u32], sp: &mut usize, pc: u32) {
    if let Some(mark) = seen.get_mut(pc as usize) {
        if *mark != gen {
            *mark = gen;
            if let Some(slot) = stack.get_mut(*sp) {
                *slot = pc;
                *sp += 1;
            }
        }
    }
}

impl<'a> Program<'a> {
    /// Assembles a program. `anchored` promises that every match starts at offset 0 (the
    /// pattern begins with `^`), which lets the search stop as soon as no thread is left.
    pub const fn new(
        ops: &'a [u8],
        args: Words<'a>,
        class_offsets: Words<'a>,
        ranges: Words<'a>,
        looks: &'a [u32],
        start: u32,
        anchored: bool,
    ) -> Self {
        Program {
            ops,
            args,
            class_offsets,
            ranges,
            looks,
            start,
            anchored,
        }
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the program has no instructions.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Number of lookaround sub-programs.
    pub fn lookarounds(&self) -> usize {
        self.looks.len() / 2
    }

    #[inline(always)]
    fn inst(&self, pc: u32) -> (u32, u32, u32) {
        let i = pc as usize;
        match (
            self.ops.get(i),
            self.args.get(2 * i),
            self.args.get(2 * i + 1),
        ) {
            (Some(&op), Some(a), Some(b)) => (u32::from(op), a, b),
            // Out-of-range pcs (only from corrupt tables) are dead ends.
            _ => (u32::MAX, 0, 0),
        }
    }

    #[inline]
    fn class_contains(&self, class: u32, c: u32) -> bool {
        let (Some(lo), Some(hi)) = (
            self.class_offsets.get(class as usize),
            self.class_offsets.get(class as usize + 1),
        ) else {
            return false;
        };
        words_ranges_contain(&self.ranges, lo as usize, hi as usize, c)
    }

    #[inline]
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

    /// Runs the ε-closure of the first `sp` entries of the stack at `ctx`: consuming
    /// instructions reached go to the run queue, the assertions evaluated to `deps`.
    /// Returns whether a match is reached.
    #[inline]
    fn close(
        &self,
        sc: &mut Scratch<'_>,
        mut sp: usize,
        ctx: &Ctx<'_>,
        deps: &mut Depends,
        steps: &mut u64,
    ) -> bool {
        let mut matched = false;
        let gen = sc.gen;
        let mut nrun = 0;
        let mut visited = 0u64;
        while sp > 0 {
            sp -= 1;
            visited += 1;
            let pc = sc.stack[sp];
            let (op, a, b) = self.inst(pc);
            match op {
                OP_CHAR | OP_CLASS => {
                    if let Some(slot) = sc.runq.get_mut(nrun) {
                        *slot = pc;
                        nrun += 1;
                    }
                }
                OP_SPLIT => {
                    push(sc.seen, gen, sc.stack, &mut sp, b);
                    push(sc.seen, gen, sc.stack, &mut sp, a);
                }
                OP_JMP => push(sc.seen, gen, sc.stack, &mut sp, a),
                OP_ASSERT => {
                    match a {
                        ASSERT_START => deps.start = true,
                        ASSERT_END => deps.end = true,
                        _ => deps.other = true,
                    }
                    if self.holds(a, ctx) {
                        push(sc.seen, gen, sc.stack, &mut sp, b);
                    }
                }
                OP_MATCH => matched = true,
                _ => {}
            }
        }
        sc.nrun = nrun;
        *steps += visited;
        matched
    }

    /// One pass of the sub-program at `start` over `hay`, forwards or backwards, with
    /// unanchored starts unless `anchored`. `report(pos, matched)` is called at each position
    /// in scan order and stops the pass by returning `true`.
    ///
    /// Each position costs one step plus one per instruction its ε-closure visits and one
    /// per thread tested against the next character; the steps are taken from `fuel`, and
    /// the pass stops with `Err(OutOfFuel)` before a position it cannot pay for.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &self,
        hay: &str,
        start: u32,
        reverse: bool,
        anchored: bool,
        marks: &[u64],
        stride: usize,
        sc: &mut Scratch<'_>,
        fuel: &mut u64,
        mut report: impl FnMut(usize, bool) -> bool,
    ) -> Result<(), OutOfFuel> {
        let len = hay.len();
        let mut chars = hay.chars();
        let (origin, mut before, mut after) = if reverse {
            (len, chars.next_back(), None)
        } else {
            (0, None, chars.next())
        };
        let mut pos = origin;
        sc.nseeds = 0;
        // The memo: valid once a closure ran; the position it ran at, whether the start
        // thread was among its seeds, what it depended on and whether it matched.
        let mut memo: Option<(usize, bool, Depends, bool)> = None;
        loop {
            // The steps of this position: itself, its closure (when computed) and the
            // threads tested against the next character.
            let mut steps = 1u64;
            let with_start = !anchored || pos == origin;
            let reuse = memo.and_then(|(at, started, deps, matched)| {
                let same = started == with_start
                    && !deps.other
                    && (!deps.start || (at == 0) == (pos == 0))
                    && (!deps.end || (at == len) == (pos == len))
                    && sc.seeds[..sc.nseeds] == sc.cached[..sc.ncached];
                same.then_some(matched)
            });
            let matched = match reuse {
                Some(matched) => matched,
                None => {
                    sc.next_generation();
                    let gen = sc.gen;
                    let mut sp = 0;
                    if with_start {
                        push(sc.seen, gen, sc.stack, &mut sp, start);
                    }
                    // Seeds pushed last are closed first: earlier threads keep priority
                    // (which does not matter for a yes/no answer, but keeps the order
                    // stable).
                    for i in (0..sc.nseeds).rev() {
                        let t = sc.seeds[i];
                        push(sc.seen, gen, sc.stack, &mut sp, t);
                    }
                    let ctx = Ctx {
                        pos,
                        len,
                        before,
                        after,
                        marks,
                        stride,
                    };
                    let mut deps = Depends::default();
                    let matched = self.close(sc, sp, &ctx, &mut deps, &mut steps);
                    core::mem::swap(&mut sc.seeds, &mut sc.cached);
                    sc.ncached = sc.nseeds;
                    memo = Some((pos, with_start, deps, matched));
                    matched
                }
            };
            steps += sc.nrun as u64;
            *fuel = match fuel.checked_sub(steps) {
                Some(left) => left,
                None => {
                    *fuel = 0;
                    return Err(OutOfFuel);
                }
            };
            if report(pos, matched) {
                return Ok(());
            }
            let next = if reverse { before } else { after };
            let Some(c) = next else { return Ok(()) };
            let cp = c as u32;
            let mut nt = 0;
            for i in 0..sc.nrun {
                let (op, a, b) = self.inst(sc.runq[i]);
                let hit = if op == OP_CHAR {
                    a == cp
                } else {
                    self.class_contains(a, cp)
                };
                if hit {
                    // At most one seed per queued thread: `nt < nrun <= n`.
                    if let Some(slot) = sc.seeds.get_mut(nt) {
                        *slot = b;
                        nt += 1;
                    }
                }
            }
            sc.nseeds = nt;
            if anchored && nt == 0 {
                return Ok(());
            }
            if reverse {
                pos -= c.len_utf8();
                after = before;
                before = chars.next_back();
            } else {
                pos += c.len_utf8();
                before = after;
                after = chars.next();
            }
        }
    }

    /// [`Program::is_match`], charged to `budget` as [`super::Regex::is_match_budgeted`]
    /// charges the Pike VM (see [`Program::is_match_with_fuel`]): it stops, with
    /// `Err(BudgetExceeded)`, as soon as the budget left cannot pay for its next position.
    // Out of line, so that the DFA's path in a caller keeps a small frame.
    #[inline(never)]
    pub fn is_match_budgeted(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        let allowed = budget.remaining().saturating_mul(super::STEPS_PER_UNIT);
        let mut fuel = allowed;
        match self.is_match_with_fuel(haystack, &mut fuel) {
            Some(answer) => {
                budget.charge(super::units(allowed - fuel))?;
                Ok(answer)
            }
            None => {
                // All of it was spent, and more was needed.
                budget.charge(budget.remaining())?;
                Err(IncompleteReason::BudgetExceeded)
            }
        }
    }

    /// Whether the program matches anywhere in `haystack`.
    ///
    /// Allocation-free for programs of at most [`MEDIUM_PROGRAM`] instructions whose
    /// lookaround marks fit in [`STACK_MARK_WORDS`] words; otherwise the scratch (5 words
    /// per instruction) and the marks (one bit per input byte and lookaround) are allocated
    /// once for the call. Time is O(input length × program size).
    pub fn is_match(&self, haystack: &str) -> bool {
        let mut fuel = u64::MAX;
        self.is_match_with_fuel(haystack, &mut fuel)
            .unwrap_or(false)
    }

    /// [`Program::is_match`] on a step allowance: `None` when the match would take more
    /// than `*fuel` steps, which are then all spent. A step is one input position of a
    /// pass, one instruction visited by an ε-closure, or one thread tested against a
    /// character; every lookaround pass counts. The steps taken are subtracted from
    /// `*fuel`.
    pub fn is_match_with_fuel(&self, haystack: &str, fuel: &mut u64) -> Option<bool> {
        let n = self.len();
        let result = if n <= SMALL_PROGRAM {
            self.run_on_stack::<{ SCRATCH_WORDS * SMALL_PROGRAM }>(haystack, n, fuel)
        } else if n <= MEDIUM_PROGRAM / 2 {
            // A middle tier, so that a program of 65 instructions does not zero the
            // scratch of 512.
            self.run_on_stack::<{ SCRATCH_WORDS * MEDIUM_PROGRAM / 2 }>(haystack, n, fuel)
        } else if n <= MEDIUM_PROGRAM {
            self.run_on_stack::<{ SCRATCH_WORDS * MEDIUM_PROGRAM }>(haystack, n, fuel)
        } else {
            let mut buf = vec![0u32; SCRATCH_WORDS * n];
            self.run(haystack, &mut Scratch::new(&mut buf, n), fuel)
        };
        result.ok()
    }

    /// Runs on `W` words of scratch on the stack (`W >= SCRATCH_WORDS * n`). Not inlined,
    /// so that each tier's frame holds only its own array.
    #[inline(never)]
    fn run_on_stack<const W: usize>(
        &self,
        haystack: &str,
        n: usize,
        fuel: &mut u64,
    ) -> Result<bool, OutOfFuel> {
        let mut buf = [0u32; W];
        self.run(haystack, &mut Scratch::new(&mut buf, n), fuel)
    }

    fn run(&self, haystack: &str, sc: &mut Scratch<'_>, fuel: &mut u64) -> Result<bool, OutOfFuel> {
        let nlooks = self.lookarounds();
        if nlooks == 0 {
            return self.main_pass(haystack, &[], 0, sc, fuel);
        }
        let stride = haystack.len() / 64 + 1;
        let words = nlooks.saturating_mul(stride);
        if words <= STACK_MARK_WORDS {
            let mut marks = [0u64; STACK_MARK_WORDS];
            self.with_marks(haystack, &mut marks[..words], stride, sc, fuel)
        } else {
            let mut marks = vec![0u64; words];
            self.with_marks(haystack, &mut marks, stride, sc, fuel)
        }
    }

    /// Fills the lookaround marks (innermost first: sub-program `k` reads only the marks
    /// of sub-programs before it), then runs the main pass.
    fn with_marks(
        &self,
        haystack: &str,
        marks: &mut [u64],
        stride: usize,
        sc: &mut Scratch<'_>,
        fuel: &mut u64,
    ) -> Result<bool, OutOfFuel> {
        for k in 0..self.lookarounds() {
            let start = self.looks[2 * k];
            let reverse = self.looks[2 * k + 1] & 1 == 1;
            let (done, rest) = marks.split_at_mut(k * stride);
            let mine = &mut rest[..stride];
            self.pass(
                haystack,
                start,
                reverse,
                false,
                done,
                stride,
                sc,
                fuel,
                |pos, m| {
                    if m {
                        mine[pos / 64] |= 1 << (pos % 64);
                    }
                    false
                },
            )?;
        }
        self.main_pass(haystack, marks, stride, sc, fuel)
    }

    fn main_pass(
        &self,
        haystack: &str,
        marks: &[u64],
        stride: usize,
        sc: &mut Scratch<'_>,
        fuel: &mut u64,
    ) -> Result<bool, OutOfFuel> {
        let mut found = false;
        self.pass(
            haystack,
            self.start,
            false,
            self.anchored,
            marks,
            stride,
            sc,
            fuel,
            |_, m| {
                found = m;
                m
            },
        )?;
        Ok(found)
    }
}

/// A pass ran out of its step allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OutOfFuel;

/// Whether the sorted inclusive pairs `ranges[2k], ranges[2k + 1]`, `k` in `lo..hi`,
/// contain `c` (pairs missing from a short table contain nothing).
#[inline]
pub(crate) fn words_ranges_contain(ranges: &Words<'_>, lo: usize, hi: usize, c: u32) -> bool {
    let (mut a, mut b) = (lo, hi);
    while a < b {
        let m = a + (b - a) / 2;
        let (Some(x), Some(y)) = (ranges.get(2 * m), ranges.get(2 * m + 1)) else {
            return false;
        };
        if c < x {
            b = m;
        } else if c > y {
            a = m + 1;
        } else {
            return true;
        }
    }
    false
}

/// Whether the sorted inclusive pairs `ranges[2k], ranges[2k + 1]` contain `c`.
#[inline]
pub(crate) fn ranges_contain(ranges: &[u32], c: u32) -> bool {
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
