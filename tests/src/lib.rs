//! Shared helpers for schemac's conformance tests.
//!
//! - [`paths`]: where the shared folder and the JSON Schema Test Suite are;
//! - [`registry`]: the offline documents every suite schema may reach (the suite's
//!   `remotes/` under `http://localhost:1234/`, the meta-schemas under their `$id`s);
//! - [`suite`]: the suite's sets (`required`, `optional`, `format` per draft), loaded;
//! - [`backend`]: the pluggable list of backends a case runs through;
//! - [`generated`]: the suite's schemas compiled into Rust at build time (`build.rs`);
//! - [`evaluation_cases`], [`annotations`], [`output`]: the suite's annotation and output
//!   tests, loaded, and run through `evaluate`;
//! - [`hostile`]: the hostile schemas of issue 9, compiled into Rust at build time too;
//! - [`corpus`]: the shared corpora of real schemas and instances (`bench-corpus/`,
//!   `realworld/cases/`), compiled into Rust at build time for the budget test;
//! - [`runner`]: running a set through a backend, and the expected-failures list;
//! - [`rng`]: a seeded random number generator for generated cases;
//! - [`panics`]: catching a panic with its message and location, quietly;
//! - [`fuzzing`]: the bodies of the fuzz targets in `fuzz/`, replayed by a plain test.

pub mod annotations;
pub mod backend;
pub mod corpus;
pub mod custom;
pub mod evaluation_cases;
pub mod fuzzing;
pub mod generated;
pub mod hostile;
pub mod output;
pub mod panics;
pub mod paths;
pub mod registry;
pub mod rng;
pub mod runner;
pub mod suite;
