//! The JSON Schema Test Suite's regex cases, run directly against the regex engine.
//!
//! Reads draft2020-12 `pattern.json`, `patternProperties.json`,
//! `optional/ecmascript-regex.json`, `optional/non-bmp-regex.json` and
//! `optional/format/ecmascript-regex.json` (plus `optional/format/regex.json`), and checks every case whose schema uses only
//! `pattern`, `patternProperties`, `format: "regex"` (asserted) and the few plain keywords
//! around them (`type`, `maximum`, `additionalProperties: false`, boolean subschemas),
//! with a tiny evaluator here — the interpreter is tested separately.

use std::path::PathBuf;

use schemac::regex::{compile, RegexOptions};
use serde_json::Value;

fn suite_dir() -> PathBuf {
    if let Ok(p) = std::env::var("JSON_SCHEMA_TEST_SUITE") {
        return PathBuf::from(p);
    }
    let shared = match std::env::var("SCHEMAC_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    shared.join("json-schema-test-suite")
}

/// `None` when the schema uses a keyword this evaluator does not know.
fn valid(schema: &Value, instance: &Value) -> Option<bool> {
    let obj = match schema {
        Value::Bool(b) => return Some(*b),
        Value::Object(o) => o,
        _ => return None,
    };
    let mut ok = true;
    for (k, v) in obj {
        let r = match k.as_str() {
            "$schema" => true,
            "type" => match v.as_str()? {
                "string" => instance.is_string(),
                "object" => instance.is_object(),
                "null" => instance.is_null(),
                "boolean" => instance.is_boolean(),
                "number" => instance.is_number(),
                "integer" => instance.as_f64().is_some_and(|f| f.fract() == 0.0),
                _ => return None,
            },
            "maximum" => match instance.as_f64() {
                Some(x) => x <= v.as_f64()?,
                None => true,
            },
            "pattern" => match instance.as_str() {
                Some(s) => compile(v.as_str()?, &RegexOptions::default())
                    .expect("suite patterns compile")
                    .is_match(s),
                None => true,
            },
            "format" if v == "regex" => match instance.as_str() {
                Some(s) => schemac_runtime::regex::is_valid_syntax(s),
                None => true,
            },
            "patternProperties" | "additionalProperties" => {
                let Some(inst) = instance.as_object() else {
                    continue;
                };
                if k == "additionalProperties" {
                    continue; // evaluated with patternProperties below
                }
                let pats: Vec<_> = v
                    .as_object()?
                    .iter()
                    .map(|(p, s)| {
                        let re =
                            compile(p, &RegexOptions::default()).expect("suite patterns compile");
                        (re, s)
                    })
                    .collect();
                let additional = obj.get("additionalProperties");
                let mut all = true;
                for (name, value) in inst {
                    let mut matched = false;
                    for (re, sub) in &pats {
                        if re.is_match(name) {
                            matched = true;
                            all &= valid(sub, value)?;
                        }
                    }
                    if !matched {
                        if let Some(a) = additional {
                            all &= valid(a, value)?;
                        }
                    }
                }
                all
            }
            _ => return None,
        };
        ok &= r;
    }
    Some(ok)
}

#[test]
fn suite_regex_cases() {
    let dir = suite_dir().join("tests/draft2020-12");
    let files = [
        "pattern.json",
        "patternProperties.json",
        "optional/ecmascript-regex.json",
        "optional/non-bmp-regex.json",
        "optional/format/ecmascript-regex.json",
        "optional/format/regex.json",
    ];
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e} (set SCHEMAC_SHARED)",
                dir.join(file).display()
            )
        });
        let groups: Value = serde_json::from_str(&text).expect("suite JSON");
        for group in groups.as_array().expect("array of groups") {
            for test in group["tests"].as_array().expect("tests") {
                match valid(&group["schema"], &test["data"]) {
                    None => skipped += 1,
                    Some(v) if v == test["valid"].as_bool().expect("valid flag") => passed += 1,
                    Some(_) => {
                        failed += 1;
                        failures.push(format!(
                            "{file}: {} / {}",
                            group["description"], test["description"]
                        ));
                    }
                }
            }
        }
    }
    println!("suite regex cases: {passed} passed, {failed} failed, {skipped} skipped");
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(skipped, 0, "every case in these files should be covered");
    assert!(passed > 80, "only {passed} cases ran");
}
