//! Unresolved references, the budget (what each check charges, alike in short-circuit and collecting evaluation), depth, limits and the error bound.

use super::*;
use crate::plan::thresholds::FOLDED_REQUIRED_KEYS;

#[test]
fn unresolved_reference_is_incomplete_unless_already_invalid() {
    let mut b = Builder::new();
    b.add(
        "",
        vec![
            check("maximum", CheckKind::Maximum(num(json!(10)))),
            check(
                "$ref",
                CheckKind::Unresolved {
                    uri: "https://remote.example/x.json".into(),
                },
            ),
        ],
    );
    let v = b.build();
    let reason = IncompleteReason::UnresolvedRef("https://remote.example/x.json".into());
    assert_eq!(v.check(&json!(1)), Verdict::Incomplete(reason.clone()));
    let report = v.validate(&json!(1));
    assert_eq!(report.verdict, Verdict::Incomplete(reason));
    assert!(report.errors.is_empty());
    assert!(!v.is_valid(&json!(1)));
    // An error found first: invalid.
    assert_eq!(v.check(&json!(11)), Verdict::Invalid);
    let report = v.validate(&json!(11));
    assert_eq!(report.verdict, Verdict::Invalid);
    assert_eq!(report.errors.len(), 1);
}

#[test]
fn patterns_at_properties_names_charge_as_they_run() {
    // Short-circuit evaluation knows what the patterns do at each `properties` name
    // (those that match, what their tests charge) and runs none; `validate` runs them:
    // the same spending under every budget, charges between out-of-line applications.
    let schema = json!({
        "$defs": {"tree": {"items": {"$ref": "#/$defs/tree"}}},
        "properties": {
            "xa": {"type": "array"},
            "b": true,
            "quite_long_property_id": {"type": "integer"}
        },
        "patternProperties": {
            "^x": {"$ref": "#/$defs/tree"},
            "a$": {"maxItems": 3},
            "[0-9]+z": true,
            "(a|b)+": {"$ref": "#/$defs/tree"}
        },
        "additionalProperties": false
    });
    let instance = json!({"xa": [[[]], []], "b": [[]], "quite_long_property_id": 2});
    same_budget_as_validate(&schema, &instance);
}

#[test]
fn inline_nodes_applied_in_place_run_as_their_parents_steps() {
    // The inline `allOf` members (a type test, a node of simple checks, an `allOf` of
    // them) run as steps of the root's lane, before the recursive `$ref`, which charges.
    let schema = json!({
        "$defs": {"tree": {"items": {"$ref": "#/$defs/tree"}}},
        "allOf": [
            {"allOf": [{"type": ["string", "array"]}, {"maxLength": 3, "maxItems": 2}]},
            {"$ref": "#/$defs/tree"},
            {"type": "array"}
        ]
    });
    let need = same_budget_as_validate(&schema, &json!([[[]], []]));
    let tight = compiled_with_budget(&schema, need - 1);
    // A failing member stops the evaluation before the `$ref` charges anything.
    for invalid in [json!(5), json!("abcd"), json!([[], [], []])] {
        assert_eq!(tight.check(&invalid), Verdict::Invalid, "{invalid}");
    }
    errors(&compiled_with_budget(&schema, need), &json!("abc"));
}

#[test]
fn a_root_without_depth_is_entered_as_any_node() {
    // No recursion: no depth is counted, and `check` enters the root directly.
    let schema = json!({
        "properties": {"a": {"type": "string"}, "b": {"items": {"minimum": 1}}},
        "required": ["a"]
    });
    let need = same_budget_as_validate(&schema, &json!({"a": "x", "b": [1, 2, 3]}));
    let v = compiled_with_budget(&schema, need);
    for invalid in [json!({}), json!({"a": 1}), json!({"a": "x", "b": [0]})] {
        assert_eq!(v.check(&invalid), Verdict::Invalid, "{invalid}");
    }
    assert_eq!(
        compiled_with_budget(&schema, 0).check(&json!(5)),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
}

#[test]
fn a_required_folded_into_a_closed_pass_is_decided_once_the_pass_is_done() {
    // `required` is found by the lookups of the pass over `properties` and
    // `additionalProperties` (the tree, recursive, out of line but not deferred) on a
    // small object, looked up after the pass on a large one, and decided once the pass
    // is done either way, as generated code decides it after its loop over the keys:
    // what the pass charged, and where it stopped, stand whether a name is missing or not.
    let closed = json!({
        "properties": {"b": true, "c": {"type": "string"}},
        "required": ["b"],
        "additionalProperties": {"$ref": "#/$defs/tree"}
    });
    let schema = json!({
        "$defs": {"tree": {"items": {"$ref": "#/$defs/tree"}}},
        "anyOf": [closed, {"properties": {"z": {"$ref": "#/$defs/tree"}}}]
    });
    let deep = json!([[[[[[[[]]]]]]]]);
    // Objects past `FOLDED_REQUIRED_KEYS` keys, `k0`… each an empty array.
    let large = |mut object: Value| {
        for k in 0..=FOLDED_REQUIRED_KEYS {
            object[format!("k{k}")] = json!([]);
        }
        object
    };
    for (small, object) in [
        (true, json!({"z": [[]]})),
        (false, large(json!({"z": [[]]}))),
    ] {
        let with = |members: Value| {
            let mut instance = object.clone();
            for (key, value) in members.as_object().expect("members") {
                instance[key] = value.clone();
            }
            instance
        };
        // Without `b`, the first branch fails at `c` or once every key passed.
        let valid = [with(json!({"a": [[]], "c": 1})), with(json!({"a": [[]]}))];
        let need = (valid.iter())
            .map(|valid| same_budget_as_validate(&schema, valid))
            .max()
            .unwrap_or_default();
        let v = compiled_with_budget(&schema, need);
        for valid in &valid {
            assert_eq!(v.check(valid), Verdict::Valid, "small {small}: {valid}");
        }
        // The pass stops at `a` before `required` is decided, with `b` or without it.
        for stopped in [with(json!({"a": deep})), with(json!({"a": deep, "b": 1}))] {
            assert_eq!(
                v.check(&stopped),
                Verdict::Incomplete(IncompleteReason::BudgetExceeded),
                "small {small}: {stopped}"
            );
            assert_eq!(v.check(&stopped), v.validate(&stopped).verdict, "{stopped}");
        }
    }
}

#[test]
fn arrays_of_arrays_decided_at_once_spend_what_validate_does() {
    // The outer `items` runs the inner `items` (folded with the counts) on each array
    // without the lane's dispatch, and anything else through its lane.
    let schema = json!({
        "type": "array",
        "items": {
            "type": ["array", "string"],
            "minItems": 2,
            "maxItems": 3,
            "maxLength": 1,
            "items": {"type": "number"}
        }
    });
    let valid = json!([[1, 2.5], "s", [3, 4, 5], [6, 7]]);
    let need = same_budget_as_validate(&schema, &valid);
    let v = compiled_with_budget(&schema, need);
    for invalid in [
        json!([[1]]),
        json!([[1, 2, 3, 4]]),
        json!([[1, "x"]]),
        json!([5]),
        json!(["st"]),
        json!([[1, 2], null]),
    ] {
        assert_eq!(v.check(&invalid), Verdict::Invalid, "{invalid}");
        errors(&v, &invalid);
    }
}

#[test]
fn required_finds_its_names_by_scan_and_by_hash() {
    // Three names are scanned for, twenty hashed; the objects are small enough for one
    // pass over their keys.
    for count in [3, 20] {
        let names: Vec<String> = (0..count).map(|i| format!("name-{i}")).collect();
        let v = Interpreter::new(
            crate::check::Compiler::new(crate::options::Options::default())
                .compile(&json!({"required": names}))
                .expect("compiles"),
        );
        let full: serde_json::Map<String, Value> =
            names.iter().map(|n| (n.clone(), json!(1))).collect();
        assert_valid(&v, &Value::Object(full.clone()));
        let mut extra = full.clone();
        extra.insert("other".into(), json!(2));
        assert_valid(&v, &Value::Object(extra.clone()));
        for name in &names {
            let mut missing = extra.clone();
            missing.remove(name);
            missing.insert(format!("{name}x"), json!(3));
            assert_eq!(v.check(&Value::Object(missing.clone())), Verdict::Invalid);
            assert_eq!(errors(&v, &Value::Object(missing)).len(), 1, "{name}");
        }
    }
}

#[test]
fn short_circuit_applicators_spend_what_validate_does() {
    // `anyOf`, `oneOf`, `not` and `if` run directly in short-circuit mode, over branches
    // that recur (and charge).
    let schema = json!({
        "$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
        "type": "array",
        "items": {
            "anyOf": [{"type": "string"}, {"$ref": "#/$defs/tree"}],
            "oneOf": [
                {"type": "string"},
                {"type": "array", "maxItems": 1},
                {"type": "array", "minItems": 3}
            ],
            "not": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "if": {"$ref": "#/$defs/tree"},
            "then": {"items": {"$ref": "#/$defs/tree"}},
            "else": {"maxLength": 2}
        }
    });
    let valid = json!(["ab", [[]], [[], [[]], []], []]);
    let need = same_budget_as_validate(&schema, &valid);
    let v = compiled_with_budget(&schema, need);
    // No `oneOf` branch, no `anyOf` branch, the `not` subschema, the `else`.
    for invalid in [
        json!([[[], []]]),
        json!([5]),
        json!([["x"]]),
        json!(["abc"]),
    ] {
        assert_eq!(v.check(&invalid), Verdict::Invalid, "{invalid}");
        errors(&v, &invalid);
    }
}

#[test]
fn applicators_decided_by_the_instance_kind() {
    // Branches that the instance's kind alone decides are left out or resolved when the
    // lanes are planned, around a branch that recurs (and charges).
    let schema = json!({
        "$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
        "type": "array",
        "items": {
            "anyOf": [{"type": "null"}, {"type": "string"}, {"$ref": "#/$defs/tree"}],
            "oneOf": [
                {"type": "number"},
                {"type": "string", "minLength": 1},
                {"type": "array"},
                {"type": "null"}
            ],
            "not": {"type": "boolean"},
            "if": {"type": "string"},
            "then": {"maxLength": 3},
            "else": {"maxItems": 2}
        }
    });
    let valid = json!([null, "ab", [[]], []]);
    let need = same_budget_as_validate(&schema, &valid);
    let v = compiled_with_budget(&schema, need);
    for invalid in [
        json!([true]),
        json!([1]),
        json!([""]),
        json!(["abcd"]),
        json!([["x"]]),
        json!([[[], [], []]]),
    ] {
        assert_eq!(v.check(&invalid), Verdict::Invalid, "{invalid}");
        errors(&v, &invalid);
    }
}

#[test]
fn budget_counts_node_evaluations() {
    // {items: {type: integer}}: 1 for the root, then n charged before the loop starts.
    let mut b = Builder::new();
    let root = b.reserve("");
    let i = b.add(
        "/items",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    b.set(
        root,
        vec![check(
            "items",
            CheckKind::Items {
                schema: edge(i, "/items"),
                skip: 0,
            },
        )],
    );
    let v = b.build().with_limits(Limits {
        budget: 4,
        max_depth: 256,
        ..Limits::DEFAULT
    });
    assert_valid(&v, &json!([1, 2, 3]));
    assert_eq!(
        v.check(&json!([1, 2, 3, 4])),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    assert_eq!(
        v.validate(&json!([1, 2, 3, 4])).verdict,
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    // The loop is charged in bulk, before any item is looked at: an item that would fail
    // does not turn an unaffordable loop into a verdict.
    assert_eq!(v.check(&json!([1, 2.5, 3])), Verdict::Invalid);
    assert_eq!(v.validate(&json!([1, 2.5, 3])).verdict, Verdict::Invalid);
    assert_eq!(
        v.check(&json!([1, 2.5, 3, 4])),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
}

#[test]
fn budget_charges_unevaluated_locations() {
    // {unevaluatedProperties: {type: integer}}: 1 unit for the root + charge for 65
    // properties (2) + one per property. (A constant subschema, `true` or `false`, is no
    // evaluation and costs nothing: see the next test.)
    let mut b = Builder::new();
    let root = b.reserve("");
    let t = b.add(
        "/unevaluatedProperties",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    b.set(
        root,
        vec![check(
            "unevaluatedProperties",
            CheckKind::UnevaluatedProperties(edge(t, "/unevaluatedProperties")),
        )],
    );
    let object: serde_json::Map<String, Value> =
        (0..65).map(|i| (format!("k{i}"), json!(i))).collect();
    let instance = Value::Object(object);
    let exact = 1 + 2 + 65;
    let v = b.build().with_limits(Limits {
        budget: exact,
        max_depth: 256,
        ..Limits::DEFAULT
    });
    assert_valid(&v, &instance);
    let v = v.with_limits(Limits {
        budget: exact - 1,
        max_depth: 256,
        ..Limits::DEFAULT
    });
    assert_eq!(
        v.check(&instance),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
}

#[test]
fn budget_charges_nothing_for_constant_subschemas() {
    // {additionalProperties: false} over an object with no additional keys: the root's
    // unit only, however many keys it has (`false` applies to none of them).
    let mut b = Builder::new();
    let root = b.reserve("");
    let named = b.add("/properties/a", vec![]);
    let never = b.add(
        "/additionalProperties",
        vec![check("false", CheckKind::False)],
    );
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(vec![("a".to_string(), edge(named, "/properties/a"))]),
            ),
            check(
                "additionalProperties",
                CheckKind::AdditionalProperties {
                    schema: edge(never, "/additionalProperties"),
                    known: vec!["a".to_string()],
                    patterns: Vec::new(),
                },
            ),
        ],
    );
    let v = b.build().with_limits(Limits {
        budget: 1,
        ..Limits::DEFAULT
    });
    assert_valid(&v, &json!({"a": 1}));
    assert_eq!(errors(&v, &json!({"a": 1, "b": 2})).len(), 1);
    let v = v.with_limits(Limits {
        budget: 0,
        ..Limits::DEFAULT
    });
    assert_eq!(
        v.check(&json!({"a": 1})),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
}

/// Runs `f` on a thread with a 2 MiB stack.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no stack overflow");
}

/// `depth` nested arrays, built and torn down without recursion.
fn nested_arrays(depth: usize) -> Value {
    let mut v = json!([]);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

fn drop_nested(mut v: Value) {
    while let Value::Array(mut items) = v {
        v = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn deep_instance_is_incomplete_not_a_stack_overflow() {
    on_small_stack(|| {
        // {items: {$ref: "#"}, uniqueItems: true, const: ..}
        let mut b = Builder::new();
        let root = b.reserve("");
        let items = b.add("/items", vec![]);
        b.set(
            items,
            vec![check("$ref", CheckKind::Ref(edge(root, "/$ref")))],
        );
        b.set(
            root,
            vec![
                check("uniqueItems", CheckKind::UniqueItems),
                check("const", CheckKind::Const(nested_arrays(50))),
                check("type", CheckKind::Type(TypeSet::ARRAY)),
                check(
                    "items",
                    CheckKind::Items {
                        schema: edge(items, "/items"),
                        skip: 0,
                    },
                ),
            ],
        );
        let v = b.build();
        let deep = nested_arrays(10_000);
        let depth = IncompleteReason::DepthExceeded;
        // `const` fails at the root before the depth runs out: invalid, in both modes.
        assert_eq!(v.check(&deep), Verdict::Invalid);
        let report = v.validate(&deep);
        assert_eq!(report.verdict, Verdict::Invalid);
        // The plan forwards `items` straight to the root (its `$ref` wrapper is
        // collapsed), and each item is a step into the instance: the root runs at instance
        // depths 0 to 512, so 513 `const` errors, of which the report keeps the first 100.
        assert_eq!(report.errors.len(), 100);
        assert_eq!(
            report.errors_omitted,
            u64::from(Limits::DEFAULT_MAX_DEPTH) + 1 - 100
        );
        let twin = Value::Array(vec![nested_arrays(5_000), nested_arrays(5_000)]);
        assert_eq!(
            v.check(&twin),
            Verdict::Invalid,
            "uniqueItems on deep twins"
        );
        drop_nested(deep);
        if let Value::Array(items) = twin {
            items.into_iter().for_each(drop_nested);
        }

        // A schema without `const`: purely incomplete.
        let mut b = Builder::new();
        let root = b.reserve("");
        b.set(
            root,
            vec![check(
                "items",
                CheckKind::Items {
                    schema: edge(root, "/items"),
                    skip: 0,
                },
            )],
        );
        let v = b.build();
        let deep = nested_arrays(10_000);
        assert_eq!(v.check(&deep), Verdict::Incomplete(depth.clone()));
        assert_eq!(v.validate(&deep).verdict, Verdict::Incomplete(depth));
        drop_nested(deep);
    });
}

#[test]
fn ref_cycle_is_incomplete_not_a_stack_overflow() {
    on_small_stack(|| {
        let mut b = Builder::new();
        let root = b.reserve("");
        b.set(
            root,
            vec![check("$ref", CheckKind::Ref(edge(root, "/$ref")))],
        );
        let v = b.build();
        let depth = IncompleteReason::DepthExceeded;
        assert_eq!(v.check(&json!(1)), Verdict::Incomplete(depth.clone()));
        let report = v.validate(&json!(1));
        assert_eq!(report.verdict, Verdict::Incomplete(depth.clone()));

        // A cycle through a collecting node and the dynamic scope.
        let mut b = Builder::new();
        let root = b.reserve("");
        let t = b.add("/unevaluatedProperties", vec![]);
        b.set(
            root,
            vec![
                check(
                    "$dynamicRef",
                    CheckKind::DynamicRef {
                        fallback: edge(root, "/$dynamicRef"),
                        anchor: Some("a".into()),
                    },
                ),
                check(
                    "unevaluatedProperties",
                    CheckKind::UnevaluatedProperties(edge(t, "/unevaluatedProperties")),
                ),
            ],
        );
        b.program.resources[0]
            .dynamic_anchors
            .insert("a".into(), root);
        let v = b.build();
        assert_eq!(
            v.check(&json!({"x": 1})),
            Verdict::Incomplete(depth.clone())
        );
        assert_eq!(
            v.validate(&json!({"x": 1})).verdict,
            Verdict::Incomplete(depth)
        );
    });
}

#[test]
fn with_limits_default_is_the_programs() {
    let mut b = Builder::new();
    b.add("", vec![]);
    b.program.limits = Limits {
        budget: 7,
        max_depth: 3,
        ..Limits::DEFAULT
    };
    let v = b.build();
    assert_eq!(
        *v.limits(),
        Limits {
            budget: 7,
            max_depth: 3,
            ..Limits::DEFAULT
        }
    );
    assert_eq!(
        *v.with_limits(Limits::default()).limits(),
        Limits::default()
    );
}

#[test]
fn compiled_schema_errors_are_located_end_to_end() {
    let schema = json!({
        "$id": "https://example.com/s.json",
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/pos"}, "b~/c": false},
        "required": ["q"],
        "additionalProperties": {"type": "string"},
        "$defs": {"pos": {"$id": "pos.json", "minimum": 0}},
        "propertyNames": {"maxLength": 3}
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let v = Interpreter::new(program);
    assert_valid(&v, &json!({"q": "x", "a": 1}));
    let mut found = errors(&v, &json!({"a": -1, "b~/c": 1, "zzzz": 1}));
    found.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    let s = |x: &str| x.to_string();
    assert_eq!(
        found,
        vec![
            (
                s(""),
                s("/propertyNames/maxLength"),
                s("https://example.com/s.json#/propertyNames/maxLength"),
                ErrorKind::MaxLength { limit: 3 }
            ),
            (
                s(""),
                s("/propertyNames/maxLength"),
                s("https://example.com/s.json#/propertyNames/maxLength"),
                ErrorKind::MaxLength { limit: 3 }
            ),
            (
                s(""),
                s("/required"),
                s("https://example.com/s.json#/required"),
                ErrorKind::Required {
                    property: "q".into()
                }
            ),
            (
                s("/a"),
                s("/properties/a/$ref/minimum"),
                s("https://example.com/pos.json#/minimum"),
                ErrorKind::Minimum { limit: 0.0 }
            ),
            (
                s("/b~0~1c"),
                s("/properties/b~0~1c"),
                s("https://example.com/s.json#/properties/b~0~1c"),
                ErrorKind::FalseSchema
            ),
            (
                s("/zzzz"),
                s("/additionalProperties/type"),
                s("https://example.com/s.json#/additionalProperties/type"),
                ErrorKind::Type {
                    expected: TypeSet::STRING,
                    found: TypeSet::INTEGER,
                }
            ),
        ]
    );
}

#[test]
fn many_properties_with_additional_properties() {
    // 40 names (binary search in the fused pass) plus additionalProperties: false.
    let mut b = Builder::new();
    let root = b.reserve("");
    let int = b.add(
        "/$defs/int",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    let f = b.add("/additionalProperties", vec![check("", CheckKind::False)]);
    let names: Vec<String> = (0..40).rev().map(|i| format!("p{i}")).collect();
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(
                    names
                        .iter()
                        .map(|n| (n.clone(), edge(int, &format!("/properties/{n}"))))
                        .collect(),
                ),
            ),
            check(
                "additionalProperties",
                CheckKind::AdditionalProperties {
                    schema: edge(f, "/additionalProperties"),
                    known: names.clone(),
                    patterns: vec![],
                },
            ),
        ],
    );
    let v = b.build();
    let all: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), json!(1))).collect();
    assert_valid(&v, &Value::Object(all));
    let mut found = errors(&v, &json!({"p0": 1, "p39": "x", "p40": 1, "q": 1}));
    found.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].0, "/p39");
    assert_eq!(found[0].1, "/properties/p39/type");
    assert_eq!(found[1].1, "/additionalProperties");
    assert_eq!(found[2].0, "/q");
}

#[test]
fn interpreter_is_shareable_across_threads() {
    fn shareable<T: Send + Sync + 'static>(_: &T) {}
    let v = single("type", CheckKind::Type(TypeSet::STRING)).with_format("x", |s| !s.is_empty());
    shareable(&v);
    let v = std::sync::Arc::new(v);
    let worker = {
        let v = std::sync::Arc::clone(&v);
        std::thread::spawn(move || v.is_valid(&json!("s")))
    };
    assert!(worker.join().expect("worker"));
    assert!(!v.is_valid(&json!(1)));
}

#[test]
fn compiled_self_references_stop_at_the_depth_bound_on_a_small_stack() {
    on_small_stack(|| {
        let depth = Verdict::Incomplete(IncompleteReason::DepthExceeded);
        let compiler = crate::check::Compiler::new(crate::options::Options::default());
        let looping = Interpreter::new(compiler.compile(&json!({"$ref": "#"})).expect("compiles"));
        assert_eq!(looping.check(&json!(1)), depth);
        assert_eq!(looping.validate(&json!(1)).verdict, depth);

        let nested = Interpreter::new(
            compiler
                .compile(&json!({"items": {"$ref": "#"}, "unevaluatedItems": false}))
                .expect("compiles"),
        );
        let deep = nested_arrays(10_000);
        assert_eq!(nested.check(&deep), depth);
        assert_eq!(nested.validate(&deep).verdict, depth);
        drop_nested(deep);
        assert_valid(&nested, &nested_arrays(20));
    });
}

#[test]
fn depth_is_counted_again_under_limits_below_the_programs() {
    // No cycle and shallow: depth free under the program's limits, counted below them.
    let schema = json!({
        "properties": {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/x"}},
        "$defs": {"x": {"properties": {"c": {"type": "integer"}}}}
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let instance = json!({"a": {"c": 1}});
    let v = Interpreter::new(program);
    assert_eq!(v.check(&instance), Verdict::Valid);
    let v = v.with_limits(Limits {
        max_nesting: 0,
        ..Limits::DEFAULT
    });
    assert_eq!(
        v.check(&instance),
        Verdict::Incomplete(IncompleteReason::DepthExceeded)
    );
    let v = v.with_limits(Limits::DEFAULT);
    assert_eq!(v.check(&instance), Verdict::Valid);
}

#[test]
fn plan_charges_regions_on_entry_and_loops_per_element() {
    // The root's inline children are paid for on entry; a loop pays per element before
    // it starts; the budget needed is exact.
    let schema = json!({
        "properties": {"a": {"type": "integer"}, "b": {"minimum": 0}},
        "items": {"type": "integer"}
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let with = |budget| under_budget(&program, budget);
    // Root region: the root and its two `properties` children.
    assert_eq!(with(3).check(&json!({"a": 1})), Verdict::Valid);
    assert_eq!(
        with(2).check(&json!({"a": 1})),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    // Plus one per item.
    assert_eq!(with(6).check(&json!([1, 2, 3])), Verdict::Valid);
    assert_eq!(
        with(5).check(&json!([1, 2, 3])),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
}

#[test]
fn simple_nodes_in_a_loop_charge_as_validate_does() {
    // Arrays of number pairs (GeoJSON coordinates): short-circuit evaluation runs the
    // pair's simple checks on each item without entering it, yet needs the same budget
    // as `validate`, to the unit, valid or not.
    let schema = json!({
        "items": {"type": "array", "minItems": 2, "items": {"type": "number"}}
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    for instance in [
        json!([[1, 2], [3, 4.5], [5, 6]]),
        json!([[1, 2], [3], ["x", 6]]),
    ] {
        assert_check_charges_as_validate(&program, &instance);
    }
}

#[test]
fn max_errors_keeps_the_first_errors_and_counts_the_rest() {
    // The amplification of issue 9: `items` of objects with five `required` names.
    let schema = json!({"items": {"required": ["a", "b", "c", "d", "e"]}});
    let compile = |max_errors| {
        let options = crate::options::Options {
            limits: Limits {
                max_errors,
                ..Limits::DEFAULT
            },
            ..crate::options::Options::default()
        };
        Interpreter::new(
            crate::check::Compiler::new(options)
                .compile(&schema)
                .expect("compiles"),
        )
    };
    let rows = Value::Array(vec![json!({}); 10_000]);
    let v = compile(Limits::DEFAULT_MAX_ERRORS);
    let report = v.validate(&rows);
    assert_eq!(report.verdict, Verdict::Invalid);
    assert_eq!(report.errors.len(), Limits::DEFAULT_MAX_ERRORS);
    assert_eq!(report.errors_omitted, 50_000 - 100);
    // The first errors in evaluation order: item 0's five, then item 1's, ...
    assert_eq!(report.errors[0].instance_location, "/0");
    assert_eq!(
        report.errors[0].kind,
        ErrorKind::Required {
            property: Cow::Borrowed("a")
        }
    );
    assert_eq!(report.errors[99].instance_location, "/19");
    assert_eq!(
        report.errors[99].kind,
        ErrorKind::Required {
            property: Cow::Borrowed("e")
        }
    );
    // A bound of 0 keeps none but the verdict stays invalid.
    let report = compile(0).validate(&rows);
    assert_eq!(report.verdict, Verdict::Invalid);
    assert!(report.errors.is_empty());
    assert_eq!(report.errors_omitted, 50_000);
    // Under the bound nothing is omitted.
    let report = compile(7).validate(&json!([{"a": 1, "b": 1, "c": 1, "d": 1}]));
    assert_eq!((report.errors.len(), report.errors_omitted), (1, 0));
    let output = schemac_runtime::output::basic(&compile(7).validate(&rows));
    assert_eq!(output["errors"].as_array().map(Vec::len), Some(7));
    assert_eq!(output["errorsOmitted"], json!(50_000 - 7));
}

/// A compiled validator is what an MCP client keeps per cached tool: each node's plan
/// holds its rarely present parts behind pointers (a node of a 9,000-link `$ref` chain
/// kept 1,370 bytes before, 1,006 after; the plan record went from 728 bytes to 256).
#[test]
fn a_node_plan_stays_compact() {
    use crate::interp::plan::NodePlan;
    let size = std::mem::size_of::<NodePlan>();
    assert!(size <= 256, "NodePlan is {size} bytes");
}

#[test]
fn a_required_beside_a_pass_is_decided_before_its_deferred_entries() {
    // `d` (recursive) is deferred: it runs after the pass over the keys, and `required`
    // is decided between the two, as generated code decides it after its loop: an
    // object missing `b` fails before `d` runs, whatever `d` would cost. So with
    // `properties` alone, with `additionalProperties`, with `patternProperties`, on a
    // small object and on one past `FOLDED_REQUIRED_KEYS` keys (looked up by name).
    let tree = json!({"items": {"$ref": "#/$defs/tree"}});
    let deep = json!([[[[[[[[[[[[]]]]]]]]]]]]);
    for extra in [
        json!({}),
        json!({"additionalProperties": {"type": "integer"}}),
        json!({"patternProperties": {"^k": {"type": "integer"}}}),
    ] {
        let mut schema = json!({
            "$defs": {"tree": tree},
            "properties": {"b": true, "d": {"$ref": "#/$defs/tree"}},
            "required": ["b"]
        });
        for (keyword, value) in extra.as_object().expect("keywords") {
            schema[keyword] = value.clone();
        }
        for keys in [0, FOLDED_REQUIRED_KEYS + 1] {
            let object = |members: Value| {
                let mut object = members;
                for k in 0..keys {
                    object[format!("k{k}")] = json!(1);
                }
                object
            };
            let need = same_budget_as_validate(&schema, &object(json!({"b": 1, "d": [[]]})));
            let v = compiled_with_budget(&schema, need);
            let missing = object(json!({"d": deep}));
            assert_eq!(v.check(&missing), Verdict::Invalid, "{schema} on {missing}");
            let present = object(json!({"b": 1, "d": deep}));
            assert_eq!(
                v.check(&present),
                Verdict::Incomplete(IncompleteReason::BudgetExceeded),
                "{schema} on {present}"
            );
        }
    }
}
