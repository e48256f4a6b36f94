//! Custom keywords beyond the fixture (`tests/fixtures/custom_keywords.json`, run through
//! both backends by the fixtures, differential and budget tests): the error both give,
//! a value the factory refuses, a name the dialect knows, a keyword without a check, a
//! program generated without its function, and the budget unit each call costs.

use schemac::emit::{self, EmitError, EmitOptions, Unit};
use schemac::interp::Interpreter;
use schemac::{CompileErrorKind, Options};
use schemac_runtime::{ErrorKind, Validate, Verdict};
use schemac_tests::suite::{CUSTOM_KEYWORD, FIXTURES};
use schemac_tests::{custom, generated};
use serde_json::json;

/// The interpreter of `schema` with the harness's custom keyword bound.
fn interpreted(schema: &serde_json::Value) -> Result<Interpreter, schemac::CompileErrors> {
    schemac::options()
        .keyword(CUSTOM_KEYWORD, custom::factory)
        .build(schema)
}

#[test]
fn both_backends_report_the_functions_message_at_the_keyword() {
    // Group 1 of the fixture: `code` must have 2+ characters and a multiple of 4.
    let schema = &schemac_tests::paths::read_json(
        &schemac_tests::suite::fixtures_dir().join("custom_keywords.json"),
    )
    .expect("fixture")[1]["schema"];
    let generated =
        generated::lookup(&FIXTURES.label(), "custom_keywords.json", 1).expect("generated");
    let interpreted = interpreted(schema).expect("compiles");
    let instance = json!({"code": "a"});
    let reports = [
        interpreted.validate(&instance),
        generated.validate(&instance),
    ];
    assert_eq!(reports[0], reports[1]);
    let errors = &reports[0].errors;
    assert_eq!(errors.len(), 2, "{errors:?}");
    let custom = &errors[1];
    assert_eq!(custom.instance_location, "/code");
    assert_eq!(
        custom.keyword_location,
        "/properties/code/x-length-divisible-by"
    );
    assert_eq!(
        custom.kind,
        ErrorKind::Custom {
            keyword: CUSTOM_KEYWORD.into(),
            message: "length must be a multiple of 4".into()
        }
    );
    assert_eq!(
        custom.to_string(),
        "/code: length must be a multiple of 4 (at /properties/code/x-length-divisible-by)"
    );
}

#[test]
fn a_value_the_factory_refuses_is_a_compile_error_at_the_keyword() {
    let schema = json!({"properties": {"a": {"x-length-divisible-by": 0}, "b": {"x-length-divisible-by": "3"}}});
    let errors = interpreted(&schema).expect_err("refused");
    assert_eq!(errors.errors().len(), 2, "{errors:?}");
    for error in errors.errors() {
        assert_eq!(error.kind, CompileErrorKind::InvalidKeyword);
        assert_eq!(error.location.keyword.as_deref(), Some(CUSTOM_KEYWORD));
        assert!(
            error.message.contains("takes a positive integer"),
            "{error}"
        );
    }
    let pointers: Vec<&str> = errors
        .errors()
        .iter()
        .map(|e| e.location.pointer.as_str())
        .collect();
    assert_eq!(
        pointers,
        [
            "/properties/a/x-length-divisible-by",
            "/properties/b/x-length-divisible-by"
        ]
    );
}

#[test]
fn a_name_the_dialect_knows_cannot_be_a_custom_keyword() {
    let errors = schemac::options()
        .keyword("minLength", custom::factory)
        .build(&json!({"minLength": 2}))
        .expect_err("refused");
    assert!(errors.has_kind(&CompileErrorKind::InvalidKeyword));
    assert!(errors.errors()[0].message.contains("cannot replace it"));
    // In draft-04, `$comment` is not a keyword: there it can be one.
    let draft4 = schemac::options()
        .default_dialect(schemac::Dialect::Draft4)
        .keyword("$comment", custom::factory)
        .build(&json!({"$comment": 2}))
        .expect("draft-04 does not know $comment");
    assert!(!draft4.is_valid(&json!("abc")));
}

#[test]
fn a_custom_keyword_without_its_check_fails_and_says_why() {
    let options = Options {
        custom_keywords: vec![CUSTOM_KEYWORD.to_string()],
        ..Options::default()
    };
    let program = schemac::Compiler::new(options)
        .compile(&json!({"x-length-divisible-by": 2}))
        .expect("compiles");
    // Generated code needs the function's path.
    let unit = Unit {
        module: "m",
        source: "s",
        file: "s",
        schema_text: None,
        program: &program,
        tool: None,
    };
    assert_eq!(
        emit::generate(&[unit], &EmitOptions::default()),
        Err(EmitError::MissingKeywordFunction(
            CUSTOM_KEYWORD.to_string()
        ))
    );
    // The interpreter without a check: never valid.
    let unbound = Interpreter::new(program);
    assert_eq!(unbound.check(&json!("ab")), Verdict::Invalid);
    let report = unbound.validate(&json!("ab"));
    assert!(
        report.errors[0]
            .to_string()
            .contains("no check was given for this custom keyword"),
        "{report:?}"
    );
}

#[test]
fn each_call_is_a_budget_unit() {
    let units = |schema: serde_json::Value| {
        let validator = interpreted(&schema).expect("compiles");
        let (verdict, usage) = validator.check_with_usage(&json!([[], [], [], [], []]));
        assert_eq!(verdict, Verdict::Valid);
        usage.units
    };
    let plain = units(json!({"items": {"type": "array"}}));
    let called = units(json!({"items": {"type": "array", "x-length-divisible-by": 1}}));
    assert_eq!(called, plain + 5, "one unit per item's call");
}
