//! The `schemac` binary's contract, driven as scripts drive it: every exit code, the
//! output lines, `-`, `--jsonl`, `--output json`, the shared options, and the bad schemas
//! seen in MCP practice.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch folder for one test, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("schemac-cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path.
fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn from(output: Output) -> Run {
        Run {
            code: output
                .status
                .code()
                .expect("schemac was killed by a signal"),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// Asserts the exit code, showing both streams when it differs.
    fn expect(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "exit code\n--- stdout\n{}--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// Runs `schemac ARGS` in `dir`, with `stdin` as standard input.
fn schemac_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_schemac"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // schemac may exit without reading (a usage error): a closed pipe is fine here.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    Run::from(child.wait_with_output().unwrap())
}

fn schemac(dir: &Path, args: &[&str]) -> Run {
    schemac_in(dir, args, "")
}

/// Each line of `stdout`, as JSON.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const SEARCH: &str = r#"{
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1}
    },
    "required": ["query"],
    "additionalProperties": false
}"#;

// ---- check ---------------------------------------------------------------------------

#[test]
fn check_exits_0_when_every_schema_compiles() {
    let dir = scratch("check_ok");
    file(&dir, "a.json", SEARCH);
    file(&dir, "b.json", "true");
    let run = schemac(&dir, &["check", "a.json", "b.json"]).expect(0);
    assert_eq!(run.stdout, "a.json: compiles\nb.json: compiles\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn check_exits_2_when_any_schema_fails_and_names_it() {
    let dir = scratch("check_one_bad");
    file(&dir, "good.json", SEARCH);
    file(
        &dir,
        "bad.json",
        r#"{"type": "object", "required": "query"}"#,
    );
    let run = schemac(&dir, &["check", "good.json", "bad.json"]).expect(2);
    assert!(run.stderr.contains("bad.json#/required"), "{}", run.stderr);
    assert!(!run.stderr.contains("good.json"), "{}", run.stderr);
}

#[test]
fn mcp_required_as_a_string_is_an_invalid_keyword_at_required() {
    let dir = scratch("mcp_required_string");
    file(
        &dir,
        "tool.json",
        r#"{"type": "object", "required": "query"}"#,
    );
    let run = schemac(&dir, &["check", "tool.json"]).expect(2);
    assert!(run.stderr.contains("InvalidKeyword"), "{}", run.stderr);
    assert!(run.stderr.contains("tool.json#/required"), "{}", run.stderr);
}

#[test]
fn mcp_ref_to_a_missing_def_is_an_unresolved_ref() {
    let dir = scratch("mcp_missing_def");
    file(
        &dir,
        "tool.json",
        r##"{"type": "object", "properties": {"id": {"$ref": "#/$defs/identifier"}}}"##,
    );
    let run = schemac(&dir, &["check", "tool.json"]).expect(2);
    assert!(run.stderr.contains("UnresolvedRef"), "{}", run.stderr);
    assert!(run.stderr.contains("#/$defs/identifier"), "{}", run.stderr);
}

#[test]
fn mcp_custom_dialect_is_unsupported() {
    let dir = scratch("mcp_custom_dialect");
    file(
        &dir,
        "tool.json",
        r#"{"$schema": "https://example.com/schemas/custom-dialect", "type": "object"}"#,
    );
    let run = schemac(&dir, &["check", "tool.json"]).expect(2);
    assert!(run.stderr.contains("UnsupportedDialect"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("https://example.com/schemas/custom-dialect"),
        "{}",
        run.stderr
    );
}

const REMOTE: &str = r#"{
    "type": "object",
    "properties": {
        "id": {"$ref": "https://schemas.example.com/common.json#/$defs/identifier"},
        "name": {"type": "string"}
    }
}"#;

#[test]
fn mcp_remote_ref_is_an_error_by_default() {
    let dir = scratch("mcp_remote_error");
    file(&dir, "tool.json", REMOTE);
    let run = schemac(&dir, &["check", "tool.json"]).expect(2);
    assert!(run.stderr.contains("RemoteRef"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("https://schemas.example.com/common.json"),
        "{}",
        run.stderr
    );
    // validate refuses the schema alike, before reading any instance
    file(&dir, "call.json", r#"{"id": "x"}"#);
    let run = schemac(&dir, &["validate", "tool.json", "call.json"]).expect(2);
    assert_eq!(run.stdout, "");
}

#[test]
fn mcp_remote_ref_warns_under_refs_warn_and_validation_reaching_it_is_incomplete() {
    let dir = scratch("mcp_remote_warn");
    file(&dir, "tool.json", REMOTE);
    let run = schemac(&dir, &["check", "--refs", "warn", "tool.json"]).expect(0);
    assert!(run.stderr.contains("warning"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("https://schemas.example.com/common.json"),
        "{}",
        run.stderr
    );

    file(&dir, "reaches.json", r#"{"id": "x"}"#);
    file(&dir, "avoids.json", r#"{"name": "x"}"#);
    file(&dir, "wrong.json", r#"{"name": 1}"#);
    let run = schemac(
        &dir,
        &["validate", "--refs", "warn", "tool.json", "reaches.json"],
    )
    .expect(3);
    assert!(
        run.stdout.starts_with("reaches.json: incomplete ("),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("https://schemas.example.com/common.json"),
        "{}",
        run.stdout
    );
    // the option also works after the command, and an instance that does not reach the
    // reference is fully checked
    let run = schemac(
        &dir,
        &["validate", "tool.json", "avoids.json", "--refs", "warn"],
    )
    .expect(0);
    assert_eq!(run.stdout, "avoids.json: valid\n");
    // any invalid instance outranks an incomplete one
    let run = schemac(
        &dir,
        &[
            "--refs",
            "warn",
            "validate",
            "tool.json",
            "reaches.json",
            "wrong.json",
        ],
    )
    .expect(1);
    assert!(
        run.stdout.contains("wrong.json: invalid\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_registered_document_resolves_the_remote_ref() {
    let dir = scratch("document_option");
    file(&dir, "tool.json", REMOTE);
    file(
        &dir,
        "common=1.json",
        r#"{"$defs": {"identifier": {"type": "string", "minLength": 2}}}"#,
    );
    file(&dir, "ok.json", r#"{"id": "abc"}"#);
    file(&dir, "bad.json", r#"{"id": 7}"#);
    let document = "--document=https://schemas.example.com/common.json=common=1.json";
    let run = schemac(&dir, &["check", document, "tool.json"]).expect(0);
    assert_eq!(run.stderr, "");
    let run = schemac(
        &dir,
        &["validate", document, "tool.json", "ok.json", "bad.json"],
    )
    .expect(1);
    assert!(
        run.stdout
            .starts_with("ok.json: valid\nbad.json: invalid\n  /id"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_bad_document_option_is_exit_2() {
    let dir = scratch("bad_document");
    file(&dir, "tool.json", SEARCH);
    file(&dir, "broken.json", "{");
    schemac(
        &dir,
        &["check", "--document", "common.json=x.json", "tool.json"],
    )
    .expect(2);
    let run = schemac(
        &dir,
        &[
            "check",
            "--document",
            "https://a.example/x.json=missing.json",
            "tool.json",
        ],
    )
    .expect(2);
    assert!(run.stderr.contains("missing.json"), "{}", run.stderr);
    let run = schemac(
        &dir,
        &[
            "check",
            "--document",
            "https://a.example/x.json=broken.json",
            "tool.json",
        ],
    )
    .expect(2);
    assert!(
        run.stderr.contains("broken.json: not JSON"),
        "{}",
        run.stderr
    );
}

// ---- validate ------------------------------------------------------------------------

#[test]
fn validate_exits_0_when_all_valid() {
    let dir = scratch("validate_valid");
    file(&dir, "s.json", SEARCH);
    file(&dir, "a.json", r#"{"query": "rust"}"#);
    file(&dir, "b.json", r#"{"query": "rust", "limit": 3}"#);
    let run = schemac(&dir, &["validate", "s.json", "a.json", "b.json"]).expect(0);
    assert_eq!(run.stdout, "a.json: valid\nb.json: valid\n");
}

#[test]
fn validate_exits_1_and_indents_each_error_under_the_invalid_instance() {
    let dir = scratch("validate_invalid");
    file(&dir, "s.json", SEARCH);
    file(&dir, "ok.json", r#"{"query": "rust"}"#);
    file(&dir, "bad.json", r#"{"limit": 0, "extra": true}"#);
    let run = schemac(&dir, &["validate", "s.json", "bad.json", "ok.json"]).expect(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "bad.json: invalid");
    assert_eq!(*lines.last().unwrap(), "ok.json: valid");
    let errors = &lines[1..lines.len() - 1];
    // required (query), minimum (limit), additionalProperties (extra)
    assert_eq!(errors.len(), 3, "{}", run.stdout);
    assert!(errors.iter().all(|l| l.starts_with("  ")), "{}", run.stdout);
    assert!(
        errors.iter().any(|l| l.contains("\"query\"")),
        "{}",
        run.stdout
    );
    assert!(
        errors.iter().any(|l| l.contains("/limit")),
        "{}",
        run.stdout
    );
    assert!(
        errors.iter().any(|l| l.contains("/extra")),
        "{}",
        run.stdout
    );
}

#[test]
fn validate_reads_standard_input_for_dash() {
    let dir = scratch("validate_stdin");
    file(&dir, "s.json", SEARCH);
    let run = schemac_in(&dir, &["validate", "s.json", "-"], r#"{"query": "x"}"#).expect(0);
    assert_eq!(run.stdout, "-: valid\n");
    let run = schemac_in(&dir, &["validate", "s.json", "-"], r#"{"query": 1}"#).expect(1);
    assert!(
        run.stdout.starts_with("-: invalid\n  /query"),
        "{}",
        run.stdout
    );
}

#[test]
fn validate_jsonl_takes_each_line_as_an_instance() {
    let dir = scratch("validate_jsonl");
    file(&dir, "s.json", SEARCH);
    file(
        &dir,
        "calls.jsonl",
        "{\"query\": \"a\"}\n{\"query\": 2}\n\n{\"query\": \"c\", \"limit\": 5}\n",
    );
    let run = schemac(&dir, &["validate", "--jsonl", "s.json", "calls.jsonl"]).expect(1);
    let verdicts: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.starts_with("  "))
        .collect();
    assert_eq!(
        verdicts,
        [
            "calls.jsonl:1: valid",
            "calls.jsonl:2: invalid",
            "calls.jsonl:4: valid"
        ]
    );
    // from standard input too
    let run = schemac_in(
        &dir,
        &["validate", "--jsonl", "s.json", "-"],
        "{\"query\": \"a\"}\n{\"query\": \"b\"}\n",
    )
    .expect(0);
    assert_eq!(run.stdout, "-:1: valid\n-:2: valid\n");
}

#[test]
fn validate_output_json_prints_the_basic_format_with_the_instance_path() {
    let dir = scratch("validate_json");
    file(&dir, "s.json", SEARCH);
    file(&dir, "ok.json", r#"{"query": "rust"}"#);
    file(&dir, "bad.json", r#"{"query": ""}"#);
    let run = schemac(
        &dir,
        &[
            "validate", "--output", "json", "s.json", "ok.json", "bad.json",
        ],
    )
    .expect(1);
    let units = json_lines(&run.stdout);
    assert_eq!(units.len(), 2, "{}", run.stdout);
    // A valid instance: the annotations of `properties` and `additionalProperties`.
    let root = "https://schemac.invalid/root.json#";
    assert_eq!(
        units[0],
        serde_json::json!({
            "valid": true, "keywordLocation": "", "instanceLocation": "", "instance": "ok.json",
            "annotations": [
                {
                    "valid": true, "keywordLocation": "/additionalProperties",
                    "absoluteKeywordLocation": format!("{root}/additionalProperties"),
                    "instanceLocation": "", "annotation": []
                },
                {
                    "valid": true, "keywordLocation": "/properties",
                    "absoluteKeywordLocation": format!("{root}/properties"),
                    "instanceLocation": "", "annotation": ["query"]
                }
            ]
        })
    );
    assert_eq!(units[1]["valid"], false);
    assert_eq!(units[1]["keywordLocation"], "");
    assert_eq!(units[1]["instanceLocation"], "");
    assert_eq!(units[1]["instance"], "bad.json");
    let errors = units[1]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{}", run.stdout);
    assert_eq!(errors[0]["valid"], false);
    assert_eq!(errors[0]["instanceLocation"], "/query");
    assert_eq!(errors[0]["keywordLocation"], "/properties/query/minLength");
    assert!(errors[0]["absoluteKeywordLocation"]
        .as_str()
        .unwrap()
        .ends_with("#/properties/query/minLength"));
    assert!(errors[0]["error"].is_string());
}

#[test]
fn validate_output_json_marks_incomplete_as_not_valid() {
    let dir = scratch("validate_json_incomplete");
    file(&dir, "tool.json", REMOTE);
    file(&dir, "reaches.json", r#"{"id": "x"}"#);
    let run = schemac(
        &dir,
        &[
            "validate",
            "--refs",
            "warn",
            "--output",
            "json",
            "tool.json",
            "reaches.json",
        ],
    )
    .expect(3);
    let unit: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(unit["valid"], false);
    assert_eq!(unit["instance"], "reaches.json");
    assert!(unit["incomplete"].as_str().unwrap().contains("common.json"));
}

#[test]
fn an_instance_that_is_not_json_is_exit_2_and_the_others_still_report() {
    let dir = scratch("instance_not_json");
    file(&dir, "s.json", SEARCH);
    file(&dir, "ok.json", r#"{"query": "rust"}"#);
    file(&dir, "bad.json", r#"{"query": 1}"#);
    file(&dir, "broken.json", r#"{"query": "#);
    let run = schemac(
        &dir,
        &["validate", "s.json", "broken.json", "ok.json", "bad.json"],
    )
    .expect(2);
    assert!(run.stderr.contains("broken.json"), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("ok.json: valid\nbad.json: invalid\n"),
        "{}",
        run.stdout
    );
    let run = schemac(&dir, &["validate", "s.json", "missing.json"]).expect(2);
    assert!(run.stderr.contains("missing.json"), "{}", run.stderr);
    // one bad line of a JSON Lines file
    file(&dir, "calls.jsonl", "{\"query\": \"a\"}\nnot json\n");
    let run = schemac(&dir, &["validate", "--jsonl", "s.json", "calls.jsonl"]).expect(2);
    assert_eq!(run.stdout, "calls.jsonl:1: valid\n");
    assert!(run.stderr.contains("calls.jsonl:2"), "{}", run.stderr);
    let run = schemac_in(&dir, &["validate", "s.json", "-"], "").expect(2);
    assert!(run.stderr.contains("-: not JSON"), "{}", run.stderr);
}

#[test]
fn a_schema_that_cannot_be_read_is_exit_2() {
    let dir = scratch("schema_unreadable");
    file(&dir, "i.json", "{}");
    file(&dir, "broken.json", "{\"type\": ");
    file(&dir, "number.json", "42");
    for schema in ["missing.json", "broken.json"] {
        let run = schemac(&dir, &["validate", schema, "i.json"]).expect(2);
        assert!(run.stderr.contains(schema), "{}", run.stderr);
        assert_eq!(run.stdout, "");
        schemac(&dir, &["check", schema]).expect(2);
    }
    // JSON, but not a schema
    let run = schemac(&dir, &["check", "number.json"]).expect(2);
    assert!(run.stderr.contains("number.json"), "{}", run.stderr);
}

#[test]
fn usage_errors_are_exit_2() {
    let dir = scratch("usage");
    file(&dir, "s.json", SEARCH);
    schemac(&dir, &[]).expect(2);
    schemac(&dir, &["check"]).expect(2);
    schemac(&dir, &["validate", "s.json"]).expect(2);
    schemac(&dir, &["frobnicate"]).expect(2);
    schemac(&dir, &["--refs", "maybe", "check", "s.json"]).expect(2);
    schemac(&dir, &["--dialect", "draft3", "check", "s.json"]).expect(2);
    schemac(&dir, &["validate", "--output", "xml", "s.json", "-"]).expect(2);
    // The tool mode: --tool and --output-of need --tools, and exclude each other.
    schemac(&dir, &["validate", "--tool", "x", "s.json", "-"]).expect(2);
    schemac(&dir, &["validate", "--tools", "s.json", "-"]).expect(2);
    let both = [
        "validate",
        "--tools",
        "s.json",
        "--tool",
        "x",
        "--output-of",
        "x",
        "-",
    ];
    schemac(&dir, &both).expect(2);
    let run = schemac(&dir, &["--help"]).expect(0);
    assert!(run.stdout.contains("validate"), "{}", run.stdout);
}

#[test]
fn dialect_sets_the_default_for_schemas_without_schema() {
    let dir = scratch("dialect");
    // draft-07 tuple form: `items` as an array, `additionalItems` for the rest
    file(
        &dir,
        "tuple.json",
        r#"{"items": [{"type": "string"}], "additionalItems": false}"#,
    );
    file(&dir, "one.json", r#"["a"]"#);
    file(&dir, "two.json", r#"["a", "b"]"#);
    let run = schemac(
        &dir,
        &[
            "validate",
            "--dialect",
            "draft7",
            "tuple.json",
            "one.json",
            "two.json",
        ],
    )
    .expect(1);
    assert!(
        run.stdout
            .starts_with("one.json: valid\ntwo.json: invalid\n  /1"),
        "{}",
        run.stdout
    );
    // a declared `$schema` wins over the option
    file(
        &dir,
        "declared.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}], "additionalItems": false}"#,
    );
    schemac(&dir, &["validate", "declared.json", "two.json"]).expect(1);
}

#[test]
fn assert_format_reaches_the_compiler() {
    let dir = scratch("assert_format_unknown");
    file(
        &dir,
        "s.json",
        r#"{"type": "string", "format": "no-such-format"}"#,
    );
    file(&dir, "i.json", r#""x""#);
    // annotation only: nothing to say about an unknown format
    let run = schemac(&dir, &["check", "s.json"]).expect(0);
    assert_eq!(run.stderr, "");
    // asserted: the compiler warns that it cannot assert it
    let run = schemac(&dir, &["validate", "--assert-format", "s.json", "i.json"]).expect(0);
    assert!(run.stderr.contains("no-such-format"), "{}", run.stderr);
    assert_eq!(run.stdout, "i.json: valid\n");
}

#[test]
fn every_dialect_is_a_dialect_option() {
    let dir = scratch("dialects");
    // draft-04 alone reads `exclusiveMaximum` as a boolean and refuses `1.0` as an integer.
    file(
        &dir,
        "s.json",
        r#"{"type": "integer", "maximum": 3, "exclusiveMaximum": true}"#,
    );
    file(&dir, "two.json", "2");
    file(&dir, "float.json", "2.0");
    for dialect in ["2020-12", "2019-09", "draft7", "draft6"] {
        schemac(&dir, &["--dialect", dialect, "check", "s.json"]).expect(2);
    }
    let args = [
        "validate",
        "--dialect",
        "draft4",
        "s.json",
        "two.json",
        "float.json",
    ];
    let run = schemac(&dir, &args).expect(1);
    assert!(
        run.stdout
            .starts_with("two.json: valid\nfloat.json: invalid\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn assert_content_asserts_draft7_content() {
    let dir = scratch("assert_content");
    file(
        &dir,
        "s.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#",
            "contentEncoding": "base64", "contentMediaType": "application/json"}"#,
    );
    file(&dir, "ok.json", r#""eyJmb28iOiAiYmFyIn0K""#);
    file(&dir, "bad.json", r#""ezp9Cg==""#);
    let run = schemac(&dir, &["validate", "s.json", "ok.json", "bad.json"]).expect(0);
    assert_eq!(run.stdout, "ok.json: valid\nbad.json: valid\n");
    let args = [
        "validate",
        "--assert-content",
        "s.json",
        "ok.json",
        "bad.json",
    ];
    let run = schemac(&dir, &args).expect(1);
    assert!(
        run.stdout
            .starts_with("ok.json: valid\nbad.json: invalid\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("contentMediaType"), "{}", run.stdout);
}

#[test]
fn assert_format_makes_format_an_assertion() {
    let dir = scratch("assert_format");
    file(&dir, "s.json", r#"{"type": "string", "format": "ipv4"}"#);
    file(&dir, "i.json", r#""999.1.1.1""#);
    let run = schemac(&dir, &["validate", "s.json", "i.json"]).expect(0);
    assert_eq!(run.stdout, "i.json: valid\n");
    let run = schemac(&dir, &["validate", "--assert-format", "s.json", "i.json"]).expect(1);
    assert!(run.stdout.contains("ipv4"), "{}", run.stdout);
}

#[test]
fn the_readme_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let calls = [
        "examples/search-call-ok.json",
        "examples/search-call-bad.json",
    ];
    // The calls against the schema file, and against the same schema as a tool of an MCP
    // tool list.
    let tool = ["--tools", "examples/search-tools.json", "--tool", "search"];
    for schema in [&["examples/search-tool.schema.json"][..], &tool] {
        let run = schemac(&root, &[&["validate"][..], schema, &calls].concat()).expect(1);
        assert!(
            run.stdout.starts_with(
                "examples/search-call-ok.json: valid\nexamples/search-call-bad.json: invalid\n"
            ),
            "{}",
            run.stdout
        );
    }
    let run = schemac(
        &root,
        &[
            "validate",
            "--jsonl",
            "--assert-format",
            "examples/search-tool.schema.json",
            "examples/search-calls.jsonl",
        ],
    )
    .expect(1);
    let verdicts: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.starts_with("  "))
        .collect();
    assert_eq!(
        verdicts,
        [
            "examples/search-calls.jsonl:1: valid",
            "examples/search-calls.jsonl:2: invalid",
            "examples/search-calls.jsonl:3: valid"
        ]
    );
    let run = schemac(&root, &["check", "--tools", "examples/search-tools.json"]).expect(0);
    assert_eq!(
        run.stdout,
        "examples/search-tools.json [search]: inputSchema compiles, outputSchema compiles\n"
    );
}

// ---- MCP tool lists (--tools) ---------------------------------------------------------

const TOOLS: &str = r#"{"tools": [
    {"name": "search", "inputSchema": {"type": "object", "required": ["query"],
        "properties": {"query": {"type": "string"}}},
     "outputSchema": {"type": "array", "items": {"type": "string"}}},
    {"name": "github.get-me", "inputSchema": {"type": "object", "additionalProperties": false}}
]}"#;

#[test]
fn check_tools_prints_a_line_per_tool_from_either_form_of_list() {
    let dir = scratch("check_tools");
    file(&dir, "tools.json", TOOLS);
    let listed: Value = serde_json::from_str(TOOLS).unwrap();
    file(&dir, "array.json", &listed["tools"].to_string());
    for list in ["tools.json", "array.json"] {
        let run = schemac(&dir, &["check", "--tools", list]).expect(0);
        assert_eq!(
            run.stdout,
            format!(
                "{list} [search]: inputSchema compiles, outputSchema compiles\n\
                 {list} [github.get-me]: inputSchema compiles, no outputSchema\n"
            )
        );
        assert_eq!(run.stderr, "");
    }
    // Schemas and a tool list in one run.
    file(&dir, "s.json", SEARCH);
    let run = schemac(&dir, &["check", "s.json", "--tools", "tools.json"]).expect(0);
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    // A tool list is read under --max-input-size like every input.
    let run = schemac(
        &dir,
        &["check", "--max-input-size", "64", "--tools", "tools.json"],
    );
    let run = run.expect(2);
    assert!(run.stderr.contains("(--max-input-size)"), "{}", run.stderr);
}

#[test]
fn check_tools_reports_every_problem_under_mcp_rules() {
    let dir = scratch("check_tools_bad");
    file(
        &dir,
        "tools.json",
        r#"{"tools": [
            {"name": "ok", "inputSchema": {"type": "object"}},
            {"name": "array-input", "inputSchema": {"type": "array"}},
            {"name": "bad-output", "inputSchema": {"type": "object"},
             "outputSchema": {"required": "x"}},
            {"name": "draft4", "inputSchema": {"type": "object",
             "$schema": "http://json-schema.org/draft-04/schema#"}},
            {"inputSchema": {"type": "object"}}
        ]}"#,
    );
    let run = schemac(&dir, &["check", "--tools", "tools.json"]).expect(2);
    assert_eq!(
        run.stdout,
        "tools.json [ok]: inputSchema compiles, no outputSchema\n\
         tools.json [bad-output]: inputSchema compiles, outputSchema does not compile\n\
         tools.json [draft4]: inputSchema does not compile, no outputSchema\n"
    );
    for expected in [
        "tools.json#/tools/1/inputSchema (type)",
        "tools.json#/tools/4 (name)",
        "tools.json [bad-output outputSchema]#/required (required)",
        "tools.json [draft4 inputSchema]",
        "MCP",
        "schemac: 4 of 5 tool(s) failed: 2 not a tool by MCP's rules, 2 with a schema that does not compile",
    ] {
        assert!(run.stderr.contains(expected), "{expected:?} in {}", run.stderr);
    }
}

#[test]
fn validate_tools_checks_arguments_and_structured_content() {
    let dir = scratch("validate_tools");
    file(&dir, "tools.json", TOOLS);
    file(&dir, "ok.json", r#"{"query": "rust"}"#);
    file(&dir, "bad.json", r#"{"limit": 3}"#);
    file(&dir, "hits.json", r#"["a", "b"]"#);
    file(&dir, "empty.json", "{}");
    let tool = ["validate", "--tools", "tools.json", "--tool"];
    let run = schemac(
        &dir,
        &[&tool[..], &["search", "ok.json", "bad.json"]].concat(),
    )
    .expect(1);
    assert!(
        run.stdout
            .starts_with("ok.json: valid\nbad.json: invalid\n  "),
        "{}",
        run.stdout
    );
    // The listed name, not the module's.
    schemac(
        &dir,
        &[&tool[..], &["github.get-me", "empty.json"]].concat(),
    )
    .expect(0);
    schemac(&dir, &[&tool[..], &["github.get-me", "ok.json"]].concat()).expect(1);

    let output = ["validate", "--tools", "tools.json", "--output-of"];
    schemac(&dir, &[&output[..], &["search", "hits.json"]].concat()).expect(0);
    schemac(&dir, &[&output[..], &["search", "ok.json"]].concat()).expect(1);
    let run = schemac(
        &dir,
        &[&output[..], &["github.get-me", "empty.json"]].concat(),
    )
    .expect(2);
    assert!(
        run.stderr.contains("declares no outputSchema"),
        "{}",
        run.stderr
    );

    let run = schemac(
        &dir,
        &[&tool[..], &["github_get_me", "empty.json"]].concat(),
    )
    .expect(2);
    assert!(
        run.stderr.contains("no tool github_get_me")
            && run.stderr.ends_with("its tools: search, github.get-me\n"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn a_tool_given_as_a_schema_warns_and_names_tools() {
    let dir = scratch("tool_as_schema");
    let tool = r#"{"name": "search", "icons": [], "inputSchema": {"type": "object", "required": ["query"]}}"#;
    file(&dir, "tool.json", tool);
    file(&dir, "tools.json", TOOLS);
    file(&dir, "empty.json", "{}");
    for document in ["tool.json", "tools.json"] {
        let run = schemac(&dir, &["validate", document, "empty.json"]);
        assert!(
            run.stderr.contains(&format!(
                "{document}#: warning: {document} looks like an MCP tool"
            )) && run
                .stderr
                .contains(&format!("`schemac check --tools {document}`")),
            "{}",
            run.stderr
        );
        // No far-fetched typo hint for a tool's own fields (`icons` is not `const`).
        assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    }
    let run = schemac(&dir, &["check", "tools.json"]);
    assert!(run.stderr.contains("--tools"), "{}", run.stderr);
}

// ---- generate ------------------------------------------------------------------------

#[test]
fn generate_writes_one_module_per_schema() {
    let dir = scratch("generate_ok");
    file(&dir, "search-docs.json", SEARCH);
    file(&dir, "ping.json", r#"{"type": "object"}"#);
    schemac(
        &dir,
        &["generate", "search-docs.json", "ping.json", "-o", "out.rs"],
    )
    .expect(0);
    let code = std::fs::read_to_string(dir.join("out.rs")).unwrap();
    assert!(code.starts_with("// @generated by schemac "), "{code}");
    assert!(
        code.contains("from search-docs.json, ping.json. Do not edit."),
        "{code}"
    );
    assert!(code.contains("pub mod search_docs {"), "{code}");
    assert!(code.contains("pub mod ping {"), "{code}");
    assert!(
        code.contains("__rt::entry_points!(Validator, validate);"),
        "{code}"
    );
    // Deterministic: the same input gives the same bytes.
    let again = schemac(
        &dir,
        &["generate", "search-docs.json", "ping.json", "-o", "-"],
    )
    .expect(0);
    assert_eq!(again.stdout, code);
}

#[test]
fn generate_writes_nothing_when_a_schema_fails() {
    let dir = scratch("generate_bad");
    file(&dir, "good.json", SEARCH);
    file(
        &dir,
        "bad.json",
        r#"{"type": "object", "required": "query"}"#,
    );
    let run = schemac(&dir, &["generate", "good.json", "bad.json", "-o", "out.rs"]).expect(2);
    assert!(run.stderr.contains("bad.json"), "{}", run.stderr);
    assert!(run.stderr.contains("required"), "{}", run.stderr);
    assert!(!dir.join("out.rs").exists());
}

#[test]
fn generate_refuses_module_name_collisions() {
    let dir = scratch("generate_collision");
    file(&dir, "a-b.json", SEARCH);
    file(&dir, "a_b.json", SEARCH);
    let run = schemac(&dir, &["generate", "a-b.json", "a_b.json", "-o", "out.rs"]).expect(2);
    assert!(run.stderr.contains("module `a_b`"), "{}", run.stderr);
}

// ---- hostile input: read limits, report limits, forged output, deep instances ------------

/// Writes `bytes` to `dir/name` and returns the path.
fn file_bytes(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A JSON array of `n` small strings: about 8 bytes per item.
fn big_array(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| format!("\"{i:05}\"")).collect();
    format!("[{}]", items.join(","))
}

#[test]
fn large_inputs_read_into_the_compact_form_get_the_same_errors() {
    // 200,000 small objects (1.6 MB: over the size from which the CLI reads into the
    // compact form), with repeated keys (the last wins) and an escaped key.
    let dir = scratch("compact_form");
    file(
        &dir,
        "s.json",
        r#"{"items": {"type": "object", "properties": {"a": {"type": "integer"}}}}"#,
    );
    let items: Vec<&str> = (0..200_000)
        .map(|i| match i {
            3 => r#"{"a":"x","a":1}"#,
            5 => r#"{"\u0061":"y"}"#,
            9 => r#"{"a":1,"a":"x"}"#,
            _ if i % 50_000 == 7 => r#"{"a":"x"}"#,
            _ => r#"{"a":1}"#,
        })
        .collect();
    let text = format!("[{}]", items.join(","));
    assert!(text.len() > 1 << 20);
    file(&dir, "big.json", &text);
    let run = schemac(&dir, &["validate", "s.json", "big.json"]).expect(1);
    let error = |at: &str| {
        format!("  /{at}/a: expected integer, found string (at /items/properties/a/type)\n")
    };
    let expected: String = ["5", "7", "9", "50007", "100007", "150007"]
        .iter()
        .map(|at| error(at))
        .collect();
    assert_eq!(run.stdout, format!("big.json: invalid\n{expected}"));
    // Annotations too (the `evaluate` path): the basic output lists the same errors.
    let run = schemac(
        &dir,
        &["validate", "--output", "basic", "s.json", "big.json"],
    )
    .expect(1);
    let output = json_lines(&run.stdout);
    let errors = output[0]["errors"].as_array().expect("errors");
    let locations: Vec<&str> = errors
        .iter()
        .filter_map(|e| e["instanceLocation"].as_str())
        .collect();
    assert_eq!(
        locations,
        ["/5/a", "/7/a", "/9/a", "/50007/a", "/100007/a", "/150007/a"]
    );
}

#[test]
fn inputs_over_max_input_size_are_exit_2_naming_the_limit() {
    let dir = scratch("max_input_size");
    file(&dir, "s.json", r#"{"type": "array"}"#);
    file(&dir, "big.json", &big_array(1000)); // ~8 KB
    file(&dir, "small.json", "[1]");
    let limit = ["--max-input-size", "4000"];
    let named = |run: &Run, what: &str| {
        assert!(
            run.stderr.contains(what)
                && run.stderr.contains("4000 bytes")
                && run.stderr.contains("--max-input-size"),
            "{}",
            run.stderr
        );
    };
    // An instance, and standard input.
    let run = schemac(
        &dir,
        &[&limit[..], &["validate", "s.json", "big.json"]].concat(),
    )
    .expect(2);
    named(&run, "big.json");
    let run = schemac_in(
        &dir,
        &[&limit[..], &["validate", "s.json", "-"]].concat(),
        &big_array(1000),
    )
    .expect(2);
    named(&run, "-:");
    // The other instances still report.
    let run = schemac(
        &dir,
        &[
            &limit[..],
            &["validate", "s.json", "big.json", "small.json"],
        ]
        .concat(),
    )
    .expect(2);
    assert_eq!(run.stdout, "small.json: valid\n");
    // A schema, for check, validate and generate.
    file(
        &dir,
        "big-schema.json",
        &format!(r#"{{"enum": {}}}"#, big_array(1000)),
    );
    let run = schemac(&dir, &[&limit[..], &["check", "big-schema.json"]].concat()).expect(2);
    named(&run, "big-schema.json");
    let run = schemac(
        &dir,
        &[&limit[..], &["validate", "big-schema.json", "small.json"]].concat(),
    )
    .expect(2);
    named(&run, "big-schema.json");
    let run = schemac(
        &dir,
        &[&limit[..], &["generate", "big-schema.json", "-o", "out.rs"]].concat(),
    )
    .expect(2);
    named(&run, "big-schema.json");
    assert!(!dir.join("out.rs").exists());
    // A --document.
    let run = schemac(
        &dir,
        &[
            &limit[..],
            &[
                "check",
                "--document",
                "https://a.example/big.json=big-schema.json",
                "s.json",
            ],
        ]
        .concat(),
    )
    .expect(2);
    named(&run, "big-schema.json");
    // Under the default limit all of these read.
    schemac(&dir, &["validate", "big-schema.json", "small.json"]).expect(1);
    schemac(&dir, &["validate", "s.json", "big.json"]).expect(0);
}

#[test]
fn reading_stops_at_the_first_byte_that_cannot_start_json() {
    let dir = scratch("not_json_start");
    file(&dir, "s.json", "{}");
    // /dev/zero ends at its first byte, whatever the limit.
    for args in [
        &["validate", "s.json", "/dev/zero"][..],
        &[
            "--max-input-size",
            "1000000000000",
            "validate",
            "s.json",
            "/dev/zero",
        ][..],
        &["validate", "--jsonl", "s.json", "/dev/zero"][..],
        &["check", "/dev/zero"][..],
        &[
            "check",
            "--document",
            "https://a.example/z.json=/dev/zero",
            "s.json",
        ][..],
    ] {
        let run = schemac(&dir, args).expect(2);
        assert!(
            run.stderr.contains("/dev/zero") && run.stderr.contains("byte 0x00"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // A binary file: one message, at the first byte.
    file_bytes(&dir, "bin.json", b"  \x7fELF\x00\x00");
    let run = schemac(&dir, &["validate", "s.json", "bin.json"]).expect(2);
    assert!(
        run.stderr.contains("byte 0x7f at offset 2"),
        "{}",
        run.stderr
    );
}

#[test]
fn jsonl_streams_lines_under_the_limit_and_stops_at_a_bad_one() {
    let dir = scratch("jsonl_stream");
    file(&dir, "s.json", r#"{"type": "array"}"#);
    // The whole file is far over the limit; every line is under it.
    let line = big_array(100); // ~800 bytes
    let many: String = (0..2000).map(|_| format!("{line}\n")).collect();
    file(&dir, "many.jsonl", &many);
    let run = schemac(
        &dir,
        &[
            "--max-input-size",
            "1000",
            "validate",
            "--jsonl",
            "s.json",
            "many.jsonl",
        ],
    )
    .expect(0);
    assert_eq!(run.stdout.lines().count(), 2000);
    assert!(run.stdout.ends_with("many.jsonl:2000: valid\n"));
    // A line over the limit: the lines before it report, reading stops there.
    let text = format!("[1]\n\n{}\n[2]\n", big_array(1000));
    file(&dir, "long.jsonl", &text);
    let run = schemac(
        &dir,
        &[
            "--max-input-size",
            "1000",
            "validate",
            "--jsonl",
            "s.json",
            "long.jsonl",
        ],
    )
    .expect(2);
    assert_eq!(run.stdout, "long.jsonl:1: valid\n");
    assert!(
        run.stderr
            .contains("long.jsonl:3: line longer than the input size limit of 1000 bytes"),
        "{}",
        run.stderr
    );
    // A line that cannot start JSON stops reading; a line that is merely broken JSON is
    // reported and skipped.
    file_bytes(&dir, "mixed.jsonl", b"[1]\n[oops\n[2]\n\x00\x00\n[3]\n");
    let run = schemac(&dir, &["validate", "--jsonl", "s.json", "mixed.jsonl"]).expect(2);
    assert_eq!(run.stdout, "mixed.jsonl:1: valid\nmixed.jsonl:3: valid\n");
    assert!(
        run.stderr.contains("mixed.jsonl:2: not JSON"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("mixed.jsonl:4: not JSON: byte 0x00"),
        "{}",
        run.stderr
    );
}

/// The shared data folder (beside the workspace, or `SCHEMAC_SHARED`).
fn shared_dir() -> PathBuf {
    match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

#[test]
fn max_errors_bounds_the_errors_listed_and_counts_the_rest() {
    let dir = scratch("max_errors");
    file(
        &dir,
        "rows.json",
        r#"{"items": {"required": ["a", "b", "c", "d", "e"]}}"#,
    );
    let rows = format!("[{}]", vec!["{}"; 1000].join(","));
    file(&dir, "i.json", &rows);
    // Text: the default bound of 100, then one line for the rest.
    let run = schemac(&dir, &["validate", "rows.json", "i.json"]).expect(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 100 + 1, "{}", run.stdout);
    assert_eq!(lines[0], "i.json: invalid");
    assert!(
        lines[1].starts_with("  /0: required property \"a\""),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[101],
        "  ... and 4900 more error(s), not listed (--max-errors)"
    );
    // JSON: `--max-errors 3`, and the output is valid against the 2020-12 output schema.
    let run = schemac(
        &dir,
        &[
            "validate",
            "--max-errors",
            "3",
            "--output",
            "json",
            "rows.json",
            "i.json",
        ],
    )
    .expect(1);
    let unit: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(unit["errors"].as_array().map(Vec::len), Some(3));
    assert_eq!(unit["errorsOmitted"], 4997);
    assert_eq!(unit["errors"][2]["instanceLocation"], "/0");
    file(&dir, "out.json", &run.stdout);
    let output_schema =
        shared_dir().join("json-schema-test-suite/output-tests/draft2020-12/output-schema.json");
    let run = schemac(
        &dir,
        &["validate", output_schema.to_str().unwrap(), "out.json"],
    );
    assert_eq!(run.stdout, "out.json: valid\n", "{}", run.stderr);
    // `--max-errors 0`: none listed, still invalid.
    let run = schemac(
        &dir,
        &["validate", "--max-errors", "0", "rows.json", "i.json"],
    )
    .expect(1);
    assert_eq!(
        run.stdout,
        "i.json: invalid\n  ... and 5000 more error(s), not listed (--max-errors)\n"
    );
}

#[test]
fn text_errors_say_what_to_change() {
    let dir = scratch("what_to_change");
    file(
        &dir,
        "s.json",
        r#"{"type": "object", "additionalProperties": false, "required": ["method"],
            "properties": {"method": {"enum": ["create", "update", "a\u202eb"]},
                           "path": {"type": "string", "minLength": 1},
                           "version": {"const": 2}}}"#,
    );
    file(
        &dir,
        "i.json",
        r#"{"method": "delete", "path": "", "version": "two", "encoding": "utf8"}"#,
    );
    let run = schemac(&dir, &["validate", "s.json", "i.json"]).expect(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    for expected in [
        // The schema's strings are escaped (a bidirectional control as `\u202e`).
        r#"  /method: value must be one of "create", "update", "a\u202eb" (at /properties/method/enum)"#,
        "  /path: string must have at least 1 character (at /properties/path/minLength)",
        "  /version: value must be 2 (at /properties/version/const)",
        r#"  /encoding: property `encoding` is not allowed (allowed: "method", "path", "version") (at /additionalProperties)"#,
    ] {
        assert!(lines.contains(&expected), "{expected}\n{}", run.stdout);
    }
    // No instance value is quoted.
    assert!(
        !run.stdout.contains("delete")
            && !run.stdout.contains("utf8")
            && !run.stdout.contains("two"),
        "{}",
        run.stdout
    );
}

/// The `--document` option that registers the 2020-12 output schema from the suite.
fn output_schema_document() -> String {
    let output_schema =
        shared_dir().join("json-schema-test-suite/output-tests/draft2020-12/output-schema.json");
    format!(
        "https://json-schema.org/draft/2020-12/output/schema={}",
        output_schema.display()
    )
}

/// A tool's input whose labels are strings or objects with a `confidence`.
const LABELS: &str = r#"{"type": "object", "properties": {"labels": {"type": "array",
    "items": {"oneOf": [{"type": "string"},
        {"type": "object", "properties": {"confidence": {"enum": ["LOW", "MEDIUM", "HIGH"]}},
         "required": ["confidence"]}]}}}}"#;

#[test]
fn a_failed_one_of_says_why_in_text_and_in_nested_units() {
    let dir = scratch("one_of_because");
    file(&dir, "s.json", LABELS);
    file(
        &dir,
        "i.json",
        r#"{"labels": ["bug", {"confidence": "VERY"}]}"#,
    );
    let run = schemac(&dir, &["validate", "s.json", "i.json"]).expect(1);
    assert_eq!(
        run.stdout,
        concat!(
            "i.json: invalid\n",
            "  /labels/1: value matches none of the `oneOf` subschemas (at /properties/labels/items/oneOf)\n",
            "    because /labels/1/confidence: value must be one of \"LOW\", \"MEDIUM\", \"HIGH\" ",
            "(at /properties/labels/items/oneOf/1/properties/confidence/enum)\n",
        )
    );
    assert!(!run.stdout.contains("VERY"), "{}", run.stdout);
    let run = schemac(
        &dir,
        &["validate", "--output", "detailed", "s.json", "i.json"],
    )
    .expect(1);
    let unit = &json_lines(&run.stdout)[0];
    let one_of = &unit["errors"][0];
    assert_eq!(one_of["keywordLocation"], "/properties/labels/items/oneOf");
    assert_eq!(
        one_of["errors"][0]["keywordLocation"],
        "/properties/labels/items/oneOf/1/properties/confidence/enum",
        "{unit}"
    );
    // Every format stays valid against its definition in the output schema.
    let document = output_schema_document();
    for format in ["basic", "detailed", "verbose"] {
        let run = schemac(&dir, &["validate", "--output", format, "s.json", "i.json"]).expect(1);
        file(
            &dir,
            "defs.json",
            &format!(
                r##"{{"$ref": "https://json-schema.org/draft/2020-12/output/schema#/$defs/{format}"}}"##
            ),
        );
        file(&dir, "out.json", &run.stdout);
        let check = schemac(
            &dir,
            &["validate", "--document", &document, "defs.json", "out.json"],
        );
        assert_eq!(
            check.stdout, "out.json: valid\n",
            "{format}: {}",
            run.stdout
        );
    }
}

#[test]
fn text_output_escapes_locations_and_paths_that_could_forge_lines() {
    let dir = scratch("forged_output");
    file(&dir, "s.json", r#"{"additionalProperties": false}"#);
    file(
        &dir,
        "i.json",
        r#"{"x\nevil.json: valid\n ": 1, "\u001b[2J\r\u0000": 2}"#,
    );
    let run = schemac(&dir, &["validate", "s.json", "i.json"]).expect(1);
    assert!(
        run.stdout
            .lines()
            .all(|l| l == "i.json: invalid" || l.starts_with("  ")),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains('\r') && !run.stdout.contains('\0')
    );
    // The message names the property, escaped as its location is.
    assert!(
        run.stdout.contains(
            r#"  "/x\nevil.json: valid\n ": property `"x\nevil.json: valid\n "` is not allowed"#
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains(r#"property `"\u001b[2J\r\u0000"` is not allowed"#),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(r#"  "/\u001b[2J\r\u0000": "#),
        "{}",
        run.stdout
    );
    // A file name with a newline, under --jsonl too.
    let name = "a\nb.json: valid\n";
    file(&dir, name, "[1]");
    let run = schemac(&dir, &["validate", "s.json", name]).expect(0);
    assert_eq!(run.stdout, "\"a\\nb.json: valid\\n\": valid\n");
    let run = schemac(&dir, &["validate", "--jsonl", "s.json", name]).expect(0);
    assert_eq!(run.stdout, "\"a\\nb.json: valid\\n:1\": valid\n");
    // JSON output keeps the raw strings (JSON escapes them).
    let run = schemac(&dir, &["validate", "--output", "json", "s.json", "i.json"]).expect(1);
    let unit: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let locations: Vec<&str> = unit["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["instanceLocation"].as_str().unwrap())
        .collect();
    assert!(
        locations.contains(&"/x\nevil.json: valid\n "),
        "{locations:?}"
    );
}

/// A schema with annotations and nested applicators, its instances (valid, invalid in two
/// places), for the output formats.
const ANNOTATED: &str = r##"{
    "title": "search",
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "what to find", "readOnly": true},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}}
    },
    "$defs": {"tag": {"type": "string", "maxLength": 3, "x-note": "short"}}
}"##;

#[test]
fn every_output_format_is_valid_against_its_own_output_schema_definition() {
    let dir = scratch("output_formats");
    file(&dir, "s.json", ANNOTATED);
    file(&dir, "ok.json", r#"{"query": "rust", "tags": ["a"]}"#);
    file(
        &dir,
        "bad.json",
        r#"{"query": 1, "tags": ["a", "zzzz", 2]}"#,
    );
    let document = output_schema_document();
    for format in ["flag", "basic", "json", "detailed", "verbose"] {
        let run = schemac(
            &dir,
            &[
                "validate", "--output", format, "s.json", "ok.json", "bad.json",
            ],
        )
        .expect(1);
        let units = json_lines(&run.stdout);
        assert_eq!(units.len(), 2, "{format}: {}", run.stdout);
        assert_eq!(units[0]["valid"], true, "{format}");
        assert_eq!(units[1]["valid"], false, "{format}");
        // Messages never quote instance values.
        assert!(!run.stdout.contains("zzzz"), "{format}: {}", run.stdout);
        let defs = if format == "json" { "basic" } else { format };
        file(
            &dir,
            "defs.json",
            &format!(
                r##"{{"$ref": "https://json-schema.org/draft/2020-12/output/schema#/$defs/{defs}"}}"##
            ),
        );
        file(&dir, "out.jsonl", &run.stdout);
        let check = schemac(
            &dir,
            &[
                "validate",
                "--document",
                &document,
                "--jsonl",
                "defs.json",
                "out.jsonl",
            ],
        );
        assert_eq!(
            check.stdout, "out.jsonl:1: valid\nout.jsonl:2: valid\n",
            "{format}: {}{}",
            run.stdout, check.stderr
        );
        match format {
            "flag" => assert_eq!(
                units[0],
                serde_json::json!({"valid": true, "instance": "ok.json"})
            ),
            "basic" | "json" => {
                let annotations = units[0]["annotations"].as_array().unwrap();
                let at = |keyword: &str| {
                    annotations
                        .iter()
                        .find(|a| a["keywordLocation"].as_str().unwrap().ends_with(keyword))
                        .unwrap_or_else(|| panic!("no {keyword} in {annotations:?}"))
                };
                assert_eq!(at("/title")["annotation"], "search");
                assert_eq!(at("/readOnly")["instanceLocation"], "/query");
                assert_eq!(
                    at("/x-note")["keywordLocation"],
                    "/properties/tags/items/$ref/x-note"
                );
                assert!(at("/x-note")["absoluteKeywordLocation"]
                    .as_str()
                    .unwrap()
                    .ends_with("#/$defs/tag/x-note"));
                assert_eq!(units[1]["errors"].as_array().map(Vec::len), Some(3));
                assert!(units[1].get("annotations").is_none());
            }
            "detailed" => {
                // `/properties/query` has one error: collapsed into it.
                let errors = units[1]["errors"].as_array().unwrap();
                assert_eq!(errors[0]["keywordLocation"], "/properties/query/type");
                assert_eq!(errors[1]["keywordLocation"], "/properties/tags");
                assert_eq!(errors[1]["errors"].as_array().map(Vec::len), Some(2));
            }
            _ => {
                let tags = &units[1]["errors"][1];
                assert_eq!(tags["keywordLocation"], "/properties/tags");
                // Every subschema evaluated is listed: the valid item too.
                let items = tags["errors"].as_array().unwrap();
                let valid = &items[0];
                assert_eq!(valid["instanceLocation"], "/tags/0");
                assert_eq!(valid["valid"], true);
                let item = &items[1];
                assert_eq!(item["keywordLocation"], "/properties/tags/items");
                assert_eq!(item["instanceLocation"], "/tags/1");
                assert_eq!(
                    item["errors"][0]["keywordLocation"],
                    "/properties/tags/items/$ref"
                );
            }
        }
    }
}

/// `[` × depth, a leaf, `]` × depth.
fn nested(depth: usize, leaf: &str) -> String {
    format!("{}{leaf}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn deep_instances_parse_and_get_verdicts() {
    let dir = scratch("deep_instances");
    file(&dir, "any.json", r#"{"type": "array"}"#);
    file(&dir, "d200.json", &nested(200, "1"));
    file(&dir, "d2048.json", &nested(2048, "1"));
    file(&dir, "d2049.json", &nested(2049, "1"));
    let deep_jsonl = format!("{}\n{}\n", nested(300, ""), nested(2000, "\"x\""));
    file(&dir, "deep.jsonl", &deep_jsonl);
    // Past serde_json's default recursion limit of 128: still JSON.
    schemac(&dir, &["validate", "any.json", "d200.json", "d2048.json"]).expect(0);
    schemac(&dir, &["validate", "--jsonl", "any.json", "deep.jsonl"]).expect(0);
    // A deep schema reads too (and is refused by the compiler's nesting limit, not the
    // parser).
    file(
        &dir,
        "deep-schema.json",
        &format!("{}{{}}{}", r#"{"items":"#.repeat(2000), "}".repeat(2000)),
    );
    let run = schemac(&dir, &["check", "deep-schema.json"]).expect(2);
    assert!(run.stderr.contains("SchemaTooDeep"), "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("SchemaTooDeep").count(),
        1,
        "{}",
        run.stderr
    );
    // Every level the parser reads gets a verdict from a recursive schema.
    file(
        &dir,
        "arrays.json",
        r##"{"type": "array", "items": {"$ref": "#"}}"##,
    );
    file(&dir, "d2048-arrays.json", &nested(2048, ""));
    schemac(&dir, &["validate", "arrays.json", "d2048-arrays.json"]).expect(0);
    schemac(&dir, &["validate", "arrays.json", "d2048.json"]).expect(1);
    // Beyond the parser's nesting bound: an error naming it.
    let run = schemac(&dir, &["validate", "any.json", "d2049.json"]).expect(2);
    assert!(
        run.stderr
            .contains("d2049.json: not JSON: arrays and objects nest deeper than 2048 levels"),
        "{}",
        run.stderr
    );
}

#[test]
fn deep_schemas_get_verdicts_against_the_meta_schema() {
    // Issue 9: real schemas nested about 115 deep were `incomplete` against the 2020-12
    // meta-schema; here 300 levels of `properties` (600 levels of instance).
    let dir = scratch("deep_schemas");
    let meta = shared_dir().join("metaschemas/draft2020-12");
    let mut args = vec!["validate".to_string()];
    for name in [
        "schema",
        "meta/core",
        "meta/applicator",
        "meta/unevaluated",
        "meta/validation",
        "meta/meta-data",
        "meta/format-annotation",
        "meta/content",
    ] {
        let uri = format!("https://json-schema.org/draft/2020-12/{name}");
        args.push("--document".into());
        args.push(format!(
            "{uri}={}",
            meta.join(format!("{name}.json")).display()
        ));
    }
    file(
        &dir,
        "meta.json",
        r#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#,
    );
    let deep = |leaf: &str| {
        let open = r#"{"properties": {"a": "#.repeat(300);
        format!("{open}{leaf}{}", "}}".repeat(300))
    };
    file(&dir, "good.json", &deep(r#"{"type": "string"}"#));
    file(&dir, "bad.json", &deep(r#"{"type": 5}"#));
    args.extend(["meta.json", "good.json", "bad.json"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = schemac(&dir, &args).expect(1);
    assert!(run.stdout.contains("good.json: valid"), "{}", run.stdout);
    assert!(run.stdout.contains("bad.json: invalid"), "{}", run.stdout);
}

#[test]
fn messages_on_stderr_escape_file_names_and_schema_names() {
    let dir = scratch("forged_stderr");
    let name = "x\ny.json: valid\n";
    file(&dir, name, "{");
    file(&dir, "s.json", "{}");
    let run = schemac(&dir, &["validate", "s.json", name]).expect(2);
    assert!(
        run.stderr
            .starts_with("schemac: \"x\\ny.json: valid\\n\": not JSON"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    // A compile error located under a property name with a newline.
    file(
        &dir,
        "bad.json",
        r#"{"properties": {"a\nb": {"required": "x"}}}"#,
    );
    let run = schemac(&dir, &["check", "bad.json"]).expect(2);
    assert!(
        run.stderr
            .contains(r#""bad.json#/properties/a\nb/required" (required): InvalidKeyword"#),
        "{}",
        run.stderr
    );
}

#[test]
fn uris_from_a_schema_cannot_forge_lines_on_stdout_or_stderr() {
    let dir = scratch("forged_uris");
    // The URI parser keeps LF, CR and U+2028 in a resolved URI.
    file(
        &dir,
        "s.json",
        r#"{"properties": {"w": {"$ref": "https://x.example/a\nevil.json: valid\r\u2028b"}}}"#,
    );
    file(&dir, "i.json", r#"{"w": 1}"#);
    let run = schemac(&dir, &["validate", "--refs", "warn", "s.json", "i.json"]).expect(3);
    assert_eq!(
        run.stdout,
        "i.json: incomplete (reached unresolved reference \
         \"https://x.example/a\\nevil.json: valid\\r\\u2028b\")\n"
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(!run.stderr.contains(['\r', '\u{2028}']), "{}", run.stderr);
    let run = schemac(&dir, &["check", "s.json"]).expect(2);
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(r#"resolves to "https://x.example/a\nevil.json: valid\r\u2028b""#),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(['\r', '\u{2028}']), "{}", run.stderr);
}

// ---- bowtie --------------------------------------------------------------------------

/// One line of JSON text.
fn line(value: Value) -> String {
    format!("{value}\n")
}

#[test]
fn bowtie_runs_suite_cases_over_a_pipe() {
    let dir = scratch("bowtie");
    let suite = shared_dir().join("json-schema-test-suite/tests");
    let mut input = line(serde_json::json!({"cmd": "start", "version": 1}));
    // (seq, expected validity of each test)
    let mut expected: Vec<(u64, Vec<bool>)> = Vec::new();
    for (dialect, file) in [
        (
            "https://json-schema.org/draft/2020-12/schema",
            "draft2020-12/type.json",
        ),
        (
            "http://json-schema.org/draft-07/schema#",
            "draft7/items.json",
        ),
        (
            "http://json-schema.org/draft-04/schema#",
            "draft4/required.json",
        ),
    ] {
        input.push_str(&line(
            serde_json::json!({"cmd": "dialect", "dialect": dialect}),
        ));
        let text = std::fs::read_to_string(suite.join(file)).unwrap();
        let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
        for group in groups {
            let seq = expected.len() as u64;
            let tests: Vec<Value> = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(
                    |t| serde_json::json!({"description": t["description"], "instance": t["data"]}),
                )
                .collect();
            expected.push((
                seq,
                group["tests"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t["valid"].as_bool().unwrap())
                    .collect(),
            ));
            let case = serde_json::json!({
                "description": group["description"], "schema": group["schema"], "tests": tests
            });
            input.push_str(&line(
                serde_json::json!({"cmd": "run", "seq": seq, "case": case}),
            ));
        }
    }
    input.push_str(&line(serde_json::json!({"cmd": "stop"})));
    input.push_str("not read after stop\n");
    let run = schemac_in(&dir, &["bowtie"], &input).expect(0);
    let responses = json_lines(&run.stdout);
    // start, then per file a dialect response and its runs.
    assert_eq!(responses.len(), 1 + 3 + expected.len(), "{}", run.stdout);
    let start = &responses[0];
    assert_eq!(start["version"], 1);
    assert_eq!(start["implementation"]["name"], "schemac");
    let dialects = start["implementation"]["dialects"].as_array().unwrap();
    assert!(dialects.contains(&serde_json::json!(
        "http://json-schema.org/draft-04/schema#"
    )));
    let runs: Vec<&Value> = responses[1..]
        .iter()
        .filter(|r| r.get("seq").is_some())
        .collect();
    assert!(responses[1..]
        .iter()
        .filter(|r| r.get("seq").is_none())
        .all(|r| r == &serde_json::json!({"ok": true})));
    for ((seq, valid), response) in expected.iter().zip(runs) {
        assert_eq!(response["seq"], *seq, "{response}");
        let got: Vec<bool> = response["results"]
            .as_array()
            .unwrap_or_else(|| panic!("no results: {response}"))
            .iter()
            .map(|r| r["valid"].as_bool().unwrap())
            .collect();
        assert_eq!(&got, valid, "case {seq}: {response}");
    }
}

#[test]
fn bowtie_answers_annotation_runs_with_the_annotations() {
    let dir = scratch("bowtie_annotations");
    let case = serde_json::json!({
        "schema": {"properties": {"foo": {"title": "Foo"}}, "patternProperties": {"^a": {"title": "Bar"}}},
        "tests": [{"instance": {"foo": 1, "apple": 2}}, {"instance": 5}]
    });
    let invalid =
        serde_json::json!({"schema": {"title": "T", "type": "string"}, "tests": [{"instance": 1}]});
    let mut input = line(serde_json::json!({"cmd": "start", "version": 1}));
    for (seq, case, output) in [
        (0, &case, Some("annotations")),
        (1, &case, None),
        (2, &invalid, Some("annotations")),
        (3, &case, Some("verbose")),
    ] {
        let mut run = serde_json::json!({"cmd": "run", "seq": seq, "case": case});
        if let Some(output) = output {
            run["output"] = output.into();
        }
        input.push_str(&line(run));
    }
    input.push_str(&line(serde_json::json!({"cmd": "stop"})));
    let run = schemac_in(&dir, &["bowtie"], &input).expect(0);
    let responses = json_lines(&run.stdout);
    assert_eq!(responses.len(), 5, "{}", run.stdout);
    let results = responses[1]["results"].as_array().expect("results");
    assert_eq!(results[0]["valid"], true);
    let mut listed: Vec<(String, String, Value)> = results[0]["annotations"]
        .as_array()
        .expect("annotations")
        .iter()
        .filter(|a| a["keyword"] == "title")
        .map(|a| {
            let at = |k: &str| a[k].as_str().unwrap_or_default().to_string();
            (
                at("keywordLocation"),
                at("instanceLocation"),
                a["annotation"].clone(),
            )
        })
        .collect();
    listed.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(
        listed,
        [
            (
                "#/patternProperties/%5Ea/title".into(),
                "/apple".into(),
                serde_json::json!("Bar")
            ),
            (
                "#/properties/foo/title".into(),
                "/foo".into(),
                serde_json::json!("Foo")
            ),
        ],
        "{}",
        run.stdout
    );
    // Applicators annotate too (2020-12): `properties` names what it applied to.
    let all = results[0]["annotations"].as_array().expect("annotations");
    assert!(
        all.iter().any(|a| a["keyword"] == "properties"
            && a["annotation"] == serde_json::json!(["foo"])
            && a["keywordLocation"] == "#/properties"),
        "{}",
        run.stdout
    );
    // Valid, no title applies: none listed.
    assert_eq!(results[1]["valid"], true);
    let titles = results[1]["annotations"].as_array().expect("annotations");
    assert!(
        titles.iter().all(|a| a["keyword"] != "title"),
        "{}",
        run.stdout
    );
    // Without `output`, the flag alone.
    assert_eq!(
        responses[2]["results"][0],
        serde_json::json!({"valid": true})
    );
    assert_eq!(
        responses[3]["results"][0],
        serde_json::json!({"valid": false})
    );
    assert_eq!(responses[4]["errored"], true, "{}", run.stdout);
}

#[test]
fn bowtie_reports_what_it_cannot_run_and_stops_on_what_is_not_a_command() {
    let dir = scratch("bowtie_errors");
    let input = [
        serde_json::json!({"cmd": "start", "version": 1}),
        serde_json::json!({"cmd": "dialect", "dialect": "https://example.com/other"}),
        serde_json::json!({"cmd": "run", "seq": "a", "case": {
            "description": "bad", "schema": {"minimum": "x"}, "tests": [{"instance": 1}]}}),
        serde_json::json!({"cmd": "run", "seq": 7, "case": {
            "description": "registry", "schema": {"$ref": "https://x.example/s.json"},
            "registry": {"https://x.example/s.json": {"type": "string"}},
            "tests": [{"instance": "a"}, {"instance": 1}]}}),
        serde_json::json!({"cmd": "dance"}),
    ]
    .map(line)
    .concat();
    let run = schemac_in(&dir, &["bowtie"], &input).expect(2);
    let responses = json_lines(&run.stdout);
    assert_eq!(responses.len(), 4, "{}", run.stdout);
    assert_eq!(responses[1], serde_json::json!({"ok": false}));
    assert_eq!(responses[2]["seq"], "a");
    assert_eq!(responses[2]["errored"], true);
    assert!(responses[2]["context"]["message"]
        .as_str()
        .unwrap()
        .contains("minimum"));
    assert_eq!(
        responses[3],
        serde_json::json!({"seq": 7, "results": [{"valid": true}, {"valid": false}]})
    );
    assert!(run.stderr.contains("not a command"), "{}", run.stderr);
}
