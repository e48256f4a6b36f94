//! Compile work, counted: the phases (load, check and lowering, analysis, plan, the
//! interpreter's planning, emit) add the elements their loops visit — subschemas, checks,
//! edges, vertices of the plan's graphs — to a per-thread count, so that a test can show
//! that compiling a schema costs work near-linear in its size (see
//! `tests/tests/compile_work.rs`) without timing anything.
//!
//! ```
//! let schema = serde_json::json!({"properties": {"a": {"type": "string"}}});
//! let (program, work) = schemac::work::counted(|| schemac::validator_for(&schema));
//! assert!(program.is_ok() && work > 0);
//! ```

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Adds `units` to this thread's count.
pub(crate) fn add(units: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(units as u64)));
}

/// Runs `f` and returns its result with the compile work it counted on this thread.
pub fn counted<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = WORK.with(Cell::get);
    let out = f();
    (out, WORK.with(Cell::get).saturating_sub(before))
}
