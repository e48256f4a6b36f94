//! The Builder end to end, on schemas written to a scratch folder.

use schemac_build::{Builder, Error, InputError};
use std::path::{Path, PathBuf};

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("builder-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const SEARCH: &str =
    r#"{"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}"#;

#[test]
fn schemas_and_dirs_become_modules_deterministically() {
    let dir = scratch("modules");
    let one = write(&dir, "get_weather.json", SEARCH);
    write(&dir, "tools/aws-cdk.json", SEARCH);
    write(&dir, "tools/searchDocs.json", SEARCH);
    write(&dir, "tools/notes.txt", "not a schema");
    let generate = || {
        Builder::new()
            .schema("get_weather", &one)
            .schema_dir(dir.join("tools"))
            .generate()
            .expect("generates")
    };
    let generated = generate();
    for module in [
        "pub mod get_weather {",
        "pub mod aws_cdk {",
        "pub mod search_docs {",
    ] {
        assert!(
            generated.code.contains(module),
            "{module} in {}",
            generated.code
        );
    }
    assert_eq!(generated.code.matches("pub mod ").count(), 3);
    assert!(generated
        .files_read
        .iter()
        .any(|p| p.ends_with("aws-cdk.json")));
    assert_eq!(generate().code, generated.code);
}

#[test]
fn colliding_module_names_are_an_error() {
    let dir = scratch("collision");
    write(&dir, "tools/a-b.json", SEARCH);
    write(&dir, "tools/a_b.json", SEARCH);
    let err = Builder::new()
        .schema_dir(dir.join("tools"))
        .generate()
        .unwrap_err();
    assert!(
        matches!(&err, Error::Inputs(inputs) if matches!(&inputs[..],
            [InputError::Collision { module, first, second }]
            if module == "a_b" && first.file.ends_with("a-b.json")
                && second.file.ends_with("a_b.json"))),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("a-b.json and ") && text.contains("would both generate module `a_b`"),
        "{text}"
    );
    assert!(
        text.ends_with("add it with `.schema(\"other_name\", path)`"),
        "{text}"
    );

    // A tool's module against a schema's: the collision names the tool.
    let tools = write(
        &dir,
        "tools.json",
        r#"{"tools": [{"name": "a-b", "inputSchema": {"type": "object"}}]}"#,
    );
    let err = Builder::new()
        .schema("a_b_input", dir.join("tools/a_b.json"))
        .mcp_tools(&tools)
        .generate()
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("tools.json [a-b inputSchema] would both generate module `a_b_input`"),
        "{err}"
    );

    let err = Builder::new()
        .schema("", dir.join("tools/a_b.json"))
        .generate()
        .unwrap_err();
    assert!(
        matches!(&err, Error::Inputs(inputs) if matches!(&inputs[..],
            [InputError::NoModuleName { name, .. }] if name.is_empty())),
        "{err}"
    );
}

#[test]
fn compile_errors_name_file_pointer_and_keyword_all_together() {
    let dir = scratch("errors");
    let a = write(
        &dir,
        "a.json",
        r#"{"properties": {"x": {"minLength": "3"}}}"#,
    );
    let b = write(&dir, "b.json", r#"{"required": "query"}"#);
    let err = Builder::new()
        .schema("a", &a)
        .schema("b", &b)
        .generate()
        .unwrap_err();
    let Error::Inputs(inputs) = &err else {
        panic!("expected compile errors, got {err}");
    };
    assert!(
        matches!(&inputs[..], [InputError::Compile(a), InputError::Compile(b)] if a.len() == 1 && b.len() == 1),
        "{err}"
    );
    assert!(err.to_string().starts_with("2 error(s):\n  "), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("a.json#/properties/x/minLength (minLength)"),
        "{text}"
    );
    assert!(text.contains("b.json#/required (required)"), "{text}");
    // `fn main() -> Result<(), Error>` in build.rs prints Debug: the same readable text.
    assert_eq!(format!("{err:?}"), text);
}

#[test]
fn bad_json_names_the_line() {
    let dir = scratch("json");
    let a = write(&dir, "a.json", "{\n  \"type\": \n}");
    let err = Builder::new().schema("a", &a).generate().unwrap_err();
    assert!(
        matches!(&err, Error::Inputs(inputs) if matches!(inputs[..], [InputError::Json { line: 3, .. }])),
        "{err}"
    );
}

#[test]
fn misspelled_keywords_warn_unless_strict() {
    let dir = scratch("typos");
    let a = write(&dir, "a.json", r#"{"type": "object", "requried": ["x"]}"#);
    let generated = Builder::new()
        .schema("a", &a)
        .generate()
        .expect("generates");
    assert!(
        generated
            .warnings
            .iter()
            .any(|w| w.contains("`requried`") && w.contains("`required`")),
        "{:?}",
        generated.warnings
    );
    assert!(Builder::new()
        .schema("a", &a)
        .strict(true)
        .generate()
        .is_err());
}

#[test]
fn custom_formats_call_the_named_function() {
    let dir = scratch("formats");
    let a = write(
        &dir,
        "a.json",
        r#"{"type": "string", "format": "currency"}"#,
    );
    let generated = Builder::new()
        .schema("price", &a)
        .assert_format(true)
        .format("currency", "crate::formats::currency")
        .generate()
        .expect("generates");
    assert!(
        generated.code.contains("crate::formats::currency(text)"),
        "{}",
        generated.code
    );
    let err = Builder::new()
        .schema("price", &a)
        .assert_format(true)
        .format("currency", "not a path!")
        .generate()
        .unwrap_err();
    assert!(matches!(err, Error::Emit(_)), "{err}");
}

#[test]
fn mcp_tools_become_input_and_output_modules() {
    let dir = scratch("mcp");
    let tools = write(
        &dir,
        "tools.json",
        r#"{"tools": [
            {"name": "getWeather", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}},
            {"name": "ping", "inputSchema": {"type": "object"}}
        ]}"#,
    );
    let generated = Builder::new()
        .mcp_tools(&tools)
        .generate()
        .expect("generates");
    for module in [
        "pub mod get_weather_input {",
        "pub mod get_weather_output {",
        "pub mod ping_input {",
    ] {
        assert!(generated.code.contains(module), "{module}");
    }
    let bad = write(
        &dir,
        "bad.json",
        r#"{"tools": [{"name": "x", "inputSchema": {"type": "array"}}]}"#,
    );
    let err = Builder::new().mcp_tools(&bad).generate().unwrap_err();
    assert!(err.to_string().contains("inputSchema"), "{err}");
}

#[test]
fn every_build_error_comes_at_once() {
    let dir = scratch("all-errors");
    let tools = write(
        &dir,
        "tools.json",
        r#"{"tools": [
            {"name": "not-an-object", "inputSchema": {"type": "array"}},
            {"name": "ok", "inputSchema": {"type": "object", "required": "x"},
             "outputSchema": {"minLength": -1}},
            {"name": "ok", "inputSchema": {"type": "object"}}
        ]}"#,
    );
    let broken = write(&dir, "broken.json", r#"{"maxItems": "3"}"#);
    write(&dir, "tools/a-b.json", SEARCH);
    write(&dir, "tools/a_b.json", SEARCH);
    let err = Builder::new()
        .document("https://example.com/missing.json", dir.join("missing.json"))
        .schema("broken", &broken)
        .schema_dir(dir.join("tools"))
        .mcp_tools(&tools)
        .generate()
        .unwrap_err();
    let text = err.to_string();
    for expected in [
        // An unreadable document and a module collision do not hide the rest,
        "missing.json: ",
        "would both generate module `a_b`",
        // nor does a schema's error,
        "broken.json#/maxItems (maxItems)",
        // and the tool list's own errors come with the errors of its tools' schemas.
        "tools.json#/tools/0/inputSchema (type)",
        "tools.json#/tools/2 (name): ",
        "tool \"ok\" is listed twice (first at /tools/1)",
        "tools.json [ok inputSchema]#/required (required)",
        "tools.json [ok outputSchema]#/minLength (minLength)",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    assert!(text.starts_with("7 error(s):\n"), "{text}");
    assert_eq!(text.lines().count(), 8, "{text}");
}

#[test]
fn mcp_tools_generate_a_table_under_the_listed_names() {
    let dir = scratch("table");
    let tools = write(
        &dir,
        "tools.json",
        r#"[
            {"name": "github.get-me", "inputSchema": {"type": "object"}},
            {"name": "search", "inputSchema": {"type": "object"},
             "outputSchema": {"type": "array"}}
        ]"#,
    );
    let code = Builder::new()
        .mcp_tools(&tools)
        .generate()
        .expect("a bare array of tools is a tool list")
        .code;
    let table = &code[code.find("pub static TOOLS").expect("a tool table")..];
    let rows: Vec<&str> = table
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("name:") || l.starts_with("validator:"))
        .collect();
    assert_eq!(
        rows,
        [
            "name: \"github.get-me\",",
            "validator: &github_get_me_input::Validator,",
            "name: \"search\",",
            "validator: &search_input::Validator,",
            "validator: &search_output::Validator,",
        ],
        "{table}"
    );
    assert!(
        table.starts_with("pub static TOOLS: &[::schemac_runtime::__private::Tool<"),
        "{table}"
    );
    assert!(
        table.contains("text: search_output::SCHEMA,\n") && table.contains("object_root: false"),
        "{table}"
    );
    assert!(table.contains("dyn ::schemac_runtime::__private::Validate"));

    let check_only = Builder::new()
        .mcp_tools(&tools)
        .validate(false)
        .generate()
        .expect("generates")
        .code;
    assert!(
        check_only.contains("dyn ::schemac_runtime::__private::Check"),
        "without validate, the table holds verdict-only validators"
    );
}

#[test]
fn compile_writes_only_when_bytes_change() {
    let dir = scratch("write");
    let a = write(&dir, "a.json", SEARCH);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let build = || {
        Builder::new()
            .schema("a", &a)
            .out_dir(&out)
            .out_file("v.rs")
            .compile()
    };
    build().expect("compiles");
    let path = out.join("v.rs");
    let first = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    build().expect("compiles again");
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), first);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("pub mod a {"));
}

#[test]
fn check_only_and_schema_text_options_shape_the_modules() {
    let dir = scratch("check-only");
    let one = write(&dir, "search.json", SEARCH);
    let full = Builder::new()
        .schema("search", &one)
        .generate()
        .expect("generates")
        .code;
    // The entry points are the runtime's (`entry_points!`), on the module's roots.
    assert!(
        full.contains("__rt::entry_points!(Validator, validate);"),
        "validate by default"
    );
    assert!(full.contains("impl __rt::ErrorsRoot for Validator"));
    assert!(
        !full.contains("pub const SCHEMA"),
        "no schema text unless asked"
    );
    let lean = Builder::new()
        .schema("search", &one)
        .validate(false)
        .schema_text(true)
        .generate()
        .expect("generates")
        .code;
    assert!(
        lean.contains("__rt::entry_points!(Validator, check);"),
        "no validate when turned off"
    );
    assert!(!lean.contains("Errors"), "no error-collecting functions");
    assert!(lean.contains("impl __rt::Root for Validator"));
    assert!(lean.contains("pub const SCHEMA"), "schema text when asked");
    assert!(lean.len() < full.len());
}
