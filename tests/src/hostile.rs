//! The hostile schemas of issue 9, for both backends: `build.rs` compiles each into a
//! generated validator (module `hostile_<name>`, listed in [`crate::generated::HOSTILE`]),
//! and `tests/tests/hostile.rs` runs the same instances through it and through the
//! interpreter. Large schemas are built here rather than stored.

use schemac::Options;
use serde_json::{json, Map, Value};

/// One hostile schema and the run-time budget it is compiled under.
#[derive(Debug, Clone, Copy)]
pub struct Hostile {
    /// The module suffix and the name the tests look it up by.
    pub name: &'static str,
    /// Builds the schema.
    pub schema: fn() -> Value,
    /// The evaluation budget compiled into both backends (`None`: the default).
    pub budget: Option<u64>,
}

impl Hostile {
    /// The compile options (the default ones, with [`Hostile::budget`]).
    pub fn options(&self) -> Options {
        let mut options = Options::default();
        if let Some(budget) = self.budget {
            options.limits.budget = budget;
        }
        options
    }
}

/// Members of `big_string_enum` and items of its instances.
pub const ENUM_MEMBERS: usize = 10_000;

/// Items in the instances of the large-`enum` schemas, keys of the pattern schema's.
pub const INSTANCE_ITEMS: usize = 100_000;

/// Patterns of `many_pattern_properties`.
pub const PATTERNS: usize = 5_000;

/// The cost of checking [`INSTANCE_ITEMS`] items against a large `enum` under `items`:
/// one unit for the root, one per item for the `enum` node (charged before the loop), one
/// per lookup (a binary search over at most 2^16 members is one unit).
pub const ENUM_COST: u64 = 1 + 2 * INSTANCE_ITEMS as u64;

/// The cost of checking [`INSTANCE_ITEMS`] keys against `many_pattern_properties`: one
/// unit for the root; per key one for the prefilter lookup, one for the match of the one
/// candidate, one for its subschema (`additionalProperties: false` is constant: it costs
/// nothing).
pub const PATTERN_COST: u64 = 1 + 3 * INSTANCE_ITEMS as u64;

/// Items of the instances of `unique_deep_arrays`: distinct arrays nested
/// [`UNIQUE_DEPTH`] deep.
pub const UNIQUE_ITEMS: usize = 20_000;

/// How deep each item of `unique_deep_arrays`' instances nests (one deeper than the old
/// hash looked).
pub const UNIQUE_DEPTH: usize = 9;

/// The cost of `uniqueItems` over [`UNIQUE_ITEMS`] distinct items of `UNIQUE_DEPTH + 1`
/// values each: one unit for the root, one per 16 values hashed (no two hashes alike, so
/// nothing compared).
pub const UNIQUE_COST: u64 = 1 + (UNIQUE_ITEMS * (UNIQUE_DEPTH + 1)) as u64 / 16;

/// Item `i` of `unique_deep_arrays`' instances: `i` inside [`UNIQUE_DEPTH`] arrays.
pub fn deep_item(i: usize) -> Value {
    let mut v = json!(i);
    for _ in 0..UNIQUE_DEPTH {
        v = Value::Array(vec![v]);
    }
    v
}

/// Names required of each item by `required_past_the_bound` and
/// `dependent_required_past_the_bound`.
pub const REQUIRED_NAMES: usize = 10_000;

/// The cost of reporting [`INSTANCE_ITEMS`] `{}` against `required_past_the_bound`: one
/// unit for the root, one per item for its node (charged before the loop), and for the
/// first item the names looked up until the report is full (100) and the count of the
/// rest (a pass over its no keys), one unit per 16 lookups: 7. Every other item counts
/// its missing names at once, for nothing.
pub const REQUIRED_COST: u64 = 1 + INSTANCE_ITEMS as u64 + 7;

/// The cost of reporting [`INSTANCE_ITEMS`] `{"a": 1}` against
/// `dependent_required_past_the_bound`: as [`REQUIRED_COST`], plus one unit for each
/// other item (its one key looked up among the sorted names).
pub const DEPENDENT_REQUIRED_COST: u64 = REQUIRED_COST + INSTANCE_ITEMS as u64 - 1;

fn required_names() -> Vec<Value> {
    (0..REQUIRED_NAMES)
        .map(|i| json!(format!("n{i}")))
        .collect()
}

/// Array members of `composite_enum`, each [`COMPOSITE_DEPTH`] arrays around an integer.
pub const COMPOSITE_MEMBERS: usize = 1_000;

/// How deep the members of `composite_enum` and the items of its instances nest.
pub const COMPOSITE_DEPTH: usize = 12;

/// Items of the instances of `composite_enum`.
pub const COMPOSITE_ITEMS: usize = 8_000;

/// Member `i` of `composite_enum` (or, from [`COMPOSITE_MEMBERS`] on, an array of the same
/// shape that is not one): `i` inside [`COMPOSITE_DEPTH`] arrays.
pub fn composite_item(i: usize) -> Value {
    let mut v = json!(i);
    for _ in 0..COMPOSITE_DEPTH {
        v = Value::Array(vec![v]);
    }
    v
}

/// The cost of checking [`COMPOSITE_ITEMS`] members against `composite_enum`: one unit
/// for the root; per item one for the `enum` node (charged before the loop), and one per
/// 16 values of its lookup (rounded up): the item's `COMPOSITE_DEPTH + 1` values hashed,
/// a value per probe of the binary search over the members' hashes, and the member of its
/// hash (`COMPOSITE_DEPTH + 1` values) compared.
pub const COMPOSITE_COST: u64 = 1 + COMPOSITE_ITEMS as u64 * (1 + composite_units(true));

/// The units of one lookup in `composite_enum`'s table ([`COMPOSITE_COST`]), for an item
/// that is a member or not.
pub const fn composite_units(member: bool) -> u64 {
    let size = COMPOSITE_DEPTH as u64 + 1;
    let probes = (usize::BITS - COMPOSITE_MEMBERS.leading_zeros()) as u64;
    let compared = if member { size } else { 0 };
    (size + probes + compared).div_ceil(16)
}

fn composite_enum() -> Value {
    let members: Vec<Value> = (0..COMPOSITE_MEMBERS).map(composite_item).collect();
    json!({"items": {"enum": members}})
}

/// String member `i` of `big_string_enum`.
pub fn member(i: usize) -> String {
    format!("member-{i:05}")
}

fn big_string_enum() -> Value {
    let members: Vec<Value> = (0..ENUM_MEMBERS).map(|i| json!(member(i))).collect();
    json!({"items": {"enum": members}})
}

/// Number member `i` of `big_number_enum`: integers, with every tenth one a float and
/// the last above `i64::MAX`.
pub fn number_member(i: usize) -> Value {
    match i {
        i if i + 1 == ENUM_MEMBERS => json!(u64::MAX - 1),
        i if i % 10 == 3 => json!(i as f64 + 0.5),
        i => json!(i as i64 * 3 - 5000),
    }
}

fn big_number_enum() -> Value {
    let members: Vec<Value> = (0..ENUM_MEMBERS).map(number_member).collect();
    json!({"items": {"enum": members}})
}

/// The key an instance of `many_pattern_properties` has for item `i`: it matches pattern
/// `i % PATTERNS` (`^p<n>_`), and only that one.
pub fn pattern_key(i: usize) -> String {
    format!("p{}_{i}", i % PATTERNS)
}

/// `{"$defs": {"d0": {"anyOf": [{"$ref": "#/$defs/d1"}, {"type": "string", "$ref":
/// "#/$defs/d1"}]}, .., "dN": false}, "$ref": "#/$defs/d0"}`: every level doubles the work,
/// and every string is invalid (the last level is `false`).
fn fan_out(levels: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..levels {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"anyOf": [{"$ref": next}, {"type": "string", "$ref": next}]}),
        );
    }
    defs.insert(format!("d{levels}"), json!(false));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

fn many_pattern_properties() -> Value {
    // One shared subschema: the generated code has one function for it, not 5,000.
    let patterns: Map<String, Value> = (0..PATTERNS)
        .map(|i| (format!("^p{i}_"), json!({"$ref": "#/$defs/int"})))
        .collect();
    json!({
        "patternProperties": patterns,
        "additionalProperties": false,
        "$defs": {"int": {"type": "integer"}}
    })
}

/// A pattern whose Pike VM keeps thousands of threads alive on `ca` repeated.
pub const HEAVY_PATTERN: &str = "c[ac]{0,3000}d";

/// Links of `ref_chain` and `ref_ring`: more than rustc's recursion limit (128), which
/// generated code reached when each link's function was named inside a closure that a
/// generic runtime helper runs (issue 38).
pub const CHAIN_LINKS: usize = 300;

/// `$defs` `d0` … `d{CHAIN_LINKS - 1}`, each `link` of a `$ref` to the next; the last
/// one's next is `d0` (`ring`) or `d{CHAIN_LINKS}`, a string.
fn chain(ring: bool, link: fn(Value) -> Value) -> Value {
    let mut defs = Map::new();
    for i in 0..CHAIN_LINKS {
        let next = if ring && i + 1 == CHAIN_LINKS {
            0
        } else {
            i + 1
        };
        defs.insert(
            format!("d{i}"),
            link(json!({"$ref": format!("#/$defs/d{next}")})),
        );
    }
    if !ring {
        defs.insert(format!("d{CHAIN_LINKS}"), json!({"type": "string"}));
    }
    json!({"$ref": "#/$defs/d0", "$defs": defs})
}

/// An instance for `ref_chain` and `ref_ring`: `leaf` inside `depth` objects `{"x": …}`,
/// the one `extra_at` levels down with a property `z` too.
pub fn chain_instance(depth: usize, leaf: Value, extra_at: Option<usize>) -> Value {
    let mut v = leaf;
    for level in (0..depth).rev() {
        let mut map = Map::new();
        map.insert("x".into(), v);
        if extra_at == Some(level) {
            map.insert("z".into(), json!(1));
        }
        v = Value::Object(map);
    }
    v
}

/// Every hostile schema.
pub const ALL: &[Hostile] = &[
    // 1. Numbers compare exactly; `multipleOf` has no tolerance.
    Hostile {
        name: "multiple_of_one",
        schema: || json!({"multipleOf": 1}),
        budget: None,
    },
    Hostile {
        name: "maximum_i64",
        schema: || json!({"maximum": 9_223_372_036_854_775_807i64}),
        budget: None,
    },
    Hostile {
        name: "const_beyond_f64",
        schema: || json!({"const": 9_007_199_254_740_993u64}),
        budget: None,
    },
    Hostile {
        name: "enum_beyond_f64",
        schema: || json!({"enum": [9_007_199_254_740_993u64, "x"]}),
        budget: None,
    },
    Hostile {
        name: "unique_items",
        schema: || json!({"uniqueItems": true}),
        budget: None,
    },
    // 2. Regex work inside the budget; counted repetitions trimmed or on a DFA.
    Hostile {
        name: "counted_repetition",
        schema: || json!({"type": "string", "maxLength": 1_000_000, "pattern": "a{0,33332}b"}),
        budget: None,
    },
    Hostile {
        name: "heavy_pattern",
        schema: || json!({"pattern": HEAVY_PATTERN}),
        budget: Some(100_000),
    },
    // 5. Error amplification: a report keeps at most 100 errors.
    Hostile {
        name: "error_amplification",
        schema: || json!({"items": {"required": ["a", "b", "c", "d", "e"]}}),
        budget: None,
    },
    // Issue 38 item 2: errors past the bound are counted at once per keyword.
    Hostile {
        name: "required_past_the_bound",
        schema: || json!({"items": {"required": required_names()}}),
        budget: Some(REQUIRED_COST),
    },
    Hostile {
        name: "dependent_required_past_the_bound",
        schema: || json!({"items": {"dependentRequired": {"a": required_names()}}}),
        budget: Some(DEPENDENT_REQUIRED_COST),
    },
    // 6. Linear scans that multiply, under a budget that only a lookup per item fits.
    Hostile {
        name: "big_string_enum",
        schema: big_string_enum,
        budget: Some(ENUM_COST),
    },
    Hostile {
        name: "big_number_enum",
        schema: big_number_enum,
        budget: Some(ENUM_COST),
    },
    // Issue 38 item 3: arrays and objects of a large `enum` found by their hash, the
    // hashing and comparing charged.
    Hostile {
        name: "composite_enum",
        schema: composite_enum,
        budget: Some(COMPOSITE_COST),
    },
    Hostile {
        name: "unique_deep_arrays",
        schema: || json!({"uniqueItems": true}),
        budget: Some(UNIQUE_COST),
    },
    Hostile {
        name: "many_pattern_properties",
        schema: many_pattern_properties,
        budget: Some(PATTERN_COST),
    },
    // 7. An exponential fan-out of `anyOf` and `$ref` (2^40 leaf evaluations) ends in
    // `BudgetExceeded`, charged at the shared levels; a small one (2^6) gets its verdict.
    Hostile {
        name: "fan_out_40",
        schema: || fan_out(40),
        budget: None,
    },
    Hostile {
        name: "fan_out_6",
        schema: || fan_out(6),
        budget: None,
    },
    // 8. Control characters, line separators and bidirectional controls in every name and
    // pattern position generate code that compiles.
    Hostile {
        name: "control_characters",
        schema: || {
            json!({
                "$id": "https://example.com/a\rb\u{1b}\u{2028}\u{202e}.json",
                "properties": {
                    "p\r\n": {"pattern": "^\r\u{0}$"},
                    "q\u{202e}\u{2066}\u{61c}\u{200f}\u{2028}\u{2029}": {
                        "pattern": "^\u{202e}\u{2066}\u{2029}"
                    }
                },
                "patternProperties": {"^x\r": {"type": "integer"}, "^y\u{2069}": {"type": "string"}},
                "propertyNames": {"pattern": "^[^\u{7}]*$"},
                "$defs": {"c\u{85}\u{202d}": {"$anchor": "a"}}
            })
        },
        budget: None,
    },
    // Chains of subschemas longer than rustc's recursion limit generate code that
    // compiles: through `anyOf`, `properties`, `items` and `additionalProperties: false`,
    // and a ring with `unevaluatedProperties` (short-circuit steps, evaluated locations).
    Hostile {
        name: "ref_chain",
        schema: || {
            chain(false, |next| {
                json!({"anyOf": [
                    {"type": "number"},
                    {
                        "type": "object",
                        "properties": {"x": next.clone(), "y": {"items": next}},
                        "additionalProperties": false
                    }
                ]})
            })
        },
        budget: None,
    },
    Hostile {
        name: "ref_ring",
        schema: || {
            chain(
                true,
                |next| json!({"properties": {"x": next}, "unevaluatedProperties": false}),
            )
        },
        budget: None,
    },
    // 11. Deep instances get a verdict or `incomplete`, never a stack overflow.
    Hostile {
        name: "deep_items",
        schema: || json!({"items": {"$ref": "#"}}),
        budget: None,
    },
    Hostile {
        name: "meta_schema",
        schema: || json!({"$ref": "https://json-schema.org/draft/2020-12/schema"}),
        budget: None,
    },
];

/// The name that `build.rs` generates the `control_characters` schema under a second time
/// (module `hostile_control_characters_named`, looked up by this name), so that the
/// module's doc comment names it: a tool of a stranger's tool list named with a CR, a
/// line separator and bidirectional controls (issue 38).
pub const CONTROL_CHARACTERS_SOURCE: &str =
    "tools\r.json [a\u{2028}b\u{202e}c\u{2066} inputSchema]";

/// The hostile schema named `name`.
pub fn find(name: &str) -> Option<&'static Hostile> {
    ALL.iter().find(|h| h.name == name)
}
