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
        matches!(&err, Error::Input(InputError::Collision { module, first, second })
            if module == "a_b" && first.file.ends_with("a-b.json")
                && second.file.ends_with("a_b.json")),
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
        matches!(&err, Error::Input(InputError::NoModuleName { name, .. }) if name.is_empty()),
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
    let Error::Compile(errors) = &err else {
        panic!("expected compile errors, got {err}");
    };
    assert_eq!(errors.len(), 2, "{err}");
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
        matches!(err, Error::Input(InputError::Json { line: 3, .. })),
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
    assert!(full.contains("pub fn validate("), "validate by default");
    assert!(full.contains("impl __rt::Validate for Validator"));
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
        !lean.contains("pub fn validate("),
        "no validate when turned off"
    );
    assert!(
        !lean.contains("__rt::Errors"),
        "no error-collecting functions"
    );
    assert!(lean.contains("impl __rt::Check for Validator"));
    assert!(lean.contains("pub const SCHEMA"), "schema text when asked");
    assert!(lean.len() < full.len());
}
