//! Runs the JSON Schema Test Suite's format cases (`tests/draft2020-12/optional/format/`
//! and `tests/draft7/optional/format/`) through [`schemac_runtime::format::lookup`].
//!
//! Every group's schema is `{"$schema"?, "format": X}`: a non-string instance must be
//! valid, a string valid exactly when the checker of X (if X is known) accepts it.
//! Prints one line per file and a total per draft; fails on any mismatch not listed in
//! [`PENDING`], and when the suite is missing.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

/// Cases expected to fail for now: (draft, file, test description, reason).
const PENDING: &[(&str, &str, &str, &str)] = &[
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "when used as a pattern",
        REGEX,
    ),
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "Python named group (?P<name>...) is not ECMA 262",
        REGEX,
    ),
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "Python named backreference (?P=name) is not ECMA 262",
        REGEX,
    ),
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "inline comment group (?#...) is not ECMA 262",
        REGEX,
    ),
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "a single global inline flag (?i)",
        REGEX,
    ),
    (
        "draft2020-12",
        "ecmascript-regex.json",
        "multiple global inline flags (?ims)",
        REGEX,
    ),
    (
        "draft2020-12",
        "regex.json",
        "a regular expression with unclosed parens is invalid",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "when used as a pattern",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "Python named group (?P<name>...) is not ECMA 262",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "Python named backreference (?P=name) is not ECMA 262",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "inline comment group (?#...) is not ECMA 262",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "a single global inline flag (?i)",
        REGEX,
    ),
    (
        "draft7",
        "ecmascript-regex.json",
        "multiple global inline flags (?ims)",
        REGEX,
    ),
    (
        "draft7",
        "regex.json",
        "a regular expression with unclosed parens is invalid",
        REGEX,
    ),
];

/// Why the regex cases are pending.
const REGEX: &str = "format \"regex\" calls crate::regex::is_valid_syntax, a placeholder that \
                     accepts every pattern until the ECMA-262 regex issue lands";

/// The suite's root: `JSON_SCHEMA_TEST_SUITE`, else `json-schema-test-suite` in the shared
/// folder (`SCHEMAC_SHARED`, else `shared` beside the workspace root).
fn suite_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        return PathBuf::from(dir);
    }
    let shared = match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    shared.join("json-schema-test-suite")
}

/// Counts for one file or draft.
#[derive(Default)]
struct Counts {
    passed: usize,
    failed: usize,
    pending: usize,
}

fn main() -> ExitCode {
    let root = suite_root();
    let mut ok = true;
    for draft in ["draft2020-12", "draft7"] {
        let dir = root.join("tests").join(draft).join("optional/format");
        let mut files: Vec<PathBuf> = match fs::read_dir(&dir) {
            Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                println!("format suite: cannot read {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        };
        files.retain(|p| p.extension().is_some_and(|x| x == "json"));
        files.sort();
        if files.is_empty() {
            println!("format suite: no files in {}", dir.display());
            return ExitCode::FAILURE;
        }
        let mut total = Counts::default();
        for path in &files {
            let file = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let counts = run_file(draft, &file, path, &mut ok);
            println!(
                "format {draft} {file}: {} passed, {} failed, {} pending",
                counts.passed, counts.failed, counts.pending
            );
            total.passed += counts.passed;
            total.failed += counts.failed;
            total.pending += counts.pending;
        }
        println!(
            "format {draft} total: {} passed, {} failed, {} pending",
            total.passed, total.failed, total.pending
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs one suite file, printing each unexpected outcome.
fn run_file(draft: &str, file: &str, path: &PathBuf, ok: &mut bool) -> Counts {
    let mut counts = Counts::default();
    let groups: Value = match fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            println!("  FAIL {draft}/{file}: cannot load: {e}");
            *ok = false;
            return counts;
        }
    };
    for group in groups.as_array().into_iter().flatten() {
        let description = group["description"].as_str().unwrap_or("?");
        let schema = &group["schema"];
        let format = schema.get("format").and_then(Value::as_str);
        let shape_ok = schema
            .as_object()
            .is_some_and(|o| o.keys().all(|k| k == "format" || k == "$schema"));
        let (Some(format), true) = (format, shape_ok) else {
            println!(
                "  FAIL {draft}/{file} / {description}: schema is not just a format: {schema}"
            );
            *ok = false;
            continue;
        };
        let checker = schemac_runtime::format::lookup(format);
        for test in group["tests"].as_array().into_iter().flatten() {
            let test_description = test["description"].as_str().unwrap_or("?");
            let expected = test["valid"].as_bool();
            let actual = match (&test["data"], checker) {
                (Value::String(s), Some(check)) => check(s),
                _ => true,
            };
            let pending = PENDING
                .iter()
                .find(|p| p.0 == draft && p.1 == file && p.2 == test_description);
            if expected == Some(actual) {
                counts.passed += 1;
                if pending.is_some() {
                    println!(
                        "  NOTE {draft}/{file} / {description} / {test_description}: pending but passes now; remove it from PENDING"
                    );
                }
            } else if let Some(p) = pending {
                counts.pending += 1;
                println!(
                    "  pending {draft}/{file} / {description} / {test_description}: {}",
                    p.3
                );
            } else {
                counts.failed += 1;
                *ok = false;
                println!(
                    "  FAIL {draft}/{file} / {description} / {test_description}: data {} expected {}, got {actual}",
                    test["data"],
                    expected.map_or("?".into(), |v| v.to_string())
                );
            }
        }
    }
    counts
}
