//! Code-point sets: the class escapes, `.`, and Unicode properties (ranges taken from
//! regex-syntax's Unicode tables; the names were already checked by the ECMA-262 parser).

use regex_syntax::hir::{Class, HirKind};
use schemac_runtime::regex::syntax::{
    ClassItem, Perl, Property, LINE_TERMINATORS, SPACE_RANGES, WORD_RANGES,
};

/// Highest code point.
pub(crate) const MAX_CP: u32 = 0x10FFFF;

/// A set of code points: sorted, non-overlapping, non-adjacent inclusive ranges.
pub(crate) type Ranges = Vec<(u32, u32)>;

/// Sorts and merges `r` into canonical form.
pub(crate) fn normalize(mut r: Ranges) -> Ranges {
    r.sort_unstable();
    let mut out: Ranges = Vec::with_capacity(r.len());
    for (a, b) in r {
        match out.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The complement of a canonical set within `0..=MAX_CP`.
pub(crate) fn negate(r: &[(u32, u32)]) -> Ranges {
    let mut out = Vec::with_capacity(r.len() + 1);
    let mut next = 0u32;
    for &(a, b) in r {
        if a > next {
            out.push((next, a - 1));
        }
        next = b + 1;
    }
    if next <= MAX_CP {
        out.push((next, MAX_CP));
    }
    out
}

/// The code points of one class item.
pub(crate) fn item_ranges(item: &ClassItem) -> Result<Ranges, String> {
    Ok(match item {
        ClassItem::Range(a, b) => vec![(*a, *b)],
        ClassItem::Dot => negate(LINE_TERMINATORS),
        ClassItem::Perl(p, negated) => {
            let base: &[(u32, u32)] = match p {
                Perl::Digit => &[(0x30, 0x39)],
                Perl::Space => SPACE_RANGES,
                Perl::Word => WORD_RANGES,
            };
            if *negated {
                negate(base)
            } else {
                base.to_vec()
            }
        }
        ClassItem::Property(p, negated) => {
            let base = property_ranges(*p)?;
            if *negated {
                negate(&base)
            } else {
                base
            }
        }
    })
}

/// Why `\p{Changes_When_NFKC_Casefolded}` is refused.
pub(crate) const CWKCF_UNSUPPORTED: &str = "Unicode property Changes_When_NFKC_Casefolded \
     (schemac takes code points from regex-syntax's Unicode tables, which have no table for \
     it and lack the NFKC decompositions it is derived from)";

/// The code points of a Unicode property, from regex-syntax's tables.
pub(crate) fn property_ranges(p: Property) -> Result<Ranges, String> {
    let query = match p {
        // Surrogates are not chars, so regex-syntax has no table for them.
        Property::GeneralCategory("Surrogate") => return Ok(vec![(0xD800, 0xDFFF)]),
        // regex-syntax has no table for Script=Unknown (Zzzz): it is every code point that
        // no other script claims (Script_Extensions=Unknown is the same set).
        Property::Script("Unknown") | Property::ScriptExtensions("Unknown") => {
            let mut known = Vec::new();
            for q in schemac_runtime::regex::syntax::known_properties() {
                if let Property::Script(v) = q {
                    if v != "Unknown" {
                        known.extend(property_ranges(q)?);
                    }
                }
            }
            return Ok(negate(&normalize(known)));
        }
        Property::GeneralCategory(v) => format!("\\p{{gc={v}}}"),
        Property::Script(v) => format!("\\p{{sc={v}}}"),
        Property::ScriptExtensions(v) => format!("\\p{{scx={v}}}"),
        // regex-syntax maps the name but ships no table: the property is derived from the
        // NFKC_Casefold mapping (NFKC decompositions, case folding and
        // Default_Ignorable_Code_Point), and the decompositions are not in its tables, so it
        // cannot be computed from them either.
        Property::Binary("Changes_When_NFKC_Casefolded") => {
            return Err(CWKCF_UNSUPPORTED.to_string());
        }
        Property::Binary(v) => format!("\\p{{{v}}}"),
    };
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(true)
        .utf8(false)
        .build()
        .parse(&query)
        .map_err(|_| format!("Unicode property {query} (regex-syntax has no table for it)"))?;
    let mut out: Ranges = match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        HirKind::Literal(lit) => std::str::from_utf8(&lit.0)
            .map_err(|_| format!("unexpected table for {query}"))?
            .chars()
            .map(|c| (c as u32, c as u32))
            .collect(),
        _ => return Err(format!("unexpected table for {query}")),
    };
    // `Other` (C) and `Any` include the surrogates, which regex-syntax leaves out.
    if matches!(
        p,
        Property::GeneralCategory("Other") | Property::Binary("Any")
    ) {
        out.push((0xD800, 0xDFFF));
    }
    Ok(normalize(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac_runtime::regex::syntax::known_properties;

    #[test]
    fn every_ecma_property_has_a_table() {
        let mut n = 0;
        for p in known_properties() {
            // The one ECMA-262 property without a table: regex-syntax 0.8 knows the name
            // (`CWKCF`) but ships no code points for it, and it cannot be derived from what
            // regex-syntax exposes (it needs the NFKC decompositions). Valid syntax, refused
            // at compile time as `Unsupported` with a message that says so.
            if p == Property::Binary("Changes_When_NFKC_Casefolded") {
                let err = property_ranges(p).expect_err("no table for CWKCF");
                assert!(err.contains("no table") && err.contains("NFKC"), "{err}");
                continue;
            }
            let r = property_ranges(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            assert!(!r.is_empty(), "{p:?} is empty");
            n += 1;
        }
        assert!(n > 400, "only {n} properties");
    }

    /// Script=Unknown (Zzzz) is, by UAX #24, exactly the unassigned, private-use and
    /// surrogate code points: the complement of every script computed from regex-syntax's
    /// Script tables must equal gc=Cn ∪ Co ∪ Cs from its General_Category tables. (A script
    /// missing from ECMA-262's list would show up here as assigned code points in Unknown.)
    #[test]
    fn script_unknown_is_unassigned_private_use_and_surrogates() {
        let mut expect = Vec::new();
        for gc in ["Unassigned", "Private_Use", "Surrogate"] {
            expect.extend(property_ranges(Property::GeneralCategory(gc)).unwrap());
        }
        let expect = normalize(expect);
        assert_eq!(
            property_ranges(Property::Script("Unknown")).unwrap(),
            expect
        );
        assert_eq!(
            property_ranges(Property::ScriptExtensions("Unknown")).unwrap(),
            expect
        );
    }

    #[test]
    fn script_unknown_is_what_no_script_claims() {
        let unknown = property_ranges(Property::Script("Unknown")).unwrap();
        let contains = |c: u32| unknown.iter().any(|&(a, b)| a <= c && c <= b);
        assert!(contains(0x0378)); // unassigned in Greek and Coptic
        assert!(contains(0xE000)); // private use
        assert!(!contains('a' as u32));
        assert!(!contains(0x0300)); // Inherited
    }

    #[test]
    fn negation_round_trips() {
        let r = normalize(vec![(5, 9), (0, 1), (2, 3), (20, 30)]);
        assert_eq!(r, vec![(0, 3), (5, 9), (20, 30)]);
        assert_eq!(negate(&negate(&r)), r);
        assert_eq!(negate(&[]), vec![(0, MAX_CP)]);
    }
}
