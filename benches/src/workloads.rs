//! The benchmark workloads: each schema of [`crate::catalog::SCHEMAS`] with its
//! instances from the shared folder.
//!
//! - `bench-mcp/wN-*`: two workloads per schema, `<module>-valid` and `<module>-invalid`
//!   (one instance each);
//! - `bench-corpus/<name>`: one workload, every line of `instances.jsonl` (all valid);
//! - `jsonschema-rs-bench-data`: `citm_catalog` (one 500 KB instance) and
//!   `geojson-canada` (`canada.json`, 2 MB, against `geojson.json`);
//! - `realworld/cases/<id>`: one workload per schema that has instances (the group
//!   `realworld`, named by its module, `rw_<id>`), every file of `instances/`, whatever the
//!   verdict (the source's verdicts are checked by the `schemac-tests` test `realworld`,
//!   with `format` asserted).

use crate::catalog::SCHEMAS;
use crate::paths;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Which family a workload belongs to (the tables report them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// An MCP-style workload (`bench-mcp`), which also has a hand-written check.
    Mcp,
    /// A real-world schema of `bench-corpus` with its instances.
    Corpus,
    /// A large instance of `jsonschema-rs-bench-data`.
    Large,
    /// A real-world schema of `realworld/` with the instances its source ships.
    Realworld,
}

include!(concat!(env!("OUT_DIR"), "/realworld.rs"));

/// One schema with the instances one benchmark iteration validates.
#[derive(Debug, Clone)]
pub struct Workload {
    /// The workload's name (a benchmark group name: `[a-z0-9_-]` only).
    pub name: String,
    /// The schema's module in [`crate::catalog::SCHEMAS`].
    pub module: &'static str,
    /// The schema file.
    pub schema_path: PathBuf,
    /// The schema.
    pub schema: Value,
    /// The instances, validated in this order in every iteration.
    pub instances: Vec<Value>,
    /// The verdict the data's source gives every instance (`None`: the instances of a
    /// `realworld` workload, whose verdicts differ).
    pub expected_valid: Option<bool>,
    /// The family.
    pub group: Group,
}

/// The large instances: `(module, instance file under the shared folder, workload name)`.
const LARGE: &[(&str, &str, &str)] = &[
    (
        "citm_catalog",
        "jsonschema-rs-bench-data/citm_catalog.json",
        "citm_catalog",
    ),
    (
        "geojson",
        "jsonschema-rs-bench-data/canada.json",
        "geojson-canada",
    ),
];

/// The family of a workload by its name (as [`load`] names them), without loading it.
pub fn group_of(name: &str) -> Group {
    if LARGE.iter().any(|(_, _, large)| *large == name) {
        return Group::Large;
    }
    if REALWORLD.iter().any(|(module, _)| *module == name) {
        return Group::Realworld;
    }
    let mcp = SCHEMAS.iter().any(|(module, path)| {
        path.starts_with("bench-mcp/")
            && name
                .strip_prefix(module)
                .is_some_and(|rest| rest.starts_with('-'))
    });
    if mcp {
        Group::Mcp
    } else {
        Group::Corpus
    }
}

/// Loads every workload from `shared`, in catalog order.
pub fn load(shared: &Path) -> Result<Vec<Workload>, String> {
    let mut out = Vec::new();
    for (module, path) in SCHEMAS {
        let schema_path = shared.join(path);
        let schema = paths::read_json(&schema_path)?;
        let dir = schema_path
            .parent()
            .ok_or_else(|| format!("{}: no parent folder", schema_path.display()))?;
        let workload = |name: String, instances, expected_valid, group| Workload {
            name,
            module,
            schema_path: schema_path.clone(),
            schema: schema.clone(),
            instances,
            expected_valid,
            group,
        };
        if path.starts_with("bench-mcp/") {
            for (which, expected) in [("valid", true), ("invalid", false)] {
                let instance = paths::read_json(&dir.join(format!("{which}.json")))?;
                out.push(workload(
                    format!("{module}-{which}"),
                    vec![instance],
                    Some(expected),
                    Group::Mcp,
                ));
            }
        } else if path.starts_with("bench-corpus/") {
            let instances = paths::read_jsonl(&dir.join("instances.jsonl"))?;
            out.push(workload(
                module.to_string(),
                instances,
                Some(true),
                Group::Corpus,
            ));
        } else {
            let (_, file, name) = LARGE
                .iter()
                .find(|(m, _, _)| m == module)
                .ok_or_else(|| format!("no instances known for schema {path}"))?;
            let instance = paths::read_json(&shared.join(file))?;
            out.push(workload(
                name.to_string(),
                vec![instance],
                Some(true),
                Group::Large,
            ));
        }
    }
    for (module, path) in REALWORLD {
        let schema_path = shared.join(path);
        let dir = schema_path
            .parent()
            .ok_or_else(|| format!("{}: no parent folder", schema_path.display()))?;
        let instances = paths::json_files(&dir.join("instances"))?
            .iter()
            .map(|file| paths::read_json(file))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(Workload {
            name: module.to_string(),
            module,
            schema: paths::read_json(&schema_path)?,
            schema_path,
            instances,
            expected_valid: None,
            group: Group::Realworld,
        });
    }
    Ok(out)
}

/// The shared folder ([`paths::shared_dir`]) and every workload loaded from it, for a
/// benchmark program: where either fails, the error is printed and the process exits
/// with status 2.
pub fn load_shared_or_exit() -> (PathBuf, Vec<Workload>) {
    let loaded = paths::shared_dir().and_then(|shared| Ok((load(&shared)?, shared)));
    match loaded {
        Ok((workloads, shared)) => (shared, workloads),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
    }
}
