//! Every validator agrees with schemac on every benchmark instance.
//!
//! Per workload and instance, the reference verdict is schemac's: its interpreter's
//! `is_valid` (the generated code where the interpreter is missing). The generated code,
//! the hand-written check (MCP workloads) and the peers jsonschema, jsonschema-macros and
//! boon must give the same, and schemac must agree with the data's source (`valid.json`
//! valid, `invalid.json` invalid, every corpus and large instance valid). The generated
//! code against the interpreter is thus the backends' parity check, and every peer is
//! held to the same reference.
//!
//! A disagreement is allowed only when listed in [`KNOWN`] — by validator and workload,
//! with the exact number of instances and the reason; a listed one that no longer
//! happens (or happens on a different number of instances) fails too, so the list stays
//! exact. A schema schemac refuses to compile is allowed only when listed in
//! [`REFUSED`]; its peers are then held to the data's source.

#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::report::GENERATED;
use schemac_benches::{generated, paths, workloads};
use std::collections::BTreeMap;

/// Known disagreements with the reference: `(validator, workload, instances, reason)`.
const KNOWN: &[(&str, &str, usize, &str)] = &[(
    "jsonschema-macros",
    "vercel",
    1,
    "jsonschema-macros 0.60.2 drops the `type: array` check of a subschema that also \
         has `maxLength`, so a string passes both branches of a `oneOf` (instance #534; \
         see bench-corpus/ABOUT.md)",
)];

/// Schemas schemac refuses (both backends): `(module, reason)`.
/// Empty: krakend, whose `definitions` bundle 78 documents that keep their draft-07
/// `$schema` without an `$id`, compiles with one warning since `$schema` naming the dialect
/// in force is ignored in a subschema that is not a resource root.
const REFUSED: &[(&str, &str)] = &[];

#[test]
fn every_validator_agrees_with_schemac_on_every_instance() {
    let shared = paths::shared_dir().unwrap();
    let workloads = workloads::load(&shared).unwrap();
    let mut problems = Vec::new();
    // Everything schemac refused to generate that is not listed is a failure.
    let refused: Vec<&str> = generated::NOT_GENERATED.iter().map(|(m, _)| *m).collect();
    let listed: Vec<&str> = REFUSED.iter().map(|(m, _)| *m).collect();
    if refused != listed {
        problems.push(format!(
            "schemac refused {refused:?}, expected {listed:?}: {:?}",
            generated::NOT_GENERATED
        ));
    }
    // (validator, workload) -> indices of the instances where it disagrees.
    let mut disagreements: BTreeMap<(&str, String), Vec<usize>> = BTreeMap::new();
    let mut verdicts = 0usize;
    for workload in &workloads {
        let validators = peers::validators(&shared, workload);
        let is_refused = listed.contains(&workload.module);
        for (name, why) in &validators.missing {
            let schemac = *name == GENERATED || *name == "interpreted";
            if !(schemac && is_refused) {
                problems.push(format!("{}: no {name} validator: {why}", workload.name));
            }
        }
        let reference = validators
            .get("interpreted")
            .or_else(|| validators.get(GENERATED));
        if reference.is_none() && !is_refused {
            problems.push(format!("{}: no schemac validator", workload.name));
            continue;
        }
        for (index, instance) in workload.instances.iter().enumerate() {
            let source = workload.expected_valid;
            let expected = match (reference, source) {
                (Some(reference), _) => (reference.is_valid)(instance),
                (None, Some(source)) => source,
                (None, None) => continue,
            };
            if source.is_some_and(|source| source != expected) {
                problems.push(format!(
                    "{} #{index}: schemac says {expected}, the data's source {source:?}",
                    workload.name
                ));
            }
            for validator in &validators.list {
                verdicts += 1;
                if (validator.is_valid)(instance) != expected {
                    disagreements
                        .entry((validator.name, workload.name.clone()))
                        .or_default()
                        .push(index);
                }
            }
        }
    }
    for ((validator, workload), indices) in &disagreements {
        let known = KNOWN
            .iter()
            .find(|(v, w, _, _)| v == validator && w == workload);
        if known.is_none_or(|(_, _, count, _)| *count != indices.len()) {
            let first: Vec<String> = indices.iter().take(12).map(|i| format!("#{i}")).collect();
            problems.push(format!(
                "{validator} disagrees with schemac on {} instance(s) of {workload} \
                 (listed: {}): {}",
                indices.len(),
                known.map_or(0, |k| k.2),
                first.join(" ")
            ));
        }
    }
    for (validator, workload, count, reason) in KNOWN {
        if !disagreements.contains_key(&(*validator, workload.to_string())) {
            problems.push(format!(
                "listed disagreement no longer happens: {validator} on {count} instance(s) \
                 of {workload} ({reason})"
            ));
        }
    }
    // 15903 corpus instances, each through at least four validators.
    if verdicts < 15903 * 4 {
        problems.push(format!("only {verdicts} verdicts compared"));
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
