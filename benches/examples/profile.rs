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
//!
//! The validator `generated-bytes` is generated code's `is_valid_json` on each instance's
//! JSON text (as serde_json writes it): validation straight from the bytes.

#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::{generated, workloads};
use std::hint::black_box;

/// `iterations` passes of `is_valid` over `instances`; the number of valid verdicts.
#[inline(never)]
fn passes<T>(is_valid: &dyn Fn(&T) -> bool, instances: &[T], iterations: usize) -> usize {
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
    if validator == "generated-bytes" {
        let Some(is_valid_json) = generated::is_valid_json_fn(workload.module) else {
            eprintln!("no generated code for {}", workload.name);
            std::process::exit(2);
        };
        let texts: Vec<Vec<u8>> = (workload.instances.iter())
            .map(|v| serde_json::to_vec(v).expect("a Value serializes"))
            .collect();
        let valid = passes(&|t: &Vec<u8>| is_valid_json(t), &texts, iterations);
        println!("{valid} valid of {}", texts.len() * iterations);
        return;
    }
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
