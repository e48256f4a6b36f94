//! Runtime support for schemac validators.
//!
//! Everything that generated validation code calls, and that the interpreter in the
//! `schemac` crate shares with it: the [`Validate`] trait, the three-way [`Verdict`],
//! [`ValidationError`]s and the 2020-12 output formats ([`output`]), the evaluation
//! [`Budget`] and depth bound ([`Limits`]), the regex executors ([`regex`]), format checks
//! ([`format`](mod@format)) and JSON helpers ([`json`]).
//!
//! With the default `std` feature off the crate is `#![no_std]` + `alloc`.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

pub mod error;
pub mod format;
pub mod json;
pub mod limits;
pub mod output;
pub mod regex;

pub use error::{ErrorKind, IncompleteReason, Report, ValidationError, Verdict};
pub use limits::{Budget, Limits};

/// A compiled validator: generated code and the interpreter both implement this.
pub trait Validate {
    /// Checks `instance` without collecting errors; stops at the first failure.
    fn check(&self, instance: &serde_json::Value) -> Verdict;

    /// Checks `instance` and collects every error.
    fn validate(&self, instance: &serde_json::Value) -> Report;

    /// `true` only when the instance was fully checked and is valid
    /// (an incomplete check is never valid).
    fn is_valid(&self, instance: &serde_json::Value) -> bool {
        self.check(instance) == Verdict::Valid
    }
}
