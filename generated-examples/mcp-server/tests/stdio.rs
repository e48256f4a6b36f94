//! Drives the example server as a subprocess over stdio with the sample sessions, as rmcp
//! runs it: `session.jsonl` (the `initialize` handshake; rmcp answers a client that asks
//! for 2026-07-28 with 2025-11-25) and `session-2026.jsonl` (the 2026-07-28 inline
//! lifecycle: no handshake, protocol version and capabilities in every request's `_meta`).
//! Both validator sources, generated and interpreted, must answer alike.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the server on `input` and returns its answers.
fn run(input: &str, args: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-server"))
        .args(args)
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
    assert!(output.status.success(), "{output:?}");
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
        .unwrap_or_else(|| panic!("no answer to request {id}: {answers:#?}"))
}

/// The text of a result's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// (instanceLocation, keywordLocation) of the errors of an error result: the basic output
/// under its `_meta`, whose errors the text lists one line each, `location: message`.
fn errors(result: &Value) -> Vec<(String, String)> {
    let basic = &result["_meta"]["schemac/validation"];
    // The 2020-12 basic shape: a root unit, then units that failed.
    assert_eq!(basic["valid"], false, "{result}");
    assert_eq!(
        (&basic["keywordLocation"], &basic["instanceLocation"]),
        (&json!(""), &json!(""))
    );
    let units = basic["errors"].as_array().expect("basic output errors");
    let lines: Vec<&str> = text(result).lines().skip(1).collect();
    assert_eq!(lines.len(), units.len(), "{}", text(result));
    units
        .iter()
        .zip(lines)
        .map(|(e, line)| {
            assert_eq!(e["valid"], false, "{e}");
            let location = e["instanceLocation"].as_str().unwrap();
            let shown = if location.is_empty() {
                "(root)"
            } else {
                location
            };
            assert!(line.starts_with(&format!("{shown}: ")), "{line}");
            (
                location.to_string(),
                e["keywordLocation"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn session() -> Vec<Value> {
    run(include_str!("../session.jsonl"), &[])
}

fn session_2026() -> Vec<Value> {
    run(include_str!("../session-2026.jsonl"), &[])
}

#[test]
fn answers_every_request_and_ignores_what_is_not_json() {
    let answers = session();
    // 13 requests with an id; the notification and the line that is not JSON get nothing.
    assert_eq!(answers.len(), 13, "{answers:#?}");
    let init = &answer(&answers, 1)["result"];
    assert_eq!(init["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["serverInfo"]["name"], "schemac-example-mcp-server");
    assert_eq!(answer(&answers, 13)["result"], json!({}), "ping");
    let unknown_tool = &answer(&answers, 11)["error"];
    assert_eq!(unknown_tool["code"], -32602);
    assert_eq!(unknown_tool["message"], "tool not found");
    assert_eq!(
        answer(&answers, 12)["error"]["code"],
        -32601,
        "unknown method"
    );
    assert!(answers.iter().all(|a| !a["id"].is_null()));
}

#[test]
fn lists_the_exact_schemas_it_validates_with() {
    let source: Value = serde_json::from_str(include_str!("../tools/tools.json")).unwrap();
    let source = source["tools"].as_array().unwrap();
    // A legacy peer sees only the output schemas whose root is an object.
    let answers = session();
    let listed = answer(&answers, 2)["result"]["tools"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(listed.len(), source.len());
    for (listed, source) in listed.iter().zip(source) {
        assert_eq!(listed["name"], source["name"]);
        assert_eq!(listed["inputSchema"], source["inputSchema"]);
        if source["outputSchema"]["type"] == "object" {
            assert_eq!(listed["outputSchema"], source["outputSchema"]);
        } else {
            assert!(listed.get("outputSchema").is_none(), "{listed}");
        }
    }
    // A 2026-07-28 peer sees them all, with caching hints.
    let answers = session_2026();
    let result = &answer(&answers, 1)["result"];
    assert!(result["ttlMs"].is_number(), "{result}");
    for (listed, source) in result["tools"].as_array().unwrap().iter().zip(source) {
        assert_eq!(listed["inputSchema"], source["inputSchema"]);
        assert_eq!(listed["outputSchema"], source["outputSchema"]);
    }
}

#[test]
fn a_valid_call_runs_the_tool() {
    for (answers, id) in [(session(), 3), (session_2026(), 2)] {
        let result = &answer(&answers, id)["result"];
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(
            result["structuredContent"]["forecast"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        let mirrored: Value = serde_json::from_str(text(result)).unwrap();
        assert_eq!(mirrored, result["structuredContent"]);
    }
}

#[test]
fn an_invalid_call_is_a_tool_error_naming_locations_not_values() {
    for (answers, id) in [(session(), 4), (session_2026(), 3)] {
        let result = &answer(&answers, id)["result"];
        assert_eq!(result["isError"], true);
        assert!(result.get("structuredContent").is_none());
        assert!(text(result).starts_with("invalid arguments for tool \"get_weather\":"));
        let found = errors(result);
        for expected in [
            ("/location", "/properties/location/minLength"),
            ("/days", "/properties/days/maximum"),
            ("/unit", "/additionalProperties"),
        ] {
            assert!(
                found
                    .iter()
                    .any(|(i, k)| i == expected.0 && k == expected.1),
                "missing {expected:?} in {found:?}"
            );
        }
        assert!(
            !text(result).contains("kelvin"),
            "echoes an instance value: {}",
            text(result)
        );
    }
    let answers = session();
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
fn error_texts_invent_no_uris() {
    for answers in [session(), session_2026()] {
        for answer in &answers {
            let result = &answer["result"];
            if result["isError"] == true {
                let shown = result.to_string();
                assert!(!shown.contains("schemac.invalid"), "{shown}");
                assert!(!text(result).contains("absoluteKeywordLocation"), "{shown}");
            }
        }
    }
}

#[test]
fn output_that_violates_the_output_schema_is_not_sent() {
    for (answers, id) in [(session(), 5), (session_2026(), 4)] {
        let result = &answer(&answers, id)["result"];
        assert_eq!(result["isError"], true);
        assert!(result.get("structuredContent").is_none(), "{result}");
        assert!(text(result).starts_with("tool \"get_weather\" broke its outputSchema contract"));
        assert!(errors(result)
            .iter()
            .any(|(i, k)| i == "/forecast/0/humidity" && k.ends_with("/maximum")));
        assert!(!text(result).contains("140"), "{}", text(result));
    }
}

#[test]
fn non_object_output_is_stripped_for_legacy_peers_only() {
    // Legacy: rmcp moves search_docs' array into the text (checked there by the layer).
    let answers = session();
    let result = &answer(&answers, 6)["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert!(result.get("structuredContent").is_none(), "{result}");
    assert!(text(result).starts_with('['));
    assert!(result.get("resultType").is_none());
    // convert_currency's outputSchema is a root oneOf; its object results stay.
    assert!(answer(&answers, 8)["result"]["structuredContent"]["rate"].is_number());
    assert_eq!(
        answer(&answers, 10)["result"]["structuredContent"],
        json!({"unsupported": ["XYZ"]})
    );
    // 2026-07-28: the array is structured content, and results say `resultType`.
    let answers = session_2026();
    let result = &answer(&answers, 5)["result"];
    assert!(result["structuredContent"].is_array(), "{result}");
    assert_eq!(result["resultType"], "complete");
    assert!(answer(&answers, 6)["result"]["structuredContent"]["rate"].is_number());
}

#[test]
fn inline_lifecycle_errors_come_before_argument_errors() {
    let answers = session_2026();
    assert_eq!(answers.len(), 9, "{answers:#?}");
    assert_eq!(answer(&answers, 7)["error"]["message"], "tool not found");
    // Without `_meta`, rmcp refuses the request; invalid arguments do not change that.
    for id in [8, 9] {
        let error = &answer(&answers, id)["error"];
        assert_eq!(error["code"], -32602);
        assert!(
            error["message"].as_str().unwrap().contains("_meta"),
            "{error}"
        );
    }
}

#[test]
fn generated_and_interpreted_validators_answer_alike() {
    for session in [
        include_str!("../session.jsonl"),
        include_str!("../session-2026.jsonl"),
    ] {
        assert_eq!(run(session, &[]), run(session, &["--interpreted"]));
    }
}
