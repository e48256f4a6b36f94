//! Checks for the `format` keyword, used when format assertion is on.
//!
//! Each function takes a string instance and gives whether it is a valid value of its
//! format; the interpreter finds them by name through [`lookup`], and generated code calls
//! them directly (e.g. `::schemac_runtime::format::date_time(s)`). Non-string instances
//! are always valid for these formats; that rule is the caller's, not checked here.
//!
//! The checks follow the RFCs JSON Schema 2020-12 cites, as the JSON Schema Test Suite
//! tests them: RFC 3339 for dates and times, RFC 5321/5322/6531 for e-mail, RFC 1123 and
//! IDNA2008 (RFC 5890–5893) for host names, RFC 2673/4291 for IP addresses, RFC 3986/3987
//! for URIs and IRIs, RFC 6570 for URI templates, RFC 6901 and relative JSON pointers,
//! RFC 4122 for UUIDs, and ECMA-262 for regexes. Every parser is hand-written, allocates
//! little and never panics; only ASCII digits are digits.

mod datetime;
mod email;
mod idn;
mod net;
mod pointer;
mod tables;
mod uri;

pub use datetime::{date, date_time, duration, time};
pub use email::{email, idn_email};
pub use net::{hostname, ipv4, ipv6, uuid};
pub use pointer::{json_pointer, relative_json_pointer};
pub use uri::{iri, iri_reference, uri, uri_reference, uri_template};

/// `idn-hostname`: an internationalized host name under IDNA2008 (RFC 5890–5893), such as
/// `실례.테스트` or `xn--ihqwcrb4cv8a8dqg056pqjye`.
///
/// Labels are separated by any of the four full stops of RFC 3490 (`.`, `。`, `．`, `｡`),
/// and each must be a valid U-label, A-label or LDH label: in the form IDNA2008
/// registers (nothing UTS #46 would map, except ASCII case), no DISALLOWED code point,
/// the CONTEXTJ and CONTEXTO rules met, hyphens not first, last or in positions 3–4
/// of a U-label, no leading combining mark, the Bidi rule of RFC 5893 met across the
/// name, each label's A-label form at most 63 octets and the name's at most 253.
pub fn idn_hostname(s: &str) -> bool {
    idn::idn_hostname(s)
}

/// `regex`: whether `s` is a syntactically valid ECMA-262 regular expression, as
/// [`crate::regex::is_valid_syntax`] decides (u-mode plus the Annex B forms schemac
/// accepts; constructs the matcher refuses, such as backreferences, are still valid).
pub fn regex(s: &str) -> bool {
    crate::regex::is_valid_syntax(s)
}

/// The checker of the format named `name`, or `None` for a format schemac does not know
/// (an unknown format is never an assertion: callers treat it as valid).
pub fn lookup(name: &str) -> Option<fn(&str) -> bool> {
    let check: fn(&str) -> bool = match name {
        "date-time" => date_time,
        "date" => date,
        "time" => time,
        "duration" => duration,
        "email" => email,
        "idn-email" => idn_email,
        "hostname" => hostname,
        "idn-hostname" => idn_hostname,
        "ipv4" => ipv4,
        "ipv6" => ipv6,
        "uri" => uri,
        "uri-reference" => uri_reference,
        "iri" => iri,
        "iri-reference" => iri_reference,
        "uuid" => uuid,
        "json-pointer" => json_pointer,
        "relative-json-pointer" => relative_json_pointer,
        "regex" => regex,
        "uri-template" => uri_template,
        _ => return None,
    };
    Some(check)
}

#[cfg(test)]
mod tests;
