//! The builder accepts every draft-07 schema of the real-world corpus
//! (`<shared>/realworld/cases/ss-*` declaring draft-07) with draft-07 as the default
//! dialect, and generates one module per schema.

use std::path::{Path, PathBuf};

/// `SCHEMAC_SHARED`, else the folder `shared` beside the workspace root.
fn shared() -> PathBuf {
    match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

#[test]
fn builder_accepts_the_draft7_real_world_schemas() {
    let cases = shared().join("realworld/cases");
    let entries = std::fs::read_dir(&cases).unwrap_or_else(|e| {
        panic!(
            "the real-world corpus is missing at {}: {e}",
            cases.display()
        )
    });
    let mut builder = schemac_build::Builder::new();
    builder.default_dialect(schemac::Dialect::Draft7);
    let mut count = 0;
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for case in paths {
        let id = case.file_name().unwrap().to_string_lossy().into_owned();
        let schema = case.join("schema.json");
        let text = std::fs::read_to_string(&schema).unwrap();
        if id.starts_with("ss-") && text.contains("json-schema.org/draft-07/schema") {
            builder.schema(&id, &schema);
            count += 1;
        }
    }
    assert!(
        count >= 20,
        "expected the corpus's draft-07 SchemaStore schemas, found {count}"
    );
    let generated = builder
        .generate()
        .unwrap_or_else(|e| panic!("the builder refused a draft-07 schema: {e}"));
    assert!(
        generated.code.contains("pub mod ss_"),
        "one module per schema"
    );
    println!(
        "builder: {count} draft-07 real-world schemas compiled to {} bytes",
        generated.code.len()
    );
}
