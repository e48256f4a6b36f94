//! URI and IRI formats: `uri`, `uri-reference` (RFC 3986), `iri`, `iri-reference`
//! (RFC 3987) and `uri-template` (RFC 6570, level 4).
//!
//! Takes the instance string, gives whether it follows the grammar. One hand-written
//! parser serves URIs and IRIs: IRIs also admit `ucschar` wherever the URI grammar admits
//! unreserved characters, and `iprivate` in the query. Hosts are checked structurally:
//! an IP literal must be a valid IPv6 address (or IPvFuture); a name is any `reg-name`
//! (so `999.999.999.999` is a valid name, as RFC 3986 section 3.2.2 says).

use crate::format::net::is_ipv6;

/// Whether the URI or the IRI grammar applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Uri,
    Iri,
}

/// RFC 3986 `unreserved`.
fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

/// RFC 3986 `sub-delims`.
fn is_sub_delim(c: char) -> bool {
    matches!(
        c,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';' | '='
    )
}

/// RFC 3987 `ucschar`.
pub(crate) fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD => true,
        // Planes 1 to 13, less the last two code points of each.
        0x10000..=0xDFFFF => c & 0xFFFF <= 0xFFFD,
        _ => false,
    }
}

/// RFC 3987 `iprivate`.
pub(crate) fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Checks that every character of `s` is allowed by `allowed` or is part of a
/// `pct-encoded` triplet; `unreserved` (plus `ucschar` for IRIs) is always allowed.
fn check_chars(s: &str, kind: Kind, allowed: impl Fn(char) -> bool) -> bool {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '%' {
            let hex = |c: Option<char>| c.is_some_and(|c| c.is_ascii_hexdigit());
            if !hex(chars.next()) || !hex(chars.next()) {
                return false;
            }
        } else if !(is_unreserved(c) || allowed(c) || (kind == Kind::Iri && is_ucschar(c))) {
            return false;
        }
    }
    true
}

/// `pchar` minus the percent-encoding and unreserved parts `check_chars` handles.
fn is_pchar_extra(c: char) -> bool {
    is_sub_delim(c) || c == ':' || c == '@'
}

/// RFC 3986 `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Checks `authority = [ userinfo "@" ] host [ ":" port ]`.
fn check_authority(authority: &str, kind: Kind) -> bool {
    let (userinfo, host_port) = match authority.split_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, authority),
    };
    if let Some(userinfo) = userinfo {
        if !check_chars(userinfo, kind, |c| is_sub_delim(c) || c == ':') {
            return false;
        }
    }
    let (host, port) = if let Some(rest) = host_port.strip_prefix('[') {
        let Some((literal, after)) = rest.split_once(']') else {
            return false;
        };
        if !is_ip_literal(literal) {
            return false;
        }
        match after {
            "" => ("", None),
            _ => match after.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        match host_port.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    // reg-name (an IPv4 address is a reg-name too, syntactically).
    check_chars(host, kind, is_sub_delim)
        && port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// `IP-literal` contents: `IPv6address / IPvFuture`.
fn is_ip_literal(literal: &str) -> bool {
    if let Some(rest) = literal.strip_prefix(['v', 'V']) {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        let Some((version, tail)) = rest.split_once('.') else {
            return false;
        };
        return !version.is_empty()
            && version.bytes().all(|b| b.is_ascii_hexdigit())
            && !tail.is_empty()
            && tail
                .chars()
                .all(|c| is_unreserved(c) || is_sub_delim(c) || c == ':');
    }
    is_ipv6(literal.as_bytes())
}

/// Checks a URI or IRI reference; `absolute` demands a scheme.
fn check_reference(s: &str, kind: Kind, absolute: bool) -> bool {
    // Split off the fragment, then the query.
    let (rest, fragment) = match s.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (s, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let query_char = |c: char| is_pchar_extra(c) || c == '/' || c == '?';
    if let Some(fragment) = fragment {
        if !check_chars(fragment, kind, query_char) {
            return false;
        }
    }
    if let Some(query) = query {
        let ok = check_chars(query, kind, |c| {
            query_char(c) || (kind == Kind::Iri && is_iprivate(c))
        });
        if !ok {
            return false;
        }
    }
    // A scheme is present when a ':' comes before any '/' and what precedes it is a
    // valid scheme; otherwise this is a relative reference.
    let (scheme, hier) = match rest.split_once(':') {
        Some((scheme, hier)) if is_scheme(scheme) => (Some(scheme), hier),
        _ => (None, rest),
    };
    if absolute && scheme.is_none() {
        return false;
    }
    let path = if let Some(after) = hier.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        if !check_authority(&after[..end], kind) {
            return false;
        }
        &after[end..]
    } else {
        if scheme.is_none() {
            // path-noscheme: the first segment must not contain ':'.
            let first = hier.split('/').next().unwrap_or("");
            if first.contains(':') {
                return false;
            }
        }
        hier
    };
    check_chars(path, kind, |c| is_pchar_extra(c) || c == '/')
}

/// `uri`: an absolute URI (RFC 3986 `URI`: scheme, then hierarchical part, query and
/// fragment), such as `http://foo.bar/?baz=qux#quux` or `urn:example:resource`. Only
/// ASCII; other characters must be percent-encoded.
pub fn uri(s: &str) -> bool {
    check_reference(s, Kind::Uri, true)
}

/// `uri-reference`: a URI or a relative reference (RFC 3986 `URI-reference`), such as
/// `/abc`, `#fragment` or the empty string.
pub fn uri_reference(s: &str) -> bool {
    check_reference(s, Kind::Uri, false)
}

/// `iri`: an absolute IRI (RFC 3987 `IRI`): a [`uri`] that may also hold non-ASCII
/// characters (`ucschar`, and `iprivate` in the query).
pub fn iri(s: &str) -> bool {
    check_reference(s, Kind::Iri, true)
}

/// `iri-reference`: an IRI or a relative IRI reference (RFC 3987 `IRI-reference`).
pub fn iri_reference(s: &str) -> bool {
    check_reference(s, Kind::Iri, false)
}

/// `uri-template`: an RFC 6570 URI Template (any level), such as
/// `http://example.com/dictionary/{term:1}/{term}`.
///
/// Literals may hold any character but controls, space and `"<>\^`{|}` (and `%` only in
/// a triplet); an expression is `{` an optional operator (`+#./;?&`; the reserved
/// `=,!@|` are refused) and a comma-separated list of variable names, each with an
/// optional `:N` prefix (1–9999) or `*` explode modifier.
pub fn uri_template(s: &str) -> bool {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let Some(end) = rest.find('}') else {
                return false;
            };
            if !is_template_expression(&rest[1..end]) {
                return false;
            }
            rest = &rest[end + 1..];
            continue;
        }
        if c == '%' {
            let b = rest.as_bytes();
            if !(b.len() >= 3 && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()) {
                return false;
            }
            rest = &rest[3..];
            continue;
        }
        let literal_ok = match c {
            '\0'..=' ' | '\u{7F}' | '"' | '<' | '>' | '\\' | '^' | '`' | '|' | '}' => false,
            c if c.is_ascii() => true,
            c => is_ucschar(c) || is_iprivate(c),
        };
        if !literal_ok {
            return false;
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}

/// Checks the inside of a `{...}` template expression.
fn is_template_expression(expr: &str) -> bool {
    let list = expr
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(expr);
    list.split(',').all(is_varspec)
}

/// `varspec = varname [ ":" max-length / "*" ]`.
fn is_varspec(spec: &str) -> bool {
    let (name, ok_modifier) = if let Some(name) = spec.strip_suffix('*') {
        (name, true)
    } else if let Some((name, len)) = spec.split_once(':') {
        let b = len.as_bytes();
        let ok = (1..=4).contains(&b.len()) && b[0] != b'0' && b.iter().all(u8::is_ascii_digit);
        (name, ok)
    } else {
        (spec, true)
    };
    ok_modifier && is_varname(name)
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn is_varname(name: &str) -> bool {
    let b = name.as_bytes();
    let mut i = 0;
    let mut previous_dot = true; // a name may not start with '.'
    while i < b.len() {
        match b[i] {
            b'.' if !previous_dot => {
                previous_dot = true;
                i += 1;
                continue;
            }
            b'%' if b.len() >= i + 3
                && b[i + 1].is_ascii_hexdigit()
                && b[i + 2].is_ascii_hexdigit() =>
            {
                i += 3;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => i += 1,
            _ => return false,
        }
        previous_dot = false;
    }
    !b.is_empty() && !previous_dot
}
