//! Hand-written checks of the four MCP workloads' schemas (`bench-mcp/w1..w4`) on
//! `serde_json::Value`: what a careful Rust programmer would write for exactly the
//! schema's semantics (JSON Schema 2020-12: `integer` accepts `1.0`, string lengths count
//! code points, `pattern`s are ECMA-262 without the multiline flag, so `$` is the end of
//! the string), with no schema and no allocation. They are the floor the generated code is
//! measured against.
//!
//! Unlike schemac's validators they have no evaluation budget or depth bound (`w2_tree`
//! recurses once per tree level): they agree with the schema on every instance schemac
//! can fully check, which the tests here (mutations of `valid.json`) and the
//! differential test assert.

use serde_json::{Number, Value};

/// The hand-written check for `module`, if it is an MCP workload.
pub fn for_module(module: &str) -> Option<fn(&Value) -> bool> {
    match module {
        "w1_mcp_tool" => Some(w1_mcp_tool),
        "w2_tree" => Some(w2_tree),
        "w3_unevaluated" => Some(w3_unevaluated),
        "w4_patterns" => Some(w4_patterns),
        _ => None,
    }
}

/// `type: integer`: a number with no fractional part (`1.0` included).
fn is_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// The number as an `f64` for comparisons with small integer bounds (exact for every
/// integer of magnitude up to 2^53, and for every float).
fn as_f64(n: &Number) -> f64 {
    if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// An integer within `min..=max`.
fn integer_in(v: &Value, min: i64, max: i64) -> bool {
    match v {
        Value::Number(n) if is_integer(n) => {
            if let Some(i) = n.as_i64() {
                min <= i && i <= max
            } else {
                let f = as_f64(n);
                min as f64 <= f && f <= max as f64
            }
        }
        _ => false,
    }
}

/// An integer no smaller than `min`.
fn integer_at_least(v: &Value, min: i64) -> bool {
    match v {
        Value::Number(n) if is_integer(n) => match n.as_i64() {
            Some(i) => i >= min,
            None => n.is_u64() || as_f64(n) >= min as f64,
        },
        _ => false,
    }
}

/// A string of at most `max` code points (byte length first: a string of at most `max`
/// bytes has at most `max` code points).
fn string_at_most(v: &Value, max: usize) -> bool {
    match v {
        Value::String(s) => s.len() <= max || s.chars().count() <= max,
        _ => false,
    }
}

/// A string of `min..=max` code points.
fn string_between(v: &Value, min: usize, max: usize) -> bool {
    match v {
        Value::String(s) => {
            if s.len() < min {
                return false;
            }
            let n = s.chars().count();
            min <= n && n <= max
        }
        _ => false,
    }
}

/// `bench-mcp/w1-mcp-tool`: a typical tool input schema.
pub fn w1_mcp_tool(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    let mut required = 0;
    for (key, value) in o {
        let ok = match key.as_str() {
            "currency" => {
                required += 1;
                // pattern ^[A-Z]{3}$ (and maxLength 3, implied).
                matches!(value, Value::String(s) if s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase()))
            }
            "amount" => {
                required += 1;
                integer_in(value, 1, 1_000_000)
            }
            "priority" => matches!(
                value,
                Value::String(s) if matches!(s.as_str(), "low" | "normal" | "high" | "urgent")
            ),
            "tags" => match value {
                Value::Array(items) => {
                    items.len() <= 8
                        && items.iter().all(|t| string_at_most(t, 32))
                        && items
                            .iter()
                            .enumerate()
                            .all(|(i, a)| items[i + 1..].iter().all(|b| a != b))
                }
                _ => false,
            },
            "recipient" => {
                required += 1;
                recipient(value)
            }
            "memo" => string_at_most(value, 280),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    required == 3
}

fn recipient(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    let mut required = 0;
    for (key, value) in o {
        let ok = match key.as_str() {
            "name" => {
                required += 1;
                string_between(value, 1, 100)
            }
            "account" => {
                required += 1;
                string_between(value, 8, 34)
            }
            "note" => string_at_most(value, 140),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    required == 2
}

/// `bench-mcp/w2-tree`: a recursive tree of nodes.
pub fn w2_tree(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    let mut required = 0;
    for (key, value) in o {
        let ok = match key.as_str() {
            "id" => {
                required += 1;
                integer_at_least(value, 0)
            }
            "label" => {
                required += 1;
                string_at_most(value, 64)
            }
            "weight" => value.is_number(),
            "children" => match value {
                Value::Array(children) => children.iter().all(w2_tree),
                _ => false,
            },
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    required == 2
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum EventKind {
    Click,
    Purchase,
    Signup,
}

/// `bench-mcp/w3-unevaluated`: an array of events, a union discriminated by `kind`
/// through `allOf` / `if` / `then`, closed by `unevaluatedProperties: false` (so the
/// properties allowed are the common ones plus those of the branch `kind` selects).
pub fn w3_unevaluated(v: &Value) -> bool {
    match v {
        Value::Array(events) => events.iter().all(event),
        _ => false,
    }
}

fn event(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    // `kind` is required; every `if` fails unless it is one of the three constants,
    // and the `enum` allows nothing else.
    let kind = match o.get("kind") {
        Some(Value::String(s)) => match s.as_str() {
            "click" => EventKind::Click,
            "purchase" => EventKind::Purchase,
            "signup" => EventKind::Signup,
            _ => return false,
        },
        _ => return false,
    };
    let mut required = 0;
    for (key, value) in o {
        let ok = match (key.as_str(), kind) {
            ("kind", _) => true,
            ("ts", _) => {
                required += 1;
                integer_at_least(value, 0)
            }
            ("user", _) => {
                required += 1;
                matches!(value, Value::String(s) if !s.is_empty())
            }
            ("x" | "y", EventKind::Click) => {
                required += 1;
                matches!(value, Value::Number(n) if is_integer(n))
            }
            ("target", EventKind::Click) => value.is_string(),
            ("sku", EventKind::Purchase) => {
                required += 1;
                value.is_string()
            }
            ("qty", EventKind::Purchase) => {
                required += 1;
                integer_at_least(value, 1)
            }
            ("price", EventKind::Purchase) => {
                required += 1;
                matches!(value, Value::Number(n) if as_f64(n) > 0.0)
            }
            ("plan", EventKind::Signup) => {
                required += 1;
                matches!(value, Value::String(s) if matches!(s.as_str(), "free" | "pro" | "team"))
            }
            ("referrer", EventKind::Signup) => value.is_string() || value.is_null(),
            // Unevaluated: not in `properties` nor in the selected branch's `then`.
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    // ts and user, plus the branch's required properties.
    required
        == 2 + match kind {
            EventKind::Click => 2,
            EventKind::Purchase => 3,
            EventKind::Signup => 1,
        }
}

/// `bench-mcp/w4-patterns`: a map whose keys must match one of three patterns, each
/// with its own value schema.
pub fn w4_patterns(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    o.iter().all(|(key, value)| {
        let key = key.as_bytes();
        let mut matched = false;
        if is_extension_key(key) {
            matched = true;
            if !value.is_string() {
                return false;
            }
        }
        if is_metric_key(key) {
            matched = true;
            if !integer_at_least(value, 0) {
                return false;
            }
        }
        if is_route_key(key) {
            matched = true;
            if !route(value) {
                return false;
            }
        }
        // additionalProperties: false
        matched
    })
}

/// `^x-[a-z][a-z0-9-]*$`
fn is_extension_key(key: &[u8]) -> bool {
    match key {
        [b'x', b'-', first, rest @ ..] => {
            first.is_ascii_lowercase()
                && rest
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        }
        _ => false,
    }
}

/// `^[a-z]+_[0-9]{1,4}$`
fn is_metric_key(key: &[u8]) -> bool {
    let letters = key.iter().take_while(|b| b.is_ascii_lowercase()).count();
    if letters == 0 || key.get(letters) != Some(&b'_') {
        return false;
    }
    let digits = &key[letters + 1..];
    (1..=4).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit)
}

/// `^(get|put|post|delete)_[a-z_]+$`
fn is_route_key(key: &[u8]) -> bool {
    let rest = [&b"get_"[..], b"put_", b"post_", b"delete_"]
        .iter()
        .find_map(|prefix| key.strip_prefix(*prefix));
    rest.is_some_and(|rest| {
        !rest.is_empty() && rest.iter().all(|b| b.is_ascii_lowercase() || *b == b'_')
    })
}

/// `{type: object, properties: {path: {type: string, pattern: ^/[a-z0-9_/{}-]*$}},
/// required: [path]}`
fn route(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    match o.get("path") {
        Some(Value::String(path)) => match path.as_bytes() {
            [b'/', rest @ ..] => rest
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_/{}-".contains(b)),
            _ => false,
        },
        _ => false,
    }
}
