//! The bodies of the fuzz targets in `fuzz/` (cargo-fuzz, outside the workspace), here so
//! that a plain test (`tests/tests/fuzz_replay.rs`) runs the same functions on the
//! checked-in seed corpus (`fuzz/seeds/`) and on seeded mutations of it, without a fuzzer.
//!
//! Each target takes arbitrary bytes, never panics on its own, and panics (a finding)
//! only when schemac does: a panic inside the compiler or a backend, a compiled schema
//! the Rust backend cannot emit, a short-circuit and an error-collecting verdict that
//! disagree, the regex engine and `regress` that disagree on a pattern both accept, or
//! generated code and the interpreter that disagree. Every validation runs with a small
//! budget, so that each input costs little.

use crate::generated;
use crate::registry;
use crate::suite::{Set, SETS};
use schemac::emit::{self, EmitOptions, Unit};
use schemac::interp::Interpreter;
use schemac::regex::{compile, RegexOptions};
use schemac::{Compiler, Dialect, Options, RefPolicy};
use schemac_runtime::document::{compact, Document};
use schemac_runtime::{IncompleteReason, Limits, Report, Validate, Verdict};
use serde_json::Value;
use std::sync::OnceLock;

/// A fuzz target's body: takes any bytes, panics only on a finding.
pub type Target = fn(&[u8]);

/// The targets, by the name of their `fuzz/fuzz_targets/<name>.rs` and corpus folder.
pub const TARGETS: [(&str, Target); 6] = [
    ("compile", compile_schema),
    ("regex", regex),
    ("validate", validate),
    ("regex_vs_regress", regex_vs_regress),
    ("generated_vs_interpreted", generated_vs_interpreted),
    ("document", document),
];

/// The budget every fuzzed validation runs under: small, so that an input costs little.
const BUDGET: u64 = 100_000;

/// Patterns and subjects `regress` (a backtracking engine) is given are at most this many
/// bytes, which keeps its worst case small.
const REGRESS_MAX: usize = 24;

/// Options chosen by one byte: the dialect, format assertion, and the reference policy.
fn options(byte: u8) -> Options {
    let dialects = [
        Dialect::Draft2020_12,
        Dialect::Draft2019_09,
        Dialect::Draft7,
        Dialect::Draft6,
        Dialect::Draft4,
    ];
    Options {
        default_dialect: dialects[usize::from(byte) % dialects.len()],
        assert_format: byte & 0x08 != 0,
        assert_content: byte & 0x08 != 0,
        ref_policy: if byte & 0x10 != 0 {
            RefPolicy::Warn
        } else {
            RefPolicy::Error
        },
        limits: Limits {
            budget: BUDGET,
            ..Limits::DEFAULT
        },
        ..Options::default()
    }
}

/// The JSON values at the start of `bytes` (at most `n`), parsed with serde_json's
/// recursion limit (so parsing and dropping them are bounded).
fn values(bytes: &[u8], n: usize) -> Vec<Value> {
    serde_json::Deserializer::from_slice(bytes)
        .into_iter::<Value>()
        .take(n)
        .map_while(Result::ok)
        .collect()
}

/// Panics unless `check`'s verdict and `report`'s agree when both are complete, and the
/// report's errors match its verdict.
fn assert_consistent(what: &str, check: &Verdict, report: &Report) {
    let complete = |v: &Verdict| matches!(v, Verdict::Valid | Verdict::Invalid);
    if complete(check) && complete(&report.verdict) {
        assert_eq!(
            *check, report.verdict,
            "{what}: check and validate disagree"
        );
    }
    let errors = report.errors.len() as u64 + report.errors_omitted;
    match report.verdict {
        Verdict::Valid => assert_eq!(errors, 0, "{what}: valid with errors"),
        Verdict::Invalid => assert!(errors > 0, "{what}: invalid without an error"),
        _ => {}
    }
}

/// Byte-0 flag of target `compile`: the schema is built by [`shaped`] around the fuzzed
/// value rather than being it.
const SHAPED: u8 = 0x20;

/// The schema shapes that stress compile work (issue 38 item 4), each `n` links long
/// around `leaf`: a chain of `$defs` linked by `properties/x/$ref`, a chain of
/// resources (`$id`) each referring to the next, and resources each with a
/// `$dynamicAnchor`, a `$dynamicRef` to it and a `$ref` to the next (every anchor
/// declared `n` times, or by every resource of a group).
pub fn shaped(shape: u8, n: usize, leaf: Value) -> Value {
    use serde_json::{json, Map};
    let mut defs = Map::new();
    for i in 0..n {
        let name = format!("d{i}");
        let next = format!("#/$defs/d{}", i + 1);
        let def = match shape % 4 {
            0 => json!({"properties": {"x": {"$ref": next}}}),
            1 => json!({"$id": format!("r{i}.json"), "$ref": format!("r{}.json", i + 1)}),
            2 => json!({
                "$id": format!("a{i}.json"),
                "$dynamicAnchor": "node",
                "properties": {"d": {"$dynamicRef": "#node"}, "n": {"$ref": format!("a{}.json", i + 1)}}
            }),
            _ => json!({
                "$id": format!("g{i}.json"),
                "$dynamicAnchor": format!("k{}", i % 8),
                "items": {"$dynamicRef": format!("#k{}", i % 8)},
                "properties": {"n": {"$ref": format!("g{}.json", i + 1)}}
            }),
        };
        defs.insert(name, def);
    }
    let mut last = match leaf {
        Value::Object(map) => map,
        other => Map::from_iter([("const".to_string(), other)]),
    };
    let id = match shape % 4 {
        0 => None,
        1 => Some(format!("r{n}.json")),
        2 => Some(format!("a{n}.json")),
        _ => Some(format!("g{n}.json")),
    };
    if let Some(id) = id {
        last.insert("$id".into(), Value::String(id));
    }
    defs.insert(format!("d{n}"), Value::Object(last));
    json!({"$id": "https://fuzz.example/root.json", "$defs": defs, "$ref": "#/$defs/d0"})
}

/// Target `compile`: byte 0 chooses the options, the rest is a schema. Compiling must
/// not panic; a schema that compiles must also generate Rust, and validate a few
/// instances (itself among them) consistently in the interpreter. With the `SHAPED` (0x20)
/// bit in byte 0, byte 1 chooses a shape of [`shaped`] (its low two bits) and its length
/// (8 links per unit of the rest, up to 504), and the schema is that shape around the
/// value that follows.
pub fn compile_schema(data: &[u8]) {
    let Some((&byte, rest)) = data.split_first() else {
        return;
    };
    let (shape, rest) = match rest.split_first() {
        Some((&shape, rest)) if byte & SHAPED != 0 => (Some(shape), rest),
        _ => (None, rest),
    };
    let Some(schema) = values(rest, 1).pop() else {
        return;
    };
    let schema = match shape {
        Some(shape) => shaped(shape, usize::from(shape >> 2) * 8, schema),
        None => schema,
    };
    let Ok(program) = Compiler::new(options(byte)).compile(&schema) else {
        return;
    };
    let unit = Unit {
        module: "fuzzed",
        source: "fuzz input",
        file: "fuzz input",
        schema_text: None,
        program: &program,
        tool: None,
    };
    if let Err(e) = emit::generate(&[unit], &EmitOptions::default()) {
        panic!("a compiled schema does not generate: {e}");
    }
    let interp = Interpreter::new(program);
    let instances = [
        Value::Null,
        serde_json::json!(0),
        serde_json::json!(""),
        serde_json::json!([]),
        serde_json::json!({}),
        schema,
    ];
    for instance in &instances {
        assert_consistent(
            "interpreter",
            &interp.check(instance),
            &interp.validate(instance),
        );
    }
}

/// Splits `data` at its first NUL byte into a pattern and a subject (both UTF-8, lossily).
fn pattern_and_subject(data: &[u8]) -> (String, String) {
    let at = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let subject = data.get(at + 1..).unwrap_or_default();
    (
        String::from_utf8_lossy(&data[..at]).into_owned(),
        String::from_utf8_lossy(subject).into_owned(),
    )
}

/// Target `regex`: a pattern, a NUL, a subject. Compiling must not panic; a pattern that
/// compiles must give one answer from its chosen engine, its Pike VM, its DFA (when
/// built) and the budgeted match (when the budget suffices).
pub fn regex(data: &[u8]) {
    let (pattern, subject) = pattern_and_subject(data);
    let Ok(compiled) = compile(&pattern, &RegexOptions::default()) else {
        return;
    };
    let rt = compiled.as_runtime();
    let chosen = rt.is_match(&subject);
    let pike = rt.program().is_match(&subject);
    assert_eq!(
        chosen, pike,
        "{pattern:?} on {subject:?}: chosen engine vs Pike VM"
    );
    if let Some(dfa) = rt.dfa() {
        assert_eq!(
            dfa.is_match(&subject),
            pike,
            "{pattern:?} on {subject:?}: DFA vs Pike VM"
        );
    }
    let mut budget = schemac_runtime::Budget::new(&Limits {
        budget: BUDGET,
        ..Limits::DEFAULT
    });
    if let Ok(budgeted) = rt.is_match_budgeted(&subject, &mut budget) {
        assert_eq!(
            budgeted, pike,
            "{pattern:?} on {subject:?}: budgeted vs Pike VM"
        );
    }
}

/// Target `validate`: byte 0 chooses the options, then a schema and an instance (two
/// JSON values). The interpreter, under a small budget, must not panic, and its
/// short-circuit and error-collecting verdicts must agree.
pub fn validate(data: &[u8]) {
    let Some((&byte, rest)) = data.split_first() else {
        return;
    };
    let mut found = values(rest, 2);
    let (Some(instance), Some(schema)) = (found.pop(), found.pop()) else {
        return;
    };
    let Ok(program) = Compiler::new(options(byte)).compile(&schema) else {
        return;
    };
    let interp = Interpreter::new(program);
    assert_consistent(
        "interpreter",
        &interp.check(&instance),
        &interp.validate(&instance),
    );
}

/// Target `regex_vs_regress`: a pattern, a NUL, a subject, each at most 24 bytes. When
/// both schemac and `regress` (flag `u`) accept the pattern, they must agree on whether
/// it matches somewhere in the subject.
pub fn regex_vs_regress(data: &[u8]) {
    let (pattern, subject) = pattern_and_subject(data);
    if pattern.len() > REGRESS_MAX || subject.len() > REGRESS_MAX {
        return;
    }
    let (Ok(ours), Ok(theirs)) = (
        compile(&pattern, &RegexOptions::default()),
        regress::Regex::with_flags(&pattern, "u"),
    ) else {
        return;
    };
    assert_eq!(
        ours.is_match(&subject),
        theirs.find(&subject).is_some(),
        "{pattern:?} on {subject:?}: schemac vs regress"
    );
}

/// The interpreter of every suite group compiled into generated code, in the order of
/// [`generated::VALIDATORS`] (`None` when the group's schema does not compile here).
fn interpreters() -> &'static [Option<Interpreter>] {
    static CACHE: OnceLock<Vec<Option<Interpreter>>> = OnceLock::new();
    CACHE.get_or_init(|| {
        let suite_dir = crate::paths::suite_dir().unwrap_or_else(|e| panic!("{e}"));
        let mut schemas: Vec<(String, String, usize, Value, Options)> = Vec::new();
        let specs = SETS
            .iter()
            .filter(|s| generated::DRAFTS.contains(&s.draft))
            .map(|spec| Set::load(&suite_dir, *spec))
            .chain(std::iter::once(Set::load_dir(
                &crate::suite::fixtures_dir(),
                crate::suite::FIXTURES,
            )));
        for set in specs {
            let set = set.unwrap_or_else(|e| panic!("{e}"));
            for file in &set.files {
                for group in &file.groups {
                    schemas.push((
                        set.spec.label(),
                        file.name.clone(),
                        group.index,
                        group.schema.clone(),
                        set.spec.options(),
                    ));
                }
            }
        }
        let mut compilers: Vec<(String, Compiler)> = Vec::new();
        generated::VALIDATORS
            .iter()
            .map(|(label, file, index, _)| {
                let (_, _, _, schema, options) = schemas
                    .iter()
                    .find(|(l, f, i, ..)| l == label && f == file && i == index)?;
                if !compilers.iter().any(|(l, _)| l == label) {
                    let compiler =
                        registry::compiler(options.clone()).unwrap_or_else(|e| panic!("{e}"));
                    compilers.push((label.to_string(), compiler));
                }
                let (_, compiler) = compilers.iter().find(|(l, _)| l == label)?;
                let program = compiler.compile(schema).ok()?;
                crate::custom::interpreter(program).ok()
            })
            .collect()
    })
}

/// Whether two verdicts differ only in that one backend stopped at the depth bound: the
/// stack guard measures the stack as well as counting nesting, and the measure differs
/// by backend and build (`schemac_runtime::limits`' documentation) — under the fuzzer's
/// instrumentation the interpreter's error-collecting frames are several times larger,
/// and it stops the 1,500-link chain of `depth.json` where generated code finishes. The
/// counted units, the same in both, are compared on every fixture by `tests/budget.rs`.
fn measured_apart(ours: &Verdict, theirs: &Verdict) -> bool {
    let stopped = |v: &Verdict| *v == Verdict::Incomplete(IncompleteReason::DepthExceeded);
    ours != theirs && (stopped(ours) || stopped(theirs))
}

/// Target `generated_vs_interpreted`: bytes 0–1 choose a suite group compiled into
/// generated code, the rest is an instance. Generated code and the interpreter must give
/// the same verdicts and the same error locations; and the rest read as JSON text, as
/// it is, must get from generated code's `check_json` what its `Value` gets from `check`
/// (a syntax error where serde_json refuses it), and the verdict of the interpreter's
/// `check_json`.
pub fn generated_vs_interpreted(data: &[u8]) {
    let [hi, lo, rest @ ..] = data else {
        return;
    };
    let validators = &generated::VALIDATORS;
    let at = usize::from(u16::from_be_bytes([*hi, *lo])) % validators.len();
    let (label, file, index, generated) = validators[at];
    let Some(interp) = &interpreters()[at] else {
        return;
    };
    let what = format!("{label} {file} #{index}");
    from_bytes(&what, generated, interp, rest);
    let Some(instance) = values(rest, 1).pop() else {
        return;
    };
    let (ours, theirs) = (generated.check(&instance), interp.check(&instance));
    if measured_apart(&ours, &theirs) {
        return;
    }
    assert_eq!(ours, theirs, "{what}: check");
    // The same errors, as a set: their order may differ (the interpreter looks
    // `properties` names up, generated code iterates the object).
    let locations = |r: &Report| -> Vec<(String, String)> {
        let mut all: Vec<_> = r
            .errors
            .iter()
            .map(|e| (e.instance_location.clone(), e.keyword_location.clone()))
            .collect();
        all.sort();
        all
    };
    let (ours, theirs) = (generated.validate(&instance), interp.validate(&instance));
    if measured_apart(&ours.verdict, &theirs.verdict) {
        return;
    }
    assert_eq!(ours.verdict, theirs.verdict, "{what}: validate");
    let total = |r: &Report| r.errors.len() as u64 + r.errors_omitted;
    assert_eq!(total(&ours), total(&theirs), "{what}: error count");
    // Past `max_errors` the kept errors may differ with the order.
    if ours.errors_omitted == 0 {
        assert_eq!(
            locations(&ours),
            locations(&theirs),
            "{what}: error locations"
        );
    }
}

/// [`generated_vs_interpreted`] on `text` read as JSON: generated code's `check_json`
/// accepts what serde_json accepts (under the reader's nesting bound, deeper than
/// serde_json's), gives the verdict that `check` gives the `Value` where that one is not
/// incomplete (from bytes the budget is larger: `Limits::for_input`), and the
/// interpreter's `check_json` verdict.
fn from_bytes(what: &str, generated: &dyn Validate, interp: &Interpreter, text: &[u8]) {
    let ours = generated.check_json(text);
    let value = serde_json::from_slice::<Value>(text);
    match (&ours, &value) {
        (Ok(verdict), Ok(value)) => {
            let from_value = generated.check(value);
            if !matches!(from_value, Verdict::Incomplete(_)) {
                assert_eq!(*verdict, from_value, "{what}: check_json and check");
            }
        }
        (Err(_), Err(_)) => {}
        // serde_json refuses nesting past 128 levels, the reader only past 2,048.
        (Ok(_), Err(e)) => assert!(
            e.to_string().contains("recursion limit"),
            "{what}: check_json accepted text serde_json refuses: {e}"
        ),
        (Err(e), Ok(_)) => panic!("{what}: check_json refused JSON: {e}"),
    }
    let theirs = interp.check_json(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if measured_apart(a, b) => {}
        _ => assert_eq!(ours, theirs, "{what}: check_json in both backends"),
    }
}

/// serde_json's default recursion limit accepts this many levels of nesting.
const SERDE_NESTING: usize = 127;

/// Target `document`: any bytes. The byte reader (`schemac_runtime::document`, under
/// serde_json's nesting bound) and `serde_json::from_slice::<Value>` must both accept or
/// both refuse them, and read the same value (compared as serialized text, so that `1`
/// and `1.0`, `0.0` and `-0.0` differ). The cargo-fuzz crate builds serde_json with
/// `float_roundtrip`, the rounding the reader matches (without it serde_json's float
/// parsing can be a unit in the last place off). The compact form
/// (`document::compact`) must read the same value, or refuse with the same error.
pub fn document(data: &[u8]) {
    let ours = Document::read_nested(data, SERDE_NESTING);
    let theirs = serde_json::from_slice::<Value>(data);
    let shown = || String::from_utf8_lossy(data).into_owned();
    let compact = compact::Document::read_nested(data, SERDE_NESTING);
    assert_eq!(
        compact.as_ref().err(),
        ours.as_ref().err(),
        "document: the compact form's error on {:?}",
        shown()
    );
    match (ours, theirs) {
        (Ok(doc), Ok(value)) => {
            let expected = value.to_string();
            assert_eq!(
                doc.to_value().to_string(),
                expected,
                "document: another value read from {:?}",
                shown()
            );
            let compact = compact.map(|doc| doc.to_value().to_string());
            assert_eq!(
                compact.ok(),
                Some(expected),
                "document: the compact form read another value from {:?}",
                shown()
            );
        }
        (Err(e), Err(_)) => assert!(e.offset <= data.len(), "document: {e} past the end"),
        (Ok(_), Err(e)) => panic!("document: accepted {:?}, serde_json: {e}", shown()),
        (Err(e), Ok(_)) => panic!(
            "document: refused {:?} ({e}), serde_json accepts it",
            shown()
        ),
    }
}
