//! `apply_defaults` in both backends: each group of `tests/cases/defaults.json` (a schema,
//! instances, and each instance as it is with its defaults applied) through the
//! interpreter compiled with `defaults` and through generated code built with them; and
//! the walk's depth bound, where both say they stopped.

use schemac_runtime::Validate;
use schemac_tests::{generated, paths};
use serde_json::{json, Value};

#[test]
fn both_backends_insert_the_defaults_of_every_case() {
    let path = paths::workspace_root().join("tests/cases/defaults.json");
    let groups = paths::read_json(&path).expect("tests/cases/defaults.json");
    let groups = groups.as_array().expect("an array of groups");
    assert_eq!(
        groups.len(),
        generated::DEFAULTS.len(),
        "one module per group"
    );
    let mut checked = 0;
    for (index, group) in groups.iter().enumerate() {
        let interpreted = schemac::options()
            .defaults(true)
            .build(&group["schema"])
            .unwrap_or_else(|e| panic!("group {index}: {e:?}"));
        let (row, generated) = generated::DEFAULTS[index];
        assert_eq!(row, index);
        for case in group["tests"].as_array().expect("tests") {
            let what = format!("{} / {}", group["description"], case["description"]);
            for (backend, validator) in [
                ("interpreted", &interpreted as &dyn Validate),
                ("generated", generated as &dyn Validate),
            ] {
                let mut instance = case["data"].clone();
                assert!(validator.apply_defaults(&mut instance), "{backend}: {what}");
                assert_eq!(instance, case["expected"], "{backend}: {what}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 36, "{checked} cases");
}

#[test]
fn without_the_option_nothing_is_inserted() {
    let schema = json!({"properties": {"a": {"default": 1}}});
    let plain = schemac::validator_for(&schema).unwrap();
    let mut instance = json!({});
    assert!(plain.apply_defaults(&mut instance));
    assert_eq!(instance, json!({}));
    let planned = schemac::options().defaults(true).build(&schema).unwrap();
    assert!(planned.apply_defaults(&mut instance));
    assert_eq!(instance, json!({"a": 1}));
}

/// `{"next": {"next": … {}}}`, `depth` levels of objects.
fn chain(depth: usize) -> Value {
    let mut value = json!({});
    for _ in 0..depth {
        value = json!({ "next": value });
    }
    value
}

#[test]
fn the_walk_stops_at_the_depth_bound_and_says_so() {
    // The last group: `{"properties": {"next": {"$ref": "#"}, "seen": {"default": true}}}`.
    let path = paths::workspace_root().join("tests/cases/defaults.json");
    let groups = paths::read_json(&path).expect("tests/cases/defaults.json");
    let last = groups.as_array().expect("groups").len() - 1;
    let schema = &groups[last]["schema"];
    assert_eq!(schema["properties"]["next"], json!({"$ref": "#"}));
    let interpreted = schemac::options().defaults(true).build(schema).unwrap();
    let max = interpreted.limits().max_depth as usize;
    for (backend, validator) in [
        ("interpreted", &interpreted as &dyn Validate),
        ("generated", generated::DEFAULTS[last].1 as &dyn Validate),
    ] {
        let mut shallow = chain(3);
        assert!(validator.apply_defaults(&mut shallow), "{backend}");
        assert_eq!(shallow["next"]["next"]["next"]["seen"], json!(true));
        let mut deep = chain(max + 10);
        assert!(
            !validator.apply_defaults(&mut deep),
            "{backend}: stops at {max}"
        );
        // Every level above the bound got its default, none below it.
        let mut at = &deep;
        for level in 0..max + 10 {
            assert_eq!(
                at.get("seen").is_some(),
                level < max,
                "{backend}: level {level}"
            );
            at = &at["next"];
        }
    }
}

#[test]
fn a_schema_that_applies_its_subschemas_at_every_place_is_refused_at_compile_time() {
    // Each link applies the rest of the chain in place (`allOf`) and again to a property:
    // the walk would list ~n²/2 applications; refused after a bounded amount of work.
    let links = 2_000;
    let mut defs = serde_json::Map::new();
    for i in 0..links {
        let next = format!("#/$defs/d{}", (i + 1) % links);
        defs.insert(
            format!("d{i}"),
            json!({
                "allOf": [{"$ref": next}],
                "properties": {format!("p{i}"): {"$ref": next}, format!("q{i}"): {"default": i}}
            }),
        );
    }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let (built, work) = schemac::work::counted(|| schemac::options().defaults(true).build(&schema));
    let errors = built.expect_err("refused");
    assert!(errors.has_kind(&schemac::CompileErrorKind::TooManySubschemas));
    let message = errors.errors()[0].to_string();
    assert!(message.contains("applying defaults"), "{message}");
    // Validation alone compiles it.
    let (plain, plain_work) = schemac::work::counted(|| schemac::validator_for(&schema));
    assert!(plain.is_ok());
    assert!(
        work < 4 * plain_work,
        "defaults {work} vs validation {plain_work}"
    );
}
