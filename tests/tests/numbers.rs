//! Exact numbers through both backends: the extra cases of `tests/cases/numbers.json`
//! (suite format, each group naming a suite group by set, file and description) run
//! against that group's schema, interpreted and through its generated validator
//! (`tests/build.rs`), in `check` and in `validate`.

use schemac::interp::Interpreter;
use schemac_runtime::{Validate, Verdict};
use schemac_tests::suite::{Set, SETS};
use schemac_tests::{generated, paths, registry};
use serde_json::Value;

#[test]
fn extra_number_cases_agree_in_both_backends() {
    let cases: Value = serde_json::from_str(include_str!("../cases/numbers.json")).unwrap();
    let suite = paths::suite_dir().expect("the JSON Schema Test Suite");
    let mut ran = 0;
    let mut failures = Vec::new();
    for case in cases.as_array().unwrap() {
        let label = case["set"].as_str().unwrap();
        let file_name = case["file"].as_str().unwrap();
        let description = case["group"].as_str().unwrap();
        let spec = SETS
            .iter()
            .find(|s| s.label() == label)
            .expect("a known set");
        let set = Set::load(&suite, *spec).expect("suite set");
        let file = set
            .files
            .iter()
            .find(|f| f.name == file_name)
            .expect("a suite file");
        let group = file
            .groups
            .iter()
            .find(|g| g.description == description)
            .unwrap_or_else(|| panic!("no group {description:?} in {file_name}"));
        let program = registry::compiler(spec.options())
            .expect("registry")
            .compile_named(file_name, &group.schema)
            .expect("the group's schema compiles");
        let interpreted = Interpreter::new(program);
        let generated = generated::lookup(label, file_name, group.index)
            .unwrap_or_else(|| panic!("no generated validator for {label} {file_name}"));
        let backends: [(&str, &dyn Validate); 2] =
            [("interpreted", &interpreted), ("generated", generated)];
        for test in case["tests"].as_array().unwrap() {
            let expected = if test["valid"].as_bool().unwrap() {
                Verdict::Valid
            } else {
                Verdict::Invalid
            };
            for (name, backend) in backends {
                let check = backend.check(&test["data"]);
                let report = backend.validate(&test["data"]);
                if check != expected || report.verdict != expected {
                    failures.push(format!(
                        "[{name}] {file_name} / {description} / {}: expected {expected:?}, \
                         check gave {check:?}, validate gave {:?}",
                        test["description"], report.verdict
                    ));
                }
                ran += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 60, "only {ran} runs");
}
