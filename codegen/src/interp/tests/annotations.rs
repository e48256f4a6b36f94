//! Annotations: what `evaluate` keeps, where it locates them, in which order.

use super::*;

/// `(instance location, keyword location, value)` of every annotation `schema` gives
/// `instance` (compiled with annotations on), sorted; `None` when it is not valid.
fn annotations(schema: Value, instance: Value) -> Option<Vec<(String, String, Value)>> {
    use schemac_runtime::Evaluate;
    let validator = crate::options().annotations(true).build(&schema).unwrap();
    let evaluation = validator.evaluate(&instance);
    // The same verdict and errors; evaluating may spend more (it records locations).
    let report = validator.validate(&instance);
    assert_eq!(evaluation.report.clone().with_usage(report.usage), report);
    if !evaluation.report.is_valid() {
        assert!(evaluation.annotations.is_empty());
        return None;
    }
    let mut list: Vec<_> = evaluation
        .annotations
        .into_iter()
        .map(|a| (a.instance_location, a.keyword_location, a.value))
        .collect();
    list.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    Some(list)
}

fn ann(instance: &str, keyword: &str, value: Value) -> (String, String, Value) {
    (instance.into(), keyword.into(), value)
}

#[test]
fn evaluate_keeps_annotations_of_passing_subschemas_only() {
    let schema = json!({
        "title": "root",
        "anyOf": [{"type": "string", "title": "s"}, {"title": "any"}, {"type": "number", "title": "n"}],
        "not": {"type": "null", "title": "never"},
        "contains": {"type": "integer", "description": "an int"},
        "propertyNames": {"title": "key"},
        "if": {"minLength": 3, "title": "long"}, "then": {"title": "then"}, "else": {"title": "else"},
        "contentMediaType": "application/json"
    });
    // Every valid `anyOf` branch annotates; `not` never does; `if` fails: no `if`, `else`.
    assert_eq!(
        annotations(schema.clone(), json!("ab")).unwrap(),
        vec![
            ann("", "/anyOf/0/title", json!("s")),
            ann("", "/anyOf/1/title", json!("any")),
            ann("", "/contentMediaType", json!("application/json")),
            ann("", "/else/title", json!("else")),
            ann("", "/title", json!("root")),
        ]
    );
    // `contains` annotates the items that match, at their locations; content keywords
    // annotate strings only; `if` holds (`minLength` ignores arrays) and annotates; a key
    // (`propertyNames`) has no location to annotate.
    assert_eq!(
        annotations(schema.clone(), json!([1, "x", 2])).unwrap(),
        vec![
            ann("", "/anyOf/1/title", json!("any")),
            ann("", "/contains", json!([0, 2])),
            ann("", "/if/title", json!("long")),
            ann("", "/then/title", json!("then")),
            ann("", "/title", json!("root")),
            ann("/0", "/contains/description", json!("an int")),
            ann("/2", "/contains/description", json!("an int")),
        ]
    );
    assert!(!annotations(schema.clone(), json!({"a": 1}))
        .unwrap()
        .iter()
        .any(|a| a.1.contains("propertyNames")));
    // An invalid instance has none.
    assert_eq!(annotations(schema, json!(null)), None);
}

#[test]
fn evaluate_locates_annotations_through_references_and_unknown_keywords() {
    let schema = json!({
        "$id": "https://example.com/a.json",
        "properties": {"p": {"$ref": "#/$defs/d", "description": "wrapper"}},
        "$defs": {"d": {"x-unit": "cm", "default": 3}}
    });
    use schemac_runtime::Evaluate;
    let validator = crate::options().annotations(true).build(&schema).unwrap();
    let evaluation = validator.evaluate(&json!({"p": 1}));
    let mut found: Vec<_> = evaluation
        .annotations
        .iter()
        .map(|a| {
            (
                a.keyword().into_owned(),
                a.keyword_location.as_str(),
                a.absolute_keyword_location.as_str(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (
                "default".to_string(),
                "/properties/p/$ref/default",
                "https://example.com/a.json#/$defs/d/default"
            ),
            (
                "description".to_string(),
                "/properties/p/description",
                "https://example.com/a.json#/properties/p/description"
            ),
            (
                "properties".to_string(),
                "/properties",
                "https://example.com/a.json#/properties"
            ),
            (
                "x-unit".to_string(),
                "/properties/p/$ref/x-unit",
                "https://example.com/a.json#/$defs/d/x-unit"
            ),
        ]
    );
    // Without the option the program holds no annotations.
    let plain = crate::api::validator_for(&schema).unwrap();
    assert!(plain.evaluate(&json!({"p": 1})).annotations.is_empty());
    assert!(plain
        .program()
        .nodes
        .iter()
        .all(|n| n.annotations.is_empty() && n.checks.iter().all(|c| !c.annotates)));
}

#[test]
fn object_applicators_annotate_the_names_they_applied_to() {
    let schema = json!({
        "properties": {"a": true, "b": {"type": "integer"}},
        "patternProperties": {"^x": true, "y$": true},
        "additionalProperties": {"type": "string"}
    });
    assert_eq!(
        annotations(schema.clone(), json!({"a": 1, "b": 2, "c": "s", "xy": 3})).unwrap(),
        vec![
            ann("", "/additionalProperties", json!(["c"])),
            ann("", "/patternProperties", json!(["xy"])),
            ann("", "/properties", json!(["a", "b"])),
        ]
    );
    // An object they apply to nothing: empty arrays; anything else: nothing.
    assert_eq!(
        annotations(schema.clone(), json!({})).unwrap(),
        vec![
            ann("", "/additionalProperties", json!([])),
            ann("", "/patternProperties", json!([])),
            ann("", "/properties", json!([])),
        ]
    );
    assert_eq!(annotations(schema.clone(), json!([1])).unwrap(), vec![]);
    assert_eq!(annotations(schema, json!({"b": "x"})), None);
}

#[test]
fn array_applicators_annotate_an_index_true_or_the_matches() {
    let schema = json!({
        "prefixItems": [true, {"type": "integer"}],
        "items": {"type": "string"},
        "contains": {"type": "integer"},
        "minContains": 0
    });
    assert_eq!(
        annotations(schema.clone(), json!([1, 2, "a"])).unwrap(),
        vec![
            ann("", "/contains", json!([0, 1])),
            ann("", "/items", json!(true)),
            ann("", "/prefixItems", json!(1)),
        ]
    );
    // Every item under `prefixItems`: `true`, and `items` applied to none.
    assert_eq!(
        annotations(schema.clone(), json!(["x"])).unwrap(),
        vec![
            ann("", "/contains", json!([])),
            ann("", "/prefixItems", json!(true)),
        ]
    );
    // `contains` annotates an empty array too; `prefixItems` applied to nothing.
    assert_eq!(
        annotations(schema.clone(), json!([])).unwrap(),
        vec![ann("", "/contains", json!([]))]
    );
    assert_eq!(annotations(schema, json!([1, 2, 3])), None);
}

#[test]
fn unevaluated_keywords_annotate_what_they_applied_to() {
    let schema = json!({
        "properties": {"a": true},
        "unevaluatedProperties": {"type": "integer"},
        "prefixItems": [true],
        "unevaluatedItems": {"type": "integer"}
    });
    assert_eq!(
        annotations(schema.clone(), json!({"a": "s", "b": 1, "c": 2})).unwrap(),
        vec![
            ann("", "/properties", json!(["a"])),
            ann("", "/unevaluatedProperties", json!(["b", "c"])),
        ]
    );
    assert_eq!(
        annotations(schema.clone(), json!([true, 1])).unwrap(),
        vec![
            ann("", "/prefixItems", json!(0)),
            ann("", "/unevaluatedItems", json!(true)),
        ]
    );
    // Nothing left for `unevaluatedItems`: no annotation.
    assert_eq!(
        annotations(schema.clone(), json!([true])).unwrap(),
        vec![ann("", "/prefixItems", json!(true))]
    );
    assert_eq!(annotations(schema, json!([true, "x"])), None);
}

#[test]
fn applicator_annotations_of_failing_subschemas_are_dropped() {
    let schema = json!({
        "anyOf": [
            {"properties": {"a": {"type": "string"}}},
            {"properties": {"a": true}, "items": true}
        ],
        "not": {"type": "object", "required": ["z"], "properties": {"a": true}},
        "contains": {"properties": {"a": {"type": "integer"}}}
    });
    // The failing `anyOf` branch's and `not`'s subschema's `properties` are dropped.
    assert_eq!(
        annotations(schema.clone(), json!({"a": 1})).unwrap(),
        vec![ann("", "/anyOf/1/properties", json!(["a"]))]
    );
    // Only the items `contains` matched keep what its subschema said.
    assert_eq!(
        annotations(schema, json!([{"a": 1}, {"a": "x"}])).unwrap(),
        vec![
            ann("", "/anyOf/1/items", json!(true)),
            ann("", "/contains", json!([0])),
            ann("/0", "/contains/properties", json!(["a"])),
        ]
    );
}

#[test]
fn applicator_annotations_follow_the_dialect() {
    let items = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "items": [true, true],
        "additionalItems": {"type": "integer"},
        "contains": true
    });
    // 2019-09: `items` as an array is `prefixItems`, `additionalItems` annotates, and
    // `contains` does not.
    assert_eq!(
        annotations(items.clone(), json!([1, 2, 3])).unwrap(),
        vec![
            ann("", "/additionalItems", json!(true)),
            ann("", "/items", json!(1)),
        ]
    );
    assert_eq!(
        annotations(items, json!([1])).unwrap(),
        vec![ann("", "/items", json!(true))]
    );
    // draft-07 applicators give none.
    let draft7 = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {"a": true},
        "items": {"type": "integer"},
        "contains": true
    });
    assert_eq!(
        annotations(draft7.clone(), json!({"a": 1})).unwrap(),
        vec![]
    );
    assert_eq!(annotations(draft7, json!([1])).unwrap(), vec![]);
}

#[test]
fn applicator_annotations_come_after_their_childrens_and_before_their_nodes() {
    use schemac_runtime::Evaluate;
    let schema = json!({"properties": {"a": {"title": "A"}}, "title": "root"});
    let validator = crate::options().annotations(true).build(&schema).unwrap();
    let evaluation = validator.evaluate(&json!({"a": 1}));
    let order: Vec<_> = evaluation
        .annotations
        .iter()
        .map(|a| (a.instance_location.as_str(), a.keyword_location.as_str()))
        .collect();
    assert_eq!(
        order,
        vec![
            ("/a", "/properties/a/title"),
            ("", "/properties"),
            ("", "/title")
        ]
    );
}
