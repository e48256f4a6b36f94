//! The offline documents suite schemas may reference.
//!
//! The suite's `remotes/` folder is served, in the suite's own runners, at
//! `http://localhost:1234/`; here each file is registered under that URI instead (nothing
//! is fetched). The meta-schemas in `<shared>/metaschemas` and
//! `<shared>/older-metaschemas` are registered under their `$id`s (draft-04's: `id`).

use crate::paths;
use schemac::{Compiler, Options};
use serde_json::Value;
use std::path::Path;

/// The base URI the suite's `remotes/` folder stands for.
pub const REMOTES_BASE: &str = "http://localhost:1234/";

/// Every offline document, as `(uri, document)`, sorted by URI.
pub fn documents() -> Result<Vec<(String, Value)>, String> {
    let suite = paths::suite_dir()?;
    let mut docs = remotes(&suite.join("remotes"))?;
    docs.extend(metaschemas(&paths::metaschemas_dir()?)?);
    docs.extend(metaschemas(&paths::older_metaschemas_dir()?)?);
    docs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(docs)
}

/// The suite's remotes, each under `http://localhost:1234/<path relative to remotes/>`.
pub fn remotes(dir: &Path) -> Result<Vec<(String, Value)>, String> {
    let mut docs = Vec::new();
    for path in paths::json_files(dir)? {
        let relative = path
            .strip_prefix(dir)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let relative: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        docs.push((
            format!("{REMOTES_BASE}{}", relative.join("/")),
            paths::read_json(&path)?,
        ));
    }
    Ok(docs)
}

/// The meta-schemas, each under its `$id` (draft-04's `id`; a trailing empty fragment
/// dropped).
pub fn metaschemas(dir: &Path) -> Result<Vec<(String, Value)>, String> {
    let mut docs = Vec::new();
    for path in paths::json_files(dir)? {
        let doc = paths::read_json(&path)?;
        let id = doc
            .get("$id")
            .or_else(|| doc.get("id"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                format!(
                    "meta-schema {} has no string `$id` (or `id`)",
                    path.display()
                )
            })?;
        docs.push((id.trim_end_matches('#').to_string(), doc));
    }
    Ok(docs)
}

/// A compiler with `options` and every offline document registered.
pub fn compiler(options: Options) -> Result<Compiler, String> {
    let mut compiler = Compiler::new(options);
    for (uri, doc) in documents()? {
        compiler
            .registry_mut()
            .add(&uri, doc)
            .map_err(|e| format!("cannot register {uri}: {e}"))?;
    }
    Ok(compiler)
}
