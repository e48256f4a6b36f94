//! The JSON Schema Test Suite's draft2020-12 schemas, compiled into Rust validators by
//! `build.rs` (one module per group) and included here, with [`lookup`] to find a group's
//! validator.

/// The generated modules, one per group that compiled.
#[allow(missing_docs)]
pub mod suite {
    include!(concat!(env!("OUT_DIR"), "/suite_validators.rs"));
}

use schemac_runtime::Validate;
pub use suite::{DRAFTS, VALIDATORS};

/// The generated validator of group `index` of `file` in the set labelled `label`
/// (`draft2020-12 required`), if its schema compiled at build time.
pub fn lookup(label: &str, file: &str, index: usize) -> Option<&'static (dyn Validate + Sync)> {
    VALIDATORS
        .iter()
        .find(|(l, f, i, _)| *l == label && *f == file && *i == index)
        .map(|(_, _, _, v)| *v)
}
