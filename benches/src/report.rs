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
            (Group::Realworld, "realworld"),
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

/// The peers of the SVG chart, in bar order, with their colours.
const CHART_PEERS: [(&str, &str); 5] = [
    ("jsonschema-macros", "#4e79a7"),
    ("jsonschema", "#f28e2b"),
    ("boon", "#e15759"),
    ("interpreted", "#76b7b2"),
    (HANDWRITTEN, "#59a14f"),
];

/// Escapes text for SVG (XML) content and attribute values.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A tick label for `10^exponent`: `0.01`, `0.1`, `1`, `10`, `100`, ...
fn power_label(exponent: i32) -> String {
    if exponent >= 0 {
        format!("{}", 10u64.pow(exponent.unsigned_abs()))
    } else {
        format!(
            "{:.*}",
            exponent.unsigned_abs() as usize,
            10f64.powi(exponent)
        )
    }
}

/// A horizontal bar chart (SVG text) of the speed ratios of the generated code against
/// each peer: per workload, one bar per peer of the peer's time divided by the generated
/// code's (so > 1: the generated code is that many times faster), on a log scale with
/// bars from 1; the last band is the geometric mean over all rows. A missing figure has
/// no bar; a peer with wrong verdicts on the workload is drawn faded, its tooltip says so.
pub fn svg(rows: &[Row]) -> String {
    const WIDTH: f64 = 860.0;
    const LEFT: f64 = 170.0;
    const RIGHT: f64 = 40.0;
    const TOP: f64 = 76.0;
    const BAR: f64 = 4.0;
    const GAP: f64 = 8.0;
    let band = BAR * CHART_PEERS.len() as f64 + GAP;

    // Each band: its label and, per peer, the ratio and the wrong-verdict count.
    type Bars = Vec<Option<(f64, usize)>>;
    let mut bands: Vec<(String, Bars)> = rows
        .iter()
        .map(|row| {
            let bars = CHART_PEERS
                .iter()
                .map(|(peer, _)| {
                    let ratio = row.ratio(peer, GENERATED)?;
                    (ratio > 0.0 && ratio.is_finite())
                        .then(|| (ratio, row.wrong.get(*peer).copied().unwrap_or(0)))
                })
                .collect();
            (row.workload.clone(), bars)
        })
        .collect();
    let means: Bars = (0..CHART_PEERS.len())
        .map(|i| {
            let ratios: Vec<f64> = bands
                .iter()
                .filter_map(|(_, b)| b[i])
                .map(|b| b.0)
                .collect();
            geomean(&ratios).map(|g| (g, 0))
        })
        .collect();
    bands.push(("geometric mean".to_string(), means));

    // The scale: whole decades around every ratio and 1.
    let (mut lo, mut hi) = (0i32, 0i32);
    for (ratio, _) in bands.iter().flat_map(|(_, b)| b.iter().flatten()) {
        lo = lo.min(ratio.log10().floor() as i32);
        hi = hi.max(ratio.log10().ceil() as i32);
    }
    let (lo, hi) = (lo.min(-1), hi.max(1));
    let plot = WIDTH - LEFT - RIGHT;
    let x = |ratio: f64| LEFT + (ratio.log10() - f64::from(lo)) / f64::from(hi - lo) * plot;
    let bottom = TOP + band * bands.len() as f64 + 2.0;
    let height = bottom + 24.0;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"18\" font-size=\"13\" font-weight=\"bold\">Peer time / schemac \
         generated time (log scale; &gt; 1: generated is that many times faster)</text>"
    );
    // The legend.
    let mut lx = LEFT;
    for (peer, colour) in CHART_PEERS {
        let _ = writeln!(
            out,
            "<rect x=\"{lx}\" y=\"30\" width=\"10\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"39\">{}</text>",
            lx + 14.0,
            xml_escape(peer)
        );
        lx += 26.0 + 7.0 * peer.len() as f64;
    }
    // Gridlines: every decade labelled, 2x and 5x faint.
    for exponent in lo..=hi {
        let base = 10f64.powi(exponent);
        let gx = x(base);
        let stroke = if exponent == 0 { "#000" } else { "#bbb" };
        let _ = writeln!(
            out,
            "<line x1=\"{gx:.1}\" y1=\"{}\" x2=\"{gx:.1}\" y2=\"{bottom}\" stroke=\"{stroke}\"/>\
             <text x=\"{gx:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            TOP - 8.0,
            TOP - 11.0,
            power_label(exponent)
        );
        if exponent < hi {
            for minor in [2.0, 5.0] {
                let mx = x(base * minor);
                let _ = writeln!(
                    out,
                    "<line x1=\"{mx:.1}\" y1=\"{}\" x2=\"{mx:.1}\" y2=\"{bottom}\" stroke=\"#eee\"/>",
                    TOP - 8.0
                );
            }
        }
    }
    // The bands.
    let one = x(1.0);
    for (i, (label, bars)) in bands.iter().enumerate() {
        let top = TOP + band * i as f64;
        let weight = if i + 1 == bands.len() {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\"{weight}>{}</text>",
            LEFT - 6.0,
            top + (band - GAP) / 2.0 + 4.0,
            xml_escape(label)
        );
        for (j, bar) in bars.iter().enumerate() {
            let Some((ratio, wrong)) = *bar else { continue };
            let (peer, colour) = CHART_PEERS[j];
            let end = x(ratio);
            let (left, width) = if end >= one {
                (one, end - one)
            } else {
                (end, one - end)
            };
            let (faded, note) = if wrong > 0 {
                (
                    " fill-opacity=\"0.35\"",
                    format!(" (wrong verdict on {wrong} instances: not comparable)"),
                )
            } else {
                ("", String::new())
            };
            let _ = writeln!(
                out,
                "<rect x=\"{left:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{BAR}\" \
                 fill=\"{colour}\"{faded}><title>{}: {} {ratio:.2}x{note}</title></rect>",
                top + BAR * j as f64,
                width.max(0.5),
                xml_escape(label),
                xml_escape(peer)
            );
        }
    }
    // The geometric means in figures.
    let means: Vec<String> = CHART_PEERS
        .iter()
        .zip(&bands[bands.len() - 1].1)
        .filter_map(|((peer, _), mean)| mean.map(|(m, _)| format!("{peer} {m:.2}x")))
        .collect();
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"{}\" font-size=\"10\">geometric means (each over the workloads \
         it ran): {}</text>",
        height - 8.0,
        xml_escape(&means.join(", "))
    );
    out.push_str("</svg>\n");
    out
}

/// Reads the JSON table of [`json`] back into rows (the group of each workload from its
/// name, [`crate::workloads::group_of`]), so that a run's charts can be drawn again.
pub fn rows_from_json(value: &serde_json::Value) -> Result<Vec<Row>, String> {
    let workloads = value["workloads"]
        .as_array()
        .ok_or("no `workloads` array")?;
    workloads
        .iter()
        .map(|w| {
            let name = w["name"].as_str().ok_or("a workload without a `name`")?;
            let figures = |key: &str| -> Result<BTreeMap<String, f64>, String> {
                match &w[key] {
                    serde_json::Value::Null => Ok(BTreeMap::new()),
                    serde_json::Value::Object(map) => map
                        .iter()
                        .map(|(k, v)| {
                            v.as_f64()
                                .map(|v| (k.clone(), v))
                                .ok_or_else(|| format!("{name}: `{key}.{k}` is not a number"))
                        })
                        .collect(),
                    _ => Err(format!("{name}: `{key}` is not an object")),
                }
            };
            Ok(Row {
                workload: name.to_string(),
                group: crate::workloads::group_of(name),
                instances: w["instances"].as_u64().unwrap_or(0) as usize,
                ns: figures("ns")?,
                wrong: figures("wrong")?
                    .into_iter()
                    .map(|(k, v)| (k, v as usize))
                    .collect(),
            })
        })
        .collect()
}
