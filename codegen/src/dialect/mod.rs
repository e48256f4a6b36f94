//! Dialects and vocabularies: what `$schema` declares, per resource, and the keywords each
//! dialect knows.
//!
//! Takes a meta-schema URI, the options and a way to look up registered documents; gives
//! the [`Dialect`] and the vocabularies in force. Both `load` (which walks resources, each
//! under its dialect) and `check` (which lowers keywords by dialect and vocabulary) read
//! this module; it reads neither.
//!
//! The standard meta-schemas are recognized by URI. Any other `$schema` must name a
//! meta-schema registered offline whose `$vocabulary` lists only vocabularies schemac
//! understands (unknown optional ones are ignored); otherwise it is `UnsupportedDialect`.

pub(crate) mod keywords;
pub(crate) mod members;

pub use keywords::{all_keywords, KNOWN_EXTENSIONS};

use serde_json::Value;

/// A JSON Schema dialect schemac understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// JSON Schema 2020-12 (`https://json-schema.org/draft/2020-12/schema`).
    Draft2020_12,
    /// JSON Schema 2019-09 (`https://json-schema.org/draft/2019-09/schema`).
    Draft2019_09,
    /// JSON Schema draft-07 (`http://json-schema.org/draft-07/schema#`).
    Draft7,
    /// JSON Schema draft-06 (`http://json-schema.org/draft-06/schema#`).
    Draft6,
    /// JSON Schema draft-04 (`http://json-schema.org/draft-04/schema#`): `id`, boolean
    /// `exclusiveMaximum` / `exclusiveMinimum`, no boolean schemas, and `1.0` is not an
    /// integer.
    Draft4,
}

impl Dialect {
    /// The canonical meta-schema URI of the dialect.
    pub fn uri(self) -> &'static str {
        match self {
            Dialect::Draft2020_12 => "https://json-schema.org/draft/2020-12/schema",
            Dialect::Draft2019_09 => "https://json-schema.org/draft/2019-09/schema",
            Dialect::Draft7 => "http://json-schema.org/draft-07/schema#",
            Dialect::Draft6 => "http://json-schema.org/draft-06/schema#",
            Dialect::Draft4 => "http://json-schema.org/draft-04/schema#",
        }
    }

    /// Every supported dialect, newest first.
    pub const ALL: [Dialect; 5] = [
        Dialect::Draft2020_12,
        Dialect::Draft2019_09,
        Dialect::Draft7,
        Dialect::Draft6,
        Dialect::Draft4,
    ];

    /// The short name used on the command line: `2020-12`, `2019-09`, `draft7`, `draft6`
    /// or `draft4`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Draft2020_12 => "2020-12",
            Dialect::Draft2019_09 => "2019-09",
            Dialect::Draft7 => "draft7",
            Dialect::Draft6 => "draft6",
            Dialect::Draft4 => "draft4",
        }
    }

    /// Whether the dialect is one of the "draft-0x" family (draft-04, -06, -07): `$ref`
    /// overrides its sibling keywords, `$id` may be a plain-name fragment, and `items` as an
    /// array pairs with `additionalItems`.
    pub fn is_legacy(self) -> bool {
        matches!(self, Dialect::Draft7 | Dialect::Draft6 | Dialect::Draft4)
    }

    /// The keyword that sets a resource's URI: `id` in draft-04, `$id` after.
    pub fn id_keyword(self) -> &'static str {
        if self == Dialect::Draft4 {
            "id"
        } else {
            "$id"
        }
    }

    /// Parses a short name (`2020-12`, `2019-09`, `draft7`, `draft-07`, `draft6`, `draft4`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        match name {
            "2020-12" | "draft2020-12" => Some(Dialect::Draft2020_12),
            "2019-09" | "draft2019-09" => Some(Dialect::Draft2019_09),
            "draft7" | "draft-07" | "7" => Some(Dialect::Draft7),
            "draft6" | "draft-06" | "6" => Some(Dialect::Draft6),
            "draft4" | "draft-04" | "4" => Some(Dialect::Draft4),
            _ => None,
        }
    }
}

/// Which 2020-12 vocabularies are in force for a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Vocabularies {
    /// Applicator keywords (`properties`, `allOf`, `items`, ...).
    pub applicator: bool,
    /// `unevaluatedProperties` / `unevaluatedItems`.
    pub unevaluated: bool,
    /// Validation keywords (`type`, `minimum`, `required`, ...).
    pub validation: bool,
    /// `format` asserts (the format-assertion vocabulary).
    pub format_assertion: bool,
}

impl Vocabularies {
    const ALL: Vocabularies = Vocabularies {
        applicator: true,
        unevaluated: true,
        validation: true,
        format_assertion: false,
    };
}

/// A resource's dialect and the vocabularies its meta-schema enables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DialectInfo {
    /// The keyword set and semantics.
    pub dialect: Dialect,
    /// The vocabularies in force.
    pub vocab: Vocabularies,
}

impl DialectInfo {
    /// The dialect with all its standard vocabularies.
    pub fn standard(dialect: Dialect) -> DialectInfo {
        DialectInfo {
            dialect,
            vocab: Vocabularies::ALL,
        }
    }
}

/// The vocabulary URI prefix of a dialect that has vocabularies.
fn vocab_prefix(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Draft2019_09 => "https://json-schema.org/draft/2019-09/vocab/",
        _ => "https://json-schema.org/draft/2020-12/vocab/",
    }
}

/// The standard dialect a meta-schema URI names, if any. The draft-0x URIs are accepted
/// with or without the empty fragment and with `https` (as written in the wild).
pub(crate) fn standard(uri: &str) -> Option<Dialect> {
    let uri = uri.trim_end_matches('#');
    let legacy = uri
        .strip_prefix("http://json-schema.org/")
        .or_else(|| uri.strip_prefix("https://json-schema.org/"));
    match (uri, legacy) {
        ("https://json-schema.org/draft/2020-12/schema", _) => Some(Dialect::Draft2020_12),
        ("https://json-schema.org/draft/2019-09/schema", _) => Some(Dialect::Draft2019_09),
        (_, Some("draft-07/schema")) => Some(Dialect::Draft7),
        (_, Some("draft-06/schema")) => Some(Dialect::Draft6),
        (_, Some("draft-04/schema")) => Some(Dialect::Draft4),
        _ => None,
    }
}

/// The supported dialects' meta-schema URIs, for messages.
fn supported_list() -> String {
    let uris: Vec<&str> = Dialect::ALL.iter().map(|d| d.uri()).collect();
    uris.join(", ")
}

/// The dialect declared by `$schema: uri`, or a message saying why it is not supported.
/// `registered` looks up an offline document by URI (the load stage's registry), for a
/// custom meta-schema; `allowed` are the dialects a resource may declare and `rule` who
/// narrowed them (the options' `allowed_dialects` and `dialect_rule`).
pub(crate) fn detect<'a>(
    uri: &str,
    registered: impl FnOnce(&str) -> Option<&'a Value>,
    (allowed, rule): (&[Dialect], Option<&str>),
) -> Result<DialectInfo, String> {
    let info = match standard(uri) {
        Some(dialect) => DialectInfo::standard(dialect),
        None => custom(uri, registered)?,
    };
    if !allowed.contains(&info.dialect) {
        let allowed: Vec<String> = allowed
            .iter()
            .map(|d| format!("{} ({})", d.name(), d.uri()))
            .collect();
        let rule = rule.unwrap_or("the `allowed_dialects` option");
        return Err(format!(
            "dialect {uri:?} ({}) is supported by schemac but not allowed by {rule}; allowed: {}",
            info.dialect.name(),
            allowed.join(", ")
        ));
    }
    Ok(info)
}

/// A custom meta-schema registered offline, read through its `$vocabulary`.
fn custom<'a>(
    uri: &str,
    registered: impl FnOnce(&str) -> Option<&'a Value>,
) -> Result<DialectInfo, String> {
    let unsupported = || {
        format!(
            "unsupported dialect {uri:?}: schemac supports {} (or a meta-schema registered \
             offline whose $vocabulary it understands)",
            supported_list()
        )
    };
    let meta = registered(uri.trim_end_matches('#')).ok_or_else(unsupported)?;
    let base = meta
        .get("$schema")
        .and_then(Value::as_str)
        .and_then(standard)
        .unwrap_or(Dialect::Draft2020_12);
    let Some(vocabulary) = meta.get("$vocabulary") else {
        return Ok(DialectInfo::standard(base));
    };
    let vocabulary = vocabulary.as_object().ok_or_else(unsupported)?;
    if !matches!(base, Dialect::Draft2020_12 | Dialect::Draft2019_09) {
        return Err(format!(
            "meta-schema {uri:?} declares `$vocabulary` but is written in {}, which has no \
             vocabularies",
            base.uri()
        ));
    }
    let prefix = vocab_prefix(base);
    let mut vocab = Vocabularies {
        applicator: false,
        unevaluated: false,
        validation: false,
        format_assertion: false,
    };
    for (name, required) in vocabulary {
        let known = match name.strip_prefix(prefix) {
            Some("applicator") => {
                vocab.applicator = true;
                // 2019-09's applicator vocabulary holds `unevaluated*` too.
                if base == Dialect::Draft2019_09 {
                    vocab.unevaluated = true;
                }
                true
            }
            Some("unevaluated") => {
                vocab.unevaluated = true;
                true
            }
            Some("validation") => {
                vocab.validation = true;
                true
            }
            Some("format-assertion") => {
                vocab.format_assertion = true;
                true
            }
            Some("core" | "format-annotation" | "content" | "meta-data") => true,
            // 2019-09's single format vocabulary: asserting only when required.
            Some("format") if base == Dialect::Draft2019_09 => {
                vocab.format_assertion = required.as_bool() == Some(true);
                true
            }
            _ => false,
        };
        if !known && required.as_bool() != Some(false) {
            return Err(format!(
                "meta-schema {uri:?} requires vocabulary {name:?}, which schemac does not \
                 understand"
            ));
        }
    }
    Ok(DialectInfo {
        dialect: base,
        vocab,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use serde_json::json;

    /// [`detect`] under `options`.
    fn detect_under<'a>(
        uri: &str,
        registered: impl FnOnce(&str) -> Option<&'a Value>,
        options: &Options,
    ) -> Result<DialectInfo, String> {
        let rule = options.dialect_rule.as_deref();
        detect(uri, registered, (&options.allowed_dialects, rule))
    }

    /// No registered documents.
    fn none(_: &str) -> Option<&'static Value> {
        None
    }

    #[test]
    fn standard_uris_need_no_registry() {
        let options = Options::default();
        for dialect in Dialect::ALL {
            assert_eq!(
                detect_under(dialect.uri(), none, &options),
                Ok(DialectInfo::standard(dialect))
            );
        }
        // The legacy URIs with `https` and without the empty fragment.
        assert_eq!(
            detect_under("https://json-schema.org/draft-07/schema", none, &options),
            Ok(DialectInfo::standard(Dialect::Draft7))
        );
        let unknown = detect_under("https://example.com/meta", none, &options).unwrap_err();
        assert!(unknown.starts_with("unsupported dialect"), "{unknown}");
    }

    #[test]
    fn custom_meta_schemas_are_read_through_the_lookup() {
        let meta = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$vocabulary": {
                "https://json-schema.org/draft/2020-12/vocab/core": true,
                "https://json-schema.org/draft/2020-12/vocab/validation": true,
                "https://example.com/vocab/optional": false
            }
        });
        let mut asked = Vec::new();
        let info = detect_under(
            "https://example.com/meta#",
            |uri| {
                asked.push(uri.to_string());
                Some(&meta)
            },
            &Options::default(),
        )
        .unwrap();
        assert_eq!(asked, ["https://example.com/meta"], "looked up without `#`");
        assert_eq!(info.dialect, Dialect::Draft2020_12);
        assert!(info.vocab.validation && !info.vocab.applicator && !info.vocab.unevaluated);

        let required = json!({"$vocabulary": {"https://example.com/vocab/x": true}});
        let refused = detect_under(
            "https://example.com/x",
            |_| Some(&required),
            &Options::default(),
        );
        assert!(
            refused.unwrap_err().contains("requires vocabulary"),
            "an unknown required vocabulary is refused"
        );
    }

    #[test]
    fn allowed_dialects_narrow_and_name_their_rule() {
        let options = Options {
            allowed_dialects: vec![Dialect::Draft2020_12],
            dialect_rule: Some("MCP".to_string()),
            ..Options::default()
        };
        let refused = detect_under(Dialect::Draft4.uri(), none, &options).unwrap_err();
        assert!(
            refused.contains("not allowed by MCP") && refused.contains("2020-12"),
            "{refused}"
        );
    }
}
