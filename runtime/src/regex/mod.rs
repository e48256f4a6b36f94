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
//!   reads the mark as an assertion. It allocates its thread lists and marks per call.
//! - A pure literal is a substring search.

pub mod dfa;
mod names;
pub mod pikevm;
pub mod syntax;

pub use dfa::Dfa;
pub use pikevm::Program;

/// Nesting limit used by [`is_valid_syntax`] (deeper patterns are reported invalid, so that
/// no input can overflow the stack of the recursive parser).
pub const SYNTAX_CHECK_MAX_DEPTH: usize = 256;

/// Whether `pattern` is a syntactically valid ECMA-262 regular expression (u-mode plus the
/// Annex B forms schemac accepts). Accepts constructs the matcher refuses, such as
/// backreferences. Groups nested deeper than [`SYNTAX_CHECK_MAX_DEPTH`] count as invalid.
pub fn is_valid_syntax(pattern: &str) -> bool {
    syntax::parse(pattern, SYNTAX_CHECK_MAX_DEPTH).is_ok()
}

/// A compiled pattern over borrowed tables (`'static` in generated code).
#[derive(Debug, Clone, Copy)]
pub struct Regex<'a> {
    literal: Option<&'a str>,
    program: Program<'a>,
    dfa: Option<Dfa<'a>>,
}

impl<'a> Regex<'a> {
    /// Assembles a regex from its parts, as the compiler produced them: a literal when the
    /// whole pattern is one (then a substring search decides), the Pike VM program (always
    /// present, and the reference semantics), and the DFA when there is one.
    pub const fn new(literal: Option<&'a str>, program: Program<'a>, dfa: Option<Dfa<'a>>) -> Self {
        Regex {
            literal,
            program,
            dfa,
        }
    }

    /// Whether the pattern matches anywhere in `haystack`, by the fastest engine available.
    pub fn is_match(&self, haystack: &str) -> bool {
        if let Some(literal) = self.literal {
            return haystack.contains(literal);
        }
        if let Some(dfa) = &self.dfa {
            return dfa.is_match(haystack);
        }
        self.program.is_match(haystack)
    }

    /// The Pike VM program.
    pub fn program(&self) -> &Program<'a> {
        &self.program
    }

    /// The DFA, when the pattern has one.
    pub fn dfa(&self) -> Option<&Dfa<'a>> {
        self.dfa.as_ref()
    }

    /// The literal, when the whole pattern is one.
    pub fn literal(&self) -> Option<&'a str> {
        self.literal
    }
}

#[cfg(test)]
mod tests {
    use super::{is_valid_syntax, Program, Regex};

    /// `a`, by hand: the constructors are `const fn`, so a regex can be a `static`.
    static A: Regex<'static> = Regex::new(
        None,
        Program::new(
            &[super::pikevm::OP_CHAR, 97, 1, super::pikevm::OP_MATCH, 0, 0],
            &[0],
            &[],
            &[],
            0,
            false,
        ),
        None,
    );

    const ASCII_A: [u16; 128] = {
        let mut t = [0u16; 128];
        t[b'a' as usize] = 1;
        t
    };

    /// `a` as a DFA: classes 0 (other) and 1 (`a`); states 0 dead, 1 match, 2 start;
    /// rows premultiplied by the class count.
    static A_DFA: Regex<'static> = Regex::new(
        None,
        Program::new(
            &[super::pikevm::OP_CHAR, 97, 1, super::pikevm::OP_MATCH, 0, 0],
            &[0],
            &[],
            &[],
            0,
            false,
        ),
        Some(super::Dfa::new(
            &ASCII_A,
            &[0x80],
            &[0],
            2,
            &[0, 0, 2, 2, 4, 2],
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

    #[test]
    fn nesting_is_bounded() {
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        assert!(!is_valid_syntax(&deep));
        let ok = "(".repeat(100) + &")".repeat(100);
        assert!(is_valid_syntax(&ok));
    }
}
