//! The assertions: `type`, `const`, `enum`, numbers, strings, formats, arrays and objects, and the lanes short-circuit evaluation runs by the instance's kind.

use super::*;

#[test]
fn type_const_enum() {
    let v = single(
        "type",
        CheckKind::Type(TypeSet::INTEGER.union(TypeSet::NULL)),
    );
    assert_valid(&v, &json!(1));
    assert_valid(&v, &json!(1.0));
    assert_valid(&v, &json!(null));
    assert_eq!(
        errors(&v, &json!(1.5)),
        vec![at(
            "",
            "/type",
            ErrorKind::Type {
                expected: TypeSet::INTEGER.union(TypeSet::NULL),
                found: TypeSet::NUMBER,
            }
        )]
    );
    errors(&v, &json!("1"));

    let v = single("const", CheckKind::Const(json!({"a": [1, 2]})));
    assert_valid(&v, &json!({"a": [1.0, 2]}));
    assert_eq!(
        errors(&v, &json!({"a": [2, 1]})),
        vec![at(
            "",
            "/const",
            ErrorKind::Const {
                expected: r#"{"a":[1,2]}"#.into()
            }
        )]
    );

    let v = single(
        "enum",
        CheckKind::Enum(vec![json!("a"), json!(0), json!(false)]),
    );
    assert_valid(&v, &json!(0.0));
    assert_valid(&v, &json!("a"));
    assert_eq!(
        errors(&v, &json!(0.5)),
        vec![at(
            "",
            "/enum",
            ErrorKind::Enum {
                allowed: r#""a", 0, false"#.into()
            }
        )]
    );
    errors(&v, &json!(null));
}

/// A numeric bound keyword: name, check, error, a passing and a failing instance.
type BoundCase = (
    &'static str,
    fn(Number) -> CheckKind,
    fn(f64) -> ErrorKind,
    Value,
    Value,
);

#[test]
fn numeric_checks() {
    let v = single("multipleOf", CheckKind::MultipleOf(Divisor::Float(0.01)));
    assert_valid(&v, &json!(19.99));
    assert_valid(&v, &json!("not a number"));
    assert_eq!(
        errors(&v, &json!(0.005)),
        vec![at(
            "",
            "/multipleOf",
            ErrorKind::MultipleOf {
                divisor: Divisor::Float(0.01)
            }
        )]
    );

    let cases: Vec<BoundCase> = vec![
        (
            "minimum",
            CheckKind::Minimum,
            |limit| ErrorKind::Minimum { limit },
            json!(5),
            json!(4.99),
        ),
        (
            "maximum",
            CheckKind::Maximum,
            |limit| ErrorKind::Maximum { limit },
            json!(5),
            json!(5.01),
        ),
        (
            "exclusiveMinimum",
            CheckKind::ExclusiveMinimum,
            |limit| ErrorKind::ExclusiveMinimum { limit },
            json!(5.01),
            json!(5),
        ),
        (
            "exclusiveMaximum",
            CheckKind::ExclusiveMaximum,
            |limit| ErrorKind::ExclusiveMaximum { limit },
            json!(4.99),
            json!(5.0),
        ),
    ];
    for (keyword, kind, error, good, bad) in cases {
        let v = single(keyword, kind(num(json!(5))));
        assert_valid(&v, &good);
        assert_valid(&v, &json!(null));
        assert_eq!(
            errors(&v, &bad),
            vec![at("", &format!("/{keyword}"), error(5.0))]
        );
    }
    // Inclusive bounds accept the limit itself, given as a float or an integer.
    assert_valid(
        &single("minimum", CheckKind::Minimum(num(json!(5)))),
        &json!(5.0),
    );
    assert_valid(
        &single("maximum", CheckKind::Maximum(num(json!(5.0)))),
        &json!(5),
    );
    // Large integers compare exactly.
    let v = single("maximum", CheckKind::Maximum(num(json!(u64::MAX - 1))));
    errors(&v, &json!(u64::MAX));
    assert_valid(&v, &json!(u64::MAX - 1));
}

/// A number parsed from JSON text (correctly rounded: the tests build serde_json with
/// `float_roundtrip`).
fn number(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn multiple_of_is_exact() {
    let v = single("multipleOf", CheckKind::MultipleOf(Divisor::Float(0.0001)));
    assert_valid(&v, &number("0.0075"));
    assert_valid(&v, &number("1e300"));
    errors(&v, &number("0.00751"));
    errors(&v, &number("1e-5"));
    let v = single("multipleOf", CheckKind::MultipleOf(Divisor::Float(1.0)));
    errors(&v, &number("1e-17"));
    errors(&v, &number("5e-324"));
    assert_valid(&v, &number("1e308"));
    assert_valid(&v, &number("18446744073709551615"));
    let v = single("multipleOf", CheckKind::MultipleOf(Divisor::Float(2.5)));
    errors(&v, &number("1e-20"));
    assert_valid(&v, &number("7.5"));
    let v = single("multipleOf", CheckKind::MultipleOf(Divisor::Float(1e-300)));
    assert_valid(&v, &number("1e308"));
    errors(&v, &number("1e-301"));
}

#[test]
fn integers_and_floats_compare_exactly() {
    let v = single(
        "maximum",
        CheckKind::Maximum(num(json!(9223372036854775807i64))),
    );
    errors(&v, &number("9223372036854775808.0"));
    assert_valid(&v, &number("9223372036854775807"));
    let v = single(
        "exclusiveMinimum",
        CheckKind::ExclusiveMinimum(num(number("9007199254740992.0"))),
    );
    assert_valid(&v, &number("9007199254740993"));
    errors(&v, &number("9007199254740992"));
    let v = single("const", CheckKind::Const(number("9007199254740993")));
    errors(&v, &number("9007199254740992.0"));
    assert_valid(&v, &number("9007199254740993"));
    let v = single(
        "enum",
        CheckKind::Enum(vec![number("9007199254740993"), json!("x")]),
    );
    errors(&v, &number("9007199254740992.0"));
    let v = single("uniqueItems", CheckKind::UniqueItems);
    assert_valid(&v, &number("[10000000000000000001, 1e19]"));
    errors(&v, &number("[10000000000000000000, 1e19]"));
}

#[test]
fn string_checks() {
    let v = single("minLength", CheckKind::MinLength(2));
    assert_valid(&v, &json!("ab"));
    assert_valid(&v, &json!(1));
    // One code point, four bytes.
    assert_eq!(
        errors(&v, &json!("\u{1F600}")),
        vec![at("", "/minLength", ErrorKind::MinLength { limit: 2 })]
    );
    let v = single("maxLength", CheckKind::MaxLength(2));
    assert_valid(&v, &json!("\u{1F600}\u{1F600}"));
    assert_valid(&v, &json!(""));
    assert_eq!(
        errors(&v, &json!("abc")),
        vec![at("", "/maxLength", ErrorKind::MaxLength { limit: 2 })]
    );
    errors(&v, &json!("\u{e9}\u{e9}\u{e9}"));

    // An ignored pattern (`compiled: None`) is skipped.
    let mut b = Builder::new();
    let re = b.regex("^a");
    b.add("", vec![check("pattern", CheckKind::Pattern(re))]);
    let v = b.build();
    assert_valid(&v, &json!("zzz"));
}

#[test]
fn formats_custom_then_runtime_then_pass() {
    let mut b = Builder::new();
    b.add(
        "",
        vec![
            check("format", CheckKind::Format("even-length".into())),
            check("format", CheckKind::Format("no-such-format".into())),
        ],
    );
    let v = b.build().with_format("even-length", |s| s.len() % 2 == 0);
    assert_valid(&v, &json!("ab"));
    assert_valid(&v, &json!(3));
    assert_eq!(
        errors(&v, &json!("abc")),
        vec![at(
            "",
            "/format",
            ErrorKind::Format {
                format: Cow::Borrowed("even-length")
            }
        )]
    );
}

#[test]
fn array_checks() {
    let v = single("minItems", CheckKind::MinItems(1));
    assert_valid(&v, &json!([0]));
    assert_valid(&v, &json!({}));
    assert_eq!(
        errors(&v, &json!([])),
        vec![at("", "/minItems", ErrorKind::MinItems { limit: 1 })]
    );
    let v = single("maxItems", CheckKind::MaxItems(1));
    assert_valid(&v, &json!([0]));
    assert_eq!(
        errors(&v, &json!([1, 2])),
        vec![at("", "/maxItems", ErrorKind::MaxItems { limit: 1 })]
    );
    let v = single("uniqueItems", CheckKind::UniqueItems);
    assert_valid(&v, &json!([1, "1", [1], {"a": 1}, {"a": 2}]));
    assert_eq!(
        errors(&v, &json!([{"a": 1, "b": 2}, {"b": 2, "a": 1.0}])),
        vec![at("", "/uniqueItems", ErrorKind::UniqueItems)]
    );
    let many: Vec<Value> = (0..10_000).map(|i| json!([i, {"k": i}])).collect();
    assert_valid(&v, &Value::Array(many.clone()));
    let mut dup = many;
    dup.push(json!([77.0, {"k": 77}]));
    errors(&v, &Value::Array(dup));
}

#[test]
fn short_circuit_lanes_decide_by_the_instance_kind() {
    let schema = json!({
        "type": "array",
        "items": {
            "type": ["array", "integer", "string"],
            "minItems": 2,
            "maxItems": 3,
            "items": {"type": "number"},
            "enum": [[1, 2], [1, 2, 3], [1, "x"], 4, 5.0, "a"]
        }
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let v = Interpreter::new(program);
    assert_valid(&v, &json!([[1, 2], [1, 2, 3], 4, 5, "a"]));
    // `minItems` and `maxItems` folded into `items`, the `type` each kind decides, the
    // `integer` a number still tests, and the `enum` members of the instance's kind.
    for item in [
        json!([1]),
        json!([1, 2, 3, 4]),
        json!([1, "x"]),
        json!([2, 1]),
        json!(4.5),
        json!(6),
        json!("b"),
        json!(null),
        json!({}),
    ] {
        errors(&v, &json!([item]));
    }
}

#[test]
fn object_checks() {
    let v = single("minProperties", CheckKind::MinProperties(1));
    assert_valid(&v, &json!({"a": 1}));
    assert_valid(&v, &json!([]));
    assert_eq!(
        errors(&v, &json!({})),
        vec![at(
            "",
            "/minProperties",
            ErrorKind::MinProperties { limit: 1 }
        )]
    );
    let v = single("maxProperties", CheckKind::MaxProperties(1));
    assert_eq!(
        errors(&v, &json!({"a": 1, "b": 2})),
        vec![at(
            "",
            "/maxProperties",
            ErrorKind::MaxProperties { limit: 1 }
        )]
    );

    let v = single(
        "required",
        CheckKind::Required(vec!["a".into(), "b".into(), "c".into()]),
    );
    assert_valid(&v, &json!({"a": 0, "b": 0, "c": 0}));
    assert_valid(&v, &json!("not an object"));
    assert_eq!(
        errors(&v, &json!({"b": 0})),
        vec![
            at(
                "",
                "/required",
                ErrorKind::Required {
                    property: "a".into()
                }
            ),
            at(
                "",
                "/required",
                ErrorKind::Required {
                    property: "c".into()
                }
            ),
        ]
    );

    let v = single(
        "dependentRequired",
        CheckKind::DependentRequired(vec![
            ("a".into(), vec!["b".into(), "c".into()]),
            ("x".into(), vec!["y".into()]),
        ]),
    );
    assert_valid(&v, &json!({"b": 1}));
    assert_valid(&v, &json!({"a": 1, "b": 1, "c": 1, "y": 0}));
    assert_eq!(
        errors(&v, &json!({"a": 1, "x": 1, "y": 1})),
        vec![
            at(
                "",
                "/dependentRequired",
                ErrorKind::DependentRequired {
                    property: "a".into(),
                    missing: "b".into()
                }
            ),
            at(
                "",
                "/dependentRequired",
                ErrorKind::DependentRequired {
                    property: "a".into(),
                    missing: "c".into()
                }
            ),
        ]
    );
}

#[test]
fn a_large_enums_strings_are_found_by_their_index_as_by_the_table() {
    use crate::interp::index::EnumIndex;
    use crate::plan::lookup::EnumTable;
    // A few (scanned) and many (hashed) strings, many of one length (the heads decide
    // up to 16 bytes, longer ones compare their bytes), with a number among them.
    for n in [8, 13, 40, 300] {
        let mut values: Vec<Value> = (0..n)
            .map(|i| {
                json!(if i % 3 == 0 {
                    format!("{i:03}")
                } else {
                    format!("code-{i:04}-long-enough-to-compare-bytes")
                })
            })
            .collect();
        values.push(json!(7));
        let table = EnumTable::new(&values).expect("a table");
        let members = table.as_runtime();
        let index = EnumIndex::new(table.clone());
        let probes = (0..n + 20).flat_map(|i| {
            [
                format!("{i:03}"),
                format!("code-{i:04}-long-enough-to-compare-bytes"),
                format!("{i:03}x"),
            ]
        });
        for probe in probes.chain(["".into(), "7".into()]) {
            assert_eq!(
                index.has_str(&probe),
                members.is_str_member(&probe),
                "{probe:?} among {n}"
            );
        }
    }
}
