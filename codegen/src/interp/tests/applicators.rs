//! The in-place and object applicators: `false`, `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`, `dependentSchemas`, `properties` / `patternProperties` / `additionalProperties`, `propertyNames`.

use super::*;

#[test]
fn false_schema_is_located_at_its_node() {
    let mut b = Builder::new();
    let root = b.reserve("");
    let f = b.add("/properties/a~1b", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![check(
            "properties",
            CheckKind::Properties(vec![("a/b".into(), edge(f, "/properties/a~1b"))]),
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!({"c": 1}));
    assert_eq!(
        errors(&v, &json!({"a/b": 1})),
        vec![at("/a~1b", "/properties/a~1b", ErrorKind::FalseSchema)]
    );

    let v = single("", CheckKind::False);
    assert_eq!(
        errors(&v, &json!(null)),
        vec![(
            "".into(),
            "".into(),
            format!("{BASE}#"),
            ErrorKind::FalseSchema
        )]
    );
}

#[test]
fn ref_passes_errors_up_with_the_targets_absolute_location() {
    let mut b = Builder::new();
    let other = b.resource("https://example.com/other.json");
    let root = b.reserve("");
    let target = b.reserve_in(other, "/$defs/positive");
    b.set(
        target,
        vec![check("minimum", CheckKind::Minimum(num(json!(1))))],
    );
    b.set(
        root,
        vec![check("$ref", CheckKind::Ref(edge(target, "/$ref")))],
    );
    let v = b.build();
    assert_valid(&v, &json!(3));
    assert_eq!(
        errors(&v, &json!(0)),
        vec![(
            "".into(),
            "/$ref/minimum".into(),
            "https://example.com/other.json#/$defs/positive/minimum".into(),
            ErrorKind::Minimum { limit: 1.0 }
        )]
    );
}

/// `allOf: [{type: string}, {minLength: 3}]`.
fn all_of() -> Interpreter {
    let mut b = Builder::new();
    let root = b.reserve("");
    let s = b.add(
        "/allOf/0",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let m = b.add(
        "/allOf/1",
        vec![check("minLength", CheckKind::MinLength(3))],
    );
    b.set(
        root,
        vec![check(
            "allOf",
            CheckKind::AllOf(vec![edge(s, "/allOf/0"), edge(m, "/allOf/1")]),
        )],
    );
    b.build()
}

#[test]
fn all_of_reports_every_failing_branch() {
    let v = all_of();
    assert_valid(&v, &json!("abc"));
    assert_eq!(
        errors(&v, &json!("ab")),
        vec![at(
            "",
            "/allOf/1/minLength",
            ErrorKind::MinLength { limit: 3 }
        )]
    );
    assert_eq!(
        errors(&v, &json!(5)),
        vec![at(
            "",
            "/allOf/0/type",
            ErrorKind::Type {
                expected: TypeSet::STRING,
                found: TypeSet::INTEGER,
            }
        )]
    );
}

/// `{<keyword>: [{type: integer}, {minimum: 0}]}` for anyOf / oneOf.
fn two_branches(keyword: &str, make: fn(Vec<Edge>) -> CheckKind) -> Interpreter {
    let mut b = Builder::new();
    let root = b.reserve("");
    let i = b.add(
        &format!("/{keyword}/0"),
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    let m = b.add(
        &format!("/{keyword}/1"),
        vec![check("minimum", CheckKind::Minimum(num(json!(0))))],
    );
    b.set(
        root,
        vec![check(
            keyword,
            make(vec![
                edge(i, &format!("/{keyword}/0")),
                edge(m, &format!("/{keyword}/1")),
            ]),
        )],
    );
    b.build()
}

#[test]
fn any_of_and_one_of_give_one_error_of_their_own() {
    let v = two_branches("anyOf", CheckKind::AnyOf);
    assert_valid(&v, &json!(-1));
    assert_valid(&v, &json!(0.5));
    assert_valid(&v, &json!(3));
    // The one branch that allows a number that is not an integer explains the failure.
    let minimum = ErrorKind::Minimum { limit: 0.0 };
    assert_eq!(
        errors(&v, &json!(-0.5)),
        vec![
            at("", "/anyOf", ErrorKind::AnyOf { types: None }),
            at("", "/anyOf/1/minimum", minimum.clone()),
        ]
    );
    assert_eq!(levels(&v, &json!(-0.5)), [0, 1]);

    let v = two_branches("oneOf", CheckKind::OneOf);
    assert_valid(&v, &json!(-1));
    assert_valid(&v, &json!(0.5));
    assert_eq!(
        errors(&v, &json!(3)),
        vec![at("", "/oneOf", one_of(&[0, 1]))]
    );
    assert_eq!(
        errors(&v, &json!(-0.5)),
        vec![
            at("", "/oneOf", one_of(&[])),
            at("", "/oneOf/1/minimum", minimum),
        ]
    );
    assert_eq!(levels(&v, &json!(-0.5)), [0, 1]);
}

/// The levels of the errors `v` reports on `instance` (`ValidationError::level`).
fn levels(v: &Interpreter, instance: &Value) -> Vec<u32> {
    v.validate(instance)
        .errors
        .iter()
        .map(|e| e.level)
        .collect()
}

#[test]
fn not_gives_its_own_error() {
    let mut b = Builder::new();
    let root = b.reserve("");
    let s = b.add(
        "/not",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    b.set(root, vec![check("not", CheckKind::Not(edge(s, "/not")))]);
    let v = b.build();
    assert_valid(&v, &json!(1));
    assert_eq!(
        errors(&v, &json!("s")),
        vec![at("", "/not", ErrorKind::Not)]
    );
}

#[test]
fn if_then_else() {
    // if: {type: integer}, then: {minimum: 10}, else: {maxLength: 1}
    let mut b = Builder::new();
    let root = b.reserve("");
    let cond = b.add(
        "/if",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    let then = b.add(
        "/then",
        vec![check("minimum", CheckKind::Minimum(num(json!(10))))],
    );
    let otherwise = b.add("/else", vec![check("maxLength", CheckKind::MaxLength(1))]);
    b.set(
        root,
        vec![check(
            "if",
            CheckKind::IfThenElse {
                condition: edge(cond, "/if"),
                then: Some(edge(then, "/then")),
                otherwise: Some(edge(otherwise, "/else")),
            },
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!(10));
    assert_valid(&v, &json!("a"));
    assert_valid(&v, &json!(1.5));
    assert_eq!(
        errors(&v, &json!(3)),
        vec![at("", "/then/minimum", ErrorKind::Minimum { limit: 10.0 })]
    );
    assert_eq!(
        errors(&v, &json!("ab")),
        vec![at("", "/else/maxLength", ErrorKind::MaxLength { limit: 1 })]
    );

    // Without then/else, `if` never fails.
    let mut b = Builder::new();
    let root = b.reserve("");
    let cond = b.add("/if", vec![check("", CheckKind::False)]);
    b.set(
        root,
        vec![check(
            "if",
            CheckKind::IfThenElse {
                condition: edge(cond, "/if"),
                then: None,
                otherwise: None,
            },
        )],
    );
    assert_valid(&b.build(), &json!(1));
}

#[test]
fn dependent_schemas() {
    let mut b = Builder::new();
    let root = b.reserve("");
    let dep = b.add(
        "/dependentSchemas/a",
        vec![check("required", CheckKind::Required(vec!["b".into()]))],
    );
    b.set(
        root,
        vec![check(
            "dependentSchemas",
            CheckKind::DependentSchemas(vec![("a".into(), edge(dep, "/dependentSchemas/a"))]),
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!({"b": 1}));
    assert_valid(&v, &json!({"a": 1, "b": 1}));
    assert_eq!(
        errors(&v, &json!({"a": 1})),
        vec![at(
            "",
            "/dependentSchemas/a/required",
            ErrorKind::Required {
                property: "b".into()
            }
        )]
    );
}

/// `{properties: {a: {type: string}}, patternProperties: {"^x": {type: integer}},
/// additionalProperties: false}` with the pattern ignored (no engine yet): every key not
/// named `a` is additional.
fn object_applicators() -> Interpreter {
    let mut b = Builder::new();
    let root = b.reserve("");
    let a = b.add(
        "/properties/a",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let x = b.add(
        "/patternProperties/^x",
        vec![check("type", CheckKind::Type(TypeSet::INTEGER))],
    );
    let f = b.add("/additionalProperties", vec![check("", CheckKind::False)]);
    let re = b.regex("^x");
    b.set(
        root,
        vec![
            check(
                "properties",
                CheckKind::Properties(vec![("a".into(), edge(a, "/properties/a"))]),
            ),
            check("required", CheckKind::Required(vec!["a".into()])),
            check(
                "patternProperties",
                CheckKind::PatternProperties(vec![(re, edge(x, "/patternProperties/^x"))]),
            ),
            check(
                "additionalProperties",
                CheckKind::AdditionalProperties {
                    schema: edge(f, "/additionalProperties"),
                    known: vec!["a".into()],
                    patterns: vec![re],
                },
            ),
        ],
    );
    b.build()
}

#[test]
fn properties_pattern_properties_additional_properties() {
    let v = object_applicators();
    assert!(v.plans[0].object.is_some(), "the three are fused");
    assert_valid(&v, &json!({"a": "s"}));
    assert_valid(&v, &json!([1]));
    let mut found = errors(&v, &json!({"a": 1, "x1": 2, "z~": 3}));
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        found,
        vec![
            at(
                "/a",
                "/properties/a/type",
                ErrorKind::Type {
                    expected: TypeSet::STRING,
                    found: TypeSet::INTEGER,
                }
            ),
            // Not allowed; the names allowed are not listed beside `patternProperties`.
            at("/x1", "/additionalProperties", not_allowed("x1")),
            at("/z~0", "/additionalProperties", not_allowed("z~")),
        ]
    );
    assert_eq!(
        errors(&v, &json!({})),
        vec![at(
            "",
            "/required",
            ErrorKind::Required {
                property: "a".into()
            }
        )]
    );
}

#[test]
fn properties_alone_follows_the_instance_key_order() {
    // As generated code does: one pass over the instance's keys (few keys per name).
    let mut b = Builder::new();
    let root = b.reserve("");
    let a = b.add("/properties/a", vec![check("", CheckKind::False)]);
    let c = b.add(
        "/properties/c",
        vec![check("minimum", CheckKind::Minimum(num(json!(0))))],
    );
    b.set(
        root,
        vec![check(
            "properties",
            CheckKind::Properties(vec![
                ("c".into(), edge(c, "/properties/c")),
                ("a".into(), edge(a, "/properties/a")),
            ]),
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!({"b": 1, "c": 0}));
    assert_eq!(
        errors(&v, &json!({"a": 1, "c": -1})),
        vec![
            at("/a", "/properties/a", ErrorKind::FalseSchema),
            at(
                "/c",
                "/properties/c/minimum",
                ErrorKind::Minimum { limit: 0.0 }
            ),
        ]
    );
}

#[test]
fn property_names_apply_to_keys_located_at_the_object() {
    let mut b = Builder::new();
    let root = b.reserve("");
    let p = b.add("/properties/o", vec![]);
    let names = b.add(
        "/properties/o/propertyNames",
        vec![
            check("maxLength", CheckKind::MaxLength(2)),
            check("type", CheckKind::Type(TypeSet::STRING)),
            check("enum", CheckKind::Enum(vec![json!("ab"), json!("abc")])),
        ],
    );
    b.set(
        p,
        vec![check(
            "propertyNames",
            CheckKind::PropertyNames(edge(names, "/propertyNames")),
        )],
    );
    b.set(
        root,
        vec![check(
            "properties",
            CheckKind::Properties(vec![("o".into(), edge(p, "/properties/o"))]),
        )],
    );
    let v = b.build();
    assert_valid(&v, &json!({"o": {"ab": 1}}));
    assert_eq!(
        errors(&v, &json!({"o": {"abc": 1, "x": 2}})),
        vec![
            at(
                "/o",
                "/properties/o/propertyNames/maxLength",
                ErrorKind::MaxLength { limit: 2 }
            ),
            at(
                "/o",
                "/properties/o/propertyNames/enum",
                ErrorKind::Enum {
                    allowed: r#""ab", "abc""#.into()
                }
            ),
        ]
    );
}

#[test]
fn a_discriminators_masks_admit_what_each_branch_admits() {
    use crate::interp::index::Tags;
    use crate::plan::{Admits, Discriminator};
    use schemac_runtime::json::Tag;
    let admits = |required: bool, values: Option<&[&str]>| Admits {
        required,
        values: values.map(|v| v.iter().map(|s| s.to_string()).collect()),
    };
    let branches = vec![
        admits(true, Some(&["circle"])),
        admits(false, Some(&["square", "rectangle"])),
        admits(true, None),
        admits(false, None),
        admits(true, Some(&["circle", "polygon"])),
    ];
    let many: Vec<Admits> = (0..70)
        .map(|i| admits(i % 3 == 0, Some(&[["a", "b", "c"][i % 3]])))
        .collect();
    let tags = [
        Tag::NotObject,
        Tag::Absent,
        Tag::Other,
        Tag::Str("circle"),
        Tag::Str("polygon"),
        Tag::Str("square"),
        Tag::Str("triangle"),
        Tag::Str(""),
        Tag::Str("a"),
        Tag::Str("c"),
    ];
    for branches in [branches, many] {
        let n = branches.len();
        let tags_of = Tags::new(Discriminator {
            property: "type".into(),
            branches,
        });
        for tag in tags {
            let expected: Vec<bool> = (tags_of.of.branches.iter())
                .map(|a| a.admits(tag))
                .collect();
            match tags_of.admitted(tag) {
                Some(mask) => {
                    assert!(n <= 64, "masks only up to 64 branches");
                    let got: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                    assert_eq!(got, expected, "{tag:?}");
                }
                None => assert!(
                    n > 64,
                    "{tag:?} is asked branch by branch below 65 branches"
                ),
            }
        }
    }
}
