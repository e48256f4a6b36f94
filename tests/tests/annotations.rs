//! Annotations through both backends' `evaluate`.
//!
//! - The cases of `tests/cases/annotations.json` (a schema, 2020-12 unless it says, and
//!   instances with the annotations each gives: `[instance location, keyword location,
//!   value]` and optionally the absolute keyword location; `null` when the instance is
//!   invalid), interpreted and through the generated evaluators of `tests/build.rs`: each
//!   backend gives exactly the expected annotations (in any order), and both give the same
//!   evaluation, annotations in the same order.
//! - The suite's annotation cases (2020-12, 2019-09): both backends give the same
//!   evaluation, every annotation included, in the same order.

use schemac::interp::Interpreter;
use schemac::{Dialect, Options};
use schemac_runtime::{Annotation, Evaluate, Evaluation};
use schemac_tests::evaluation_cases::{self, compatible, release};
use schemac_tests::{generated, paths, registry};
use serde_json::{json, Value};

fn options(dialect: Dialect) -> Options {
    Options {
        default_dialect: dialect,
        annotations: true,
        ..Options::default()
    }
}

/// An annotation as the cases write it, with its absolute location when `absolute`.
fn written(a: &Annotation, absolute: bool) -> Value {
    let mut row = vec![
        json!(a.instance_location),
        json!(a.keyword_location),
        a.value.clone(),
    ];
    if absolute {
        row.push(json!(a.absolute_keyword_location));
    }
    Value::Array(row)
}

/// Why `evaluation` does not give exactly `expected` (any order), if it does not.
fn mismatch(evaluation: &Evaluation, expected: &Value) -> Option<String> {
    let Some(expected) = expected.as_array() else {
        return evaluation
            .report
            .is_valid()
            .then(|| "expected the instance to be invalid".to_string());
    };
    if !evaluation.report.is_valid() {
        return Some(format!(
            "the instance is not valid: {:?}",
            evaluation.report.errors
        ));
    }
    let mut got: Vec<String> = evaluation
        .annotations
        .iter()
        .map(|a| written(a, false).to_string())
        .collect();
    let mut want: Vec<String> = expected
        .iter()
        .map(|row| match row.as_array() {
            Some(cells) => Value::Array(cells.iter().take(3).cloned().collect()).to_string(),
            None => row.to_string(),
        })
        .collect();
    got.sort();
    want.sort();
    if got != want {
        return Some(format!("expected {want:?}, got {got:?}"));
    }
    // The absolute locations the case states.
    expected
        .iter()
        .filter(|row| row.get(3).is_some())
        .find(|row| {
            !evaluation
                .annotations
                .iter()
                .any(|a| written(a, true) == **row)
        })
        .map(|row| format!("no annotation {row}"))
}

#[test]
fn applicator_annotations_in_both_backends() {
    let path = paths::workspace_root().join("tests/cases/annotations.json");
    let cases = paths::read_json(&path).expect("the annotation cases");
    let compiler = registry::compiler(options(Dialect::Draft2020_12)).expect("registry");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (index, case) in cases
        .as_array()
        .expect("a list of cases")
        .iter()
        .enumerate()
    {
        let description = case["description"].as_str().unwrap_or_default();
        let program = compiler
            .compile_named(description, &case["schema"])
            .unwrap_or_else(|e| panic!("{description}: {e:?}"));
        let interpreted = Interpreter::new(program);
        let generated = generated::lookup_evaluator("cases annotations", "annotations.json", index)
            .unwrap_or_else(|| panic!("no generated evaluator for {description}"));
        for test in case["tests"].as_array().expect("tests") {
            let data = &test["data"];
            let here = format!("{description} / {data}");
            let by_interpreter = interpreted.evaluate(data);
            let by_generated = generated.evaluate(data);
            for (backend, evaluation) in [
                ("interpreted", &by_interpreter),
                ("generated", &by_generated),
            ] {
                if let Some(why) = mismatch(evaluation, &test["annotations"]) {
                    failures.push(format!("[{backend}] {here}: {why}"));
                }
            }
            if by_interpreter != by_generated {
                failures.push(format!(
                    "{here}: the backends differ:\n  interpreted {:?}\n  generated   {:?}",
                    by_interpreter.annotations, by_generated.annotations
                ));
            }
            ran += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 35, "only {ran} instances");
}

#[test]
fn both_backends_give_the_suites_annotations_alike() {
    let suite = paths::suite_dir().expect("the JSON Schema Test Suite");
    let cases = evaluation_cases::load(&suite.join("annotations").join("tests")).expect("cases");
    let mut failures = Vec::new();
    let mut compared = 0;
    for (draft, dialect) in [
        ("draft2020-12", Dialect::Draft2020_12),
        ("draft2019-09", Dialect::Draft2019_09),
    ] {
        let base = registry::compiler(options(dialect)).expect("registry");
        let label = format!("{draft} annotations");
        for case in &cases {
            if !compatible(case.compatibility.as_deref(), release(dialect)) {
                continue;
            }
            let compiler = case.compiler(&base).expect("external schemas");
            let program = compiler
                .compile_named(&case.description, &case.schema)
                .unwrap_or_else(|e| panic!("{label} {}: {e:?}", case.description));
            let interpreted = Interpreter::new(program);
            let generated = generated::lookup_evaluator(&label, &case.file, case.index)
                .unwrap_or_else(|| panic!("no generated evaluator for {}", case.description));
            for (instance, _) in &case.tests {
                let (a, b) = (interpreted.evaluate(instance), generated.evaluate(instance));
                if a != b {
                    failures.push(format!(
                        "{label} {} / {instance}:\n  interpreted {:?}\n  generated   {:?}",
                        case.description, a.annotations, b.annotations
                    ));
                }
                compared += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 98, "only {compared} instances compared");
}
