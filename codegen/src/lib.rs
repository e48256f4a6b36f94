//! schemac: a staged compiler for JSON Schema 2020-12, 2019-09, draft-07, draft-06 and
//! draft-04.
//!
//! Validate at run time in one line, as with `jsonschema`:
//!
//! ```
//! use schemac::Validate;
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "required": ["query"]});
//! let validator = schemac::validator_for(&schema)?; // every compile error at once
//! assert!(validator.is_valid(&json!({"query": "rust"})));
//! assert!(!validator.is_valid(&json!({})));
//!
//! assert!(schemac::is_valid(&schema, &json!({"query": "rust"}))?);
//!
//! let mcp = schemac::options().mcp().assert_format(true).build(&schema)?;
//! let report = mcp.validate(&json!({"q": 1}));
//! assert_eq!(report.errors[0].instance_location, "");
//! # Ok::<(), schemac::CompileErrors>(())
//! ```
//!
//! The validator is the [`interp::Interpreter`], behind the runtime's [`Validate`] trait,
//! which the code generated at build time (`schemac-build`) implements too.
//!
//! The pipeline, one module per stage:
//!
//! 0. [`dialect`] — what `$schema` means: dialects, vocabularies and each dialect's
//!    keywords, read by both `load` and `check`;
//! 1. [`load`] — documents, resources, base URIs and the offline [`load::Registry`];
//! 2. [`check`] — keyword shapes and limits, every reference resolved once;
//! 3. [`ir`] — the compiled [`ir::Program`] (lowered by `check`), plus its analysis;
//! 4. [`plan`] — what both backends follow: sharing, check order, inlining, budget charge
//!    points;
//! 5. [`regex`] — ECMA-262 patterns compiled to DFA / Pike VM tables;
//! 6. [`interp`] — the interpreter backend over the IR (run time);
//! 7. [`emit`] — the Rust backend (build time, feature `emit`).
//!
//! [`driver`] takes a generator's inputs — schema files, directories, MCP tool lists — to
//! named, compiled units for [`emit`]: the path the CLI, `schemac-build` and the tests
//! share.
//!
//! The same steps by hand:
//!
//! ```
//! use schemac::{Compiler, Options};
//! use schemac_runtime::Validate;
//!
//! let schema = serde_json::json!({"type": "object", "required": ["query"]});
//! let program = Compiler::new(Options::default()).compile(&schema).unwrap();
//! let validator = schemac::interp::Interpreter::new(program);
//! assert!(validator.is_valid(&serde_json::json!({"query": "rust"})));
//! assert!(!validator.is_valid(&serde_json::json!({})));
//! ```
#![deny(missing_docs)]

mod api;
pub mod check;
pub mod dialect;
pub mod driver;
#[cfg(feature = "emit")]
pub mod emit;
pub mod error;
pub mod interp;
pub mod ir;
pub mod load;
pub mod mcp;
pub mod names;
mod options;
pub mod plan;
pub mod regex;
pub mod work;

pub use api::{is_valid, options, validator_for, CompileErrors, ValidatorOptions};
pub use check::Compiler;
pub use dialect::Dialect;
pub use error::{CompileError, CompileErrorKind, CompileWarning, Location};
pub use options::{Options, RefPolicy, UnsupportedRegexPolicy};
pub use schemac_runtime::Validate;
