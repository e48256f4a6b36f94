//! Paired timing, for ratios that hold on a noisy machine. Per workload, each validator's
//! pass of `is_valid` over the instances is timed in alternation with generated code's,
//! round after round (the order rotating), and the ratio reported for a validator is the
//! median over rounds of its time over generated code's time *in the same round*. The two
//! sides of each ratio are measured milliseconds apart, so the machine's drifts in speed
//! (other jobs, clock frequency) cancel out, where criterion's separate measurements,
//! seconds apart, can disagree by 2x from one run to the next on the same code.
//!
//! ```text
//! cargo run --release -p schemac-benches --example paired [-- [bytes] [ROUNDS] [FILTER]]
//! ```
//!
//! ROUNDS (default 101) rounds per workload; FILTER keeps the workloads whose name
//! contains it. With `bytes`, every validator reads the instances' JSON text (as
//! `serde_json` writes each instance) and the baseline is generated code's
//! `is_valid_json`, validating straight from the bytes: the columns are the interpreter
//! from the bytes, parsing to a `Value` and then generated code, jsonschema-macros or
//! jsonschema, parsing alone and serde_json's syntax-only scan (`IgnoredAny`). It prints a Markdown table: generated code's median time per instance,
//! then per validator the median ratio (> 1: slower than generated code), and per group
//! (`benchmark`: the 27 workloads of `bench-mcp/`, `bench-corpus/` and
//! `jsonschema-rs-bench-data/`; `realworld`: one per schema of `realworld/` with
//! instances) the geometric mean and the lowest ratio of each column over the workloads
//! that have it.
//!
//! The last column is a control: a second copy of the same generated code, compiled into
//! this program at other addresses. Its ratio is what code layout alone moves a
//! workload's time by, so a peer's ratio that close to 1 decides nothing.

#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::report::{GENERATED, VALIDATORS};
use schemac_benches::workloads::{self, Group};
use serde_json::Value;
use std::borrow::Borrow;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The generated validators again, at other addresses than the library's copy (of which
/// only `is_valid` is used here: `dead_code`).
#[allow(dead_code, clippy::all)]
mod copy {
    use schemac_benches::generated::{IsValidFn, IsValidJsonFn};

    pub mod validators {
        schemac_runtime::include_validators!();
    }

    include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));
}

/// The column of the control, [`copy`].
const COPY: &str = "generated copy";

/// The columns of the `bytes` mode, after its baseline (generated `is_valid_json`).
const BYTES_COLUMNS: [&str; 6] = [
    "interpreted from bytes",
    "parse + generated",
    "parse + jsonschema-macros",
    "parse + jsonschema",
    "parse alone",
    "syntax scan",
];

/// A batch of passes of generated code takes at least this long.
const BATCH: Duration = Duration::from_millis(1);

/// The time of `passes` passes of `is_valid` over `instances`.
fn time<T: ?Sized, I: Borrow<T>>(
    is_valid: &dyn Fn(&T) -> bool,
    instances: &[I],
    passes: usize,
) -> Duration {
    let start = Instant::now();
    let mut valid = 0usize;
    for _ in 0..passes {
        for instance in instances {
            valid += usize::from(is_valid(black_box(instance.borrow())));
        }
    }
    black_box(valid);
    start.elapsed()
}

/// The median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A validator as the paired loop runs it, on inputs of type `T`.
type Pass<'a, T> = Box<dyn Fn(&T) -> bool + 'a>;

/// Times each of `columns` against `baseline` on `inputs`, `rounds` rounds: the
/// baseline's median time per input in nanoseconds, and per column its median ratio
/// (`None` for a column the workload lacks).
fn paired<T: ?Sized, I: Borrow<T>>(
    rounds: usize,
    inputs: &[I],
    baseline: &dyn Fn(&T) -> bool,
    columns: &[Option<Pass<'_, T>>],
) -> (f64, Vec<Option<f64>>) {
    // Warm-up (lazy initialization in a peer), then the passes per batch.
    for column in columns.iter().flatten() {
        time(&**column, inputs, 1);
    }
    let one = time(baseline, inputs, 1).max(Duration::from_nanos(1));
    let passes = (BATCH.as_nanos() / one.as_nanos()).max(1) as usize;
    let mut own = Vec::with_capacity(rounds);
    let mut ratios = vec![Vec::with_capacity(rounds); columns.len()];
    for round in 0..rounds {
        // Each column against the baseline timed next to it, the baseline first in even
        // rounds and second in odd ones (the second pass finds the instances in the
        // cache the first one warmed); the columns' order rotates so that none is always
        // first.
        let mut order: Vec<usize> = (0..columns.len()).collect();
        order.rotate_left(round % columns.len().max(1));
        for p in order {
            let Some(column) = &columns[p] else { continue };
            let (g, t) = if round % 2 == 0 {
                let g = time(baseline, inputs, passes);
                (g, time(&**column, inputs, passes))
            } else {
                let t = time(&**column, inputs, passes);
                (time(baseline, inputs, passes), t)
            };
            let (g, t) = (g.as_secs_f64(), t.as_secs_f64());
            ratios[p].push(t / g);
            own.push(g);
        }
    }
    let per_input = median(&mut own) * 1e9 / (passes * inputs.len()) as f64;
    let medians = ratios
        .iter_mut()
        .map(|r| (!r.is_empty()).then(|| median(r)))
        .collect();
    (per_input, medians)
}

/// The columns of the `bytes` mode for one workload (see [`BYTES_COLUMNS`]).
fn bytes_columns<'a>(
    shared: &std::path::Path,
    workload: &workloads::Workload,
    validators: &'a peers::Validators,
) -> Vec<Option<Pass<'a, [u8]>>> {
    use schemac_benches::interpreted;
    use schemac_runtime::Validate;
    let parsed = |name: &str| -> Option<Pass<'a, [u8]>> {
        let v = validators.get(name)?;
        Some(Box::new(move |b: &[u8]| {
            serde_json::from_slice::<Value>(b).is_ok_and(|value| (v.is_valid)(&value))
        }))
    };
    let interpreter = interpreted::compiler(shared)
        .and_then(|c| interpreted::interpreter(&c, workload.module, &workload.schema))
        .ok();
    vec![
        interpreter.map(|i| Box::new(move |b: &[u8]| i.is_valid_json(b)) as Pass<'a, [u8]>),
        parsed(GENERATED),
        parsed("jsonschema-macros"),
        parsed("jsonschema"),
        Some(Box::new(|b: &[u8]| {
            serde_json::from_slice::<Value>(b).is_ok()
        })),
        Some(Box::new(|b: &[u8]| {
            serde_json::from_slice::<serde::de::IgnoredAny>(b).is_ok()
        })),
    ]
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = args.first().is_some_and(|a| a == "bytes");
    if bytes {
        args.remove(0);
    }
    let rounds: usize = match args.first().map(|a| a.parse()) {
        None => 101,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: paired [bytes] [ROUNDS (a positive number)] [FILTER]");
            std::process::exit(2);
        }
    };
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let (shared, all) = workloads::load_shared_or_exit();
    let peers: Vec<&str> = if bytes {
        BYTES_COLUMNS.to_vec()
    } else {
        VALIDATORS
            .iter()
            .copied()
            .filter(|&v| v != GENERATED)
            .chain([COPY])
            .collect()
    };
    let baseline = if bytes {
        "generated from bytes"
    } else {
        "generated"
    };
    println!("Paired timing, {rounds} rounds per workload; ratio = validator / {baseline} (median over rounds).\n");
    let header: Vec<String> = peers.iter().map(|p| format!("{p} / {baseline}")).collect();
    println!("| workload | {baseline} ns | {} |", header.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(peers.len()));
    // Per group (`GROUPS`) and column: the sum of the ratios' logarithms, their number
    // and the lowest ratio.
    let mut summary = vec![vec![(0.0f64, 0usize, f64::INFINITY); peers.len()]; GROUPS.len()];
    for workload in all.iter().filter(|w| w.name.contains(filter)) {
        let mut validators = peers::validators(&shared, workload);
        if let Some((_, is_valid)) = copy::GENERATED.iter().find(|(m, _)| *m == workload.module) {
            validators.list.push(peers::Validator {
                name: COPY,
                is_valid: Box::new(*is_valid),
            });
        }
        let Some(generated) = validators.get(GENERATED) else {
            eprintln!("{}: no generated code, skipped", workload.name);
            continue;
        };
        for (name, why) in &validators.missing {
            let first = why.split("; ").next().unwrap_or_default();
            eprintln!("{}: no {name}: {first}", workload.name);
        }
        let (per_instance, medians) = if bytes {
            let Some(from_bytes) = schemac_benches::generated::is_valid_json_fn(workload.module)
            else {
                continue;
            };
            let texts: Vec<Vec<u8>> = (workload.instances.iter())
                .map(|v| serde_json::to_vec(v).expect("a Value serializes"))
                .collect();
            let columns = bytes_columns(&shared, workload, &validators);
            paired(rounds, &texts, &from_bytes, &columns)
        } else {
            let columns: Vec<Option<Pass<'_, Value>>> = peers
                .iter()
                .map(|p| {
                    validators
                        .get(p)
                        .map(|v| Box::new(|x: &Value| (v.is_valid)(x)) as Pass<'_, Value>)
                })
                .collect();
            paired(rounds, &workload.instances, &*generated.is_valid, &columns)
        };
        let group = usize::from(workload.group == Group::Realworld);
        let cells: Vec<String> = medians
            .iter()
            .zip(&mut summary[group])
            .map(|(m, (sum, n, lowest))| match *m {
                None => "–".to_string(),
                Some(m) => {
                    *sum += m.ln();
                    *n += 1;
                    *lowest = lowest.min(m);
                    format!("{m:.2}")
                }
            })
            .collect();
        println!(
            "| {} | {per_instance:.0} | {} |",
            workload.name,
            cells.join(" | ")
        );
    }
    for (name, columns) in GROUPS.iter().zip(&summary) {
        let means: Vec<String> = columns
            .iter()
            .map(|&(sum, n, _)| match n {
                0 => "–".to_string(),
                n => format!("**{:.3}** ({n})", (sum / n as f64).exp()),
            })
            .collect();
        let lowest: Vec<String> = columns
            .iter()
            .map(|&(_, n, lowest)| match n {
                0 => "–".to_string(),
                _ => format!("{lowest:.2}"),
            })
            .collect();
        println!("| **geometric mean, {name}** | | {} |", means.join(" | "));
        println!("| lowest, {name} | | {} |", lowest.join(" | "));
    }
}

/// The groups the means are taken over: the benchmark's 27 workloads, then `realworld`.
const GROUPS: [&str; 2] = ["benchmark", "realworld"];
