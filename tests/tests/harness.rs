//! The harness's own logic: the expected-failures list (parse, render, problems,
//! blessing), the judging of one case, and the annotation cases' compatibility and
//! schema locations. (Integration tests, not unit tests of the library: a unit-test build
//! would compile the library's generated validators a second time.)

use schemac::Dialect;
use schemac_runtime::{Report, Verdict};
use schemac_tests::evaluation_cases::{compatible, schema_uri};
use schemac_tests::runner::{judge, CaseFailure, ExpectedFailures, SetOutcome, HEADER};
use schemac_tests::suite::SETS;

fn outcome(ids: &[&str], failed: &[&str]) -> SetOutcome {
    SetOutcome {
        backend: "interpreted",
        spec: SETS[0],
        case_ids: ids.iter().map(|s| s.to_string()).collect(),
        passed: ids.len() - failed.len(),
        failed: failed
            .iter()
            .map(|id| CaseFailure {
                id: id.to_string(),
                file: "f.json".into(),
                group: "g".into(),
                test: "t".into(),
                reason: "expected valid;\n check gave invalid".into(),
            })
            .collect(),
        skipped: Vec::new(),
    }
}

#[test]
fn parse_render_round_trip() {
    let text = format!("{HEADER}[interpreted] a/b/c.json/g/t :: because\n");
    let list = ExpectedFailures::parse(&text).unwrap();
    assert_eq!(list.entries.len(), 1);
    assert!(list.contains("interpreted", "a/b/c.json/g/t"));
    assert_eq!(list.render(), text);
}

#[test]
fn parse_rejects_malformed_and_duplicate_lines() {
    assert!(ExpectedFailures::parse("a/b/c :: x").is_err());
    assert!(ExpectedFailures::parse("[interpreted] a/b/c").is_err());
    assert!(ExpectedFailures::parse("[interpreted] a/b/c :: ").is_err());
    let twice = "[i] a :: x\n[i] a :: y\n";
    assert!(ExpectedFailures::parse(twice)
        .unwrap_err()
        .contains("twice"));
}

#[test]
fn problems_find_unlisted_stale_and_unknown_entries() {
    let list = ExpectedFailures::parse(
        "[interpreted] x :: known\n[interpreted] y :: stale\n[interpreted] gone :: old\n",
    )
    .unwrap();
    let outcomes = [outcome(&["x", "y", "z"], &["x", "z"])];
    let problems = list.problems(&outcomes);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].starts_with("unexpected failure [interpreted] z"));
    assert!(problems[1].contains("did not fail: [interpreted] y"));
    assert!(problems[2].contains("no such case was run: [interpreted] gone"));
}

#[test]
fn blessing_keeps_written_reasons_and_drops_passing_cases() {
    let list =
        ExpectedFailures::parse("[interpreted] x :: written\n[interpreted] y :: s\n").unwrap();
    let blessed = list.blessed(&[outcome(&["x", "y", "z"], &["x", "z"])]);
    assert!(blessed
        .problems(&[outcome(&["x", "y", "z"], &["x", "z"])])
        .is_empty());
    let lines: Vec<_> = blessed.render().lines().skip(4).map(String::from).collect();
    assert_eq!(
        lines,
        [
            "[interpreted] x :: written",
            "[interpreted] z :: expected valid; check gave invalid"
        ]
    );
}

#[test]
fn judge_requires_both_paths_and_a_consistent_report() {
    let valid = Report {
        verdict: Verdict::Valid,
        errors: Vec::new(),
        errors_omitted: 0,
        usage: Default::default(),
    };
    assert_eq!(judge(true, &Verdict::Valid, &valid), None);
    let reason = judge(false, &Verdict::Valid, &valid).unwrap();
    assert!(reason.contains("check gave valid") && reason.contains("validate gave valid"));
    let empty_invalid = Report {
        verdict: Verdict::Invalid,
        errors: Vec::new(),
        errors_omitted: 0,
        usage: Default::default(),
    };
    let reason = judge(false, &Verdict::Invalid, &empty_invalid).unwrap();
    assert!(
        reason.contains("report is invalid with 0 errors"),
        "{reason}"
    );
    let incomplete = Verdict::Incomplete(schemac_runtime::IncompleteReason::BudgetExceeded);
    assert!(judge(true, &incomplete, &valid).is_some());
}

#[test]
fn compatibility_constraints() {
    assert!(compatible(None, 4));
    assert!(compatible(Some("7"), 2020));
    assert!(!compatible(Some("7"), 6));
    assert!(compatible(Some("<=2019"), 2019) && !compatible(Some("<=2019"), 2020));
    assert!(compatible(Some("=2020"), 2020) && !compatible(Some("=2020"), 2019));
    assert!(compatible(Some("6,<=2019"), 7) && !compatible(Some("6,<=2019"), 4));
    assert!(!compatible(Some("9999"), 2020));
}

#[test]
fn schema_locations_follow_ids() {
    let schema = serde_json::json!({
        "$id": "https://x/main",
        "$defs": {"a": {"$id": "a", "$defs": {"b": {"title": "B"}}}, "c": {"^x": {}}}
    });
    let at = |r| schema_uri(&schema, r, Dialect::Draft2020_12);
    assert_eq!(at("#").as_deref(), Some("https://x/main#"));
    assert_eq!(
        at("#/$defs/a/$defs/b").as_deref(),
        Some("https://x/a#/$defs/b")
    );
    assert_eq!(
        at("#/$defs/c/%5Ex").as_deref(),
        Some("https://x/main#/$defs/c/%5Ex")
    );
    assert_eq!(at("#/nothing"), None);
}
