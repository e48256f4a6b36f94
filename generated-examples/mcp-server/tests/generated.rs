//! The checked-in generated code (`tools/tools.rs`) is exactly what the build generates
//! from `tools/tools.json` today; `SCHEMAC_BLESS=1` rewrites it. The server lists the
//! schemas it was generated from, and the generated validators check arguments.

use schemac_example_mcp_server::{generated_validators, tool_list, validators};
use serde_json::{json, Value};
use std::path::Path;

#[test]
fn checked_in_generated_code_matches_the_build() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/schemac.rs"));
    let checked_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/tools.rs");
    if std::env::var_os("SCHEMAC_BLESS").is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&checked_in, generated).expect("write tools/tools.rs");
        return;
    }
    let old = std::fs::read_to_string(&checked_in).unwrap_or_default();
    assert!(
        old == generated,
        "{} differs from the generated code ({} vs {} bytes); review and regenerate with \
         SCHEMAC_BLESS=1 cargo test -p schemac-example-mcp-server",
        checked_in.display(),
        old.len(),
        generated.len()
    );
}

#[test]
fn the_listed_tools_are_the_schemas_the_validators_were_generated_from() {
    let tools = tool_list().expect("tools/tools.json parses as rmcp tools");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["get_weather", "search_docs", "convert_currency"]);
    // The generated table lists the same tools, in the same order, under the same names.
    let listed: Vec<&str> = validators::TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(listed, names);
    assert_eq!(
        validators::TOOLS[0].input.text,
        validators::get_weather_input::SCHEMA
    );
    let table = generated_validators();
    for (tool, entry) in tools.iter().zip(validators::TOOLS) {
        let input: Value = serde_json::from_str(entry.input.text).unwrap();
        let output = entry
            .output
            .expect("every example tool has an output schema");
        let output_schema: Value = serde_json::from_str(output.text).unwrap();
        assert_eq!(
            Value::Object((*tool.input_schema).clone()),
            input,
            "{}",
            tool.name
        );
        let listed = Value::Object((*tool.output_schema.clone().unwrap()).clone());
        assert_eq!(listed, output_schema, "{}", tool.name);
        assert_eq!(
            output.object_root,
            output_schema["type"] == "object",
            "{}",
            tool.name
        );
        let validator = table.get(&tool.name).expect("validators for every tool");
        assert!(validator.has_output());
        assert_eq!(validator.output_object_root(), output.object_root);
    }
    assert_eq!(table.len(), tools.len());
}

#[test]
fn generated_validators_check_arguments() {
    use validators::{convert_currency_input, get_weather_input, search_docs_input};
    assert!(get_weather_input::is_valid(
        &json!({"location": "Lisbon", "days": 3})
    ));
    assert!(!get_weather_input::is_valid(
        &json!({"location": "", "days": 3})
    ));
    assert!(!get_weather_input::is_valid(
        &json!({"location": "Lisbon", "days": 8})
    ));
    assert!(!get_weather_input::is_valid(
        &json!({"location": "Lisbon", "units": "kelvin"})
    ));
    assert!(!get_weather_input::is_valid(
        &json!({"location": "Lisbon", "extra": 1})
    ));

    // unevaluatedProperties sees through allOf/$ref: limit and cursor are evaluated.
    assert!(search_docs_input::is_valid(
        &json!({"query": "regex", "limit": 5, "cursor": "abc_1", "filters": {"tags": ["a-b"]}})
    ));
    assert!(!search_docs_input::is_valid(
        &json!({"query": "regex", "page": 2})
    ));
    assert!(!search_docs_input::is_valid(
        &json!({"query": "x", "filters": {"tags": ["A"]}})
    ));
    assert!(!search_docs_input::is_valid(
        &json!({"query": "x", "filters": {"tags": ["a", "a"]}})
    ));

    // draft-07, with a pattern behind $ref.
    assert!(convert_currency_input::is_valid(
        &json!({"amount": 5, "from": "EUR", "to": "USD"})
    ));
    assert!(!convert_currency_input::is_valid(
        &json!({"amount": 0, "from": "EUR", "to": "USD"})
    ));
    assert!(!convert_currency_input::is_valid(
        &json!({"amount": 5, "from": "eur", "to": "USD"})
    ));

    let report = get_weather_input::validate(&json!({"location": "", "days": 0, "x": 1}));
    let mut at: Vec<(&str, &str)> = report
        .errors
        .iter()
        .map(|e| (e.instance_location.as_str(), e.keyword_location.as_str()))
        .collect();
    at.sort_unstable();
    assert_eq!(
        at,
        [
            ("/days", "/properties/days/minimum"),
            ("/location", "/properties/location/minLength"),
            ("/x", "/additionalProperties"),
        ]
    );
}

#[test]
fn valid_arguments_reach_the_tool_with_their_defaults() {
    let mut call = json!({"location": "Oslo"});
    assert!(validators::get_weather_input::is_valid(&call));
    assert!(validators::get_weather_input::apply_defaults(&mut call));
    assert_eq!(
        call,
        json!({"location": "Oslo", "units": "metric", "days": 1})
    );
    // The table's validators, as the server layer holds them, insert the same.
    let table = generated_validators();
    let tool = table.get("get_weather").expect("listed");
    let (arguments, outcome) =
        tool.check_arguments(json!({"location": "Oslo"}).as_object().cloned());
    assert!(outcome.is_ok());
    assert_eq!(arguments.map(Value::Object), Some(call));
}
