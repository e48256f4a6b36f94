//! The shared corpora of real schemas with real instances: `bench-corpus/` (each case a
//! `schema.json` and an `instances.jsonl`, a document per line) and `realworld/cases/`
//! (each case a `schema.json` and its documents under `instances/` and `disputed/`).
//! `build.rs` compiles every case's schema into generated code (a module named after the
//! case's id); the budget test runs every instance through both backends.

use crate::{paths, registry};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The corpora, folders of the shared folder whose subfolders are cases.
pub const CORPORA: &[&str] = &["bench-corpus", "realworld/cases"];

/// One case of a corpus: its id (`bench-corpus/cql2`) and its folder.
#[derive(Debug, Clone)]
pub struct Case {
    /// The corpus folder and the case folder's name, joined by `/`.
    pub id: String,
    /// The case folder, which holds `schema.json`.
    pub dir: PathBuf,
}

/// Every case of every corpus under `shared`, by corpus then folder name.
pub fn cases(shared: &Path) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for corpus in CORPORA {
        let dir = shared.join(corpus);
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
                .path();
            if path.join("schema.json").is_file() {
                found.push(path);
            }
        }
        found.sort();
        out.extend(found.into_iter().map(|dir| Case {
            id: format!(
                "{corpus}/{}",
                dir.file_name().unwrap_or_default().to_string_lossy()
            ),
            dir,
        }));
    }
    Ok(out)
}

/// The compiler of every corpus schema: format assertion on (a few instances are invalid
/// only by `format`), every offline document registered.
pub fn compiler() -> Result<schemac::Compiler, String> {
    registry::compiler(schemac::Options {
        assert_format: true,
        ..schemac::Options::default()
    })
}

/// The case's schema.
pub fn schema(case: &Case) -> Result<Value, String> {
    paths::read_json(&case.dir.join("schema.json"))
}

/// Every instance of the case, each with a name: the lines of `instances.jsonl`
/// (`#<line>`), else every JSON file of the case folder but the schema (its path in the
/// folder).
pub fn instances(case: &Case) -> Result<Vec<(String, Value)>, String> {
    let lines = case.dir.join("instances.jsonl");
    if lines.is_file() {
        let text = std::fs::read_to_string(&lines)
            .map_err(|e| format!("cannot read {}: {e}", lines.display()))?;
        return text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| {
                let value = serde_json::from_str(line)
                    .map_err(|e| format!("{} line {}: {e}", lines.display(), i + 1))?;
                Ok((format!("#{}", i + 1), value))
            })
            .collect();
    }
    let schema = case.dir.join("schema.json");
    paths::json_files(&case.dir)?
        .into_iter()
        .filter(|path| *path != schema)
        .map(|path| {
            let name = path
                .strip_prefix(&case.dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            Ok((name, paths::read_json(&path)?))
        })
        .collect()
}
