//! The fuzz targets of `fuzz/` without a fuzzer: every target's checked-in seed corpus
//! (`fuzz/seeds/<target>/`), then seeded mutations of it (SplitMix64: byte flips,
//! insertions of JSON and regex tokens, deletions, splices), through the same functions
//! (`schemac_tests::fuzzing`). Deterministic; a finding panics with its input.

use schemac_tests::fuzzing::TARGETS;
use schemac_tests::rng::Rng;
use std::path::Path;

/// Mutated inputs per target.
const MUTATIONS: usize = 1000;

/// Tokens worth inserting: JSON structure, keywords, regex syntax.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "0",
    "-1",
    "1e400",
    "1.5",
    "null",
    "true",
    "\"type\"",
    "\"items\"",
    "\"$ref\"",
    "\"#\"",
    "\"properties\"",
    "\"pattern\"",
    "\"anyOf\"",
    "\"$dynamicRef\"",
    "\"$id\"",
    "\"enum\"",
    "\"multipleOf\"",
    "\"unevaluatedProperties\"",
    "\"contains\"",
    "(",
    ")",
    "(?=",
    "(?<!",
    "*",
    "+?",
    "{2,}",
    "|",
    "\\p{L}",
    "[^",
    "\\b",
    "$",
    "^",
    ".",
    "\u{0}",
    "é",
    "😀",
];

/// The seed corpus of `target`, sorted by file name.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(target);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// One to four mutations of a seed, spliced with `other` sometimes.
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                out.splice(at..at, token.iter().copied());
            }
            2 if at < out.len() => {
                let end = (at + 1 + rng.below(8)).min(out.len());
                out.drain(at..end);
            }
            _ => {
                let from = rng.below(other.len() + 1);
                let to = (from + rng.below(32)).min(other.len());
                out.splice(at..at, other[from..to].iter().copied());
            }
        }
    }
    out
}

#[test]
fn fuzz_targets_replay_their_corpus_and_seeded_mutations() {
    for (name, target) in TARGETS {
        let corpus = seeds(name);
        assert!(corpus.len() >= 3, "{name}: only {} seeds", corpus.len());
        for input in &corpus {
            target(input);
        }
        let mut rng = Rng(0x5EED_0009 ^ name.len() as u64);
        for _ in 0..MUTATIONS {
            let seed = &corpus[rng.below(corpus.len())];
            let other = &corpus[rng.below(corpus.len())];
            let input = mutate(&mut rng, seed, other);
            let outcome = std::panic::catch_unwind(|| target(&input));
            if let Err(panic) = outcome {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!(
                    "{name}: a finding on {:?}: {message}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }
}
