//! The driver: files, directories and MCP tool lists to named units, on files written to
//! a scratch folder.

use schemac::driver::{self, Files, InputError, Read, Schema, Source, Units};
use schemac::{CompileErrorKind, Compiler, Options};
use serde_json::json;
use std::path::{Path, PathBuf};

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("driver-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const OBJECT: &str = r#"{"type": "object"}"#;

fn compiler() -> Compiler {
    Compiler::new(Options::default())
}

fn modules(units: &Units) -> Vec<&str> {
    units.compiled().iter().map(|u| u.module.as_str()).collect()
}

#[test]
fn files_and_directories_become_named_units() {
    let dir = scratch("files");
    let one = write(&dir, "one.json", OBJECT);
    write(&dir, "tools/getWeather.json", OBJECT);
    write(&dir, "tools/a-b.json", r#"{"type": "string"}"#);
    write(&dir, "tools/notes.txt", "not a schema");
    let compiler = compiler();
    let mut files = Files::default();
    let mut units = Units::new().schema_text(true);
    let unit = units
        .add_file(&compiler, &mut files, Some("Custom-Name"), &one)
        .unwrap();
    assert_eq!(unit.module, "custom_name");
    assert_eq!(unit.source, driver::display_path(&one));
    assert_eq!(unit.file, unit.source);
    assert_eq!(unit.schema_text.as_deref(), Some(OBJECT));
    units
        .add_dir(&compiler, &mut files, &dir.join("tools"))
        .unwrap();
    assert_eq!(modules(&units), ["custom_name", "a_b", "get_weather"]);
    assert_eq!(
        files.read,
        [
            one,
            dir.join("tools"),
            dir.join("tools/a-b.json"),
            dir.join("tools/getWeather.json")
        ]
    );

    let without_text = Units::new()
        .add_file(&compiler, &mut files, None, &dir.join("tools/a-b.json"))
        .unwrap()
        .schema_text
        .clone();
    assert_eq!(without_text, None, "no SCHEMA text unless asked");
}

#[test]
fn collisions_name_both_inputs_and_the_module() {
    let dir = scratch("collisions");
    let first = write(&dir, "a-b.json", OBJECT);
    let compiler = compiler();
    let mut files = Files::default();
    let mut units = Units::new();
    units.add_file(&compiler, &mut files, None, &first).unwrap();
    // The name is claimed before the file is read: this one does not exist.
    let second = dir.join("tools/a_b.json");
    let err = units
        .add_file(&compiler, &mut files, None, &second)
        .unwrap_err();
    let InputError::Collision {
        module,
        first: one,
        second: two,
    } = &err
    else {
        panic!("expected a collision, got {err}");
    };
    assert_eq!(module, "a_b");
    assert_eq!((&one.file, &two.file), (&first, &second));
    assert_eq!(
        err.to_string(),
        format!(
            "{} and {} would both generate module `a_b`",
            first.display(),
            second.display()
        )
    );
    assert_eq!(files.read, [first], "the colliding file is not read");

    let err = units
        .add_file(&compiler, &mut files, Some(""), &dir.join("a-b.json"))
        .unwrap_err();
    assert!(
        matches!(&err, InputError::NoModuleName { name, .. } if name.is_empty()),
        "{err}"
    );
    assert!(err
        .to_string()
        .ends_with("no Rust module name can be made from \"\""));
}

#[test]
fn read_errors_name_the_file() {
    let dir = scratch("read");
    let bad = write(&dir, "bad.json", "{\n  \"type\": \n}");
    let compiler = compiler();
    let mut files = Files::default();
    let mut units = Units::new();
    let err = units
        .add_file(&compiler, &mut files, None, &bad)
        .unwrap_err();
    assert!(matches!(err, InputError::Json { line: 3, .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}:3:1: not valid JSON: ", bad.display())),
        "{err}"
    );
    let missing = dir.join("missing.json");
    let err = units
        .add_file(&compiler, &mut files, None, &missing)
        .unwrap_err();
    assert!(
        matches!(&err, InputError::Io { path, .. } if *path == missing),
        "{err}"
    );
    assert!(std::error::Error::source(&err).is_some(), "the io::Error");
    let err = units
        .add_dir(&compiler, &mut files, &dir.join("no-such-dir"))
        .unwrap_err();
    assert!(matches!(&err[..], [InputError::Io { .. }]), "{err:?}");
    assert!(units.compiled().is_empty());
}

#[test]
fn file_names_cannot_forge_lines() {
    let dir = scratch("escape");
    let odd = write(&dir, "odd\nname.json", "[");
    let err = Units::new()
        .add_file(&compiler(), &mut Files::default(), Some("odd"), &odd)
        .unwrap_err();
    let text = err.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(text.contains("odd\\nname.json"), "{text}");
}

#[test]
fn mcp_tools_become_input_and_output_units() {
    let dir = scratch("mcp");
    let tools = write(
        &dir,
        "tools.json",
        r#"{"tools": [
            {"name": "getWeather", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}},
            {"name": "type", "inputSchema": {"type": "object"}}
        ]}"#,
    );
    let compiler = compiler();
    let mut units = Units::new();
    units
        .add_mcp_tools(&compiler, &mut Files::default(), &tools)
        .unwrap();
    assert_eq!(
        modules(&units),
        ["get_weather_input", "get_weather_output", "type__input"]
    );
    let input = &units.compiled()[0];
    let tools_path = driver::display_path(&tools);
    assert_eq!(
        input.source,
        format!("{tools_path} [getWeather inputSchema]")
    );
    assert_eq!(input.file, tools_path);
    assert_eq!(
        input.schema_text.as_deref(),
        Some(r#"{"type":"object"}"#),
        "tools always keep their text"
    );

    let bad = write(
        &dir,
        "bad.json",
        r#"{"tools": [{"name": "x", "inputSchema": {"type": "array"}}]}"#,
    );
    let err = units
        .add_mcp_tools(&compiler, &mut Files::default(), &bad)
        .unwrap_err();
    let [InputError::Compile(errors)] = &err[..] else {
        panic!("expected the tool list's compile errors, got {err:?}");
    };
    assert_eq!(errors[0].location.pointer, "/tools/0/inputSchema");
}

#[test]
fn compile_errors_and_documents() {
    let mut compiler = compiler();
    let mut units = Units::new();
    let bad = json!({"type": 3});
    let err = units
        .add(&compiler, Schema::new("bad", "bad.json", &bad))
        .unwrap_err();
    let InputError::Compile(errors) = &err else {
        panic!("expected compile errors, got {err}");
    };
    assert_eq!(errors[0].location.document, "bad.json");
    assert_eq!(err.to_string(), errors[0].to_string());

    // A document read through a reader of the caller's own, then reached by `$ref`.
    struct Memory;
    impl Read for Memory {
        fn read(&mut self, path: &Path) -> Result<Source, InputError> {
            match path.to_str() {
                Some("common.json") => Ok(Source {
                    text: String::new(),
                    value: json!({"$defs": {"id": {"type": "integer"}}}),
                }),
                _ => Err(InputError::Refused {
                    path: path.to_path_buf(),
                    message: format!("{}: refused", path.display()),
                }),
            }
        }
    }
    let uri = "https://example.com/common.json";
    driver::add_document(&mut compiler, &mut Memory, uri, Path::new("common.json")).unwrap();
    let refused =
        driver::add_document(&mut compiler, &mut Memory, uri, Path::new("other.json")).unwrap_err();
    assert_eq!(refused.to_string(), "other.json: refused");
    let relative = driver::add_document(
        &mut compiler,
        &mut Memory,
        "common.json",
        Path::new("common.json"),
    )
    .unwrap_err();
    assert!(
        matches!(&relative, InputError::Compile(e) if e[0].kind == CompileErrorKind::InvalidIdentifier),
        "{relative}"
    );
    let schema = json!({"$ref": "https://example.com/common.json#/$defs/id"});
    let unit = units
        .add(&compiler, Schema::new("id", "id.json", &schema))
        .unwrap();
    assert_eq!(unit.module, "id");
    assert_eq!(modules(&units), ["id"], "a schema that fails gets no unit");
}

#[test]
fn units_generate_one_module_each() {
    let schema = json!({"type": "object"});
    let compiler = compiler();
    let mut units = Units::new();
    for name in ["b", "a"] {
        units
            .add(
                &compiler,
                Schema::new(name, &format!("{name}.json"), &schema),
            )
            .unwrap();
    }
    let code = schemac::emit::generate(&units.emit_units(), &Default::default()).unwrap();
    assert!(
        code.starts_with("// @generated by schemac ")
            && code
                .lines()
                .next()
                .unwrap()
                .ends_with("from b.json, a.json. Do not edit."),
        "{code}"
    );
    let b = code.find("pub mod b {").expect("module b");
    let a = code.find("pub mod a {").expect("module a");
    assert!(b < a, "in the order added");
}
