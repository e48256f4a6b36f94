//! Syntax acceptance of schemac's regex parser against an ECMA-262 engine in u-mode:
//! `regress` with flag `u`, over (a) generated patterns whose classes mix `[`, `]`, `&&`,
//! `--`, escapes, ranges and `\p{…}`, and (b) every `pattern` and `patternProperties` key
//! of the shared corpora.
//!
//! schemac reads patterns as u-mode plus the Annex B forms the README lists; [`u_mode_twin`]
//! spells each of those forms the u-mode way (`[\w-.]` → `[\w\-.]`, a lone `]` → `\]`, `\@`
//! → `@`). A pattern must be accepted by schemac exactly when regress accepts it, or,
//! where it holds a listed Annex B form, when regress accepts its twin; where both accept,
//! schemac (Pike VM, DFA, chosen engine) and regress must agree on whether each probe
//! string matches. The differences allowed are those two kinds, counted by kind (the
//! Annex B forms, and legacy octal escapes, which both refuse: u-mode as a syntax error,
//! schemac as `UnsupportedRegex`); any other disagreement fails the test.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use schemac::regex::{compile, RegexError, RegexOptions};
use schemac_tests::paths::{json_files, read_json, shared_dir};
use schemac_tests::rng::Rng;
use serde_json::Value;

/// The Annex B forms schemac accepts beside u-mode (README, "Regular expressions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum AnnexB {
    /// A `{` that does not start a quantifier, or a lone `}`.
    LoneBrace,
    /// A lone `]`.
    LoneBracket,
    /// `\d \s \w` or a negation as a range end in a class: the `-` is a literal.
    ClassEscapeRangeEnd,
    /// `\` before a character that is not ASCII alphanumeric and that u-mode does not let
    /// be escaped (only `^ $ \ . * + ? ( ) [ ] { } | /`, and `-` in a class).
    IdentityEscape,
}

/// What a class atom is, for the range rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AtomKind {
    /// One character, literal or escaped.
    Char,
    /// `\d \D \s \S \w \W`.
    ClassEscape,
    /// `\p{…}` / `\P{…}`.
    Property,
}

/// `pattern` with each Annex B form schemac accepts rewritten to its u-mode spelling, and
/// the forms it held. A lexical pass only: it finds escapes, classes and braces, and leaves
/// every question of validity to the engines.
fn u_mode_twin(pattern: &str) -> (String, BTreeSet<AnnexB>) {
    let chars: Vec<char> = pattern.chars().collect();
    let mut twin = Twin {
        chars: &chars,
        at: 0,
        out: String::new(),
        forms: BTreeSet::new(),
    };
    while let Some(&c) = chars.get(twin.at) {
        match c {
            '\\' => {
                let (text, _) = twin.escape(false);
                twin.out.push_str(&text);
            }
            '[' => twin.class(),
            '{' => match braced_quantifier_len(&chars[twin.at..]) {
                Some(len) => twin.copy(len),
                None => twin.replace("\\{", AnnexB::LoneBrace),
            },
            '}' => twin.replace("\\}", AnnexB::LoneBrace),
            ']' => twin.replace("\\]", AnnexB::LoneBracket),
            _ => twin.copy(1),
        }
    }
    (twin.out, twin.forms)
}

/// The state of [`u_mode_twin`]'s pass.
struct Twin<'a> {
    chars: &'a [char],
    at: usize,
    out: String,
    forms: BTreeSet<AnnexB>,
}

impl Twin<'_> {
    fn copy(&mut self, len: usize) {
        let end = (self.at + len).min(self.chars.len());
        self.out.extend(&self.chars[self.at..end]);
        self.at = end;
    }

    fn replace(&mut self, with: &str, form: AnnexB) {
        self.out.push_str(with);
        self.forms.insert(form);
        self.at += 1;
    }

    fn peek(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }

    /// The escape at `self.at`, consumed: its u-mode text and its kind.
    fn escape(&mut self, in_class: bool) -> (String, AtomKind) {
        let start = self.at;
        let Some(c) = self.peek(1) else {
            self.at += 1;
            return ("\\".into(), AtomKind::Char);
        };
        let taken = |twin: &mut Self, len: usize, kind: AtomKind| {
            twin.at = (start + len).min(twin.chars.len());
            (twin.chars[start..twin.at].iter().collect(), kind)
        };
        let braced = |twin: &Self| {
            twin.chars[start..]
                .iter()
                .position(|&c| c == '}')
                .map_or(twin.chars.len() - start, |end| end + 1)
        };
        match c {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => taken(self, 2, AtomKind::ClassEscape),
            'p' | 'P' if self.peek(2) == Some('{') => {
                let len = braced(self);
                taken(self, len, AtomKind::Property)
            }
            'u' if self.peek(2) == Some('{') => {
                let len = braced(self);
                taken(self, len, AtomKind::Char)
            }
            'u' => taken(self, 6, AtomKind::Char),
            'x' => taken(self, 4, AtomKind::Char),
            'c' => taken(self, 3, AtomKind::Char),
            'k' if self.peek(2) == Some('<') => {
                let len = self.chars[start..]
                    .iter()
                    .position(|&c| c == '>')
                    .map_or(self.chars.len() - start, |end| end + 1);
                taken(self, len, AtomKind::Char)
            }
            c if c.is_ascii_alphanumeric() || "^$\\.*+?()[]{}|/".contains(c) => {
                taken(self, 2, AtomKind::Char)
            }
            '-' if in_class => taken(self, 2, AtomKind::Char),
            c => {
                self.forms.insert(AnnexB::IdentityEscape);
                self.at += 2;
                (c.to_string(), AtomKind::Char)
            }
        }
    }

    /// One class atom at `self.at`, consumed. A `-` atom is written `\-`, so that a `-`
    /// the pattern reads as a character stays one when a rewrite moves what follows it.
    fn class_atom(&mut self) -> (String, AtomKind) {
        let c = self.chars[self.at];
        if c == '\\' {
            return self.escape(true);
        }
        self.at += 1;
        let text = if c == '-' {
            "\\-".into()
        } else {
            c.to_string()
        };
        (text, AtomKind::Char)
    }

    /// The class at `self.at` (its `[`), consumed through its `]`.
    fn class(&mut self) {
        self.copy(1);
        if self.peek(0) == Some('^') {
            self.copy(1);
        }
        while let Some(c) = self.peek(0) {
            if c == ']' {
                self.copy(1);
                return;
            }
            let a_at = self.at;
            let (a, a_kind) = self.class_atom();
            if self.peek(0) != Some('-') || matches!(self.peek(1), None | Some(']')) {
                self.out.push_str(&a);
                continue;
            }
            self.at += 1;
            let (b, b_kind) = self.class_atom();
            let written: String = self.chars[a_at..self.at].iter().collect();
            let kinds = [a_kind, b_kind];
            let annex_b = kinds.contains(&AtomKind::ClassEscape)
                && !kinds.contains(&AtomKind::Property)
                && !written.contains("--");
            let dash = if annex_b {
                self.forms.insert(AnnexB::ClassEscapeRangeEnd);
                "\\-"
            } else {
                "-"
            };
            write!(self.out, "{a}{dash}{b}").unwrap_or_default();
        }
    }
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `s`: its length in characters.
fn braced_quantifier_len(s: &[char]) -> Option<usize> {
    let digits = |from: usize| s[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = 1;
    let n = digits(i);
    if n == 0 {
        return None;
    }
    i += n;
    if s.get(i) == Some(&',') {
        i += 1;
        i += digits(i);
    }
    (s.get(i) == Some(&'}')).then_some(i + 1)
}

/// The verdicts on the patterns checked, and what they disagree on.
#[derive(Default)]
struct Tally {
    patterns: usize,
    both_accept: usize,
    both_refuse: usize,
    /// Valid syntax schemac refuses to run (`UnsupportedRegex`: a backreference, a
    /// modifier) or that is over a size limit.
    accepted_not_run: usize,
    /// Annex B legacy octal escapes (`\01`, `[\1]`): a syntax error in u-mode, parsed by
    /// schemac and refused as `UnsupportedRegex` — refused by both.
    legacy_octal: usize,
    annex_b: BTreeMap<AnnexB, usize>,
    probes: usize,
    disagreements: Vec<String>,
}

impl Tally {
    /// Compares schemac and regress on `pattern`, then on each of `probes` (and the
    /// pattern's own text) where both accept it.
    fn check(&mut self, pattern: &str, probes: &[&str]) {
        self.patterns += 1;
        let ours = compile(pattern, &RegexOptions::default());
        let theirs = regress::Regex::with_flags(pattern, "u");
        let regex = match (&ours, theirs) {
            (Err(RegexError::Invalid { .. }), Err(_)) => {
                self.both_refuse += 1;
                return;
            }
            (Err(e @ RegexError::Invalid { .. }), Ok(_)) => {
                self.disagreements.push(format!(
                    "{pattern:?}: regress accepts, schemac refuses ({e})"
                ));
                return;
            }
            (_, Ok(theirs)) => {
                self.both_accept += 1;
                theirs
            }
            (_, Err(e)) => {
                let (twin, forms) = u_mode_twin(pattern);
                match regress::Regex::with_flags(&twin, "u") {
                    Ok(theirs) if !forms.is_empty() => {
                        for form in forms {
                            *self.annex_b.entry(form).or_default() += 1;
                        }
                        theirs
                    }
                    _ if matches!(&ours, Err(RegexError::Unsupported { construct, .. })
                        if construct.starts_with("legacy octal")) =>
                    {
                        self.legacy_octal += 1;
                        return;
                    }
                    _ => {
                        let ours = ours.err().map_or("accepts".into(), |e| e.to_string());
                        self.disagreements.push(format!(
                            "{pattern:?}: schemac {ours}, regress refuses ({e}); \
                             its u-mode twin {twin:?} (Annex B forms {forms:?}) too"
                        ));
                        return;
                    }
                }
            }
        };
        let Ok(ours) = ours else {
            self.accepted_not_run += 1;
            return;
        };
        let rt = ours.as_runtime();
        let own = pattern.chars().take(PROBE_MAX).collect::<String>();
        for hay in probes.iter().copied().chain([own.as_str()]) {
            self.probes += 1;
            let want = regex.find(hay).is_some();
            let pike = rt.program().is_match(hay);
            let dfa = rt.dfa().map(|d| d.is_match(hay));
            let chosen = rt.is_match(hay);
            if pike != want || chosen != want || dfa.is_some_and(|d| d != want) {
                self.disagreements.push(format!(
                    "{pattern:?} on {hay:?}: regress {want}, pike {pike}, dfa {dfa:?}, \
                     chosen {chosen}"
                ));
            }
        }
    }

    fn report(&self, what: &str) -> String {
        format!(
            "{what}: {} patterns, {} accepted by both ({} of them not run: unsupported or too \
             large), {} refused by both ({} legacy octal, UnsupportedRegex), Annex B forms \
             accepted by schemac only {:?}, {} probe matches compared, {} disagreements",
            self.patterns,
            self.both_accept,
            self.accepted_not_run,
            self.both_refuse + self.legacy_octal,
            self.legacy_octal,
            self.annex_b,
            self.probes,
            self.disagreements.len()
        )
    }

    fn assert_agreement(&self, what: &str) {
        println!("{}", self.report(what));
        assert!(
            self.disagreements.is_empty(),
            "{}:\n{}",
            self.report(what),
            self.disagreements[..self.disagreements.len().min(60)].join("\n")
        );
    }
}

/// Probe strings are at most this many characters: regress backtracks, so its worst case
/// stays small.
const PROBE_MAX: usize = 16;

/// Class contents the generator mixes: the characters u-mode and v-mode read differently,
/// escapes, ranges (in order and not), class and property escapes.
const CLASS_PIECES: &[&str] = &[
    "a",
    "z",
    "!",
    "~",
    "&",
    "&&",
    "-",
    "--",
    "[",
    "]",
    "^",
    "{",
    "}",
    "\\[",
    "\\]",
    "\\-",
    "\\&",
    "\\\\",
    "\\n",
    "\\b",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\p{L}",
    "\\P{Lu}",
    "\\p{Script=Greek}",
    "a-z",
    "0-9",
    "z-a",
    "!--",
    "\\u{1F600}",
    "😀",
    "é",
    "\\x41",
    "\\cJ",
    "\\.",
    "\\@",
    "\\1",
    "\\q",
    "\\w-.",
    ".-\\d",
    "\\s-\\W",
];

/// Pieces around a class.
const OUTSIDE_PIECES: &[&str] = &["", "", "^", "a", "$", "]", "}", "(?=a)", "\\w+", "x*"];

/// Probe characters: those the classes name, and some they do not.
const PROBE_CHARS: &[&str] = &[
    "a", "z", "A", "0", "5", "_", "!", "~", "&", "-", "[", "]", "^", "{", "}", "\\", "\n", " ",
    "é", "α", "😀", ".", "@", "q",
];

/// A pattern of one or two classes of 1-5 pieces each, with pieces around them.
fn generated_pattern(rng: &mut Rng) -> String {
    let mut pattern = String::from(*rng.pick(OUTSIDE_PIECES));
    for _ in 0..1 + rng.below(2) {
        pattern.push('[');
        if rng.chance(3) {
            pattern.push('^');
        }
        for _ in 0..1 + rng.below(5) {
            pattern.push_str(rng.pick::<&str>(CLASS_PIECES));
        }
        pattern.push(']');
        if rng.chance(3) {
            pattern.push_str(rng.pick::<&str>(&["+", "*", "{2}", "?"]));
        }
        pattern.push_str(rng.pick::<&str>(OUTSIDE_PIECES));
    }
    pattern
}

#[test]
fn generated_class_syntax_agrees_with_u_mode() {
    let mut rng = Rng(0xC1A5_2026);
    let probes: Vec<String> = (0..40)
        .map(|_| (0..rng.below(4)).map(|_| *rng.pick(PROBE_CHARS)).collect())
        .chain(PROBE_CHARS.iter().map(|c| c.to_string()))
        .collect();
    let probes: Vec<&str> = probes.iter().map(String::as_str).collect();
    let mut tally = Tally::default();
    for _ in 0..3000 {
        tally.check(&generated_pattern(&mut rng), &probes);
    }
    tally.assert_agreement("generated patterns");
    // The generator reaches every verdict.
    assert!(tally.both_accept >= 500, "{}", tally.report("generated"));
    assert!(tally.both_refuse >= 500, "{}", tally.report("generated"));
    for form in [
        AnnexB::LoneBrace,
        AnnexB::LoneBracket,
        AnnexB::ClassEscapeRangeEnd,
        AnnexB::IdentityEscape,
    ] {
        assert!(
            tally.annex_b.get(&form).is_some_and(|&n| n >= 20),
            "{}",
            tally.report("generated")
        );
    }
    assert!(tally.probes >= 50_000, "{}", tally.report("generated"));
}

/// Every `pattern` string and `patternProperties` key under `v`, and the instances of a
/// test group whose schema is `{"format": "regex"}` (the suite's regex syntax cases); the
/// short strings of instances and examples go to `strings` as probes.
fn collect(v: &Value, patterns: &mut BTreeSet<String>, strings: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            if o.get("schema").and_then(|s| s.get("format")) == Some(&Value::from("regex")) {
                let tests = o.get("tests").and_then(Value::as_array);
                let data = tests.into_iter().flatten().filter_map(|t| t.get("data"));
                patterns.extend(data.filter_map(Value::as_str).map(String::from));
            }
            for (k, v) in o {
                match (k.as_str(), v) {
                    ("pattern", Value::String(p)) => {
                        patterns.insert(p.clone());
                    }
                    ("patternProperties", Value::Object(pp)) => {
                        patterns.extend(pp.keys().cloned());
                    }
                    _ => {}
                }
                collect(v, patterns, strings);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, patterns, strings)),
        Value::String(s) if s.chars().count() <= PROBE_MAX => {
            strings.insert(s.clone());
        }
        _ => {}
    }
}

#[test]
fn corpus_pattern_syntax_agrees_with_u_mode() {
    let shared = shared_dir().unwrap_or_else(|e| panic!("{e}"));
    let (mut patterns, mut strings) = (BTreeSet::new(), BTreeSet::new());
    let mut files = 0;
    for sub in [
        "json-schema-test-suite",
        "bench-corpus",
        "bench-mcp",
        "jsonschema-rs-bench-data",
        "realworld",
    ] {
        let dir = shared.join(sub);
        for file in json_files(&dir).unwrap_or_else(|e| panic!("{e}")) {
            // Large instance files hold no patterns and many strings.
            if std::fs::metadata(&file).is_ok_and(|m| m.len() > 5_000_000) {
                continue;
            }
            if let Ok(v) = read_json(&file) {
                files += 1;
                collect(&v, &mut patterns, &mut strings);
            }
        }
    }
    // Every probe string through regress and schemac per pattern would be slow: a
    // deterministic sample of them.
    let mut rng = Rng(0xC0_2026);
    let strings: Vec<&str> = strings.iter().map(String::as_str).collect();
    let probes: Vec<&str> = (0..60).map(|_| *rng.pick(&strings)).collect();
    let mut tally = Tally::default();
    for p in &patterns {
        tally.check(p, &probes);
    }
    println!("{files} corpus files");
    tally.assert_agreement("corpus patterns");
    assert!(tally.patterns >= 200, "{}", tally.report("corpus"));
}

/// The twin rewrites exactly the listed Annex B forms and leaves u-mode syntax alone.
#[test]
fn u_mode_twin_rewrites_the_annex_b_forms() {
    use AnnexB::*;
    for (pattern, twin, forms) in [
        ("^[\\w-.]+$", "^[\\w\\-.]+$", &[ClassEscapeRangeEnd][..]),
        ("[.-\\d]", "[.\\-\\d]", &[ClassEscapeRangeEnd]),
        ("[\\w--x]", "[\\w-\\-x]", &[]),
        ("[\\s-z-a]", "[\\s\\-z\\-a]", &[ClassEscapeRangeEnd]),
        ("[!--]", "[!-\\-]", &[]),
        ("[\\p{L}-.]", "[\\p{L}-.]", &[]),
        ("a{1,x}}", "a\\{1,x\\}\\}", &[LoneBrace]),
        ("a{1,2}", "a{1,2}", &[]),
        ("[[]]", "[[]\\]", &[LoneBracket]),
        ("\\@[\\@\\-]", "@[@\\-]", &[IdentityEscape]),
        (
            "\\p{Lu}\\u{1F600}\\x41\\k<n>",
            "\\p{Lu}\\u{1F600}\\x41\\k<n>",
            &[],
        ),
        ("[^!*,;{}[\\]~\\n]", "[^!*,;{}[\\]~\\n]", &[]),
    ] {
        let (got, found) = u_mode_twin(pattern);
        assert_eq!(got, twin, "{pattern}");
        assert_eq!(found.into_iter().collect::<Vec<_>>(), forms, "{pattern}");
    }
}
