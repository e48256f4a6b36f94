//! Instance reads that keywords share: object lookups, string lengths in code points,
//! counts within bounds, an applicator's annotation of names.

use super::{Res, Stop};
use crate::instance::{Instance, ObjectView};
use crate::json;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

/// The indices of the items `contains` matched, for its annotation.
pub type Indices = Vec<usize>;

/// The annotation of an object applicator (`properties`, `patternProperties`,
/// `additionalProperties`, `unevaluatedProperties`): the names of `obj`'s properties
/// (in its order) for which `applies(position, name)` holds.
pub fn applied_names<'a, I: Instance<'a>>(
    obj: impl ObjectView<'a, I>,
    mut applies: impl FnMut(usize, &str) -> Res,
) -> Result<serde_json::Value, Stop> {
    let mut names = Vec::new();
    for (position, name) in obj.keys().enumerate() {
        let name = name.as_ref();
        if applies(position, name)? {
            names.push(serde_json::Value::String(name.into()));
        }
    }
    Ok(serde_json::Value::Array(names))
}

/// Whether `min <= count <= max` (`contains` with `minContains` and `maxContains`; an
/// empty range when `min > max`).
#[inline]
pub fn in_range(count: u64, min: u64, max: u64) -> bool {
    count >= min && count <= max
}

/// The value of the entry `name` of `object`: on a small object by a pass over its keys
/// that compares their lengths first (no call to compare bytes, no hashing under
/// `preserve_order`), else by the map's own lookup.
#[inline]
pub fn get<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    /// Up to how many entries a pass beats the map's lookup.
    const SCANNED: usize = 8;
    if object.len() > SCANNED {
        return object.get(name);
    }
    object
        .iter()
        .find_map(|(k, v)| (k.len() == name.len() && k == name).then_some(v))
}

/// The position and value of the entry `name` of `object`, by a pass over its entries that
/// ends where it finds it (for a pass whose only work is that entry, and which must know
/// its position for `unevaluatedProperties`).
#[inline]
pub fn find_entry<'a, I: Instance<'a>>(
    object: impl ObjectView<'a, I>,
    name: &str,
) -> Option<(usize, I)> {
    object.position(name)
}

/// `minLength`: whether `s` has at least `n` code points.
#[inline]
pub fn min_length(s: &str, n: u64) -> bool {
    // A code point takes 1 to 4 bytes; so a string of `n` bytes or more has one code
    // point at least: for `n <= 1` the length in bytes decides.
    if (s.len() as u64) < n {
        return false;
    }
    if n <= 1 || (s.len() as u64) >= n.saturating_mul(4) {
        return true;
    }
    json::code_point_len(s) >= n
}

/// `maxLength`: whether `s` has at most `n` code points.
#[inline]
pub fn max_length(s: &str, n: u64) -> bool {
    if (s.len() as u64) <= n {
        return true;
    }
    // At least one code point per four bytes.
    if (s.len() as u64).div_ceil(4) > n {
        return false;
    }
    json::code_point_len(s) <= n
}
