//! The library's own pieces: the workloads load completely, and the report computes
//! ratios, geometric means and the targets' verdicts.

use schemac_benches::paths;
use schemac_benches::report::{render, Row, GENERATED, HANDWRITTEN};
use schemac_benches::workloads::{load, Group};

#[test]
fn every_workload_loads_and_the_corpus_is_complete() {
    let shared = paths::shared_dir().unwrap();
    let workloads = load(&shared).unwrap();
    let count = |g| workloads.iter().filter(|w| w.group == g).count();
    assert_eq!(count(Group::Mcp), 8, "four MCP schemas, valid and invalid");
    assert_eq!(count(Group::Large), 2);
    // Every folder of bench-corpus is in the catalog.
    let mut dirs: Vec<String> = std::fs::read_dir(shared.join("bench-corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("schema.json").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().replace('-', "_"))
        .collect();
    dirs.sort();
    let mut corpus: Vec<String> = workloads
        .iter()
        .filter(|w| w.group == Group::Corpus)
        .map(|w| w.name.clone())
        .collect();
    corpus.sort();
    assert_eq!(corpus, dirs);
    assert_eq!(corpus.len(), 17);
    let instances: usize = workloads
        .iter()
        .filter(|w| w.group == Group::Corpus)
        .map(|w| w.instances.len())
        .sum();
    assert_eq!(instances, 15903, "the corpus's instance count");
    for w in &workloads {
        assert!(
            w.name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'),
            "{} is not a safe benchmark name",
            w.name
        );
    }
}

fn row(workload: &str, group: Group, ns: &[(&str, f64)]) -> Row {
    Row {
        workload: workload.to_string(),
        group,
        instances: 1,
        ns: ns.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        wrong: Default::default(),
    }
}

#[test]
fn ratios_geomeans_and_targets() {
    let mut rows = vec![
        row(
            "w1-valid",
            Group::Mcp,
            &[(HANDWRITTEN, 10.0), (GENERATED, 12.0), ("jsonschema", 48.0)],
        ),
        row("a", Group::Corpus, &[(GENERATED, 10.0), ("boon", 40.0)]),
        row("b", Group::Corpus, &[(GENERATED, 10.0), ("boon", 10.0)]),
    ];
    rows[1].wrong.insert(GENERATED.to_string(), 3);
    let text = render(&rows);
    // jsonschema / generated on w1: 4.00; boon's corpus geomean: sqrt(4 * 1) = 2.
    assert!(
        text.contains("| w1-valid | 0.83 | - | 4.00 | - | - |"),
        "{text}"
    );
    assert!(
        text.contains("| geomean corpus | - | - | - | - | 2.00 |"),
        "{text}"
    );
    // Ratio to hand-written: generated 1.2.
    assert!(
        text.contains("| w1-valid | 1.20 | - | 4.80 | - | - |"),
        "{text}"
    );
    assert!(text.contains("- w1-valid: faster than every peer; 1.20x hand-written"));
    assert!(text.contains("- b: NOT faster than boon"), "{text}");
    assert!(text.contains("| a | 1 | - | 10.0 !3 |"), "{text}");
    assert!(
        text.contains("- a: generated WRONG on 3 instance(s); faster"),
        "{text}"
    );
}

#[test]
fn json_table_has_every_measured_figure_and_wrong_counts() {
    let mut rows = vec![row(
        "w1-valid",
        Group::Mcp,
        &[(HANDWRITTEN, 10.0), (GENERATED, 12.0)],
    )];
    rows[0].wrong.insert("boon".to_string(), 2);
    rows[0].wrong.insert("jsonschema".to_string(), 0);
    let value = schemac_benches::report::json(&rows);
    let w = &value["workloads"][0];
    assert_eq!(w["name"], "w1-valid");
    assert_eq!(w["ns"][GENERATED], 12.0);
    assert_eq!(w["ns"][HANDWRITTEN], 10.0);
    assert!(w["ns"].get("boon").is_none(), "not measured: absent");
    assert_eq!(w["wrong"], serde_json::json!({"boon": 2}));
}
