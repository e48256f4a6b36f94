//! No string from a schema or an instance can forge a line of text output or reorder what
//! a reader sees (issue 38): every kind of compile error, compile warning, validation
//! error and incomplete reason is made with a line break, a C0 or C1 control, a line
//! separator or a bidirectional-text control in each URI, anchor and name it can quote,
//! and its text must hold none of them raw — only escaped.

use schemac::{CompileErrorKind, Compiler, Dialect, Options, RefPolicy, UnsupportedRegexPolicy};
use schemac_runtime::error::misleads;
use schemac_runtime::{Report, Validate, Verdict};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// The characters tried in every position: line breaks (LF, CR, NEL, U+2028, U+2029),
/// a terminal escape, and bidirectional controls.
const FORGERS: [char; 11] = [
    '\n', '\r', '\u{85}', '\u{2028}', '\u{2029}', '\u{1b}', '\u{202e}', '\u{2066}', '\u{61c}',
    '\u{200f}', '\u{7f}',
];

/// Err naming the character when `text` holds one that [`misleads`] raw. A line break is
/// allowed only where a message goes on by design: before the indented lines of a
/// regex caret (`\n    "pattern"\n    ^`), whose text is escaped.
fn check_safe(text: &str) -> Result<(), String> {
    let mut lines = text.split('\n');
    lines.next();
    if let Some(line) = lines.find(|line| !line.starts_with("    ")) {
        return Err(format!(
            "a line that is not a caret line: {line:?} in {text:?}"
        ));
    }
    match text.chars().find(|&c| c != '\n' && misleads(c)) {
        Some(c) => Err(format!("raw U+{:04X} in {text:?}", c as u32)),
        None => Ok(()),
    }
}

/// One schema to compile, the options to compile it with and documents to register.
struct Case {
    what: &'static str,
    options: Options,
    documents: Vec<(String, Value)>,
    schema: Value,
    /// Instances to validate when it compiles (each must give an error or an incomplete
    /// reason that is checked too).
    instances: Vec<Value>,
}

fn case(what: &'static str, schema: Value) -> Case {
    Case {
        what,
        options: Options::default(),
        documents: Vec::new(),
        schema,
        instances: Vec::new(),
    }
}

/// Every message kind, with `e` in each position that a message can quote.
fn cases(e: char) -> Vec<Case> {
    let forged = format!("a{e}evil.json: valid{e}b");
    let remote = format!("https://x.example/{forged}");
    let warn = Options {
        ref_policy: RefPolicy::Warn,
        ..Options::default()
    };
    let draft7_content = Options {
        assert_content: true,
        default_dialect: Dialect::Draft7,
        ..Options::default()
    };
    vec![
        case(
            "remote $ref (RemoteRef)",
            json!({"properties": {"w": {"$ref": remote}}}),
        ),
        Case {
            options: warn.clone(),
            instances: vec![json!({"w": 1})],
            ..case(
                "remote $ref under warn (warning, incomplete)",
                json!({"properties": {"w": {"$ref": remote}}}),
            )
        },
        Case {
            options: warn,
            instances: vec![json!(1)],
            ..case(
                "relative $ref against a base $id (warning, incomplete)",
                json!({"$id": format!("{remote}/root.json"), "$ref": "other.json"}),
            )
        },
        case(
            "missing JSON pointer target (UnresolvedRef)",
            json!({"$ref": format!("#/$defs/{forged}")}),
        ),
        case(
            "missing target in a resource named by $id",
            json!({"$id": format!("{remote}.json"), "$ref": "#/nothing"}),
        ),
        case(
            "missing anchor",
            json!({"$id": format!("{remote}.json"), "$ref": format!("#{forged}")}),
        ),
        Case {
            documents: vec![(format!("{remote}/d.json"), json!({"$defs": {}}))],
            ..case(
                "missing target in a registered document",
                json!({"$ref": format!("{remote}/d.json#/$defs/{forged}")}),
            )
        },
        case(
            "one $id twice (InvalidIdentifier)",
            json!({"$defs": {
                format!("x{e}"): {"$id": format!("{remote}.json")},
                format!("y{e}"): {"$id": format!("{remote}.json")}
            }}),
        ),
        case(
            "one anchor twice",
            json!({"$id": format!("{remote}.json"), "$defs": {
                "x": {"$anchor": "n"}, "y": {"$anchor": "n"}
            }}),
        ),
        case(
            "$id with a fragment",
            json!({"$id": format!("{remote}#{forged}")}),
        ),
        case(
            "anchor that is not a name",
            json!({"$defs": {format!("x{e}"): {"$anchor": forged}}}),
        ),
        case(
            "unknown $schema (UnsupportedDialect)",
            json!({"$schema": remote}),
        ),
        case(
            "$schema in a subschema (MisplacedSchema)",
            json!({"properties": {"p": {"$schema": remote}}}),
        ),
        Case {
            options: Options {
                strict: true,
                ..Options::default()
            },
            ..case(
                "unknown keyword under strict (UnknownKeyword)",
                json!({format!("type{e}"): "string"}),
            )
        },
        case(
            "misspelled keyword (warning)",
            json!({"properties": {format!("p{e}"): {format!("type{e}"): "string"}}}),
        ),
        case(
            "keyword shape under a property name (InvalidKeyword)",
            json!({"properties": {forged.clone(): {"required": forged}}}),
        ),
        case(
            "invalid pattern (InvalidRegex)",
            json!({"pattern": format!("{forged}(")}),
        ),
        case(
            "backreference (UnsupportedRegex)",
            json!({"patternProperties": {format!("({forged})\\1"): true}}),
        ),
        Case {
            options: Options {
                unsupported_regex: UnsupportedRegexPolicy::Ignore,
                ..Options::default()
            },
            ..case(
                "ignored backreference (warning)",
                json!({"pattern": format!("({forged})\\1")}),
            )
        },
        Case {
            options: Options {
                regex: schemac::regex::RegexOptions {
                    max_program_size: 10,
                    ..Default::default()
                },
                ..Options::default()
            },
            ..case(
                "pattern over the size limit (RegexTooLarge)",
                json!({"pattern": format!("{forged}{forged}")}),
            )
        },
        Case {
            options: Options {
                assert_format: true,
                ..Options::default()
            },
            ..case("unknown format (warning)", json!({"format": forged}))
        },
        Case {
            options: draft7_content,
            ..case(
                "content encoding and media type (warnings)",
                json!({"contentEncoding": forged, "contentMediaType": forged}),
            )
        },
        Case {
            options: Options {
                max_schema_depth: 1,
                ..Options::default()
            },
            ..case(
                "schema nesting (SchemaTooDeep)",
                json!({"properties": {forged.clone(): {"properties": {forged.clone(): {}}}}}),
            )
        },
        Case {
            options: Options {
                max_subschemas: 1,
                ..Options::default()
            },
            ..case(
                "subschema count (TooManySubschemas)",
                json!({"properties": {forged.clone(): {"type": "string"}}}),
            )
        },
        Case {
            options: Options {
                assert_format: true,
                ..Options::default()
            },
            instances: vec![json!({forged.clone(): 1, "f": "not a date"})],
            ..case(
                "validation errors under property names",
                json!({
                    "properties": {forged.clone(): {"type": "string"}, "f": {"format": "date"}},
                    "required": [forged],
                    "dependentRequired": {forged.clone(): [format!("{forged}2")]},
                    "propertyNames": {"pattern": format!("^[^{e}]*$")}
                }),
            )
        },
    ]
}

#[test]
fn every_message_escapes_what_schemas_and_instances_put_in_it() {
    let mut kinds = BTreeSet::new();
    let mut warnings = 0;
    let mut reports = 0;
    for e in FORGERS {
        for case in cases(e) {
            let what = format!("{} with U+{:04X}", case.what, e as u32);
            let mut compiler = Compiler::new(case.options);
            for (uri, document) in case.documents {
                compiler.add_document(&uri, document).expect(&what);
            }
            // Each case's texts must quote the forger, escaped (a backslash shows it).
            let mut texts = Vec::new();
            match compiler.compile_named(&format!("s{e}.json"), &case.schema) {
                Err(errors) => {
                    assert!(case.instances.is_empty(), "{what}: {errors:?}");
                    for error in errors {
                        kinds.insert(error.kind.name());
                        texts.push(error.to_string());
                    }
                }
                Ok(program) => {
                    warnings += program.warnings.len();
                    texts.extend(program.warnings.iter().map(ToString::to_string));
                    let validator = schemac::interp::Interpreter::new(program);
                    for instance in &case.instances {
                        let Report {
                            verdict, errors, ..
                        } = validator.validate(instance);
                        reports += 1;
                        match verdict {
                            Verdict::Valid => panic!("{what}: {instance} is valid"),
                            Verdict::Invalid => {
                                texts.extend(errors.iter().map(ToString::to_string))
                            }
                            Verdict::Incomplete(reason) => texts.push(reason.to_string()),
                        }
                    }
                }
            }
            assert!(!texts.is_empty(), "{what}: no message");
            for text in &texts {
                if let Err(why) = check_safe(text) {
                    panic!("{what}: {why}");
                }
            }
            assert!(
                texts.iter().any(|t| t.contains('\\')),
                "{what}: no message quotes the character, escaped: {texts:#?}"
            );
        }
    }
    let every_kind = [
        CompileErrorKind::InvalidKeyword,
        CompileErrorKind::UnknownKeyword,
        CompileErrorKind::UnsupportedDialect,
        CompileErrorKind::MisplacedSchema,
        CompileErrorKind::InvalidIdentifier,
        CompileErrorKind::UnresolvedRef,
        CompileErrorKind::RemoteRef,
        CompileErrorKind::InvalidRegex,
        CompileErrorKind::UnsupportedRegex,
        CompileErrorKind::RegexTooLarge,
        CompileErrorKind::SchemaTooDeep,
        CompileErrorKind::TooManySubschemas,
    ];
    for kind in every_kind {
        assert!(kinds.contains(kind.name()), "no {} error made", kind.name());
    }
    assert!(warnings >= 6 * FORGERS.len(), "{warnings} warnings");
    assert_eq!(reports, 3 * FORGERS.len());
}

#[test]
fn tool_lists_escape_tool_names_and_document_names() {
    for e in FORGERS {
        let list = json!({"tools": [
            {"name": format!("t{e}")},
            {"name": format!("a{e}"), "inputSchema": {"type": "object"}},
            {"name": format!("a{e}"), "inputSchema": {"type": "object"}},
            {"name": format!("u{e}")},
        ]});
        let errors = schemac::mcp::tools(&format!("tools{e}.json"), &list).errors;
        assert!(errors.len() >= 2, "{errors:?}");
        for error in &errors {
            assert_eq!(error.kind, CompileErrorKind::InvalidDocument);
            if let Err(why) = check_safe(&error.to_string()) {
                panic!("U+{:04X}: {why}", e as u32);
            }
        }
    }
}
