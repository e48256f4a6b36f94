//! The array applicators and the `unevaluated*` keywords, with the dynamic scope.

use super::*;

#[test]
fn prefix_items_items_contains() {
    // prefixItems: [{type: string}], items: {type: integer}, contains: {minimum: 5},
    // minContains 2, maxContains 3
    let mut b = Builder::new();
    let root = b.reserve("");
    let s = b.add(
        "/prefixItems/0",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let i = b.add(
        "/items",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    let c = b.add(
        "/contains",
        vec![check("minimum", CheckKind::Minimum(num(json!(5))))],
    );
    b.set(
        root,
        vec![
            check(
                "prefixItems",
                CheckKind::PrefixItems(vec![edge(s, "/prefixItems/0")]),
            ),
            check(
                "items",
                CheckKind::Items {
                    schema: edge(i, "/items"),
                    skip: 1,
                },
            ),
            check(
                "contains",
                CheckKind::Contains {
                    schema: edge(c, "/contains"),
                    min: 2,
                    max: Some(3),
                },
            ),
        ],
    );
    let v = b.build();
    assert_valid(&v, &json!(["a", 5, 6]));
    assert_valid(&v, &json!({}));
    assert_eq!(
        errors(&v, &json!([1, 5, 6.5, 7, 8])),
        vec![
            at(
                "/0",
                "/prefixItems/0/type",
                ErrorKind::Type {
                    expected: TypeSet::STRING,
                    found: TypeSet::INTEGER,
                }
            ),
            at(
                "/2",
                "/items/type",
                ErrorKind::Type {
                    expected: TypeSet::INTEGER,
                    found: TypeSet::NUMBER,
                }
            ),
            at(
                "",
                "/contains",
                ErrorKind::Contains {
                    min: 2,
                    max: Some(3)
                }
            ),
        ]
    );
    assert_eq!(
        errors(&v, &json!(["a", 1])),
        vec![at(
            "",
            "/contains",
            ErrorKind::Contains {
                min: 2,
                max: Some(3)
            }
        )]
    );
    errors(&v, &json!(["a", 5, 6, 7, 8]));
    // minContains: 0 accepts an array with no match.
    let mut b = Builder::new();
    let root = b.reserve("");
    let f = b.add("/contains", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![check(
            "contains",
            CheckKind::Contains {
                schema: edge(f, "/contains"),
                min: 0,
                max: None,
            },
        )],
    );
    assert_valid(&b.build(), &json!([1, 2]));
}

/// `{properties: {a: true}, <applicator>, unevaluatedProperties: false}` where the
/// applicator's branches name `b` (`{properties: {b: true}, required: [b]}`) and `c`.
fn unevaluated_through(keyword: &str) -> Interpreter {
    let mut b = Builder::new();
    let root = b.reserve("");
    let t = b.add("/t", vec![]);
    let branch = |b: &mut Builder, name: &str, path: &str| {
        b.add(
            path,
            vec![
                check(
                    "properties",
                    CheckKind::Properties(vec![(
                        name.into(),
                        edge(t, &format!("/properties/{name}")),
                    )]),
                ),
                check("required", CheckKind::Required(vec![name.into()])),
            ],
        )
    };
    let n0 = branch(&mut b, "b", &format!("/{keyword}/0"));
    let n1 = branch(&mut b, "c", &format!("/{keyword}/1"));
    let e0 = edge(n0, &format!("/{keyword}/0"));
    let e1 = edge(n1, &format!("/{keyword}/1"));
    let applicator = match keyword {
        "allOf" => CheckKind::AllOf(vec![e0, e1]),
        "anyOf" => CheckKind::AnyOf(vec![e0, e1]),
        "oneOf" => CheckKind::OneOf(vec![e0, e1]),
        "if" => CheckKind::IfThenElse {
            condition: edge(n0, "/if"),
            then: Some(edge(n1, "/then")),
            otherwise: None,
        },
        "$ref" => CheckKind::Ref(edge(n0, "/$ref")),
        "dependentSchemas" => CheckKind::DependentSchemas(vec![("x".into(), e0)]),
        "not" => CheckKind::Not(e0),
        _ => unreachable!(),
    };
    let f = b.add("/unevaluatedProperties", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(vec![("a".into(), edge(t, "/properties/a"))]),
            ),
            check(keyword, applicator),
            check(
                "unevaluatedProperties",
                CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
            ),
        ],
    );
    b.build_at(root)
}

/// The error of `unevaluatedProperties: false` on property `key`, which no subschema
/// declares, the allowed names listed as `allowed` says.
fn unevaluated_error(key: &str, allowed: &str) -> Located {
    refused_error(key, allowed, false)
}

/// [`unevaluated_error`] for a property that a subschema declares (and failed on).
fn refused_error(key: &str, allowed: &str, declared: bool) -> Located {
    at(
        &format!("/{key}"),
        "/unevaluatedProperties",
        ErrorKind::PropertyNotAllowed {
            property: key.to_string().into(),
            allowed: allowed.to_string().into(),
            declared,
        },
    )
}

#[test]
fn unevaluated_properties_see_valid_in_place_children() {
    let v = unevaluated_through("allOf");
    assert!(v.program().nodes[2].collect.properties);
    assert!(!v.program().nodes[1].collect.properties);
    assert_valid(&v, &json!({"a": 1, "b": 1, "c": 1}));
    assert_eq!(
        errors(&v, &json!({"a": 1, "b": 1, "c": 1, "d": 1})),
        vec![unevaluated_error("d", r#""a", "b", "c""#)]
    );

    let v = unevaluated_through("anyOf");
    // Both branches valid: both contribute (every branch is evaluated).
    assert_valid(&v, &json!({"a": 1, "b": 1, "c": 1}));
    assert_valid(&v, &json!({"b": 1}));
    assert_valid(&v, &json!({"c": 1}));
    assert_eq!(
        errors(&v, &json!({"c": 1, "y": 1})),
        vec![unevaluated_error("y", "")]
    );

    let v = unevaluated_through("oneOf");
    assert_valid(&v, &json!({"a": 1, "b": 1}));
    assert_eq!(
        errors(&v, &json!({"a": 1, "c": 1, "x": 1})),
        vec![unevaluated_error("x", "")]
    );

    // Both branches valid: oneOf fails, and both branches' names still count for the
    // node's own unevaluatedProperties (every valid in-place child contributes).
    assert_eq!(
        errors(&v, &json!({"b": 1, "c": 1, "z": 1})),
        vec![
            at("", "/oneOf", one_of(&[0, 1])),
            unevaluated_error("z", ""),
        ]
    );

    let v = unevaluated_through("if");
    // `if` valid: its `b` and `then`'s `c` are evaluated.
    assert_valid(&v, &json!({"b": 1, "c": 1}));
    // `if` fails (no `b`): its annotations are dropped; `c` is unevaluated.
    assert_eq!(
        errors(&v, &json!({"c": 1})),
        vec![unevaluated_error("c", "")]
    );

    let v = unevaluated_through("$ref");
    assert_valid(&v, &json!({"a": 1, "b": 1}));
    assert_eq!(
        errors(&v, &json!({"b": 1, "c": 1})),
        vec![unevaluated_error("c", r#""a", "b""#)]
    );

    let v = unevaluated_through("dependentSchemas");
    assert_valid(&v, &json!({"a": 1}));
    assert_eq!(
        errors(&v, &json!({"x": 1, "b": 1})),
        vec![unevaluated_error("x", "")]
    );
    assert_eq!(
        errors(&v, &json!({"b": 1})),
        vec![unevaluated_error("b", "")]
    );

    let v = unevaluated_through("not");
    // `not` never contributes annotations.
    assert_eq!(
        errors(&v, &json!({"c": 1})),
        vec![unevaluated_error("c", r#""a""#)]
    );
}

#[test]
fn invalid_children_contribute_nothing_even_when_reporting() {
    // {properties: {a: {type: string}}, allOf: [{properties: {b: {type: string}}}],
    //  unevaluatedProperties: false}
    let mut b = Builder::new();
    let root = b.reserve("");
    let a = b.add(
        "/properties/a",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let branch = b.reserve("/allOf/0");
    let bs = b.add(
        "/allOf/0/properties/b",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    b.set(
        branch,
        vec![check(
            "properties",
            CheckKind::Properties(vec![("b".into(), edge(bs, "/properties/b"))]),
        )],
    );
    let f = b.add("/unevaluatedProperties", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(vec![("a".into(), edge(a, "/properties/a"))]),
            ),
            check("allOf", CheckKind::AllOf(vec![edge(branch, "/allOf/0")])),
            check(
                "unevaluatedProperties",
                CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
            ),
        ],
    );
    let v = b.build();
    assert_valid(&v, &json!({"a": "s", "b": "t"}));
    // The node's own `properties` counts even when its subschema fails.
    assert_eq!(
        errors(&v, &json!({"a": 1})),
        vec![at(
            "/a",
            "/properties/a/type",
            ErrorKind::Type {
                expected: TypeSet::STRING,
                found: TypeSet::INTEGER,
            }
        )]
    );
    // The failed in-place child's `b` is dropped: `b` is also unevaluated.
    assert_eq!(
        errors(&v, &json!({"b": 1})),
        vec![
            at(
                "/b",
                "/allOf/0/properties/b/type",
                ErrorKind::Type {
                    expected: TypeSet::STRING,
                    found: TypeSet::INTEGER,
                }
            ),
            refused_error("b", r#""a", "b""#, true),
        ]
    );
}

#[test]
fn unevaluated_properties_in_a_nested_node_sees_only_its_own_locations() {
    // {properties: {a: true}, allOf: [{unevaluatedProperties: false}]}: the inner
    // unevaluatedProperties does not see the parent's `a`.
    let mut b = Builder::new();
    let root = b.reserve("");
    let t = b.add("/properties/a", vec![]);
    let inner = b.reserve("/allOf/0");
    let f = b.add(
        "/allOf/0/unevaluatedProperties",
        vec![check("", CheckKind::False)],
    );
    b.set(
        inner,
        vec![check(
            "unevaluatedProperties",
            CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
        )],
    );
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(vec![("a".into(), edge(t, "/properties/a"))]),
            ),
            check("allOf", CheckKind::AllOf(vec![edge(inner, "/allOf/0")])),
        ],
    );
    let v = b.build();
    assert_valid(&v, &json!({}));
    assert_eq!(
        errors(&v, &json!({"a": 1})),
        vec![at("/a", "/allOf/0/unevaluatedProperties", not_allowed("a"))]
            .into_iter()
            .map(|(i, k, _, e)| (i, k, format!("{BASE}#/allOf/0/unevaluatedProperties"), e))
            .collect::<Vec<_>>()
    );
}

#[test]
fn unevaluated_properties_with_pattern_and_additional() {
    // additionalProperties covers everything: unevaluatedProperties sees nothing left.
    let mut b = Builder::new();
    let root = b.reserve("");
    let t = b.add("/additionalProperties", vec![]);
    let f = b.add("/unevaluatedProperties", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![
            check(
                "additionalProperties",
                CheckKind::AdditionalProperties {
                    schema: edge(t, "/additionalProperties"),
                    known: vec![],
                    patterns: vec![],
                },
            ),
            check(
                "unevaluatedProperties",
                CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
            ),
        ],
    );
    let v = b.build();
    assert_valid(&v, &json!({"x": 1, "y": 2}));
}

#[test]
fn unevaluated_items() {
    // {prefixItems: [true], contains: {type: string}, unevaluatedItems: {type: integer}}
    // plus anyOf: [{items: true}] gated on minItems 5.
    let mut b = Builder::new();
    let root = b.reserve("");
    let t = b.add("/prefixItems/0", vec![]);
    let s = b.add(
        "/contains",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let gate = b.reserve("/anyOf/0");
    let all = b.add("/anyOf/0/items", vec![]);
    b.set(
        gate,
        vec![
            check("minItems", CheckKind::MinItems(5)),
            check(
                "items",
                CheckKind::Items {
                    schema: edge(all, "/items"),
                    skip: 0,
                },
            ),
        ],
    );
    let never = b.add("/anyOf/1", vec![]);
    let u = b.add(
        "/unevaluatedItems",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    b.set(
        root,
        vec![
            check(
                "prefixItems",
                CheckKind::PrefixItems(vec![edge(t, "/prefixItems/0")]),
            ),
            check(
                "contains",
                CheckKind::Contains {
                    schema: edge(s, "/contains"),
                    min: 0,
                    max: None,
                },
            ),
            check(
                "anyOf",
                CheckKind::AnyOf(vec![edge(gate, "/anyOf/0"), edge(never, "/anyOf/1")]),
            ),
            check(
                "unevaluatedItems",
                CheckKind::UnevaluatedItems(edge(u, "/unevaluatedItems")),
            ),
        ],
    );
    let v = b.build();
    assert_valid(&v, &json!([null, "s", 1, "t"]));
    assert_eq!(
        errors(&v, &json!([null, "s", 1.5, "t"])),
        vec![at(
            "/2",
            "/unevaluatedItems/type",
            ErrorKind::Type {
                expected: TypeSet::INTEGER,
                found: TypeSet::NUMBER,
            }
        )]
    );
    // Five items: the first anyOf branch is valid and its `items` covers everything.
    assert_valid(&v, &json!([null, 1.5, 1.5, 1.5, 1.5]));
}

/// The 2020-12 spec's tree / strict-tree example, entered at strict-tree, or at tree
/// where `at_tree`.
fn strict_tree(at_tree: bool) -> Interpreter {
    let mut b = Builder::new();
    // Resource 0: strict-tree.
    let tree_res = b.resource("https://example.com/tree");
    let strict = b.reserve("");
    let tree = b.reserve_in(tree_res, "");
    let children = b.reserve_in(tree_res, "/properties/children");
    let item = b.reserve_in(tree_res, "/properties/children/items");
    let f = b.add("/unevaluatedProperties", vec![check("", CheckKind::False)]);
    b.set(
        strict,
        vec![
            check("$ref", CheckKind::Ref(edge(tree, "/$ref"))),
            check(
                "unevaluatedProperties",
                CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
            ),
        ],
    );
    b.set(
        tree,
        vec![
            check("type", CheckKind::Type(TypeSet::OBJECT)),
            check(
                "properties",
                CheckKind::Properties(vec![(
                    "children".into(),
                    edge(children, "/properties/children"),
                )]),
            ),
        ],
    );
    b.set(
        children,
        vec![
            check("type", CheckKind::Type(TypeSet::ARRAY)),
            check(
                "items",
                CheckKind::Items {
                    schema: edge(item, "/items"),
                    skip: 0,
                },
            ),
        ],
    );
    b.set(
        item,
        vec![check(
            "$dynamicRef",
            CheckKind::DynamicRef {
                fallback: edge(tree, "/$dynamicRef"),
                anchor: Some("node".into()),
            },
        )],
    );
    b.program.resources[0]
        .dynamic_anchors
        .insert("node".into(), strict);
    b.program.resources[tree_res.0]
        .dynamic_anchors
        .insert("node".into(), tree);
    b.build_at(if at_tree { tree } else { strict })
}

#[test]
fn dynamic_ref_resolves_to_the_outermost_anchor() {
    let v = strict_tree(false);
    // The root declares the anchor, so the reference lands there whatever the scope:
    // resolved when the program is planned.
    assert!(!v.program().uses_dynamic_scope);
    assert_valid(&v, &json!({"children": [{"children": []}]}));
    // The nested typo is caught: the dynamic reference resolves to strict-tree.
    assert_eq!(
        errors(&v, &json!({"children": [{"daat": 1}]})),
        vec![
            (
                "/children/0/daat".into(),
                "/$ref/properties/children/items/$dynamicRef/unevaluatedProperties".into(),
                format!("{BASE}#/unevaluatedProperties"),
                ErrorKind::PropertyNotAllowed {
                    property: "daat".into(),
                    allowed: r#""children""#.into(),
                    declared: false,
                }
            ),
            // tree failed, so its `children` annotation is dropped too.
            at(
                "/children",
                "/unevaluatedProperties",
                ErrorKind::PropertyNotAllowed {
                    property: "children".into(),
                    allowed: r#""children""#.into(),
                    declared: true,
                }
            )
        ]
    );

    // Entered at tree itself, the reference stays in tree: no unevaluatedProperties.
    let tree_only = strict_tree(true);
    assert_valid(&tree_only, &json!({"children": [{"daat": 1}]}));
}
