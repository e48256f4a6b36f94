//! The benchmark: per workload (one criterion group), the time of one pass of `is_valid`
//! over all its instances, for every validator (`peers/mod.rs`), all in the same run.
//! At the end it prints the median time per instance and the ratio tables
//! (`schemac_benches::report`) built from this run's measurements only.
//!
//! ```text
//! cargo bench -p schemac-benches -- --warm-up-time 1 --measurement-time 2
//! cargo bench -p schemac-benches -- w1_mcp_tool     # criterion's filter
//! ```
//!
//! `SCHEMAC_BENCH_JSON=PATH` also writes the measurements as JSON (`report::json`) and
//! the SVG chart of the ratios (`report::svg`) beside them (PATH with the extension
//! `.svg`), or where `SCHEMAC_BENCH_SVG=PATH` says.
//!
//! criterion writes under `<target>/tmp/criterion` (not `target/criterion`, so that the
//! table reads only this benchmark's files); a file older than this run is ignored.

#[path = "../peers/mod.rs"]
mod peers;

use criterion::Criterion;
use schemac_benches::report::{self, Row};
use schemac_benches::workloads::{self, Workload};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

fn main() {
    let (shared, workloads) = workloads::load_shared_or_exit();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("criterion");
    let start = SystemTime::now();
    let mut criterion = Criterion::default()
        .output_directory(&out_dir)
        .sample_size(20)
        .configure_from_args();

    let mut notes = Vec::new();
    let mut measured = Vec::new();
    let mut wrong_by_workload = BTreeMap::new();
    for workload in &workloads {
        let validators = peers::validators(&shared, workload);
        let wrong = wrong_verdicts(workload, &validators);
        for (name, why) in &validators.missing {
            // The first error is enough here; `tests/differential.rs` has them all.
            let first: String = why
                .split("; ")
                .next()
                .unwrap_or_default()
                .chars()
                .take(300)
                .collect();
            notes.push(format!("{}: no {name}: {first}", workload.name));
        }
        wrong_by_workload.insert(workload.name.clone(), wrong);
        let mut group = criterion.benchmark_group(&workload.name);
        for validator in &validators.list {
            group.bench_function(validator.name, |b| {
                b.iter(|| {
                    let mut valid = 0usize;
                    for instance in &workload.instances {
                        valid += usize::from((validator.is_valid)(black_box(instance)));
                    }
                    valid
                })
            });
        }
        group.finish();
        measured.push((
            workload,
            validators.list.iter().map(|v| v.name).collect::<Vec<_>>(),
        ));
    }
    criterion.final_summary();

    let mut rows = Vec::new();
    for (workload, names) in measured {
        let mut ns = BTreeMap::new();
        for name in names {
            if let Some(median) = fresh_median(&out_dir, &workload.name, name, start) {
                ns.insert(name.to_string(), median / workload.instances.len() as f64);
            }
        }
        if !ns.is_empty() {
            rows.push(Row {
                workload: workload.name.clone(),
                group: workload.group,
                instances: workload.instances.len(),
                ns,
                wrong: wrong_by_workload.remove(&workload.name).unwrap_or_default(),
            });
        }
    }
    if rows.is_empty() {
        return;
    }
    println!("\n{}", report::render(&rows));
    let json_path = std::env::var_os("SCHEMAC_BENCH_JSON").filter(|p| !p.is_empty());
    if let Some(path) = &json_path {
        write_or_exit(Path::new(path), &report::json(&rows).to_string());
    }
    // The chart: at `SCHEMAC_BENCH_SVG`, else beside the JSON table.
    let svg_path = std::env::var_os("SCHEMAC_BENCH_SVG")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| json_path.map(|p| Path::new(&p).with_extension("svg")));
    if let Some(path) = svg_path {
        write_or_exit(&path, &report::svg(&rows));
    }
    for note in notes {
        println!("note: {note}");
    }
}

fn write_or_exit(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(2);
    }
}

/// By validator, the number of instances of `workload` on which it disagrees with
/// schemac's interpreter (the generated code where the interpreter is missing, the data's
/// source where both are); `tests/differential.rs` lists them with their reasons.
fn wrong_verdicts(workload: &Workload, validators: &peers::Validators) -> BTreeMap<String, usize> {
    let reference = validators
        .get("interpreted")
        .or_else(|| validators.get(report::GENERATED));
    let mut wrong = BTreeMap::new();
    for instance in &workload.instances {
        let Some(expected) = reference
            .map(|r| (r.is_valid)(instance))
            .or(workload.expected_valid)
        else {
            continue;
        };
        for v in &validators.list {
            if (v.is_valid)(instance) != expected {
                *wrong.entry(v.name.to_string()).or_insert(0) += 1;
            }
        }
    }
    wrong
}

/// The median (ns per iteration) criterion estimated for `group/function` in this run.
fn fresh_median(out_dir: &Path, group: &str, function: &str, start: SystemTime) -> Option<f64> {
    let path = out_dir
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < start {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&text).ok()?;
    estimates.pointer("/median/point_estimate")?.as_f64()
}
