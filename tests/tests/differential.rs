//! The interpreter and the generated code agree: for every case of every set compiled
//! into generated code (tests/build.rs: the suite's sets and the project's fixtures),
//! both give the same `check` verdict, the same `validate` verdict, and the same set of
//! errors (instance location, keyword location, absolute keyword location and kind).

use schemac_runtime::{Report, Validate, ValidationError};
use schemac_tests::generated::{self, DRAFTS};
use schemac_tests::suite::{case_id, fixtures_dir, Set, FIXTURES, SETS};
use schemac_tests::{paths, registry};

/// Errors as a sorted list of comparable strings (a multiset).
fn error_set(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .errors
        .iter()
        .map(|e: &ValidationError| {
            format!(
                "{} | {} | {} | {:?}",
                e.instance_location, e.keyword_location, e.absolute_keyword_location, e.kind
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn generated_code_agrees_with_the_interpreter_on_every_suite_case_and_fixture() {
    let suite = paths::suite_dir().expect("the JSON Schema Test Suite");
    let mut compared = 0usize;
    let mut errors_compared = 0usize;
    let mut disagreements = Vec::new();
    let suite_sets = SETS.iter().filter(|s| DRAFTS.contains(&s.draft));
    for spec in suite_sets.chain([&FIXTURES]) {
        let set = if *spec == FIXTURES {
            Set::load_dir(&fixtures_dir(), FIXTURES)
        } else {
            Set::load(&suite, *spec)
        }
        .expect("suite set");
        let compiler = registry::compiler(spec.options()).expect("registry");
        for file in &set.files {
            for group in &file.groups {
                let (interpreter, generated) =
                    match generated::both_backends(&compiler, spec, file, group) {
                        Ok(Some(both)) => both,
                        Ok(None) => continue, // neither backend has the schema
                        Err(disagreement) => {
                            disagreements.push(disagreement);
                            continue;
                        }
                    };
                for test in &group.tests {
                    let id = case_id(spec, file, group, test);
                    compared += 1;
                    let (ci, cg) = (interpreter.check(&test.data), generated.check(&test.data));
                    if ci != cg {
                        disagreements.push(format!(
                            "{id}: check {ci:?} (interpreted) vs {cg:?} (generated)"
                        ));
                    }
                    let (ri, rg) = (
                        interpreter.validate(&test.data),
                        generated.validate(&test.data),
                    );
                    if ri.verdict != rg.verdict {
                        disagreements.push(format!(
                            "{id}: validate {:?} (interpreted) vs {:?} (generated)",
                            ri.verdict, rg.verdict
                        ));
                    }
                    let (ei, eg) = (error_set(&ri), error_set(&rg));
                    errors_compared += ei.len();
                    if ei != eg {
                        disagreements.push(format!(
                            "{id}: errors differ\n      interpreted: {ei:#?}\n      generated:   {eg:#?}"
                        ));
                    }
                }
            }
        }
    }
    println!(
        "differential: {compared} cases, {errors_compared} errors compared, {} disagreements",
        disagreements.len()
    );
    assert!(compared > 1000, "only {compared} cases compared");
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s):\n  {}",
        disagreements.len(),
        disagreements.join("\n  ")
    );
}
