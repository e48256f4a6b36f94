//! Dialects and vocabularies: what `$schema` declares, per resource.
//!
//! The standard meta-schemas are recognized by URI. Any other `$schema` must name a
//! meta-schema registered offline whose `$vocabulary` lists only vocabularies schemac
//! understands (unknown optional ones are ignored); otherwise it is `UnsupportedDialect`.

use crate::load::Registry;
use crate::{Dialect, Options};
use serde_json::Value;

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
pub(crate) fn detect(
    uri: &str,
    registry: &Registry,
    options: &Options,
) -> Result<DialectInfo, String> {
    let info = match standard(uri) {
        Some(dialect) => DialectInfo::standard(dialect),
        None => custom(uri, registry)?,
    };
    if !options.allowed_dialects.contains(&info.dialect) {
        let allowed: Vec<String> = options
            .allowed_dialects
            .iter()
            .map(|d| format!("{} ({})", d.name(), d.uri()))
            .collect();
        let rule = options
            .dialect_rule
            .as_deref()
            .unwrap_or("the `allowed_dialects` option");
        return Err(format!(
            "dialect {uri:?} ({}) is supported by schemac but not allowed by {rule}; allowed: {}",
            info.dialect.name(),
            allowed.join(", ")
        ));
    }
    Ok(info)
}

/// A custom meta-schema registered offline, read through its `$vocabulary`.
fn custom(uri: &str, registry: &Registry) -> Result<DialectInfo, String> {
    let unsupported = || {
        format!(
            "unsupported dialect {uri:?}: schemac supports {} (or a meta-schema registered \
             offline whose $vocabulary it understands)",
            supported_list()
        )
    };
    let meta = registry
        .get(uri.trim_end_matches('#'))
        .ok_or_else(unsupported)?;
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
