//! Each hand-written check against schemac's interpreter on `valid.json`,
//! `invalid.json` and thousands of mutations of them (every property removed, replaced
//! by values of every type and edge, and unknown properties added), in the first
//! objects of each instance (cut to its first entries, a few levels deep, which cover
//! every shape).

use schemac_benches::handwritten::{for_module, w4_patterns};
use schemac_benches::{interpreted, paths};
use schemac_runtime::{Validate, Verdict};
use serde_json::{json, Value};

/// Values that probe types, integer-valued floats, bounds and code-point lengths.
fn palette() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1),
        json!(1.0),
        json!(1.5),
        json!(0.5),
        json!(-0.0),
        json!(1000000),
        json!(1000001),
        json!(1e6),
        json!(18446744073709551615u64),
        json!(""),
        json!("x"),
        json!("EUR"),
        json!("eur"),
        json!("EURO"),
        json!("ÉUR"),
        json!("high"),
        json!("click"),
        json!("purchase"),
        json!("signup"),
        json!("pro"),
        json!("/a/{id}"),
        json!("a/b"),
        json!("é".repeat(32)),
        json!("é".repeat(33)),
        json!("a".repeat(64)),
        json!("ü".repeat(65)),
        json!("DE89370400440532013000"),
        json!("1234567"),
        json!("ü".repeat(8)),
        json!([]),
        json!(["a", "b"]),
        json!(["a", "a"]),
        json!(["1", "2", "3", "4", "5", "6", "7", "8", "9"]),
        json!([1]),
        json!({}),
        json!({"path": "/ok"}),
        json!({"path": "nope"}),
        json!({"id": 1, "label": "n"}),
        json!({"name": "n", "account": "12345678"}),
    ]
}

/// Keys that probe the patterns of w4 and the branch properties of w3.
fn extra_keys() -> Vec<&'static str> {
    vec![
        "unknown",
        "x-a",
        "x-",
        "x-A",
        "x-a-1",
        "mem_1",
        "mem_12345",
        "_1",
        "mem_",
        "get_a",
        "get_",
        "get__",
        "patch_a",
        "delete_x_y",
        "x",
        "sku",
        "plan",
        "target",
        "referrer",
        "kind",
        "memo",
        "note",
        "children",
        "mem_0001\n",
    ]
}

/// Mutations of `root`: at each of the first `max_objects` objects (depth first), each
/// property removed, replaced by each palette value, and each extra key added with
/// each palette value; also the root replaced by each palette value.
fn mutations(root: &Value, max_objects: usize) -> Vec<Value> {
    let mut out: Vec<Value> = palette();
    let mut pointers = Vec::new();
    collect_objects(root, String::new(), &mut pointers, max_objects);
    for pointer in pointers {
        let Some(Value::Object(object)) = root.pointer(&pointer) else {
            continue;
        };
        let keys: Vec<String> = object.keys().cloned().collect();
        let mut edit = |f: &dyn Fn(&mut serde_json::Map<String, Value>)| {
            let mut copy = root.clone();
            if let Some(Value::Object(o)) = copy.pointer_mut(&pointer) {
                f(o);
            }
            out.push(copy);
        };
        for key in &keys {
            edit(&|o| {
                o.remove(key);
            });
            for value in palette() {
                edit(&|o| {
                    o.insert(key.clone(), value.clone());
                });
            }
        }
        for key in extra_keys() {
            for value in palette() {
                edit(&|o| {
                    o.insert(key.to_string(), value.clone());
                });
            }
        }
    }
    out
}

/// `v` with every array cut to its first 4 items, every object to its first 12
/// properties, and arrays below 8 levels emptied (the instances have 1000 entries; their
/// first ones, a few levels deep, cover every shape).
fn shrink(v: &Value, depth: usize) -> Value {
    match v {
        Value::Array(_) if depth >= 8 => Value::Array(Vec::new()),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .take(4)
                .map(|item| shrink(item, depth + 1))
                .collect(),
        ),
        Value::Object(o) => Value::Object(
            o.iter()
                .take(12)
                .map(|(k, v)| (k.clone(), shrink(v, depth + 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn collect_objects(v: &Value, pointer: String, out: &mut Vec<String>, max: usize) {
    if out.len() >= max {
        return;
    }
    match v {
        Value::Object(o) => {
            out.push(pointer.clone());
            for (k, child) in o {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                collect_objects(child, format!("{pointer}/{escaped}"), out, max);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate().take(3) {
                collect_objects(child, format!("{pointer}/{i}"), out, max);
            }
        }
        _ => {}
    }
}

fn agree_with_schemac(module: &str, dir: &str) {
    let shared = paths::shared_dir().unwrap();
    let dir = shared.join("bench-mcp").join(dir);
    let schema = paths::read_json(&dir.join("schema.json")).unwrap();
    let compiler = interpreted::compiler(&shared).unwrap();
    let interpreter = interpreted::interpreter(&compiler, module, &schema).unwrap();
    let check = for_module(module).unwrap();
    let valid = paths::read_json(&dir.join("valid.json")).unwrap();
    let invalid = paths::read_json(&dir.join("invalid.json")).unwrap();
    assert!(check(&valid), "{module}: valid.json");
    assert!(!check(&invalid), "{module}: invalid.json");
    let (mut tested, mut accepted) = (0, 0);
    for instance in mutations(&shrink(&valid, 0), 12)
        .into_iter()
        .chain(mutations(&shrink(&invalid, 0), 12))
    {
        let verdict = interpreter.check(&instance);
        assert!(
            !matches!(verdict, Verdict::Incomplete(_)),
            "{module}: schemac could not finish: {verdict:?}"
        );
        let expected = verdict == Verdict::Valid;
        assert_eq!(
            check(&instance),
            expected,
            "{module}: hand-written and schemac disagree on {}",
            serde_json::to_string(&instance)
                .unwrap()
                .chars()
                .take(400)
                .collect::<String>()
        );
        tested += 1;
        accepted += usize::from(expected);
    }
    // The mutations must exercise both outcomes.
    assert!(
        tested > 1000 && accepted > 10,
        "{module}: {tested} tested, {accepted} valid"
    );
}

#[test]
fn w1_agrees_with_schemac() {
    agree_with_schemac("w1_mcp_tool", "w1-mcp-tool");
}

#[test]
fn w2_agrees_with_schemac() {
    agree_with_schemac("w2_tree", "w2-tree");
}

#[test]
fn w3_agrees_with_schemac() {
    agree_with_schemac("w3_unevaluated", "w3-unevaluated");
}

#[test]
fn w4_agrees_with_schemac() {
    agree_with_schemac("w4_patterns", "w4-patterns");
}

#[test]
fn w4_key_patterns_at_their_edges() {
    let accepts = |key: &str, value: Value| w4_patterns(&json!({ key: value }));
    // ^x-[a-z][a-z0-9-]*$ → string
    assert!(accepts("x-a1-", json!("s")));
    assert!(!accepts("x-1", json!("s")));
    assert!(!accepts("x-a", json!(1)));
    // ^[a-z]+_[0-9]{1,4}$ → integer >= 0
    assert!(accepts("cpu_0001", json!(0)));
    assert!(accepts("cpu_1", json!(2.0)));
    assert!(!accepts("cpu_00001", json!(1)));
    assert!(!accepts("cpu_", json!(1)));
    assert!(!accepts("cpu_1", json!(-1)));
    assert!(!accepts("cpu_1\n", json!(1)));
    // ^(get|put|post|delete)_[a-z_]+$ → {path: ^/[a-z0-9_/{}-]*$}
    assert!(accepts("delete_a_", json!({"path": "/a/{id}-_9"})));
    assert!(accepts("get_x", json!({"path": "/"})));
    assert!(!accepts("delete_", json!({"path": "/"})));
    assert!(!accepts("get_a1", json!({"path": "/"})));
    assert!(!accepts("get_a", json!({"path": "/A"})));
    assert!(!accepts("get_a", json!({})));
    assert!(w4_patterns(&json!({})));
    assert!(!w4_patterns(&json!([])));
}
