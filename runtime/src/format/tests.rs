//! Unit tests of the format checks: cases beyond the suite, and a small fuzz run showing
//! that no input makes a checker panic and that the formats keep their inclusions.

use super::*;
use alloc::string::String;
use alloc::vec::Vec;

/// Every format name `lookup` knows.
const FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "uri-template",
];

#[test]
fn lookup_knows_every_format_and_only_those() {
    for name in FORMATS {
        assert!(lookup(name).is_some(), "{name}");
    }
    assert!(lookup("unknown").is_none());
    assert!(lookup("Date-Time").is_none());
    assert!(lookup("date-time").is_some_and(|f| f("1963-06-19T08:30:06Z")));
}

#[test]
fn dates_and_times() {
    assert!(date_time("2016-12-31T23:59:60Z"));
    assert!(date_time("2017-01-01T00:59:60+01:00"));
    assert!(!date_time("2016-12-31T23:59:60+01:00"));
    assert!(!date_time("2016-12-31T23:59:59.Z"));
    assert!(!date_time("2016-12-31 23:59:59Z"));
    assert!(date("2000-02-29"));
    assert!(!date("1900-02-29"));
    assert!(time("00:00:00.0-00:00"));
    assert!(!time("00:00:00+1:00"));
    assert!(duration("P1Y2M3DT4H5M6S"));
    assert!(duration("PT0S"));
    assert!(!duration("p1d"));
    assert!(!duration("P1W2D"));
    assert!(!duration("PT1H1H"));
    assert!(!duration("P1DT"));
}

#[test]
fn addresses() {
    assert!(ipv4("1.2.3.4"));
    assert!(!ipv4("01.2.3.4"));
    assert!(!ipv4("1.2.3.4.5"));
    assert!(ipv6("::ffff:1.2.3.4"));
    assert!(ipv6("1:2:3:4:5:6:1.2.3.4"));
    assert!(!ipv6("1:2:3:4:5:6:7:1.2.3.4"));
    assert!(ipv6("1::"));
    assert!(!ipv6("1:2:3:4:5:6:7:8::"));
    assert!(ipv6("1:2:3:4:5:6:7::"));
    assert!(!ipv6(":::"));
    assert!(!ipv6("1.2.3.4::"));
    assert!(uuid("2EB8AA08-AA98-11EA-B4AA-73B441D16380"));
    assert!(!uuid("{2EB8AA08-AA98-11EA-B4AA-73B441D16380}"));
}

#[test]
fn host_names() {
    assert!(hostname("EXAMPLE.com"));
    assert!(hostname("XN--9N2BP8Q.xn--9t4b11yi5a"));
    assert!(!hostname("xn--"));
    assert!(!hostname("a.-b"));
    assert!(idn_hostname("EXAMPLE.com"));
    assert!(idn_hostname("bücher.example"));
    // ASCII case does not matter; other mappings (upper case, fullwidth, NFC) are refused.
    assert!(idn_hostname("Bücher.example"));
    assert!(!idn_hostname("bÜcher.example"));
    assert!(!idn_hostname("ｅxample.com"));
    assert!(!idn_hostname("cafe\u{301}.com"));
    // UTS #46 accepts these; IDNA2008 derives them DISALLOWED (symbols, punctuation).
    assert!(!idn_hostname("\u{2603}.com"));
    assert!(!idn_hostname("a\u{00A1}b.com"));
    assert!(!idn_hostname("xn--n3h.com"));
    // Old Hangul jamo are DISALLOWED.
    assert!(!idn_hostname("\u{1100}\u{1161}"));
    // The Bidi rule reaches ASCII labels of a Bidi domain name.
    assert!(idn_hostname("a0.\u{05D0}"));
    assert!(!idn_hostname("0a.\u{05D0}"));
    assert!(!idn_hostname(&"a".repeat(300)));
    // Hyphens in positions 3 and 4: refused in U-labels only (RFC 5891 section 4.2.3.1).
    assert!(hostname("ab--c.example") && idn_hostname("ab--c.example"));
    assert!(!idn_hostname("ab--\u{e9}.example"));
}

#[test]
fn email_addresses() {
    assert!(email("a@b"));
    assert!(email("\"a\\\"b\"@example.com"));
    assert!(!email("\"a\"b\"@example.com"));
    assert!(!email("a@b@c"));
    assert!(!email("a@[IPv6:1.2.3.4]"));
    assert!(!email("é@example.com"));
    assert!(!email(&alloc::format!("{}@example.com", "a".repeat(65))));
    assert!(idn_email("é@example.com"));
    assert!(idn_email("a@Bücher.example"));
    assert!(!idn_email("a@\u{2603}.com"));
}

#[test]
fn uris_and_templates() {
    assert!(uri("http://a/b?c#d"));
    assert!(uri("http://[v7.a:b]/"));
    assert!(!uri("http://[v7.]/"));
    assert!(!uri("http://[::1"));
    assert!(uri("http://[::1]:8080/"));
    assert!(!uri("http://[::1]x/"));
    assert!(!uri("http://a/#b#c"));
    assert!(uri_reference("a/b:c"));
    assert!(!iri("http://a/\u{E000}"));
    assert!(iri("http://a/?\u{E000}"));
    assert!(!iri("http://a/\u{FFFE}"));
    assert!(uri_template("{+a,b.c:10,d*}/x"));
    assert!(!uri_template("{=a}"));
    assert!(!uri_template("{a:1*}"));
    assert!(!uri_template("{.a}}"));
    assert!(!uri_template("%"));
}

#[test]
fn pointers() {
    assert!(json_pointer("/a~0~1"));
    assert!(!json_pointer("a"));
    assert!(relative_json_pointer("0+1/a"));
    assert!(relative_json_pointer("3-2#"));
    assert!(!relative_json_pointer("0+/a"));
    assert!(!relative_json_pointer("0+01"));
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "1963-06-19T08:30:06.283185Z",
    "23:59:60+00:00",
    "P1Y2M3DT4H5M6S",
    "P2W",
    "joe.bloggs@example.com",
    "\"a b\"@[IPv6:::1]",
    "실례@실례.테스트",
    "xn--ihqwcrb4cv8a8dqg056pqjye",
    "www.example.com",
    "l\u{b7}l.\u{5d0}\u{5f3}\u{5d1}",
    "\u{915}\u{94d}\u{200d}\u{937}",
    "192.168.0.1",
    "1:2::192.168.0.1",
    "http://u@[v1.x]:80/p?q#f",
    "//a/b",
    "#f",
    "http://\u{192}\u{f8}\u{f8}.\u{df}\u{e5}r/?\u{2202}",
    "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
    "/a~0b/~1",
    "0#",
    "{+a,b:3}/{#c*}",
    "%41",
];

const PIECES: &[&str] = &[
    "",
    "a",
    "Z",
    "0",
    "9",
    "-",
    "--",
    ".",
    ":",
    "::",
    "/",
    "//",
    "?",
    "#",
    "@",
    "[",
    "]",
    "%",
    "%4",
    "%zz",
    "~",
    "~2",
    "{",
    "}",
    ",",
    "*",
    "+",
    "T",
    "Z",
    "P",
    "W",
    "xn--",
    "\"",
    "\\",
    " ",
    "\n",
    "\0",
    "\u{7f}",
    "\u{b7}",
    "\u{375}",
    "\u{5f3}",
    "\u{30fb}",
    "\u{660}",
    "\u{6f0}",
    "\u{200c}",
    "\u{200d}",
    "\u{300}",
    "\u{3002}",
    "\u{ff0e}",
    "\u{5d0}",
    "\u{627}",
    "\u{e000}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10ffff}",
    "\u{1f600}",
    "\u{df}",
    "\u{3c2}",
    "\u{1100}",
    "\u{2603}",
    "99999999999999999999",
    "60",
    "24",
];

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(4) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => {
                let other = rng.below(chars.len());
                chars.swap(at, other);
            }
            _ => {
                let piece = PIECES[rng.below(PIECES.len())];
                for (k, c) in piece.chars().enumerate() {
                    chars.insert(at + k, c);
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn fuzz_no_panic_and_inclusions_hold() {
    let mut rng = Rng(0x5eed_cafe_f00d_d00d);
    let mut inputs: Vec<String> = SEEDS.iter().map(|s| String::from(*s)).collect();
    for i in 0..6000 {
        let base = if i % 3 == 0 {
            let mut s = String::new();
            for _ in 0..rng.below(12) {
                s.push_str(PIECES[rng.below(PIECES.len())]);
            }
            s
        } else {
            SEEDS[rng.below(SEEDS.len())].into()
        };
        inputs.push(mutate(&mut rng, &base));
    }
    inputs.push("a".repeat(100_000));
    inputs.push("\u{5d0}".repeat(10_000));
    inputs.push("{".repeat(10_000));
    let mut accepted = 0usize;
    for s in &inputs {
        for name in FORMATS {
            let check = lookup(name).expect("known format");
            let first = check(s);
            assert_eq!(first, check(s), "{name} is not deterministic on {s:?}");
            accepted += usize::from(first);
        }
        // Inclusions between the formats.
        if uri(s) {
            assert!(uri_reference(s) && iri(s), "uri {s:?}");
        }
        if uri_reference(s) {
            assert!(iri_reference(s), "uri-reference {s:?}");
        }
        if iri(s) {
            assert!(iri_reference(s), "iri {s:?}");
        }
        if hostname(s) {
            assert!(idn_hostname(s), "hostname {s:?}");
        }
        if s.is_ascii() {
            assert_eq!(
                idn_hostname(s),
                idn::check(s, idn::Form::Registered),
                "idn-hostname fast path {s:?}"
            );
        }
        if email(s) {
            assert!(idn_email(s), "email {s:?}");
        }
        if date_time(s) {
            assert!(date(&s[..10]) && time(&s[11..]), "date-time {s:?}");
        }
        if json_pointer(s) {
            assert!(
                relative_json_pointer(&alloc::format!("0{s}")),
                "json-pointer {s:?}"
            );
        }
        if ipv4(s) {
            assert!(uri(&alloc::format!("http://{s}/")), "ipv4 {s:?}");
        }
        if ipv6(s) {
            assert!(uri(&alloc::format!("http://[{s}]/")), "ipv6 {s:?}");
        }
    }
    // The mutations must keep some inputs valid, or the inclusions test nothing.
    assert!(accepted > 1000, "only {accepted} acceptances");
}

#[test]
fn idna2008_rules_beyond_uts46() {
    use idn::idna2008_label_ok as ok;
    // A.8 / A.9: the two sets of Arabic-Indic digits do not mix in one label.
    assert!(ok("\u{0628}\u{0660}\u{0661}"));
    assert!(!ok("\u{0628}\u{0660}\u{06F1}"));
    assert!(!ok("\u{06F0}\u{0628}\u{0661}"));
    // A.3 to A.7.
    assert!(ok("l\u{B7}l") && !ok("l\u{B7}") && !ok("L\u{B7}l"));
    assert!(ok("\u{3B1}\u{375}\u{3B2}") && !ok("\u{375}a"));
    assert!(ok("\u{5D0}\u{5F4}") && !ok("a\u{5F4}"));
    assert!(ok("\u{30FB}\u{4E08}") && !ok("a\u{30FB}"));
    // RFC 5892 section 2.6 exceptions, and derived DISALLOWED code points.
    assert!(ok("\u{DF}\u{3C2}\u{6FD}\u{6FE}\u{F0B}\u{3007}"));
    for c in [
        '\u{640}', '\u{7FA}', '\u{302E}', '\u{302F}', '\u{3031}', '\u{303B}', '\u{2603}',
    ] {
        assert!(!ok(&alloc::format!("a{c}")), "{c:?}");
    }
}
