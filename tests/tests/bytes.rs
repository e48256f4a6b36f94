//! The interpreter validates the same from bytes as from a `Value`: on every case of every
//! suite set, every fixture and every instance of the shared corpora (`bench-corpus/`,
//! `realworld/cases/`), [`Validate::check_json_with_usage`] gives the verdict and units of
//! [`Validate::check_with_usage`], and [`Validate::validate_json`] the verdict, errors (in
//! order: instance location, keyword location, absolute keyword location, kind) and units
//! of [`Validate::validate`].
//!
//! Each instance is written twice: as `serde_json` writes it (so that its keys come in the
//! `Value`'s order, and short-circuit evaluation stops at the same key), and with every
//! `e` and every character beyond ASCII written as a `\u` escape, so that most strings and
//! keys hold an escape and every keyword reads them through their unescaped form.

use schemac::interp::Interpreter;
use schemac_runtime::{Report, Validate, Verdict};
use schemac_tests::suite::{case_id, fixtures_dir, Set, SetSpec, FIXTURES, SETS};
use schemac_tests::{corpus, custom, paths, registry};
use serde_json::Value;

/// `value` as `serde_json` writes it, and the same text with `e` and every character
/// beyond ASCII inside strings and keys written as `\u` escapes (astral characters as
/// surrogate pairs).
fn texts(value: &Value) -> [Vec<u8>; 2] {
    let plain = serde_json::to_string(value).expect("a Value serializes");
    let mut escaped = String::with_capacity(plain.len());
    // After a backslash, the escape's characters are copied as they are (`\u` and its
    // four hex digits, or one character).
    let (mut in_string, mut after_backslash, mut verbatim) = (false, false, 0);
    for c in plain.chars() {
        if verbatim > 0 {
            verbatim -= 1;
            escaped.push(c);
        } else if after_backslash {
            after_backslash = false;
            verbatim = if c == 'u' { 4 } else { 0 };
            escaped.push(c);
        } else if c == '\\' && in_string {
            after_backslash = true;
            escaped.push(c);
        } else if c == '"' {
            in_string = !in_string;
            escaped.push(c);
        } else if in_string && (c == 'e' || !c.is_ascii()) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            escaped.push(c);
        }
    }
    [plain.into_bytes(), escaped.into_bytes()]
}

/// A report as compared: its verdict, its errors in order, the errors it left out, and
/// its units.
fn shown(report: &Report) -> String {
    let errors: Vec<String> = (report.errors.iter())
        .map(|e| {
            format!(
                "{} | {} | {} | {:?} | {}",
                e.instance_location, e.keyword_location, e.absolute_keyword_location, e.kind, e
            )
        })
        .collect();
    format!(
        "{:?}, omitted {}, {:?}\n        {}",
        report.verdict,
        report.errors_omitted,
        report.usage,
        errors.join("\n        ")
    )
}

/// The comparisons made and the disagreements found.
#[derive(Default)]
struct Tally {
    runs: usize,
    invalid: usize,
    disagreements: Vec<String>,
}

impl Tally {
    /// Compares `interpreter` on `instance` (named `id`) from its `Value` and from each of
    /// its [`texts`], in `check` and `validate`.
    fn compare(&mut self, id: &str, interpreter: &Interpreter, instance: &Value) {
        let check = interpreter.check_with_usage(instance);
        let validate = shown(&interpreter.validate(instance));
        if check.0 != Verdict::Valid {
            self.invalid += 1;
        }
        for text in texts(instance) {
            self.runs += 1;
            let shown_text = String::from_utf8_lossy(&text).into_owned();
            match interpreter.check_json_with_usage(&text) {
                Ok(from_bytes) if from_bytes == check => {}
                other => self.disagreements.push(format!(
                    "{id} (check) on {shown_text}:\n      value {check:?}\n      bytes {other:?}"
                )),
            }
            match interpreter.validate_json(&text) {
                Ok(report) if shown(&report) == validate => {}
                Ok(report) => self.disagreements.push(format!(
                    "{id} (validate) on {shown_text}:\n      value {validate}\n      bytes {}",
                    shown(&report)
                )),
                Err(e) => self
                    .disagreements
                    .push(format!("{id} (validate) on {shown_text}: {e:?}")),
            }
        }
    }

    /// Fails with every disagreement, or unless at least `min_runs` runs were compared.
    fn assert_agreed(self, what: &str, min_runs: usize) {
        println!(
            "bytes ({what}): {} runs compared ({} instances not valid), {} disagreements",
            self.runs,
            self.invalid,
            self.disagreements.len()
        );
        let shown: Vec<&String> = self.disagreements.iter().take(20).collect();
        assert!(
            self.disagreements.is_empty(),
            "{what}: bytes and Value differ in {} of {} runs (the first 20):\n  {}",
            self.disagreements.len(),
            self.runs,
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n  ")
        );
        assert!(self.runs >= min_runs, "{what}: only {} runs", self.runs);
    }
}

/// Compares bytes and `Value` on every case of `set` whose schema compiles.
fn suite_set(tally: &mut Tally, spec: SetSpec, set: &Set) {
    let compiler = registry::compiler(spec.options()).expect("registry");
    for file in &set.files {
        for group in &file.groups {
            let name = format!("{}/{}/{}#{}", spec.draft, spec.name, file.name, group.index);
            let Ok(program) = compiler.compile_named(&name, &group.schema) else {
                continue;
            };
            let interpreter = custom::interpreter(program).unwrap_or_else(|e| panic!("{e}"));
            for test in &group.tests {
                let id = case_id(&spec, file, group, test);
                tally.compare(&id, &interpreter, &test.data);
            }
        }
    }
}

#[test]
fn bytes_and_values_agree_on_every_suite_case_and_fixture() {
    let suite = paths::suite_dir().expect("the JSON Schema Test Suite");
    let mut tally = Tally::default();
    for spec in SETS {
        let set = Set::load(&suite, spec).expect("suite set");
        suite_set(&mut tally, spec, &set);
    }
    let fixtures = Set::load_dir(&fixtures_dir(), FIXTURES).expect("fixtures");
    suite_set(&mut tally, FIXTURES, &fixtures);
    // Every dialect's sets and the fixtures: over 8,000 cases, two texts each.
    tally.assert_agreed("suite and fixtures", 16_000);
}

#[test]
fn bytes_and_values_agree_on_every_corpus_instance() {
    let shared = paths::shared_dir().expect("the shared folder");
    let compiler = corpus::compiler().expect("registry");
    let cases = corpus::cases(&shared).expect("the corpora");
    let mut tally = Tally::default();
    for case in &cases {
        let schema = corpus::schema(case).expect("schema");
        let program = compiler
            .compile_named(&case.id, &schema)
            .unwrap_or_else(|e| panic!("{}: {e:?}", case.id));
        let interpreter = Interpreter::new(program);
        for (name, instance) in corpus::instances(case).expect("instances") {
            tally.compare(&format!("{}/{name}", case.id), &interpreter, &instance);
        }
    }
    tally.assert_agreed("corpora", 2 * 148);
}

/// The draft-04 `-0`: written without a fraction it is an integer from bytes (the number
/// text tells), `-0.0` is not; a `Value` holds both as `-0.0`, so from a `Value` neither
/// is (the limitation the README states).
#[test]
fn draft4_minus_zero_is_an_integer_from_bytes() {
    let compiler = registry::compiler(schemac::Options {
        default_dialect: schemac::Dialect::Draft4,
        ..schemac::Options::default()
    })
    .expect("registry");
    let schema = serde_json::json!({"type": "integer"});
    let interpreter = Interpreter::new(compiler.compile(&schema).expect("compiles"));
    assert_eq!(interpreter.check_json(b"-0"), Ok(Verdict::Valid));
    assert_eq!(interpreter.check_json(b"0"), Ok(Verdict::Valid));
    assert_eq!(interpreter.check_json(b"-0.0"), Ok(Verdict::Invalid));
    assert_eq!(interpreter.check_json(b"1.0"), Ok(Verdict::Invalid));
    let from_value: Value = serde_json::from_slice(b"-0").expect("JSON");
    assert_eq!(interpreter.check(&from_value), Verdict::Invalid);
}

/// Text that is not JSON is a syntax error with its offset, in every entry point, never a
/// verdict; duplicate keys: the last one wins.
#[test]
fn syntax_errors_are_not_verdicts_and_the_last_key_wins() {
    let compiler = registry::compiler(schemac::Options::default()).expect("registry");
    let schema = serde_json::json!({"properties": {"a": {"type": "string"}}});
    let interpreter = Interpreter::new(compiler.compile(&schema).expect("compiles"));
    let error = interpreter
        .check_json(b"{\"a\": 1,}")
        .expect_err("not JSON");
    assert_eq!(error.offset, 8);
    assert!(interpreter.validate_json(b"[1, 2").is_err());
    assert!(interpreter.check_json_with_usage(b"").is_err());
    assert!(!interpreter.is_valid_json(b"nul"));
    assert_eq!(
        interpreter.check_json(br#"{"a": 1, "a": "x"}"#),
        Ok(Verdict::Valid)
    );
    assert_eq!(
        interpreter.check_json(br#"{"a": "x", "a": 1}"#),
        Ok(Verdict::Invalid)
    );
}

/// From bytes the budget grows with the input (`Limits::for_input`): an honest large array
/// that runs out of a fixed budget from a `Value` gets a verdict from its bytes, while an
/// exponential fan-out still stops.
#[test]
fn the_budget_grows_with_the_input_and_exponential_schemas_still_stop() {
    let compiler = registry::compiler(schemac::Options::default()).expect("registry");
    let items =
        serde_json::json!({"items": {"type": "object", "properties": {"a": {"type": "integer"}}}});
    let limits = schemac_runtime::Limits {
        budget: 1_000,
        ..schemac_runtime::Limits::DEFAULT
    };
    let interpreter =
        Interpreter::new(compiler.compile(&items).expect("compiles")).with_limits(limits);
    let text = format!("[{}]", vec![r#"{"a":1}"#; 1_000].join(","));
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert!(matches!(interpreter.check(&value), Verdict::Incomplete(_)));
    let (verdict, usage) = interpreter
        .check_json_with_usage(text.as_bytes())
        .expect("JSON");
    assert_eq!(verdict, Verdict::Valid);
    assert!(usage.units > 1_000, "{usage:?}");
    assert!(usage.units <= 1_000 + text.len() as u64, "{usage:?}");

    // 2^40 paths: a megabyte of input adds a million units, not enough.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        let level =
            serde_json::json!({"anyOf": [{"$ref": next}, {"type": "string", "$ref": next}]});
        defs.insert(format!("d{i}"), level);
    }
    defs.insert("d40".into(), Value::Bool(false));
    let fan_out = serde_json::json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let interpreter = Interpreter::new(compiler.compile(&fan_out).expect("compiles"));
    let padded = format!("{}\"x\"", " ".repeat(1 << 20));
    assert!(matches!(
        interpreter.check_json(padded.as_bytes()),
        Ok(Verdict::Incomplete(_))
    ));
}
