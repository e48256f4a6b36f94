//! Compile errors and warnings, each with a location: document, JSON pointer, keyword.

use std::fmt;

/// Where in the schema documents something is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Location {
    /// The document: its file name when known, else its URI.
    pub document: String,
    /// JSON pointer to the subschema or value within the document (`""` for the root).
    pub pointer: String,
    /// The keyword concerned, when there is one.
    pub keyword: Option<String>,
}

impl fmt::Display for Location {
    /// `DOCUMENT#POINTER (KEYWORD)`; a part holding a control character, a quote or a
    /// backslash is written as a JSON string, so that no name in a schema can forge a
    /// line of output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use schemac_runtime::error::Escaped;
        let place = format!("{}#{}", self.document, self.pointer);
        write!(f, "{}", Escaped(&place))?;
        if let Some(k) = &self.keyword {
            write!(f, " ({})", Escaped(k))?;
        }
        Ok(())
    }
}

/// What went wrong at compile time.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileErrorKind {
    /// The document is not valid JSON, or not a schema (neither object nor boolean).
    InvalidDocument,
    /// A keyword's value has the wrong shape (`"required": "query"`).
    InvalidKeyword,
    /// An unknown keyword under the `strict` option.
    UnknownKeyword,
    /// `$schema` names a dialect schemac does not support or that is not allowed.
    UnsupportedDialect,
    /// `$schema` in a subschema that is not a resource root.
    MisplacedSchema,
    /// A `$id` or `$anchor` that is malformed or defined twice.
    InvalidIdentifier,
    /// A reference whose target does not exist in a known document.
    UnresolvedRef,
    /// A reference to a document that is not in the registry (nothing is fetched).
    RemoteRef,
    /// A pattern that is not valid ECMA-262.
    InvalidRegex,
    /// A pattern using a construct the linear-time engine refuses.
    UnsupportedRegex,
    /// A pattern whose program is over the size limit or nests groups too deeply.
    RegexTooLarge,
    /// Schema nesting deeper than `max_schema_depth`.
    SchemaTooDeep,
    /// More subschemas than `max_subschemas`.
    TooManySubschemas,
    /// More places for `$dynamicRef`s to land than `max_dynamic_targets`.
    TooManyDynamicTargets,
}

impl CompileErrorKind {
    /// The variant's name, as shown in messages (`UnresolvedRef`).
    pub fn name(&self) -> &'static str {
        match self {
            CompileErrorKind::InvalidDocument => "InvalidDocument",
            CompileErrorKind::InvalidKeyword => "InvalidKeyword",
            CompileErrorKind::UnknownKeyword => "UnknownKeyword",
            CompileErrorKind::UnsupportedDialect => "UnsupportedDialect",
            CompileErrorKind::MisplacedSchema => "MisplacedSchema",
            CompileErrorKind::InvalidIdentifier => "InvalidIdentifier",
            CompileErrorKind::UnresolvedRef => "UnresolvedRef",
            CompileErrorKind::RemoteRef => "RemoteRef",
            CompileErrorKind::InvalidRegex => "InvalidRegex",
            CompileErrorKind::UnsupportedRegex => "UnsupportedRegex",
            CompileErrorKind::RegexTooLarge => "RegexTooLarge",
            CompileErrorKind::SchemaTooDeep => "SchemaTooDeep",
            CompileErrorKind::TooManySubschemas => "TooManySubschemas",
            CompileErrorKind::TooManyDynamicTargets => "TooManyDynamicTargets",
        }
    }
}

/// A compile error: what, where, and a human message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// What went wrong.
    pub kind: CompileErrorKind,
    /// Where.
    pub location: Location,
    /// A human message saying what is wrong and what is allowed.
    pub message: String,
    /// The regex engine's error, for a pattern that did not compile (also the
    /// [`std::error::Error::source`]).
    pub regex: Option<Box<crate::regex::RegexError>>,
}

impl CompileError {
    /// A new error.
    pub fn new(kind: CompileErrorKind, location: Location, message: impl Into<String>) -> Self {
        CompileError {
            kind,
            location,
            message: message.into(),
            regex: None,
        }
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.location,
            self.kind.name(),
            self.message
        )
    }
}

impl std::error::Error for CompileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.regex
            .as_ref()
            .map(|e| &**e as &(dyn std::error::Error + 'static))
    }
}

/// A compile warning: the schema compiles, but something deserves a look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileWarning {
    /// Where.
    pub location: Location,
    /// What.
    pub message: String,
}

impl fmt::Display for CompileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: warning: {}", self.location, self.message)
    }
}
