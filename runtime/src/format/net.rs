//! Network formats: `ipv4`, `ipv6` (RFC 2673 / RFC 4291 text forms), `hostname`
//! (RFC 1123, with A-labels checked as IDNA2008 requires) and `uuid` (RFC 4122 text form).
//!
//! Takes the instance string, gives whether it is exactly one such value: no surrounding
//! whitespace, no prefix lengths, zone ids, ports or brackets; only ASCII digits.

use crate::format::idn;

/// Parses a `dec-octet` (RFC 3986: 0–255, no leading zero) from the start of `b`,
/// returning the number of bytes it took.
fn dec_octet(b: &[u8]) -> Option<usize> {
    let len = b.iter().take(3).take_while(|c| c.is_ascii_digit()).count();
    if len == 0 || (len > 1 && b[0] == b'0') {
        return None;
    }
    let value = b[..len]
        .iter()
        .fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
    (value <= 255).then_some(len)
}

/// Whether `b` is exactly a dotted-quad IPv4 address.
pub(crate) fn is_ipv4(b: &[u8]) -> bool {
    let mut pos = 0;
    for part in 0..4 {
        if part > 0 {
            if b.get(pos) != Some(&b'.') {
                return false;
            }
            pos += 1;
        }
        match b.get(pos..).and_then(dec_octet) {
            Some(len) => pos += len,
            None => return false,
        }
    }
    pos == b.len()
}

/// Whether `b` is exactly an IPv6 address in RFC 4291 text form (no zone id).
pub(crate) fn is_ipv6(b: &[u8]) -> bool {
    // Split at the one allowed "::" (if any) and count the 16-bit pieces on each side.
    let (head, tail) = match b.windows(2).position(|w| w == b"::") {
        Some(i) => (&b[..i], Some(&b[i + 2..])),
        None => (b, None),
    };
    let Some(head_pieces) = ipv6_pieces(head, tail.is_none()) else {
        return false;
    };
    match tail {
        None => head_pieces == 8,
        Some(tail) => match ipv6_pieces(tail, true) {
            // "::" stands for at least one zero piece.
            Some(tail_pieces) => head_pieces + tail_pieces <= 7,
            None => false,
        },
    }
}

/// Counts the pieces of a `::`-free run of `h16` separated by `:`; an IPv4 address (two
/// pieces) may end it when `ipv4_allowed`. An empty run has zero pieces.
fn ipv6_pieces(b: &[u8], ipv4_allowed: bool) -> Option<usize> {
    if b.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut groups = b.split(|&c| c == b':').peekable();
    while let Some(group) = groups.next() {
        let last = groups.peek().is_none();
        if last && ipv4_allowed && group.contains(&b'.') {
            if !is_ipv4(group) {
                return None;
            }
            count += 2;
        } else {
            if group.is_empty() || group.len() > 4 || !group.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            count += 1;
        }
        if count > 8 {
            return None;
        }
    }
    Some(count)
}

/// `ipv4`: a dotted-quad address such as `192.168.0.1` (RFC 2673 section 3.2): four
/// decimal octets 0–255 without leading zeros.
pub fn ipv4(s: &str) -> bool {
    is_ipv4(s.as_bytes())
}

/// `ipv6`: an IPv6 address in RFC 4291 section 2.2 text form, such as `::1`,
/// `1:2:3:4:5:6:7:8` or `::ffff:192.168.0.1`; no zone id, prefix length or brackets.
pub fn ipv6(s: &str) -> bool {
    is_ipv6(s.as_bytes())
}

/// Whether `label` is an LDH label of 1–63 letters, digits and inner hyphens.
pub(crate) fn is_ldh_label(label: &[u8]) -> bool {
    !label.is_empty()
        && label.len() <= 63
        && label
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-')
        && label.first() != Some(&b'-')
        && label.last() != Some(&b'-')
}

/// `hostname`: an ASCII host name as RFC 1123 section 2.1 defines it: dot-separated labels
/// of 1–63 letters, digits and inner hyphens, at most 253 octets, no trailing dot.
///
/// A label starting `xn--` (any case) is an A-label and must decode to a valid IDNA2008
/// U-label (RFC 5891), as [`idn_hostname`](crate::format::idn_hostname) checks.
pub fn hostname(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 253 {
        return false;
    }
    let mut has_a_label = false;
    for label in b.split(|&c| c == b'.') {
        if !is_ldh_label(label) {
            return false;
        }
        has_a_label |= label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--");
    }
    !has_a_label || idn::check(s, idn::Form::Registered)
}

/// `uuid`: RFC 4122 text form, `8-4-4-4-12` hexadecimal digits in either case, such as
/// `2eb8aa08-aa98-11ea-b4aa-73b441d16380`. Any version and variant is accepted.
pub fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}
