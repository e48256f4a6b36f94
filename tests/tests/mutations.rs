//! No panic on any input: every schema of the JSON Schema Test Suite, mutated at random
//! (seeded, so every failure is reproducible), is fed to the compiler, which must answer
//! with a program or with errors — never a panic. Mutants that compile are also run over
//! their group's test instances, which must not panic either.
//!
//! `SCHEMAC_MUTATION_SEED` (default `0x5eed`) and `SCHEMAC_MUTATIONS` (mutants per schema,
//! default 12) change the run; `SCHEMAC_MUTATION_TRACE=1` prints each mutant before it is
//! compiled, to find one that aborts the process (a stack overflow is not a panic).

use schemac::{Dialect, Options, RefPolicy};
use schemac_runtime::{Limits, Validate};
use schemac_tests::rng::Rng;
use schemac_tests::suite::{Set, SETS};
use schemac_tests::{panics, paths, registry};
use serde_json::{json, Map, Value};
use std::sync::LazyLock;

/// Every keyword schemac knows, in any dialect (the compiler's own list).
static KEYWORDS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| schemac::dialect::all_keywords().collect());

const STRINGS: &[&str] = &[
    "",
    "#",
    "#/",
    "#/$defs/missing",
    "#/definitions/a/..",
    "#/properties/~2",
    "#foo",
    "#/%zz",
    "#/%25",
    "%",
    "~",
    "~1",
    "/",
    "//",
    ":",
    "a:b",
    "urn:",
    "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
    "http://localhost:1234/draft2020-12/subSchemas.json#/$defs/integer",
    "http://localhost:1234/draft7/subSchemas.json#/definitions/integer",
    "http://localhost:1234/nested/",
    "https://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    "https://example.com/schemas/custom-dialect",
    "https://schemas.example.com/common.json#/x",
    "http://[::1",
    "file:///etc/passwd",
    "\u{0}",
    "é",
    "😀",
    "\u{fffd}",
    "[",
    "(",
    "(?<n>",
    "\\",
    "\\p{L}",
    "\\p{Nope}",
    "^(a+)+$",
    "a{99999}",
    "a{2,1}",
    "(?=a)",
    "(?<!b)",
    "\\1",
    "[z-a]",
    "[\\d-z]",
    "\\cX",
    "\\u{110000}",
    "date-time",
    "email",
    "regex",
    "ipv4",
    "hostname",
    "uri-template",
    "string",
    "integer",
    "number",
    "object",
    "array",
    "null",
    "boolean",
    "not-a-type",
    "$ref",
    "properties",
    "foo",
    "meta",
];

fn random_number(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => json!(0),
        1 => json!(1),
        2 => json!(-1),
        3 => json!(2.5),
        4 => json!(1.0),
        5 => json!(1e308),
        6 => json!(-1e308),
        7 => json!(1e-300),
        8 => json!(u64::MAX),
        9 => json!(i64::MIN),
        10 => json!(0.1),
        _ => json!(rng.below(1000)),
    }
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let leaf = depth == 0 || rng.chance(2);
    if leaf {
        return match rng.below(5) {
            0 => Value::Null,
            1 => Value::Bool(rng.chance(2)),
            2 => random_number(rng),
            _ => Value::String(rng.pick(STRINGS).to_string()),
        };
    }
    if rng.chance(2) {
        let n = rng.below(4);
        Value::Array((0..n).map(|_| random_value(rng, depth - 1)).collect())
    } else {
        let n = rng.below(4);
        let mut map = Map::new();
        for _ in 0..n {
            let key = if rng.chance(4) {
                rng.pick(STRINGS).to_string()
            } else {
                rng.pick(&KEYWORDS).to_string()
            };
            map.insert(key, random_value(rng, depth - 1));
        }
        Value::Object(map)
    }
}

/// One step of a path into a JSON value.
#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn all_paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                prefix.push(Step::Key(k.clone()));
                all_paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                prefix.push(Step::Index(i));
                all_paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

/// The paths of the subschemas in `schema` (the places where a schema is expected).
fn schema_paths(schema: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    let Value::Object(map) = schema else {
        return;
    };
    const SINGLE: &[&str] = &[
        "not",
        "if",
        "then",
        "else",
        "items",
        "additionalItems",
        "additionalProperties",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    ];
    const LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    const MAPS: &[&str] = &[
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
    ];
    for (keyword, value) in map {
        prefix.push(Step::Key(keyword.clone()));
        match value {
            Value::Array(items) if LISTS.contains(&keyword.as_str()) => {
                for (i, item) in items.iter().enumerate() {
                    prefix.push(Step::Index(i));
                    schema_paths(item, prefix, out);
                    prefix.pop();
                }
            }
            Value::Object(members) if MAPS.contains(&keyword.as_str()) => {
                for (name, member) in members {
                    prefix.push(Step::Key(name.clone()));
                    schema_paths(member, prefix, out);
                    prefix.pop();
                }
            }
            _ if SINGLE.contains(&keyword.as_str()) => schema_paths(value, prefix, out),
            _ => {}
        }
        prefix.pop();
    }
}

fn get_mut<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// Applies one random mutation to `schema`. A `gentle` mutation only moves, wraps,
/// nests or references parts of the schema, so that the mutant usually still compiles
/// and its validation paths get exercised too.
fn mutate_once(rng: &mut Rng, schema: &mut Value, gentle: bool) {
    let mut paths = Vec::new();
    if gentle {
        schema_paths(schema, &mut Vec::new(), &mut paths);
    } else {
        all_paths(schema, &mut Vec::new(), &mut paths);
    }
    let path = rng.pick(&paths).clone();
    let donor_path = rng.pick(&paths).clone();
    let donor = get_mut(schema, &donor_path).clone();
    let node = get_mut(schema, &path);
    let operation = if gentle {
        *rng.pick(&[4, 5, 6, 8])
    } else {
        rng.below(9)
    };
    match operation {
        // replace with a random value
        0 => *node = random_value(rng, 3),
        // add (or overwrite) a keyword
        1 | 2 => {
            let value = random_value(rng, 2);
            if let Value::Object(map) = node {
                map.insert(rng.pick(&KEYWORDS).to_string(), value);
            } else {
                *node = json!({ *rng.pick(&KEYWORDS): value });
            }
        }
        // remove a member or an item
        3 => match node {
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned();
                if let Some(key) = key {
                    map.remove(&key);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                items.remove(rng.below(items.len()));
            }
            _ => *node = Value::Null,
        },
        // a copy of another part of the same schema
        4 => *node = donor,
        // wrap in an applicator or an array
        5 => {
            let inner = node.take();
            *node = match rng.below(5) {
                0 => json!({ "allOf": [inner] }),
                1 => json!({ "not": inner }),
                2 => json!({ "items": inner }),
                3 => json!({ "$defs": { "x": inner }, "$ref": "#/$defs/x" }),
                _ if gentle => json!({ "anyOf": [inner, false] }),
                _ => json!([inner]),
            };
        }
        // deep nesting, past the schema depth limit or not
        6 => {
            let depth = *rng.pick(&[10, 63, 65, 200]);
            let keyword = *rng.pick(&["items", "not", "additionalProperties", "contains"]);
            let mut deep = node.take();
            for _ in 0..depth {
                deep = json!({ keyword: deep });
            }
            *node = deep;
        }
        // a string or number changed in place
        7 => {
            *node = match node {
                Value::Number(_) => random_number(rng),
                _ => Value::String(rng.pick(STRINGS).to_string()),
            }
        }
        // a self-reference, or a reference into the schema
        _ => {
            let target = *rng.pick(&[
                "#",
                "#/",
                "#/$defs",
                "#/properties",
                "#/items/0",
                "#/allOf/0",
            ]);
            if let Value::Object(map) = node {
                map.insert("$ref".into(), json!(target));
            } else {
                *node = json!({ "$ref": target });
            }
        }
    }
}

/// The option sets mutants compile under: each default dialect, reference policy and
/// format (and content) assertion mode, with a small evaluation budget so that validating a
/// mutant stays quick.
fn option_sets() -> Vec<Options> {
    let mut sets = Vec::new();
    for default_dialect in Dialect::ALL {
        for ref_policy in [RefPolicy::Error, RefPolicy::Warn] {
            for assert_format in [false, true] {
                sets.push(Options {
                    default_dialect,
                    ref_policy,
                    assert_format,
                    assert_content: assert_format,
                    limits: Limits {
                        budget: 100_000,
                        ..Limits::DEFAULT
                    },
                    ..Options::default()
                });
            }
        }
    }
    sets
}

/// The mutant of `schema` for `seed`, and which of `option_count` option sets it uses.
fn mutant(schema: &Value, seed: u64, option_count: usize) -> (Value, usize) {
    let mut rng = Rng(seed);
    let mut schema = schema.clone();
    let gentle = rng.chance(2);
    for _ in 0..=rng.below(3) {
        mutate_once(&mut rng, &mut schema, gentle);
    }
    (schema, rng.below(option_count))
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => {
            let text = text.trim();
            let parsed = match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={text} is not a number"))
        }
        Err(_) => default,
    }
}

fn truncated(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

#[test]
fn mutated_suite_schemas_give_errors_never_panics() {
    let base_seed = env_u64("SCHEMAC_MUTATION_SEED", 0x5eed);
    let per_schema = env_u64("SCHEMAC_MUTATIONS", 12);
    let trace = std::env::var_os("SCHEMAC_MUTATION_TRACE").is_some();

    let suite = paths::suite_dir().unwrap_or_else(|e| panic!("{e}"));
    let compilers: Vec<schemac::Compiler> = option_sets()
        .into_iter()
        .map(|options| registry::compiler(options).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut schemas = Vec::new();
    for spec in SETS {
        let set = Set::load(&suite, spec).unwrap_or_else(|e| panic!("{e}"));
        for file in set.files {
            for group in file.groups {
                let id = format!("{}/{}/{}#{}", spec.draft, spec.name, file.name, group.index);
                let instances: Vec<Value> = group.tests.into_iter().map(|t| t.data).collect();
                schemas.push((id, group.schema, instances));
            }
        }
    }
    assert!(
        schemas.len() > 700,
        "only {} suite schemas found",
        schemas.len()
    );

    let (mut compiled, mut rejected, mut validated) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let mut rejections = std::collections::BTreeMap::new();
    for (index, (id, schema, instances)) in schemas.iter().enumerate() {
        for k in 0..per_schema {
            let seed = Rng(Rng(Rng(base_seed).next_u64() ^ index as u64).next_u64() ^ k).next_u64();
            let (mutated, options) = mutant(schema, seed, compilers.len());
            if trace {
                eprintln!("mutant {id} seed {seed:#x}: {mutated}");
            }
            let compiler = &compilers[options];
            let describe = |what: String| {
                format!(
                    "{id} seed {seed:#x}: {what}\n    options: {:?}\n    mutated schema: {}",
                    compiler.options(),
                    truncated(mutated.to_string(), 1500)
                )
            };
            match panics::catch(|| compiler.compile_named(id, &mutated)) {
                Err(panic) => failures.push(describe(format!("compile {panic}"))),
                Ok(Err(errors)) => {
                    rejected += 1;
                    if let Some(first) = errors.first() {
                        *rejections.entry(first.kind.name()).or_insert(0usize) += 1;
                    }
                    if errors.is_empty() {
                        failures.push(describe("compile failed with no error".into()));
                    }
                }
                Ok(Ok(program)) => {
                    compiled += 1;
                    let validator = schemac::interp::Interpreter::new(program);
                    for (n, instance) in instances.iter().enumerate() {
                        let result = panics::catch(|| {
                            (validator.check(instance), validator.validate(instance))
                        });
                        match result {
                            Ok(_) => validated += 1,
                            Err(panic) => {
                                failures.push(describe(format!("validating test {n} {panic}")))
                            }
                        }
                    }
                }
            }
        }
    }
    println!(
        "mutations: {} mutants of {} suite schemas (seed {base_seed:#x}): {compiled} compiled, \
         {rejected} rejected with errors, {validated} validations, {} panics",
        schemas.len() as u64 * per_schema,
        schemas.len(),
        failures.len()
    );
    println!("mutations: rejections by the first error's kind: {rejections:?}");
    assert!(
        failures.is_empty(),
        "{} mutant(s) panicked (reproduce with SCHEMAC_MUTATION_SEED={base_seed:#x}):\n{}",
        failures.len(),
        failures
            .iter()
            .take(50)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("\n")
    );
    // the mutations must exercise both outcomes, or this test checks little
    assert!(
        compiled > 0 && rejected > 0,
        "{compiled} compiled, {rejected} rejected"
    );
}
