//! JSON Pointer formats: `json-pointer` (RFC 6901) and `relative-json-pointer`
//! (draft-bhutton-relative-json-pointer-00, which JSON Schema 2020-12 cites).
//!
//! Takes the instance string, gives whether it follows the grammar. Pointers are checked
//! in their JSON string form (not as URI fragments): any character may appear in a
//! reference token, but `~` must be followed by `0` or `1`.

/// Whether `b` is a JSON Pointer: empty, or `/`-prefixed tokens with valid `~` escapes.
fn is_json_pointer(b: &[u8]) -> bool {
    if b.first().is_some_and(|&c| c != b'/') {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'~' {
            if !matches!(b.get(i + 1), Some(b'0' | b'1')) {
                return false;
            }
            i += 1;
        }
        i += 1;
    }
    true
}

/// `json-pointer`: an RFC 6901 JSON Pointer such as `/foo/bar~0/baz~1/%a` or the empty
/// string (the whole document).
pub fn json_pointer(s: &str) -> bool {
    is_json_pointer(s.as_bytes())
}

/// Length of a `non-negative-integer` (`0` or a digit string without leading zero) at
/// the start of `b`.
fn non_negative_integer(b: &[u8]) -> Option<usize> {
    let len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    match len {
        0 => None,
        1 => Some(1),
        _ if b[0] == b'0' => None,
        _ => Some(len),
    }
}

/// `relative-json-pointer`: a non-negative integer (no sign, no leading zero), an optional
/// index manipulation (`+N` or `-N`), then either `#` or a JSON Pointer, such as `1`,
/// `0/foo/bar`, `2/0/baz/1/zip` or `0#`.
pub fn relative_json_pointer(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(mut pos) = non_negative_integer(b) else {
        return false;
    };
    if let Some(b'+' | b'-') = b.get(pos) {
        match non_negative_integer(&b[pos + 1..]) {
            Some(len) => pos += 1 + len,
            None => return false,
        }
    }
    let rest = &b[pos..];
    rest == b"#" || is_json_pointer(rest)
}
