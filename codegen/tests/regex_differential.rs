//! Differential test: schemac's regex engine against `regress` (ECMA-262, backtracking) on
//! seeded random (pattern, input) pairs.
//!
//! Patterns come from a grammar covering every construct schemac supports in strict u-mode —
//! literals, escapes (`\t`, `\xHH`, `\uHHHH`, surrogate pairs, `\u{...}`, `\cX`), `.`,
//! classes with ranges and negation, class escapes, `\p{...}` / `\P{...}`, `^ $ \b \B`,
//! capturing / named / non-capturing groups, alternation, every quantifier greedy and lazy,
//! and lookahead / lookbehind (positive, negative, nested) — so regress runs with flag `u`.
//! (The Annex B forms, which u-mode rejects, have unit tests in `regex_unit.rs`.) Inputs are
//! short, over an alphabet with ASCII, Latin-1, Greek, a line terminator and non-BMP
//! characters. Every pair must give the same match / no-match from regress, schemac's
//! Pike VM, its DFA (when built) and its chosen fast path.

use schemac::regex::{compile, RegexOptions};

/// SplitMix64: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const ATOMS: &[&str] = &[
    "a",
    "b",
    "c",
    "a",
    "b",
    "-",
    "1",
    "é",
    "α",
    "😀",
    "\\u{1F600}",
    "\\uD83D\\uDE00",
    "\\x61",
    "\\u0062",
    "\\t",
    "\\n",
    "\\cJ",
    "\\.",
    "\\/",
    ".",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "[ab]",
    "[^a]",
    "[a-c]",
    "[^a-c😀]",
    "[\\d-]",
    "[😀-😂]",
    "[]",
    "[^]",
    "[\\w\\s]",
    "\\p{L}",
    "\\p{Lu}",
    "\\P{L}",
    "\\p{Letter}",
    "\\p{gc=Nd}",
    "\\p{Script=Greek}",
    "\\p{sc=Latn}",
    "\\p{scx=Grek}",
    "\\p{Emoji}",
    "\\P{ASCII}",
    "[\\p{L}\\d]",
    "[^\\p{Ll}]",
    "\\0",
];

const QUANTS: &[&str] = &[
    "*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}", "*?", "+?", "??", "{2}?", "{0,}?", "{1,2}?",
];

fn gen(rng: &mut Rng, depth: u32, out: &mut String) {
    // An alternation of 1-3 sequences of 1-4 terms.
    let alts = if depth < 3 && rng.below(4) == 0 {
        2 + rng.below(2)
    } else {
        1
    };
    for i in 0..alts {
        if i > 0 {
            out.push('|');
        }
        let terms = 1 + rng.below(4);
        for _ in 0..terms {
            term(rng, depth, out);
        }
    }
}

fn term(rng: &mut Rng, depth: u32, out: &mut String) {
    let roll = rng.below(100);
    if roll < 6 {
        out.push_str(rng.pick(&["^", "$", "\\b", "\\B"]));
        return;
    }
    if depth < 3 && roll < 16 {
        let open = rng.pick(&["(?=", "(?!", "(?<=", "(?<!"]);
        out.push_str(open);
        gen(rng, depth + 1, out);
        out.push(')');
        return;
    }
    if depth < 3 && roll < 34 {
        out.push_str(rng.pick(&["(", "(?:", "(?<g>"]));
        if out.matches("(?<g>").count() > 1 {
            // Named groups must be unique: rename this one.
            let n = out.matches("(?<g").count();
            let at = out.len() - "(?<g>".len();
            out.truncate(at);
            out.push_str(&format!("(?<g{n}>"));
        }
        gen(rng, depth + 1, out);
        out.push(')');
    } else {
        out.push_str(rng.pick(ATOMS));
    }
    if rng.below(3) == 0 {
        out.push_str(rng.pick(QUANTS));
    }
}

const INPUT_CHARS: &[&str] = &[
    "a", "a", "b", "b", "c", "-", "1", " ", "é", "α", "A", "_", "😀", "😁", "\n", ".",
];

fn input(rng: &mut Rng) -> String {
    let len = rng.below(9);
    (0..len).map(|_| rng.pick(INPUT_CHARS)).collect()
}

#[test]
fn agrees_with_regress() {
    let mut rng = Rng(0x5EED_2026);
    let opts = RegexOptions::default();
    let (mut pairs, mut matches, mut with_dfa, mut with_look) = (0usize, 0usize, 0usize, 0usize);
    let mut both_rejected = 0usize;
    let mut mismatches = Vec::new();
    for _ in 0..1500 {
        let mut pattern = String::new();
        gen(&mut rng, 0, &mut pattern);
        let theirs = regress::Regex::with_flags(&pattern, "u");
        let ours = compile(&pattern, &opts);
        let (theirs, ours) = match (theirs, ours) {
            (Ok(t), Ok(o)) => (t, o),
            (Err(_), Err(_)) => {
                both_rejected += 1;
                continue;
            }
            (t, o) => {
                mismatches.push(format!(
                    "{pattern:?}: regress {}, schemac {}",
                    if t.is_ok() { "accepts" } else { "rejects" },
                    match &o {
                        Ok(_) => "accepts".to_string(),
                        Err(e) => format!("rejects ({e})"),
                    }
                ));
                continue;
            }
        };
        let rt = ours.as_runtime();
        with_dfa += usize::from(rt.dfa().is_some());
        with_look += usize::from(
            pattern.contains("(?=")
                || pattern.contains("(?!")
                || pattern.contains("(?<=")
                || pattern.contains("(?<!"),
        );
        for _ in 0..10 {
            let hay = input(&mut rng);
            let want = theirs.find(&hay).is_some();
            let pike = rt.program().is_match(&hay);
            let dfa = rt.dfa().map(|d| d.is_match(&hay));
            let chosen = rt.is_match(&hay);
            pairs += 1;
            matches += usize::from(want);
            if pike != want || chosen != want || dfa.is_some_and(|d| d != want) {
                mismatches.push(format!(
                    "{pattern:?} on {hay:?}: regress {want}, pike {pike}, dfa {dfa:?}, chosen {chosen}"
                ));
            }
        }
    }
    println!(
        "differential: {pairs} pairs ({matches} matches), {with_dfa} patterns with a DFA, \
         {with_look} with lookarounds, {both_rejected} rejected by both, {} mismatches",
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(pairs >= 10_000, "only {pairs} pairs");
    assert!(
        matches > pairs / 10 && matches < pairs * 9 / 10,
        "{matches} of {pairs} match"
    );
}

/// Patterns shaped for the fast paths — bare or anchored literals, one class or character
/// repeated (`^[a-c]{1,3}$`), an anchored literal prefix followed by anything — against
/// regress, with the fast path, the Pike VM and the DFA each compared.
#[test]
fn fast_paths_agree_with_regress() {
    let mut rng = Rng(0xFA57_2026);
    let opts = RegexOptions::default();
    let literals = ["a", "b", "é", "😀", "\\x61", "\\u{1F600}", "\\.", "1"];
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let (mut pairs, mut matches) = (0usize, 0usize);
    let mut mismatches = Vec::new();
    for _ in 0..1200 {
        let mut pattern = String::new();
        if rng.below(3) != 0 {
            pattern.push('^');
        }
        match rng.below(3) {
            0 => (0..rng.below(4)).for_each(|_| pattern.push_str(rng.pick(&literals))),
            1 => {
                pattern.push_str(rng.pick(ATOMS));
                if rng.below(5) != 0 {
                    pattern.push_str(rng.pick(QUANTS));
                }
            }
            _ => {
                (0..1 + rng.below(3)).for_each(|_| pattern.push_str(rng.pick(&literals)));
                term(&mut rng, 1, &mut pattern);
            }
        }
        if rng.below(2) == 0 {
            pattern.push('$');
        }
        let theirs = regress::Regex::with_flags(&pattern, "u")
            .unwrap_or_else(|e| panic!("{pattern:?}: regress rejects it: {e}"));
        let ours = compile(&pattern, &opts).unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
        *kinds.entry(ours.fast_path().unwrap_or("none")).or_default() += 1;
        let rt = ours.as_runtime();
        for i in 0..12 {
            // Half the inputs are runs of one character, to reach the length bounds.
            let hay = if i % 2 == 0 {
                input(&mut rng)
            } else {
                rng.pick(INPUT_CHARS).repeat(rng.below(5))
            };
            let want = theirs.find(&hay).is_some();
            let pike = rt.program().is_match(&hay);
            let dfa = rt.dfa().map(|d| d.is_match(&hay));
            let chosen = rt.is_match(&hay);
            pairs += 1;
            matches += usize::from(want);
            if pike != want || chosen != want || dfa.is_some_and(|d| d != want) {
                mismatches.push(format!(
                    "{pattern:?} on {hay:?}: regress {want}, pike {pike}, dfa {dfa:?}, chosen {chosen}"
                ));
            }
        }
    }
    println!("fast-path differential: {pairs} pairs ({matches} matches), patterns by fast path: {kinds:?}");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(40)].join("\n")
    );
    assert!(
        matches > pairs / 10 && matches < pairs * 9 / 10,
        "{matches} of {pairs} match"
    );
    for kind in ["literal", "prefix", "class run"] {
        assert!(
            kinds.get(kind).is_some_and(|&n| n >= 100),
            "{kind}: {kinds:?}"
        );
    }
}

/// Patterns shaped for the ASCII-runs fast path — `^`, maybe a choice of literals, runs of
/// ASCII characters and classes with every quantifier, maybe `$` — against regress, on
/// inputs made of the same pieces. Those that qualify (a greedy scan decides) must agree;
/// so must the others, which the automata decide.
#[test]
fn ascii_runs_agree_with_regress() {
    const HEADS: &[&str] = &["(a|b)", "(ab|ba|c)", "(?:get|put|post)", "(a|ab)", "(é|x)"];
    const RUNS: &[&str] = &[
        "a", "b", "-", "1", "_", "[ab]", "[a-c]", "\\d", "[\\d-]", "\\w", "[b-c_]",
    ];
    const PIECES: &[&str] = &[
        "a", "b", "c", "-", "1", "2", "_", "ab", "ba", "get", "post", "x", "é", "A",
    ];
    let mut rng = Rng(0xA5C1_2026);
    let opts = RegexOptions::default();
    let (mut pairs, mut matches, mut decided) = (0usize, 0usize, 0usize);
    let mut mismatches = Vec::new();
    for _ in 0..1500 {
        let mut pattern = String::from("^");
        if rng.below(3) == 0 {
            pattern.push_str(rng.pick(HEADS));
        }
        for _ in 0..rng.below(5) {
            pattern.push_str(rng.pick(RUNS));
            if rng.below(3) != 0 {
                pattern.push_str(rng.pick(QUANTS));
            }
        }
        if rng.below(2) == 0 {
            pattern.push('$');
        }
        let theirs = regress::Regex::with_flags(&pattern, "u")
            .unwrap_or_else(|e| panic!("{pattern:?}: regress rejects it: {e}"));
        let ours = compile(&pattern, &opts).unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
        decided += usize::from(ours.fast_path() == Some("ascii runs"));
        let rt = ours.as_runtime();
        for _ in 0..12 {
            let hay: String = (0..rng.below(7)).map(|_| rng.pick(PIECES)).collect();
            let want = theirs.find(&hay).is_some();
            let chosen = rt.is_match(&hay);
            pairs += 1;
            matches += usize::from(want);
            if chosen != want {
                mismatches.push(format!(
                    "{pattern:?} on {hay:?}: regress {want}, ours {chosen}"
                ));
            }
        }
    }
    println!("ascii-runs differential: {pairs} pairs ({matches} matches), {decided} patterns decided by ascii runs");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(40)].join("\n")
    );
    assert!(decided >= 300, "only {decided} patterns took the fast path");
    assert!(
        matches > pairs / 10 && matches < pairs * 9 / 10,
        "{matches} of {pairs} match"
    );
}

/// Inputs made of runs of repeated characters (up to 60 code points) — where the Pike
/// VM's one-entry closure memo is reused from character to character and must be dropped
/// when the seeds or an assertion's answer change: the Pike VM against the DFA on every
/// generated pattern that has one, and against regress on lookaround patterns with
/// shorter run-heavy inputs.
#[test]
fn pike_vm_memo_agrees_on_runs() {
    let mut rng = Rng(0x3E30_2026);
    let opts = RegexOptions::default();
    let runs = |rng: &mut Rng, max_runs: usize, max_len: usize| -> String {
        (0..rng.below(max_runs + 1))
            .map(|_| rng.pick(INPUT_CHARS).repeat(1 + rng.below(max_len)))
            .collect()
    };
    let (mut vs_dfa, mut vs_regress) = (0usize, 0usize);
    let mut mismatches = Vec::new();
    for _ in 0..1500 {
        let mut pattern = String::new();
        gen(&mut rng, 0, &mut pattern);
        let Ok(ours) = compile(&pattern, &opts) else {
            continue;
        };
        let rt = ours.as_runtime();
        if let Some(dfa) = rt.dfa() {
            for _ in 0..6 {
                let hay = runs(&mut rng, 6, 10);
                vs_dfa += 1;
                let (pike, want) = (rt.program().is_match(&hay), dfa.is_match(&hay));
                if pike != want {
                    mismatches.push(format!("{pattern:?} on {hay:?}: dfa {want}, pike {pike}"));
                }
            }
        } else if let Ok(theirs) = regress::Regex::with_flags(&pattern, "u") {
            for _ in 0..6 {
                let hay = runs(&mut rng, 3, 4);
                vs_regress += 1;
                let want = theirs.find(&hay).is_some();
                let pike = rt.program().is_match(&hay);
                if pike != want {
                    mismatches.push(format!(
                        "{pattern:?} on {hay:?}: regress {want}, pike {pike}"
                    ));
                }
            }
        }
    }
    println!("memo on runs: {vs_dfa} pairs against the DFA, {vs_regress} against regress");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(40)].join("\n")
    );
    assert!(
        vs_dfa >= 3000 && vs_regress >= 2000,
        "{vs_dfa} / {vs_regress}"
    );
}
