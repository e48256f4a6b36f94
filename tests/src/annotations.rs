//! The JSON Schema Test Suite's annotation tests (`annotations/tests/*.json`) through a
//! backend's `evaluate`.
//!
//! Each file holds cases (a schema, its `externalSchemas` and tests); a case runs under a
//! dialect when its `compatibility` admits the dialect's release. A test passes when, for
//! each assertion, the annotations the evaluation gave at the assertion's instance location
//! for its keyword are exactly the expected ones, by schema location. The expected
//! schema locations (`#/properties/foo`) are relative to the case's schema; they are
//! resolved to the absolute URIs the annotations carry by walking the schema, `$id` by
//! `$id`.

use crate::backend::{Prepare, ToPrepare};
use crate::evaluation_cases::{compatible, release, schema_uri, Assertion, Case};
use crate::panics;
use crate::runner::{CaseFailure, SetOutcome};
use crate::suite::SetSpec;
use schemac::{Compiler, Dialect};
use schemac_runtime::Evaluation;
use serde_json::{Map, Value};

/// Why a test's evaluation does not meet `assertions`, if it does not.
fn judge(
    case: &Case,
    dialect: Dialect,
    evaluation: &Evaluation,
    assertions: &[Assertion],
) -> Option<String> {
    if !evaluation.report.is_valid() {
        return Some(format!(
            "the instance is not valid: {:?}",
            evaluation.report.verdict
        ));
    }
    let mut problems = Vec::new();
    for assertion in assertions {
        let mut got = Map::new();
        for a in &evaluation.annotations {
            if a.instance_location == assertion.location && a.keyword() == assertion.keyword {
                let token_len =
                    a.keyword_location.len() - a.keyword_location.rfind('/').unwrap_or(0);
                let at = &a.absolute_keyword_location;
                got.insert(at[..at.len() - token_len].to_string(), a.value.clone());
            }
        }
        let mut expected = Map::new();
        for (relative, value) in &assertion.expected {
            match schema_uri(&case.schema, relative, dialect) {
                Some(absolute) => expected.insert(absolute, value.clone()),
                None => {
                    return Some(format!(
                        "expected location {relative:?} is not in the schema"
                    ))
                }
            };
        }
        if got != expected {
            problems.push(format!(
                "at {:?} `{}`: expected {}, got {}",
                assertion.location,
                assertion.keyword,
                Value::Object(expected),
                Value::Object(got)
            ));
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// Runs every case compatible with `spec`'s dialect through `prepare`, with `compiler`
/// (the offline registry; its options get annotations on and the dialect as default).
pub fn run(
    spec: SetSpec,
    cases: &[Case],
    compiler: &Compiler,
    backend: &'static str,
    prepare: Prepare<'_>,
) -> SetOutcome {
    let label = spec.label();
    let dialect = spec.default_dialect;
    let mut outcome = SetOutcome::new(backend, spec);
    for case in cases {
        if !compatible(case.compatibility.as_deref(), release(dialect)) {
            continue;
        }
        let prepared = case.compiler(compiler).and_then(|compiler| {
            let schema = ToPrepare {
                compiler: &compiler,
                label: &label,
                file: &case.file,
                index: case.index,
                schema: &case.schema,
            };
            panics::catch(|| prepare(&schema))
                .unwrap_or_else(|panic| Err(format!("preparing the schema {panic}")))
        });
        for (index, (instance, assertions)) in case.tests.iter().enumerate() {
            let id = format!(
                "{}/annotations/{}/{}/{index}",
                spec.draft, case.file, case.description
            );
            outcome.case_ids.insert(id.clone());
            let result = match &prepared {
                Ok(evaluator) => panics::catch(|| evaluator.evaluate(instance))
                    .map_err(|panic| format!("evaluating {panic}"))
                    .map(|evaluation| judge(case, dialect, &evaluation, assertions)),
                Err(reason) => Err(reason.clone()),
            };
            match result {
                Ok(None) => outcome.passed += 1,
                Ok(Some(reason)) | Err(reason) => outcome.failed.push(CaseFailure {
                    id,
                    file: case.file.clone(),
                    group: case.description.clone(),
                    test: index.to_string(),
                    reason,
                }),
            }
        }
    }
    outcome
}
