//! The hostile schemas of issue 9 (`tests/src/hostile.rs`) through both backends: the
//! interpreter and the code `build.rs` generated for them (compiled at opt-level 0), in
//! `check` and in `validate`, each on a thread with a 2 MiB stack. Bounded work is shown
//! by outcomes under budgets that fit exactly the counted cost — a valid instance, and
//! `incomplete` for one more item — never by timing.

use schemac::interp::Interpreter;
use schemac_runtime::json::drop_deep;
use schemac_runtime::{IncompleteReason, Report, Validate, Verdict};
use schemac_tests::hostile::{self, Hostile};
use schemac_tests::{generated, registry};
use serde_json::{json, Map, Value};

/// The two backends of hostile schema `name`.
fn backends(name: &str) -> [(&'static str, Box<dyn Validate>); 2] {
    let h: &Hostile = hostile::find(name).unwrap_or_else(|| panic!("no hostile schema {name}"));
    let program = registry::compiler(h.options())
        .unwrap_or_else(|e| panic!("{e}"))
        .compile_named(h.name, &(h.schema)())
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let generated =
        generated::hostile(name).unwrap_or_else(|| panic!("no generated validator for {name}"));
    [
        ("interpreted", Box::new(Interpreter::new(program))),
        ("generated", Box::new(Shared(generated))),
    ]
}

/// A generated validator (a `&'static` one) as a boxed [`Validate`].
struct Shared(&'static (dyn Validate + Sync));

impl Validate for Shared {
    fn check(&self, instance: &Value) -> Verdict {
        self.0.check(instance)
    }
    fn validate(&self, instance: &Value) -> Report {
        self.0.validate(instance)
    }
    fn check_with_usage(&self, instance: &Value) -> (Verdict, schemac_runtime::Usage) {
        self.0.check_with_usage(instance)
    }
}

/// Runs `f` on a thread with a 2 MiB stack.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic, no stack overflow");
}

/// Checks that each backend of `name` gives `expected` for `instance` in both modes.
fn expect(name: &str, cases: Vec<(Value, Verdict)>) {
    let name = name.to_string();
    on_small_stack(move || {
        let backends = backends(&name);
        for (instance, expected) in cases {
            for (backend, v) in &backends {
                let shown = short(&instance);
                assert_eq!(
                    v.check(&instance),
                    expected,
                    "[{backend}] {name} check {shown}"
                );
                assert_eq!(
                    v.validate(&instance).verdict,
                    expected,
                    "[{backend}] {name} validate {shown}"
                );
            }
            drop_deep(instance);
        }
    });
}

/// The start of an instance's text, for failure messages.
fn short(instance: &Value) -> String {
    let text = instance.to_string();
    text.chars().take(60).collect()
}

fn number(text: &str) -> Value {
    serde_json::from_str(text).expect("a number")
}

const VALID: Verdict = Verdict::Valid;
const INVALID: Verdict = Verdict::Invalid;
const OVER_BUDGET: Verdict = Verdict::Incomplete(IncompleteReason::BudgetExceeded);

#[test]
fn numbers_compare_exactly() {
    expect(
        "multiple_of_one",
        vec![
            (number("1e-17"), INVALID),
            (number("5e-324"), INVALID),
            (number("3"), VALID),
            (number("3.0"), VALID),
        ],
    );
    expect(
        "maximum_i64",
        vec![
            (number("9223372036854775808.0"), INVALID),
            (number("9223372036854775807"), VALID),
        ],
    );
    for name in ["const_beyond_f64", "enum_beyond_f64"] {
        expect(
            name,
            vec![
                (number("9007199254740992.0"), INVALID),
                (number("9007199254740993"), VALID),
            ],
        );
    }
    expect(
        "unique_items",
        vec![
            (
                json!([10_000_000_000_000_000_001u64, number("1e19")]),
                VALID,
            ),
            (
                json!([10_000_000_000_000_000_000u64, number("1e19")]),
                INVALID,
            ),
        ],
    );
}

#[test]
fn regex_work_is_bounded() {
    let a = "a".repeat(999_999);
    expect(
        "counted_repetition",
        vec![
            (json!(format!("{a}b")), VALID),
            (json!(format!("{a}a")), INVALID),
        ],
    );
    expect(
        "heavy_pattern",
        vec![
            (json!("ca".repeat(50_000)), OVER_BUDGET),
            (json!("xcaad"), VALID),
        ],
    );
}

#[test]
fn an_exponential_fan_out_runs_out_of_budget() {
    // A number fails every level's second branch on its type: one path, a verdict.
    expect(
        "fan_out_40",
        vec![(json!("x"), OVER_BUDGET), (json!(1), INVALID)],
    );
    expect(
        "fan_out_6",
        vec![(json!("x"), INVALID), (json!(1), INVALID)],
    );
}

#[test]
fn errors_are_bounded_alike() {
    on_small_stack(|| {
        let rows = Value::Array(vec![json!({}); 100_000]);
        for (backend, v) in backends("error_amplification") {
            assert_eq!(v.check(&rows), INVALID, "[{backend}]");
            let report = v.validate(&rows);
            assert_eq!(report.verdict, INVALID, "[{backend}]");
            assert_eq!(report.errors.len(), 100, "[{backend}]");
            assert_eq!(report.errors_omitted, 5 * 100_000 - 100, "[{backend}]");
            assert_eq!(report.errors[0].instance_location, "/0", "[{backend}]");
        }
    });
}

#[test]
fn errors_past_the_bound_are_counted_at_once() {
    // 100,000 items each missing 10,000 required names: a billion errors, 100 kept, the
    // rest counted per keyword at once, within the counted cost (`hostile::REQUIRED_COST`,
    // `hostile::DEPENDENT_REQUIRED_COST`). Before, every missing name was looked up and
    // counted one by one, uncharged: 24 s for `required` (the issue's figure), and the
    // reports below stopped at neither budget.
    on_small_stack(|| {
        let names = hostile::REQUIRED_NAMES as u64;
        for (name, item) in [
            ("required_past_the_bound", json!({})),
            ("dependent_required_past_the_bound", json!({"a": 1})),
        ] {
            for (backend, v) in backends(name) {
                let rows = Value::Array(vec![item.clone(); hostile::INSTANCE_ITEMS]);
                assert_eq!(v.check(&rows), INVALID, "[{backend}] {name}");
                let report = v.validate(&rows);
                assert_eq!(report.verdict, INVALID, "[{backend}] {name}");
                assert_eq!(report.errors.len(), 100, "[{backend}] {name}");
                let all = hostile::INSTANCE_ITEMS as u64 * names;
                assert_eq!(report.errors_omitted, all - 100, "[{backend}] {name}");
                // One item more: over the budget where the loop is charged (`required`,
                // whose first count is then not paid for), or at the last item's count.
                let rows = Value::Array(vec![item.clone(); hostile::INSTANCE_ITEMS + 1]);
                let report = v.validate(&rows);
                let counted = match name {
                    "required_past_the_bound" => 0,
                    _ => all - names - 100,
                };
                assert_eq!(report.errors_omitted, counted, "[{backend}] {name} + 1");
            }
        }
    });
}

/// `INSTANCE_ITEMS` items (`n` more), item `i` being `item(i)`.
fn items(extra: usize, item: impl Fn(usize) -> Value) -> Value {
    Value::Array((0..hostile::INSTANCE_ITEMS + extra).map(item).collect())
}

#[test]
fn a_large_string_enum_is_looked_up() {
    // The budget is the counted cost of 100,000 lookups (`hostile::ENUM_COST`): one unit
    // each, where comparing with 10,000 members one by one is 37,673 instructions in
    // generated code against 717 for the lookup (callgrind, release).
    let member = |i: usize| json!(hostile::member(i % hostile::ENUM_MEMBERS));
    let mut wrong = items(0, member);
    wrong[77_777] = json!("member-1000");
    expect(
        "big_string_enum",
        vec![
            (items(0, member), VALID),
            (wrong, INVALID),
            (items(1, member), OVER_BUDGET),
        ],
    );
}

#[test]
fn a_large_number_enum_is_looked_up_exactly() {
    // Integer members given as floats (`5.0`) are members; neighbours of the integer
    // members are not.
    let member = |i: usize| {
        let m = hostile::number_member(i % hostile::ENUM_MEMBERS);
        match m.as_i64() {
            Some(n) if i % 7 == 1 => json!(n as f64),
            _ => m,
        }
    };
    let mut wrong = items(0, member);
    wrong[4_242] = json!(-4999);
    let mut float = items(0, member);
    float[10] = json!(-4999.5);
    expect(
        "big_number_enum",
        vec![
            (items(0, member), VALID),
            (wrong, INVALID),
            (float, INVALID),
            (items(1, member), OVER_BUDGET),
        ],
    );
}

#[test]
fn unique_items_hash_whole_items_and_charge_them() {
    // 20,000 distinct arrays nested 9 deep: every item hashed whole (200,000 values, one
    // unit per 16), none compared. Under the counted cost the array is valid; one more
    // item is over it. (Before, the hash stopped at depth 8: every item hashed alike and
    // 200 million pairs were compared, uncharged — `valid` after 41 s, in any budget.)
    let deep = |extra: usize| {
        Value::Array(
            (0..hostile::UNIQUE_ITEMS + extra)
                .map(hostile::deep_item)
                .collect(),
        )
    };
    let mut repeated = deep(0);
    repeated[19_999] = hostile::deep_item(3);
    expect(
        "unique_deep_arrays",
        vec![(deep(0), VALID), (deep(1), OVER_BUDGET)],
    );
    // Under the default budget: verdicts, a repeated item found (the pair compared).
    expect("unique_items", vec![(deep(0), VALID), (repeated, INVALID)]);
}

#[test]
fn composite_enum_members_are_found_by_hash_and_charged() {
    // 8,000 arrays nested 12 deep against an `enum` of 1,000 such arrays: each item hashed
    // (13 values), found among the members' hashes (10 probes) and compared with the one
    // member of its hash, charged one unit per 16 values (`hostile::COMPOSITE_COST`). Under
    // that cost the members are valid, one more item is over it, a non-member is invalid.
    // (Before, each item was compared with every member, 13,000 pairs of values, and the
    // `enum` charged nothing: the extra item was `valid`.)
    let members = |extra: usize| {
        Value::Array(
            (0..hostile::COMPOSITE_ITEMS + extra)
                .map(|i| hostile::composite_item(i % hostile::COMPOSITE_MEMBERS))
                .collect(),
        )
    };
    let mut stranger = members(0);
    stranger[7_999] = hostile::composite_item(hostile::COMPOSITE_MEMBERS);
    expect(
        "composite_enum",
        vec![
            (members(0), VALID),
            (stranger, INVALID),
            (members(1), OVER_BUDGET),
        ],
    );
    on_small_stack(move || {
        for (backend, v) in backends("composite_enum") {
            let (verdict, usage) = v.check_with_usage(&members(0));
            assert_eq!(verdict, VALID, "[{backend}]");
            assert_eq!(usage.units, hostile::COMPOSITE_COST, "[{backend}]");
        }
    });
}

#[test]
fn the_issue_composite_enum_ends_within_the_default_budget() {
    // Issue 38 item 3 as filed: an `enum` of 10,000 arrays nested 60 deep against 8,000
    // arrays of the same shape that are not members (984 KB), through the interpreter
    // (generated code for it would be 600,000 nested closures; `composite_enum` above
    // holds the generated backend to the same lookup). Every item hashed (61 values) and
    // looked up (14 probes), none compared: 5 units each, 1 for its node, 1 for the root:
    // 48,001 in `validate` (28.6 ms in a release build). Before: 12.7 s, 8,001 units.
    let deep = |i: usize| {
        let mut v = json!(i);
        for _ in 0..60 {
            v = Value::Array(vec![v]);
        }
        v
    };
    let schema = json!({"items": {"enum": (0..10_000).map(deep).collect::<Vec<_>>()}});
    let items = Value::Array((10_000..18_000).map(deep).collect());
    on_small_stack(move || {
        let program = registry::compiler(schemac::Options::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .compile_named("issue.json", &schema)
            .unwrap_or_else(|e| panic!("{e:?}"));
        let v = Interpreter::new(program);
        let per_item = 1 + (61u64 + hostile_probes(10_000)).div_ceil(16);
        let (verdict, usage) = v.check_with_usage(&items);
        assert_eq!(verdict, INVALID);
        // `check`: every item's node charged before the loop, the first lookup decides
        // (8,006 units, measured).
        assert_eq!(usage.units, 1 + 8_000 + (per_item - 1));
        let report = v.validate(&items);
        assert_eq!(report.verdict, INVALID);
        assert_eq!(report.errors_omitted, 8_000 - 100);
        assert_eq!(report.usage.units, 1 + 8_000 * per_item);
        drop_deep(items);
        drop_deep(schema);
    });
}

/// The probes of a binary search over `n` entries, as `schemac_runtime::lookup` counts
/// them: the bits of `n`.
fn hostile_probes(n: usize) -> u64 {
    u64::from(usize::BITS - n.leading_zeros())
}

/// An object with `INSTANCE_ITEMS` keys (`extra` more) for `many_pattern_properties`.
fn keyed(extra: usize) -> Map<String, Value> {
    (0..hostile::INSTANCE_ITEMS + extra)
        .map(|i| (hostile::pattern_key(i), json!(i)))
        .collect()
}

#[test]
fn many_pattern_properties_use_the_prefilter() {
    // 5,000 patterns, 100,000 keys: within `hostile::PATTERN_COST`, three units per key,
    // where trying every pattern would cost at least 5,000 per key.
    let mut stranger = keyed(0);
    stranger.insert("q".into(), json!(1));
    stranger.remove(&hostile::pattern_key(0));
    let mut wrong = keyed(0);
    wrong.insert(hostile::pattern_key(3), json!("s"));
    expect(
        "many_pattern_properties",
        vec![
            (Value::Object(keyed(0)), VALID),
            (Value::Object(stranger), INVALID),
            (Value::Object(wrong), INVALID),
            (Value::Object(keyed(1)), OVER_BUDGET),
        ],
    );
}

#[test]
fn control_characters_in_names_and_patterns() {
    // The generated module compiled (with `\r` in its `$id`, names and patterns), and
    // agrees with the interpreter.
    expect(
        "control_characters",
        vec![
            (json!({"p\r\n": "\r\u{0}", "x\rz": 2}), VALID),
            (json!({"p\r\n": "x"}), INVALID),
            (json!({"x\r": 1.5}), INVALID),
            (json!({"\u{7}": 1}), INVALID),
            (
                json!({"q\u{202e}\u{2066}\u{61c}\u{200f}\u{2028}\u{2029}": "\u{202e}\u{2066}\u{2029}"}),
                VALID,
            ),
            (
                json!({"q\u{202e}\u{2066}\u{61c}\u{200f}\u{2028}\u{2029}": "x"}),
                INVALID,
            ),
            (json!({"y\u{2069}": 1}), INVALID),
        ],
    );
}

#[test]
fn a_module_named_with_control_characters_compiles() {
    // The same schema, generated under a name with a CR, a line separator and
    // bidirectional controls (its module's doc comment quotes the name, and its `SCHEMA`
    // holds the schema's text): it compiled, and gives the same verdicts.
    let named = generated::hostile(hostile::CONTROL_CHARACTERS_SOURCE).expect("generated");
    let plain = generated::hostile("control_characters").expect("generated");
    for instance in [
        json!({"p\r\n": "\r\u{0}"}),
        json!({"q\u{202e}\u{2066}\u{61c}\u{200f}\u{2028}\u{2029}": "x"}),
        json!({"y\u{2069}": 1}),
    ] {
        assert_eq!(named.validate(&instance), plain.validate(&instance));
    }
}

fn nested_arrays(depth: usize) -> Value {
    let mut v = json!([]);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// A schema of `items` nested `depth` deep, with `leaf` innermost.
fn nested_items(depth: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..depth {
        let mut map = Map::new();
        map.insert("items".into(), v);
        v = Value::Object(map);
    }
    v
}

#[test]
fn deep_instances_get_verdicts_on_a_small_stack() {
    expect(
        "deep_items",
        vec![
            (nested_arrays(100), VALID),
            (
                nested_arrays(10_000),
                Verdict::Incomplete(IncompleteReason::DepthExceeded),
            ),
        ],
    );
    expect(
        "meta_schema",
        vec![
            (nested_items(16, json!({"type": "string"})), VALID),
            (nested_items(16, json!({"type": 5})), INVALID),
        ],
    );
    // Nested 64 deep against the meta-schema (issue 9, item 11): both backends give the
    // same answer, and never a wrong one.
    on_small_stack(|| {
        let [(_, interpreted), (_, generated)] = backends("meta_schema");
        for (leaf, wrong) in [
            (json!({"type": "string"}), INVALID),
            (json!({"type": 5}), VALID),
        ] {
            let schema = nested_items(64, leaf);
            let verdict = interpreted.check(&schema);
            assert_ne!(verdict, wrong, "{}", short(&schema));
            assert_eq!(generated.check(&schema), verdict, "{}", short(&schema));
            assert_eq!(interpreted.validate(&schema).verdict, verdict);
            assert_eq!(generated.validate(&schema).verdict, verdict);
        }
    });
}

#[test]
fn chains_longer_than_rustcs_recursion_limit_compile() {
    // `build.rs` generated both schemas' validators and rustc compiled them: chains of
    // `hostile::CHAIN_LINKS` (300) links, where naming each link's function inside a
    // runtime helper's closure made ~130 fail ("reached the recursion limit while
    // instantiating `Errors::child`"). They run, and give the interpreter's verdicts and
    // errors.
    let chain = hostile::chain_instance;
    let cases = [
        ("ref_chain", chain(40, json!(1), None), VALID),
        ("ref_chain", chain(40, json!(true), None), INVALID),
        ("ref_chain", chain(40, json!(1), Some(20)), INVALID),
        ("ref_ring", chain(40, json!({}), None), VALID),
        ("ref_ring", chain(40, json!({}), Some(20)), INVALID),
    ];
    on_small_stack(move || {
        for (name, instance, expected) in cases {
            let [(_, interpreted), (_, generated)] = backends(name);
            let report = generated.validate(&instance);
            assert_eq!(report.verdict, expected, "{name}");
            assert_eq!(generated.check(&instance), expected, "{name}");
            let other = interpreted.validate(&instance);
            assert_eq!(report.errors, other.errors, "{name}");
            assert_eq!(report.errors_omitted, other.errors_omitted, "{name}");
            if expected == INVALID {
                assert!(!report.errors.is_empty(), "{name}");
            }
            drop_deep(instance);
        }
    });
}
