//! The JSON Schema Test Suite's schemas, compiled into Rust validators by `build.rs` (one
//! module per group) and included here, with [`lookup`] to find a group's validator; the
//! annotation and output tests' schemas likewise, built with `evaluate`
//! ([`lookup_evaluator`]); and the hostile schemas of [`crate::hostile`], found with
//! [`hostile`].

/// The generated modules, one per group that compiled.
#[allow(missing_docs)]
pub mod suite {
    include!(concat!(env!("OUT_DIR"), "/suite_validators.rs"));
}

use schemac_runtime::{Evaluate, Validate};
pub use suite::{DRAFTS, EVALUATORS, HOSTILE, VALIDATORS};

/// The generated validator of group `index` of `file` in the set labelled `label`
/// (`draft2020-12 required`), if its schema compiled at build time.
pub fn lookup(label: &str, file: &str, index: usize) -> Option<&'static (dyn Validate + Sync)> {
    VALIDATORS
        .iter()
        .find(|(l, f, i, _)| *l == label && *f == file && *i == index)
        .map(|(_, _, _, v)| *v)
}

/// The generated evaluator (built with `evaluate`) of case or group `index` of `file` in the
/// annotation or output set labelled `label` (`draft2020-12 annotations`), if its schema
/// compiled at build time.
pub fn lookup_evaluator(
    label: &str,
    file: &str,
    index: usize,
) -> Option<&'static (dyn Evaluate + Sync)> {
    EVALUATORS
        .iter()
        .find(|(l, f, i, _)| *l == label && *f == file && *i == index)
        .map(|(_, _, _, v)| *v)
}

/// The generated validator of the hostile schema `name` ([`crate::hostile`]).
pub fn hostile(name: &str) -> Option<&'static (dyn Validate + Sync)> {
    HOSTILE.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
