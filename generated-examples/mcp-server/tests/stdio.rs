//! Drives the example server as a subprocess over stdio with the sample session.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the server on `input` and returns its answers, keyed by request id.
fn run(input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every answer is one JSON line"))
        .collect()
}

fn answer(answers: &[Value], id: i64) -> &Value {
    answers
        .iter()
        .find(|a| a["id"] == json!(id))
        .unwrap_or_else(|| panic!("no answer to request {id}"))
}

fn errors(result: &Value) -> Vec<(String, String)> {
    result["structuredContent"]["errors"]
        .as_array()
        .expect("basic output errors")
        .iter()
        .map(|e| {
            (
                e["instanceLocation"].as_str().unwrap().to_string(),
                e["keywordLocation"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn session() -> Vec<Value> {
    run(include_str!("../session.jsonl"))
}

#[test]
fn answers_every_request_and_no_notification() {
    let answers = session();
    // 14 requests with an id (the non-JSON line answers with id null); one notification.
    assert_eq!(answers.len(), 14, "{answers:#?}");
    assert_eq!(
        answer(&answers, 1)["result"]["protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(answer(&answers, 13)["result"], json!({}));
    assert_eq!(answer(&answers, 11)["error"]["code"], -32602);
    assert_eq!(answer(&answers, 12)["error"]["code"], -32601);
    let parse_error = answers.iter().find(|a| a["id"].is_null()).unwrap();
    assert_eq!(parse_error["error"]["code"], -32700);
}

#[test]
fn lists_the_exact_schemas_it_validates_with() {
    let answers = session();
    let listed = &answer(&answers, 2)["result"]["tools"];
    let source: Value = serde_json::from_str(include_str!("../tools/tools.json")).unwrap();
    for (listed, source) in listed
        .as_array()
        .unwrap()
        .iter()
        .zip(source["tools"].as_array().unwrap())
    {
        assert_eq!(listed["name"], source["name"]);
        assert_eq!(listed["inputSchema"], source["inputSchema"]);
        assert_eq!(listed["outputSchema"], source["outputSchema"]);
    }
}

#[test]
fn a_valid_call_runs_the_tool() {
    let answers = session();
    let result = &answer(&answers, 3)["result"];
    assert!(result.get("isError").is_none(), "{result}");
    assert_eq!(
        result["structuredContent"]["forecast"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    let mirrored: Value = serde_json::from_str(text).unwrap();
    assert_eq!(mirrored, result["structuredContent"]);
}

#[test]
fn an_invalid_call_is_a_tool_error_naming_locations_not_values() {
    let answers = session();
    let result = &answer(&answers, 4)["result"];
    assert_eq!(result["isError"], true);
    let found = errors(result);
    for expected in [
        ("/location", "/properties/location/minLength"),
        ("/days", "/properties/days/maximum"),
        ("/unit", "/additionalProperties"),
    ] {
        assert!(
            found
                .iter()
                .any(|(i, k)| i == expected.0 && k.starts_with(expected.1)),
            "missing {expected:?} in {found:?}"
        );
    }
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        !text.contains("kelvin"),
        "the text echoes an instance value: {text}"
    );
    assert!(text.contains("/days"), "{text}");

    // unevaluatedProperties: `page` is not evaluated by properties or the pagination $ref.
    let result = &answer(&answers, 7)["result"];
    assert_eq!(result["isError"], true);
    assert!(errors(result).iter().any(|(i, _)| i == "/page"));

    // draft-07 tool schema: `from` must match ^[A-Z]{3}$.
    let result = &answer(&answers, 9)["result"];
    assert_eq!(result["isError"], true);
    assert!(errors(result)
        .iter()
        .any(|(i, k)| i == "/from" && k.ends_with("/pattern")));
}

#[test]
fn output_that_violates_the_output_schema_is_not_sent() {
    let answers = session();
    let result = &answer(&answers, 5)["result"];
    assert_eq!(result["isError"], true);
    assert!(errors(result)
        .iter()
        .any(|(i, k)| i == "/forecast/0/humidity" && k.ends_with("/maximum")));
    assert!(result["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("violates its outputSchema"));
}

#[test]
fn non_object_and_one_of_outputs() {
    let answers = session();
    // search_docs returns an array: structured content plus the same JSON as text.
    let result = &answer(&answers, 6)["result"];
    assert!(result["structuredContent"].is_array(), "{result}");
    // convert_currency's outputSchema is a root oneOf: both branches are accepted as is.
    assert!(answer(&answers, 8)["result"]["structuredContent"]["rate"].is_number());
    assert_eq!(
        answer(&answers, 10)["result"]["structuredContent"],
        json!({"unsupported": ["XYZ"]})
    );
}

#[test]
fn older_protocol_gets_object_structured_content_only() {
    let answers = run(concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_docs","arguments":{"query":"regex"}}}"#,
        "\n",
    ));
    assert_eq!(
        answer(&answers, 1)["result"]["protocolVersion"],
        "2025-11-25"
    );
    let tools = answer(&answers, 2)["result"]["tools"]
        .as_array()
        .unwrap()
        .clone();
    let search = tools.iter().find(|t| t["name"] == "search_docs").unwrap();
    assert!(search.get("outputSchema").is_none());
    let result = &answer(&answers, 3)["result"];
    assert!(result.get("structuredContent").is_none());
    assert!(result["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with('['));
}
