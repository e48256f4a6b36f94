//! Paired timing, for ratios that hold on a noisy machine. Per workload, each validator's
//! pass of `is_valid` over the instances is timed in alternation with generated code's,
//! round after round (the order rotating), and the ratio reported for a validator is the
//! median over rounds of its time over generated code's time *in the same round*. The two
//! sides of each ratio are measured milliseconds apart, so the machine's drifts in speed
//! (other jobs, clock frequency) cancel out, where criterion's separate measurements,
//! seconds apart, can disagree by 2x from one run to the next on the same code.
//!
//! ```text
//! cargo run --release -p schemac-benches --example paired [-- [ROUNDS] [FILTER]]
//! ```
//!
//! ROUNDS (default 101) rounds per workload; FILTER keeps the workloads whose name
//! contains it. It prints a Markdown table: generated code's median time per instance,
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
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The generated validators again, at other addresses than the library's copy (of which
/// only `is_valid` is used here: `dead_code`).
#[allow(dead_code, clippy::all)]
mod copy {
    use schemac_benches::generated::IsValidFn;

    pub mod validators {
        schemac_runtime::include_validators!();
    }

    include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));
}

/// The column of the control, [`copy`].
const COPY: &str = "generated copy";

/// A batch of passes of generated code takes at least this long.
const BATCH: Duration = Duration::from_millis(1);

/// The time of `passes` passes of `is_valid` over `instances`.
fn time(is_valid: &dyn Fn(&Value) -> bool, instances: &[Value], passes: usize) -> Duration {
    let start = Instant::now();
    let mut valid = 0usize;
    for _ in 0..passes {
        for instance in instances {
            valid += usize::from(is_valid(black_box(instance)));
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = match args.first().map(|a| a.parse()) {
        None => 101,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: paired [ROUNDS (a positive number)] [FILTER]");
            std::process::exit(2);
        }
    };
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let (shared, all) = workloads::load_shared_or_exit();
    let peers: Vec<&str> = VALIDATORS
        .iter()
        .copied()
        .filter(|&v| v != GENERATED)
        .chain([COPY])
        .collect();
    println!("Paired timing, {rounds} rounds per workload; ratio = validator / generated (median over rounds).\n");
    let header: Vec<String> = peers.iter().map(|p| format!("{p} / generated")).collect();
    println!("| workload | generated ns | {} |", header.join(" | "));
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
        let instances = &workload.instances;
        // Warm-up (lazy initialization in a peer), then the passes per batch.
        for v in &validators.list {
            time(&v.is_valid, instances, 1);
        }
        let one = time(&generated.is_valid, instances, 1).max(Duration::from_nanos(1));
        let passes = (BATCH.as_nanos() / one.as_nanos()).max(1) as usize;
        let others: Vec<_> = peers.iter().map(|p| validators.get(p)).collect();
        let mut own = Vec::with_capacity(rounds);
        let mut ratios = vec![Vec::with_capacity(rounds); peers.len()];
        for round in 0..rounds {
            // Each peer against generated code timed next to it, generated code first in
            // even rounds and second in odd ones (the second pass finds the instances in
            // the cache the first one warmed); the peers' order rotates so that none is
            // always first.
            let mut order: Vec<usize> = (0..peers.len()).collect();
            order.rotate_left(round % peers.len());
            for p in order {
                let Some(peer) = others[p] else { continue };
                let pass = |v: &peers::Validator| time(&v.is_valid, instances, passes);
                let (g, t) = if round % 2 == 0 {
                    let g = pass(generated);
                    (g, pass(peer))
                } else {
                    let t = pass(peer);
                    (pass(generated), t)
                };
                let (g, t) = (g.as_secs_f64(), t.as_secs_f64());
                ratios[p].push(t / g);
                own.push(g);
            }
        }
        let per_instance = median(&mut own) * 1e9 / (passes * instances.len()) as f64;
        let group = usize::from(workload.group == Group::Realworld);
        let cells: Vec<String> = ratios
            .iter_mut()
            .zip(&mut summary[group])
            .map(|(r, (sum, n, lowest))| {
                if r.is_empty() {
                    return "–".to_string();
                }
                let m = median(r);
                *sum += m.ln();
                *n += 1;
                *lowest = lowest.min(m);
                format!("{m:.2}")
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
