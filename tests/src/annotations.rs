//! The JSON Schema Test Suite's annotation tests (`annotations/tests/*.json`) through a
//! backend's `evaluate`.
//!
//! Each file holds cases (a schema, its `externalSchemas` and tests); a case runs under a
//! dialect when its `compatibility` admits the dialect's release. A test passes when, for
//! each assertion, the annotations the evaluation gave at the assertion's instance location
//! for its keyword are exactly the expected ones, by schema location. The expected
//! schema locations (`#/properties/foo`) are relative to the case's schema; they are
//! resolved to the absolute URIs the annotations carry by walking the schema, `$id` by
//! `$id`.

use crate::panics;
use crate::runner::{CaseFailure, SetOutcome};
use crate::suite::SetSpec;
use schemac::load::{uri, DEFAULT_BASE_URI};
use schemac::{Compiler, Dialect};
use schemac_runtime::{Evaluate, Evaluation};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::Path;

/// One annotation case: a schema, the documents it refers to, and its tests.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file it is in (`applicators.json`).
    pub file: String,
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

/// A backend that can evaluate: compiles a case's schema with `compiler` (the dialect's
/// options, annotations on, the case's documents registered).
pub type Prepare<'a> = &'a dyn Fn(&Compiler, &str, &Value) -> Result<Box<dyn Evaluate>, String>;

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
    for path in crate::paths::json_files(dir)? {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bad = |what: &str| format!("{}: {what}", path.display());
        let doc = crate::paths::read_json(&path)?;
        let suite = doc
            .get("suite")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no `suite` array"))?;
        for case in suite {
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

/// Why a test's evaluation does not meet `assertions`, if it does not.
fn judge(
    case: &Case,
    dialect: Dialect,
    evaluation: &Evaluation,
    assertions: &[Assertion],
) -> Option<String> {
    if !evaluation.report.is_valid() {
        return Some(format!(
            "the instance is not valid: {:?}",
            evaluation.report.verdict
        ));
    }
    let mut problems = Vec::new();
    for assertion in assertions {
        let mut got = Map::new();
        for a in &evaluation.annotations {
            if a.instance_location == assertion.location && a.keyword() == assertion.keyword {
                let token_len =
                    a.keyword_location.len() - a.keyword_location.rfind('/').unwrap_or(0);
                let at = &a.absolute_keyword_location;
                got.insert(at[..at.len() - token_len].to_string(), a.value.clone());
            }
        }
        let mut expected = Map::new();
        for (relative, value) in &assertion.expected {
            match schema_uri(&case.schema, relative, dialect) {
                Some(absolute) => expected.insert(absolute, value.clone()),
                None => {
                    return Some(format!(
                        "expected location {relative:?} is not in the schema"
                    ))
                }
            };
        }
        if got != expected {
            problems.push(format!(
                "at {:?} `{}`: expected {}, got {}",
                assertion.location,
                assertion.keyword,
                Value::Object(expected),
                Value::Object(got)
            ));
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// Runs every case compatible with `spec`'s dialect through `prepare`, with `compiler`
/// (the offline registry; its options get annotations on and the dialect as default).
pub fn run(
    spec: SetSpec,
    cases: &[Case],
    compiler: &Compiler,
    backend: &'static str,
    prepare: Prepare<'_>,
) -> SetOutcome {
    let dialect = spec.default_dialect;
    let mut outcome = SetOutcome {
        backend,
        spec,
        case_ids: BTreeSet::new(),
        passed: 0,
        failed: Vec::new(),
        skipped: Vec::new(),
    };
    for case in cases {
        if !compatible(case.compatibility.as_deref(), release(dialect)) {
            continue;
        }
        let mut compiler = compiler.clone();
        let registered: Result<(), String> = case.external.iter().try_for_each(|(uri, doc)| {
            compiler
                .registry_mut()
                .add(uri, doc.clone())
                .map_err(|e| format!("cannot register {uri}: {e}"))
        });
        let name = format!("{}/annotations/{}", spec.draft, case.file);
        let prepared = registered.and_then(|()| {
            panics::catch(|| prepare(&compiler, &name, &case.schema))
                .unwrap_or_else(|panic| Err(format!("preparing the schema {panic}")))
        });
        for (index, (instance, assertions)) in case.tests.iter().enumerate() {
            let id = format!(
                "{}/annotations/{}/{}/{index}",
                spec.draft, case.file, case.description
            );
            outcome.case_ids.insert(id.clone());
            let result = match &prepared {
                Ok(evaluator) => panics::catch(|| evaluator.evaluate(instance))
                    .map_err(|panic| format!("evaluating {panic}"))
                    .map(|evaluation| judge(case, dialect, &evaluation, assertions)),
                Err(reason) => Err(reason.clone()),
            };
            match result {
                Ok(None) => outcome.passed += 1,
                Ok(Some(reason)) | Err(reason) => outcome.failed.push(CaseFailure {
                    id,
                    file: case.file.clone(),
                    group: case.description.clone(),
                    test: index.to_string(),
                    reason,
                }),
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_constraints() {
        assert!(compatible(None, 4));
        assert!(compatible(Some("7"), 2020));
        assert!(!compatible(Some("7"), 6));
        assert!(compatible(Some("<=2019"), 2019) && !compatible(Some("<=2019"), 2020));
        assert!(compatible(Some("=2020"), 2020) && !compatible(Some("=2020"), 2019));
        assert!(compatible(Some("6,<=2019"), 7) && !compatible(Some("6,<=2019"), 4));
        assert!(!compatible(Some("9999"), 2020));
    }

    #[test]
    fn schema_locations_follow_ids() {
        let schema = serde_json::json!({
            "$id": "https://x/main",
            "$defs": {"a": {"$id": "a", "$defs": {"b": {"title": "B"}}}, "c": {"^x": {}}}
        });
        let at = |r| schema_uri(&schema, r, Dialect::Draft2020_12);
        assert_eq!(at("#").as_deref(), Some("https://x/main#"));
        assert_eq!(
            at("#/$defs/a/$defs/b").as_deref(),
            Some("https://x/a#/$defs/b")
        );
        assert_eq!(
            at("#/$defs/c/%5Ex").as_deref(),
            Some("https://x/main#/$defs/c/%5Ex")
        );
        assert_eq!(at("#/nothing"), None);
    }
}
