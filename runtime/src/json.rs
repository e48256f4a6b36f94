//! JSON helpers shared by both backends: equality, code-point length, number
//! comparison and `multipleOf`.

use core::cmp::Ordering;
use serde_json::{Number, Value};

/// Whether `n` is an integer in the JSON Schema sense (`1.0` is).
pub fn is_integer(n: &Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    match n.as_f64() {
        Some(f) => f.is_finite() && f.fract() == 0.0,
        None => false,
    }
}

/// JSON Schema equality: numbers compare by value (`1 == 1.0`), objects ignore key order.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare_numbers(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
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
        if limit.fract() == 0.0 && limit.abs() < 1.0e38 {
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
        if divisor.fract() == 0.0 && divisor < 1.0e38 {
            return i % (divisor as i128) == 0;
        }
    }
    let x = match n.as_f64() {
        Some(x) => x,
        None => return false,
    };
    let quotient = x / divisor;
    if !quotient.is_finite() {
        // Overflow: a huge number divided by a tiny divisor. Only integers can be multiples
        // of a divisor that is itself a multiple of 1/k; treat as not provable.
        return false;
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
pub fn all_unique(items: &[Value]) -> bool {
    for (i, a) in items.iter().enumerate() {
        for b in &items[i + 1..] {
            if equal(a, b) {
                return false;
            }
        }
    }
    true
}
