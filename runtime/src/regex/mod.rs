//! Regex executors over plain tables: what generated code and the interpreter run.
//!
//! PLACEHOLDER — the ECMA-262 regex issue (#3) fills this module: the ECMA-262 syntax
//! checker (also used by `format: "regex"`), the DFA runner and the Pike VM.

/// Whether `pattern` is a syntactically valid ECMA-262 regular expression (u-mode plus the
/// Annex B forms schemac accepts). Accepts constructs the matcher refuses, such as
/// backreferences.
///
/// PLACEHOLDER until issue #3 lands: accepts everything.
pub fn is_valid_syntax(pattern: &str) -> bool {
    let _ = pattern;
    true
}
