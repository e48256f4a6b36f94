//! Interpreter tests over hand-built programs: every check kind, errors and their
//! locations, annotations into `unevaluated*`, the dynamic scope, budget and depth.

use super::Interpreter;
use crate::ir::analyse::analyse;
use crate::ir::{
    Check, CheckKind, Collect, Edge, Node, NodeId, Program, RegexEntry, RegexId, Resource,
    ResourceId,
};
use schemac_runtime::error::{ErrorKind, IncompleteReason, Matched, TypeSet};
use schemac_runtime::json::Divisor;
use schemac_runtime::{Limits, Validate, Verdict};
use serde_json::{json, Number, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

const BASE: &str = "https://example.com/s.json";

/// Builds programs node by node; node 0 is the root unless [`Builder::build_at`] says so.
struct Builder {
    program: Program,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            program: Program {
                nodes: Vec::new(),
                regexes: Vec::new(),
                resources: vec![Resource {
                    uri: BASE.into(),
                    dynamic_anchors: BTreeMap::new(),
                }],
                root: NodeId(0),
                limits: Limits::default(),
                uses_dynamic_scope: false,
                warnings: Vec::new(),
            },
        }
    }

    /// Adds a resource; returns its id.
    fn resource(&mut self, uri: &str) -> ResourceId {
        self.program.resources.push(Resource {
            uri: uri.into(),
            dynamic_anchors: BTreeMap::new(),
        });
        ResourceId(self.program.resources.len() - 1)
    }

    /// Reserves a node at `pointer` of resource 0 (checks set later with [`Builder::set`]).
    fn reserve(&mut self, pointer: &str) -> NodeId {
        self.reserve_in(ResourceId(0), pointer)
    }

    fn reserve_in(&mut self, resource: ResourceId, pointer: &str) -> NodeId {
        let uri = format!("{}#{pointer}", self.program.resources[resource.0].uri);
        self.program.nodes.push(Node {
            uri,
            resource,
            is_resource_root: pointer.is_empty(),
            checks: Vec::new(),
            collect: Collect::default(),
            annotations: Vec::new(),
        });
        NodeId(self.program.nodes.len() - 1)
    }

    fn set(&mut self, id: NodeId, checks: Vec<Check>) {
        self.program.nodes[id.0].checks = checks;
    }

    /// Adds a node at `pointer` of resource 0 with `checks`.
    fn add(&mut self, pointer: &str, checks: Vec<Check>) -> NodeId {
        let id = self.reserve(pointer);
        self.set(id, checks);
        id
    }

    /// Adds a regex entry (the matcher is not built yet: `None`, ignored).
    fn regex(&mut self, source: &str) -> RegexId {
        self.program.regexes.push(RegexEntry {
            source: source.into(),
            compiled: None,
        });
        RegexId(self.program.regexes.len() - 1)
    }

    fn build(self) -> Interpreter {
        self.build_at(NodeId(0))
    }

    fn build_at(mut self, root: NodeId) -> Interpreter {
        self.program.root = root;
        analyse(&mut self.program);
        Interpreter::new(self.program)
    }
}

fn check(keyword: &str, kind: CheckKind) -> Check {
    Check {
        keyword: keyword.into(),
        kind,
        annotates: false,
    }
}

fn edge(target: NodeId, path: &str) -> Edge {
    Edge {
        target,
        path: path.into(),
    }
}

fn num(v: Value) -> Number {
    match v {
        Value::Number(n) => n,
        _ => panic!("not a number"),
    }
}

/// One schema of one node.
fn single(keyword: &str, kind: CheckKind) -> Interpreter {
    let mut b = Builder::new();
    b.add("", vec![check(keyword, kind)]);
    b.build()
}

/// An error as a comparable tuple.
type Located = (String, String, String, ErrorKind);

/// Asserts both modes accept `instance`.
#[track_caller]
fn assert_valid(v: &Interpreter, instance: &Value) {
    assert_eq!(v.check(instance), Verdict::Valid, "check of {instance}");
    let report = v.validate(instance);
    assert_eq!(
        report.verdict,
        Verdict::Valid,
        "validate of {instance}: {report:?}"
    );
    assert!(report.errors.is_empty());
}

/// Asserts both modes reject `instance`; returns the errors, located.
#[track_caller]
fn errors(v: &Interpreter, instance: &Value) -> Vec<Located> {
    assert_eq!(v.check(instance), Verdict::Invalid, "check of {instance}");
    let report = v.validate(instance);
    assert_eq!(report.verdict, Verdict::Invalid, "validate of {instance}");
    assert!(!report.errors.is_empty());
    report
        .errors
        .into_iter()
        .map(|e| {
            (
                e.instance_location,
                e.keyword_location,
                e.absolute_keyword_location,
                e.kind,
            )
        })
        .collect()
}

/// An error at `instance` location, keyword location `keyword` (absolute: BASE#keyword).
fn at(instance: &str, keyword: &str, kind: ErrorKind) -> Located {
    (
        instance.into(),
        keyword.into(),
        format!("{BASE}#{keyword}"),
        kind,
    )
}

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

/// The error of a `oneOf` that the branches `indices` matched.
fn one_of(indices: &[u32]) -> ErrorKind {
    let mut matched = Matched::default();
    for &i in indices {
        matched.add(i);
    }
    ErrorKind::OneOf {
        matched,
        types: None,
    }
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

/// The error of a `false` subschema on a property its object does not allow, no allowed
/// names listed.
fn not_allowed(key: &str) -> ErrorKind {
    ErrorKind::PropertyNotAllowed {
        property: key.to_string().into(),
        allowed: "".into(),
        declared: false,
    }
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

/// The 2020-12 spec's tree / strict-tree example.
fn strict_tree() -> Interpreter {
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
    b.build_at(strict)
}

#[test]
fn dynamic_ref_resolves_to_the_outermost_anchor() {
    let v = strict_tree();
    assert!(v.program().uses_dynamic_scope);
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
    let mut program = strict_tree().program().clone();
    program.root = NodeId(1);
    let tree_only = Interpreter::new(program);
    assert_valid(&tree_only, &json!({"children": [{"daat": 1}]}));
}

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

/// The interpreter of `schema` under a budget of `budget` units.
fn compiled_with_budget(schema: &Value, budget: u64) -> Interpreter {
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(schema)
        .expect("compiles");
    let limits = Limits {
        budget,
        ..program.limits
    };
    Interpreter::new(program).with_limits(limits)
}

/// Checks that short-circuit evaluation of `schema` (its fast paths) spends what
/// `validate` (the general evaluation) does on `valid`, which both evaluate in full: the
/// same verdict under every budget up to the least that suffices, which is returned.
fn same_budget_as_validate(schema: &Value, valid: &Value) -> u64 {
    let need = (1..10_000)
        .find(|&b| compiled_with_budget(schema, b).check(valid) == Verdict::Valid)
        .expect("a budget that suffices");
    for budget in 1..=need {
        let v = compiled_with_budget(schema, budget);
        assert_eq!(v.check(valid), v.validate(valid).verdict, "budget {budget}");
    }
    assert_eq!(
        compiled_with_budget(schema, need - 1).check(valid),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    need
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
fn a_required_folded_into_a_closed_pass_decides_as_if_it_ran_first() {
    // `required` runs within the lookups of the pass over `properties` and
    // `additionalProperties` (the tree, recursive, out of line but not deferred): an object missing a name fails whatever the pass charged
    // or stopped at, and leaves the budget as it found it to the next branch.
    let closed = json!({
        "properties": {"b": true, "c": {"type": "string"}},
        "required": ["b"],
        "additionalProperties": {"$ref": "#/$defs/tree"}
    });
    let schema = json!({
        "$defs": {"tree": {"items": {"$ref": "#/$defs/tree"}}},
        "anyOf": [closed, {"properties": {"z": {"$ref": "#/$defs/tree"}}}]
    });
    let need = same_budget_as_validate(&schema, &json!({"z": [[]]}));
    let v = compiled_with_budget(&schema, need);
    let deep = json!([[[[[[[[]]]]]]]]);
    // The first branch stops at `a`, fails at `c`, or passes every key.
    for valid in [
        json!({"a": deep, "z": [[]]}),
        json!({"a": [[]], "c": 1, "z": [[]]}),
        json!({"a": [[]], "z": [[]]}),
    ] {
        assert_eq!(v.check(&valid), Verdict::Valid, "{valid}");
    }
    // With `b`, the first branch's charges stand.
    assert_eq!(
        v.check(&json!({"a": deep, "b": 1, "z": [[]]})),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
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

/// An interpreter of `program` under the default limits but for its `budget`.
fn under_budget(program: &Program, budget: u64) -> Interpreter {
    Interpreter::new(program.clone()).with_limits(Limits {
        budget,
        ..Limits::DEFAULT
    })
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

/// Asserts that `check` decides `instance` as `validate` does under the least budget that
/// `validate` needs (some), and not under one unit less.
#[track_caller]
fn assert_check_charges_as_validate(program: &Program, instance: &Value) {
    let with = |budget| under_budget(program, budget);
    let needed = (0..1000)
        .find(|&budget| {
            !matches!(
                with(budget).validate(instance).verdict,
                Verdict::Incomplete(_)
            )
        })
        .expect("a budget suffices");
    assert!(needed > 0, "{instance}");
    let verdict = with(needed).validate(instance).verdict;
    assert_eq!(with(needed).check(instance), verdict, "{instance}");
    assert_eq!(
        with(needed - 1).check(instance),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded),
        "{instance}"
    );
}

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
fn a_stop_dropped_with_a_failing_closed_pass_is_not_the_reason_of_a_later_one() {
    // `a` fails for its missing required `z` as if `required` ran first, though its pass
    // stopped at the unresolved reference; `not` makes that a pass, and `b`'s items then
    // run out of budget: the reason is the budget, not the dropped reference.
    let closed = json!({
        "properties": {"x": {"$ref": "https://remote.example/x.json"}, "z": true},
        "required": ["x", "z"],
        "additionalProperties": false
    });
    let schema = json!({
        "properties": {"a": {"not": closed}, "b": {"items": {"type": "integer"}}},
        "required": ["a", "b"]
    });
    let instance = json!({"a": {"x": 1}, "b": vec![1; 200]});
    let unresolved = IncompleteReason::UnresolvedRef("https://remote.example/x.json".into());
    let options = crate::options::Options {
        ref_policy: crate::options::RefPolicy::Warn,
        ..crate::options::Options::default()
    };
    let program = crate::check::Compiler::new(options)
        .compile(&schema)
        .expect("compiles");
    let reasons: Vec<Verdict> = (1..400)
        .map(|budget| {
            let limits = Limits {
                budget,
                ..program.limits
            };
            Interpreter::new(program.clone())
                .with_limits(limits)
                .check(&instance)
        })
        .collect();
    assert!(reasons.contains(&Verdict::Valid), "{reasons:?}");
    assert!(
        reasons.contains(&Verdict::Incomplete(IncompleteReason::BudgetExceeded)),
        "{reasons:?}"
    );
    assert!(
        !reasons.contains(&Verdict::Incomplete(unresolved)),
        "{reasons:?}"
    );
}

#[test]
fn a_property_index_finds_each_name_and_nothing_else() {
    use super::index::PropertyIndex;
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
    use super::plan::{Fast, Op};
    use crate::plan::kind::Kind;
    // `allOf` members of one property each (as tsconfig's schema is written), spliced
    // into the root: runs of distinct names become one lookup op; a name again ends a run.
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
        _ => &root.ops,
    };
    let lookups: Vec<usize> = (lanes.lane(Kind::Object).steps.iter())
        .filter_map(|op| match op {
            Op::Lookups(lookups) => Some(lookups.entries.len()),
            _ => None,
        })
        .collect();
    assert_eq!(lookups, [3, 2], "{:?}", lanes.lane(Kind::Object).steps);
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
