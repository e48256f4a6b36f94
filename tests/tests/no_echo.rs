//! No message of either backend quotes an instance value (issue 9): instances whose every
//! string and number carries a marker (`QZ…`, `313…`) fail every keyword of 2020-12, and
//! no error message, error kind or basic-output unit of the interpreter or of generated
//! code contains a marker. Instance locations are exempt (they name instance keys, as the
//! output format requires); the markers are values, never keys, except under
//! `propertyNames`, whose keys are the instances checked and appear in no message either.
//!
//! The schema is `tests/fixtures/no_echo.json` (so that its generated validator exists);
//! `format` and draft-07 content assertions, which generated suite code is not compiled
//! with, are checked in the interpreter.

use schemac::interp::Interpreter;
use schemac::{Compiler, Dialect, Options};
use schemac_runtime::{output, Report, Validate, Verdict};
use schemac_tests::generated;
use schemac_tests::registry;
use schemac_tests::suite::{fixtures_dir, Set, FIXTURES};
use serde_json::{json, Value};

/// Every marked string starts with this; every marked number's decimal form with `313`.
const STRING_MARK: &str = "QZ";
const NUMBER_MARK: &str = "313";

/// An instance failing each property of the fixture's schema, every value marked.
fn marked_instance() -> Value {
    json!({
        "type": "QZ01", "enum": "QZ02", "const": 31301, "multipleOf": 31302,
        "maximum": 31303.25, "exclusiveMaximum": 31304, "minimum": 31305.5,
        "exclusiveMinimum": 31306, "maxLength": "QZ03-long", "minLength": "QZ04",
        "pattern": "QZ05", "maxItems": ["QZ06", 31307], "minItems": ["QZ07", 31308],
        "uniqueItems": ["QZ08", "QZ08", 31309, 31309], "contains": ["QZ09", 31310],
        "maxContains": ["QZ10", 31311], "maxProperties": {"a": "QZ11", "b": 31312},
        "minProperties": {"a": "QZ12"}, "required": {"a": "QZ13"},
        "dependentRequired": {"a": "QZ14"}, "additionalProperties": {"k": "QZ15"},
        "propertyNames": {"QZ16-key": 31313}, "patternProperties": {"k": "QZ17"},
        "dependentSchemas": {"a": 31314}, "if": "QZ18-long", "anyOf": "QZ19",
        "oneOf": 31315.5, "not": "QZ20", "allOf": 31316, "prefixItems": ["QZ21"],
        "items": ["QZ22", 31317], "unevaluatedItems": [1, "QZ23", 31318],
        "unevaluatedProperties": {"k": "QZ24"}, "$ref": "QZ25", "false": 31319,
    })
}

/// `value` with every string leaf made a marked number and every number a marked string
/// (keys kept), so that each keyword also sees the other kind of leaf.
fn flipped(value: &Value, n: &mut u32) -> Value {
    *n += 1;
    match value {
        Value::String(_) => json!(31_390_000 + *n),
        Value::Number(_) => json!(format!("{STRING_MARK}{n}-flipped")),
        Value::Array(items) => Value::Array(items.iter().map(|v| flipped(v, n)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), flipped(v, n)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Every text a report shows, instance locations left out: each error's message and
/// kind, and the basic output without `instanceLocation`.
fn texts(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for error in &report.errors {
        let mut unlocated = error.clone();
        unlocated.instance_location.clear();
        out.push(unlocated.to_string());
        out.push(error.kind.to_string());
        out.push(format!("{:?}", error.kind));
    }
    let mut basic = output::basic(report);
    if let Some(Value::Array(units)) = basic.get_mut("errors") {
        for unit in units {
            if let Some(unit) = unit.as_object_mut() {
                unit.remove("instanceLocation");
            }
        }
    }
    out.push(basic.to_string());
    out
}

/// Panics when a text of `report` quotes a marker; `min_errors` is how many errors the
/// report must have at least (so that the test can fail).
fn assert_no_echo(what: &str, report: &Report, min_errors: usize) {
    assert_eq!(report.verdict, Verdict::Invalid, "{what}");
    assert!(
        report.errors.len() >= min_errors,
        "{what}: only {} errors",
        report.errors.len()
    );
    for text in texts(report) {
        assert!(
            !text.contains(STRING_MARK) && !text.contains(NUMBER_MARK),
            "{what}: a message quotes an instance value: {text}"
        );
    }
}

#[test]
fn no_message_quotes_an_instance_value() {
    let set = Set::load_dir(&fixtures_dir(), FIXTURES).unwrap_or_else(|e| panic!("{e}"));
    let schema = &set
        .files
        .iter()
        .find(|f| f.name == "no_echo.json")
        .expect("the no-echo fixture")
        .groups[0]
        .schema;
    let compiler = registry::compiler(FIXTURES.options()).unwrap_or_else(|e| panic!("{e}"));
    let interp = Interpreter::new(
        compiler
            .compile_named("no_echo.json", schema)
            .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let generated =
        generated::lookup(&FIXTURES.label(), "no_echo.json", 0).expect("generated at build time");
    let properties = schema["properties"].as_object().expect("properties").len();
    let marked = marked_instance();
    let flipped = flipped(&marked, &mut 0);
    // The marked instance fails every property (keyword) of the schema; flipped, the
    // keywords of one type stop applying to many of them.
    let cases = [("marked", &marked, properties), ("flipped", &flipped, 20)];
    for (name, instance, min_errors) in cases {
        let report = interp.validate(instance);
        // The messages that name what the schema allows and what the instance is are
        // among those checked (issue 39).
        let kinds: Vec<String> = report
            .errors
            .iter()
            .map(|e| format!("{:?}", e.kind))
            .collect();
        for kind in [
            "Enum { allowed",
            "Const { expected",
            "Type { expected",
            "PropertyNotAllowed",
        ] {
            assert!(
                kinds.iter().any(|k| k.starts_with(kind)),
                "{name}: no {kind} in {kinds:?}"
            );
        }
        assert_no_echo(name, &report, min_errors);
        assert_no_echo(name, &generated.validate(instance), min_errors);
        // The same errors (in another order: the interpreter looks `properties` names up,
        // generated code iterates the object).
        let sorted = |report: Report| {
            let mut errors: Vec<String> = report.errors.iter().map(|e| format!("{e:?}")).collect();
            errors.sort();
            errors
        };
        assert_eq!(
            sorted(interp.validate(instance)),
            sorted(generated.validate(instance)),
            "{name}: the backends disagree"
        );
    }
}

#[test]
fn format_and_content_errors_quote_no_instance_value() {
    let options = |dialect| Options {
        default_dialect: dialect,
        assert_format: true,
        assert_content: true,
        ..Options::default()
    };
    let formats = [
        "email",
        "date-time",
        "date",
        "time",
        "duration",
        "ipv4",
        "ipv6",
        "hostname",
        "idn-hostname",
        "uri",
        "uri-reference",
        "iri",
        "uuid",
        "json-pointer",
        "regex",
    ];
    let schema = json!({
        "properties": formats
            .iter()
            .map(|f| (f.to_string(), json!({"format": f})))
            .collect::<serde_json::Map<_, _>>()
    });
    let instance = Value::Object(
        formats
            .iter()
            .map(|f| (f.to_string(), json!(format!("{STRING_MARK}[{f}\\("))))
            .collect(),
    );
    let v = Interpreter::new(
        Compiler::new(options(Dialect::Draft2020_12))
            .compile(&schema)
            .expect("compiles"),
    );
    assert_no_echo("format", &v.validate(&instance), formats.len());

    let schema = json!({
        "properties": {
            "b": {"contentEncoding": "base64"},
            "j": {"contentMediaType": "application/json"},
        }
    });
    let instance = json!({"b": "QZ!!not base64", "j": "{QZ: not json"});
    let v = Interpreter::new(
        Compiler::new(options(Dialect::Draft7))
            .compile(&schema)
            .expect("compiles"),
    );
    assert_no_echo("content", &v.validate(&instance), 2);
}
