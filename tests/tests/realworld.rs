//! The real-world corpus (`<shared>/realworld`): 131 schemas from MCP servers, the MCP
//! specification, SchemaStore and OpenAPI, with the instances their sources ship.
//!
//! Every schema compiles (draft-07 ones too, under `--dialect draft7` as under the
//! default), every instance its source calls valid (`real-pos-*`, `real-pass-*`) is
//! valid, and every instance its source calls invalid (`real-neg-*`, `real-fail-*`) is
//! invalid — with format assertion on, since a few are invalid only by `format`.

use schemac::interp::Interpreter;
use schemac::{Compiler, Dialect, Options};
use schemac_runtime::{Validate, Verdict};
use schemac_tests::{paths, registry};
use std::path::PathBuf;

fn compiler(options: Options) -> Compiler {
    let mut compiler = Compiler::new(options);
    let metaschemas = paths::metaschemas_dir().expect("meta-schemas");
    for (uri, doc) in registry::metaschemas(&metaschemas).expect("read meta-schemas") {
        compiler
            .add_document(&uri, doc)
            .expect("register meta-schema");
    }
    compiler
}

fn cases() -> Vec<PathBuf> {
    let dir = paths::shared_dir()
        .expect("shared folder")
        .join("realworld/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("read realworld/cases").path())
        .filter(|p| p.join("schema.json").is_file())
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 131, "the corpus has 131 cases");
    cases
}

#[test]
fn every_schema_compiles_and_every_verdict_matches_its_source() {
    let draft7_default = compiler(Options {
        default_dialect: Dialect::Draft7,
        ..Options::default()
    });
    let asserting = compiler(Options {
        assert_format: true,
        ..Options::default()
    });
    let mut failures = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for case in cases() {
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        let schema = paths::read_json(&case.join("schema.json")).unwrap();
        if let Err(errors) = draft7_default.compile_named(&id, &schema) {
            failures.push(format!(
                "{id}: does not compile with draft-07 as default: {errors:?}"
            ));
        }
        let program = match asserting.compile_named(&id, &schema) {
            Ok(program) => program,
            Err(errors) => {
                failures.push(format!("{id}: does not compile: {errors:?}"));
                continue;
            }
        };
        let validator = Interpreter::new(program);
        let Ok(instances) = paths::json_files(&case.join("instances")) else {
            continue;
        };
        for path in instances {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expected = if name.starts_with("real-pos") || name.starts_with("real-pass") {
                Verdict::Valid
            } else if name.starts_with("real-neg") || name.starts_with("real-fail") {
                Verdict::Invalid
            } else {
                continue;
            };
            let instance = paths::read_json(&path).unwrap();
            let verdict = validator.check(&instance);
            if verdict != expected {
                failures.push(format!(
                    "{id}/{name}: expected {expected:?}, got {verdict:?}"
                ));
            } else if expected == Verdict::Valid {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    println!("realworld: {valid} valid and {invalid} invalid instances as their sources say");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        valid >= 459 && invalid >= 255,
        "fewer instances than the corpus ships"
    );
}
