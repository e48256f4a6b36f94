//! Reads one JSON file a number of times with one parser, for instruction counts under
//! callgrind (steady on a shared machine, unlike times): the choice of a byte form for
//! validating straight from bytes (issue 37, BENCHMARKS.md "Reading JSON from bytes").
//!
//! ```text
//! cargo build --release -p schemac-benches --example parsers
//! valgrind --tool=callgrind --toggle-collect='*parsers::passes*' \
//!     target/release/examples/parsers schemac-tape FILE 100
//! ```
//!
//! Parsers: `schemac-tape` (`schemac_runtime::document::Document::read`),
//! `schemac-compact` (`schemac_runtime::document::compact::Document::read`),
//! `serde-ignored` (`serde_json::from_slice::<IgnoredAny>`: a syntax-only scan, which
//! unlike the others does not check UTF-8 inside strings), `serde-value`
//! (`from_slice::<Value>`), `simd-json-tape` (`simd_json::to_tape` on a copy of the input,
//! copy included: it parses in place), `sonic-value` (`sonic_rs::from_slice::<sonic_rs::Value>`)
//! and `sonic-ignored` (`sonic_rs::from_slice::<IgnoredAny>`). Only `passes` is counted
//! with that toggle; reading the file is not. It prints how many passes accepted the input.

use serde::de::IgnoredAny;
use std::hint::black_box;

/// Whether `parser` accepts `input`.
fn parse(parser: &str, input: &[u8]) -> bool {
    match parser {
        "schemac-tape" => schemac_runtime::document::Document::read(input).is_ok(),
        "schemac-compact" => schemac_runtime::document::compact::Document::read(input).is_ok(),
        "serde-ignored" => serde_json::from_slice::<IgnoredAny>(input).is_ok(),
        "serde-value" => serde_json::from_slice::<serde_json::Value>(input).is_ok(),
        "simd-json-tape" => {
            let mut copy = input.to_vec();
            simd_json::to_tape(&mut copy).is_ok()
        }
        "sonic-value" => sonic_rs::from_slice::<sonic_rs::Value>(input).is_ok(),
        "sonic-ignored" => sonic_rs::from_slice::<IgnoredAny>(input).is_ok(),
        other => {
            eprintln!("unknown parser {other}");
            std::process::exit(2);
        }
    }
}

/// `iterations` parses of `input`; how many accepted it.
#[inline(never)]
fn passes(parser: &str, input: &[u8], iterations: usize) -> usize {
    (0..iterations)
        .filter(|_| parse(parser, black_box(input)))
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [parser, file, rest @ ..] = args.as_slice() else {
        eprintln!("usage: parsers PARSER FILE [ITERATIONS]");
        std::process::exit(2);
    };
    let iterations = rest.first().and_then(|n| n.parse().ok()).unwrap_or(1);
    let input = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    println!("{}", passes(parser, &input, iterations));
}
