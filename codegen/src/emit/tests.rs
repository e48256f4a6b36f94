//! Tests of the Rust backend over hand-built programs: the output parses, is
//! deterministic, and has the shape the issue asks for (one dispatch per node, one pass over
//! objects, string enums as `match`, no evaluated sets or dynamic scope unless needed).
//!
//! With `SCHEMAC_EMIT_DUMP=<dir>` set, the generated file is also written there, for
//! compiling by hand.

use super::*;
use crate::ir::{Check, CheckKind, Collect, Edge, Node, NodeId, Program, Resource, ResourceId};
use schemac_runtime::error::TypeSet;
use schemac_runtime::json::Divisor;
use schemac_runtime::Limits;
use serde_json::json;

const BASE: &str = "https://example.com/s.json";

/// Builds a program node by node.
struct Build {
    nodes: Vec<Node>,
}

impl Build {
    fn new() -> Build {
        Build { nodes: Vec::new() }
    }

    fn node(&mut self, pointer: &str, checks: Vec<Check>) -> NodeId {
        self.nodes.push(Node {
            uri: format!("{BASE}#{pointer}"),
            resource: ResourceId(0),
            is_resource_root: pointer.is_empty(),
            checks,
            collect: Collect::default(),
            annotations: Vec::new(),
            default: None,
        });
        NodeId(self.nodes.len() - 1)
    }

    fn program(self, root: NodeId) -> Program {
        let mut program = Program {
            nodes: self.nodes,
            regexes: Vec::new(),
            resources: vec![Resource {
                uri: BASE.to_string(),
                dynamic_anchors: Default::default(),
            }],
            root,
            limits: Limits::default(),
            uses_dynamic_scope: false,
            warnings: Vec::new(),
            defaults: None,
        };
        crate::ir::analyse::analyse(&mut program);
        program
    }
}

fn check(keyword: &str, kind: CheckKind) -> Check {
    Check {
        keyword: keyword.to_string().into(),
        kind,
        annotates: false,
    }
}

fn edge(target: NodeId, path: &str) -> Edge {
    Edge {
        target,
        path: path.to_string(),
    }
}

/// A tool-like schema: typed properties, an enum, required, additionalProperties false.
fn tool_program() -> Program {
    let mut b = Build::new();
    let city = b.node(
        "/properties/city",
        vec![
            check("type", CheckKind::Type(TypeSet::STRING)),
            check("minLength", CheckKind::MinLength(1)),
        ],
    );
    let units = b.node(
        "/properties/units",
        vec![check(
            "enum",
            CheckKind::Enum(vec![json!("metric"), json!("imperial")]),
        )],
    );
    let days = b.node(
        "/properties/days",
        vec![
            check("type", CheckKind::Type(TypeSet::INTEGER)),
            check("minimum", CheckKind::Minimum(1.into())),
            check("maximum", CheckKind::Maximum(16.into())),
        ],
    );
    let no = b.node("/additionalProperties", vec![check("", CheckKind::False)]);
    let root = b.node(
        "",
        vec![
            check(
                "additionalProperties",
                CheckKind::AdditionalProperties {
                    schema: edge(no, "/additionalProperties"),
                    known: vec!["city".into(), "days".into(), "units".into()],
                    patterns: vec![],
                },
            ),
            check(
                "properties",
                CheckKind::Properties(vec![
                    ("city".into(), edge(city, "/properties/city")),
                    ("days".into(), edge(days, "/properties/days")),
                    ("units".into(), edge(units, "/properties/units")),
                ]),
            ),
            check("required", CheckKind::Required(vec!["city".into()])),
            check("type", CheckKind::Type(TypeSet::OBJECT)),
        ],
    );
    b.program(root)
}

/// Applicators in place, `unevaluatedProperties`, const of an object, oneOf, if/then/else.
fn applicator_program() -> Program {
    let mut b = Build::new();
    let a = b.node(
        "/$defs/a",
        vec![check(
            "properties",
            CheckKind::Properties(vec![("a".into(), {
                Edge {
                    target: NodeId(1),
                    path: "/properties/a".into(),
                }
            })]),
        )],
    );
    let t = b.node("/$defs/a/properties/a", vec![]);
    let konst = b.node(
        "/oneOf/0",
        vec![check(
            "const",
            CheckKind::Const(json!({"k": [1, 2.5, null, true, "s"]})),
        )],
    );
    let num = b.node(
        "/oneOf/1",
        vec![
            check("multipleOf", CheckKind::MultipleOf(Divisor::Float(0.5))),
            check("exclusiveMaximum", CheckKind::ExclusiveMaximum((-3).into())),
        ],
    );
    let cond = b.node(
        "/if",
        vec![check("required", CheckKind::Required(vec!["x".into()]))],
    );
    let then = b.node(
        "/then",
        vec![check("minProperties", CheckKind::MinProperties(2))],
    );
    let f = b.node("/unevaluatedProperties", vec![check("", CheckKind::False)]);
    let items = b.node(
        "/items",
        vec![check("type", CheckKind::Type(TypeSet::NUMBER))],
    );
    let root = b.node(
        "",
        vec![
            check("$ref", CheckKind::Ref(edge(a, "/$ref"))),
            check(
                "oneOf",
                CheckKind::OneOf(vec![edge(konst, "/oneOf/0"), edge(num, "/oneOf/1")]),
            ),
            check("not", CheckKind::Not(edge(t, "/not"))),
            check(
                "if",
                CheckKind::IfThenElse {
                    condition: edge(cond, "/if"),
                    then: Some(edge(then, "/then")),
                    otherwise: None,
                },
            ),
            check(
                "contains",
                CheckKind::Contains {
                    schema: edge(items, "/contains"),
                    min: 2,
                    max: Some(3),
                },
            ),
            check(
                "items",
                CheckKind::Items {
                    schema: edge(items, "/items"),
                    skip: 1,
                },
            ),
            check(
                "unevaluatedProperties",
                CheckKind::UnevaluatedProperties(edge(f, "/unevaluatedProperties")),
            ),
        ],
    );
    b.program(root)
}

fn generate_one(module: &str, program: &Program) -> String {
    let unit = Unit {
        module,
        source: "schemas/test.json",
        file: "schemas/test.json",
        schema_text: Some("{}"),
        program,
        tool: None,
    };
    let out = generate(&[unit], &EmitOptions::default()).expect("generates");
    if let Ok(dir) = std::env::var("SCHEMAC_EMIT_DUMP") {
        std::fs::write(format!("{dir}/{module}.rs"), &out).expect("dump");
    }
    out
}

#[test]
fn tool_schema_has_the_fast_shape() {
    let out = generate_one("get_weather", &tool_program());
    assert!(out.starts_with("// @generated by schemac "));
    assert!(out.contains("from schemas/test.json. Do not edit."));
    assert!(out.contains("assert_compatible"));
    assert!(out.contains("pub mod get_weather"));
    assert!(out.contains("pub const SCHEMA: &str"));
    // One pass over the object with a match on the key, required as a bit array.
    assert!(out.contains("match k {"), "{out}");
    assert!(out.contains("let mut seen = [false; 1];"), "{out}");
    assert!(!out.contains("contains_key(\"city\")"), "{out}");
    // String enum as a match.
    assert!(
        out.contains(r#"matches!(text.as_ref(), "imperial" | "metric")"#),
        "{out}"
    );
    // The wrong types fail in one fallback arm, not a five-variant pattern.
    assert!(!out.contains("| __rt::Shape::Null =>"), "{out}");
    // No evaluated sets, no dynamic scope.
    assert!(!out.contains("Eval"), "{out}");
    assert!(!out.contains("push_scope"), "{out}");
    // No lazy initialization, no unsafe.
    for banned in [
        "LazyLock",
        "OnceCell",
        "OnceLock",
        "thread_local",
        "unsafe",
        "lazy_static",
    ] {
        assert!(!out.contains(banned), "{banned} in {out}");
    }
}

#[test]
fn the_outcome_of_the_most_variants_is_the_fallback_arm() {
    let mut b = Build::new();
    let item = b.node(
        "/items",
        vec![check("type", CheckKind::Type(TypeSet::STRING))],
    );
    let root = b.node(
        "",
        vec![
            check(
                "type",
                CheckKind::Type(TypeSet::STRING.union(TypeSet::ARRAY)),
            ),
            check(
                "items",
                CheckKind::Items {
                    schema: edge(item, "/items"),
                    skip: 0,
                },
            ),
        ],
    );
    let out = generate_one("s", &b.program(root));
    let check_code = out.split("fn e1").next().expect("check functions first");
    // Only strings pass at `/items`: the test names the one variant, not the five others.
    assert!(
        check_code.contains("!matches!(v.kind(), __rt::Kind::String)"),
        "{out}"
    );
    // At the root, four variants fail and strings pass: the failure is `_`, the passing
    // variant an explicit empty arm (two cases to compare, not a jump table over six).
    let arms = check_code
        .find("__rt::Shape::Array(arr) =>")
        .expect("array arm");
    let rest = &check_code[arms..];
    let string = rest
        .find("__rt::Shape::String(_) => {}")
        .expect("explicit passing arm");
    let fallback = rest.find("_ => {").expect("failing fallback");
    assert!(string < fallback, "{out}");
    assert!(!check_code.contains("Shape::Null"), "{out}");
}

#[test]
fn applicators_parse_and_track_annotations_only_where_needed() {
    let program = applicator_program();
    assert!(program.node(program.root).collect.properties);
    let out = generate_one("applicators", &program);
    assert!(out.contains("ev.props"), "{out}");
    assert!(out.contains("&mut cx.state"), "{out}");
    assert!(
        out.contains("__rt::cmp_f64") || out.contains("__rt::cmp_i64"),
        "{out}"
    );
    // Numbers of the object const are compared by value.
    assert!(
        out.contains("|n2| __rt::cmp_f64(&n2, 2.5f64).is_eq()"),
        "{out}"
    );
}

#[test]
fn output_is_deterministic() {
    let a = generate_one("a", &applicator_program());
    let b = generate_one("a", &applicator_program());
    assert_eq!(a, b);
}

#[test]
fn module_names_are_sanitized_and_checked() {
    assert_eq!(module_name("aws-cdk").as_deref(), Some("aws_cdk"));
    assert_eq!(module_name("2fa.v1").as_deref(), Some("_2fa_v1"));
    assert_eq!(module_name("type").as_deref(), Some("type_"));
    assert_eq!(module_name("getWeather").as_deref(), Some("get_weather"));
    assert_eq!(module_name("HTTPServer").as_deref(), Some("http_server"));
    assert_eq!(
        module_name("additionalProperties_2").as_deref(),
        Some("additional_properties_2")
    );
    assert_eq!(module_name("self").as_deref(), Some("self_"));
    assert_eq!(module_name(""), None);
    let program = tool_program();
    let unit = |module| Unit {
        module,
        source: "x.json",
        file: "x.json",
        schema_text: Some("{}"),
        program: &program,
        tool: None,
    };
    let err = generate(&[unit("a"), unit("a")], &EmitOptions::default()).unwrap_err();
    assert_eq!(err, EmitError::DuplicateModule("a".into()));
    let err = generate(&[unit("a-b")], &EmitOptions::default()).unwrap_err();
    assert_eq!(err, EmitError::InvalidModuleName("a-b".into()));
    let options = EmitOptions {
        custom_formats: [("currency".to_string(), "not a path".to_string())].into(),
        ..EmitOptions::default()
    };
    assert!(matches!(
        generate(&[unit("a")], &options),
        Err(EmitError::InvalidPath { .. })
    ));
}

#[test]
fn large_enums_and_pattern_lists_become_static_lookups() {
    let strings: Vec<serde_json::Value> = (0..40).map(|i| json!(format!("s{i}"))).collect();
    // Tabled but few of each length: compared by a `match`, charged as a lookup.
    let medium: Vec<serde_json::Value> = (0..12).map(|i| json!("m".repeat(i + 1))).collect();
    let numbers: Vec<serde_json::Value> = (0..40).map(|i| json!(i * 3)).collect();
    let patterns: serde_json::Map<String, serde_json::Value> = (0..10)
        .map(|i| (format!("^p{i}_"), json!({"type": "integer"})))
        .collect();
    let schema = json!({
        "properties": {
            "s": {"enum": strings},
            "n": {"enum": numbers},
            "m": {"enum": medium},
            "few": {"enum": ["a", "b", 1]}
        },
        "patternProperties": patterns,
        "additionalProperties": false
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let out = generate_one("lookups", &program);
    // One static per table, whichever functions use it.
    assert_eq!(out.matches("static EN").count(), 2, "{out}");
    assert_eq!(out.matches("static PS").count(), 1, "{out}");
    assert!(out.contains("cx.is_str_member(&EN"), "{out}");
    assert!(out.contains("cx.spend_units(1u64)?;"), "{out}");
    assert!(
        out.contains(r#"text.as_ref(), "m" | "mm" | "mmm""#),
        "{out}"
    );
    assert!(out.contains("cx.state.is_number_member(&EN"), "{out}");
    assert!(out.contains("for p in cx.candidates(&PS"), "{out}");
    // Small enums keep the comparison; each pattern is tried once per key and function.
    assert!(out.contains(r#"text.as_ref(), "a" | "b""#), "{out}");
    assert_eq!(
        out.matches("cx.is_match_fast(&RE3, k)?").count(),
        1,
        "{out}"
    );
    assert_eq!(
        out.matches("cx.state.is_match_fast(&RE3, k)?").count(),
        1,
        "{out}"
    );
    assert!(out.contains("if !covered"), "{out}");
    assert_eq!(out, generate_one("lookups", &program));
}

#[test]
fn in_place_children_record_into_the_parents_set_unless_they_read_their_own() {
    let schema = json!({
        "properties": {"a": {"type": "integer"}},
        "allOf": [
            // (`patternProperties` keeps it from joining the root's pass, see
            // `all_of_members_of_properties_join_the_node_pass`.)
            {"properties": {"b": {"type": "integer"}}, "patternProperties": {"^x": true}},
            {"properties": {"c": {"type": "integer"}}, "unevaluatedProperties": false}
        ],
        "unevaluatedProperties": false
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let out = generate_one("direct", &program);
    let check_code = &out[..out.find("fn e0<").expect("an error-collecting root")];
    // The first member only records: it gets the root's own set.
    assert_eq!(check_code.matches("(v, cx, ev)?").count(), 1, "{out}");
    // The second reads its set: it starts from an empty one and merges when valid.
    assert_eq!(check_code.matches("(v, cx, &mut sub)?").count(), 1, "{out}");
    assert_eq!(check_code.matches("ev.merge(&sub)").count(), 1, "{out}");
}

#[test]
fn short_circuit_code_steps_into_an_arrays_items_once() {
    let schema = json!({"type": "array", "items": {"$ref": "#"}});
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let out = generate_one("steps", &program);
    let check_code = &out[..out.find("fn e0<").expect("an error-collecting root")];
    // One step for all the items, and none where there is none; no step per item.
    assert!(check_code.contains("!arr.is_empty()"), "{out}");
    assert_eq!(check_code.matches(".stepping(").count(), 1, "{out}");
    assert!(!check_code.contains("|cx| c"), "{out}");
    // The error path locates each item: its steps stay per item.
    assert!(
        out[out.find("fn e0<").unwrap_or(0)..].contains("At::Index(i)"),
        "{out}"
    );
}

#[test]
fn a_set_read_only_by_its_own_node_is_not_passed_in() {
    // Each item closes its own properties: nothing reads an item's set but the item.
    let schema = json!({
        "items": {
            "properties": {"a": {"type": "integer"}},
            "allOf": [{"properties": {"b": {"type": "integer"}}, "patternProperties": {"^x": true}}],
            "unevaluatedProperties": false
        }
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let item = program
        .node(program.root)
        .checks
        .iter()
        .find_map(|c| match &c.kind {
            CheckKind::Items { schema, .. } => Some(schema.target),
            _ => None,
        });
    let item = item.expect("an items check");
    let collect = program.node(item).collect;
    assert!(collect.properties && !collect.given);
    let out = generate_one("own_set", &program);
    // No set made by the caller nor taken as a parameter: the item makes its own (which
    // its member records into), and records nothing for a caller once
    // `unevaluatedProperties` passed.
    let n = item.0;
    let own = format!(
        "fn c{n}<'a, V: __rt::Instance<'a>>(v: V, cx: &mut __rt::State) -> __rt::Res {{\n        let ev = &mut __rt::Eval::new();"
    );
    assert!(out.contains(&own), "{out}");
    assert!(out.contains(&format!("if !c{n}(x, cx)?")), "{out}");
    assert!(out.contains("(v, cx, ev)?"), "{out}");
    assert!(!out.contains(", &mut __rt::Eval::new())"), "{out}");
    assert!(!out.contains("set_range"), "{out}");
}

#[test]
fn applicator_annotations_cost_nothing_unless_evaluating() {
    let schema = json!({
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^x": true},
        "additionalProperties": false,
        "prefixItems": [true],
        "items": {"type": "string"},
        "contains": {"type": "string"},
        "unevaluatedProperties": false
    });
    let program = crate::check::Compiler::new(crate::options::Options {
        annotations: true,
        ..crate::options::Options::default()
    })
    .compile(&schema)
    .expect("compiles");
    let unit = Unit {
        module: "annotated",
        source: "schemas/test.json",
        file: "schemas/test.json",
        schema_text: None,
        program: &program,
        tool: None,
    };
    // Without `evaluate`: no annotation code at all.
    let plain = generate(std::slice::from_ref(&unit), &EmitOptions::default()).expect("generates");
    for token in [
        "annotate_applied",
        "applied_names",
        "Indices",
        "prefix_items_value",
    ] {
        assert!(!plain.contains(token), "{token} in {plain}");
    }
    // With it: each applicator gives its annotation, behind `cx.annotating()`.
    let options = EmitOptions {
        evaluate: true,
        ..EmitOptions::default()
    };
    let evaluating = generate(&[unit], &options).expect("generates");
    let compact: String = evaluating.split_whitespace().collect();
    for keyword in [
        "properties",
        "patternProperties",
        "additionalProperties",
        "prefixItems",
        "items",
        "contains",
        "unevaluatedProperties",
    ] {
        assert!(
            compact.contains(&format!("cx.annotate_applied(\"{keyword}\",")),
            "no {keyword} annotation in {evaluating}"
        );
    }
    assert!(
        evaluating.matches("cx.annotate_applied(").count() >= 7,
        "{evaluating}"
    );
    assert!(evaluating.contains("__rt::prefix_items_value(arr.len(), 1)"));
    assert!(evaluating.contains("let mut matched = __rt::Indices::new();"));
}

/// The generated code of `schema`, compiled with the default options, as module `module`.
fn generate_schema(module: &str, schema: &serde_json::Value) -> String {
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(schema)
        .expect("compiles");
    generate_one(module, &program)
}

/// The part of generated code before the root's error-collecting function: the
/// short-circuit functions.
fn check_functions(out: &str) -> &str {
    &out[..out.find("fn e0<").expect("an error-collecting root")]
}

#[test]
fn typed_branches_are_called_only_on_their_types() {
    let schema = json!({
        "oneOf": [
            {"type": "string", "minLength": 1},
            {"type": ["integer", "null"]},
            {"properties": {"a": {"type": "string"}}}
        ]
    });
    let out = generate_schema("typed", &schema);
    let check_code = check_functions(&out);
    assert!(
        check_code.contains("matches!(v.kind(), __rt::Kind::String) && c"),
        "{out}"
    );
    assert!(
        check_code.contains("matches!(v.kind(), __rt::Kind::Number | __rt::Kind::Null) && c"),
        "{out}"
    );
    // A branch that admits every type is called on every instance.
    assert_eq!(check_code.matches(") && c").count(), 2, "{out}");
}

#[test]
fn patterns_with_a_fast_path_inline_it() {
    let schema = json!({
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
            "word": {"type": "string", "pattern": "^abc"},
            "prefixed": {"type": "string", "pattern": "^ab(c|d)+$"},
            "lead": {"type": "string", "pattern": "^(a|b)+c$"},
            "free": {"type": "string", "pattern": "(a|b)+c"}
        }
    });
    let out = generate_schema("patterns", &schema);
    let check_code = check_functions(&out);
    // A class run and a literal decide alone, a prefix and a leading set rule out
    // inputs; the last, unanchored, has nothing to inline.
    assert_eq!(
        check_code.matches("cx.is_match_fast(&RE").count(),
        4,
        "{out}"
    );
    assert_eq!(check_code.matches("cx.is_match(&RE").count(), 1, "{out}");
}

#[test]
fn a_function_with_one_short_circuit_caller_is_inlined_in_optimized_builds() {
    let schema = json!({
        "properties": {
            "once": {"type": "string", "minLength": 2},
            "twice_a": {"$ref": "#/$defs/shared"},
            "twice_b": {"type": "integer", "allOf": [{"$ref": "#/$defs/shared"}]}
        },
        "$defs": {"shared": {"type": "number", "maximum": 5}}
    });
    let out = generate_schema("inlining", &schema);
    // The inlining attribute of the function documented with `location`.
    let attribute = |location: &str| {
        let doc = format!("/// `{location}`");
        let at = out.find(&doc).unwrap_or_else(|| panic!("{doc}: {out}"));
        out[at..]
            .lines()
            .nth(1)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    // `once` has one caller, the root; `shared` two (the root's arm for `twice_a` and
    // `twice_b`'s function), so LLVM decides.
    assert_eq!(
        attribute("#/properties/once"),
        "#[cfg_attr(not(debug_assertions), inline(always))]",
        "{out}"
    );
    assert_eq!(attribute("#/$defs/shared"), "#[inline]", "{out}");
}

#[test]
fn regions_count_depth_only_where_a_bound_can_be_reached() {
    // `shared` is out of line (two referrers, too big to copy); nothing recurs.
    let acyclic = json!({
        "properties": {
            "a": {"$ref": "#/$defs/shared"},
            "b": {"items": {"$ref": "#/$defs/shared"}}
        },
        "$defs": {"shared": {
            "type": "object",
            "required": ["x", "y"],
            "properties": {
                "x": {"type": "string", "minLength": 1, "maxLength": 9},
                "y": {"type": "integer", "minimum": 0, "maximum": 9},
                "z": {"type": "array", "minItems": 1, "maxItems": 9}
            }
        }}
    });
    let out = generate_schema("acyclic", &acyclic);
    let check_code = check_functions(&out);
    // Each region only charges the budget: no nesting to count, no step into the instance.
    assert!(check_code.matches("cx.spend_units(").count() >= 2, "{out}");
    for counted in ["enter_region", "leave(", "stepping", "enter_cycle"] {
        assert!(!out.contains(counted), "{counted}: {out}");
    }
    assert!(out.contains("cx.state.spend_units("), "{out}");
    // Only the entry points call the root: it is inlined into them.
    let inlined_root = "inline(always))]\n    fn c0<";
    assert!(out.contains(inlined_root), "{out}");

    // The same schema under limits its deepest chain of regions exceeds.
    let tight = crate::options::Options {
        limits: Limits {
            max_depth: 0,
            ..Limits::default()
        },
        ..crate::options::Options::default()
    };
    let program = crate::check::Compiler::new(tight)
        .compile(&acyclic)
        .expect("compiles");
    let out = generate_one("tight", &program);
    assert!(check_functions(&out).contains("cx.enter_region("), "{out}");
    assert!(check_functions(&out).contains("cx.stepping("), "{out}");

    // A cycle: its nodes count nesting in place, and calls step into the instance.
    let recursive = json!({"properties": {"child": {"$ref": "#"}}, "required": ["name"]});
    let out = generate_schema("recursive", &recursive);
    assert!(check_functions(&out).contains("cx.enter_cycle("), "{out}");
    assert!(check_functions(&out).contains("cx.stepping("), "{out}");
    // The root is called from inside too: it stays one function.
    assert!(!out.contains(inlined_root), "{out}");
}

#[test]
fn several_required_names_are_found_in_one_pass() {
    let out = generate_schema("three", &json!({"required": ["a", "b", "c"]}));
    let check_code = check_functions(&out);
    // Counted: the names share one arm, one comparison after the pass.
    assert!(check_code.contains("let mut found: usize = 0;"), "{out}");
    assert!(
        check_code.contains("matches!(k, \"a\" | \"b\" | \"c\")"),
        "{out}"
    );
    assert!(check_code.contains("if found != 3 {"), "{out}");
    assert!(!check_code.contains("contains_key"), "{out}");
    // The error path reports each missing name by a lookup, in the plan's order.
    assert_eq!(out.matches("obj.contains_key(").count(), 3, "{out}");

    let out = generate_schema("two", &json!({"required": ["a", "b"]}));
    assert_eq!(
        check_functions(&out).matches("obj.contains_key(").count(),
        2,
        "{out}"
    );
}

#[test]
fn a_pass_for_one_name_ends_where_it_finds_it() {
    // The `if` records the position of `kind` for `unevaluatedProperties`, so it passes
    // over the keys; nothing else happens per key, so the pass stops at `kind`.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "a"}}},
        "then": {"properties": {"a": {"type": "integer"}}},
        "unevaluatedProperties": false
    });
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(&schema)
        .expect("compiles");
    let out = generate_one("early", &program);
    let checks = &out[..out.find("fn e0").expect("error functions")];
    let at = checks
        .find("if let Some((i, x)) = __rt::find_entry(*obj, \"kind\") {")
        .expect("a pass for `kind` that ends where it finds it");
    let function = &checks[at..checks[at..].find("fn ").map_or(checks.len(), |n| at + n)];
    assert!(function.contains("ev.props.set(i);"), "{function}");
    // Not on the error path: it keeps the plain pass.
    let errors = &out[out.find("fn e0").expect("error functions")..];
    assert!(!errors.contains("find_entry"), "{errors}");
}

#[test]
fn all_of_members_of_properties_join_the_node_pass() {
    // The shared definition is out of line; the root absorbs it and the other member, so
    // that its check function passes over the object once. The error path keeps the
    // members' own functions.
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "base": {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
        },
        "type": "object",
        "allOf": [
            {"$ref": "#/definitions/base"},
            {"properties": {"nested": {"$ref": "#/definitions/base"}}, "required": ["nested"]}
        ]
    });
    let c0 = root_check_function(&schema);
    assert_eq!(c0.matches("for (k, x) in obj.iter()").count(), 1, "{c0}");
    for name in ["\"a\"", "\"b\"", "\"nested\""] {
        assert!(c0.contains(name), "{name} in {c0}");
    }
    // The out-of-line definition is still paid for where it was applied.
    assert!(c0.contains("cx.spend_units("), "{c0}");
    // With `additionalProperties` of its own, a node keeps its members apart.
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": false,
        "allOf": [{"properties": {"b": {"type": "string"}}}]
    });
    let c0 = root_check_function(&schema);
    assert!(!c0.contains("\"b\""), "{c0}");
}

#[test]
fn if_branches_join_the_node_pass_under_their_verdict() {
    // The conditions are evaluated first; the root's own checks and both `then` branches'
    // are made in one pass over the object, each branch's where its condition holds.
    let schema = json!({
        "properties": {"kind": {"enum": ["a", "b"]}},
        "required": ["kind"],
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "a"}}},
                "then": {"properties": {"x": {"type": "integer"}}, "required": ["x"]}
            },
            {
                "if": {"properties": {"kind": {"const": "b"}}},
                "then": {"properties": {"y": {"type": "string"}}},
                "else": {"required": ["z"]}
            }
        ],
        "unevaluatedProperties": false
    });
    let c0 = root_check_function(&schema);
    // Both conditions compare `kind` with a string: one lookup and one `match` decide them.
    assert!(
        c0.contains("let (holds0, holds1) = match prop0.map(|p| p.as_str()) {"),
        "{c0}"
    );
    assert_eq!(c0.matches("v.get(\"kind\")").count(), 1, "{c0}");
    assert_eq!(c0.matches("k.as_ref()").count(), 1, "{c0}");
    // A name only a `then` evaluates is looked for where its condition holds, after the
    // others; a key none of them took is unevaluated.
    assert!(c0.contains("_ => 'key: {"), "{c0}");
    assert!(c0.contains("if holds0 && k == \"x\" {"), "{c0}");
    assert!(c0.contains("if holds1 && k == \"y\" {"), "{c0}");
    assert_eq!(c0.matches("break 'key;").count(), 2, "{c0}");
    assert!(!c0.contains("if !holds1 {"), "{c0}");
    // The required names found are counted against those that apply.
    assert!(c0.contains("usize::from(holds0)"), "{c0}");
    assert!(c0.contains("usize::from(!holds1)"), "{c0}");
    // `unevaluatedProperties` is decided in that pass too, from the names and verdicts:
    // no evaluated locations are recorded by position, none read.
    assert!(!c0.contains("ev.props.set(i)"), "{c0}");
    assert!(!c0.contains("ev.props.get"), "{c0}");
    // With a member it cannot absorb (`anyOf`), a node reads the locations it recorded.
    let mut schema = schema;
    schema["anyOf"] = json!([{"properties": {"w": true}}, {"required": ["w"]}]);
    let c0 = root_check_function(&schema);
    assert!(c0.contains("ev.props.get"), "{c0}");
    // A branch that is not inline keeps its call.
    let schema = json!({
        "$defs": {"loop": {"properties": {"next": {"$ref": "#/$defs/loop"}}}},
        "properties": {"kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "a"}}},
        "then": {"$ref": "#/$defs/loop"}
    });
    let c0 = root_check_function(&schema);
    assert!(!c0.contains("holds0"), "{c0}");
}

/// The text of the root's short-circuit function in the code generated for `schema`.
fn root_check_function(schema: &serde_json::Value) -> String {
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(schema)
        .expect("compiles");
    let out = generate_one("root", &program);
    let c0 = &out[out.find("fn c0").expect("c0")..];
    c0[..c0[1..].find("\n    fn ").expect("a next function")].to_string()
}

#[test]
fn names_of_a_crowded_length_are_told_apart_by_a_byte() {
    // Five names of six bytes (two sharing a schema), one of five: the six-byte ones are
    // found by their third byte after the length, the other by the plain match.
    let names = ["abc_1x", "abd_2x", "zzz_3x", "qqq_4x", "rrr_5x"];
    let mut properties = serde_json::Map::new();
    for (i, name) in names.iter().enumerate() {
        properties.insert(name.to_string(), json!({"minimum": i.min(1)}));
    }
    properties.insert("short".into(), json!({"type": "null"}));
    let c0 = root_check_function(&json!({
        "properties": properties,
        "additionalProperties": {"type": "array"}
    }));
    assert!(c0.contains("\"short\" => {"), "{c0}");
    assert!(c0.contains("_ if k.len() == 6 => {"), "{c0}");
    assert!(c0.contains("match k.as_bytes()[2] {"), "{c0}");
    // One arm per byte, the two names with one schema included.
    for (byte, name) in [('c', "abc_1x"), ('d', "abd_2x"), ('z', "zzz_3x")] {
        assert!(
            c0.contains(&format!("b'{byte}' if k == \"{name}\" => {{")),
            "{c0}"
        );
    }
    // Few names of one length keep the plain match.
    let c0 = root_check_function(&json!({
        "properties": {"abc_1x": {"minimum": 1}, "abd_2x": {"minimum": 2}},
        "additionalProperties": {"type": "array"}
    }));
    assert!(!c0.contains("as_bytes()"), "{c0}");
}

#[test]
fn an_absorbed_reference_does_not_split_the_node_pass() {
    // `allOf: [$ref]` to a shared node of properties (out of line: `a` uses it too),
    // then the node's own `type` and `properties`: one pass over the object for all.
    let c0 = root_check_function(&json!({
        "allOf": [{"$ref": "#/$defs/config"}],
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/config"}, "b": {"$ref": "#/$defs/config"}},
        "$defs": {"config": {"properties": {"x": {"type": "string"}, "y": {"type": "integer"}}}}
    }));
    assert_eq!(c0.matches("for (k, x) in obj.iter()").count(), 1, "{c0}");
    assert!(c0.contains("\"a\" | \"b\""), "{c0}");
    assert!(c0.contains("\"x\""), "{c0}");
}

#[test]
fn branches_on_disjoint_variants_are_one_match_on_the_variant() {
    let one_of = json!({"oneOf": [
        {"type": "string", "minLength": 2},
        {"type": "object", "required": ["a"]},
        {"type": ["integer", "boolean"]}
    ]});
    let c0 = root_check_function(&one_of);
    assert!(c0.contains("let passes = match v.kind() {"), "{c0}");
    assert!(c0.contains("_ => false,"), "{c0}");
    assert!(!c0.contains("matched"), "{c0}");
    let any_of = json!({"anyOf": [{"type": "string"}, {"type": "array", "minItems": 1}]});
    assert!(root_check_function(&any_of).contains("let passes = match v.kind() {"));
    // Two branches that may both pass on strings keep the count.
    let overlapping = json!({"oneOf": [
        {"type": "string", "minLength": 2},
        {"type": ["string", "object"], "maxLength": 3}
    ]});
    let c0 = root_check_function(&overlapping);
    assert!(!c0.contains("let passes"), "{c0}");
    assert!(c0.contains("matched"), "{c0}");
}

#[test]
fn conditions_on_one_property_are_decided_by_one_match() {
    let branch = |value: serde_json::Value, name: &str| {
        json!({
            "if": {"properties": {"kind": value}},
            "then": {"properties": {name: {"type": "integer"}}, "required": [name]}
        })
    };
    let schema = json!({
        "allOf": [
            branch(json!({"enum": ["a", "b"]}), "x"),
            branch(json!({"const": "b"}), "y"),
            // Not a string: decided by its own call.
            branch(json!({"const": 1}), "z")
        ]
    });
    let out = generate_schema("kinds", &schema);
    let check_code = check_functions(&out);
    assert_eq!(check_code.matches("v.get(\"kind\")").count(), 1, "{out}");
    assert!(
        check_code.contains("let (holds0, holds1) = match prop0.map(|p| p.as_str()) {"),
        "{out}"
    );
    assert!(check_code.contains("\"b\" => (true, true),"), "{out}");
    assert!(check_code.contains("let holds2 = match prop0 {"), "{out}");

    // An `enum` long enough for a lookup table charges the lookup: decided by its call.
    let long: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
    let schema = json!({
        "allOf": [branch(json!({"enum": long}), "x"), branch(json!({"const": "b"}), "y")]
    });
    let out = generate_schema("long", &schema);
    let check_code = check_functions(&out);
    assert!(!check_code.contains("let (holds0"), "{out}");
    assert!(check_code.contains("let holds0 = match prop0 {"), "{out}");

    // Many conditions: at most 16 per `match`.
    let many: Vec<serde_json::Value> = (0..20)
        .map(|i| branch(json!({"const": format!("k{i}")}), "x"))
        .collect();
    let out = generate_schema("many", &json!({ "allOf": many }));
    let check_code = check_functions(&out);
    assert_eq!(
        check_code.matches("Some(Some(text)) => {").count(),
        2,
        "{out}"
    );
    assert!(
        check_code.contains("let (holds16, holds17, holds18, holds19) ="),
        "{out}"
    );
}

#[test]
fn items_of_constant_time_checks_are_peeled_by_the_minimum() {
    let out = generate_schema(
        "peeled",
        &json!({
            "minItems": 2,
            "items": {"type": "number", "maximum": 180},
            "properties": {
                "many": {"minItems": 9, "items": {"const": 1}},
                "named": {"minItems": 2, "items": {"type": "string", "pattern": "^a"}},
                "free": {"items": {"type": "number"}}
            }
        }),
    );
    let check_code = check_functions(&out);
    // The pair: two items tested before the loop over the rest.
    assert!(
        check_code.contains("arr.split_at(arr.len().min(2))"),
        "{out}"
    );
    // Nine: peeled by four at most.
    assert!(
        check_code.contains("arr.split_at(arr.len().min(4))"),
        "{out}"
    );
    // A pattern is no constant-time check, and without `minItems` nothing is peeled.
    assert_eq!(check_code.matches("split_at").count(), 2, "{out}");
    // The error path keeps one loop.
    assert!(!out[check_code.len()..].contains("split_at"), "{out}");
}

#[test]
fn every_error_a_check_reports_is_written_as_a_constant() {
    use crate::check::Compiler;
    use crate::options::Options;
    use crate::plan::messages::{failure, Failure};
    // Every assertion and applicator of 2020-12 and draft-07 with an error of its own.
    let schemas = [
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "const": {"a": "x\"y"}, "enum": [1, "two", null], "multipleOf": 2.5,
            "minimum": 1, "maximum": 9, "exclusiveMinimum": 0, "exclusiveMaximum": 1e300,
            "minLength": 1, "maxLength": 9, "pattern": "^a\\d", "format": "email",
            "minItems": 1, "maxItems": 2, "uniqueItems": true,
            "contains": {"type": "integer"}, "minContains": 2, "maxContains": 3,
            "minProperties": 1, "maxProperties": 3, "not": {"type": "integer"},
            "properties": {"a": false, "b": {"contains": true}}
        }),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "contentMediaType": "application/json", "contentEncoding": "base64",
            "multipleOf": 3
        }),
    ];
    let options = Options {
        assert_format: true,
        assert_content: true,
        ..Options::default()
    };
    let mut written = BTreeSet::new();
    for schema in schemas {
        let program = Compiler::new(options.clone())
            .compile(&schema)
            .expect("compiles");
        for check in program.nodes.iter().flat_map(|n| &n.checks) {
            if let Failure::Reports(kind) = failure(&program, &check.kind) {
                let tokens = value::error_kind(&kind).to_string();
                assert!(
                    tokens.starts_with("__rt :: ErrorKind ::"),
                    "{kind:?}: {tokens}"
                );
                written.insert(
                    format!("{kind:?}")
                        .split([' ', '{'])
                        .next()
                        .map(String::from),
                );
            }
        }
    }
    // The schemas reached every kind `failure` makes.
    assert_eq!(written.len(), 21, "{written:?}");
}
