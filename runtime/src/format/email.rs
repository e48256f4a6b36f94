//! E-mail address formats: `email` (RFC 5321 `Mailbox`) and `idn-email` (RFC 6531, which
//! extends it to UTF-8).
//!
//! Takes the instance string, gives whether it is one mailbox: a dot-string or quoted
//! local part of at most 64 octets, `@`, and a domain (a host name, or an IPv4 or
//! `IPv6:` address literal in brackets). No display names, comments or lists.

use crate::format::idn::{self, Form};
use crate::format::net::{hostname, is_ipv4, is_ipv6};

/// Whether the ASCII or the internationalized grammar applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ascii,
    International,
}

/// RFC 5322 `atext`, widened by RFC 6531 to every non-ASCII character.
fn is_atext(c: char, kind: Kind) -> bool {
    c.is_ascii_alphanumeric()
        || "!#$%&'*+-/=?^_`{|}~".contains(c)
        || (kind == Kind::International && !c.is_ascii())
}

/// Splits `s` after its local part (returning the local part and the rest after `@`),
/// or `None` when the local part is malformed or no `@` follows it.
fn split_local_part(s: &str, kind: Kind) -> Option<(&str, &str)> {
    let mut chars = s.char_indices();
    if s.starts_with('"') {
        // Quoted-string = DQUOTE *( qtextSMTP / quoted-pairSMTP ) DQUOTE
        chars.next();
        loop {
            let (i, c) = chars.next()?;
            match c {
                '"' => {
                    let rest = s[i + 1..].strip_prefix('@')?;
                    return Some((&s[..i + 1], rest));
                }
                '\\' => {
                    let (_, escaped) = chars.next()?;
                    if !matches!(escaped, ' '..='~') {
                        return None;
                    }
                }
                ' '..='~' => {}
                c if kind == Kind::International && !c.is_ascii() => {}
                _ => return None,
            }
        }
    }
    // Dot-string = Atom *("." Atom)
    let at = s.find('@')?;
    let local = &s[..at];
    let atoms_ok = local
        .split('.')
        .all(|atom| !atom.is_empty() && atom.chars().all(|c| is_atext(c, kind)));
    atoms_ok.then(|| (local, &s[at + 1..]))
}

/// Checks the domain part: an address literal or a host name.
fn domain_ok(domain: &str, kind: Kind) -> bool {
    if let Some(literal) = domain.strip_prefix('[') {
        let Some(literal) = literal.strip_suffix(']') else {
            return false;
        };
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => is_ipv6(v6.as_bytes()),
            None => is_ipv4(literal.as_bytes()),
        };
    }
    match kind {
        Kind::Ascii => hostname(domain),
        Kind::International => idn::check(domain, Form::Lookup),
    }
}

fn mailbox(s: &str, kind: Kind) -> bool {
    // RFC 5321 section 4.5.3.1: a path holds at most 256 octets, "<" and ">" included.
    if s.len() > 254 {
        return false;
    }
    match split_local_part(s, kind) {
        Some((local, domain)) => local.len() <= 64 && domain_ok(domain, kind),
        None => false,
    }
}

/// `email`: an RFC 5321 mailbox such as `joe.bloggs@example.com`,
/// `"joe bloggs"@example.com` or `joe@[IPv6:::1]`. ASCII only; the domain must be a valid
/// [`hostname`](crate::format::hostname).
pub fn email(s: &str) -> bool {
    mailbox(s, Kind::Ascii)
}

/// `idn-email`: an RFC 6531 mailbox: an [`email`] whose local part may also hold any
/// non-ASCII character and whose domain may be an internationalized host name (checked
/// as a resolver would look it up: after UTS #46 mapping, it must be a valid IDNA2008 name).
pub fn idn_email(s: &str) -> bool {
    mailbox(s, Kind::International)
}
