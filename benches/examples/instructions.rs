//! Runs one validator over one workload's instances, `ROUNDS` times, for instruction
//! counts (callgrind's totals are steady on a noisy machine, unlike times):
//!
//! ```text
//! cargo build --release -p schemac-benches --example instructions
//! valgrind --tool=callgrind --toggle-collect='instructions::run' \
//!     target/release/examples/instructions cql2 generated 10
//! ```
//!
//! `--toggle-collect` counts only [`run`], not loading the workloads, building the
//! validators or a first pass over the instances (which warms lazy initialization up). Without arguments it lists the workloads and validators.

#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::paths;
use schemac_benches::workloads::{self, Workload};
use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shared = match paths::shared_dir() {
        Ok(dir) => dir,
        Err(e) => return fail(&e),
    };
    let workloads = match workloads::load(&shared) {
        Ok(w) => w,
        Err(e) => return fail(&e),
    };
    let [workload, validator, rounds] = args.as_slice() else {
        let names: Vec<&str> = workloads.iter().map(|w| w.name.as_str()).collect();
        return fail(&format!(
            "usage: instructions WORKLOAD VALIDATOR ROUNDS\nworkloads: {}\nvalidators: {}",
            names.join(" "),
            schemac_benches::report::VALIDATORS.join(" ")
        ));
    };
    let Some(workload) = workloads.iter().find(|w| &w.name == workload) else {
        return fail(&format!("no workload `{workload}`"));
    };
    let Ok(rounds) = rounds.parse::<usize>() else {
        return fail(&format!("ROUNDS must be a count, not `{rounds}`"));
    };
    let validators = peers::validators(&shared, workload);
    let Some(check) = validators.get(validator) else {
        let why = validators
            .missing
            .iter()
            .find(|(name, _)| name == validator)
            .map_or("not a validator name", |(_, why)| why.as_str());
        return fail(&format!("no {validator} for {}: {why}", workload.name));
    };
    // One pass outside the count: lazy initialization (jsonschema-macros compiles its
    // regexes on first use) is not what is measured.
    for instance in &workload.instances {
        black_box((check.is_valid)(black_box(instance)));
    }
    let valid = run(workload, &check.is_valid, rounds);
    println!(
        "{} {validator}: {valid} valid verdicts in {rounds} rounds of {} instances",
        workload.name,
        workload.instances.len()
    );
    ExitCode::SUCCESS
}

/// The measured part: `rounds` passes of `is_valid` over the workload's instances.
#[inline(never)]
fn run(workload: &Workload, is_valid: &peers::Check, rounds: usize) -> usize {
    let mut valid = 0;
    for _ in 0..rounds {
        for instance in &workload.instances {
            valid += usize::from(is_valid(black_box(instance)));
        }
    }
    valid
}

fn fail(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(2)
}
