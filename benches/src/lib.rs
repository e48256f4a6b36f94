//! The schemac benchmark: generated `is_valid` against the interpreter, the other Rust
//! validators (jsonschema, jsonschema-macros, boon) and, for the MCP workloads, a
//! hand-written check on `serde_json::Value`.
//!
//! This library holds what needs no peer: the [`workloads`] (schemas from the shared
//! folder with their instances), the [`generated`] validators (compiled by `build.rs`
//! through `schemac-build`), the [`interpreted`] ones, the [`handwritten`] checks and the
//! [`report`] tables. The peers are dev-dependencies, wrapped in `peers/mod.rs`, which the
//! differential test (`tests/differential.rs`) and the benchmark
//! (`benches/validators.rs`) include.
//!
//! ```text
//! cargo bench -p schemac-benches -- --warm-up-time 1 --measurement-time 2
//! ```
//!
//! prints criterion's lines, then the ratio tables of this run.
//!
//! Two small programs go with it: `src/bin/sizes.rs` prints the size of the generated code
//! (bench corpus and real-world `ss-*` schemas, `validate` on and off) and
//! `src/bin/chart.rs` draws a run's SVG chart again from its JSON table (`BENCHMARKS.md`
//! gives their commands).

pub mod catalog;
pub mod generated;
pub mod handwritten;
pub mod interpreted;
pub mod paths;
pub mod report;
pub mod workloads;
