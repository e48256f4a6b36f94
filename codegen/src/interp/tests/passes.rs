//! Short-circuit evaluation's plans: deferred properties, `required` found in a pass or by lookups, the name table, property indexes, spliced steps.

use super::*;

#[test]
fn deferred_properties_run_in_entry_order_with_the_values_found() {
    // Recursive entries run after the object's other properties, in entry order (here
    // not the instance's), one found with its value and several looked up by name.
    let mut b = Builder::new();
    let root = b.reserve("");
    let x = b.add(
        "/properties/x",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    b.set(
        root,
        vec![check(
            "properties",
            CheckKind::Properties(vec![
                ("b".into(), edge(root, "/properties/b")),
                ("x".into(), edge(x, "/properties/x")),
                ("a".into(), edge(root, "/properties/a")),
            ]),
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!({"a": {"b": {"x": "s"}}, "x": "t"}));
    assert_valid(&v, &json!({"a": {}, "b": {"a": {}}, "c": 1}));
    let string = || ErrorKind::Type {
        expected: TypeSet::STRING,
        found: TypeSet::INTEGER,
    };
    let x_type = format!("{BASE}#/properties/x/type");
    let at_x =
        |instance: &str, keyword: &str| (instance.into(), keyword.into(), x_type.clone(), string());
    assert_eq!(
        errors(&v, &json!({"a": {"x": 1}, "b": {"x": 2}, "x": 3})),
        vec![
            at_x("/x", "/properties/x/type"),
            at_x("/b/x", "/properties/b/properties/x/type"),
            at_x("/a/x", "/properties/a/properties/x/type"),
        ]
    );
    assert_eq!(v.check(&json!({"b": {"x": 1}})), Verdict::Invalid);
    assert_eq!(v.check(&json!({"a": {}, "b": {"x": 1}})), Verdict::Invalid);
    let program = v.program().clone();
    for instance in [
        json!({"b": {"a": {"x": "s"}}, "x": "t"}),
        json!({"a": {"b": {}}, "b": {"a": {}}}),
        json!({"a": {"x": 1}, "b": {}}),
    ] {
        assert_check_charges_as_validate(&program, &instance);
    }
}

#[test]
fn required_names_are_found_in_one_pass_or_by_lookups() {
    // Several names (one repeated, one longer than a head) in one pass over a small
    // object; a large object, and more than 64 names, by a lookup of each name.
    let long = "a_name_longer_than_sixteen_bytes";
    let mut names: Vec<String> = ["id", "name", "id", long].map(String::from).to_vec();
    let v = single("required", CheckKind::Required(names.clone()));
    assert_valid(&v, &json!({"id": 1, "name": 2, long: 3}));
    assert_valid(&v, &json!({"id": 1, "name": 2, long: 3, "x": 4}));
    let missing = |name: &str| ErrorKind::Required {
        property: Cow::Owned(name.into()),
    };
    assert_eq!(
        errors(
            &v,
            &json!({"id": 1, "name": 2, "a_name_longer_than_sixteen_byteS": 3})
        ),
        vec![at("", "/required", missing(long))]
    );
    assert_eq!(
        errors(&v, &json!({"name": 2, long: 3})),
        vec![
            at("", "/required", missing("id")),
            at("", "/required", missing("id"))
        ]
    );
    let mut large: serde_json::Map<String, Value> =
        (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
    assert_eq!(v.check(&Value::Object(large.clone())), Verdict::Invalid);
    for name in &names {
        large.insert(name.clone(), json!(0));
    }
    assert_valid(&v, &Value::Object(large));
    names = (0..70).map(|i| format!("n{i}")).collect();
    let v = single("required", CheckKind::Required(names.clone()));
    let all: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), json!(0))).collect();
    assert_valid(&v, &Value::Object(all.clone()));
    let mut some = all;
    some.remove("n69");
    assert_eq!(
        errors(&v, &Value::Object(some)),
        vec![at("", "/required", missing("n69"))]
    );
}

#[test]
fn unevaluated_properties_by_name_agree_with_positions() {
    // Short-circuit evaluation records the names of `properties` (the conditions
    // looked up, the `allOf` members run in their parent's loop); `validate` records
    // positions: the verdicts agree.
    let schema = json!({
        "type": ["object", "array"],
        "properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}},
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "a"}}},
                "then": {"properties": {"x": {"type": "integer"}}, "required": ["x"]},
                "else": {"properties": {"y": {"type": "string"}}}
            },
            {"allOf": [{"properties": {"z": true}}, {"not": {"required": ["w"]}}]},
            {"anyOf": [{"properties": {"p": {"minimum": 1}}}, {"required": ["q"]}]}
        ],
        "unevaluatedProperties": false
    });
    let v = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .map(Interpreter::new)
        .expect("compiles");
    let instances = [
        json!({"kind": "a", "x": 1}),
        json!({"kind": "a", "x": 1, "z": 0, "p": 2}),
        json!({"kind": "a", "x": 1, "y": "s"}),
        json!({"kind": "a"}),
        json!({"kind": "b", "y": "s", "n": 3}),
        json!({"kind": "b", "x": 1}),
        json!({"kind": "b", "y": "s", "p": 1}),
        json!({"x": 1}),
        json!({"kind": "a", "x": 1, "p": 0}),
        json!({"kind": "a", "x": 1, "q": 0}),
        json!({"kind": "a", "x": 1, "w": 0}),
        json!({"kind": "c"}),
        json!({"y": "s"}),
        json!([1, 2]),
    ];
    for instance in &instances {
        assert_eq!(
            v.check(instance),
            v.validate(instance).verdict,
            "{instance}"
        );
    }
    assert_eq!(v.check(&instances[0]), Verdict::Valid);
    assert_eq!(v.check(&instances[2]), Verdict::Invalid);
    assert_eq!(v.check(&instances[6]), Verdict::Valid);
    assert_eq!(v.check(&instances[9]), Verdict::Invalid);
}

#[test]
fn the_name_table_is_one_for_the_program() {
    // Every node with `unevaluatedProperties` reads the program's one table of names: a
    // copy per node grew as the square of the schema (2,400 such nodes of one name each
    // took 665 MB to plan).
    let nodes = 50;
    let defs: serde_json::Map<String, Value> = (0..nodes)
        .map(|i| {
            let def =
                json!({"unevaluatedProperties": false, "properties": {format!("p{i}"): true}});
            (format!("u{i}"), def)
        })
        .collect();
    let refs: Vec<Value> = (0..nodes)
        .map(|i| json!({"$ref": format!("#/$defs/u{i}")}))
        .collect();
    let schema = json!({"unevaluatedProperties": false, "allOf": refs, "$defs": defs});
    let v = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .map(Interpreter::new)
        .expect("compiles");
    let tables: Vec<_> = v
        .plans
        .iter()
        .filter_map(|p| p.name_table.as_ref())
        .collect();
    assert_eq!(tables.len(), nodes + 1, "the root and each definition");
    assert!(tables.iter().all(|t| std::sync::Arc::ptr_eq(t, tables[0])));
    assert!(
        !v.is_valid(&json!({"p0": 1})),
        "p0 is not evaluated beside u1"
    );
}

#[test]
fn a_property_index_finds_each_name_and_nothing_else() {
    use crate::interp::index::PropertyIndex;
    let long = "a-name-longer-than-sixteen-bytes";
    let sets: Vec<Vec<String>> = vec![
        vec![],
        vec!["a".into()],
        vec![
            "currency",
            "amount",
            "priority",
            "tags",
            "recipient",
            "memo",
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        // Same heads (first and last eight bytes), different middles: told apart by name.
        vec![format!("{long}-x-{long}"), format!("{long}-y-{long}")],
        // A name twice: found at its first occurrence.
        vec!["b".into(), "c".into(), "b".into()],
        (0..12).map(|i| format!("k{i}")).collect(),
        // Many names: hashed into buckets.
        (0..40).map(|i| format!("property{i}")).collect(),
    ];
    for names in &sets {
        let index = PropertyIndex::new(names.iter().map(String::as_str));
        let name = |i: usize| names.get(i).map(String::as_str);
        for (i, key) in names.iter().enumerate() {
            let first = names.iter().position(|n| n == key);
            assert_eq!(index.find(key, name), first, "{key} in {names:?}");
            assert!(first <= Some(i));
        }
        for key in ["", "z", "k12", "amounts", "curren", "property40", long] {
            assert_eq!(index.find(key, name), None, "{key} in {names:?}");
        }
    }
}

#[test]
fn spliced_single_properties_are_found_in_one_pass_and_applied_in_order() {
    use crate::interp::plan::{Fast, Op};
    use crate::ir::kind::Kind;
    // `allOf` members of one property each (as tsconfig's schema is written), spliced
    // into the root in plan order (lightest first: `z`, `b`, `z`, `c`, the tree `t`): runs
    // of distinct names become one lookup op; a name again ends a run.
    let schema = json!({
        "$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
        "allOf": [
            {"properties": {"z": {"type": "string"}}},
            {"properties": {"b": {"minimum": 2}}},
            {"properties": {"t": {"$ref": "#/$defs/tree"}}},
            {"properties": {"z": {"maxLength": 3}}},
            {"properties": {"c": {"type": "array", "maxItems": 1}}}
        ]
    });
    let v = compiled_with_budget(&schema, Limits::default().budget);
    let root = &v.plans[v.shared.program.root.0];
    // Its ops, run on its fast path or, out of line, once entered.
    let lanes = match &root.fast {
        Fast::Ops(lanes) => lanes,
        _ => root.ops.as_deref().expect("entered ops"),
    };
    let lookups: Vec<usize> = (lanes.lane(Kind::Object).steps.iter())
        .filter_map(|op| match op {
            Op::Lookups(lookups) => Some(lookups.entries.len()),
            _ => None,
        })
        .collect();
    assert_eq!(lookups, [2, 3], "{:?}", lanes.lane(Kind::Object).steps);
    let filler = |n: usize| (0..n).map(|i| (format!("k{i}"), json!(i)));
    for extra in [0, 10] {
        let with = |pairs: Value| {
            let mut object = pairs.as_object().cloned().unwrap_or_default();
            object.extend(filler(extra));
            Value::Object(object)
        };
        for valid in [json!({}), json!({"z": "abc", "b": 2, "t": [[]], "c": [1]})] {
            assert_valid(&v, &with(valid));
        }
        for invalid in [
            json!({"z": 1}),
            json!({"z": "abcd"}),
            json!({"b": 1}),
            json!({"t": [[], 1]}),
            json!({"z": "x", "b": 3, "c": [1, 2]}),
        ] {
            let instance = with(invalid);
            assert_eq!(v.check(&instance), Verdict::Invalid, "{instance}");
            assert_eq!(
                v.validate(&instance).verdict,
                Verdict::Invalid,
                "{instance}"
            );
        }
    }
    assert_valid(&v, &json!("not an object"));
    // The budget: spent as `validate` spends it, out-of-line applications in entry order.
    same_budget_as_validate(&schema, &json!({"c": [], "t": [[[]], []], "b": 5, "z": ""}));
    // In entry order, not key order: "z" fails before the deep tree at "t" is entered,
    // under a budget that the tree would exhaust.
    let least = (1..10_000)
        .find(|&b| compiled_with_budget(&schema, b).check(&json!({"z": 1})) == Verdict::Invalid)
        .expect("a budget that suffices");
    let deep = (0..50).fold(json!([]), |tree, _| json!([tree]));
    let v = compiled_with_budget(&schema, least);
    assert_eq!(v.check(&json!({"z": 1, "t": deep})), Verdict::Invalid);
}

#[test]
fn spliced_properties_of_distinct_names_run_in_one_pass() {
    use crate::interp::plan::{Fast, Op};
    use crate::ir::kind::Kind;
    // `allOf` members with `properties` of their own (as stylelint's rule groups are
    // written), spliced into the root: a run of distinct names becomes one `properties`
    // step over all their entries; a run where a name comes again stays as it is.
    let steps = |schema: &Value| {
        let v = compiled_with_budget(schema, Limits::default().budget);
        let root = &v.plans[v.shared.program.root.0];
        let lanes = match &root.fast {
            Fast::Ops(lanes) => lanes,
            _ => root.ops.as_deref().expect("entered ops"),
        };
        let steps: Vec<(&str, usize)> = (lanes.lane(Kind::Object).steps.iter())
            .map(|op| match op {
                Op::Properties(properties) => ("properties", properties.entries.len()),
                Op::Property(_) => ("property", 1),
                Op::Lookups(lookups) => ("lookups", lookups.entries.len()),
                _ => ("other", 0),
            })
            .collect();
        (v, steps)
    };
    let distinct = json!({"allOf": [
        {"properties": {"a": {"type": "string"}, "b": {"minimum": 2}}},
        {"properties": {"c": {"type": "array", "maxItems": 1}}},
        {"properties": {"d": {"maxLength": 3}, "e": {"type": "boolean"}}}
    ]});
    let (v, found) = steps(&distinct);
    assert_eq!(found, [("properties", 5)]);
    for valid in [
        json!({}),
        json!({"a": "x", "b": 2, "c": [1], "d": "abc", "e": true, "f": 0}),
    ] {
        assert_valid(&v, &valid);
    }
    for invalid in [
        json!({"a": 1}),
        json!({"b": 1}),
        json!({"c": [1, 2]}),
        json!({"d": "abcd"}),
        json!({"a": "x", "e": 1}),
    ] {
        assert_eq!(v.check(&invalid), Verdict::Invalid, "{invalid}");
        assert_eq!(v.validate(&invalid).verdict, Verdict::Invalid, "{invalid}");
    }
    same_budget_as_validate(&distinct, &json!({"e": false, "c": [], "a": ""}));
    let again = json!({"allOf": [
        {"properties": {"a": {"type": "string"}, "b": {"minimum": 2}}},
        {"properties": {"a": {"maxLength": 3}}}
    ]});
    let (v, found) = steps(&again);
    // (The lighter member first: the plan orders `allOf` members by weight.)
    assert_eq!(found, [("property", 1), ("properties", 2)]);
    assert_valid(&v, &json!({"a": "abc"}));
    assert_eq!(v.check(&json!({"a": "abcd"})), Verdict::Invalid);
    assert_eq!(v.check(&json!({"a": 1})), Verdict::Invalid);
}

#[test]
fn a_pattern_applying_an_always_valid_subschema_is_tried_only_where_it_covers_a_key() {
    // `f.*: true` does nothing at a key it matches: neither mode tries it (nor charges
    // its match), as generated code does not, so the budget spent is the one spent
    // without it.
    let spent = |schema: &Value, instance: &Value| {
        let v = compiled_with_budget(schema, 1_000);
        (v.check_with_usage(instance), v.validate(instance).usage)
    };
    let dead = json!({"patternProperties": {"f.*": true, "b.*": {"type": "integer"}}});
    let without = json!({"patternProperties": {"b.*": {"type": "integer"}}});
    for instance in [
        json!({"foo": 1, "bar": 2}),
        json!({"foobar": "x"}),
        json!({"f": 1}),
    ] {
        assert_eq!(
            spent(&dead, &instance),
            spent(&without, &instance),
            "{instance}"
        );
    }
    // Where it covers keys from `additionalProperties` it is tried, and matches.
    let closed = compiled_with_budget(
        &json!({"patternProperties": {"f.*": true}, "additionalProperties": false}),
        1_000,
    );
    assert_eq!(closed.check(&json!({"foo": 1})), Verdict::Valid);
    assert_eq!(closed.check(&json!({"bar": 1})), Verdict::Invalid);
    // So it is where the node records what it evaluates, for `unevaluatedProperties`.
    let recorded = compiled_with_budget(
        &json!({"allOf": [{"patternProperties": {"f.*": true}}], "unevaluatedProperties": false}),
        1_000,
    );
    assert_eq!(recorded.check(&json!({"foo": 1})), Verdict::Valid);
    assert_eq!(
        recorded.validate(&json!({"bar": 1})).verdict,
        Verdict::Invalid
    );
}

#[test]
fn property_names_runs_in_the_pass_and_is_charged_before_it() {
    // With `additionalProperties` (or `properties`), `propertyNames` joins the one pass
    // over the keys and every key's share is charged before the pass starts, as
    // generated code charges its loop: a key failing `additionalProperties` stops the
    // pass after the same charge as a valid object of as many keys.
    for schema in [
        json!({"additionalProperties": {"type": "number"}, "propertyNames": {"maxLength": 5}}),
        json!({"properties": {"pear": {"type": "number"}}, "propertyNames": {"maxLength": 5}}),
    ] {
        let v = compiled_with_budget(&schema, 1_000);
        let (verdict, invalid) = v.check_with_usage(&json!({"fig": 2, "pear": "ripe"}));
        assert_eq!(verdict, Verdict::Invalid, "{schema}");
        let (verdict, valid) = v.check_with_usage(&json!({"fig": 2, "pear": 3}));
        assert_eq!(verdict, Verdict::Valid, "{schema}");
        assert_eq!(invalid, valid, "{schema}");
        // A long name fails at the object, in either mode.
        let long = json!({"pineapple": 1});
        assert_eq!(v.check(&long), Verdict::Invalid, "{schema}");
        let errors = v.validate(&long).errors;
        assert_eq!(errors.len(), 1, "{schema}: {errors:?}");
        assert_eq!(errors[0].instance_location, "", "{schema}");
    }
}
