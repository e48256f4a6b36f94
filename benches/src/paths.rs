//! Locating the shared folder: `SCHEMAC_SHARED` when set, else `../../shared` from this
//! crate's folder (the folder `shared` beside the workspace root), never the working
//! directory.

use std::path::{Path, PathBuf};

/// The shared folder, or an error saying where it looked.
pub fn shared_dir() -> Result<PathBuf, String> {
    let (dir, how) = match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) if !dir.is_empty() => (PathBuf::from(dir), "SCHEMAC_SHARED"),
        _ => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
            "the folder `shared` beside the workspace root (set SCHEMAC_SHARED to override)",
        ),
    };
    if dir.is_dir() {
        Ok(std::fs::canonicalize(&dir).unwrap_or(dir))
    } else {
        Err(format!(
            "the shared folder {} ({how}) does not exist",
            dir.display()
        ))
    }
}

/// Reads and parses one JSON file.
pub fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

/// Reads a JSON Lines file: one JSON document per non-empty line.
pub fn read_jsonl(path: &Path) -> Result<Vec<serde_json::Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: not JSON: {e}", path.display(), i + 1))
        })
        .collect()
}

/// The `*.json` files of a folder, sorted by name.
pub fn json_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
