//! The entry points of a generated module, written once: a module supplies its root
//! functions ([`Root`], [`ErrorsRoot`]) and names the entry points it offers with
//! `entry_points!`, which defines its `Validator`, the trait implementations and the free
//! functions (`is_valid`, `check`, `validate`, their `*_json` forms, …) on the functions
//! here. Every one runs the root on a `&Value` under the compiled limits, or on JSON text
//! read in place ([`Document::read`]) under the limits grown with the input
//! ([`Limits::for_input`]).

use crate::annotation::Evaluation;
use crate::document::{Document, Node, SyntaxError};
use crate::engine::{Done, Errors, Fault, Res, Site, State};
use crate::error::{Report, Verdict};
use crate::instance::Instance;
use crate::limits::{Limits, Usage};
use serde_json::Value;

/// What every generated module supplies: its limits and its root's short-circuit function.
pub trait Root {
    /// The run-time limits compiled in.
    const LIMITS: Limits;

    /// Runs the root's short-circuit function (`cN`) on `instance`.
    fn check<'a, V: Instance<'a>>(instance: V, cx: &mut State) -> Res;
}

/// What a module that collects errors supplies besides its [`Root`].
pub trait ErrorsRoot: Root {
    /// The module's child sites and error sites ([`Errors::new`]).
    const SITES: &'static [Site];
    /// See [`ErrorsRoot::SITES`].
    const FAULTS: &'static [Fault];
    /// The root's absolute URI, which keyword locations are given from.
    const BASE: &'static str;

    /// Runs the root's error-collecting function (`eN`) on `instance`.
    fn errors<'a, V: Instance<'a>>(instance: V, cx: &mut Errors) -> Done;
}

/// Runs `R`'s short-circuit root on `instance` under `limits`; `finish` makes the answer.
#[inline(always)]
fn checked<'a, R: Root, V: Instance<'a>, T>(
    instance: V,
    limits: &Limits,
    finish: impl FnOnce(State, Res) -> T,
) -> T {
    let mut cx = State::new(limits);
    let result = R::check(instance, &mut cx);
    finish(cx, result)
}

/// Whether `R`'s short-circuit root passes `instance` under `limits`: [`checked`] without
/// handing the state on (moved into `finish`, it was copied: 1.5% more instructions on
/// bench-mcp's w1).
#[inline(always)]
fn passes<'a, R: Root, V: Instance<'a>>(instance: V, limits: &Limits) -> bool {
    let mut cx = State::new(limits);
    matches!(R::check(instance, &mut cx), Ok(true))
}

/// Runs `R`'s error-collecting root on `instance` under `limits` (collecting annotations
/// too when `evaluating`); `finish` makes the answer.
#[inline(always)]
fn collected<'a, R: ErrorsRoot, V: Instance<'a>, T>(
    instance: V,
    limits: &Limits,
    evaluating: bool,
    finish: impl FnOnce(Errors, Done) -> T,
) -> T {
    let mut cx = if evaluating {
        Errors::evaluating(limits, R::SITES, R::FAULTS)
    } else {
        Errors::new(limits, R::SITES, R::FAULTS)
    };
    cx.rebase(R::BASE);
    let result = R::errors(instance, &mut cx);
    finish(cx, result)
}

/// Reads the JSON text `input` and runs `run` on its root under `R`'s limits grown with
/// the input ([`Document::read_then`]).
#[inline(always)]
fn read<R: Root, T>(
    input: &[u8],
    run: impl FnOnce(Node<'_>, &Limits) -> T,
) -> Result<T, SyntaxError> {
    Document::read_then(input, &R::LIMITS, run)
}

/// `true` when `instance` is valid (an incomplete check is never valid).
#[inline]
pub fn is_valid<R: Root>(instance: &Value) -> bool {
    passes::<R, _>(instance, &R::LIMITS)
}

/// Checks `instance`, stopping at the first failure.
#[inline]
pub fn check<R: Root>(instance: &Value) -> Verdict {
    checked::<R, _, _>(instance, &R::LIMITS, State::verdict)
}

/// [`check`], and what it spent of the limits.
#[inline]
pub fn check_with_usage<R: Root>(instance: &Value) -> (Verdict, Usage) {
    checked::<R, _, _>(instance, &R::LIMITS, State::verdict_and_usage)
}

/// [`is_valid`] on the JSON text `input`: `false` also where it is not JSON.
#[inline]
pub fn is_valid_json<R: Root>(input: &[u8]) -> bool {
    read::<R, _>(input, |root, limits| passes::<R, _>(root, limits)).unwrap_or(false)
}

/// [`check`] on the JSON text `input`, read in place.
#[inline]
pub fn check_json<R: Root>(input: &[u8]) -> Result<Verdict, SyntaxError> {
    read::<R, _>(input, |root, limits| {
        checked::<R, _, _>(root, limits, State::verdict)
    })
}

/// [`check_with_usage`] on the JSON text `input`, read in place.
#[inline]
pub fn check_json_with_usage<R: Root>(input: &[u8]) -> Result<(Verdict, Usage), SyntaxError> {
    read::<R, _>(input, |root, limits| {
        checked::<R, _, _>(root, limits, State::verdict_and_usage)
    })
}

/// Checks `instance` and collects every error.
#[inline]
pub fn validate<R: ErrorsRoot>(instance: &Value) -> Report {
    collected::<R, _, _>(instance, &R::LIMITS, false, Errors::finish)
}

/// [`validate`] on the JSON text `input`, read in place.
#[inline]
pub fn validate_json<R: ErrorsRoot>(input: &[u8]) -> Result<Report, SyntaxError> {
    read::<R, _>(input, |root, limits| {
        collected::<R, _, _>(root, limits, false, Errors::finish)
    })
}

/// Checks `instance`, collects every error and, when it is valid, every annotation.
#[inline]
pub fn evaluate<R: ErrorsRoot>(instance: &Value) -> Evaluation {
    collected::<R, _, _>(instance, &R::LIMITS, true, Errors::finish_evaluation)
}

/// [`evaluate`] on the JSON text `input`, read in place.
#[inline]
pub fn evaluate_json<R: ErrorsRoot>(input: &[u8]) -> Result<Evaluation, SyntaxError> {
    read::<R, _>(input, |root, limits| {
        collected::<R, _, _>(root, limits, true, Errors::finish_evaluation)
    })
}

/// Defines a generated module's `Validator`, its trait implementations and its entry
/// points, on the module's [`Root`] (and [`ErrorsRoot`]) implementation for `Validator`:
///
/// - `entry_points!(Validator, check)`: `is_valid`, `check`, `is_valid_json`,
///   `check_json`, and [`Check`](crate::Check);
/// - `entry_points!(Validator, validate)`: those, `validate`, `validate_json`, and
///   [`Validate`](crate::Validate) instead of `Check`; `, evaluate` after it adds
///   `evaluate`, `evaluate_json` and [`Evaluate`](crate::Evaluate); `, defaults` answers
///   `Validate::apply_defaults` with the module's `apply_defaults`.
///
/// Every public item is `#[allow(dead_code)]`: a crate that includes the validators in a
/// private module and uses a few gets no warning for the rest.
#[doc(hidden)]
#[macro_export]
macro_rules! __entry_points {
    ($validator:ident, check) => {
        /// The validator as a value, for code generic over [`Check`](__rt::Check).
        #[allow(dead_code)]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $validator;

        impl $crate::Check for $validator {
            fn check(&self, instance: &$crate::__private::serde_json::Value) -> $crate::Verdict {
                check(instance)
            }
        }

        $crate::__entry_points!(@check $validator);
    };
    ($validator:ident, validate $(, $extra:ident)*) => {
        /// The validator as a value, for code generic over [`Validate`](__rt::Validate).
        #[allow(dead_code)]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $validator;

        impl $crate::Validate for $validator {
            fn check(&self, instance: &$crate::__private::serde_json::Value) -> $crate::Verdict {
                check(instance)
            }
            fn validate(&self, instance: &$crate::__private::serde_json::Value) -> $crate::Report {
                validate(instance)
            }
            fn check_with_usage(
                &self,
                instance: &$crate::__private::serde_json::Value,
            ) -> ($crate::Verdict, $crate::Usage) {
                $crate::__private::entry::check_with_usage::<$validator>(instance)
            }
            fn is_valid(&self, instance: &$crate::__private::serde_json::Value) -> bool {
                is_valid(instance)
            }
            fn check_json(
                &self,
                input: &[u8],
            ) -> ::core::result::Result<$crate::Verdict, $crate::document::SyntaxError> {
                check_json(input)
            }
            fn validate_json(
                &self,
                input: &[u8],
            ) -> ::core::result::Result<$crate::Report, $crate::document::SyntaxError> {
                validate_json(input)
            }
            fn check_json_with_usage(
                &self,
                input: &[u8],
            ) -> ::core::result::Result<($crate::Verdict, $crate::Usage), $crate::document::SyntaxError>
            {
                $crate::__private::entry::check_json_with_usage::<$validator>(input)
            }
            fn is_valid_json(&self, input: &[u8]) -> bool {
                is_valid_json(input)
            }
            $($crate::__entry_points!(@validate_method $extra);)*
        }

        $crate::__entry_points!(@check $validator);

        /// Checks `instance` and collects every error.
        #[allow(dead_code)]
        pub fn validate(instance: &$crate::__private::serde_json::Value) -> $crate::Report {
            $crate::__private::entry::validate::<$validator>(instance)
        }

        /// [`validate`] on the JSON text `input`, read in place ([`check_json`]): errors
        /// located and worded as from a `Value`.
        #[allow(dead_code)]
        pub fn validate_json(
            input: &[u8],
        ) -> ::core::result::Result<$crate::Report, $crate::document::SyntaxError> {
            $crate::__private::entry::validate_json::<$validator>(input)
        }

        $($crate::__entry_points!(@extra $validator $extra);)*
    };
    (@check $validator:ident) => {
        /// `true` when `instance` is valid (an incomplete check is never valid).
        #[allow(dead_code)]
        pub fn is_valid(instance: &$crate::__private::serde_json::Value) -> bool {
            $crate::__private::entry::is_valid::<$validator>(instance)
        }

        /// Checks `instance`, stopping at the first failure.
        #[allow(dead_code)]
        pub fn check(instance: &$crate::__private::serde_json::Value) -> $crate::Verdict {
            $crate::__private::entry::check::<$validator>(instance)
        }

        /// [`is_valid`] on the JSON text `input`: `false` also where it is not JSON.
        #[allow(dead_code)]
        pub fn is_valid_json(input: &[u8]) -> bool {
            $crate::__private::entry::is_valid_json::<$validator>(input)
        }

        /// [`check`] on the JSON text `input`, read in place: no `Value` is built, the
        /// budget grows with the input (`Limits::for_input`); text that is not JSON (as
        /// `serde_json` reads it; duplicate keys: the last one wins) is `Err` with the
        /// byte offset where reading stopped.
        #[allow(dead_code)]
        pub fn check_json(
            input: &[u8],
        ) -> ::core::result::Result<$crate::Verdict, $crate::document::SyntaxError> {
            $crate::__private::entry::check_json::<$validator>(input)
        }
    };
    (@validate_method defaults) => {
        fn apply_defaults(&self, instance: &mut $crate::__private::serde_json::Value) -> bool {
            apply_defaults(instance)
        }
    };
    (@validate_method evaluate) => {};
    (@extra $validator:ident defaults) => {};
    (@extra $validator:ident evaluate) => {
        impl $crate::Evaluate for $validator {
            fn evaluate(&self, instance: &$crate::__private::serde_json::Value) -> $crate::Evaluation {
                evaluate(instance)
            }
            fn evaluate_json(
                &self,
                input: &[u8],
            ) -> ::core::result::Result<$crate::Evaluation, $crate::document::SyntaxError> {
                evaluate_json(input)
            }
        }

        /// Checks `instance`, collects every error and, when it is valid, every
        /// annotation of the subschemas that passed.
        #[allow(dead_code)]
        pub fn evaluate(instance: &$crate::__private::serde_json::Value) -> $crate::Evaluation {
            $crate::__private::entry::evaluate::<$validator>(instance)
        }

        /// [`evaluate`] on the JSON text `input`, read in place ([`check_json`]).
        #[allow(dead_code)]
        pub fn evaluate_json(
            input: &[u8],
        ) -> ::core::result::Result<$crate::Evaluation, $crate::document::SyntaxError> {
            $crate::__private::entry::evaluate_json::<$validator>(input)
        }
    };
}
