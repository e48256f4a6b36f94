//! Generates every schema of the shared corpora into `OUT_DIR/validate.rs` (with
//! `validate`) and `OUT_DIR/check_only.rs` (without), one module per schema, named after
//! its folder.
//!
//! The shared folder is `SCHEMAC_SHARED`, else `shared` beside the workspace root; a
//! missing corpus fails the build (never skipped).

use std::path::{Path, PathBuf};

/// The corpora: folders of cases, each holding a `schema.json`.
const CORPORA: &[&str] = &["bench-corpus", "bench-mcp", "realworld/cases"];

fn shared() -> PathBuf {
    println!("cargo:rerun-if-env-changed=SCHEMAC_SHARED");
    match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// A module name for case folder `name`: its characters that cannot be in an identifier
/// replaced by `_`.
fn module_name(name: &str) -> String {
    let ident: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("schema_{ident}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shared = shared();
    let mut schemas = Vec::new();
    for corpus in CORPORA {
        let dir = shared.join(corpus);
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e} (set SCHEMAC_SHARED)", dir.display()))?;
        for entry in entries {
            let path = entry?.path().join("schema.json");
            if path.is_file() {
                schemas.push(path);
            }
        }
    }
    schemas.sort();
    if schemas.len() < 150 {
        return Err(format!(
            "{} schemas under {}: the corpora are incomplete",
            schemas.len(),
            shared.display()
        )
        .into());
    }
    for (validate, file) in [(true, "validate.rs"), (false, "check_only.rs")] {
        let mut builder = schemac_build::Builder::new();
        builder
            .ref_policy(schemac::RefPolicy::Warn)
            .validate(validate)
            .out_file(file);
        for path in &schemas {
            let case = path
                .parent()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str());
            let case = case.ok_or_else(|| format!("{}: no case folder", path.display()))?;
            builder.schema(&module_name(case), path);
        }
        builder.compile()?;
    }
    Ok(())
}
