//! Messages that say what to change (issue 39): for invalid calls against schemas shaped
//! like real tool schemas (`tests/fixtures/messages.json`), every error of both backends
//! names what is allowed — the allowed values of `enum` / `const`, the property that is
//! not allowed and the names allowed beside it, the expected and the found JSON type,
//! counts with correct plurals; a failed `anyOf` / `oneOf` followed by the errors of its
//! closest subschema (`because` lines; nested units in `detailed` and `verbose`), a
//! `oneOf` that several subschemas match naming them — and the two backends give the same
//! messages.

use schemac::interp::Interpreter;
use schemac::Compiler;
use schemac_runtime::output::{output, Format};
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

/// Each error of `report` as its text line ([`schemac_runtime::ValidationError::line`]),
/// an error followed by those that explain it; the groups sorted.
fn explained_lines(report: &Report) -> Vec<String> {
    assert_eq!(report.verdict, Verdict::Invalid);
    let mut groups: Vec<Vec<String>> = Vec::new();
    for error in &report.errors {
        let line = error.line().to_string();
        match groups.last_mut() {
            Some(group) if error.level > 0 => group.push(line),
            _ => groups.push(vec![line]),
        }
    }
    groups.sort();
    groups.concat()
}

/// The reports of both backends on the `case`-th instance of group `index`.
fn reports(index: usize, case: usize) -> [Report; 2] {
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
    [
        interp.validate(&data[case]),
        generated.validate(&data[case]),
    ]
}

/// Checks that both backends give the explained lines ([`explained_lines`]) `expected` on
/// the `case`-th instance of group `index`.
#[track_caller]
fn explained(index: usize, case: usize, expected: &[&str]) {
    let [interpreted, generated] = reports(index, case);
    let lines = explained_lines(&interpreted);
    assert_eq!(lines, explained_lines(&generated));
    assert_eq!(lines, expected, "{lines:#?}");
}

/// The error lines of both backends on the `case`-th instance of group `index`, checked
/// equal.
fn both_backends(index: usize, case: usize) -> Vec<String> {
    let [interpreted, generated] = reports(index, case);
    let interpreted = lines(&interpreted);
    assert_eq!(interpreted, lines(&generated));
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

#[test]
fn a_failed_one_of_is_explained_by_the_branch_the_type_selects() {
    explained(4, 1, &[
        "/labels/0: value matches none of the `oneOf` subschemas (at /properties/labels/items/oneOf)",
        r#"  because /labels/0/confidence: value must be one of "LOW", "MEDIUM", "HIGH" (at /properties/labels/items/oneOf/1/properties/confidence/enum)"#,
    ]);
    // No branch takes an integer: the error says which types they take.
    explained(4, 2, &[
        "/labels/0: value matches none of the `oneOf` subschemas: expected object or string, found integer (at /properties/labels/items/oneOf)",
    ]);
}

#[test]
fn the_explanation_nests_in_detailed_and_verbose_and_lists_in_basic() {
    for report in reports(4, 1) {
        let basic = output(Format::Basic, &report, &[]);
        let units = basic["errors"].as_array().expect("errors");
        assert_eq!(units.len(), 2, "{basic}");
        assert_eq!(
            units[1]["keywordLocation"],
            "/properties/labels/items/oneOf/1/properties/confidence/enum"
        );
        let detailed = output(Format::Detailed, &report, &[]);
        let one_of = &detailed["errors"][0];
        assert_eq!(
            one_of["keywordLocation"], "/properties/labels/items/oneOf",
            "{detailed}"
        );
        assert!(one_of["error"].is_string(), "{detailed}");
        let cause = &one_of["errors"][0];
        assert_eq!(
            cause["instanceLocation"], "/labels/0/confidence",
            "{detailed}"
        );
        assert_eq!(
            cause["error"],
            r#"value must be one of "LOW", "MEDIUM", "HIGH""#
        );
        // Verbose keeps the branch's units on the way, under the applicator's error.
        let verbose = output(Format::Verbose, &report, &[]);
        let text = verbose.to_string();
        let at = text
            .find(r#""keywordLocation":"/properties/labels/items/oneOf/1""#)
            .expect("the branch's unit");
        assert!(
            text[..at].contains(r#""error":"value matches none of the `oneOf` subschemas""#),
            "{verbose}"
        );
        assert!(
            text.contains(
                r#""keywordLocation":"/properties/labels/items/oneOf/1/properties/confidence""#
            ),
            "{verbose}"
        );
    }
}

#[test]
fn the_branch_that_gets_furthest_explains_else_the_one_with_fewest_errors() {
    let anyof = "(root): value matches none of the `anyOf` subschemas (at /anyOf)";
    explained(
        5,
        1,
        &[
            anyof,
            "  because /path: expected string, found integer (at /anyOf/1/properties/path/type)",
        ],
    );
    explained(
        5,
        2,
        &[
            anyof,
            r#"  because (root): required property "path" is missing (at /anyOf/1/required)"#,
        ],
    );
    explained(
        5,
        3,
        &[
            anyof,
            r#"  because /url: string must match the pattern "^https://" (at /anyOf/0/properties/url/pattern)"#,
        ],
    );
}

#[test]
fn a_tag_selects_the_branch_and_several_matches_are_named() {
    explained(6, 1, &[
        "/action: value matches none of the `oneOf` subschemas (at /properties/action/oneOf)",
        "  because /action/text: string must have at least 1 character (at /properties/action/oneOf/1/properties/text/minLength)",
    ]);
    explained(6, 2, &[
        "/name: value matches subschemas 0, 1 and 2 of `oneOf`, not exactly one (at /properties/name/oneOf)",
    ]);
}

#[test]
fn then_and_else_say_what_to_change() {
    explained(
        7,
        1,
        &[r#"(root): required property "path" is missing (at /then/required)"#],
    );
    explained(
        7,
        2,
        &[r#"/url: string must match the pattern "^https://" (at /else/properties/url/pattern)"#],
    );
}
