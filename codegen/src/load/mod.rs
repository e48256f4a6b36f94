//! Loading: documents, the offline registry, resources, anchors and base URIs.
//!
//! Nothing is ever fetched: a reference can only reach documents added to the
//! [`Registry`] (and the compiled document itself).

use crate::error::{CompileError, CompileErrorKind, Location};
use serde_json::Value;
use std::collections::BTreeMap;

/// The base URI of a root document that declares no `$id`.
pub const DEFAULT_BASE_URI: &str = "https://schemac.invalid/root.json";

/// Offline documents that references may reach, by absolute URI (without fragment).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    documents: BTreeMap<String, Value>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Registers `value` under `uri` (an absolute URI; a fragment is an error).
    pub fn add(&mut self, uri: &str, value: Value) -> Result<(), CompileError> {
        if uri.contains('#') && !uri.ends_with('#') {
            return Err(CompileError::new(
                CompileErrorKind::InvalidIdentifier,
                Location {
                    document: uri.to_string(),
                    ..Location::default()
                },
                "a registered document's URI must not have a fragment",
            ));
        }
        self.documents
            .insert(uri.trim_end_matches('#').to_string(), value);
        Ok(())
    }

    /// The document registered under `uri`, if any.
    pub fn get(&self, uri: &str) -> Option<&Value> {
        self.documents.get(uri)
    }

    /// All registered documents, by URI.
    pub fn documents(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.documents.iter().map(|(k, v)| (k.as_str(), v))
    }
}
