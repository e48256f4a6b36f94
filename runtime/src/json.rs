//! JSON helpers shared by both backends: equality, code-point length, number
//! comparison and `multipleOf`.

use crate::document::JsonStr;
use crate::error::IncompleteReason;
use crate::instance::{Instance, Kind};
use crate::limits::Budget;
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

/// `value` as a `u64` the way a validator judged it: an integer (`7`), or a number with no
/// fraction written with one or with an exponent (`7.0`, `7e0`), which `"type": "integer"`
/// accepts and [`Value::as_u64`] refuses; `None` for anything else or out of range. For a
/// handler reading arguments that a validator accepted, so that `{"days": 7.0}` is read as
/// the 7 the schema allowed, not as absent.
///
/// ```
/// use schemac_runtime::json::integer_as_u64;
/// use serde_json::json;
///
/// assert_eq!(integer_as_u64(&json!(7.0)), Some(7));
/// assert_eq!(integer_as_u64(&json!(7)), Some(7));
/// assert_eq!(integer_as_u64(&json!(7.5)), None);
/// assert_eq!(integer_as_u64(&json!(-1)), None);
/// ```
pub fn integer_as_u64(value: &Value) -> Option<u64> {
    let n = value.as_number()?;
    n.as_u64().or_else(|| {
        let f = n.as_f64()?;
        // 2^64 is the first f64 past u64::MAX; `-0.0` is 0.
        (f % 1.0 == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f)).then_some(f as u64)
    })
}

/// `value` as an `i64` the way a validator judged it (see [`integer_as_u64`]): `-3.0` is
/// `-3`; `None` for a number with a fraction, one out of range, or anything else.
///
/// ```
/// use schemac_runtime::json::integer_as_i64;
/// use serde_json::json;
///
/// assert_eq!(integer_as_i64(&json!(-3.0)), Some(-3));
/// assert_eq!(integer_as_i64(&json!(1e300)), None);
/// ```
pub fn integer_as_i64(value: &Value) -> Option<i64> {
    let n = value.as_number()?;
    n.as_i64().or_else(|| {
        let f = n.as_f64()?;
        // -2^63 is an f64 and an i64; 2^63 is the first f64 past i64::MAX.
        (f % 1.0 == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f))
            .then_some(f as i64)
    })
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
/// Generic over the [`Instance`]s compared (a `&Value`, a document node), each side its
/// own kind: one definition for every pair.
///
/// Recursion is bounded: below `EQUAL_RECURSION_LIMIT` levels of nesting the comparison
/// continues with an explicit stack, so arbitrarily deep values cannot overflow the stack.
#[inline]
pub fn equal<'a, 'b, A: Instance<'a>, B: Instance<'b>>(a: A, b: B) -> bool {
    equal_counted(a, b, &mut 0)
}

/// [`equal`], adding to `nodes` how many pairs of values it compared (the work a
/// [`Meter`] charges).
#[inline]
pub fn equal_counted<'a, 'b, A: Instance<'a>, B: Instance<'b>>(
    a: A,
    b: B,
    nodes: &mut u64,
) -> bool {
    equal_at(a, b, 0, nodes)
}

/// Nesting depth from which [`equal`] and [`hash_value`] stop recursing and use an
/// explicit stack.
const EQUAL_RECURSION_LIMIT: u32 = 64;

fn equal_at<'a, 'b, A: Instance<'a>, B: Instance<'b>>(
    a: A,
    b: B,
    depth: u32,
    nodes: &mut u64,
) -> bool {
    *nodes += 1;
    match (a.kind(), b.kind()) {
        (Kind::Array, Kind::Array) => {
            if a.len() != b.len() {
                return false;
            }
            if depth >= EQUAL_RECURSION_LIMIT {
                *nodes -= 1;
                return equal_iterative(a, b, nodes);
            }
            a.items()
                .zip(b.items())
                .all(|(a, b)| equal_at(a, b, depth + 1, nodes))
        }
        (Kind::Object, Kind::Object) => {
            if a.len() != b.len() {
                return false;
            }
            if depth >= EQUAL_RECURSION_LIMIT {
                *nodes -= 1;
                return equal_iterative(a, b, nodes);
            }
            entry_pairs(a, b)
                .all(|pair| pair.is_some_and(|(v, w)| equal_at(v, w, depth + 1, nodes)))
        }
        _ => scalars_equal(a, b),
    }
}

/// Whether two values, at most one of them an array or object, are equal (values of
/// different kinds are not).
#[inline]
fn scalars_equal<'a, 'b, A: Instance<'a>, B: Instance<'b>>(a: A, b: B) -> bool {
    match (a.kind(), b.kind()) {
        (Kind::Number, Kind::Number) => match (a.as_number(), b.as_number()) {
            (Some(x), Some(y)) => compare_numbers(&x, &y) == Ordering::Equal,
            _ => false,
        },
        (Kind::String, Kind::String) => match (a.as_str(), b.as_str()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        (Kind::Bool, Kind::Bool) => a.as_bool() == b.as_bool(),
        (Kind::Null, Kind::Null) => true,
        _ => false,
    }
}

/// The values of two objects of one length paired by key: in one walk over both while
/// their keys come in the same order (always, for sorted maps; for equal objects built
/// alike under serde_json's `preserve_order` or read from the same text), then by looking
/// each remaining key of `x` up in `y`. `None` for a key of `x` that `y` lacks (the
/// objects differ).
fn entry_pairs<'a, 'b, A: Instance<'a>, B: Instance<'b>>(
    x: A,
    y: B,
) -> impl Iterator<Item = Option<(A, B)>> + use<'a, 'b, A, B> {
    let mut in_step = true;
    let mut theirs = y.entries();
    x.entries().map(move |(k, v)| {
        if in_step {
            match theirs.next() {
                Some((l, w)) if l == k => return Some((v, w)),
                _ => in_step = false,
            }
        }
        y.get(&k.unescaped()).map(|w| (v, w))
    })
}

/// [`equal`] with an explicit stack (for deeply nested values).
fn equal_iterative<'a, 'b, A: Instance<'a>, B: Instance<'b>>(a: A, b: B, nodes: &mut u64) -> bool {
    let mut stack: Vec<(A, B)> = alloc::vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        *nodes += 1;
        match (a.kind(), b.kind()) {
            (Kind::Array, Kind::Array) => {
                if a.len() != b.len() {
                    return false;
                }
                stack.extend(a.items().zip(b.items()));
            }
            (Kind::Object, Kind::Object) => {
                if a.len() != b.len() {
                    return false;
                }
                for pair in entry_pairs(a, b) {
                    match pair {
                        Some(pair) => stack.push(pair),
                        None => return false,
                    }
                }
            }
            // Scalars, or values of different kinds (no deep comparison happens here).
            _ => {
                if !scalars_equal(a, b) {
                    return false;
                }
            }
        }
    }
    true
}

/// Compares two JSON numbers by value, exactly: integers of either sign and floats are
/// compared as the mathematical values they hold, never through a rounding conversion
/// (so `9007199254740993` is greater than `9007199254740992.0`).
pub fn compare_numbers(a: &Number, b: &Number) -> Ordering {
    match (as_i128(a), as_i128(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => cmp_int_float(x, float_of(b)),
        (None, Some(y)) => cmp_int_float(y, float_of(a)).reverse(),
        (None, None) => cmp_floats(float_of(a), float_of(b)),
    }
}

fn as_i128(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// The value of a number that is not an `i64` / `u64`.
fn float_of(n: &Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// Two floats by value (`-0.0 == 0.0`); serde_json holds no NaN, which compares equal to
/// everything here rather than panicking.
fn cmp_floats(x: f64, y: f64) -> Ordering {
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

/// An integer against a float, exactly.
#[inline]
pub(crate) fn cmp_int_float(i: i128, f: f64) -> Ordering {
    // Up to 2^53 in magnitude an integer is an f64 exactly, and comparing f64s is exact
    // (with a NaN, `Equal` as in `cmp_wide_int_float`).
    if i.unsigned_abs() <= 1 << 53 {
        cmp_floats(i as f64, f)
    } else {
        cmp_wide_int_float(i, f)
    }
}

/// [`cmp_int_float`] for an integer beyond 2^53 in magnitude.
#[cold]
#[inline(never)]
fn cmp_wide_int_float(i: i128, f: f64) -> Ordering {
    // 2^127: every i128 is below it, and every i128 is at or above -2^127.
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f >= TWO_127 {
        return Ordering::Less;
    }
    if f < -TWO_127 {
        return Ordering::Greater;
    }
    // In range, `as` truncates toward zero exactly, and the truncated value is an f64
    // again (below 2^53 every integer is; above, every f64 is already an integer).
    let t = f as i128;
    match i.cmp(&t) {
        Ordering::Equal => cmp_floats(t as f64, f),
        order => order,
    }
}

/// Compares a JSON number with a schema limit given as `f64`, exactly.
pub fn compare_with_f64(n: &Number, limit: f64) -> Ordering {
    match as_i128(n) {
        Some(i) => cmp_int_float(i, limit),
        None => cmp_floats(float_of(n), limit),
    }
}

/// A `multipleOf` divisor as the schema wrote it: an integer exactly (serde_json reads
/// every integer up to `u64::MAX` exactly; as an `f64`, 9007199254740993 would be
/// 9007199254740992), any other number as its `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Divisor {
    /// A positive integer.
    Integer(u64),
    /// A positive finite number that is not an integer JSON read exactly.
    Float(f64),
}

impl Divisor {
    /// The divisor `n` stands for, or `None` when it is not a positive finite number
    /// (`multipleOf` allows no other).
    pub fn of(n: &Number) -> Option<Divisor> {
        match n.as_u64() {
            Some(0) => None,
            Some(i) => Some(Divisor::Integer(i)),
            None => n
                .as_f64()
                .filter(|d| *d > 0.0 && d.is_finite())
                .map(Divisor::Float),
        }
    }

    /// The divisor as a decimal (`None` for a float that is not finite).
    fn decimal(self) -> Option<Decimal> {
        match self {
            Divisor::Integer(i) => Some(Decimal::new(u128::from(i), 0)),
            Divisor::Float(d) => Decimal::of_f64(d),
        }
    }
}

impl core::fmt::Display for Divisor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Divisor::Integer(i) => write!(f, "{i}"),
            Divisor::Float(d) => write!(f, "{d}"),
        }
    }
}

/// Whether `n` is a multiple of `divisor`, decided exactly.
///
/// Both numbers are taken as the decimals they were written as: an integer as itself, a
/// float as its shortest round-trip decimal form (the form `{:e}` prints, which is what
/// the JSON text said whenever the text had at most 17 significant digits). `n` is a
/// multiple when `n / divisor` is an integer, with no tolerance: `0.0075` is a multiple of
/// `0.0001`, `1e-17` is not a multiple of `1`, `9007199254740992` is not a multiple of
/// `9007199254740993`. The work is bounded (a few hundred integer steps) for any
/// exponents, `1e308` against `1e-300` included.
pub fn is_multiple_of(n: &Number, divisor: Divisor) -> bool {
    let (Some(x), Some(d)) = (Decimal::of_number(n), divisor.decimal()) else {
        return false;
    };
    x.is_multiple_of(&d)
}

/// A finite number as `digits × 10^exp` (sign dropped), `digits` without trailing zeros
/// (`0` for zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    digits: u128,
    exp: i32,
}

impl Decimal {
    /// `digits × 10^exp`, normalized.
    fn new(mut digits: u128, mut exp: i32) -> Decimal {
        if digits == 0 {
            return Decimal { digits: 0, exp: 0 };
        }
        while digits % 10 == 0 {
            digits /= 10;
            exp += 1;
        }
        Decimal { digits, exp }
    }

    /// A JSON number: exact for integers, the shortest round-trip form for floats.
    fn of_number(n: &Number) -> Option<Decimal> {
        match as_i128(n) {
            Some(i) => Some(Decimal::new(i.unsigned_abs(), 0)),
            None => Decimal::of_f64(float_of(n)),
        }
    }

    /// The shortest decimal that reads back as `x` (`None` for NaN and infinities).
    fn of_f64(x: f64) -> Option<Decimal> {
        use core::fmt::Write;
        if !x.is_finite() {
            return None;
        }
        // `{:e}` writes the shortest round-trip digits: `-1.2345e-300`, at most ~25 bytes.
        let mut text = ShortBuf::default();
        write!(text, "{:e}", x.abs()).ok()?;
        let (mantissa, exponent) = text.as_bytes().split_at(text.find(b'e')?);
        let exponent = core::str::from_utf8(&exponent[1..])
            .ok()?
            .parse::<i32>()
            .ok()?;
        let mut digits: u128 = 0;
        let mut fraction_digits: i32 = 0;
        let mut after_point = false;
        for &c in mantissa {
            match c {
                b'.' => after_point = true,
                b'0'..=b'9' => {
                    digits = digits.checked_mul(10)?.checked_add(u128::from(c - b'0'))?;
                    if after_point {
                        fraction_digits += 1;
                    }
                }
                _ => return None,
            }
        }
        Some(Decimal::new(digits, exponent - fraction_digits))
    }

    /// Whether `self / divisor` is an integer (`false` for a zero divisor).
    fn is_multiple_of(&self, divisor: &Decimal) -> bool {
        if divisor.digits == 0 {
            return false;
        }
        if self.digits == 0 {
            return true;
        }
        // self / divisor = (a / b) × 10^e.
        let e = i64::from(self.exp) - i64::from(divisor.exp);
        if e < 0 {
            // b × 10^-e would have to divide a, so 10 would divide a: but a has no
            // trailing zero.
            return false;
        }
        // b divides a × 10^e  ⇔  b / gcd(a, b) divides 10^e  ⇔  it is 2^i × 5^j with
        // i, j ≤ e. At most 128 halvings and 56 fifths: bounded whatever e is.
        let mut rest = divisor.digits / gcd(self.digits, divisor.digits);
        let mut twos = 0i64;
        while rest % 2 == 0 {
            rest /= 2;
            twos += 1;
        }
        let mut fives = 0i64;
        while rest % 5 == 0 {
            rest /= 5;
            fives += 1;
        }
        rest == 1 && twos <= e && fives <= e
    }
}

/// Greatest common divisor (Euclid).
fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A small on-stack buffer for formatting one float.
struct ShortBuf {
    bytes: [u8; 48],
    len: usize,
}

impl Default for ShortBuf {
    fn default() -> Self {
        ShortBuf {
            bytes: [0; 48],
            len: 0,
        }
    }
}

impl ShortBuf {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn find(&self, byte: u8) -> Option<usize> {
        self.as_bytes().iter().position(|&b| b == byte)
    }
}

impl core::fmt::Write for ShortBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(core::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Drops `value` without recursion: serde_json drops nested arrays and objects
/// recursively, which overflows the stack on a deep enough value (a few thousand levels on
/// a 2 MiB thread). This takes the value apart with an explicit stack instead; the work and
/// the extra memory are linear in the value's size.
pub fn drop_deep(value: Value) {
    let mut stack: Vec<Value> = Vec::new();
    let push = |v: Value, stack: &mut Vec<Value>| {
        if matches!(&v, Value::Array(a) if !a.is_empty())
            || matches!(&v, Value::Object(o) if !o.is_empty())
        {
            stack.push(v);
        }
    };
    push(value, &mut stack);
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => {
                for item in items {
                    push(item, &mut stack);
                }
            }
            Value::Object(map) => {
                for (_, item) in map {
                    push(item, &mut stack);
                }
            }
            // Scalars drop without recursion.
            _ => {}
        }
    }
}

/// Length of a string in Unicode code points, as `minLength` / `maxLength` count: its
/// bytes less its continuation bytes (`0b10xx_xxxx`), counted eight at a time below
/// 64 bytes (where `str::chars().count()` goes byte by byte).
pub fn code_point_len(s: &str) -> u64 {
    let bytes = s.as_bytes();
    let len = bytes.len();
    if len >= CHARS_COUNT_FROM {
        return s.chars().count() as u64;
    }
    if len < 8 {
        let continuations = bytes.iter().filter(|&&b| b & 0xc0 == 0x80).count();
        return (len - continuations) as u64;
    }
    let word = |at: usize| {
        bytes.get(at..at + 8).map_or(0, |w| {
            u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
        })
    };
    let mut continuations = 0;
    let mut at = 0;
    while at + 8 <= len {
        continuations += continuation_bytes(word(at));
        at += 8;
    }
    if at < len {
        // The last eight bytes, less those already counted (the low ones).
        continuations += continuation_bytes(word(len - 8) >> (8 * (8 - (len - at))));
    }
    (len - continuations) as u64
}

/// From this many bytes on, [`code_point_len`] leaves the count to the standard library,
/// which counts a word at a time with unrolled loops.
const CHARS_COUNT_FROM: usize = 64;

/// How many of the eight bytes of `w` are continuation bytes: those with bit 7 set and
/// bit 6 (shifted into bit 7) clear, each turned into a 1 and summed by a multiply
/// (no `popcnt` on baseline x86-64).
#[inline(always)]
fn continuation_bytes(w: u64) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ones = (w & !(w << 1) & HIGH) >> 7;
    (ones.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Work on values (hashing them, comparing them) per unit of the evaluation budget: a
/// [`Meter`] charges one unit per `NODES_PER_UNIT` values read, rounded up.
pub const NODES_PER_UNIT: u64 = 16;

/// Counts the values read by work on values and charges them to a budget, one unit per
/// [`NODES_PER_UNIT`] (in all, rounded up: [`Meter::finish`]); the charge is made as the
/// count grows, so that work that would run past the budget stops there.
pub struct Meter<'b> {
    budget: &'b mut Budget,
    nodes: u64,
}

impl<'b> Meter<'b> {
    /// Charges at least this many values at a time (between charges, the count grows by
    /// at most one comparison or one hash: work linear in the instance).
    const CHARGE_FROM: u64 = 1024;

    /// A meter charging `budget`.
    pub fn new(budget: &'b mut Budget) -> Meter<'b> {
        Meter { budget, nodes: 0 }
    }

    /// Counts `nodes` more values read.
    #[inline]
    pub fn add(&mut self, nodes: u64) -> Result<(), IncompleteReason> {
        self.nodes += nodes;
        if self.nodes < Self::CHARGE_FROM {
            return Ok(());
        }
        let units = self.nodes / NODES_PER_UNIT;
        self.nodes %= NODES_PER_UNIT;
        self.budget.charge(units)
    }

    /// Charges what is left of the count (a part of a unit counts as one).
    #[inline]
    pub fn finish(self) -> Result<(), IncompleteReason> {
        self.budget.charge(self.nodes.div_ceil(NODES_PER_UNIT))
    }
}

/// Whether all `items` are distinct under [`equal`] (`uniqueItems`), the work charged to
/// `budget` ([`Meter`]): every value of every item hashed, every pair of values compared.
/// `Err` when the budget runs out. Generic over the [`Instance`] the items are.
///
/// Not quadratic for large arrays: items are bucketed by a hash consistent with [`equal`]
/// ([`hash_value`], over the whole item), sorted by it, and only items with equal hashes
/// are compared. Runs of numbers with one hash (distinct integers beyond 2^53 round to
/// one `f64`) are sorted exactly rather than compared pairwise.
pub fn all_unique<'a, I: Instance<'a>>(
    items: impl ExactSizeIterator<Item = I> + Clone,
    budget: &mut Budget,
) -> Result<bool, IncompleteReason> {
    let mut meter = Meter::new(budget);
    let len = items.len();
    let unique = if len <= 16 {
        pairwise_unique(items, &mut meter)?
    } else if len <= 64 {
        // Up to a few hundred items the keys live on the stack: no allocation.
        keyed_on_stack::<64, I>(items, &mut meter)?
    } else if len <= 256 {
        keyed_on_stack::<256, I>(items, &mut meter)?
    } else {
        let mut keys: Vec<(u64, usize, I)> = Vec::with_capacity(len);
        for (i, v) in items.enumerate() {
            keys.push((hashed(v, &mut meter)?, i, v));
        }
        keyed_unique(&mut keys, &mut meter)?
    };
    meter.finish()?;
    Ok(unique)
}

/// [`keyed_unique`] with the keys of at most `N` items (more than none) in an array on
/// the stack.
fn keyed_on_stack<'a, const N: usize, I: Instance<'a>>(
    mut items: impl Iterator<Item = I>,
    meter: &mut Meter<'_>,
) -> Result<bool, IncompleteReason> {
    let Some(first) = items.next() else {
        return Ok(true);
    };
    let mut keys = [(0u64, 0usize, first); N];
    let mut len = 0;
    for (slot, v) in keys.iter_mut().zip(core::iter::once(first).chain(items)) {
        *slot = (hashed(v, meter)?, len, v);
        len += 1;
    }
    keyed_unique(&mut keys[..len], meter)
}

/// The hash of `v`, its values counted on `meter`.
#[inline]
fn hashed<'a, I: Instance<'a>>(v: I, meter: &mut Meter<'_>) -> Result<u64, IncompleteReason> {
    let mut nodes = 0;
    let hash = hash_value(v, &mut nodes);
    meter.add(nodes)?;
    Ok(hash)
}

/// Uniqueness given each item's `(hash, index, item)`: sorts by hash and index and
/// compares only items whose hashes are equal.
fn keyed_unique<'a, I: Instance<'a>>(
    keyed: &mut [(u64, usize, I)],
    meter: &mut Meter<'_>,
) -> Result<bool, IncompleteReason> {
    keyed.sort_unstable_by_key(|&(hash, index, _)| (hash, index));
    for run in keyed.chunk_by(|a, b| a.0 == b.0) {
        if run.len() < 2 {
            continue;
        }
        let values = run.iter().map(|&(_, _, v)| v);
        let unique = if run.len() > 8 && run.iter().all(|&(_, _, v)| v.kind() == Kind::Number) {
            meter.add(run.len() as u64)?;
            numbers_unique(run.iter().filter_map(|&(_, _, v)| v.as_number()))
        } else {
            pairwise_unique(values, meter)?
        };
        if !unique {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Pairwise comparison (for few items, or items sharing a hash).
fn pairwise_unique<'a, I: Instance<'a>>(
    items: impl Iterator<Item = I> + Clone,
    meter: &mut Meter<'_>,
) -> Result<bool, IncompleteReason> {
    let mut rest = items;
    while let Some(a) = rest.next() {
        // Strings, the usual items, compared inline.
        let mut nodes = 0;
        let repeated = match a.as_str() {
            Some(text) => rest.clone().any(|b| {
                nodes += 1;
                b.as_str() == Some(text)
            }),
            None => rest.clone().any(|b| equal_counted(a, b, &mut nodes)),
        };
        meter.add(nodes)?;
        if repeated {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Uniqueness of numbers that share a hash (so, almost always, one `f64` value): sorted
/// by exact value ([`compare_numbers`] is a total order on the numbers serde_json holds),
/// then neighbours compared.
fn numbers_unique(numbers: impl Iterator<Item = Number>) -> bool {
    let mut sorted: Vec<Number> = numbers.collect();
    sorted.sort_unstable_by(compare_numbers);
    sorted
        .windows(2)
        .all(|w| compare_numbers(&w[0], &w[1]) != Ordering::Equal)
}

/// A hash of the whole of `v` consistent with [`equal`] (equal values hash alike: numbers
/// by value, objects independently of key order, strings by their unescaped text),
/// adding to `nodes` how many values it read (`v` and every value inside it). Recursion
/// is bounded as [`equal`]'s is. Code generation calls it too (the static hashes of
/// `enum` members), so generated code and the interpreter agree on every hash.
pub fn hash_value<'a, I: Instance<'a>>(v: I, nodes: &mut u64) -> u64 {
    hash_at(v, 0, nodes)
}

fn hash_at<'a, I: Instance<'a>>(v: I, depth: u32, nodes: &mut u64) -> u64 {
    match v.kind() {
        Kind::Array if depth < EQUAL_RECURSION_LIMIT => {
            *nodes += 1;
            let mut h = mix(5, v.len().unwrap_or(0) as u64);
            for item in v.items() {
                h = mix(h, hash_at(item, depth + 1, nodes));
            }
            h
        }
        Kind::Object if depth < EQUAL_RECURSION_LIMIT => {
            *nodes += 1;
            // Key order must not matter: combine entries commutatively.
            let mut sum = 0u64;
            for (k, value) in v.entries() {
                sum = sum.wrapping_add(mix(hash_json_str(k), hash_at(value, depth + 1, nodes)));
            }
            mix(mix(6, v.len().unwrap_or(0) as u64), sum)
        }
        Kind::Array | Kind::Object => hash_iterative(v, nodes),
        _ => {
            *nodes += 1;
            hash_scalar(v)
        }
    }
}

/// The hash of a value that is neither an array nor an object.
fn hash_scalar<'a, I: Instance<'a>>(v: I) -> u64 {
    match v.kind() {
        Kind::Null => mix(1, 0),
        Kind::Bool => mix(2, u64::from(v.as_bool().unwrap_or(false))),
        Kind::Number => {
            let f = v.as_f64().unwrap_or(0.0);
            // Numbers that are equal (exactly) have the same nearest f64, so hash that;
            // -0.0 == 0.0.
            let bits = if f == 0.0 { 0 } else { f.to_bits() };
            mix(3, bits)
        }
        Kind::String => v.as_str().map_or(0, hash_json_str),
        // Not scalars: never passed here.
        Kind::Array | Kind::Object => 0,
    }
}

/// An array or object being hashed by [`hash_iterative`]: its hash so far and the entries
/// left.
enum Open<'a, I: Instance<'a>> {
    Array(u64, I::Items),
    /// The head (kind and length), the sum of the entries done, the hash of the key of
    /// the entry under way, the entries left.
    Object(u64, u64, u64, I::Entries),
}

/// [`hash_value`] with an explicit stack (for deeply nested values); the same hash.
fn hash_iterative<'a, I: Instance<'a>>(v: I, nodes: &mut u64) -> u64 {
    let mut stack: Vec<Open<'a, I>> = Vec::new();
    let mut next = v;
    loop {
        *nodes += 1;
        let len = next.len().unwrap_or(0) as u64;
        // The hash of a finished value, to fold into the one that holds it.
        let mut done = match next.kind() {
            Kind::Array => {
                stack.push(Open::Array(mix(5, len), next.items()));
                None
            }
            Kind::Object => {
                stack.push(Open::Object(mix(6, len), 0, 0, next.entries()));
                None
            }
            _ => Some(hash_scalar(next)),
        };
        // Fold finished values into their holders until one has an entry left to hash.
        next = loop {
            let Some(open) = stack.last_mut() else {
                return done.unwrap_or(0);
            };
            match open {
                Open::Array(h, rest) => {
                    if let Some(child) = done.take() {
                        *h = mix(*h, child);
                    }
                    match rest.next() {
                        Some(item) => break item,
                        None => done = Some(*h),
                    }
                }
                Open::Object(head, sum, key, rest) => {
                    if let Some(child) = done.take() {
                        *sum = sum.wrapping_add(mix(*key, child));
                    }
                    match rest.next() {
                        Some((k, item)) => {
                            *key = hash_json_str(k);
                            break item;
                        }
                        None => done = Some(mix(*head, *sum)),
                    }
                }
            }
            stack.pop();
        };
    }
}

/// [`hash_str`] of a string as read: its unescaped text (decoded into a new `String` only
/// when it holds an escape).
#[inline]
fn hash_json_str(s: JsonStr<'_>) -> u64 {
    hash_str(&s.unescaped())
}

/// The hash of a string (as [`hash_value`] hashes a string value): its length, then its
/// bytes eight at a time, the last word padded with zeros.
fn hash_str(s: &str) -> u64 {
    let bytes = s.as_bytes();
    let mut h = mix(4, bytes.len() as u64);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        h = mix(
            h,
            u64::from_le_bytes([
                word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
            ]),
        );
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let last = tail
            .iter()
            .rev()
            .fold(0u64, |word, &b| word << 8 | u64::from(b));
        h = mix(h, last);
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
    use crate::limits::Limits;
    use alloc::vec;
    use serde_json::json;

    /// [`super::all_unique`] under the default budget.
    fn all_unique(items: &[Value]) -> bool {
        super::all_unique(items.iter(), &mut Budget::new(&Limits::DEFAULT))
            .expect("within the budget")
    }

    #[test]
    fn integers_are_read_as_the_validator_judged_them() {
        let read = |text: &str| {
            let v: Value = serde_json::from_str(text).unwrap();
            (integer_as_u64(&v), integer_as_i64(&v))
        };
        assert_eq!(read("7"), (Some(7), Some(7)));
        assert_eq!(read("7.0"), (Some(7), Some(7)));
        assert_eq!(read("7e0"), (Some(7), Some(7)));
        assert_eq!(read("-0"), (Some(0), Some(0)));
        assert_eq!(read("-0.0"), (Some(0), Some(0)));
        assert_eq!(read("-3.0"), (None, Some(-3)));
        assert_eq!(read("7.5"), (None, None));
        assert_eq!(read("18446744073709551615"), (Some(u64::MAX), None));
        // 2^64 and 2^63 as floats: just past the ranges.
        assert_eq!(read("18446744073709551616.0"), (None, None));
        assert_eq!(read("9223372036854775808.0"), (Some(1 << 63), None));
        assert_eq!(read("-9223372036854775808.0"), (None, Some(i64::MIN)));
        assert_eq!(read("1e300"), (None, None));
        assert_eq!(read("\"7\""), (None, None));
        assert_eq!(read("true"), (None, None));
    }

    #[test]
    fn code_points_are_counted_as_chars_at_every_length() {
        // One-, two-, three- and four-byte code points, at every offset and length on
        // both sides of the word-wise count's limit.
        let text = "a\u{e9}\u{20ac}\u{1f600}".repeat(12);
        for start in text.char_indices().map(|(i, _)| i) {
            let rest = &text[start..];
            for end in rest.char_indices().map(|(i, _)| i).chain([rest.len()]) {
                let s = &rest[..end];
                assert_eq!(code_point_len(s), s.chars().count() as u64, "{s:?}");
            }
        }
    }

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
        // Few items, compared pairwise: strings against strings only, the other scalars.
        assert!(all_unique(&[
            json!("a"),
            json!("b"),
            json!(null),
            json!(false)
        ]));
        assert!(!all_unique(&[json!("a"), json!(1), json!("a")]));
        assert!(!all_unique(&[json!(true), json!("true"), json!(true)]));
        assert!(!all_unique(&[json!(null), json!({}), json!(null)]));
        assert!(all_unique(&[json!("1"), json!(1), json!([]), json!({})]));
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

    fn num(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            other => panic!("not a number: {other}"),
        }
    }

    fn parse(text: &str) -> Number {
        num(serde_json::from_str(text).unwrap())
    }

    #[test]
    fn multiple_of_is_exact_on_shortest_decimals() {
        let multiple = |n: &str, d: f64| is_multiple_of(&parse(n), Divisor::Float(d));
        // Decimal divisors that are not exact in binary.
        assert!(multiple("0.0075", 0.0001));
        assert!(multiple("0.3", 0.1));
        assert!(multiple("4.5", 1.5));
        assert!(multiple("19.99", 0.01));
        assert!(multiple("-0.0075", 0.0001));
        assert!(!multiple("0.00751", 0.0001));
        assert!(!multiple("0.30000000000000004", 0.1));
        assert!(!multiple("7", 0.3));
        // No tolerance for tiny quotients.
        assert!(!multiple("1e-17", 1.0));
        assert!(!multiple("5e-324", 1.0));
        assert!(!multiple("1e-20", 2.5));
        assert!(!multiple("0.5", 1.0));
        // Integers, integral floats and huge numbers.
        assert!(multiple("0", 0.7));
        assert!(multiple("-0.0", 3.0));
        assert!(multiple("10", 2.5));
        assert!(multiple("12391239123", 1e-8));
        assert!(multiple("18446744073709551615", 5.0));
        assert!(!multiple("18446744073709551615", 2.0));
        assert!(multiple("-9223372036854775808", 2.0));
        assert!(multiple("1e308", 1.0));
        assert!(multiple("1e308", 1e-300));
        assert!(multiple("1e308", 2.5e-300));
        assert!(!multiple("1e308", 3.0));
        assert!(!multiple("1e308", 0.123456789));
        assert!(!multiple("1e-300", 1e308));
        assert!(multiple("1.7976931348623157e308", 1e-5));
        assert!(!multiple("1.7976931348623157e308", 3e-5));
        assert!(multiple("5e-324", 5e-324));
        assert!(multiple("1e-323", 5e-324));
        assert!(!multiple("1.5e-323", 1e-323));
    }

    #[test]
    fn integer_divisors_beyond_2_pow_53_are_exact() {
        let divisor = |d: &str| Divisor::of(&parse(d)).unwrap();
        let multiple = |n: &str, d: &str| is_multiple_of(&parse(n), divisor(d));
        // As an f64, 9007199254740993 is 9007199254740992: a wrong "valid" before.
        assert_eq!(
            divisor("9007199254740993"),
            Divisor::Integer(9007199254740993)
        );
        assert!(!multiple("9007199254740992", "9007199254740993"));
        assert!(multiple("9007199254740993", "9007199254740993"));
        assert!(multiple("18446744073709551615", "18446744073709551615"));
        assert!(!multiple("18446744073709551614", "18446744073709551615"));
        assert!(multiple("-9223372036854775808", "4611686018427387904"));
        assert!(multiple("0", "18446744073709551615"));
        // A float instance against an integer divisor: its shortest decimal.
        assert!(multiple("1.8446744073709552e19", "2"));
        assert!(!multiple("0.5", "1"));
        // Divisors that are not integers read exactly stay floats; zero and negatives
        // are not divisors.
        assert_eq!(divisor("2.5"), Divisor::Float(2.5));
        assert_eq!(Divisor::of(&Number::from(0u64)), None);
        assert_eq!(Divisor::of(&Number::from(-3i64)), None);
        assert_eq!(
            Divisor::Integer(9007199254740993).to_string(),
            "9007199254740993"
        );
        assert_eq!(Divisor::Float(0.01).to_string(), "0.01");
    }

    #[test]
    fn decimals_of_floats_are_the_shortest_forms() {
        assert_eq!(Decimal::of_f64(0.1), Some(Decimal { digits: 1, exp: -1 }));
        assert_eq!(
            Decimal::of_f64(-1234.5),
            Some(Decimal {
                digits: 12345,
                exp: -1
            })
        );
        assert_eq!(
            Decimal::of_f64(5e-324),
            Some(Decimal {
                digits: 5,
                exp: -324
            })
        );
        assert_eq!(
            Decimal::of_f64(f64::MAX),
            Some(Decimal {
                digits: 17976931348623157,
                exp: 292
            })
        );
        assert_eq!(Decimal::of_f64(0.0), Some(Decimal { digits: 0, exp: 0 }));
        assert_eq!(Decimal::of_f64(f64::INFINITY), None);
        assert_eq!(Decimal::of_f64(f64::NAN), None);
    }

    #[test]
    fn integers_and_floats_compare_exactly() {
        use Ordering::*;
        let cases: &[(&str, &str, Ordering)] = &[
            ("9223372036854775807", "9223372036854775808.0", Less),
            ("9007199254740993", "9007199254740992.0", Greater),
            ("9007199254740992", "9007199254740992.0", Equal),
            ("10000000000000000001", "1e19", Greater),
            ("10000000000000000000", "1e19", Equal),
            ("18446744073709551615", "18446744073709551616.0", Less),
            ("-9223372036854775808", "-9223372036854775808.0", Equal),
            ("-9223372036854775808", "-9223372036854777856.0", Greater),
            ("1", "1.0000000000000002", Less),
            ("-1", "-1.0000000000000002", Greater),
            ("2", "1.9999999999999998", Greater),
            ("0", "-0.0", Equal),
            ("0", "5e-324", Less),
            ("0", "-5e-324", Greater),
            ("18446744073709551615", "1e300", Less),
            ("-9223372036854775808", "-1e300", Greater),
            ("3", "2.5", Greater),
            ("-3", "-2.5", Less),
            ("1.5", "2.5", Less),
        ];
        for (a, b, order) in cases {
            let (x, y) = (parse(a), parse(b));
            assert_eq!(compare_numbers(&x, &y), *order, "{a} vs {b}");
            assert_eq!(compare_numbers(&y, &x), order.reverse(), "{b} vs {a}");
            let limit = y.as_f64().unwrap();
            assert_eq!(compare_with_f64(&x, limit), *order, "{a} vs {b} (f64)");
            assert_eq!(
                equal(&Value::Number(x.clone()), &Value::Number(y.clone())),
                *order == Equal
            );
        }
        assert_eq!(cmp_int_float(i128::MAX, 1.7014118346046923e38), Less);
        assert_eq!(cmp_int_float(i128::MIN, -1.7014118346046923e38), Equal);
        assert_eq!(cmp_int_float(i128::MIN, -1e39), Greater);
        assert_eq!(cmp_int_float(i128::MAX, 1e39), Less);
        // Around 2^53, where the integer stops being an f64 exactly.
        let two_53 = 1i128 << 53;
        assert_eq!(cmp_int_float(two_53, 9_007_199_254_740_992.0), Equal);
        assert_eq!(cmp_int_float(two_53 + 1, 9_007_199_254_740_992.0), Greater);
        assert_eq!(cmp_int_float(-two_53 - 1, -9_007_199_254_740_992.0), Less);
        assert_eq!(cmp_int_float(-two_53, -9_007_199_254_740_992.0), Equal);
        assert_eq!(cmp_int_float(two_53 - 1, 9_007_199_254_740_992.0), Less);
        assert_eq!(cmp_int_float(0, -0.0), Equal);
        assert_eq!(cmp_int_float(0, f64::NAN), Equal);
        assert_eq!(cmp_int_float(1, 0.5), Greater);
        assert_eq!(cmp_int_float(-1, -0.5), Less);
    }

    #[test]
    fn unique_items_compare_numbers_exactly() {
        assert!(all_unique(&[
            json!(10000000000000000001u64),
            num_value("1e19")
        ]));
        assert!(!all_unique(&[
            json!(10000000000000000000u64),
            num_value("1e19")
        ]));
        // A large run of numbers sharing one f64, with the float among them.
        let base: u64 = 1 << 60;
        let mut near: Vec<Value> = (1..40u64).map(|i| json!(base + i)).collect();
        near.push(json!(base as f64));
        assert!(all_unique(&near));
        near.push(json!(base));
        assert!(!all_unique(&near));
    }

    fn num_value(text: &str) -> Value {
        Value::Number(parse(text))
    }

    #[test]
    fn drop_deep_takes_deep_values_apart_on_a_small_stack() {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| {
                let mut v = json!(1);
                for i in 0..200_000 {
                    v = if i % 2 == 0 {
                        Value::Array(vec![v, json!("x")])
                    } else {
                        // Not `json!` with `v` inside: it would serialize `v` recursively.
                        let mut map = serde_json::Map::new();
                        map.insert("k".into(), v);
                        map.insert("j".into(), json!([1, {"a": null}]));
                        Value::Object(map)
                    };
                }
                drop_deep(v);
                drop_deep(json!(null));
                drop_deep(json!([]));
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
    }

    #[test]
    fn hashes_read_whole_values_and_agree_past_the_recursion_limit() {
        fn deep(n: usize, leaf: Value) -> Value {
            let mut v = leaf;
            for i in 0..n {
                let mut map = serde_json::Map::new();
                map.insert(format!("k{}", i % 3), v);
                v = Value::Array(vec![Value::Object(map), json!("seven by")]);
            }
            v
        }
        // Items that differ only below the old depth bound of 8 hash apart.
        let (mut a, mut b) = (0, 0);
        assert_ne!(
            hash_value(&deep(20, json!(1)), &mut a),
            hash_value(&deep(20, json!(2)), &mut b)
        );
        // Three values per level and the leaf: every value read once.
        assert_eq!((a, b), (61, 61));
        // The explicit stack gives the recursion's hash, and counts alike.
        for v in [
            deep(20, json!(1)),
            json!({"b": [1, {"c": null}], "a": "xyzxyzxyz"}),
            json!(7),
        ] {
            let (mut recursive, mut iterative) = (0, 0);
            assert_eq!(
                hash_value(&v, &mut recursive),
                hash_iterative(&v, &mut iterative)
            );
            assert_eq!(recursive, iterative);
        }
        let (mut n, mut m) = (0, 0);
        assert_eq!(
            hash_value(&deep(500, json!(1.0)), &mut n),
            hash_value(&deep(500, json!(1)), &mut m)
        );
        assert!(equal(&deep(500, json!(1.0)), &deep(500, json!(1))));
        assert!(!equal(&json!({"a": 1, "b": 2}), &json!({"a": 1, "c": 2})));
    }

    #[test]
    fn unique_items_work_is_charged_per_value() {
        // 20 distinct arrays, each of 10 values nested 9 deep: 200 values hashed, no
        // comparison (no two hashes alike), 13 units.
        let nested = |i: usize| {
            let mut v = json!(i);
            for _ in 0..9 {
                v = Value::Array(vec![v]);
            }
            v
        };
        let items: Vec<Value> = (0..20).map(nested).collect();
        let mut budget = Budget::new(&Limits {
            budget: 13,
            ..Limits::DEFAULT
        });
        assert_eq!(super::all_unique(items.iter(), &mut budget), Ok(true));
        assert_eq!(budget.remaining(), 0);
        let mut budget = Budget::new(&Limits {
            budget: 12,
            ..Limits::DEFAULT
        });
        assert_eq!(
            super::all_unique(items.iter(), &mut budget),
            Err(IncompleteReason::BudgetExceeded)
        );
        // Few items are compared pairwise, each pair of values counted: 3 pairs of
        // strings, then two arrays of two values equal (3 pairs compared): 1 unit.
        let mut budget = Budget::new(&Limits::DEFAULT);
        let few = [json!("a"), json!("b"), json!([1, 2]), json!([1, 2.0])];
        assert_eq!(super::all_unique(few.iter(), &mut budget), Ok(false));
        assert_eq!(budget.remaining(), Limits::DEFAULT_BUDGET - 1);
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

/// What one property of a value holds, for telling the branches of an `anyOf` / `oneOf`
/// apart by it (a discriminator): each branch admits some tags, and a branch that does
/// not admit the value's tag cannot be valid, so it need not be evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag<'a> {
    /// The value is not an object: every branch must be evaluated.
    NotObject,
    /// An object without the property.
    Absent,
    /// An object whose property is this string.
    Str(&'a str),
    /// An object whose property is a string that holds an escape as written (only a
    /// document read from bytes gives one: a `Value`'s strings are unescaped): compare its
    /// characters ([`JsonStr::eq_str`]).
    Escaped(JsonStr<'a>),
    /// An object whose property is not a string.
    Other,
}

impl<'a> Tag<'a> {
    /// The tag of `value` for the property `name`.
    #[inline]
    pub fn of<I: Instance<'a>>(value: I, name: &str) -> Tag<'a> {
        if value.kind() != Kind::Object {
            return Tag::NotObject;
        }
        match value.get(name) {
            None => Tag::Absent,
            Some(v) => match v.as_str() {
                Some(s) => s.as_plain().map_or(Tag::Escaped(s), Tag::Str),
                None => Tag::Other,
            },
        }
    }

    /// This tag with an escaped string ([`Tag::Escaped`]) decoded into `buffer`, as a
    /// [`Tag::Str`]: what generated code matches the strings its branches admit against.
    #[inline]
    pub fn unescaped<'s>(self, buffer: &'s mut alloc::string::String) -> Tag<'s>
    where
        'a: 's,
    {
        match self {
            Tag::Escaped(s) => {
                buffer.extend(s.chars());
                Tag::Str(buffer)
            }
            other => other,
        }
    }
}
