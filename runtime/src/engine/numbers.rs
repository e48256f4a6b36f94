//! Exact comparisons of instance numbers with schema numbers.

use crate::json;
use core::cmp::Ordering;
use serde_json::Number;

/// [`json::compare_numbers`] against a schema integer that fits `i64`, without building a
/// [`Number`] (which allocates under `arbitrary_precision`). Exact for every instance
/// number.
#[inline]
pub fn cmp_i64(n: &Number, y: i64) -> Ordering {
    cmp_integer(n, i128::from(y))
}

/// [`json::compare_numbers`] against a schema integer above `i64::MAX`. Exact.
#[inline]
pub fn cmp_u64(n: &Number, y: u64) -> Ordering {
    cmp_integer(n, i128::from(y))
}

/// An instance number against a schema integer, exactly.
#[inline]
fn cmp_integer(n: &Number, y: i128) -> Ordering {
    if let Some(x) = n.as_i64() {
        return i128::from(x).cmp(&y);
    }
    if let Some(x) = n.as_u64() {
        return i128::from(x).cmp(&y);
    }
    json::cmp_int_float(y, n.as_f64().unwrap_or(f64::NAN)).reverse()
}

/// [`json::compare_numbers`] against a schema number that is not an integer literal.
/// Exact ([`json::compare_with_f64`]).
#[inline]
pub fn cmp_f64(n: &Number, y: f64) -> Ordering {
    json::compare_with_f64(n, y)
}
