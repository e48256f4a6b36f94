//! The validators `build.rs` generated with `schemac-build`, one module per schema of
//! [`crate::catalog::SCHEMAS`], and the tables that name them.

/// The generated modules (`validators::<module>::is_valid`).
///
/// `unused_variables` and `dead_code`: the Rust backend on main still emits, for
/// cmake-presets, an empty `for x in obj.values() {}` loop (5 nodes, e.g.
/// `#/definitions/workflowPresetsItemsV6/items/properties/vendor`) and a never-called node
/// function (`#/definitions/packagePresetsItemsV6/items/properties/variables/items`), and
/// never-called node functions for dependabot (1) and ui5 (3); reported to the backend's
/// owner. Everything else must stay warning-free.
#[allow(missing_docs, unused_variables, dead_code, clippy::all)]
pub mod validators {
    schemac_runtime::include_validators!();
}

/// A generated `is_valid`.
pub type IsValidFn = fn(&serde_json::Value) -> bool;

include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));

/// The generated `is_valid` of `module`, if schemac compiled it.
pub fn is_valid_fn(module: &str) -> Option<IsValidFn> {
    GENERATED
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, f)| *f)
}
