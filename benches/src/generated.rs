//! The validators `build.rs` generated with `schemac-build`, one module per schema of
//! [`crate::catalog::SCHEMAS`], and the tables that name them.

/// The generated modules (`validators::<module>::is_valid`).
#[allow(missing_docs, clippy::all)]
pub mod validators {
    schemac_runtime::include_validators!();
}

/// A generated `is_valid`.
pub type IsValidFn = fn(&serde_json::Value) -> bool;

/// A generated `is_valid_json` (validation from the JSON text, no `Value` built).
pub type IsValidJsonFn = fn(&[u8]) -> bool;

include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));

/// The generated `is_valid` of `module`, if schemac compiled it.
pub fn is_valid_fn(module: &str) -> Option<IsValidFn> {
    GENERATED
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, f)| *f)
}

/// The generated `is_valid_json` of `module`, if schemac compiled it.
pub fn is_valid_json_fn(module: &str) -> Option<IsValidJsonFn> {
    GENERATED_JSON
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, f)| *f)
}
