//! The JSON Schema Test Suite's annotation and output test cases, loaded (shared by the
//! harness and `build.rs`, which compiles them into generated code).
//!
//! Annotation cases (`annotations/tests/*.json`) hold a schema, its `externalSchemas` and
//! tests; a case runs under a dialect when its `compatibility` admits the dialect's
//! release. Output tests (`output-tests/<draft>/content/*.json`) are groups in the format
//! of the validation tests, whose tests carry an `output` schema per format instead of
//! `valid`.

use crate::paths;
use schemac::load::{uri, DEFAULT_BASE_URI};
use schemac::{Compiler, Dialect};
use serde_json::{Map, Value};
use std::path::Path;

/// One annotation case: a schema, the documents it refers to, and its tests.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file it is in (`applicators.json`).
    pub file: String,
    /// Its index in the file.
    pub index: usize,
    /// The case's description.
    pub description: String,
    /// The `compatibility` constraints, as written (`"7"`, `"<=2019"`, `"=2020"`).
    pub compatibility: Option<String>,
    /// The schema.
    pub schema: Value,
    /// `externalSchemas`: retrieval URI → schema.
    pub external: Vec<(String, Value)>,
    /// The tests: instance and assertions.
    pub tests: Vec<(Value, Vec<Assertion>)>,
}

impl Case {
    /// `base` with the case's `externalSchemas` registered.
    pub fn compiler(&self, base: &Compiler) -> Result<Compiler, String> {
        let mut compiler = base.clone();
        for (uri, doc) in &self.external {
            compiler
                .registry_mut()
                .add(uri, doc.clone())
                .map_err(|e| format!("cannot register {uri}: {e}"))?;
        }
        Ok(compiler)
    }
}

/// What one test asserts about one instance location and keyword.
#[derive(Debug, Clone)]
pub struct Assertion {
    /// The instance location (a JSON pointer).
    pub location: String,
    /// The annotating keyword.
    pub keyword: String,
    /// Schema location (relative to the case's schema) → annotation value; empty: no
    /// annotation.
    pub expected: Map<String, Value>,
}

/// The release number a dialect has in `compatibility` (draft-07 is 7, 2020-12 is 2020).
pub fn release(dialect: Dialect) -> u32 {
    match dialect {
        Dialect::Draft2020_12 => 2020,
        Dialect::Draft2019_09 => 2019,
        Dialect::Draft7 => 7,
        Dialect::Draft6 => 6,
        Dialect::Draft4 => 4,
    }
}

/// Whether `compatibility` (comma-separated `N`, `<=N`, `=N`; absent: every release)
/// admits `release`.
pub fn compatible(compatibility: Option<&str>, release: u32) -> bool {
    compatibility.is_none_or(|list| {
        list.split(',').map(str::trim).all(|c| {
            let number = |s: &str| s.parse::<u32>().ok();
            if let Some(n) = c.strip_prefix("<=").and_then(number) {
                release <= n
            } else if let Some(n) = c.strip_prefix('=').and_then(number) {
                release == n
            } else {
                number(c).is_some_and(|n| release >= n)
            }
        })
    })
}

/// Loads every case of the `*.json` files in `dir` (the suite's `annotations/tests`).
pub fn load(dir: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for path in paths::json_files(dir)? {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bad = |what: &str| format!("{}: {what}", path.display());
        let doc = paths::read_json(&path)?;
        let suite = doc
            .get("suite")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no `suite` array"))?;
        for (index, case) in suite.iter().enumerate() {
            let description = case
                .get("description")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("a case without a description"))?;
            let bad_case = |what: &str| bad(&format!("case {description:?}: {what}"));
            let schema = case
                .get("schema")
                .cloned()
                .ok_or_else(|| bad_case("no schema"))?;
            let external = case
                .get("externalSchemas")
                .and_then(Value::as_object)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let mut tests = Vec::new();
            for test in case
                .get("tests")
                .and_then(Value::as_array)
                .ok_or_else(|| bad_case("no tests"))?
            {
                let instance = test
                    .get("instance")
                    .cloned()
                    .ok_or_else(|| bad_case("a test without an instance"))?;
                let assertions = test
                    .get("assertions")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad_case("a test without assertions"))?
                    .iter()
                    .map(|a| {
                        let field = |k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
                        match (field("location"), field("keyword"), a.get("expected")) {
                            (Some(location), Some(keyword), Some(Value::Object(expected))) => {
                                Ok(Assertion {
                                    location,
                                    keyword,
                                    expected: expected.clone(),
                                })
                            }
                            _ => Err(bad_case("an assertion lacks location, keyword or expected")),
                        }
                    })
                    .collect::<Result<_, _>>()?;
                tests.push((instance, assertions));
            }
            cases.push(Case {
                file: name.clone(),
                index,
                description: description.to_string(),
                compatibility: case
                    .get("compatibility")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                schema,
                external,
                tests,
            });
        }
    }
    Ok(cases)
}

/// The absolute URI of the subschema at `relative` (`#/properties/foo`, percent-encoded)
/// in `schema`: the pointer walked from the root, each `$id` (draft-04: `id`) on the way
/// starting a new base.
pub fn schema_uri(schema: &Value, relative: &str, dialect: Dialect) -> Option<String> {
    let (_, fragment) = relative.split_once('#')?;
    let tokens = uri::pointer_tokens(&uri::percent_decode(fragment)?)?;
    let id_of = |value: &Value| {
        value
            .get(dialect.id_keyword())
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut base = DEFAULT_BASE_URI.to_string();
    let mut pointer = String::new();
    let mut at = schema;
    if let Some(id) = id_of(at) {
        base = uri::resolve(&base, &id);
    }
    for token in tokens {
        at = match at {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
        pointer.push('/');
        pointer.push_str(&uri::escape_token(&token));
        if let Some(id) = id_of(at) {
            base = uri::resolve(&base, &id);
            pointer.clear();
        }
    }
    let (base, _) = uri::split_fragment(&base);
    Some(format!("{base}#{}", uri::encode_fragment(&pointer)))
}

/// The output tests of `draft` (`draft2020-12`) in the suite at `suite`:
/// `(file name, index in the file, group)`, files sorted by name.
pub fn output_groups(suite: &Path, draft: &str) -> Result<Vec<(String, usize, Value)>, String> {
    let content = suite.join("output-tests").join(draft).join("content");
    let mut groups = Vec::new();
    for path in paths::json_files(&content)? {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Value::Array(file) = paths::read_json(&path)? else {
            return Err(format!("{}: not an array of groups", path.display()));
        };
        groups.extend(
            file.into_iter()
                .enumerate()
                .map(|(i, g)| (name.clone(), i, g)),
        );
    }
    if groups.is_empty() {
        return Err(format!("{} has no output tests", content.display()));
    }
    Ok(groups)
}
