//! Regex executors over plain tables: what generated code and the interpreter run.
//!
//! The `schemac` compiler parses an ECMA-262 pattern with [`syntax`], compiles it to a
//! Thompson NFA and, where the state count allows, a minimized DFA, and hands both to this
//! module as flat tables. Generated code holds them as `static` data
//! (`static RE: Regex<'static> = Regex::new(...)`, a `const fn`, nothing built at first use);
//! the interpreter borrows the same tables from its compiled program. One executor serves
//! both.
//!
//! Matching is an unanchored search ("does the pattern match anywhere"), in time linear in
//! input length × program size, whatever the pattern:
//!
//! - [`Dfa`]: one table lookup per input character, no allocation. Used when the pattern has
//!   no lookaround and no `\b` / `\B` and its DFA stayed under the state limit.
//! - [`Program`]: a Pike VM (NFA simulation without backtracking). Each lookaround is a
//!   position oracle: one pass over the input per lookaround (backwards for a lookahead,
//!   forwards for a lookbehind, innermost first) marks where it holds, and the main pass
//!   reads the mark as an assertion. Programs of up to [`pikevm::MEDIUM_PROGRAM`]
//!   instructions run on scratch held on the stack, and so do the marks of short inputs
//!   ([`pikevm::STACK_MARK_WORDS`]): the common case allocates nothing.
//! - [`FastPath`]: checked first. A literal, bare or anchored (`abc`, `^abc`, `abc$`,
//!   `^abc$`), is a substring / prefix / suffix / equality test; a single class run
//!   (`^[a-z0-9_-]+$`, `^[A-Za-z0-9_-]{1,64}$`) is a bitmap loop with length bounds;
//!   anchored runs of ASCII classes after an optional choice of literals
//!   (`^[a-z]+_[0-9]{1,4}$`, `^(get|put)_[a-z]+$`) are one greedy scan; an anchored
//!   literal prefix (`^abc…`) or a set of first code points rejects inputs that do not
//!   start with one before any automaton runs.

pub mod dfa;
pub mod fast;
mod names;
pub mod pikevm;
pub mod prefilter;
pub mod syntax;
pub mod words;

use crate::error::IncompleteReason;
use crate::limits::Budget;

pub use dfa::Dfa;
pub use fast::{AsciiRun, Choice, ClassRun, FastPath};
pub use pikevm::Program;
pub use prefilter::{Candidates, PrefixSet};
pub use words::Words;

/// Nesting limit used by [`is_valid_syntax`] (deeper patterns are reported invalid, so that
/// no input can overflow the stack of the recursive parser).
pub const SYNTAX_CHECK_MAX_DEPTH: usize = 256;

/// Whether `pattern` is a syntactically valid ECMA-262 regular expression (u-mode plus the
/// Annex B forms schemac accepts). Accepts constructs the matcher refuses, such as
/// backreferences. Groups nested deeper than [`SYNTAX_CHECK_MAX_DEPTH`] count as invalid.
pub fn is_valid_syntax(pattern: &str) -> bool {
    syntax::parse(pattern, SYNTAX_CHECK_MAX_DEPTH).is_ok()
}

/// Regex work per unit of the evaluation budget ([`Budget`]): a call costs
/// `max(1, ceil(steps / STEPS_PER_UNIT))` units (see [`Regex::is_match_budgeted`]).
pub const STEPS_PER_UNIT: u64 = 16;

/// Budget units for `steps` steps of regex work (or of an `enum` lookup,
/// [`crate::lookup`]): at least one.
#[inline]
pub fn units(steps: u64) -> u64 {
    steps.div_ceil(STEPS_PER_UNIT).max(1)
}

/// A compiled pattern over borrowed tables (`'static` in generated code).
#[derive(Debug, Clone, Copy)]
pub struct Regex<'a> {
    fast: Option<FastPath<'a>>,
    program: Program<'a>,
    dfa: Option<Dfa<'a>>,
}

impl<'a> Regex<'a> {
    /// Assembles a regex from its parts, as the compiler produced them: the fast path when
    /// the pattern has one (tried first), the Pike VM program (always present, and the
    /// reference semantics), and the DFA when there is one.
    pub const fn new(
        fast: Option<FastPath<'a>>,
        program: Program<'a>,
        dfa: Option<Dfa<'a>>,
    ) -> Self {
        Regex { fast, program, dfa }
    }

    /// Whether the pattern matches anywhere in `haystack`, by the fastest engine available.
    #[inline]
    pub fn is_match(&self, haystack: &str) -> bool {
        if let Some(fast) = &self.fast {
            if let Some(answer) = fast.decide(haystack) {
                return answer;
            }
        }
        self.is_match_automaton(haystack)
    }

    /// [`Regex::is_match`], with its work charged to `budget`: one unit per
    /// [`STEPS_PER_UNIT`] steps, rounded up (so at least one per call). A fast path or the
    /// DFA is charged one step per input byte, up front; the Pike VM one step per input
    /// position, per instruction an ε-closure visits and per thread tested against a
    /// character, and it stops as soon as the budget left cannot pay for its next
    /// position: `Err(BudgetExceeded)`, never a guess.
    pub fn is_match_budgeted(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        self.is_match_inlined(haystack, budget)
    }

    /// The automaton's part of [`Regex::is_match_budgeted`] (the fast path left the
    /// answer open, or there is none).
    fn search_budgeted(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        match &self.dfa {
            Some(dfa) => dfa.is_match_budgeted(haystack, budget),
            None => self.program.is_match_budgeted(haystack, budget),
        }
    }

    /// [`Regex::is_match_budgeted`] with its fast path inlined where it is called (the
    /// search itself stays out of line): for a `static` regex (generated code's
    /// [`crate::engine::State::is_match_fast`]) the fast path is specialized to the
    /// pattern there.
    #[inline(always)]
    pub fn is_match_inlined(
        &self,
        haystack: &str,
        budget: &mut Budget,
    ) -> Result<bool, IncompleteReason> {
        match self
            .fast
            .as_ref()
            .and_then(|fast| fast.decide_budgeted(haystack, budget))
        {
            Some(decided) => decided,
            None => self.search_budgeted(haystack, budget),
        }
    }

    /// Whether the pattern matches, by the DFA when there is one, else the Pike VM —
    /// ignoring the fast path (for tests and benchmarks comparing the engines).
    pub fn is_match_automaton(&self, haystack: &str) -> bool {
        match &self.dfa {
            Some(dfa) => dfa.is_match(haystack),
            None => self.program.is_match(haystack),
        }
    }

    /// The Pike VM program.
    pub fn program(&self) -> &Program<'a> {
        &self.program
    }

    /// The DFA, when the pattern has one.
    pub fn dfa(&self) -> Option<&Dfa<'a>> {
        self.dfa.as_ref()
    }

    /// The fast path, when the pattern has one.
    pub fn fast_path(&self) -> Option<&FastPath<'a>> {
        self.fast.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::{is_valid_syntax, AsciiRun, Choice, ClassRun, FastPath, Program, Regex};

    /// `a`, by hand: the constructors are `const fn`, so a regex can be a `static`.
    static A: Regex<'static> = Regex::new(
        None,
        Program::new(
            b"\x00\x05",
            super::Words::new(b"\x61\x01\x00\x00", 1),
            super::Words::new(&[0], 1),
            super::Words::new(&[], 1),
            &[],
            0,
            false,
        ),
        None,
    );

    const ASCII_A: [u8; 128] = {
        let mut t = [0u8; 128];
        t[b'a' as usize] = 1;
        t
    };

    /// `a` as a DFA: classes 0 (other) and 1 (`a`); states 0 dead, 1 match, 2 start;
    /// rows premultiplied by the class count.
    static A_DFA: Regex<'static> = Regex::new(
        None,
        Program::new(
            b"\x00\x05",
            super::Words::new(b"\x61\x01\x00\x00", 1),
            super::Words::new(&[0], 1),
            super::Words::new(&[], 1),
            &[],
            0,
            false,
        ),
        Some(super::Dfa::new(
            &ASCII_A,
            super::Words::new(&[0x80], 1),
            super::Words::new(&[0], 1),
            2,
            super::Words::new(&[0, 0, 2, 2, 4, 2], 1),
            &[0, 0, 0],
            2,
        )),
    );

    #[test]
    fn static_dfa_runs() {
        let dfa = A_DFA.dfa().expect("has a DFA");
        assert_eq!(dfa.states(), 3);
        for (hay, want) in [
            ("xa", true),
            ("a", true),
            ("", false),
            ("xyz", false),
            ("é😀a", true),
            ("é", false),
        ] {
            assert_eq!(dfa.is_match(hay), want, "{hay:?}");
            assert_eq!(A_DFA.program().is_match(hay), want, "{hay:?}");
        }
    }

    #[test]
    fn static_tables_run() {
        assert!(A.is_match("xa"));
        assert!(!A.is_match("xyz"));
        assert!(A.dfa().is_none());
        assert_eq!(A.program().len(), 2);
    }

    /// `^[a-z_]{2,3}$` as a class run, by hand.
    static IDENT: Regex<'static> = Regex::new(
        Some(FastPath::ClassRun(ClassRun::new(
            [0, (0x3FF_FFFF << (97 - 64)) | (1 << (95 - 64))],
            &[0xE9, 0xE9],
            2,
            3,
            true,
            true,
        ))),
        // The program is never reached: the class run decides.
        Program::new(
            b"\x05",
            super::Words::new(b"\x00\x00", 1),
            super::Words::new(&[0], 1),
            super::Words::new(&[], 1),
            &[],
            0,
            false,
        ),
        None,
    );

    #[test]
    fn class_run_decides() {
        for (hay, want) in [
            ("ab", true),
            ("a_c", true),
            ("a", false),
            ("abcd", false),
            ("aB", false),
            ("éé", true),
            ("ééé", true),
            ("éééé", false),
            ("", false),
        ] {
            assert_eq!(IDENT.is_match(hay), want, "{hay:?}");
        }
        let digits = |start, end| ClassRun::new([0x03FF_0000_0000_0000, 0], &[], 2, 2, start, end);
        for (start, end, hay, want) in [
            (true, false, "12x", true),
            (true, false, "x12", false),
            (false, true, "x12", true),
            (false, true, "12x", false),
            (false, false, "a1b23c", true),
            (false, false, "a1b2c3", false),
            (true, true, "12", true),
            (true, true, "123", false),
        ] {
            assert_eq!(
                digits(start, end).is_match(hay),
                want,
                "{start} {end} {hay:?}"
            );
        }
        let any = ClassRun::new([0, 0], &[], 0, 0, false, false);
        assert!(any.is_match("whatever"));
        // `^[0-9A-Z]{2}$`: "ñ" is two bytes (C3 B1) whose low bits name 'C' and '1'.
        let upper_digits =
            ClassRun::new([0x03FF_0000_0000_0000, 0x07FF_FFFE], &[], 2, 2, true, true);
        for (hay, want) in [("A1", true), ("ñ", false), ("a1", false), ("A12", false)] {
            assert_eq!(upper_digits.is_match(hay), want, "{hay:?}");
        }
        // Anchored at one end: the first or last two bytes, which "ñ" is not either.
        let head = ClassRun::new([0x03FF_0000_0000_0000, 0x07FF_FFFE], &[], 2, 2, true, false);
        let tail = ClassRun::new([0x03FF_0000_0000_0000, 0x07FF_FFFE], &[], 2, 2, false, true);
        for (hay, at_start, at_end) in [
            ("A1ñ", true, false),
            ("ñA1", false, true),
            ("ñ", false, false),
            ("A", false, false),
            ("AB", true, true),
        ] {
            assert_eq!(head.is_match(hay), at_start, "{hay:?}");
            assert_eq!(tail.is_match(hay), at_end, "{hay:?}");
        }
    }

    #[test]
    fn ascii_runs_decide_by_a_greedy_scan() {
        const LOWER: [u64; 2] = [0, 0x07FF_FFFE_0000_0000];
        const DIGIT: [u64; 2] = [0x03FF_0000_0000_0000, 0];
        const UNDERSCORE: [u64; 2] = [0, 1 << 31];
        // `^[a-z]+_[0-9]{1,4}$`
        const METRIC: &[AsciiRun] = &[
            AsciiRun::new(LOWER, 1, u32::MAX),
            AsciiRun::new(UNDERSCORE, 1, 1),
            AsciiRun::new(DIGIT, 1, 4),
        ];
        let metric = |end| FastPath::AsciiRuns {
            head: Choice::NONE,
            runs: METRIC,
            end,
        };
        for (hay, anchored, unanchored) in [
            ("mem_0001", true, true),
            ("m_1", true, true),
            ("mem_00001", false, true),
            ("mem_1x", false, true),
            ("mem_", false, false),
            ("_1", false, false),
            ("Mem_1", false, false),
            ("mém_1", false, false),
            ("mem_1é", false, true),
            ("", false, false),
        ] {
            assert_eq!(metric(true).decide(hay), Some(anchored), "{hay:?}");
            assert_eq!(metric(false).decide(hay), Some(unanchored), "{hay:?}");
        }
        // `^(get|put|post)_[a-z]+$`, and `^(get|put|post)$`.
        const ROUTE: &[AsciiRun] = &[
            AsciiRun::new(UNDERSCORE, 1, 1),
            AsciiRun::new(LOWER, 1, u32::MAX),
        ];
        let head = Choice::new("getputpost", &[3, 6, 10]);
        let route = FastPath::AsciiRuns {
            head,
            runs: ROUTE,
            end: true,
        };
        let verb = FastPath::AsciiRuns {
            head,
            runs: &[],
            end: true,
        };
        for (hay, as_route, as_verb) in [
            ("get_users", true, false),
            ("post_a", true, false),
            ("put_", false, false),
            ("patch_a", false, false),
            ("pos_a", false, false),
            ("get", false, true),
            ("post", false, true),
            ("gets", false, false),
            ("", false, false),
        ] {
            assert_eq!(route.decide(hay), Some(as_route), "{hay:?}");
            assert_eq!(verb.decide(hay), Some(as_verb), "{hay:?}");
        }
    }

    #[test]
    fn literal_and_prefix_fast_paths() {
        let lit = |start, end| FastPath::Literal {
            text: "ab",
            start,
            end,
        };
        for (start, end, hay, want) in [
            (false, false, "xaby", true),
            (false, false, "xa", false),
            (true, false, "abx", true),
            (true, false, "xab", false),
            (false, true, "xab", true),
            (false, true, "abx", false),
            (true, true, "ab", true),
            (true, true, "abab", false),
        ] {
            assert_eq!(
                lit(start, end).decide(hay),
                Some(want),
                "{start} {end} {hay:?}"
            );
        }
        assert_eq!(FastPath::Prefix("ab").decide("xab"), Some(false));
        assert_eq!(FastPath::Prefix("ab").decide("abx"), None);
        // `^[a-c]…` / `^(?:é|[a-c])…`
        let leading = |non_ascii| FastPath::Leading {
            ascii: [0, 0b1110 << 32],
            non_ascii,
        };
        for (non_ascii, hay, want) in [
            (false, "b_1", None),
            (false, "x_1", Some(false)),
            (false, "", Some(false)),
            (false, "é", Some(false)),
            (true, "é", None),
            (true, "x", Some(false)),
        ] {
            assert_eq!(leading(non_ascii).decide(hay), want, "{non_ascii} {hay:?}");
        }
    }

    #[test]
    fn syntax_check_follows_the_suite() {
        for ok in [
            "(?<name>x)",
            "(?<n>a)\\k<n>",
            "(?<=a+)b",
            "[]",
            "[^]",
            "\\cA",
            "a{",
            "a{1",
            "}",
            "]",
            "[\\w-.]",
            "\\-",
            "\\p{Lu}",
            "\\p{Script=Greek}",
            "\\p{scx=Grek}",
            "\\p{digit}",
            "(?i:a)",
            "\\1",
            "(a)\\1",
            "\\u{1F600}",
            "\\uD83D\\uDC32",
            "a{2,3}?",
        ] {
            assert!(is_valid_syntax(ok), "{ok} should be valid");
        }
        for bad in [
            "\\a",
            "(?P<name>x)",
            "(?P<n>a)(?P=n)",
            "(?#comment)a",
            "(?i)abc",
            "(?ims)abc",
            "(",
            ")",
            "[a",
            "a**",
            "*",
            "{2}",
            "a{3,2}",
            "[z-a]",
            "\\p{Greek}",
            "\\p{letter}",
            "\\p{Script=greek}",
            "\\k<x>",
            "(?=a)*",
            "\\u{110000}",
            "\\x4",
            "\\c1",
            "(?<a>x)(?<a>y)",
        ] {
            assert!(!is_valid_syntax(bad), "{bad} should be invalid");
        }
    }

    /// Inside a class, u-mode reads `[` and `&` as literals and `--` as a range: cspell's
    /// `[^!*,;{}[\]~\n]` is the complement of its ten characters.
    #[test]
    fn u_mode_class_contents_are_literals_and_ranges() {
        use super::syntax::{parse, Class, ClassItem, Node};
        let class = |p: &str| match parse(p, 8) {
            Ok(Node::Class(Class { negated, items })) => (negated, items),
            other => panic!("{p}: {other:?}"),
        };
        let chars = |s: &str| -> alloc::vec::Vec<ClassItem> {
            s.chars()
                .map(|c| ClassItem::Range(c as u32, c as u32))
                .collect()
        };
        assert_eq!(class("[^!*,;{}[\\]~\\n]"), (true, chars("!*,;{}[]~\n")));
        assert_eq!(class("[a&&b]"), (false, chars("a&&b")));
        assert_eq!(class("[[a]"), (false, chars("[a")));
        let mut range = chars("a");
        range.push(ClassItem::Range(0x21, 0x2D));
        assert_eq!(class("[a!--]"), (false, range));
        for refused in ["[\\w--\\d]", "[\\--\\s]", "[\\p{L}--\\p{Lu}]", "[a--]"] {
            assert!(!is_valid_syntax(refused), "{refused}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        assert!(!is_valid_syntax(&deep));
        let ok = "(".repeat(100) + &")".repeat(100);
        assert!(is_valid_syntax(&ok));
    }
}
