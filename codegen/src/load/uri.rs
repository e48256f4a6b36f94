//! RFC 3986 URI references: parsing into components, resolution against a base
//! (section 5.2, with dot-segment removal), fragments and JSON pointers.
//!
//! Hand-written rather than the `url` crate: `url` follows the WHATWG URL standard, which
//! normalizes or rejects identifiers JSON Schema uses (`urn:` ids, odd relative references).

use std::borrow::Cow;

/// The five components of a URI reference (RFC 3986 appendix B).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(s: &str) -> Parts<'_> {
    let mut rest = s;
    let mut parts = Parts::default();
    if let Some(i) = rest.find('#') {
        parts.fragment = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    if let Some(i) = rest.find('?') {
        parts.query = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    if let Some(i) = rest.find(':') {
        let scheme = &rest[..i];
        if is_scheme(scheme) {
            parts.scheme = Some(scheme);
            rest = &rest[i + 1..];
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        parts.authority = Some(&after[..end]);
        rest = &after[end..];
    }
    parts.path = rest;
    parts
}

fn recompose(parts: &Parts<'_>, path: &str) -> String {
    let mut out = String::new();
    if let Some(s) = parts.scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = parts.authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = parts.query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = parts.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// RFC 3986 section 5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output: Vec<&str> = Vec::new();
    let absolute = input.starts_with('/');
    // Work segment by segment; a trailing "." or ".." leaves a trailing slash.
    let mut trailing_slash = false;
    if absolute {
        input = &input[1..];
    }
    let segments: Vec<&str> = input.split('/').collect();
    let count = segments.len();
    for (i, seg) in segments.into_iter().enumerate() {
        let last = i + 1 == count;
        match seg {
            "." => trailing_slash = last,
            ".." => {
                output.pop();
                trailing_slash = last;
            }
            s => {
                output.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut out = String::new();
    if absolute {
        out.push('/');
    }
    out.push_str(&output.join("/"));
    if trailing_slash && !out.ends_with('/') {
        out.push('/');
    }
    out
}

/// Resolves `reference` against the absolute URI `base` (RFC 3986 section 5.2.2).
pub fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    if r.scheme.is_some() {
        return recompose(&r, &remove_dot_segments(r.path));
    }
    let b = parse(base);
    let mut t = Parts {
        scheme: b.scheme,
        authority: b.authority,
        path: "",
        query: r.query,
        fragment: r.fragment,
    };
    let path = if r.authority.is_some() {
        t.authority = r.authority;
        remove_dot_segments(r.path)
    } else if r.path.is_empty() {
        if r.query.is_none() {
            t.query = b.query;
        }
        b.path.to_string()
    } else if r.path.starts_with('/') {
        remove_dot_segments(r.path)
    } else {
        let merged = if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.rfind('/') {
                Some(i) => format!("{}{}", &b.path[..=i], r.path),
                None => r.path.to_string(),
            }
        };
        remove_dot_segments(&merged)
    };
    recompose(&t, &path)
}

/// Splits an absolute URI into the part before `#` and its fragment (`""` when absent).
pub fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.find('#') {
        Some(i) => (&uri[..i], &uri[i + 1..]),
        None => (uri, ""),
    }
}

/// Whether `s` is a URI scheme (RFC 3986 §3.1): a letter, then letters, digits, `+`, `-`
/// and `.`.
pub fn is_scheme(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether the URI reference has a scheme (is absolute, fragment aside).
pub fn has_scheme(uri: &str) -> bool {
    parse(uri).scheme.is_some()
}

/// Decodes `%XX` escapes; `None` when an escape is malformed or the result is not UTF-8.
pub fn percent_decode(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// Whether `pointer` is a well-formed JSON pointer: empty, or `/`-prefixed tokens in
/// which every `~` is followed by `0` or `1` ([`pointer_tokens`] accepts it).
pub fn is_pointer(pointer: &str) -> bool {
    let bytes = pointer.as_bytes();
    (bytes.is_empty() || bytes[0] == b'/')
        && (bytes.iter().enumerate())
            .all(|(i, &b)| b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// Splits a JSON pointer (`/a/b~1c`) into unescaped tokens; `None` if malformed.
pub fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|t| {
            if t.contains('~') {
                let mut out = String::new();
                let mut chars = t.chars();
                while let Some(c) = chars.next() {
                    if c == '~' {
                        match chars.next() {
                            Some('0') => out.push('~'),
                            Some('1') => out.push('/'),
                            _ => return None,
                        }
                    } else {
                        out.push(c);
                    }
                }
                Some(out)
            } else {
                Some(t.to_string())
            }
        })
        .collect()
}

/// Escapes one JSON-pointer token (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_token(&mut out, token);
    out
}

/// Appends `token` to `out` as a JSON pointer reference token ([`escape_token`]).
pub fn push_token(out: &mut String, token: &str) {
    // (Bytewise: `~` and `/` are ASCII, never inside a longer UTF-8 sequence.)
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Percent-encodes the characters a JSON pointer may hold that a URI fragment may not.
pub fn encode_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    push_fragment(&mut out, pointer);
    out
}

/// Appends `pointer` to `out` as a URI fragment ([`encode_fragment`]).
pub fn push_fragment(out: &mut String, pointer: &str) {
    /// The bytes a fragment holds as they are: unreserved characters, sub-delimiters,
    /// `:`, `@`, `/` and `?`.
    const KEPT: [bool; 128] = {
        let mut kept = [false; 128];
        let mut b = 0;
        while b < 128 {
            kept[b] = (b as u8).is_ascii_alphanumeric();
            b += 1;
        }
        let others = b"-._~!$&'()*+,;=:@/?";
        let mut i = 0;
        while i < others.len() {
            kept[others[i] as usize] = true;
            i += 1;
        }
        kept
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let kept = |b: u8| b < 128 && KEPT[usize::from(b)];
    if pointer.bytes().all(kept) {
        out.push_str(pointer);
        return;
    }
    for b in pointer.bytes() {
        if kept(b) {
            out.push(char::from(b));
        } else {
            // Every byte of a non-ASCII character is encoded, as UTF-8 is.
            let (high, low) = (HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]);
            out.extend(['%', char::from(high), char::from(low)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What lowering's shortcut for fragment-only references relies on: when resolving
    /// `#` against a base gives the base and `#`, resolving any fragment-only reference
    /// gives the base followed by the reference.
    #[test]
    fn a_base_that_reads_back_takes_fragments_as_they_are() {
        let bases = [
            "https://schemac.invalid/root.json",
            "http://example.com/a/b.json",
            "http://example.com/a/../b.json",
            "http://example.com/a?q=1",
            "HTTP://Example.com/A",
            "urn:uuid:deadbeef-1234-0000-0000-4321fedcba98",
            "tag:example.com,2026:schema",
            "file:///tmp/s.json",
            "http://example.com",
            "http://example.com/a#frag",
            "relative/path.json",
        ];
        let references = ["#", "#/definitions/a", "#/a~1b/%25", "#anchor", "#/x?y#z"];
        let mut verbatim = 0;
        for base in bases {
            if resolve(base, "#") != format!("{base}#") {
                continue;
            }
            verbatim += 1;
            for reference in references {
                assert_eq!(
                    resolve(base, reference),
                    format!("{base}{reference}"),
                    "{base}"
                );
            }
        }
        // A base with a fragment does not read back (resolving drops its fragment).
        assert!(verbatim >= 8 && verbatim < bases.len(), "{verbatim}");
    }

    #[test]
    fn fragments_percent_encode_what_a_uri_may_not_hold() {
        assert_eq!(encode_fragment("/properties/a~1b/0"), "/properties/a~1b/0");
        assert_eq!(
            encode_fragment("/properties/a b/é%\"{"),
            "/properties/a%20b/%C3%A9%25%22%7B"
        );
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
    }

    #[test]
    fn resolves_rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            ("g..", "http://a/b/c/g.."),
            ("./../g", "http://a/b/g"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
        ] {
            assert_eq!(resolve(base, r), want, "resolving {r:?}");
        }
    }

    #[test]
    fn resolves_urns_and_fragments() {
        let base = "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed";
        assert_eq!(resolve(base, "#/$defs/bar"), format!("{base}#/$defs/bar"));
        assert_eq!(split_fragment("urn:x#foo"), ("urn:x", "foo"));
        assert_eq!(split_fragment("http://x/y"), ("http://x/y", ""));
    }

    #[test]
    fn pointers_unescape_and_reject_bad_escapes() {
        assert_eq!(
            pointer_tokens("/a~1b/c~0d/"),
            Some(vec!["a/b".into(), "c~d".into(), "".into()])
        );
        assert_eq!(pointer_tokens("/a~2"), None);
        assert_eq!(pointer_tokens("a"), None);
        for pointer in ["", "/", "/a~1b/c~0d/", "/a~2", "a", "/~", "/a~01"] {
            assert_eq!(
                is_pointer(pointer),
                pointer_tokens(pointer).is_some(),
                "{pointer:?}"
            );
        }
        assert_eq!(percent_decode("%25foo%22"), Some("%foo\"".into()));
        assert_eq!(percent_decode("%zz"), None);
    }
}
