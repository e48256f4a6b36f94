//! The JSON Schema Test Suite's sets, loaded.
//!
//! A set is one folder of one draft: `required` (`tests/<draft>/*.json`), `optional`
//! (`tests/<draft>/optional/*.json`) and `format` (`tests/<draft>/optional/format/*.json`,
//! run with format assertion on). Each file holds groups (a schema and its tests); each
//! test is a case, identified as `<draft>/<set>/<file>/<group>/<test>`.

use crate::paths;
use schemac::{Dialect, Options};
use serde_json::Value;
use std::path::Path;

/// One set of the suite and the compiler options it runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetSpec {
    /// The suite's folder name of the draft: `draft2020-12`, `draft7`.
    pub draft: &'static str,
    /// `required`, `optional` or `format`.
    pub name: &'static str,
    /// The folder under `tests/<draft>/` holding the set's files (`""` for `required`).
    pub folder: &'static str,
    /// The dialect of schemas without `$schema` (the suite's draft7 files declare none).
    pub default_dialect: Dialect,
    /// Whether `format` asserts.
    pub assert_format: bool,
    /// Whether draft-07's content keywords assert (the draft7 optional set's `content.json`
    /// expects it).
    pub assert_content: bool,
}

impl SetSpec {
    /// The compiler options the set runs under.
    pub fn options(&self) -> Options {
        Options {
            default_dialect: self.default_dialect,
            assert_format: self.assert_format,
            assert_content: self.assert_content,
            custom_keywords: vec![CUSTOM_KEYWORD.to_string()],
            ..Options::default()
        }
    }

    /// `draft2020-12 required`, as the summary line names the set.
    pub fn label(&self) -> String {
        format!("{} {}", self.draft, self.name)
    }
}

/// The custom keyword every set compiles (`crate::custom`: its rule and both backends'
/// forms; `build.rs` gives generated code [`CUSTOM_KEYWORD_FUNCTION`]).
pub const CUSTOM_KEYWORD: &str = "x-length-divisible-by";

/// The function generated code calls for [`CUSTOM_KEYWORD`].
pub const CUSTOM_KEYWORD_FUNCTION: &str = "crate::custom::length_divisible_by";

/// Every set the harness runs: three per draft, newest draft first.
pub const SETS: [SetSpec; 15] = {
    const fn set(
        draft: &'static str,
        name: &'static str,
        folder: &'static str,
        default_dialect: Dialect,
        assert_format: bool,
        assert_content: bool,
    ) -> SetSpec {
        SetSpec {
            draft,
            name,
            folder,
            default_dialect,
            assert_format,
            assert_content,
        }
    }
    const fn three(draft: &'static str, dialect: Dialect) -> [SetSpec; 3] {
        // Only draft-07 has content keywords that may assert; its optional set's
        // `content.json` tests them as assertions.
        let content = matches!(dialect, Dialect::Draft7);
        [
            set(draft, "required", "", dialect, false, false),
            set(draft, "optional", "optional", dialect, false, content),
            set(draft, "format", "optional/format", dialect, true, false),
        ]
    }
    use Dialect::*;
    let [a, b, c] = three("draft2020-12", Draft2020_12);
    let [d, e, f] = three("draft2019-09", Draft2019_09);
    let [g, h, i] = three("draft7", Draft7);
    let [j, k, l] = three("draft6", Draft6);
    let [m, n, o] = three("draft4", Draft4);
    [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o]
};

/// The project's own fixtures (`tests/fixtures/*.json`, in the suite's file format): cases
/// the suite does not have, such as a schema whose `$ref` reaches an embedded resource of
/// another dialect. Run through both backends by `tests/tests/fixtures.rs`.
pub const FIXTURES: SetSpec = SetSpec {
    draft: "fixtures",
    name: "required",
    folder: "",
    default_dialect: Dialect::Draft2020_12,
    assert_format: false,
    assert_content: false,
};

/// The folder of [`FIXTURES`]: `tests/fixtures` in this crate.
pub fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// One loaded set.
#[derive(Debug, Clone)]
pub struct Set {
    /// Which set.
    pub spec: SetSpec,
    /// Its files, sorted by name.
    pub files: Vec<File>,
}

/// One file of a set.
#[derive(Debug, Clone)]
pub struct File {
    /// The file name (`ref.json`).
    pub name: String,
    /// Its groups, in file order.
    pub groups: Vec<Group>,
}

/// One group: a schema and the tests run against it.
#[derive(Debug, Clone)]
pub struct Group {
    /// The group's description.
    pub description: String,
    /// Its index in the file.
    pub index: usize,
    /// The schema.
    pub schema: Value,
    /// Its tests, in file order.
    pub tests: Vec<Test>,
}

/// One test: an instance and whether it is valid.
#[derive(Debug, Clone)]
pub struct Test {
    /// The test's description.
    pub description: String,
    /// The instance.
    pub data: Value,
    /// Whether the instance is valid against the group's schema.
    pub valid: bool,
}

impl Set {
    /// Loads `spec` from the suite at `suite` (its root folder). A set without files is an
    /// error.
    pub fn load(suite: &Path, spec: SetSpec) -> Result<Set, String> {
        Set::load_dir(
            &suite.join("tests").join(spec.draft).join(spec.folder),
            spec,
        )
    }

    /// Loads the `*.json` files of `dir` (in the suite's file format) as the set `spec`.
    pub fn load_dir(dir: &Path, spec: SetSpec) -> Result<Set, String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot list the suite folder {}: {e}", dir.display()))?;
        let mut paths = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
                .path();
            if path.is_file() && path.extension().is_some_and(|e| e == "json") {
                paths.push(path);
            }
        }
        paths.sort();
        if paths.is_empty() {
            return Err(format!(
                "the suite folder {} has no .json files",
                dir.display()
            ));
        }
        let files = paths
            .iter()
            .map(|path| load_file(path))
            .collect::<Result<_, _>>()?;
        Ok(Set { spec, files })
    }

    /// How many tests the set holds.
    pub fn test_count(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.groups)
            .map(|g| g.tests.len())
            .sum()
    }
}

/// The case id of a test: `<draft>/<set>/<file>/<group>/<test>`.
pub fn case_id(spec: &SetSpec, file: &File, group: &Group, test: &Test) -> String {
    format!(
        "{}/{}/{}/{}/{}",
        spec.draft, spec.name, file.name, group.description, test.description
    )
}

fn load_file(path: &Path) -> Result<File, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bad = |what: &str| format!("{}: {what}", path.display());
    let Value::Array(groups) = paths::read_json(path)? else {
        return Err(bad("not an array of groups"));
    };
    let mut out = Vec::with_capacity(groups.len());
    for (index, group) in groups.into_iter().enumerate() {
        let description = string_field(&group, "description")
            .ok_or_else(|| bad(&format!("group {index} has no description")))?;
        let schema = group
            .get("schema")
            .cloned()
            .ok_or_else(|| bad(&format!("group {description:?} has no schema")))?;
        let tests = group
            .get("tests")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(&format!("group {description:?} has no tests array")))?
            .iter()
            .map(|test| {
                let test_description = string_field(test, "description");
                let valid = test.get("valid").and_then(Value::as_bool);
                let data = test.get("data").cloned();
                match (test_description, valid, data) {
                    (Some(description), Some(valid), Some(data)) => Ok(Test {
                        description,
                        data,
                        valid,
                    }),
                    _ => Err(bad(&format!(
                        "a test of group {description:?} lacks description, data or valid"
                    ))),
                }
            })
            .collect::<Result<_, _>>()?;
        out.push(Group {
            description,
            index,
            schema,
            tests,
        });
    }
    Ok(File { name, groups: out })
}

fn string_field(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}
