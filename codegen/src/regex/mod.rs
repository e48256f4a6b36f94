//! ECMA-262 regular expressions compiled for linear-time matching.
//!
//! PLACEHOLDER API — issue #3 fills this module (parse → Thompson NFA → Pike VM / DFA
//! tables, executed by `schemac_runtime::regex`). The types and signatures below are the
//! contract the rest of the compiler uses; keep them.

use std::fmt;

/// Limits for regex compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexOptions {
    /// Largest program, in NFA instructions (a counted repetition multiplies its operand).
    pub max_program_size: usize,
    /// Most DFA states before falling back to the Pike VM.
    pub max_dfa_states: usize,
}

impl Default for RegexOptions {
    fn default() -> Self {
        RegexOptions {
            max_program_size: 100_000,
            max_dfa_states: 1_000,
        }
    }
}

/// Why a pattern did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegexError {
    /// Not valid ECMA-262 syntax.
    Invalid {
        /// What is wrong.
        message: String,
        /// Offset (in bytes of the pattern) where it was found.
        offset: usize,
    },
    /// A construct the linear-time engine refuses (backreference, modifier, legacy octal).
    Unsupported {
        /// The construct, e.g. `backreference \1`.
        construct: String,
        /// Offset (in bytes of the pattern).
        offset: usize,
    },
    /// Over the program size limit, or groups nested deeper than 128.
    TooLarge {
        /// What is too large.
        message: String,
    },
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegexError::Invalid { message, offset } => {
                write!(f, "invalid regular expression at offset {offset}: {message}")
            }
            RegexError::Unsupported { construct, offset } => write!(
                f,
                "unsupported construct at offset {offset}: {construct} (schemac matches in linear time)"
            ),
            RegexError::TooLarge { message } => write!(f, "regular expression too large: {message}"),
        }
    }
}

/// A compiled pattern: unanchored search semantics (`b` matches `abc`).
#[derive(Debug, Clone)]
pub struct CompiledRegex {
    source: String,
}

impl CompiledRegex {
    /// The pattern's source text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> bool {
        let _ = haystack;
        false
    }
}

/// Compiles an ECMA-262 pattern (u-mode plus the Annex B forms schemac accepts).
pub fn compile(pattern: &str, options: &RegexOptions) -> Result<CompiledRegex, RegexError> {
    let _ = options;
    Err(RegexError::Unsupported {
        construct: format!("pattern {pattern:?}: the regex engine is not built yet (issue #3)"),
        offset: 0,
    })
}
