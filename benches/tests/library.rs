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
    // With the feature `realworld`, every real-world case with instances (95 of the 131)
    // is a workload of its own.
    let realworld: usize = workloads
        .iter()
        .filter(|w| w.group == Group::Realworld)
        .map(|w| w.instances.len())
        .sum();
    if cfg!(feature = "realworld") {
        assert_eq!(count(Group::Realworld), 95);
        assert_eq!(realworld, 1089, "the real-world instance count");
    } else {
        assert_eq!(count(Group::Realworld), 0);
    }
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

/// The element names of `svg` in document order, checking that every element that opens
/// is closed in order (a small well-formedness test): `(name, attributes and content)`.
fn svg_elements(svg: &str) -> Vec<(String, String)> {
    let mut stack: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("a tag is closed") + start;
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "closing tag in order");
        } else {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let content_end = rest[end..].find('<').map_or(rest.len(), |i| i + end);
            elements.push((
                name.clone(),
                format!("{tag}>{}", &rest[end + 1..content_end]),
            ));
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    elements
}

#[test]
fn svg_chart_has_one_bar_per_measured_ratio_and_is_well_formed() {
    let mut rows = vec![
        row(
            "w1-valid",
            Group::Mcp,
            &[
                (HANDWRITTEN, 5.0),
                (GENERATED, 10.0),
                ("interpreted", 40.0),
                ("jsonschema", 30.0),
                ("jsonschema-macros", 20.0),
                ("boon", 1000.0),
            ],
        ),
        row(
            "a<b&c",
            Group::Corpus,
            &[(GENERATED, 10.0), ("jsonschema", 5.0)],
        ),
    ];
    rows[1].wrong.insert("jsonschema".to_string(), 3);
    let svg = schemac_benches::report::svg(&rows);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.ends_with("</svg>\n"));
    let elements = svg_elements(&svg);
    assert_eq!(elements[0].0, "svg");
    // A bar is a `rect` with a `title` inside: `(rect, title)`.
    let bars: Vec<(&str, &str)> = elements
        .windows(2)
        .filter(|w| w[0].0 == "rect" && w[1].0 == "title")
        .map(|w| (w[0].1.as_str(), w[1].1.trim_start_matches("title>")))
        .collect();
    // 5 + 1 ratios, then the geometric mean of each peer (jsonschema's over both rows).
    assert_eq!(bars.len(), 5 + 1 + 5);
    let titles: Vec<&str> = bars.iter().map(|b| b.1).collect();
    for expected in [
        "w1-valid: jsonschema-macros 2.00x",
        "w1-valid: jsonschema 3.00x",
        "w1-valid: boon 100.00x",
        "w1-valid: interpreted 4.00x",
        "w1-valid: hand-written 0.50x",
        "a&lt;b&amp;c: jsonschema 0.50x (wrong verdict on 3 instances: not comparable)",
        "geometric mean: jsonschema 1.22x",
        "geometric mean: boon 100.00x",
    ] {
        assert!(titles.contains(&expected), "{expected} in {titles:?}");
    }
    // Labels: every workload, the legend, and the decades from 0.1 to 1000 (boon's 100x
    // reaches the decade 100, the scale spans at least 0.1 to 10).
    let texts: Vec<&str> = elements
        .iter()
        .filter(|(name, _)| name == "text")
        .map(|(_, text)| &text[text.find('>').unwrap() + 1..])
        .collect();
    for expected in [
        "w1-valid",
        "a&lt;b&amp;c",
        "geometric mean",
        "geometric means (each over the workloads it ran): \
         jsonschema-macros 2.00x, jsonschema 1.22x, boon 100.00x, \
         interpreted 4.00x, hand-written 0.50x",
        "boon",
        "hand-written",
        "0.1",
        "1",
        "100",
    ] {
        assert!(texts.contains(&expected), "{expected} in {texts:?}");
    }
    assert!(
        !texts.contains(&"1000"),
        "the scale ends at the last decade used"
    );
    // Bars of ratios above 1 start at the line of 1, those below end there.
    let x_of = |text: &str, attr: &str| -> f64 {
        let at = text.find(&format!(" {attr}=\"")).unwrap() + attr.len() + 3;
        text[at..at + text[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let bar = |title: &str| bars.iter().find(|b| b.1.starts_with(title)).unwrap().0;
    let (faster, slower) = (bar("w1-valid: boon"), bar("w1-valid: hand-written"));
    let one = x_of(faster, "x");
    assert!((x_of(slower, "x") + x_of(slower, "width") - one).abs() < 0.2);
    assert!(x_of(faster, "width") > 2.0 * x_of(slower, "width"));
}

#[test]
fn json_table_reads_back_into_rows() {
    let mut rows = vec![
        row(
            "w1_mcp_tool-valid",
            Group::Mcp,
            &[(HANDWRITTEN, 10.0), (GENERATED, 12.0)],
        ),
        row("citm_catalog", Group::Large, &[(GENERATED, 1.5)]),
        row("cql2", Group::Corpus, &[(GENERATED, 2.0), ("boon", 9.0)]),
    ];
    rows[2].wrong.insert("boon".to_string(), 2);
    let value = schemac_benches::report::json(&rows);
    let back = schemac_benches::report::rows_from_json(&value).unwrap();
    assert_eq!(back.len(), rows.len());
    for (a, b) in rows.iter().zip(&back) {
        assert_eq!(a.workload, b.workload);
        assert_eq!(a.group, b.group);
        assert_eq!(a.instances, b.instances);
        assert_eq!(a.ns, b.ns);
        assert_eq!(a.wrong, b.wrong);
    }
    assert!(schemac_benches::report::rows_from_json(&serde_json::json!({})).is_err());
}
