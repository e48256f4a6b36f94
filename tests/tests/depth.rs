//! Deep instances in both backends (issue 9, item 11): depth counts how deep evaluation
//! goes into the instance and how far a cycle nests without progress, so deep but
//! legitimate instances — schemas checked against their meta-schema — get verdicts, while
//! deeper instances, cycles without progress and a schema built to exhaust the stack end
//! `incomplete`. Every validation runs on a thread with a 2 MiB stack; generated code is
//! built at opt-level 0 (the test profile of this crate) and the interpreter at the test
//! profile's opt-level 1.
//!
//! CI runs these tests a second time as a debug build compiles them (issue 38 item 8):
//! the interpreter and the runtime at opt-level 0 too, with [`UNOPTIMIZED`] set. Their
//! frames are then several times larger than the stack guard's units count, and the stack
//! the guard measures stops them instead (`schemac_runtime::Budget::enter_region`): no
//! depth overflows the stack, but a legitimately deep instance may end `incomplete` there
//! where an optimized build gives its verdict. Shallower ones — as deep as serde_json
//! parses by default (128) — get verdicts in every build.
//!
//! The schemas are the groups of `tests/fixtures/depth.json`, so that their generated
//! validators exist; the fixture test runs their shallow cases.

use schemac_runtime::error::IncompleteReason;
use schemac_runtime::{json::drop_deep, Limits, Validate, Verdict};
use schemac_tests::generated;
use schemac_tests::registry;
use schemac_tests::suite::{fixtures_dir, Set, FIXTURES};
use serde_json::{json, Value};
use std::sync::Arc;

/// A fixture group of `depth.json` in both backends: `[interpreted, generated]`.
fn validators(index: usize) -> [Arc<dyn Validate + Send + Sync>; 2] {
    let set = Set::load_dir(&fixtures_dir(), FIXTURES).unwrap_or_else(|e| panic!("{e}"));
    let group = set
        .files
        .iter()
        .find(|f| f.name == "depth.json")
        .and_then(|f| f.groups.get(index))
        .expect("the depth fixtures");
    let compiler = registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
    let program = compiler
        .compile_named("depth.json", &group.schema)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let generated =
        generated::lookup(&FIXTURES.label(), "depth.json", index).expect("generated at build time");
    [
        Arc::new(schemac::interp::Interpreter::new(program)),
        Arc::new(Static(generated)),
    ]
}

/// A generated validator behind an `Arc`.
struct Static(&'static (dyn Validate + Sync));

impl Validate for Static {
    fn check(&self, instance: &Value) -> Verdict {
        self.0.check(instance)
    }
    fn validate(&self, instance: &Value) -> schemac_runtime::Report {
        self.0.validate(instance)
    }
    fn check_with_usage(&self, instance: &Value) -> (Verdict, schemac_runtime::Usage) {
        self.0.check_with_usage(instance)
    }
}

/// `check` and `validate`'s verdicts of `instance` in both backends, each run on a thread
/// with a 2 MiB stack; the instance is dropped without recursion.
fn verdicts(index: usize, instance: Value) -> Vec<Verdict> {
    let instance = Arc::new(instance);
    let mut out = Vec::new();
    for v in validators(index) {
        let instance = Arc::clone(&instance);
        let thread = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || [v.check(&instance), v.validate(&instance).verdict])
            .expect("spawn");
        out.extend(thread.join().expect("no stack overflow"));
    }
    if let Ok(instance) = Arc::try_unwrap(instance) {
        drop_deep(instance);
    }
    out
}

/// `verdict` four times: `check` and `validate` in both backends.
fn all(verdict: Verdict) -> Vec<Verdict> {
    vec![verdict; 4]
}

/// The environment variable that says the interpreter and the runtime were built at
/// opt-level 0 (see the module documentation).
const UNOPTIMIZED: &str = "SCHEMAC_UNOPTIMIZED";

/// Asserts that `verdicts` (as [`verdicts`] gives them) are `expected` four times, or, in
/// an unoptimized build, that each is `expected` or stopped by the measured stack guard.
#[track_caller]
fn assert_deep(verdicts: Vec<Verdict>, expected: Verdict, what: &str) {
    if std::env::var_os(UNOPTIMIZED).is_none() {
        assert_eq!(verdicts, all(expected), "{what}");
        return;
    }
    let stopped = Verdict::Incomplete(IncompleteReason::DepthExceeded);
    assert!(
        verdicts.iter().all(|v| *v == expected || *v == stopped),
        "{what}: {verdicts:?}"
    );
}

/// `levels` times `wrap` around `leaf`, built without recursion.
fn nest(levels: usize, leaf: Value, wrap: impl Fn(Value) -> Value) -> Value {
    (0..levels).fold(leaf, |v, _| wrap(v))
}

const META: usize = 0;
const ARRAYS: usize = 1;
const LOOP: usize = 2;
const WORST: usize = 3;
const CHAIN: usize = 4;
const ACYCLIC: usize = 5;

#[test]
fn deep_schemas_get_verdicts_against_the_meta_schema() {
    // The 2020-12 meta-schema recurs through `$dynamicRef` and several vocabulary
    // resources per level of the schema; 64 levels of `items` used to be incomplete.
    let items = |s| json!({"items": s});
    // In every build.
    let schema = nest(16, json!({"type": "string"}), items);
    assert_eq!(verdicts(META, schema), all(Verdict::Valid), "items x16");
    for levels in [64, 150] {
        let schema = nest(levels, json!({"type": "string"}), items);
        let what = format!("items x{levels}");
        assert_deep(verdicts(META, schema), Verdict::Valid, &what);
        let schema = nest(levels, json!({"type": 5}), items);
        assert_deep(verdicts(META, schema), Verdict::Invalid, &what);
    }
    // `properties` is two levels of instance per level of schema.
    let properties = |s| json!({"properties": {"a": s}, "required": ["a"]});
    let schema = nest(75, json!({"type": "string"}), properties);
    assert_deep(verdicts(META, schema), Verdict::Valid, "properties x75");
    let schema = nest(75, json!({"minLength": -1}), properties);
    assert_deep(verdicts(META, schema), Verdict::Invalid, "properties x75");
}

#[test]
fn instance_depth_is_bounded_exactly() {
    let max = Limits::DEFAULT_MAX_DEPTH as usize;
    let arrays = |levels| nest(levels, json!([]), |v| Value::Array(vec![v]));
    // As deep as serde_json parses by default: a verdict in every build.
    assert_eq!(verdicts(ARRAYS, arrays(128)), all(Verdict::Valid));
    assert_deep(
        verdicts(ARRAYS, arrays(max)),
        Verdict::Valid,
        "arrays at the bound",
    );
    let depth = Verdict::Incomplete(IncompleteReason::DepthExceeded);
    assert_eq!(verdicts(ARRAYS, arrays(max + 1)), all(depth.clone()));
    assert_eq!(verdicts(ARRAYS, arrays(100_000)), all(depth));
    // A failure found before the bound decides.
    let bad = Value::Array(vec![json!(1), arrays(100_000)]);
    assert_eq!(verdicts(ARRAYS, bad), all(Verdict::Invalid));
}

#[test]
fn cycles_without_progress_are_incomplete() {
    let depth = Verdict::Incomplete(IncompleteReason::DepthExceeded);
    assert_eq!(verdicts(LOOP, json!("text")), all(depth.clone()));
    assert_eq!(verdicts(LOOP, json!([[1]])), all(depth));
}

#[test]
fn the_stack_guard_holds_on_a_worst_case_schema() {
    // 31 subschemas on a cycle per level of the instance, each with 73 inline subschemas
    // (one frame in generated short-circuit code).
    let depth = Verdict::Incomplete(IncompleteReason::DepthExceeded);
    let strings = |levels| nest(levels, json!("leaf"), |v| Value::Array(vec![v]));
    assert_eq!(verdicts(WORST, strings(3)), all(Verdict::Valid));
    assert_eq!(verdicts(WORST, strings(100_000)), all(depth.clone()));
    // 32 subschemas with one edge each on a cycle per level: the most nested
    // evaluations (the interpreter's frames) the guard allows.
    assert_eq!(verdicts(CHAIN, strings(3)), all(Verdict::Valid));
    assert_eq!(verdicts(CHAIN, strings(100_000)), all(depth));
}

#[test]
fn the_stack_guard_holds_on_an_acyclic_chain_of_references() {
    // 1,500 `$ref`s applied in place, one after another: no cycle and no step into the
    // instance, but as deep in the stack as the guard's default units allow (5 per link:
    // 7,500 of 8,192). A program that could nest past the part of the bound where the
    // stack is not measured counts its depth (`Plan::depth_free`); at opt-level 0 the
    // interpreter's frames for this chain are ~15 KiB per link, and it overflowed a
    // 2 MiB stack when the plan counted nothing.
    assert_deep(
        verdicts(ACYCLIC, json!(1)),
        Verdict::Valid,
        "the chain's integer",
    );
    assert_deep(verdicts(ACYCLIC, json!("1")), Verdict::Invalid, "a string");
}

/// A chain of `links` subschemas `link` of them each, to `{"type": "integer"}`: `link`
/// takes the reference to the next.
fn chain(links: usize, link: impl Fn(String) -> Value) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..links {
        defs.insert(format!("d{i}"), link(format!("#/$defs/d{}", i + 1)));
    }
    defs.insert(format!("d{links}"), json!({"type": "integer"}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

/// Compiles `schema` for both backends and checks `1` and `"1"` with the interpreter, on
/// a thread with a 2 MiB stack: valid / invalid, or stopped by the depth bound.
#[track_caller]
fn compiles_and_checks_on_a_small_stack(schema: Value) {
    let compile = move || {
        let compiler = registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
        let program = compiler
            .compile_named("chain.json", &schema)
            .unwrap_or_else(|e| panic!("{e:?}"));
        let unit = schemac::emit::Unit {
            module: "chain",
            source: "chain.json",
            file: "chain.json",
            schema_text: None,
            program: &program,
            tool: None,
        };
        let generated =
            schemac::emit::generate_tokens(&[unit], &schemac::emit::EmitOptions::default());
        let interpreter = schemac::interp::Interpreter::new(program);
        let verdicts = [interpreter.check(&json!(1)), interpreter.check(&json!("1"))];
        (generated.map(|tokens| tokens.is_empty()), verdicts)
    };
    let (generated, verdicts) = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(compile)
        .expect("spawn")
        .join()
        .expect("no stack overflow");
    assert_eq!(generated.map_err(|e| e.to_string()), Ok(false));
    let stopped = Verdict::Incomplete(IncompleteReason::DepthExceeded);
    assert!(
        matches!(verdicts[0], Verdict::Valid) || verdicts[0] == stopped,
        "{verdicts:?}"
    );
    assert!(
        matches!(verdicts[1], Verdict::Invalid) || verdicts[1] == stopped,
        "{verdicts:?}"
    );
}

#[test]
fn chains_near_the_subschema_bound_compile_on_a_small_stack() {
    // Planning walks such chains without recursion (the interpreter's splicing of inline
    // lanes, and its names-evaluated analysis for `unevaluatedProperties`), and
    // evaluation counts their depth. The default `max_subschemas` is 10,000.
    compiles_and_checks_on_a_small_stack(chain(9_000, |next| json!({"$ref": next})));
    compiles_and_checks_on_a_small_stack(chain(
        3_000,
        |next| json!({"allOf": [{"$ref": next}], "unevaluatedProperties": false}),
    ));
}
