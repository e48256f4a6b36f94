//! Regex benchmarks.
//!
//! - `linear/*`: hostile patterns on non-matching inputs of 10 KB, 100 KB and 1 MB; each
//!   tenfold input should cost about tenfold time (no backtracking blow-up). The patterns
//!   run on the path schemac chooses (`chosen`) and, where that is the DFA, on the Pike VM
//!   too (`pike`).
//! - `mcp/*`: typical MCP tool-schema patterns on matching inputs against the `regex`
//!   crate's `is_match`, measured in the same run: schemac's chosen path (`schemac`: a fast
//!   path where the pattern has one, else the DFA, else the Pike VM), its DFA alone
//!   (`schemac-dfa`) and its Pike VM alone (`schemac-pike`, which shows the per-call cost
//!   of the VM on short inputs).
//!
//! Run: `cargo bench -p schemac --bench regex -- --warm-up-time 1 --measurement-time 2`.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use schemac::regex::{compile, RegexOptions};

fn linear(c: &mut Criterion) {
    let mut group = c.benchmark_group("linear");
    group.sample_size(10);
    let cases: &[(&str, &str, &str)] = &[
        ("(a*)*b", "a", ""),
        ("(a|a)*b", "a", ""),
        ("(a+)+$", "a", "!"),
        ("^(?=(a+)+$)a*$", "a", "!"),
        ("^(\\w+\\s?)*$", "a", "!"),
    ];
    for &(pattern, fill, tail) in cases {
        let re = compile(pattern, &RegexOptions::default()).expect("bench pattern compiles");
        let rt = re.as_runtime();
        for size in [10_000usize, 100_000, 1_000_000] {
            let hay = fill.repeat(size - tail.len()) + tail;
            assert!(!rt.is_match(&hay), "{pattern} must not match");
            group.throughput(Throughput::Bytes(size as u64));
            group.bench_with_input(
                BenchmarkId::new(format!("chosen {pattern}"), size),
                &hay,
                |b, hay| b.iter(|| rt.is_match(black_box(hay))),
            );
            if rt.dfa().is_some() {
                group.bench_with_input(
                    BenchmarkId::new(format!("pike {pattern}"), size),
                    &hay,
                    |b, hay| b.iter(|| rt.program().is_match(black_box(hay))),
                );
            }
        }
    }
    group.finish();
}

fn mcp(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcp");
    let cases: &[(&str, &str, &str)] = &[
        ("currency", "^[A-Z]{3}$", "USD"),
        (
            "uuid",
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
            "123e4567-e89b-12d3-a456-426614174000",
        ),
        (
            "email",
            "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
            "first.last@example.com",
        ),
        ("identifier", "^[a-zA-Z0-9_-]{1,64}$", "get_weather-v2"),
        ("date", "^\\d{4}-\\d{2}-\\d{2}$", "2024-05-17"),
        ("slug", "^[a-z0-9_-]+$", "my-tool_name-2"),
        // Lookarounds: no DFA and no `regex` crate; the Pike VM with its marks.
        ("password", "^(?=.*\\d)(?=.*[a-z]).{8,64}$", "hunter2hunter"),
    ];
    for &(name, pattern, input) in cases {
        let ours = compile(pattern, &RegexOptions::default()).expect("bench pattern compiles");
        let rt = ours.as_runtime();
        let theirs = regex_for(pattern);
        assert!(rt.is_match(input) && rt.program().is_match(input));
        if let Some(t) = &theirs {
            assert!(t.is_match(input));
        }
        group.bench_function(BenchmarkId::new("schemac", name), |b| {
            b.iter(|| rt.is_match(black_box(input)))
        });
        if let Some(dfa) = rt.dfa().copied() {
            assert!(dfa.is_match(input));
            group.bench_function(BenchmarkId::new("schemac-dfa", name), |b| {
                b.iter(|| dfa.is_match(black_box(input)))
            });
        }
        group.bench_function(BenchmarkId::new("schemac-pike", name), |b| {
            b.iter(|| rt.program().is_match(black_box(input)))
        });
        if let Some(theirs) = theirs {
            group.bench_function(BenchmarkId::new("regex-crate", name), |b| {
                b.iter(|| theirs.is_match(black_box(input)))
            });
        }
    }
    group.finish();
}

/// The `regex` crate's version of a pattern, when it supports it (no lookarounds).
fn regex_for(pattern: &str) -> Option<regex::Regex> {
    regex::Regex::new(pattern).ok()
}

criterion_group!(benches, linear, mcp);
criterion_main!(benches);
