//! Internationalized host names (`idn-hostname`, and the A-labels of `hostname`) under
//! IDNA2008 (RFC 5890–5893).
//!
//! Takes the instance string, gives whether it is a valid internationalized host name.
//! The `idna` crate does the Punycode and the UTS #46 work (mapping, validity of code
//! points, the leading combining mark, hyphens, the CONTEXTJ rules for ZWJ/ZWNJ and the
//! RFC 5893 Bidi rule); this module adds what IDNA2008 asks beyond UTS #46:
//!
//! - labels must already be in their final form: nothing the UTS #46 mapping would change
//!   (upper-case ASCII is accepted, as host names are case-insensitive);
//! - A-labels must decode to a non-ASCII U-label that encodes back to the same A-label;
//! - the code points RFC 5892 derives as DISALLOWED though UTS #46 accepts them
//!   (its exception list, and the symbols, punctuation and other non-letters of
//!   [`tables::IDNA2008_DISALLOWED`]);
//! - the CONTEXTO rules of RFC 5892 Appendix A (middle dot, Greek keraia, Hebrew
//!   geresh and gershayim, katakana middle dot, Arabic-Indic digits);
//! - a label's A-label form at most 63 octets, the name's at most 253.

use alloc::string::String;
use alloc::vec::Vec;

use idna::punycode;
use idna::uts46::{AsciiDenyList, Hyphens, Uts46};

use crate::format::net::{hostname, is_ldh_label};
use crate::format::tables;

/// How strictly a name's form is checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// The name must be in the form IDNA2008 registers (no mapping needed).
    Registered,
    /// The name may need the UTS #46 mapping (case folding, NFC) before it is valid,
    /// as an application looking it up would apply.
    Lookup,
}

/// `idn-hostname`: see [`crate::format::idn_hostname`].
pub(crate) fn idn_hostname(s: &str) -> bool {
    if s.is_ascii() {
        // Without allocating: LDH labels, and any A-label through `check`.
        return hostname(s);
    }
    check(s, Form::Registered)
}

/// Whether `s` is a valid internationalized host name in the given `form`.
pub(crate) fn check(s: &str, form: Form) -> bool {
    if s.is_ascii() && form == Form::Lookup {
        // Nothing to map but ASCII case, which host names ignore.
        return hostname(s);
    }
    if form == Form::Lookup {
        // Map as a resolver would (the separators first, so that empty labels stay
        // visible), then demand the result be a registrable name.
        let separated: String = s
            .chars()
            .map(|c| if is_separator(c) { '.' } else { c })
            .collect();
        let (mapped, result) = Uts46::new().to_unicode(
            separated.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::CheckFirstLast,
        );
        return result.is_ok() && check(&mapped, Form::Registered);
    }
    // The A-label form of a name is at least one octet per character: bound the work.
    if s.is_empty() || s.chars().count() > 253 {
        return false;
    }
    // RFC 3490 section 3.1: the four full stops all separate labels. Host names are
    // case-insensitive in ASCII.
    let normalized: String = s
        .chars()
        .map(|c| match c {
            c if is_separator(c) => '.',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    // Decode A-labels and check ASCII labels; build the name from U-labels.
    let mut unicode = String::with_capacity(normalized.len());
    for (i, label) in normalized.split('.').enumerate() {
        if i > 0 {
            unicode.push('.');
        }
        if !label.is_ascii() {
            unicode.push_str(label);
            continue;
        }
        match label.strip_prefix("xn--") {
            Some(encoded) => match decode_a_label(encoded) {
                Some(decoded) => unicode.push_str(&decoded),
                None => return false,
            },
            None if is_ldh_label(label.as_bytes()) => unicode.push_str(label),
            None => return false,
        }
    }
    // UTS #46 processing: validity, mapping, hyphens, leading marks, CONTEXTJ, Bidi.
    // (Hyphens in positions 3 and 4 are checked below, in U-labels only: RFC 5891
    // section 4.2.3.1 does not reach ASCII labels such as `ab--c`.)
    let (mapped, result) = Uts46::new().to_unicode(
        unicode.as_bytes(),
        AsciiDenyList::STD3,
        Hyphens::CheckFirstLast,
    );
    if result.is_err() || (form == Form::Registered && mapped != unicode.as_str()) {
        return false;
    }
    let labels: Vec<&str> = mapped.split('.').collect();
    if bidi_domain(&labels) && !labels.iter().all(|l| bidi_ascii_label_ok(l)) {
        return false;
    }
    let mut total = 0usize;
    for label in &labels {
        let Some(len) = a_label_len(label) else {
            return false;
        };
        if len == 0 || len > 63 || !idna2008_label_ok(label) {
            return false;
        }
        if !label.is_ascii() && label.chars().skip(2).take(2).eq("--".chars()) {
            return false;
        }
        total += len + 1;
    }
    // Each label counted with one separator: the name is at most 253 octets.
    total <= 254
}

/// The label separators of RFC 3490 section 3.1: full stop, ideographic full stop,
/// fullwidth full stop and halfwidth ideographic full stop.
fn is_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// Decodes the Punycode part of an A-label; `None` unless it decodes to a non-ASCII
/// label that encodes back to exactly `encoded` (RFC 5891 section 5.4).
fn decode_a_label(encoded: &str) -> Option<String> {
    if encoded.is_empty() || encoded.len() > 59 {
        return None;
    }
    let decoded = punycode::decode_to_string(encoded)?;
    if decoded.is_ascii() || punycode::encode_str(&decoded)? != encoded {
        return None;
    }
    Some(decoded)
}

/// The length in octets of `label`'s A-label form.
fn a_label_len(label: &str) -> Option<usize> {
    if label.is_ascii() {
        Some(label.len())
    } else {
        punycode::encode_str(label).map(|encoded| encoded.len() + 4)
    }
}

/// Whether some label holds a right-to-left character (RFC 5893 section 1.4: a "Bidi
/// domain name").
fn bidi_domain(labels: &[&str]) -> bool {
    labels
        .iter()
        .any(|l| l.chars().any(|c| in_table(tables::RTL, c)))
}

/// RFC 5893 rule 1 for ASCII labels of a Bidi domain name (`idna` checks the others):
/// the first character must be a letter (bidi class L), not a digit.
fn bidi_ascii_label_ok(label: &str) -> bool {
    !label.is_ascii()
        || label
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
}

/// The IDNA2008 rules `idna` leaves out: DISALLOWED code points UTS #46 accepts, and the
/// CONTEXTO rules (RFC 5892 Appendix A.3–A.9).
pub(crate) fn idna2008_label_ok(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    let has_arabic_indic = chars.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c));
    let has_extended = chars.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c));
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let after = chars.get(i + 1).copied();
        let ok = match c {
            // A.3 MIDDLE DOT: between two 'l'.
            '\u{00B7}' => before == Some('l') && after == Some('l'),
            // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by a Greek character.
            '\u{0375}' => after.is_some_and(|c| in_table(tables::GREEK, c)),
            // A.5, A.6 HEBREW GERESH and GERSHAYIM: preceded by a Hebrew character.
            '\u{05F3}' | '\u{05F4}' => before.is_some_and(|c| in_table(tables::HEBREW, c)),
            // A.7 KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han in the label.
            '\u{30FB}' => chars
                .iter()
                .any(|&c| in_table(tables::HIRAGANA_KATAKANA_HAN, c)),
            // A.8, A.9: the two kinds of Arabic-Indic digits do not mix.
            '\u{0660}'..='\u{0669}' => !has_extended,
            '\u{06F0}'..='\u{06F9}' => !has_arabic_indic,
            c => !in_table(tables::IDNA2008_DISALLOWED, c),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Whether `c` lies in one of the sorted, disjoint inclusive `ranges`.
fn in_table(ranges: &[(u32, u32)], c: char) -> bool {
    let c = u32::from(c);
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}
