//! The project's own fixtures (`tests/fixtures/*.json`, in the suite's file format) through
//! both backends: every case passes, none is skipped. They hold what the suite lacks: a
//! 2020-12 or draft-07 schema whose `$ref` reaches an embedded resource of another dialect
//! (draft-06, draft-04), a schema that repeats `$schema` in its definitions, many property
//! names of one length, some sharing bytes (`property_names_of_one_length.json`), and `if`
//! conditions that compare one property with overlapping sets of strings
//! (`if_conditions_on_one_property.json`), and classes that hold `[`, `&&` and `--` as
//! u-mode reads them, among them cspell's `DictionaryId` pattern (`regex_classes.json`),
//! and long pattern lists whose patterns share subschemas, which generated code writes
//! once each (`shared_pattern_bodies.json`; the differential test compares their errors).

use schemac_tests::backend::{Backend, Generated, Interpreted};
use schemac_tests::registry;
use schemac_tests::runner::run_set;
use schemac_tests::suite::{fixtures_dir, Set, FIXTURES};

#[test]
fn fixtures_pass_in_both_backends() {
    let set = Set::load_dir(&fixtures_dir(), FIXTURES).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        set.test_count() >= 20,
        "only {} fixture cases",
        set.test_count()
    );
    let compiler = registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
    let backends: [&dyn Backend; 2] = [&Interpreted, &Generated];
    for backend in backends {
        let outcome = run_set(&set, backend, &compiler);
        println!("{}", outcome.summary());
        let problems: Vec<String> = outcome
            .failed
            .iter()
            .chain(&outcome.skipped)
            .map(|f| format!("{}: {}", f.id, f.reason))
            .collect();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        assert_eq!(outcome.passed, set.test_count());
    }
}

#[test]
fn repeated_schema_keywords_compile_with_one_warning() {
    let set = Set::load_dir(&fixtures_dir(), FIXTURES).unwrap_or_else(|e| panic!("{e}"));
    let compiler = registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
    let group = set
        .files
        .iter()
        .flat_map(|f| &f.groups)
        .find(|g| g.description.contains("repeating $schema"))
        .expect("the krakend-like fixture");
    let program = compiler
        .compile_named("krakend-like.json", &group.schema)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(program.warnings.len(), 1, "{:?}", program.warnings);
    let warning = program.warnings[0].to_string();
    assert!(warning.contains("2 subschemas"), "{warning}");
    assert!(
        warning.contains("krakend-like.json#/definitions/a"),
        "{warning}"
    );
}
