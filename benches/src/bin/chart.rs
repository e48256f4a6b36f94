//! Draws the SVG chart of a benchmark run's ratios ([`schemac_benches::report::svg`]) from
//! the JSON table the run wrote (`SCHEMAC_BENCH_JSON`), without running it again:
//!
//! ```text
//! cargo run --release -p schemac-benches --bin chart -- BENCHMARKS.json BENCHMARKS.svg
//! ```

use schemac_benches::{paths, report};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [json, svg] = args.as_slice() else {
        eprintln!("usage: chart TABLE.json CHART.svg");
        std::process::exit(2);
    };
    let rows = paths::read_json(Path::new(json)).and_then(|v| report::rows_from_json(&v));
    let rows = match rows {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("chart: {json}: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = std::fs::write(svg, report::svg(&rows)) {
        eprintln!("chart: cannot write {svg}: {e}");
        std::process::exit(1);
    }
}
