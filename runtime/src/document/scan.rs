//! Finding things again in bytes: the steps with which a
//! [`compact::Node`](super::compact::Node) or its iterators find a value in text the
//! reader accepted (so they check nothing: a string there closes, escapes are whole,
//! numbers are well formed).

/// The offset of the closing quote of the accepted string whose content starts at `at`,
/// and whether it holds an escape.
#[inline]
pub(super) fn string_end(bytes: &[u8], mut at: usize) -> (usize, bool) {
    let mut escaped = false;
    loop {
        while let Some(&b) = bytes.get(at) {
            if b == b'"' || b == b'\\' {
                break;
            }
            at += 1;
        }
        match bytes.get(at) {
            Some(b'\\') => {
                // Every escape's second byte is neither a quote nor a backslash that
                // starts another escape: `\"`, `\\` and `\uXXXX` alike are stepped over.
                escaped = true;
                at += 2;
            }
            _ => return (at, escaped),
        }
    }
}

/// The offset just past the accepted number that starts at `at`, and whether it is
/// written with neither a fraction nor an exponent.
#[inline]
pub(super) fn number_end(bytes: &[u8], mut at: usize) -> (usize, bool) {
    let mut integral = true;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'0'..=b'9' | b'-' | b'+' => {}
            b'.' | b'e' | b'E' => integral = false,
            _ => break,
        }
        at += 1;
    }
    (at, integral)
}

/// The offset of the first byte from `at` that is not JSON whitespace.
#[inline]
pub(super) fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
        at += 1;
    }
    at
}

/// The offset of what follows the separator (`,` between items or entries, `:` after a
/// key) that comes after `at`, whitespace around it stepped over.
#[inline]
pub(super) fn past_separator(bytes: &[u8], at: usize) -> usize {
    // Compact text first: the separator right there, the next value or key right after.
    match bytes.get(at..at + 2) {
        Some(&[separator, next]) if separator > b' ' && next > b' ' => at + 1,
        _ => skip_whitespace(bytes, skip_whitespace(bytes, at) + 1),
    }
}
