//! The front end's errors and warnings on bad schemas, and the IR it lowers to.

use schemac::ir::{CheckKind, Program};
use schemac::{CompileError, CompileErrorKind, Compiler, Dialect, Options, RefPolicy};
use serde_json::{json, Value};

fn compile(schema: Value) -> Result<Program, Vec<CompileError>> {
    Compiler::new(Options::default()).compile_named("tool.json", &schema)
}

fn single_error(schema: Value) -> CompileError {
    let errors = compile(schema).expect_err("schema should not compile");
    assert_eq!(errors.len(), 1, "expected one error, got {errors:?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn required_must_be_an_array() {
    let error = single_error(json!({"type": "object", "required": "query"}));
    assert_eq!(error.kind, CompileErrorKind::InvalidKeyword);
    assert_eq!(error.location.document, "tool.json");
    assert_eq!(error.location.pointer, "/required");
    assert_eq!(error.location.keyword.as_deref(), Some("required"));
    let text = error.to_string();
    assert!(text.contains("tool.json#/required"), "{text}");
    assert!(text.contains("array of strings"), "{text}");
}

#[test]
fn missing_local_target_is_unresolved() {
    let error = single_error(json!({
        "type": "object",
        "properties": {"id": {"$ref": "#/$defs/identifier"}}
    }));
    assert_eq!(error.kind, CompileErrorKind::UnresolvedRef);
    assert_eq!(error.location.pointer, "/properties/id/$ref");
    assert!(
        error.message.contains("/$defs/identifier"),
        "{}",
        error.message
    );
}

#[test]
fn missing_anchor_is_unresolved() {
    let error = single_error(json!({"$ref": "#nowhere"}));
    assert_eq!(error.kind, CompileErrorKind::UnresolvedRef);
}

#[test]
fn unknown_dialect_is_unsupported() {
    let error = single_error(json!({
        "$schema": "https://example.com/schemas/custom-dialect",
        "type": "object"
    }));
    assert_eq!(error.kind, CompileErrorKind::UnsupportedDialect);
    assert_eq!(error.location.keyword.as_deref(), Some("$schema"));
}

#[test]
fn disallowed_dialect_is_unsupported() {
    let options = Options {
        allowed_dialects: vec![Dialect::Draft2020_12, Dialect::Draft7],
        ..Options::default()
    };
    let schema = json!({"$schema": "https://json-schema.org/draft/2019-09/schema"});
    let errors = Compiler::new(options).compile(&schema).unwrap_err();
    assert_eq!(errors[0].kind, CompileErrorKind::UnsupportedDialect);
}

#[test]
fn remote_reference_is_an_error_by_default_and_a_warning_under_warn() {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {"$ref": "https://schemas.example.com/common.json#/$defs/identifier"}
        }
    });
    let error = single_error(schema.clone());
    assert_eq!(error.kind, CompileErrorKind::RemoteRef);
    assert!(error.message.contains("never fetches"), "{}", error.message);

    let options = Options {
        ref_policy: RefPolicy::Warn,
        ..Options::default()
    };
    let program = Compiler::new(options).compile(&schema).unwrap();
    assert_eq!(program.warnings.len(), 1);
    let unresolved = program
        .nodes
        .iter()
        .flat_map(|n| &n.checks)
        .any(|c| matches!(&c.kind, CheckKind::Unresolved { uri } if uri.starts_with("https://schemas.example.com/common.json")));
    assert!(unresolved, "the warn policy lowers to an Unresolved check");
}

#[test]
fn registered_documents_resolve() {
    let mut compiler = Compiler::new(Options::default());
    compiler
        .add_document(
            "https://schemas.example.com/common.json",
            json!({"$defs": {"identifier": {"type": "string"}}}),
        )
        .unwrap();
    let program = compiler
        .compile(&json!({"$ref": "https://schemas.example.com/common.json#/$defs/identifier"}))
        .unwrap();
    let target = match &program.node(program.root).checks[0].kind {
        CheckKind::Ref(edge) => edge.target,
        other => panic!("expected a $ref check, got {other:?}"),
    };
    assert_eq!(
        program.node(target).uri,
        "https://schemas.example.com/common.json#/$defs/identifier"
    );
}

#[test]
fn schema_keyword_only_at_resource_roots() {
    // Naming the dialect in force: ignored, with one warning that counts every place.
    let program = compile(json!({
        "properties": {
            "a": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"},
            "b": {"$schema": "https://json-schema.org/draft/2020-12/schema#"},
            "c": {"items": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}
        }
    }))
    .unwrap();
    assert_eq!(program.warnings.len(), 1, "{:?}", program.warnings);
    let warning = &program.warnings[0];
    assert_eq!(warning.location.pointer, "/properties/a");
    assert_eq!(warning.location.keyword.as_deref(), Some("$schema"));
    assert!(warning.message.contains("3 subschemas"), "{warning}");
    let one = compile(
        json!({"$defs": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}}),
    )
    .unwrap();
    assert_eq!(one.warnings.len(), 1, "{:?}", one.warnings);
    assert!(
        !one.warnings[0].message.contains("subschemas"),
        "{}",
        one.warnings[0]
    );

    // Naming another dialect (supported or not): an error naming both.
    for other in [
        "http://json-schema.org/draft-07/schema#",
        "https://example.com/custom-dialect",
    ] {
        let error = single_error(json!({"properties": {"a": {"$schema": other}}}));
        assert_eq!(error.kind, CompileErrorKind::MisplacedSchema, "{other}");
        assert_eq!(error.location.pointer, "/properties/a");
        assert_eq!(error.location.keyword.as_deref(), Some("$schema"));
        assert!(error.message.contains(other), "{error}");
        assert!(
            error.message.contains(Dialect::Draft2020_12.uri()),
            "{error}"
        );
    }
    // At a resource root it may change the dialect.
    assert!(compile(json!({
        "properties": {"a": {"$id": "a.json", "$schema": "http://json-schema.org/draft-07/schema#"}}
    }))
    .unwrap()
    .warnings
    .is_empty());
    // A draft-04 resource is identified by `id`.
    assert!(compile(json!({
        "properties": {"a": {"id": "a.json", "$schema": "http://json-schema.org/draft-04/schema#"}}
    }))
    .is_ok());
}

#[test]
fn misspelled_keywords_warn_once_per_schema_and_extensions_never() {
    let schema = json!({
        "properties": {
            "a": {"type": "string", "minLenght": 3, "example": "x", "x-order": 1},
            "b": {"type": "string", "minLenght": 4, "markdownDescription": "*b*"},
            "c": {
                "markdownEnumDescriptions": ["x"], "enumDescriptions": ["x"],
                "deprecationMessage": "old", "defaultSnippets": [], "errorMessage": "bad",
                "@comment": "not a typo", "nullable": true, "enum": ["x"]
            }
        }
    });
    let program = compile(schema).unwrap();
    assert_eq!(program.warnings.len(), 1, "{:?}", program.warnings);
    let warning = &program.warnings[0];
    assert!(
        warning.message.contains("did you mean `minLength`"),
        "{warning}"
    );
    assert!(warning.message.contains("2 subschemas"), "{warning}");
    assert_eq!(warning.location.pointer, "/properties/a/minLenght");
    // A keyword of another dialect is not a typo.
    let program = compile(json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "$defs": {"a": {"type": "string"}}}))
    .unwrap();
    assert!(program.warnings.is_empty(), "{:?}", program.warnings);
}

#[test]
fn draft4_lowers_its_own_rules() {
    let options = Options {
        default_dialect: Dialect::Draft4,
        ..Options::default()
    };
    let compiler = Compiler::new(options);
    let program = compiler
        .compile(&json!({
            "type": "integer", "maximum": 3, "exclusiveMaximum": true, "minimum": 1,
            "const": 2, "contains": {"type": "null"}
        }))
        .unwrap();
    let kinds: Vec<&CheckKind> = program
        .node(program.root)
        .checks
        .iter()
        .map(|c| &c.kind)
        .collect();
    assert!(matches!(kinds[0], CheckKind::Type(_)), "{kinds:?}");
    assert!(
        matches!(kinds[1], CheckKind::IntegerLiteral(_)),
        "{kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| matches!(k, CheckKind::Minimum(_))),
        "{kinds:?}"
    );
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, CheckKind::ExclusiveMaximum(_))),
        "{kinds:?}"
    );
    assert!(
        !kinds.iter().any(|k| matches!(k, CheckKind::Maximum(_))),
        "{kinds:?}"
    );
    // draft-04 has no `const` nor `contains`.
    assert_eq!(kinds.len(), 4, "{kinds:?}");

    // No boolean schemas, except in `additionalProperties` / `additionalItems`.
    let errors = compiler
        .compile(&json!({"properties": {"a": true}, "additionalProperties": false}))
        .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, CompileErrorKind::InvalidKeyword);
    assert_eq!(errors[0].location.pointer, "/properties/a");
    assert!(errors[0].message.contains("draft-04"), "{}", errors[0]);
    // A boolean `exclusiveMaximum` is draft-04's; a number there is an error.
    let error = compiler
        .compile(&json!({"maximum": 3, "exclusiveMaximum": 3}))
        .unwrap_err();
    assert_eq!(
        error[0].location.keyword.as_deref(),
        Some("exclusiveMaximum")
    );
}

#[test]
fn content_asserts_only_in_draft7_and_only_when_asked() {
    let schema = |dialect: Dialect| {
        json!({"$schema": dialect.uri(), "contentEncoding": "base64",
            "contentMediaType": "application/json"})
    };
    let asserting = Compiler::new(Options {
        assert_content: true,
        ..Options::default()
    });
    let draft7 = asserting.compile(&schema(Dialect::Draft7)).unwrap();
    let kinds: Vec<&CheckKind> = draft7
        .node(draft7.root)
        .checks
        .iter()
        .map(|c| &c.kind)
        .collect();
    assert!(
        matches!(
            kinds[..],
            [
                CheckKind::ContentBase64,
                CheckKind::ContentJson { base64: true }
            ]
        ),
        "{kinds:?}"
    );
    for dialect in [Dialect::Draft2020_12, Dialect::Draft2019_09] {
        let program = asserting.compile(&schema(dialect)).unwrap();
        assert!(program.node(program.root).checks.is_empty(), "{dialect:?}");
    }
    let annotating = compile(schema(Dialect::Draft7)).unwrap();
    assert!(annotating.node(annotating.root).checks.is_empty());
    // An encoding or media type it cannot assert: a warning.
    let other = asserting
        .compile(&json!({"$schema": Dialect::Draft7.uri(), "contentMediaType": "image/png"}))
        .unwrap();
    assert_eq!(other.warnings.len(), 1, "{:?}", other.warnings);
    assert_eq!(
        other.warnings[0].location.keyword.as_deref(),
        Some("contentMediaType")
    );
}

#[test]
fn mcp_refuses_other_dialects_saying_why() {
    let compiler = Compiler::new(schemac::mcp::options(Options::default()));
    let error = compiler
        .compile(&json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}))
        .unwrap_err()
        .remove(0);
    assert_eq!(error.kind, CompileErrorKind::UnsupportedDialect);
    assert!(error.message.contains("MCP"), "{error}");
    assert!(error.message.contains("draft4"), "{error}");
    assert!(compiler
        .compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#"}))
        .is_ok());
}

#[test]
fn shapes_are_checked() {
    for (schema, pointer) in [
        (json!({"minLength": -1}), "/minLength"),
        (json!({"type": "strin"}), "/type"),
        (json!({"multipleOf": 0}), "/multipleOf"),
        (json!({"properties": {"a": 3}}), "/properties/a"),
        (json!({"allOf": []}), "/allOf"),
        (json!({"enum": "a"}), "/enum"),
        (json!({"$ref": 1}), "/$ref"),
    ] {
        let error = single_error(schema.clone());
        assert_eq!(error.kind, CompileErrorKind::InvalidKeyword, "{schema}");
        assert_eq!(error.location.pointer, pointer, "{schema}");
    }
    // Counts accept integral floats.
    assert!(compile(json!({"minLength": 2.0})).is_ok());
    // A document must be an object or a boolean.
    assert_eq!(
        single_error(json!("string")).kind,
        CompileErrorKind::InvalidKeyword
    );
}

#[test]
fn limits_fail_closed() {
    let mut deep = json!({"type": "string"});
    for _ in 0..70 {
        deep = json!({"items": deep});
    }
    let errors = compile(deep).unwrap_err();
    assert!(errors
        .iter()
        .any(|e| e.kind == CompileErrorKind::SchemaTooDeep));

    let wide: serde_json::Map<String, Value> = (0..50)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let options = Options {
        max_subschemas: 10,
        ..Options::default()
    };
    let errors = Compiler::new(options)
        .compile(&json!({"properties": wide}))
        .unwrap_err();
    assert!(errors
        .iter()
        .any(|e| e.kind == CompileErrorKind::TooManySubschemas));
}

#[test]
fn unknown_keywords_warn_or_fail_under_strict() {
    let schema = json!({"type": "string", "minLenght": 3, "markdownDescription": "x"});
    let program = compile(schema.clone()).unwrap();
    assert_eq!(program.warnings.len(), 1, "{:?}", program.warnings);
    assert!(program.warnings[0].message.contains("minLength"));

    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let errors = Compiler::new(strict).compile(&schema).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert!(errors
        .iter()
        .all(|e| e.kind == CompileErrorKind::UnknownKeyword));
}

#[test]
fn draft7_ref_overrides_siblings() {
    let options = Options {
        default_dialect: Dialect::Draft7,
        ..Options::default()
    };
    let program = Compiler::new(options)
        .compile(&json!({
            "definitions": {"a": {"type": "integer"}},
            "properties": {"x": {"$ref": "#/definitions/a", "maxLength": 2}}
        }))
        .unwrap();
    let x = program
        .nodes
        .iter()
        .find(|n| n.uri.ends_with("#/properties/x"))
        .unwrap();
    assert_eq!(x.checks.len(), 1);
    assert!(matches!(x.checks[0].kind, CheckKind::Ref(_)));
}

#[test]
fn base_uris_follow_ids() {
    let program = compile(json!({
        "$id": "https://example.com/root.json",
        "$defs": {
            "inner": {"$id": "inner/schema.json", "$defs": {"x": {"$anchor": "x", "type": "null"}}}
        },
        "$ref": "https://example.com/inner/schema.json#x"
    }))
    .unwrap();
    let target = match &program.node(program.root).checks[0].kind {
        CheckKind::Ref(edge) => edge.target,
        other => panic!("expected a $ref check, got {other:?}"),
    };
    assert_eq!(
        program.node(target).uri,
        "https://example.com/inner/schema.json#/$defs/x"
    );
}

#[test]
fn duplicate_ids_in_one_document_are_errors() {
    let error = single_error(json!({
        "$defs": {
            "a": {"$id": "https://example.com/item.json", "type": "string"},
            "b": {"$id": "https://example.com/item.json", "type": "integer"}
        },
        "$ref": "https://example.com/item.json"
    }));
    assert_eq!(error.kind, CompileErrorKind::InvalidIdentifier);
    assert_eq!(error.location.pointer, "/$defs/b");
    assert_eq!(error.location.keyword.as_deref(), Some("$id"));
    assert!(
        error.message.contains("#/$defs/a already declares"),
        "{}",
        error.message
    );
    // The same identifier reached by relative and absolute references, and the root's
    // own identifier declared again below.
    let error = single_error(json!({
        "$id": "https://example.com/root.json",
        "$defs": {
            "a": {"$id": "item.json"},
            "b": {"$id": "https://example.com/item.json"}
        }
    }));
    assert_eq!(error.kind, CompileErrorKind::InvalidIdentifier);
    let error = single_error(json!({
        "$id": "https://example.com/root.json",
        "items": {"$id": "root.json"}
    }));
    assert_eq!(error.location.pointer, "/items");
    // Under draft-07 too.
    let errors = Compiler::new(Options {
        default_dialect: Dialect::Draft7,
        ..Options::default()
    })
    .compile(&json!({
        "definitions": {
            "a": {"$id": "http://example.com/x.json"},
            "b": {"$id": "http://example.com/x.json"}
        }
    }))
    .expect_err("duplicate $id");
    assert_eq!(errors[0].kind, CompileErrorKind::InvalidIdentifier);
}

#[test]
fn ids_that_are_data_or_anchors_are_not_duplicates() {
    // `$id`s inside an unknown keyword, `enum`, `const`, `examples` or `default` are data.
    compile(json!({
        "$id": "https://example.com/root.json",
        "$defs": {"a": {"$id": "https://example.com/item.json"}},
        "x-unknown": {"$id": "https://example.com/item.json"},
        "enum": [{"$id": "https://example.com/item.json"}],
        "const": {"$id": "https://example.com/root.json"},
        "examples": [{"$id": "https://example.com/item.json"}],
        "default": {"$id": "https://example.com/item.json"}
    }))
    .expect("compiles");
    // draft-07: a fragment-only `$id` is an anchor; one name per resource, but the same
    // name in two resources is fine.
    let draft7 = Compiler::new(Options {
        default_dialect: Dialect::Draft7,
        ..Options::default()
    });
    draft7
        .compile(&json!({
            "definitions": {
                "a": {"$id": "#foo"},
                "r": {"$id": "http://example.com/other.json", "definitions": {"b": {"$id": "#foo"}}}
            },
            "$ref": "#foo"
        }))
        .expect("compiles");
    let errors = draft7
        .compile(&json!({"definitions": {"a": {"$id": "#foo"}, "b": {"$id": "#foo"}}}))
        .expect_err("anchor defined twice");
    assert_eq!(errors[0].kind, CompileErrorKind::InvalidIdentifier);
    assert!(
        errors[0].message.contains("anchor"),
        "{}",
        errors[0].message
    );
}

#[test]
fn a_schema_far_past_the_nesting_limit_is_one_error() {
    let mut schema = json!({});
    for _ in 0..3000 {
        let mut object = serde_json::Map::new();
        object.insert("items".into(), schema);
        schema = Value::Object(object);
    }
    let errors = Compiler::new(Options::default())
        .compile_named("tool.json", &schema)
        .expect_err("too deep");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, CompileErrorKind::SchemaTooDeep);
    // serde_json's drop recurses: take the value apart without recursion.
    schemac_runtime::json::drop_deep(schema);
}

#[test]
fn draft4_ids_count_alike() {
    let draft4 = Compiler::new(Options {
        default_dialect: Dialect::Draft4,
        ..Options::default()
    });
    let errors = draft4
        .compile(&json!({
            "definitions": {
                "a": {"id": "http://example.com/x.json"},
                "b": {"id": "http://example.com/x.json"}
            }
        }))
        .expect_err("duplicate id");
    assert_eq!(errors[0].kind, CompileErrorKind::InvalidIdentifier);
    assert_eq!(errors[0].location.keyword.as_deref(), Some("id"));
    assert!(errors[0].message.contains("`id`"), "{}", errors[0].message);
    // A fragment-only `id` is an anchor; `$id` is not an identifier in draft-04.
    draft4
        .compile(&json!({
            "definitions": {
                "a": {"id": "#foo"},
                "b": {"$id": "http://example.com/x.json"},
                "c": {"$id": "http://example.com/x.json"}
            },
            "$ref": "#foo"
        }))
        .expect("compiles");
}

#[test]
fn a_pattern_error_keeps_the_regex_error_as_its_source() {
    let error = single_error(json!({"pattern": "a(b"}));
    assert_eq!(error.kind, CompileErrorKind::InvalidRegex);
    assert_eq!(error.location.pointer, "/pattern");
    let source = std::error::Error::source(&error).expect("the regex error is the source");
    assert!(
        error.message.contains(&source.to_string()),
        "{} / {source}",
        error.message
    );
    // The caret line points under the pattern.
    assert!(error.message.contains("\"a(b\"\n"), "{}", error.message);
    assert!(matches!(
        error.regex.as_deref(),
        Some(schemac::regex::RegexError::Invalid { .. })
    ));
}
