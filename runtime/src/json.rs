//! JSON helpers shared by both backends: equality, code-point length, number
//! comparison and `multipleOf`.

use alloc::vec::Vec;
use core::cmp::Ordering;
use serde_json::{Number, Value};

/// Whether `n` is an integer in the JSON Schema sense (`1.0` is).
pub fn is_integer(n: &Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    match n.as_f64() {
        Some(f) => f.is_finite() && f % 1.0 == 0.0,
        None => false,
    }
}

/// Whether `n` is held as an `f64` with no fractional part inside the i64/u64 range
/// (`1.0`, `-0.0`, `1e2`): a number that was written with a fraction or an exponent,
/// which draft-04 does not count as an integer. Integral numbers beyond the i64/u64 range
/// are held as `f64` too, but could not be held otherwise, so they are not such numbers
/// (draft-04 counts them as integers).
pub fn is_integral_float(n: &Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return false;
    }
    match n.as_f64() {
        Some(f) => {
            f.is_finite()
                && f % 1.0 == 0.0
                && (-9_223_372_036_854_775_808.0..18_446_744_073_709_551_616.0).contains(&f)
        }
        None => false,
    }
}

/// JSON Schema equality: numbers compare by value (`1 == 1.0`), objects ignore key order.
///
/// Recursion is bounded: below [`EQUAL_RECURSION_LIMIT`] levels of nesting the comparison
/// continues with an explicit stack, so arbitrarily deep values cannot overflow the stack.
pub fn equal(a: &Value, b: &Value) -> bool {
    equal_at(a, b, 0)
}

/// Nesting depth from which [`equal`] stops recursing and uses an explicit stack.
const EQUAL_RECURSION_LIMIT: u32 = 64;

fn equal_at(a: &Value, b: &Value, depth: u32) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if depth >= EQUAL_RECURSION_LIMIT {
                return equal_iterative(a, b);
            }
            x.iter().zip(y).all(|(a, b)| equal_at(a, b, depth + 1))
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if depth >= EQUAL_RECURSION_LIMIT {
                return equal_iterative(a, b);
            }
            x.iter()
                .all(|(k, v)| y.get(k).is_some_and(|w| equal_at(v, w, depth + 1)))
        }
        _ => a == b,
    }
}

/// [`equal`] with an explicit stack (for deeply nested values).
fn equal_iterative(a: &Value, b: &Value) -> bool {
    let mut stack: Vec<(&Value, &Value)> = alloc::vec![(a, b)];
    while let Some(pair) = stack.pop() {
        match pair {
            (Value::Number(x), Value::Number(y)) => {
                if compare_numbers(x, y) != Ordering::Equal {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (k, v) in x {
                    match y.get(k) {
                        Some(w) => stack.push((v, w)),
                        None => return false,
                    }
                }
            }
            // Scalars, or values of different types (no deep comparison happens here).
            (a, b) => {
                if a != b {
                    return false;
                }
            }
        }
    }
    true
}

/// Compares two JSON numbers by value, exactly for integers of either sign.
pub fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (as_i128(a), as_i128(b)) {
        return x.cmp(&y);
    }
    let x = a.as_f64().unwrap_or(f64::NAN);
    let y = b.as_f64().unwrap_or(f64::NAN);
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

fn as_i128(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Compares a JSON number with a schema limit given as `f64`.
pub fn compare_with_f64(n: &Number, limit: f64) -> Ordering {
    if let Some(i) = as_i128(n) {
        // Exact when the limit is an integer that fits; otherwise compare as floats.
        if limit % 1.0 == 0.0 && limit.abs() < 1.0e38 {
            return i.cmp(&(limit as i128));
        }
        return (i as f64).partial_cmp(&limit).unwrap_or(Ordering::Equal);
    }
    let x = n.as_f64().unwrap_or(f64::NAN);
    x.partial_cmp(&limit).unwrap_or(Ordering::Equal)
}

/// Whether `n` is a multiple of `divisor` (a positive finite number).
///
/// Integers are checked exactly when the divisor is an integer; otherwise the quotient is
/// checked for being integral, with a relative tolerance for decimal divisors such as `0.01`.
pub fn is_multiple_of(n: &Number, divisor: f64) -> bool {
    if let Some(i) = as_i128(n) {
        if divisor % 1.0 == 0.0 && divisor < 1.0e38 {
            return i % (divisor as i128) == 0;
        }
    }
    let x = match n.as_f64() {
        Some(x) => x,
        None => return false,
    };
    let quotient = x / divisor;
    if !quotient.is_finite() {
        // Overflow: a huge number divided by a small divisor. The floating remainder is
        // exact, so ask it directly.
        return x.is_finite() && x % divisor == 0.0;
    }
    let rounded = libm_round(quotient);
    if quotient == rounded {
        return true;
    }
    // Decimal divisors (0.01, 0.0001) are not exact in binary: accept near-integral
    // quotients within a few ulps.
    (quotient - rounded).abs() <= f64::EPSILON * quotient.abs().max(1.0) * 4.0
}

/// `f64::round` without `std`.
fn libm_round(x: f64) -> f64 {
    // From 2^52 up every f64 is an integer.
    if x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i128 as f64;
    if (x - t).abs() >= 0.5 {
        t + x.signum()
    } else {
        t
    }
}

/// Length of a string in Unicode code points, as `minLength` / `maxLength` count.
pub fn code_point_len(s: &str) -> u64 {
    s.chars().count() as u64
}

/// Whether all items of `items` are distinct under [`equal`].
///
/// Not quadratic for large arrays: items are bucketed by a hash consistent with [`equal`]
/// (numbers hash by value, objects independently of key order), sorted by it, and only
/// items with equal hashes are compared. Runs of numbers with one hash (distinct integers
/// beyond 2^53 round to one `f64`) are sorted exactly rather than compared pairwise.
pub fn all_unique(items: &[Value]) -> bool {
    if items.len() <= 16 {
        return pairwise_unique(items.iter());
    }
    // Up to a few hundred items the keys live on the stack: no allocation.
    const STACK_KEYS: usize = 256;
    if items.len() <= STACK_KEYS {
        let mut keys = [(0u64, 0usize); STACK_KEYS];
        for (slot, (i, v)) in keys.iter_mut().zip(items.iter().enumerate()) {
            *slot = (hash_value(v, 0), i);
        }
        return keyed_unique(items, &mut keys[..items.len()]);
    }
    let mut keys: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(i, v)| (hash_value(v, 0), i))
        .collect();
    keyed_unique(items, &mut keys)
}

/// Uniqueness given each item's `(hash, index)`: sorts by hash and compares only items
/// whose hashes are equal.
fn keyed_unique(items: &[Value], keyed: &mut [(u64, usize)]) -> bool {
    keyed.sort_unstable();
    for run in keyed.chunk_by(|a, b| a.0 == b.0) {
        if run.len() < 2 {
            continue;
        }
        let values = run.iter().map(|&(_, i)| &items[i]);
        let unique = if run.len() > 8 && run.iter().all(|&(_, i)| items[i].is_number()) {
            numbers_unique(run.iter().filter_map(|&(_, i)| items[i].as_number()))
        } else {
            pairwise_unique(values)
        };
        if !unique {
            return false;
        }
    }
    true
}

/// Pairwise comparison (for few items).
fn pairwise_unique<'a>(items: impl Iterator<Item = &'a Value> + Clone) -> bool {
    let mut rest = items;
    while let Some(a) = rest.next() {
        if rest.clone().any(|b| equal(a, b)) {
            return false;
        }
    }
    true
}

/// Uniqueness of numbers that share a hash (so, almost always, one `f64` value).
fn numbers_unique<'a>(numbers: impl Iterator<Item = &'a Number> + Clone) -> bool {
    let mut ints: Vec<i128> = Vec::new();
    let mut first_float: Option<&Number> = None;
    for n in numbers.clone() {
        match as_i128(n) {
            Some(i) => ints.push(i),
            None => {
                if first_float.is_none() {
                    first_float = Some(n);
                }
            }
        }
    }
    match first_float {
        None => {
            ints.sort_unstable();
            ints.windows(2).all(|w| w[0] != w[1])
        }
        Some(f) => {
            // A float equals every number with the same `f64` value: one linear pass
            // decides unless the hash collided on different values (then compare all).
            let equal_to_float = numbers
                .clone()
                .filter(|n| compare_numbers(n, f) == Ordering::Equal)
                .count();
            if equal_to_float >= 2 {
                return false;
            }
            let values: Vec<Value> = numbers.map(|n| Value::Number(n.clone())).collect();
            pairwise_unique(values.iter())
        }
    }
}

/// Nesting depth up to which [`hash_value`] looks inside arrays and objects.
const HASH_DEPTH: u32 = 8;

/// A hash consistent with [`equal`]: equal values hash alike.
fn hash_value(v: &Value, depth: u32) -> u64 {
    match v {
        Value::Null => mix(1, 0),
        Value::Bool(b) => mix(2, u64::from(*b)),
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            // `equal` compares mixed integers/floats as f64, so hash the f64 value;
            // -0.0 == 0.0.
            let bits = if f == 0.0 { 0 } else { f.to_bits() };
            mix(3, bits)
        }
        Value::String(s) => hash_str(s),
        Value::Array(items) => {
            let mut h = mix(5, items.len() as u64);
            if depth < HASH_DEPTH {
                for item in items {
                    h = mix(h, hash_value(item, depth + 1));
                }
            }
            h
        }
        Value::Object(map) => {
            let mut h = mix(6, map.len() as u64);
            if depth < HASH_DEPTH {
                // Key order must not matter: combine entries commutatively.
                let mut sum = 0u64;
                for (k, value) in map {
                    let key = hash_str(k);
                    sum = sum.wrapping_add(mix(key, hash_value(value, depth + 1)));
                }
                h = mix(h, sum);
            }
            h
        }
    }
}

/// The hash of a string (as [`hash_value`] hashes a string value).
fn hash_str(s: &str) -> u64 {
    let mut h = mix(4, s.len() as u64);
    for chunk in s.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(word));
    }
    h
}

/// Combines two 64-bit words (a multiply-xorshift mixer).
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.rotate_left(23) ^ b;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 32;
    x = x.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    #[test]
    fn integral_floats_are_those_written_with_a_fraction_within_range() {
        let n = |text: &str| serde_json::from_str::<Number>(text).unwrap();
        for text in [
            "1.0",
            "-0.0",
            "1e2",
            "-9223372036854775808.0",
            "18446744073709549568.0",
        ] {
            assert!(is_integral_float(&n(text)), "{text}");
        }
        for text in [
            "1",
            "-1",
            "18446744073709551615",
            "1.5",
            "1e300",
            "-1e300",
            "12345678910111213141516171819202122232425262728293031",
        ] {
            assert!(!is_integral_float(&n(text)), "{text}");
        }
    }

    #[test]
    fn unique_small_and_large() {
        assert!(all_unique(&[json!(1), json!("1"), json!([1])]));
        assert!(!all_unique(&[json!(1), json!(1.0)]));
        let mut many: Vec<Value> = (0..1000).map(|i| json!(i)).collect();
        assert!(all_unique(&many));
        many.push(json!(500.0));
        assert!(!all_unique(&many));
        let mut mid: Vec<Value> = (0..200).map(|i| json!(format!("s{i}"))).collect();
        assert!(all_unique(&mid));
        mid.push(json!("s199"));
        assert!(!all_unique(&mid));
        let objects: Vec<Value> = (0..100).map(|i| json!({"a": i, "b": [i]})).collect();
        assert!(all_unique(&objects));
        let mut objects = objects;
        objects.push(json!({"b": [7.0], "a": 7}));
        assert!(!all_unique(&objects));
    }

    #[test]
    fn unique_large_integers_sharing_an_f64() {
        // Distinct integers beyond 2^53 that round to the same f64.
        let base: u64 = 1 << 60;
        let ints: Vec<Value> = (0..5000u64).map(|i| json!(base + i)).collect();
        assert!(all_unique(&ints));
        let mut with_float = ints.clone();
        with_float.push(json!(base as f64));
        assert!(!all_unique(&with_float));
        let mut dup = ints;
        dup.push(json!(base + 17));
        assert!(!all_unique(&dup));
    }

    #[test]
    fn equal_handles_deep_values() {
        fn deep(n: usize, leaf: Value) -> Value {
            let mut v = leaf;
            for _ in 0..n {
                v = Value::Array(vec![v]);
            }
            v
        }
        let a = deep(1000, json!(1));
        let b = deep(1000, json!(1.0));
        let c = deep(1000, json!(2));
        assert!(equal(&a, &b));
        assert!(!equal(&a, &c));
        assert!(!all_unique(&[a.clone(), b]));
        assert!(all_unique(&[a, c]));
    }
}
