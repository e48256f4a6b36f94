//! The Rust backend: IR → `proc_macro2::TokenStream` (quote) → text (prettyplease).
//!
//! PLACEHOLDER — issue #4 fills this module.
