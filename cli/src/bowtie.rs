//! `schemac bowtie`: a harness for [Bowtie](https://bowtie.report), which runs JSON Schema
//! implementations side by side, speaking its IHOP protocol (version 1): one JSON command
//! per line on standard input, one JSON response per line on standard output.
//!
//! - `start` (`version` 1): the implementation's metadata and dialects;
//! - `dialect`: the dialect of schemas without `$schema` from now on (`{"ok": true}`, or
//!   `{"ok": false}` for a dialect schemac does not know);
//! - `run`: a case (`schema`, `registry` of documents by URI, `tests`), compiled under the
//!   current dialect with the shared options and the registry, each test's instance checked
//!   by the interpreter: `{"seq", "results": [{"valid": bool}, ...]}`; a schema that does
//!   not compile is `errored` (with the compile errors as context), as is a test whose
//!   check is incomplete (with the reason). With `"output": "annotations"` the case is
//!   compiled with annotations and each instance evaluated: a valid one's result also lists
//!   its annotations, each `{"keyword", "instanceLocation", "keywordLocation",
//!   "annotation"}` (`keywordLocation` the keyword's absolute location, a URI — only its
//!   `#` fragment for a schema without a base URI of its own, as the suite's annotation
//!   tests name schema locations); an `output` the protocol does not define makes the
//!   case `errored`;
//! - `stop`: ends the run (exit 0), with no response.
//!
//! A line that is not JSON, or not a command of the protocol, ends the run with a message on
//! standard error (exit 2): Bowtie then reports the harness as crashed.

use crate::args::SharedOptions;
use crate::instances;
use crate::Status;
use schemac::interp::Interpreter;
use schemac::load::DEFAULT_BASE_URI;
use schemac::{CompileError, Dialect};
use schemac_runtime::{Annotation, Evaluate, Validate, Verdict};
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::path::Path;

/// The protocol version spoken.
const VERSION: u64 = 1;

/// Serves Bowtie's commands from standard input until `stop` or the end of the input.
pub fn serve(shared: &SharedOptions) -> Status {
    let mut harness = Harness {
        shared,
        dialect: shared.dialect.into(),
        status: Status::Ok,
    };
    let mut stdout = io::stdout().lock();
    instances::for_each_line(Path::new("-"), shared.max_input_size, |line| {
        let reply = match line {
            Ok(instance) => instance.parse().and_then(|value| harness.command(&value)),
            Err(message) => Err(message),
        };
        match reply {
            Ok(Reply::Send(response)) => writeln!(stdout, "{response}")
                .and_then(|()| stdout.flush())
                .is_ok(),
            Ok(Reply::Stop) => false,
            Err(message) => {
                eprintln!("schemac bowtie: {message}");
                harness.status = Status::Error;
                false
            }
        }
    });
    harness.status
}

/// What a command asks for.
enum Reply {
    /// This response.
    Send(Value),
    /// Nothing more: `stop`.
    Stop,
}

/// The state of one Bowtie session.
struct Harness<'a> {
    shared: &'a SharedOptions,
    /// The dialect of schemas without `$schema`.
    dialect: Dialect,
    status: Status,
}

impl Harness<'_> {
    /// The reply to `command`, or why it is not a command of the protocol.
    fn command(&mut self, command: &Value) -> Result<Reply, String> {
        match command.get("cmd").and_then(Value::as_str) {
            Some("start") => {
                let version = command.get("version").and_then(Value::as_u64);
                if version != Some(VERSION) {
                    return Err(format!(
                        "`start` asks for protocol version {}, this harness speaks {VERSION}",
                        command.get("version").unwrap_or(&Value::Null)
                    ));
                }
                Ok(Reply::Send(start_response()))
            }
            Some("dialect") => {
                let uri = command.get("dialect").and_then(Value::as_str);
                let known = uri.and_then(dialect_named);
                if let Some(dialect) = known {
                    self.dialect = dialect;
                }
                Ok(Reply::Send(json!({"ok": known.is_some()})))
            }
            Some("run") => {
                let seq = command.get("seq").cloned().unwrap_or(Value::Null);
                let case = command.get("case").ok_or("`run` without a `case`")?;
                let mut response = match command.get("output").and_then(Value::as_str) {
                    None | Some("flag") => self.run(case, false)?,
                    Some("annotations") => self.run(case, true)?,
                    Some(other) => errored(format!(
                        "output {other:?} is not one this harness gives (`flag`, `annotations`)"
                    )),
                };
                response.insert("seq".into(), seq);
                Ok(Reply::Send(Value::Object(response)))
            }
            Some("stop") => Ok(Reply::Stop),
            _ => Err("a line that is not a command (`start`, `dialect`, `run`, `stop`)".into()),
        }
    }

    /// The response to one case, without its `seq`; with each valid instance's
    /// annotations when `annotations`.
    fn run(&self, case: &Value, annotations: bool) -> Result<Map<String, Value>, String> {
        let schema = case.get("schema").ok_or("a case without a `schema`")?;
        let tests = case
            .get("tests")
            .and_then(Value::as_array)
            .ok_or("a case without a `tests` array")?;
        let Ok(mut compiler) = crate::compiler(self.shared, self.dialect, annotations, false)
        else {
            return Ok(errored("a --document could not be registered".into()));
        };
        for (uri, document) in registry(case.get("registry")) {
            if let Err(e) = compiler.add_document(uri, document.clone()) {
                return Ok(errored(e.to_string()));
            }
        }
        let description = case.get("description").and_then(Value::as_str);
        let program = match compiler.compile_named(description.unwrap_or("schema"), schema) {
            Ok(program) => program,
            Err(errors) => return Ok(errored(joined(&errors))),
        };
        let validator = Interpreter::new(program);
        let results = tests
            .iter()
            .map(|test| {
                let instance = test.get("instance").unwrap_or(&Value::Null);
                let (verdict, listed) = if annotations {
                    let evaluation = validator.evaluate(instance);
                    let listed = evaluation.annotations.iter().map(annotation).collect();
                    (evaluation.report.verdict, Some(Value::Array(listed)))
                } else {
                    (validator.check(instance), None)
                };
                match (verdict, listed) {
                    (Verdict::Valid, None) => json!({"valid": true}),
                    (Verdict::Valid, Some(listed)) => json!({"valid": true, "annotations": listed}),
                    (Verdict::Invalid, _) => json!({"valid": false}),
                    (Verdict::Incomplete(reason), _) => {
                        json!({"errored": true, "context": {"message": reason.to_string()}})
                    }
                }
            })
            .collect();
        let mut out = Map::new();
        out.insert("results".into(), Value::Array(results));
        Ok(out)
    }
}

/// The response to a case that could not be run: `errored`, with `message` as context.
fn errored(message: String) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("errored".into(), Value::Bool(true));
    out.insert("context".into(), json!({"message": message}));
    out
}

/// An annotation as Bowtie's `annotations` output lists it: its keyword's absolute
/// location, from the `#` on where the schema has no base URI of its own (schemac's
/// placeholder, [`DEFAULT_BASE_URI`], is not shown).
fn annotation(a: &Annotation) -> Value {
    let location = a.absolute_keyword_location.as_str();
    let placeholder = DEFAULT_BASE_URI
        .rsplit_once('/')
        .map_or(DEFAULT_BASE_URI, |(dir, _)| dir);
    let location = match (location.strip_prefix(placeholder), location.find('#')) {
        (Some(rest), Some(hash)) if rest.starts_with('/') => &location[hash..],
        _ => location,
    };
    json!({
        "keyword": a.keyword(),
        "instanceLocation": a.instance_location,
        "keywordLocation": location,
        "annotation": a.value,
    })
}

/// The response to `start`: the protocol version and the implementation's metadata.
fn start_response() -> Value {
    let dialects: Vec<&str> = Dialect::ALL.iter().map(|d| d.uri()).collect();
    json!({
        "ready": true,
        "version": VERSION,
        "implementation": {
            "language": "rust",
            "name": "schemac",
            "version": env!("CARGO_PKG_VERSION"),
            "dialects": dialects,
            "homepage": env!("CARGO_PKG_REPOSITORY"),
            "issues": format!("{}/issues", env!("CARGO_PKG_REPOSITORY")),
        }
    })
}

/// The dialect whose meta-schema URI is `uri` (an empty fragment ignored).
fn dialect_named(uri: &str) -> Option<Dialect> {
    let uri = uri.trim_end_matches('#');
    Dialect::ALL
        .into_iter()
        .find(|d| d.uri().trim_end_matches('#') == uri)
}

/// A case's `registry`: an object of documents by URI, or (the protocol's earlier form) an
/// array of `{"schema", "retrievalURIs"}`.
fn registry(registry: Option<&Value>) -> Vec<(&str, &Value)> {
    match registry {
        Some(Value::Object(map)) => map.iter().map(|(uri, doc)| (uri.as_str(), doc)).collect(),
        Some(Value::Array(entries)) => entries
            .iter()
            .filter_map(|entry| {
                Some((
                    entry.get("retrievalURIs")?.as_array()?,
                    entry.get("schema")?,
                ))
            })
            .flat_map(|(uris, doc)| {
                uris.iter()
                    .filter_map(Value::as_str)
                    .map(move |uri| (uri, doc))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Compile errors, one per line.
fn joined(errors: &[CompileError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
