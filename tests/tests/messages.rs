//! Messages that say what to change (issue 39): for invalid calls against schemas shaped
//! like real tool schemas (`tests/fixtures/messages.json`), every error of both backends
//! names what is allowed — the allowed values of `enum` / `const`, the property that is
//! not allowed and the names allowed beside it, the expected and the found JSON type,
//! counts with correct plurals — and the two backends give the same messages.

use schemac::interp::Interpreter;
use schemac::Compiler;
use schemac_runtime::{Report, Validate, Verdict};
use schemac_tests::generated;
use schemac_tests::registry;
use schemac_tests::suite::{fixtures_dir, Set, FIXTURES};
use serde_json::Value;

/// The schema and the test instances of group `index` of the messages fixture.
fn group(index: usize) -> (Value, Vec<Value>) {
    let set = Set::load_dir(&fixtures_dir(), FIXTURES).unwrap_or_else(|e| panic!("{e}"));
    let file = set
        .files
        .iter()
        .find(|f| f.name == "messages.json")
        .expect("the messages fixture");
    let group = &file.groups[index];
    let data = group.tests.iter().map(|t| t.data.clone()).collect();
    (group.schema.clone(), data)
}

/// Each error of `report` as its text line, sorted (the backends visit properties in
/// different orders).
fn lines(report: &Report) -> Vec<String> {
    assert_eq!(report.verdict, Verdict::Invalid);
    let mut lines: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    lines.sort();
    lines
}

/// The error lines of both backends on the `case`-th instance of group `index`, checked
/// equal.
fn both_backends(index: usize, case: usize) -> Vec<String> {
    let (schema, data) = group(index);
    let compiler: Compiler =
        registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
    let interp = Interpreter::new(
        compiler
            .compile_named("messages.json", &schema)
            .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let generated = generated::lookup(&FIXTURES.label(), "messages.json", index)
        .expect("generated at build time");
    let interpreted = lines(&interp.validate(&data[case]));
    assert_eq!(interpreted, lines(&generated.validate(&data[case])));
    interpreted
}

#[test]
fn errors_name_what_is_allowed() {
    let lines = both_backends(0, 1);
    let expected = [
        r#"/encoding: property `encoding` is not allowed (allowed: "method", "mode", "note", "path", "size", "tags", "version") (at /additionalProperties)"#,
        r#"/method: value must be one of "create", "update" (at /properties/method/enum)"#,
        r#"/mode: value must be one of "a", "b", "c", "d", "e", … 2 more (at /properties/mode/enum)"#,
        "/note: expected null or string, found integer (at /properties/note/type)",
        "/path: string must have at least 1 character (at /properties/path/minLength)",
        "/size: expected integer, found number (at /properties/size/type)",
        "/tags: array must have at least 1 item (at /properties/tags/minItems)",
        "/version: value must be 2 (at /properties/version/const)",
    ];
    assert_eq!(lines, expected, "{lines:#?}");
}

#[test]
fn unevaluated_properties_name_the_property_and_the_declared_names() {
    let lines = both_backends(1, 1);
    let expected = [
        r#"/nmae: property `nmae` is not allowed (allowed: "name", "id") (at /unevaluatedProperties)"#,
    ];
    assert_eq!(lines, expected, "{lines:#?}");
}

#[test]
fn unevaluated_properties_say_when_a_declared_name_is_refused() {
    // The name holds `, ` as the list of allowed names separates them: whether it is
    // declared is known from the plan, not read back from the list.
    let lines = both_backends(2, 1);
    let expected = [
        r#"/x, y: expected integer, found string (at /allOf/0/properties/x, y/type)"#,
        r#"/x, y: property `x, y` is not allowed, as the subschema that declares it failed (at /unevaluatedProperties)"#,
    ];
    assert_eq!(lines, expected, "{lines:#?}");
}

#[test]
fn a_required_name_listed_twice_is_reported_once() {
    let lines = both_backends(3, 1);
    let expected = [
        r#"(root): required property "a" is missing (at /required)"#,
        r#"(root): required property "b" is missing (at /required)"#,
    ];
    assert_eq!(lines, expected, "{lines:#?}");
}
