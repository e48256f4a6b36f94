//! The 2020-12 output formats (`flag` and `basic`) as JSON values.
//!
//! An incomplete verdict is reported as `"valid": false` with an extra `"incomplete"`
//! member holding the reason, so that no consumer can mistake it for a pass.

use crate::error::{Report, Verdict};
use alloc::string::ToString;
use alloc::vec::Vec;
use serde_json::{Map, Value};

/// The `flag` format: `{"valid": bool}` (plus `"incomplete"` when the check did not finish).
pub fn flag(report: &Report) -> Value {
    let mut out = Map::new();
    out.insert("valid".into(), Value::Bool(report.is_valid()));
    if let Verdict::Incomplete(reason) = &report.verdict {
        out.insert("incomplete".into(), Value::String(reason.to_string()));
    }
    Value::Object(out)
}

/// The `basic` format: `flag` plus a flat `errors` list, each with `keywordLocation`,
/// `absoluteKeywordLocation`, `instanceLocation` and `error`, and, when the
/// [`max_errors`](crate::Limits::max_errors) bound left errors out, `"errorsOmitted": N`
/// (an extra member, which the 2020-12 output schema allows).
pub fn basic(report: &Report) -> Value {
    let mut out = match flag(report) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if !report.errors.is_empty() {
        let errors: Vec<Value> = report
            .errors
            .iter()
            .map(|e| {
                let mut unit = Map::new();
                unit.insert("keywordLocation".into(), e.keyword_location.clone().into());
                unit.insert(
                    "absoluteKeywordLocation".into(),
                    e.absolute_keyword_location.clone().into(),
                );
                unit.insert(
                    "instanceLocation".into(),
                    e.instance_location.clone().into(),
                );
                unit.insert("error".into(), e.kind.to_string().into());
                Value::Object(unit)
            })
            .collect();
        out.insert("errors".into(), Value::Array(errors));
    }
    if report.errors_omitted > 0 {
        out.insert("errorsOmitted".into(), Value::from(report.errors_omitted));
    }
    Value::Object(out)
}
