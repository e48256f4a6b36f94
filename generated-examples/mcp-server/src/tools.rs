//! The tools themselves: plain functions from validated arguments to a structured result.
//!
//! Each runs only after its generated input validator accepted the arguments, so it may
//! rely on the schema: required fields are there, enums hold one of their values, numbers
//! are in range. Integers are read as the validator judged them
//! ([`integer_as_u64`]): `"days": 7.0` passed `"type": "integer"`, so it is 7, where
//! `Value::as_u64` would see no integer at all. The data is canned; this is an example
//! server.

use schemac_runtime::json::integer_as_u64;
use serde_json::{json, Value};

/// `get_weather`: a forecast from a small built-in table.
///
/// The "Atlantis" record is deliberately corrupt (humidity 140) so that the sample session
/// shows the server refusing to send output that violates the tool's `outputSchema`.
pub fn get_weather(args: &Value) -> Value {
    let location = args["location"].as_str().unwrap_or_default();
    let units = args["units"].as_str().unwrap_or("metric");
    let days = integer_as_u64(&args["days"]).unwrap_or(1);
    let (high_c, low_c, conditions, humidity) = match location.to_ascii_lowercase().as_str() {
        "lisbon" => (21.0, 14.0, "sunny", 62),
        "oslo" => (4.0, -3.0, "snow", 81),
        "atlantis" => (18.0, 16.0, "storm", 140),
        _ => (15.0, 8.0, "cloudy", 70),
    };
    let convert = |c: f64| {
        if units == "imperial" {
            (c * 9.0 / 5.0 + 32.0).round()
        } else {
            c
        }
    };
    let forecast: Vec<Value> = (0..days)
        .map(|day| {
            json!({
                "date": format!("2026-12-{:02}", day + 1),
                "high": convert(high_c + day as f64),
                "low": convert(low_c),
                "conditions": conditions,
                "humidity": humidity,
            })
        })
        .collect();
    json!({"location": location, "units": units, "forecast": forecast})
}

/// The documentation index `search_docs` searches.
const DOCS: &[(&str, &str, &str)] = &[
    ("Getting started", "/docs/guide/start", "guide"),
    ("Validating MCP tool calls", "/docs/guide/mcp", "guide"),
    (
        "The build.rs Builder",
        "/docs/reference/builder",
        "reference",
    ),
    ("Regular expressions", "/docs/reference/regex", "reference"),
    ("Release 0.1.0", "/docs/changelog/0.1.0", "changelog"),
];

/// `search_docs`: titles containing every word of the query (case-insensitive), best first.
pub fn search_docs(args: &Value) -> Value {
    let query = args["query"].as_str().unwrap_or_default().to_lowercase();
    let words: Vec<&str> = query.split_whitespace().collect();
    let section = args["filters"]["section"].as_str();
    let limit = integer_as_u64(&args["limit"]).map_or(10, |n| n as usize);
    let hits: Vec<Value> = DOCS
        .iter()
        .filter(|(_, _, s)| section.is_none_or(|want| want == *s))
        .filter_map(|(title, path, s)| {
            let lower = title.to_lowercase();
            let found = words.iter().filter(|w| lower.contains(*w)).count();
            (found > 0).then(|| {
                let score = found as f64 / words.len().max(1) as f64;
                json!({"title": title, "path": path, "section": s, "score": score})
            })
        })
        .take(limit)
        .collect();
    Value::Array(hits)
}

/// Reference rates to EUR.
const RATES: &[(&str, f64)] = &[("EUR", 1.0), ("USD", 0.92), ("GBP", 1.17), ("JPY", 0.0062)];

/// `convert_currency`: a quote, or the list of currencies it does not know.
pub fn convert_currency(args: &Value) -> Value {
    let amount = args["amount"].as_f64().unwrap_or_default();
    let from = args["from"].as_str().unwrap_or_default();
    let to = args["to"].as_str().unwrap_or_default();
    let rate_of = |code: &str| RATES.iter().find(|(c, _)| *c == code).map(|(_, r)| *r);
    match (rate_of(from), rate_of(to)) {
        (Some(f), Some(t)) => {
            let rate = f / t;
            let converted = (amount * rate * 100.0).round() / 100.0;
            json!({"amount": converted, "from": from, "to": to, "rate": rate})
        }
        (f, t) => {
            let unknown: Vec<&str> = [(from, f), (to, t)]
                .iter()
                .filter(|(_, r)| r.is_none())
                .map(|(c, _)| *c)
                .collect();
            json!({"unsupported": unknown})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_written_with_a_fraction_are_read_as_the_schema_allowed_them() {
        let forecast = |days: Value| {
            let result = get_weather(&json!({"location": "Oslo", "days": days}));
            result["forecast"].as_array().map_or(0, Vec::len)
        };
        assert_eq!(forecast(json!(7)), 7);
        assert_eq!(forecast(json!(7.0)), 7);
        // Four titles hold an `e`; `limit: 2.0` keeps two.
        let hits = search_docs(&json!({"query": "e", "limit": 2.0}));
        assert_eq!(hits.as_array().map(Vec::len), Some(2));
    }
}
