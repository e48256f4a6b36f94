//! Runtime support for schemac validators.
//!
//! Everything that generated validation code calls, and that the interpreter in the
//! `schemac` crate shares with it: the [`Validate`] trait, the three-way [`Verdict`],
//! [`ValidationError`]s, annotations ([`Evaluate`], [`annotation`]) and the 2020-12
//! output formats ([`output`]), the evaluation
//! [`Budget`] and depth bound ([`Limits`]), the regex executors ([`regex`]), format checks
//! ([`format`](mod@format)), content checks ([`content`]), JSON helpers ([`json`]), the member tables of large
//! `enum`s ([`lookup`]) and the entries of a generated MCP tool table ([`tools`]); and
//! JSON read straight from bytes ([`document`]) behind one access trait with `Value`
//! ([`instance`]).
//!
//! With the default `std` feature off the crate is `#![no_std]` + `alloc`.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

pub mod annotation;
pub mod content;
pub mod document;
pub mod engine;
pub mod error;
pub mod format;
pub mod instance;
pub mod json;
pub mod limits;
pub mod lookup;
pub mod output;
pub mod regex;
pub mod tools;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use annotation::{Annotation, Evaluation, Unit};
pub use error::{ErrorKind, IncompleteReason, Report, ValidationError, Verdict};
pub use limits::{Budget, Limits, Usage};

/// A compiled validator: generated code and the interpreter both implement this.
pub trait Validate {
    /// Checks `instance` without collecting errors; stops at the first failure.
    fn check(&self, instance: &serde_json::Value) -> Verdict;

    /// Checks `instance` and collects every error.
    fn validate(&self, instance: &serde_json::Value) -> Report;

    /// [`Validate::check`], and what the check spent of the validator's [`Limits`]: the
    /// figures to fit the limits to a workload by ([`Report::usage`] gives them for
    /// `validate`).
    fn check_with_usage(&self, instance: &serde_json::Value) -> (Verdict, Usage);

    /// `true` only when the instance was fully checked and is valid
    /// (an incomplete check is never valid).
    fn is_valid(&self, instance: &serde_json::Value) -> bool {
        self.check(instance) == Verdict::Valid
    }

    /// [`Validate::check`] on the JSON text `input`, read as
    /// [`Document::read`](document::Document::read) reads it (what `serde_json` accepts;
    /// duplicate keys: the last one wins, as in `serde_json`). Text that is not JSON is
    /// `Err` with the byte offset where reading stopped, never an invalid verdict.
    ///
    /// The interpreter and generated code validate the document in place (no `Value` is
    /// built) under a budget grown with the input ([`Limits::for_input`]). This default,
    /// for other implementations, reads the document into a `Value` and calls
    /// [`Validate::check`] under its fixed limits.
    fn check_json(&self, input: &[u8]) -> Result<Verdict, document::SyntaxError> {
        Ok(self.check(&document::Document::read(input)?.to_value()))
    }

    /// [`Validate::validate`] on the JSON text `input` (as [`Validate::check_json`] reads
    /// it): errors located and worded as from the `Value`.
    fn validate_json(&self, input: &[u8]) -> Result<Report, document::SyntaxError> {
        Ok(self.validate(&document::Document::read(input)?.to_value()))
    }

    /// [`Validate::check_with_usage`] on the JSON text `input` (as [`Validate::check_json`]
    /// reads it).
    fn check_json_with_usage(
        &self,
        input: &[u8],
    ) -> Result<(Verdict, Usage), document::SyntaxError> {
        Ok(self.check_with_usage(&document::Document::read(input)?.to_value()))
    }

    /// `true` only when `input` is JSON, fully checked and valid
    /// ([`Validate::check_json`]).
    fn is_valid_json(&self, input: &[u8]) -> bool {
        self.check_json(input) == Ok(Verdict::Valid)
    }

    /// Inserts into `instance` the `default` its schema gives each missing property
    /// whose subschema applies for certain (`properties`, through `$ref` and `allOf`;
    /// never under `anyOf`, `oneOf`, `not`, `if` / `then` / `else`, `dependentSchemas`),
    /// at every depth validation reaches ([`Limits::max_depth`]); `false` when it stopped
    /// there. Generated code built with the builder's `defaults(true)` and an interpreter
    /// compiled with schemac's `Options::defaults` insert; any other validator inserts
    /// nothing (this default). Meant for an instance already validated: it does not
    /// validate, and inserts each default as the schema gives it.
    fn apply_defaults(&self, instance: &mut serde_json::Value) -> bool {
        let _ = instance;
        true
    }
}

/// A validator that also collects annotations (2020-12 §7.7): the interpreter, and
/// generated code built with the builder's `evaluate(true)`.
pub trait Evaluate: Validate {
    /// Checks `instance`, collects every error and, when it is valid, every annotation of
    /// the subschemas that passed.
    fn evaluate(&self, instance: &serde_json::Value) -> Evaluation;

    /// [`Evaluate::evaluate`] on the JSON text `input` (read as [`Validate::check_json`]
    /// reads it, in place; this default reads it into a `Value`).
    fn evaluate_json(&self, input: &[u8]) -> Result<Evaluation, document::SyntaxError> {
        Ok(self.evaluate(&document::Document::read(input)?.to_value()))
    }
}

impl<T: Validate + ?Sized> Validate for &T {
    fn check(&self, instance: &serde_json::Value) -> Verdict {
        (**self).check(instance)
    }

    fn validate(&self, instance: &serde_json::Value) -> Report {
        (**self).validate(instance)
    }

    fn check_with_usage(&self, instance: &serde_json::Value) -> (Verdict, Usage) {
        (**self).check_with_usage(instance)
    }

    fn check_json(&self, input: &[u8]) -> Result<Verdict, document::SyntaxError> {
        (**self).check_json(input)
    }

    fn validate_json(&self, input: &[u8]) -> Result<Report, document::SyntaxError> {
        (**self).validate_json(input)
    }

    fn check_json_with_usage(
        &self,
        input: &[u8],
    ) -> Result<(Verdict, Usage), document::SyntaxError> {
        (**self).check_json_with_usage(input)
    }

    fn apply_defaults(&self, instance: &mut serde_json::Value) -> bool {
        (**self).apply_defaults(instance)
    }
}

impl<T: Evaluate + ?Sized> Evaluate for &T {
    fn evaluate(&self, instance: &serde_json::Value) -> Evaluation {
        (**self).evaluate(instance)
    }

    fn evaluate_json(&self, input: &[u8]) -> Result<Evaluation, document::SyntaxError> {
        (**self).evaluate_json(input)
    }
}

/// A verdict-only validator: what generated code built without `validate` (the
/// builder's `validate(false)`, for embedded targets and servers that only need a
/// verdict) implements. Every [`Validate`] is also a `Check`.
pub trait Check {
    /// Checks `instance` without collecting errors; stops at the first failure.
    fn check(&self, instance: &serde_json::Value) -> Verdict;

    /// `true` only when the instance was fully checked and is valid.
    fn is_valid(&self, instance: &serde_json::Value) -> bool {
        self.check(instance) == Verdict::Valid
    }
}

impl<T: Validate + ?Sized> Check for T {
    fn check(&self, instance: &serde_json::Value) -> Verdict {
        Validate::check(self, instance)
    }
}

/// Includes the validators that `schemac-build` generated into `OUT_DIR`.
///
/// In `build.rs`:
///
/// ```ignore
/// schemac_build::Builder::new()
///     .schema("get_weather", "schemas/get_weather.json")
///     .compile()?;
/// ```
///
/// and in the crate:
///
/// ```ignore
/// mod validators {
///     schemac_runtime::include_validators!();
/// }
/// let ok = validators::get_weather::is_valid(&serde_json::json!({"city": "Oslo"}));
/// ```
///
/// With an argument, includes another file name under `OUT_DIR` (for builders configured
/// with `Builder::out_file`): `include_validators!("tools.rs")`.
#[macro_export]
macro_rules! include_validators {
    () => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/schemac.rs"));
    };
    ($file:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $file));
    };
}
