//! The generated validators of every corpus schema (see `build.rs`), compiled under
//! `#![deny(warnings)]`; clippy checks them too.
#![deny(warnings)]

/// With `validate` (error-collecting functions).
pub mod validate {
    include!(concat!(env!("OUT_DIR"), "/validate.rs"));
}

/// Without `validate`: `is_valid` and `check` only.
pub mod check_only {
    include!(concat!(env!("OUT_DIR"), "/check_only.rs"));
}
