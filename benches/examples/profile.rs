//! Runs one validator over one workload's instances a number of times, for instruction
//! counts under callgrind (steady on a shared machine, unlike times):
//!
//! ```text
//! cargo build --release -p schemac-benches --example profile
//! valgrind --tool=callgrind --toggle-collect='*profile::passes*' \
//!     target/release/examples/profile w1_mcp_tool-valid interpreted 100
//! ```
//!
//! Only `passes` (the validation loop) is counted with that toggle; loading the workload,
//! building the validators and one warm-up pass (lazy initialization: jsonschema-macros
//! compiles its regexes on first use) are not. It prints the number of valid verdicts.

#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::workloads;
use serde_json::Value;
use std::hint::black_box;

/// `iterations` passes of `is_valid` over `instances`; the number of valid verdicts.
#[inline(never)]
fn passes(is_valid: &dyn Fn(&Value) -> bool, instances: &[Value], iterations: usize) -> usize {
    let mut valid = 0;
    for _ in 0..iterations {
        for instance in instances {
            valid += usize::from(is_valid(black_box(instance)));
        }
    }
    valid
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [workload, validator, rest @ ..] = args.as_slice() else {
        eprintln!("usage: profile WORKLOAD VALIDATOR [ITERATIONS]");
        std::process::exit(2);
    };
    let iterations = rest.first().and_then(|n| n.parse().ok()).unwrap_or(1);
    let (shared, all) = workloads::load_shared_or_exit();
    let Some(workload) = all.iter().find(|w| &w.name == workload) else {
        let names: Vec<&str> = all.iter().map(|w| w.name.as_str()).collect();
        eprintln!("no workload {workload}; one of {}", names.join(" "));
        std::process::exit(2);
    };
    let validators = peers::validators(&shared, workload);
    let Some(v) = validators.get(validator) else {
        let why = validators
            .missing
            .iter()
            .find(|(name, _)| name == validator)
            .map_or("unknown validator", |(_, why)| why.as_str());
        eprintln!("no validator {validator} for {}: {why}", workload.name);
        std::process::exit(2);
    };
    for instance in &workload.instances {
        black_box((v.is_valid)(black_box(instance)));
    }
    let valid = passes(&v.is_valid, &workload.instances, iterations);
    println!("{valid} valid of {}", workload.instances.len() * iterations);
}
