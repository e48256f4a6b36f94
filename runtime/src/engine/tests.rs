//! Tests of the evaluation core.

use super::*;
use crate::error::{ErrorKind, IncompleteReason, Report, Verdict};
use crate::json;
use crate::limits::Limits;
use alloc::vec::Vec;
use serde_json::{json, Number, Value};

#[test]
fn number_comparisons_agree_with_json_compare() {
    let values = [
        json!(1),
        json!(1.0),
        json!(-3),
        json!(2.5),
        json!(u64::MAX),
        json!(-0.0),
        json!(9.223372036854776e18),
        json!(1.8446744073709552e19),
        json!(-9.3e18),
        json!(1e19),
        json!(0.5),
    ];
    for v in &values {
        let n = v.as_number().unwrap();
        for y in [-3i64, 0, 1, 2, i64::MAX] {
            assert_eq!(cmp_i64(n, y), json::compare_numbers(n, &Number::from(y)));
        }
        for y in [u64::MAX, 1u64 << 63] {
            assert_eq!(cmp_u64(n, y), json::compare_numbers(n, &Number::from(y)));
        }
        for y in [2.5f64, 1.0, -3.5, 1e300] {
            let num = Number::from_f64(y).unwrap();
            assert_eq!(cmp_f64(n, y), json::compare_numbers(n, &num));
        }
    }
}

#[test]
fn lengths_count_code_points() {
    assert!(min_length("ééé", 3));
    assert!(!min_length("éé", 3));
    assert!(max_length("ééé", 3));
    assert!(!max_length("éééé", 3));
    assert!(min_length("", 0));
    // One code point: any non-empty string, of whatever width.
    assert!(min_length("é", 1) && min_length("😀", 1) && min_length("ab", 1));
    assert!(!min_length("", 1));
    // Two: "é" is two bytes and one code point.
    assert!(!min_length("é", 2) && min_length("éa", 2));
}

#[test]
fn bits_record_and_merge() {
    let mut a = Bits::default();
    a.set(3);
    a.set(130);
    let mut b = Bits::default();
    b.set_range(0, 2);
    b.merge(&a);
    assert!(b.get(0) && b.get(1) && b.get(3) && b.get(130));
    assert!(!b.get(2) && !b.get(129) && !b.get(1000));
}

#[test]
fn bits_keep_prefix_head_and_rest() {
    let mut a = Bits::new();
    a.set_range(0, 3);
    a.set(5);
    a.set(200);
    assert!(a.get(0) && a.get(2) && !a.get(3) && a.get(5) && a.get(200));
    assert!(!a.get(64) && !a.get(199) && !a.get(201));
    let mut b = Bits::new();
    b.set_range(2, 70);
    assert!(!b.get(1) && b.get(2) && b.get(69) && !b.get(70));
    b.merge(&a);
    assert!(b.get(0) && b.get(200) && b.get(69));
    b.set_all();
    assert!(b.get(usize::MAX - 1));
    b.clear();
    assert!(!b.get(0) && !b.get(200));
}

#[test]
fn stops_keep_their_reason() {
    let mut s = State::new(&Limits {
        budget: 1,
        ..Limits::DEFAULT
    });
    assert_eq!(s.enter_region(1, 1), Ok(()));
    assert_eq!(s.enter_region(1, 1), Err(Stop));
    assert_eq!(
        s.verdict(Err(Stop)),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    let mut s = State::new(&Limits {
        max_nesting: 1,
        ..Limits::DEFAULT
    });
    assert_eq!(s.enter_region(1, 2), Err(Stop));
    assert_eq!(
        s.verdict(Err(Stop)),
        Verdict::Incomplete(IncompleteReason::DepthExceeded)
    );
    let mut s = State::new(&Limits::DEFAULT);
    assert_eq!(s.unresolved("https://x/y.json"), Err(Stop));
    assert_eq!(
        s.verdict(Err(Stop)),
        Verdict::Incomplete(IncompleteReason::UnresolvedRef("https://x/y.json".into()))
    );
    let mut e = Errors::new(&Limits::DEFAULT, &[], &[]);
    e.rebase("https://x/y.json#");
    e.error("type", ErrorKind::UniqueItems);
    assert_eq!(e.finish(Err(Stop)).verdict, Verdict::Invalid);
}

#[test]
fn errors_past_the_bound_are_counted_not_kept() {
    let mut e = Trail::new(&Limits {
        max_errors: 2,
        ..Limits::DEFAULT
    });
    e.rebase("https://x/s.json#");
    for i in 0..5 {
        let at = e.push_index(i);
        let before = e.mark();
        e.error("type", ErrorKind::UniqueItems);
        assert_eq!(e.mark(), before + 1, "mark counts omitted errors too");
        e.pop_instance(at);
    }
    e.error_here();
    let report = e.into_report(None);
    assert_eq!(report.verdict, Verdict::Invalid);
    assert_eq!(report.errors.len(), 2);
    assert_eq!(report.errors_omitted, 4);
    assert_eq!(report.errors[1].instance_location, "/1");
    let out = crate::output::basic(&report);
    assert_eq!(out["errorsOmitted"], serde_json::json!(4));
    assert_eq!(out["errors"].as_array().map(|a| a.len()), Some(2));

    let mut e = Trail::new(&Limits {
        max_errors: 0,
        ..Limits::DEFAULT
    });
    e.error_here();
    let report = e.into_report(None);
    assert_eq!(report.verdict, Verdict::Invalid);
    assert!(report.errors.is_empty());
    assert_eq!(report.errors_omitted, 1);
}

/// Each error's instance, keyword and absolute keyword locations.
fn locations(report: &Report) -> Vec<(&str, &str, &str)> {
    report
        .errors
        .iter()
        .map(|e| {
            (
                e.instance_location.as_str(),
                e.keyword_location.as_str(),
                e.absolute_keyword_location.as_str(),
            )
        })
        .collect()
}

#[test]
fn errors_track_locations() {
    let mut e = Trail::new(&Limits::DEFAULT);
    e.rebase("https://x/s.json#");
    let at = e.at_key("/properties/a~1b", "a/b~");
    e.error("minimum", ErrorKind::UniqueItems);
    // A `$ref` target: its own absolute location, the evaluation path goes on.
    let inner = e.at("/$ref");
    e.rebase("https://x/t.json#/$defs/n");
    e.error("type", ErrorKind::UniqueItems);
    let deeper = e.at("/not");
    e.error_here();
    e.back(deeper);
    e.back(inner);
    e.error("maximum", ErrorKind::UniqueItems);
    e.back(at);
    let i = e.push_index(7);
    e.error_here();
    e.pop_instance(i);
    let report = e.into_report(None);
    assert_eq!(report.verdict, Verdict::Invalid);
    let locations = locations(&report);
    assert_eq!(
        locations,
        [
            (
                "/a~1b~0",
                "/properties/a~1b/minimum",
                "https://x/s.json#/properties/a~1b/minimum"
            ),
            (
                "/a~1b~0",
                "/properties/a~1b/$ref/type",
                "https://x/t.json#/$defs/n/type"
            ),
            (
                "/a~1b~0",
                "/properties/a~1b/$ref/not",
                "https://x/t.json#/$defs/n/not"
            ),
            (
                "/a~1b~0",
                "/properties/a~1b/maximum",
                "https://x/s.json#/properties/a~1b/maximum"
            ),
            ("/7", "", "https://x/s.json#"),
        ]
    );
}

#[test]
fn a_child_restores_every_location() {
    static SITES: [Site; 5] = [
        Site("/$ref", Some("https://x/t.json#/$defs/n"), true),
        Site("/items", None, true),
        Site("/not", None, false),
        Site("/propertyNames", None, false),
        Site("/items", None, false),
    ];
    static FAULTS: [Fault; 1] = [Fault("type", ErrorKind::UniqueItems)];
    let mut e = Errors::new(
        &Limits {
            max_depth: 1,
            ..Limits::DEFAULT
        },
        &SITES,
        &FAULTS,
    );
    e.rebase("https://x/s.json#");
    let item = Value::Null;
    let valid = e.valid(|e| {
        e.child(0, At::Property("a/b~"), &item, |x, e| {
            e.fail(0);
            // One step in already: the depth bound stops a second one.
            let deeper = e.child(1, At::Index(3), x, |_, _| Ok(()));
            assert_eq!(deeper, Err(Stop));
            let valid = e.valid(|e| {
                e.child(2, At::Here, x, |x, e| {
                    assert!(x.is_null());
                    e.error_here();
                    Ok(())
                })
            });
            assert_eq!(valid, Ok(false));
            Ok(())
        })
    });
    assert_eq!(valid, Ok(false));
    let valid = e.silently(|e| {
        e.child(3, At::Name, &item, |_, e| {
            e.error("maxLength", ErrorKind::UniqueItems);
            Ok(())
        })
    });
    assert_eq!(valid, Ok(false));
    e.child(3, At::Name, &item, |_, e| {
        e.error("maxLength", ErrorKind::UniqueItems);
        Ok(())
    })
    .unwrap();
    let valid = e.valid(|e| e.child(4, At::Index(0), &item, |_, _| Ok(())));
    assert_eq!(valid, Ok(true));
    e.error_here();
    let report = e.finish(Ok(()));
    let locations = locations(&report);
    assert_eq!(
        locations,
        [
            (
                "/a~1b~0",
                "/properties/a~1b~0/$ref/type",
                "https://x/t.json#/$defs/n/type"
            ),
            (
                "/a~1b~0",
                "/properties/a~1b~0/$ref/not",
                "https://x/t.json#/$defs/n/not"
            ),
            (
                "",
                "/propertyNames/maxLength",
                "https://x/s.json#/propertyNames/maxLength"
            ),
            ("", "", "https://x/s.json#"),
        ]
    );
}
