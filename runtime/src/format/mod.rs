//! Checks for the `format` keyword's formats, used when format assertion is on.
//!
//! PLACEHOLDER — the formats work of issue #2 fills this module.

/// The checker for the format named `name`, if schemac knows it.
pub fn lookup(name: &str) -> Option<fn(&str) -> bool> {
    let _ = name;
    None
}
