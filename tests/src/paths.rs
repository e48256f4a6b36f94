//! Locating the shared folder and the JSON Schema Test Suite.
//!
//! The shared folder is `SCHEMAC_SHARED` when set, else the folder `shared` beside the
//! workspace root, resolved from this crate's `CARGO_MANIFEST_DIR` (never from the working
//! directory). The suite is `JSON_SCHEMA_TEST_SUITE` when set, else
//! `json-schema-test-suite/` inside the shared folder. A missing folder is an error that
//! says where it looked, never a reason to skip.

use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The shared folder: `SCHEMAC_SHARED`, else `<workspace root>/../shared`.
pub fn shared_dir() -> Result<PathBuf, String> {
    let (dir, how) = match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) if !dir.is_empty() => (PathBuf::from(dir), "SCHEMAC_SHARED"),
        _ => (
            workspace_root().join("..").join("shared"),
            "the folder `shared` beside the workspace root (set SCHEMAC_SHARED to override)",
        ),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "the shared folder {} ({how}) does not exist",
            dir.display()
        ))
    }
}

/// The JSON Schema Test Suite: `JSON_SCHEMA_TEST_SUITE`, else
/// `<shared>/json-schema-test-suite`. It must hold `tests/` and `remotes/`.
pub fn suite_dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("JSON_SCHEMA_TEST_SUITE") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => shared_dir()?.join("json-schema-test-suite"),
    };
    for sub in ["tests", "remotes"] {
        if !dir.join(sub).is_dir() {
            return Err(format!(
                "the JSON Schema Test Suite at {} has no `{sub}/` folder \
                 (set JSON_SCHEMA_TEST_SUITE or SCHEMAC_SHARED)",
                dir.display()
            ));
        }
    }
    Ok(dir)
}

/// The meta-schemas folder, `<shared>/metaschemas` (2020-12 and draft-07).
pub fn metaschemas_dir() -> Result<PathBuf, String> {
    shared_folder("metaschemas", "meta-schemas")
}

/// The older dialects' meta-schemas folder, `<shared>/older-metaschemas` (draft-04,
/// draft-06, 2019-09).
pub fn older_metaschemas_dir() -> Result<PathBuf, String> {
    shared_folder("older-metaschemas", "older dialects' meta-schemas")
}

/// The folder `name` of the shared folder, which must exist; `what` names it in the error.
fn shared_folder(name: &str, what: &str) -> Result<PathBuf, String> {
    let dir = shared_dir()?.join(name);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "the {what} folder {} does not exist",
            dir.display()
        ))
    }
}

/// Every `*.json` file under `dir`, recursively, sorted by path.
pub fn json_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Reads and parses one JSON file.
pub fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}
