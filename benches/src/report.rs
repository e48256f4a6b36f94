//! The tables printed at the end of a benchmark run: the median time per instance of
//! every validator on every workload, the ratios to schemac's generated code (all
//! workloads) and to the hand-written check (MCP workloads), and the geometric means.
//!
//! Ratios only mean something within one run (the machine is shared and noisy), so the
//! table is built from one run's measurements only.

use crate::workloads::Group;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The validators, in column order.
pub const VALIDATORS: [&str; 6] = [
    HANDWRITTEN,
    GENERATED,
    "interpreted",
    "jsonschema",
    "jsonschema-macros",
    "boon",
];

/// The hand-written check's column.
pub const HANDWRITTEN: &str = "hand-written";
/// schemac's generated code's column.
pub const GENERATED: &str = "generated";

/// The target: generated code at most this many times the hand-written check.
pub const HANDWRITTEN_TARGET: f64 = 1.3;

/// One workload's measurements.
#[derive(Debug, Clone)]
pub struct Row {
    /// The workload.
    pub workload: String,
    /// Its family.
    pub group: Group,
    /// Instances per iteration.
    pub instances: usize,
    /// Median nanoseconds per instance, by validator (absent: not measured).
    pub ns: BTreeMap<String, f64>,
    /// By validator, how many instances it gave a verdict other than schemac's
    /// interpreter (absent or 0: none). Its time is then not comparable.
    pub wrong: BTreeMap<String, usize>,
}

impl Row {
    fn ratio(&self, validator: &str, base: &str) -> Option<f64> {
        let (v, b) = (self.ns.get(validator)?, self.ns.get(base)?);
        (*b > 0.0).then(|| v / b)
    }
}

fn geomean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let sum: f64 = values.iter().map(|v| v.ln()).sum();
    Some((sum / values.len() as f64).exp())
}

fn cell(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) => format!("{v:.decimals$}"),
        None => "-".to_string(),
    }
}

fn header(out: &mut String, first: &str, columns: &[&str]) {
    let _ = write!(out, "| {first} |");
    for c in columns {
        let _ = write!(out, " {c} |");
    }
    out.push_str("\n|---|");
    for _ in columns {
        out.push_str("---:|");
    }
    out.push('\n');
}

/// A ratio table: each validator's time divided by `base`'s, one line per row of
/// `rows`, then the geometric mean of each column over the rows of each group in
/// `means` (and over all of them).
fn ratio_table(out: &mut String, rows: &[&Row], base: &str, means: &[(Group, &str)]) {
    let columns: Vec<&str> = VALIDATORS.iter().copied().filter(|v| *v != base).collect();
    header(out, "workload", &columns);
    for row in rows {
        let _ = write!(out, "| {} |", row.workload);
        for c in &columns {
            let _ = write!(out, " {} |", cell(row.ratio(c, base), 2));
        }
        out.push('\n');
    }
    let mut groups: Vec<(Option<Group>, &str)> =
        means.iter().map(|(g, name)| (Some(*g), *name)).collect();
    if means.len() > 1 {
        groups.push((None, "all"));
    }
    for (group, name) in groups {
        let _ = write!(out, "| geomean {name} |");
        for c in &columns {
            let ratios: Vec<f64> = rows
                .iter()
                .filter(|r| group.is_none_or(|g| r.group == g))
                .filter_map(|r| r.ratio(c, base))
                .collect();
            let _ = write!(out, " {} |", cell(geomean(&ratios), 2));
        }
        out.push('\n');
    }
}

/// The measurements as JSON, for `SCHEMAC_BENCH_JSON`: `{"workloads": [{"name",
/// "instances", "ns": {validator: median ns per instance}, "wrong": {validator: instances
/// with another verdict than schemac's}}]}`; a figure not measured is absent.
pub fn json(rows: &[Row]) -> serde_json::Value {
    let workloads: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            serde_json::json!({
                "name": row.workload,
                "instances": row.instances,
                "ns": row.ns,
                "wrong": row.wrong.iter().filter(|(_, n)| **n > 0).collect::<BTreeMap<_, _>>(),
            })
        })
        .collect();
    serde_json::json!({ "workloads": workloads })
}

/// Renders the three tables (Markdown) and the targets' verdicts.
pub fn render(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "Median ns per instance (one run; ratios below are within this run only; \
         `!N`: wrong verdict on N instances, time not comparable)\n\n",
    );
    let mut columns = vec!["n"];
    columns.extend(VALIDATORS);
    header(&mut out, "workload", &columns);
    for row in rows {
        let _ = write!(out, "| {} | {} |", row.workload, row.instances);
        for v in VALIDATORS {
            let wrong = match row.wrong.get(v) {
                Some(n) if *n > 0 => format!(" !{n}"),
                _ => String::new(),
            };
            let _ = write!(out, " {}{wrong} |", cell(row.ns.get(v).copied(), 1));
        }
        out.push('\n');
    }

    out.push_str("\nRatio to schemac generated (> 1: slower than generated)\n\n");
    let all: Vec<&Row> = rows.iter().collect();
    ratio_table(
        &mut out,
        &all,
        GENERATED,
        &[
            (Group::Mcp, "mcp"),
            (Group::Corpus, "corpus"),
            (Group::Large, "large"),
        ],
    );

    let mcp: Vec<&Row> = rows.iter().filter(|r| r.group == Group::Mcp).collect();
    if !mcp.is_empty() {
        out.push_str("\nRatio to hand-written (MCP workloads)\n\n");
        ratio_table(&mut out, &mcp, HANDWRITTEN, &[(Group::Mcp, "mcp")]);
    }

    out.push_str("\nTargets\n\n");
    for row in rows {
        let Some(generated) = row.ns.get(GENERATED) else {
            let _ = writeln!(out, "- {}: no generated code measured", row.workload);
            continue;
        };
        let slower_peers: Vec<&str> = ["jsonschema", "jsonschema-macros", "boon"]
            .into_iter()
            .filter(|p| row.ns.get(*p).is_some_and(|t| t <= generated))
            .collect();
        let mut verdicts = Vec::new();
        if let Some(n) = row.wrong.get(GENERATED).filter(|n| **n > 0) {
            verdicts.push(format!("generated WRONG on {n} instance(s)"));
        }
        if slower_peers.is_empty() {
            verdicts.push("faster than every peer".to_string());
        } else {
            verdicts.push(format!("NOT faster than {}", slower_peers.join(", ")));
        }
        if let Some(r) = row.ratio(GENERATED, HANDWRITTEN) {
            if r <= HANDWRITTEN_TARGET {
                verdicts.push(format!(
                    "{r:.2}x hand-written (target <= {HANDWRITTEN_TARGET})"
                ));
            } else {
                verdicts.push(format!(
                    "{r:.2}x hand-written: ABOVE the target {HANDWRITTEN_TARGET}"
                ));
            }
        }
        let _ = writeln!(out, "- {}: {}", row.workload, verdicts.join("; "));
    }
    out
}
