//! The JSON Schema Test Suite's output tests (`output-tests/<draft>/content/*.json`, the
//! `basic` format of 2020-12 and 2019-09) through a backend's `evaluate`.
//!
//! A test passes when the `basic` output of its instance is valid against the test's
//! `output.basic` schema, and every format's output (`flag`, `basic`, `detailed`,
//! `verbose`) is valid against its own `#/$defs/<format>` of the draft's
//! `output-schema.json` — both checked by schemac's interpreter.

use crate::backend::{Prepare, ToPrepare};
use crate::evaluation_cases::output_groups;
use crate::panics;
use crate::runner::{CaseFailure, SetOutcome};
use crate::suite::SetSpec;
use schemac::interp::Interpreter;
use schemac::{Compiler, Options};
use schemac_runtime::output::{self, Format};
use schemac_runtime::{Evaluation, Validate};
use serde_json::{json, Value};
use std::path::Path;

/// The output tests of one draft and the schemas their outputs are checked against.
pub struct OutputSet {
    /// The content tests' groups: (file name, index in the file, group).
    pub groups: Vec<(String, usize, Value)>,
    /// A compiler for the tests' `output` schemas: the draft's `output-schema.json`
    /// registered under its `$id`.
    pub output_compiler: Compiler,
    /// The `$id` of `output-schema.json`.
    pub output_schema_id: String,
}

impl OutputSet {
    /// Loads `output-tests/<draft>/` of the suite at `suite` (`spec.draft` names the draft,
    /// `spec.default_dialect` its dialect).
    pub fn load(suite: &Path, spec: &SetSpec) -> Result<OutputSet, String> {
        let dir = suite.join("output-tests").join(spec.draft);
        let schema = crate::paths::read_json(&dir.join("output-schema.json"))?;
        let id = schema
            .get("$id")
            .and_then(Value::as_str)
            .ok_or("output-schema.json has no `$id`")?
            .to_string();
        let mut output_compiler = Compiler::new(Options {
            default_dialect: spec.default_dialect,
            ..Options::default()
        });
        output_compiler
            .registry_mut()
            .add(&id, schema)
            .map_err(|e| format!("cannot register {id}: {e}"))?;
        Ok(OutputSet {
            groups: output_groups(suite, spec.draft)?,
            output_compiler,
            output_schema_id: id,
        })
    }

    /// The interpreter of `schema`, an output schema (which refers to `output-schema.json`).
    fn output_validator(&self, schema: &Value) -> Result<Interpreter, String> {
        self.output_compiler
            .compile(schema)
            .map(Interpreter::new)
            .map_err(|errors| format!("output schema does not compile: {errors:?}"))
    }

    /// Why `evaluation`'s outputs fail the test's `basic` schema or their formats' `$defs`,
    /// if they do.
    fn judge(&self, evaluation: &Evaluation, expected_basic: Option<&Value>) -> Result<(), String> {
        let mut problems = Vec::new();
        for format in Format::ALL {
            let out = output::evaluation(format, evaluation);
            let own =
                json!({"$ref": format!("{}#/$defs/{}", self.output_schema_id, format.name())});
            let mut checks = vec![(format!("$defs/{}", format.name()), own)];
            if let (Format::Basic, Some(basic)) = (format, expected_basic) {
                checks.push(("the test's basic schema".to_string(), basic.clone()));
            }
            for (what, schema) in checks {
                let report = self.output_validator(&schema)?.validate(&out);
                if !report.is_valid() {
                    problems.push(format!(
                        "{} output fails {what}: {out} ({:?})",
                        format.name(),
                        report.errors
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

/// Runs every output test of `set` through `prepare` with `compiler` (the draft's options
/// with annotations on, the offline registry); the outcome is labelled by `spec`.
pub fn run(
    spec: SetSpec,
    set: &OutputSet,
    compiler: &Compiler,
    backend: &'static str,
    prepare: Prepare<'_>,
) -> SetOutcome {
    let label = spec.label();
    let mut outcome = SetOutcome::new(backend, spec);
    for (file, index, group) in &set.groups {
        let description = group
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let name = format!("{}/output/{file}", spec.draft);
        let prepared = match group.get("schema") {
            Some(schema) => {
                let schema = ToPrepare {
                    compiler,
                    label: &label,
                    file,
                    index: *index,
                    schema,
                };
                panics::catch(|| prepare(&schema))
                    .unwrap_or_else(|panic| Err(format!("preparing the schema {panic}")))
            }
            None => Err("the group has no schema".to_string()),
        };
        let tests = group
            .get("tests")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for test in tests {
            let test_description = test
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let id = format!("{name}/{description}/{test_description}");
            outcome.case_ids.insert(id.clone());
            let result = match (&prepared, test.get("data")) {
                (Ok(evaluator), Some(data)) => panics::catch(|| evaluator.evaluate(data))
                    .map_err(|panic| format!("evaluating {panic}"))
                    .and_then(|evaluation| set.judge(&evaluation, test.pointer("/output/basic"))),
                (Err(reason), _) => Err(reason.clone()),
                (_, None) => Err("the test has no data".to_string()),
            };
            match result {
                Ok(()) => outcome.passed += 1,
                Err(reason) => outcome.failed.push(CaseFailure {
                    id,
                    file: file.clone(),
                    group: description.to_string(),
                    test: test_description.to_string(),
                    reason,
                }),
            }
        }
    }
    outcome
}
