//! Compile work grows near-linearly with the schema (issue 38, item 4): each shape is
//! compiled at 1x, 4x and 16x its size — loaded, checked and lowered, planned for the
//! interpreter, and generated as Rust — and the work the phases count
//! (`schemac::work`) may grow at most [`MAX_GROWTH`] times per 4x. A quadratic phase grows
//! about 16 times per 4x (a chain of `$defs` took 30 s to plan at 5,000 links).

use schemac::emit::{generate, EmitOptions, Unit};
use schemac::interp::Interpreter;
use schemac::{CompileErrorKind, Compiler, Options};
use serde_json::{json, Map, Value};

/// The most the counted work may grow when the schema grows 4 times: linear is 4, the
/// rest is room for logarithmic factors (sorting, partition refinement).
const MAX_GROWTH: f64 = 6.0;

/// `n` `$defs` linked by `properties/x/$ref`, the last an integer.
fn chain(n: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"properties": {"x": {"$ref": next}}}),
        );
    }
    defs.insert(format!("d{n}"), json!({"type": "integer"}));
    json!({"$ref": "#/$defs/d0", "$defs": defs})
}

/// `n` `$defs` that are only a `$ref` to the next (wrappers the plan skips).
fn wrappers(n: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        defs.insert(
            format!("w{i}"),
            json!({"$ref": format!("#/$defs/w{}", i + 1)}),
        );
    }
    defs.insert(format!("w{n}"), json!({"minimum": 1}));
    json!({"properties": {"a": {"$ref": "#/$defs/w0"}}, "$defs": defs})
}

/// `n` resources in a ring, each with a `$dynamicAnchor`, a `$dynamicRef` to it and a
/// `$ref` to the next.
fn dynamic_ring(n: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        defs.insert(
            format!("r{i}"),
            json!({
                "$id": format!("https://example.com/r{i}"),
                "$dynamicAnchor": "node",
                "properties": {
                    "y": {"$dynamicRef": "#node"},
                    "x": {"$ref": format!("https://example.com/r{}", (i + 1) % n)}
                }
            }),
        );
    }
    json!({"$id": "https://example.com/root", "$ref": "https://example.com/r0", "$defs": defs})
}

/// `n` properties with bounds and `n / 4` patterns.
fn wide(n: usize) -> Value {
    let properties: Map<String, Value> = (0..n)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"type": "string", "minLength": i % 7}),
            )
        })
        .collect();
    let patterns: Map<String, Value> = (0..n / 4)
        .map(|i| (format!("^q{i}_[a-z]+$"), json!({"type": "integer"})))
        .collect();
    json!({"properties": properties, "patternProperties": patterns, "required": ["p0"]})
}

/// `n` levels of `properties` with an `items` beside each and a `$ref` back to the root
/// at the bottom.
fn deep(n: usize) -> Value {
    let mut schema = json!({"$ref": "#", "type": "object"});
    for i in 0..n {
        schema =
            json!({"properties": {"a": schema, "b": {"minimum": i}}, "items": {"type": "string"}});
    }
    schema
}

/// The work of compiling `schema`, planning it for the interpreter and generating code
/// for it (when `emit`).
fn work(schema: &Value, emit: bool) -> u64 {
    let (_, units) = schemac::work::counted(|| {
        let program = Compiler::new(Options::default())
            .compile(schema)
            .expect("the schema compiles");
        if emit {
            let unit = Unit {
                module: "shape",
                source: "shape.json",
                file: "shape.json",
                schema_text: None,
                program: &program,
                tool: None,
            };
            generate(&[unit], &EmitOptions::default()).expect("code is generated");
        }
        Interpreter::new(program)
    });
    units
}

/// Asserts that the work for `shape` at `base`, 4 × `base` and 16 × `base` grows
/// near-linearly.
fn assert_near_linear(name: &str, shape: fn(usize) -> Value, base: usize, emit: bool) {
    let counts: Vec<u64> = [1, 4, 16]
        .iter()
        .map(|k| work(&shape(base * k), emit))
        .collect();
    for pair in counts.windows(2) {
        let growth = pair[1] as f64 / pair[0] as f64;
        assert!(
            growth <= MAX_GROWTH,
            "{name}: work {counts:?} at sizes {base} × 1, 4, 16 grows {growth:.1} times per 4x"
        );
    }
}

#[test]
fn a_chain_of_defs_compiles_in_near_linear_work() {
    assert_near_linear("chain", chain, 150, true);
}

#[test]
fn a_chain_of_reference_wrappers_compiles_in_near_linear_work() {
    assert_near_linear("wrappers", wrappers, 150, true);
}

#[test]
fn a_wide_schema_compiles_in_near_linear_work() {
    assert_near_linear("wide", wide, 100, true);
}

#[test]
fn deep_nesting_compiles_in_near_linear_work() {
    // 3, 12 and 48 levels: the default `max_schema_depth` is 64.
    assert_near_linear("deep", deep, 3, true);
}

#[test]
fn a_ring_of_dynamic_anchors_plans_in_near_linear_work() {
    // 6, 24 and 96 resources, each `$dynamicRef` landing in any of them: 9,216 places at
    // 96, under `max_dynamic_targets`. The interpreter plans them in near-linear work;
    // generated code holds a branch per place (below).
    assert_near_linear("dynamic ring", dynamic_ring, 6, false);
}

#[test]
fn dynamic_targets_past_the_bound_are_a_compile_error_naming_it() {
    // 2,001 resources (the example) ran past a minute; 101 × 101 places already
    // pass the default bound of 10,000.
    for n in [101, 2001] {
        let errors = Compiler::new(Options::default())
            .compile(&dynamic_ring(n))
            .expect_err("too many places for $dynamicRefs to land");
        let error = &errors[0];
        assert_eq!(
            error.kind,
            CompileErrorKind::TooManyDynamicTargets,
            "{error}"
        );
        assert!(error.message.contains("max_dynamic_targets"), "{error}");
        assert_eq!(
            error.location.keyword.as_deref(),
            Some("$dynamicRef"),
            "{error}"
        );
    }
    // Raised, the bound admits the ring.
    let options = Options {
        max_dynamic_targets: 101 * 101,
        ..Options::default()
    };
    assert!(Compiler::new(options).compile(&dynamic_ring(101)).is_ok());
}
