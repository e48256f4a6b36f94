//! Compile latency: what a caller waits before the first verdict on a schema that arrives
//! at run time (an MCP client per `tools/list`, every run-time user once). Per schema of
//! both groups (the benchmark's and `realworld`), the median over ROUNDS of compiling it
//! with schemac's interpreter (a `Compiler` with the meta-schemas registered, made once:
//! `compile_named` + `Interpreter::new`), with jsonschema 0.61.2 (`options().build`) and
//! with boon; then the same plus validating the workload's first instance ("first
//! call"), and a 100-tool list (every MCP tool schema of `realworld/` and
//! `bench-mcp/`, repeated up to 100) compiled tool by tool.
//!
//! ```text
//! cargo run --release -p schemac-benches --example compile [-- [ROUNDS] [FILTER]]
//! ```
//!
//! ROUNDS (default 15); FILTER keeps the workloads whose name contains it. It prints a
//! Markdown table of medians (µs) and ratios (peer / schemac: > 1, schemac is faster),
//! and per group the geometric mean and the lowest ratio.

/// The peers (of which only the compile functions `jsonschema` and `boon` are used here).
#[allow(dead_code)]
#[path = "../peers/mod.rs"]
mod peers;

use schemac_benches::workloads::{self, Group, Workload};
use schemac_benches::{interpreted, paths};
use schemac_runtime::Validate;
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// The compilers timed, in column order.
const COLUMNS: [&str; 3] = ["schemac", "jsonschema", "boon"];

/// Compiles `workload`'s schema with the column's compiler and, if `first` is given,
/// validates it once; `None` where that compiler refuses the schema.
fn compile_once(
    column: &str,
    compiler: &schemac::Compiler,
    workload: &Workload,
    first: Option<&Value>,
) -> Option<bool> {
    let valid = |is_valid: &dyn Fn(&Value) -> bool| first.is_none_or(|v| is_valid(black_box(v)));
    match column {
        "schemac" => {
            let validator =
                interpreted::interpreter(compiler, workload.module, &workload.schema).ok()?;
            Some(valid(&|v| validator.is_valid(v)))
        }
        "jsonschema" => peers::jsonschema(&workload.schema)
            .ok()
            .map(|check| valid(&check)),
        _ => peers::boon(&workload.schema_path, &workload.schema)
            .ok()
            .map(|check| valid(&check)),
    }
}

/// The median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Per column, the median microseconds of `rounds` runs of `run` (`None`: refused).
fn medians(rounds: usize, mut run: impl FnMut(&str) -> Option<bool>) -> Vec<Option<f64>> {
    COLUMNS
        .iter()
        .map(|column| {
            run(column)?;
            let mut times: Vec<f64> = (0..rounds)
                .map(|_| {
                    let start = Instant::now();
                    black_box(run(column));
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            Some(median(&mut times))
        })
        .collect()
}

/// Per group and per peer: the sum of the logarithms of the ratios, their number, the
/// lowest ratio.
type Summary = Vec<Vec<(f64, usize, f64)>>;

/// Prints one row (medians and peer / schemac ratios) and adds its ratios to `summary`.
fn row(name: &str, group: usize, times: &[Option<f64>], summary: &mut Summary) {
    let mut cells: Vec<String> = times
        .iter()
        .map(|t| t.map_or("–".to_string(), |t| format!("{t:.0}")))
        .collect();
    for (peer, slot) in times[1..].iter().zip(&mut summary[group]) {
        match (times[0], peer) {
            (Some(own), Some(peer)) => {
                let ratio = peer / own;
                slot.0 += ratio.ln();
                slot.1 += 1;
                slot.2 = slot.2.min(ratio);
                cells.push(format!("{ratio:.2}"));
            }
            _ => cells.push("–".to_string()),
        }
    }
    println!("| {name} | {} |", cells.join(" | "));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = match args.first().map(|a| a.parse()) {
        None => 15,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: compile [ROUNDS (a positive number)] [FILTER]");
            std::process::exit(2);
        }
    };
    let filter = args.get(1).map(String::as_str).unwrap_or("");
    let (shared, all) = workloads::load_shared_or_exit();
    let compiler = interpreted::compiler(&shared).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    // One workload per schema (the MCP schemas have a valid and an invalid one).
    let mut seen = Vec::new();
    let schemas: Vec<&Workload> = all
        .iter()
        .filter(|w| {
            w.name.contains(filter) && !seen.contains(&w.module) && {
                seen.push(w.module);
                true
            }
        })
        .collect();
    let groups = ["benchmark", "realworld"];
    let group_of = |w: &Workload| usize::from(w.group == Group::Realworld);
    for (title, first_call) in [
        ("Compile", false),
        ("First call (compile, then one validation)", true),
    ] {
        println!(
            "\n{title}, median of {rounds} (µs); ratio = peer / schemac (> 1: schemac is faster)\n"
        );
        println!(
            "| schema | schemac | jsonschema | boon | jsonschema / schemac | boon / schemac |"
        );
        println!("|---|---:|---:|---:|---:|---:|");
        let mut summary: Summary = vec![vec![(0.0, 0, f64::INFINITY); 2]; groups.len()];
        for w in &schemas {
            let first = first_call.then(|| w.instances.first()).flatten();
            let times = medians(rounds, |column| compile_once(column, &compiler, w, first));
            row(&w.name, group_of(w), &times, &mut summary);
        }
        for (name, peers) in groups.iter().zip(&summary) {
            let means: Vec<String> = peers
                .iter()
                .map(|&(sum, n, lowest)| match n {
                    0 => "–".to_string(),
                    n => format!(
                        "**{:.3}** ({n}; lowest {lowest:.2})",
                        (sum / n as f64).exp()
                    ),
                })
                .collect();
            println!(
                "| **geometric mean, {name}** | | | | {} |",
                means.join(" | ")
            );
        }
    }
    tool_list(&shared, &compiler, rounds);
}

/// A 100-tool list: every MCP tool schema (`realworld/cases/mcp-tool-*` and the
/// benchmark's `bench-mcp/`), repeated until there are 100, each compiled on its own.
fn tool_list(shared: &std::path::Path, compiler: &schemac::Compiler, rounds: usize) {
    let mut tools: Vec<(String, Value)> = Vec::new();
    let cases = shared.join("realworld/cases");
    let mut dirs: Vec<_> = std::fs::read_dir(&cases)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    for dir in dirs.iter().filter(|d| {
        d.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("mcp-tool"))
    }) {
        if let Ok(schema) = paths::read_json(&dir.join("schema.json")) {
            tools.push((dir.display().to_string(), schema));
        }
    }
    if tools.is_empty() {
        eprintln!("{}: no mcp-tool-* case", cases.display());
        std::process::exit(2);
    }
    let list: Vec<&(String, Value)> = tools.iter().cycle().take(100).collect();
    let time = |compile: &dyn Fn(&str, &Value) -> bool| {
        let mut times: Vec<f64> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let compiled = list
                    .iter()
                    .filter(|(name, schema)| compile(name, schema))
                    .count();
                black_box(compiled);
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        median(&mut times)
    };
    let own = time(&|name, schema| interpreted::interpreter(compiler, name, schema).is_ok());
    let js = time(&|_, schema| peers::jsonschema(schema).is_ok());
    let boon = time(&|name, schema| peers::boon(std::path::Path::new(name), schema).is_ok());
    println!(
        "\n100-tool list ({} distinct MCP tool schemas), median of {rounds} (ms): schemac {own:.2}, \
         jsonschema {js:.2} ({:.2}x), boon {boon:.2} ({:.2}x)",
        tools.len(),
        js / own,
        boon / own
    );
}
