//! The checked-in generated code (`tools/tools.rs`) is exactly what the build generates
//! from `tools/tools.json` today; `SCHEMAC_BLESS=1` rewrites it. And the server behaves:
//! arguments and results are checked by the generated validators.

use schemac_example_mcp_server::protocol::Server;
use schemac_example_mcp_server::{validators, TOOLS};
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
fn definitions_and_schemas_match_tools_json() {
    let list: Value =
        serde_json::from_str(include_str!("../tools/tools.json")).expect("tools.json is JSON");
    let entries = list["tools"].as_array().expect("a tools array");
    assert_eq!(entries.len(), TOOLS.len());
    for (entry, tool) in entries.iter().zip(TOOLS) {
        let definition: Value = serde_json::from_str(tool.definition).expect("definition");
        for key in ["name", "title", "description"] {
            assert_eq!(definition[key], entry[key], "{} {key}", tool.name);
        }
        let input: Value = serde_json::from_str(tool.input_schema).expect("input schema");
        assert_eq!(input, entry["inputSchema"], "{}", tool.name);
        let (output, _) = tool.output.expect("output schema");
        let output: Value = serde_json::from_str(output).expect("output schema");
        assert_eq!(output, entry["outputSchema"], "{}", tool.name);
    }
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
fn a_session_checks_arguments_and_results() {
    let mut server = Server::new(TOOLS);
    let call = |server: &mut Server, id: u64, name: &str, arguments: Value| -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}});
        let answer = server.handle_line(&request.to_string()).expect("an answer");
        serde_json::from_str(&answer).expect("JSON answer")
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2026-07-28"}});
    assert!(server.handle_line(&init.to_string()).is_some());

    let ok = call(
        &mut server,
        1,
        "get_weather",
        json!({"location": "Lisbon", "days": 2}),
    );
    assert_eq!(
        ok["result"]["structuredContent"]["forecast"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    assert!(ok["result"].get("isError").is_none());

    let bad = call(
        &mut server,
        2,
        "get_weather",
        json!({"location": "Lisbon", "days": 99}),
    );
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(bad["result"]["structuredContent"]["valid"], false);

    // The corrupt record (humidity 140) is refused by the output validator.
    let corrupt = call(
        &mut server,
        3,
        "get_weather",
        json!({"location": "Atlantis"}),
    );
    assert_eq!(corrupt["result"]["isError"], true);
    let text = corrupt["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("outputSchema"), "{text}");
    assert!(text.contains("/forecast/0/humidity"), "{text}");

    let quote = call(
        &mut server,
        4,
        "convert_currency",
        json!({"amount": 10, "from": "USD", "to": "EUR"}),
    );
    assert!(
        quote["result"]["structuredContent"]["rate"].is_number(),
        "{quote}"
    );
    let docs = call(
        &mut server,
        5,
        "search_docs",
        json!({"query": "regular", "limit": 3}),
    );
    assert!(docs["result"]["structuredContent"].is_array(), "{docs}");
}
