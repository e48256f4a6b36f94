//! Annotations through both backends' `evaluate`.
//!
//! - The cases of `tests/cases/annotations.json` (a schema, 2020-12 unless it says, and
//!   instances with the annotations each gives: `[instance location, keyword location,
//!   value]` and optionally the absolute keyword location; `null` when the instance is
//!   invalid), interpreted and through the generated evaluators of `tests/build.rs`: each
//!   backend gives exactly the expected annotations (in any order), and both give the same
//!   evaluation, annotations in the same order.
//! - The suite's annotation cases (2020-12, 2019-09): both backends give the same
//!   evaluation, every annotation and unit included, in the same order.
//! - In both sets, each backend's `evaluate_json` on the instance's text gives what its
//!   `evaluate` gives on the `Value`, and so does the interpreter's
//!   `evaluate_json_compact` (the compact form, as the CLI reads large inputs).
//! - The `verbose` output of every case's instances: valid against the 2020-12 output
//!   schema's `$defs/verbose`, with a unit for every subschema evaluated.

use schemac::interp::Interpreter;
use schemac::{Dialect, Options};
use schemac_runtime::output::{self, Format};
use schemac_runtime::{Annotation, Evaluate, Evaluation, Validate};
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

/// What each way of evaluating `instance` from its text gives that differs from `expected`
/// (`evaluate` on the `Value`): each backend's `evaluate_json`, the interpreter's
/// `evaluate_json_compact`.
fn from_bytes_mismatches(
    interpreted: &Interpreter,
    generated: &dyn Evaluate,
    instance: &Value,
    expected: &Evaluation,
) -> Vec<String> {
    let text = serde_json::to_vec(instance).expect("a Value serializes");
    let runs = [
        (
            "interpreted evaluate_json",
            interpreted.evaluate_json(&text),
        ),
        ("generated evaluate_json", generated.evaluate_json(&text)),
        (
            "interpreted evaluate_json_compact",
            interpreted.evaluate_json_compact(&text),
        ),
    ];
    runs.into_iter()
        .filter(|(_, evaluation)| evaluation.as_ref() != Ok(expected))
        .map(|(how, evaluation)| format!("{how}: {evaluation:?}\n  from the Value: {expected:?}"))
        .collect()
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
            for why in from_bytes_mismatches(&interpreted, generated, data, &by_interpreter) {
                failures.push(format!("{here}: {why}"));
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
                for why in from_bytes_mismatches(&interpreted, generated, instance, &a) {
                    failures.push(format!("{label} {} / {instance}: {why}", case.description));
                }
                compared += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 98, "only {compared} instances compared");
}

/// Every unit of an output below its root: (keyword location, instance location, valid,
/// whether it has annotations or an annotation).
fn all_units(unit: &Value, out: &mut Vec<(String, String, bool, bool)>) {
    for key in ["errors", "annotations"] {
        for child in unit
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.push((
                child["keywordLocation"].as_str().unwrap_or_default().into(),
                child["instanceLocation"]
                    .as_str()
                    .unwrap_or_default()
                    .into(),
                child["valid"] == json!(true),
                child.get("annotations").is_some() || child.get("annotation").is_some(),
            ));
            all_units(child, out);
        }
    }
}

#[test]
fn verbose_output_lists_every_evaluated_subschema() {
    let suite = paths::suite_dir().expect("the JSON Schema Test Suite");
    let dir = suite.join("output-tests").join("draft2020-12");
    let schema = paths::read_json(&dir.join("output-schema.json")).expect("output schema");
    let id = schema["$id"].as_str().expect("an $id").to_string();
    let mut compiler = schemac::Compiler::new(Options::default());
    compiler
        .registry_mut()
        .add(&id, schema)
        .expect("registered");
    let verbose_schema = compiler
        .compile(&json!({"$ref": format!("{id}#/$defs/verbose")}))
        .map(Interpreter::new)
        .expect("the verbose schema compiles");

    let path = paths::workspace_root().join("tests/cases/annotations.json");
    let cases = paths::read_json(&path).expect("the annotation cases");
    let cases_compiler = registry::compiler(options(Dialect::Draft2020_12)).expect("registry");
    let mut failures = Vec::new();
    let mut valid_without_annotations = 0;
    for case in cases.as_array().expect("a list of cases") {
        let description = case["description"].as_str().unwrap_or_default();
        let interpreted = Interpreter::new(
            cases_compiler
                .compile_named(description, &case["schema"])
                .expect("compiles"),
        );
        for test in case["tests"].as_array().expect("tests") {
            let evaluation = interpreted.evaluate(&test["data"]);
            let out = output::evaluation(Format::Verbose, &evaluation);
            let here = format!("{description} / {}", test["data"]);
            let report = verbose_schema.validate(&out);
            if !report.is_valid() {
                failures.push(format!(
                    "{here}: {out} fails $defs/verbose: {:?}",
                    report.errors
                ));
            }
            let mut listed = Vec::new();
            all_units(&out, &mut listed);
            for unit in evaluation
                .units
                .iter()
                .filter(|u| !u.keyword_location.is_empty())
            {
                let found = listed.iter().any(|(k, i, valid, _)| {
                    *k == unit.keyword_location
                        && *i == unit.instance_location
                        && *valid == unit.valid
                });
                if !found {
                    failures.push(format!("{here}: no unit for {unit:?} in {out}"));
                }
            }
            valid_without_annotations += listed
                .iter()
                .filter(|(_, _, valid, annotates)| *valid && !annotates)
                .count();
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        valid_without_annotations >= 10,
        "only {valid_without_annotations} such units"
    );
}
