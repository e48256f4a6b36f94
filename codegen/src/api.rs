//! The run-time entry points: a schema in, a ready [`Interpreter`] out, in one call.
//!
//! ```
//! use schemac::Validate;
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "required": ["query"]});
//! let validator = schemac::validator_for(&schema)?;
//! assert!(validator.is_valid(&json!({"query": "rust"})));
//! assert!(!validator.is_valid(&json!({})));
//!
//! assert!(schemac::is_valid(&schema, &json!({"query": "rust"}))?);
//!
//! let draft7 = schemac::options()
//!     .default_dialect(schemac::Dialect::Draft7)
//!     .assert_format(true)
//!     .build(&json!({"format": "email"}))?;
//! assert!(!draft7.is_valid(&json!("not an address")));
//! # Ok::<(), schemac::CompileErrors>(())
//! ```
//!
//! Every compile error is returned together, in a [`CompileErrors`]; nothing panics on a
//! bad schema.

use crate::check::Compiler;
use crate::dialect::Dialect;
use crate::error::CompileError;
use crate::interp::{Interpreter, KeywordCheck};
use crate::options::{Options, RefPolicy};
use schemac_runtime::{Limits, Validate};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// A custom keyword's factory ([`ValidatorOptions::keyword`]).
type KeywordFactory = Arc<dyn Fn(&Value) -> Result<KeywordCheck, String> + Send + Sync>;

/// Compiles `schema` under the default [`Options`] (2020-12 unless `$schema` says
/// otherwise, no remote references, format as annotation) and returns its interpreter.
///
/// ```
/// use schemac::Validate;
/// let validator = schemac::validator_for(&serde_json::json!({"minimum": 1}))?;
/// assert!(validator.is_valid(&serde_json::json!(2)));
/// # Ok::<(), schemac::CompileErrors>(())
/// ```
pub fn validator_for(schema: &Value) -> Result<Interpreter, CompileErrors> {
    options().build(schema)
}

/// Compiles `schema` and checks `instance` against it: `Ok(true)` only when the instance
/// was fully checked and is valid (an incomplete check is `Ok(false)`). A schema that does
/// not compile is an `Err` with every compile error, never `false` and never a panic.
///
/// Compiling costs far more than checking: to check many instances, keep the validator
/// from [`validator_for`].
///
/// ```
/// let schema = serde_json::json!({"type": "string"});
/// assert!(schemac::is_valid(&schema, &serde_json::json!("text"))?);
/// assert!(!schemac::is_valid(&schema, &serde_json::json!(3))?);
/// assert!(schemac::is_valid(&serde_json::json!({"type": 3}), &serde_json::json!(3)).is_err());
/// # Ok::<(), schemac::CompileErrors>(())
/// ```
pub fn is_valid(schema: &Value, instance: &Value) -> Result<bool, CompileErrors> {
    Ok(validator_for(schema)?.is_valid(instance))
}

/// A builder of validators: compiler options and offline documents, then
/// [`ValidatorOptions::build`].
pub fn options() -> ValidatorOptions {
    ValidatorOptions::default()
}

/// The settings [`options`] starts from: compiler [`Options`], the offline documents
/// references may reach, and the document name used in error locations.
#[derive(Clone)]
pub struct ValidatorOptions {
    options: Options,
    documents: Vec<(String, Value)>,
    name: String,
    /// The custom keywords' factories, by name, in the order given.
    keywords: Vec<(String, KeywordFactory)>,
}

impl fmt::Debug for ValidatorOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidatorOptions")
            .field("options", &self.options)
            .field("documents", &self.documents)
            .field("name", &self.name)
            .field(
                "keywords",
                &self.keywords.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Default for ValidatorOptions {
    fn default() -> Self {
        ValidatorOptions {
            options: Options::default(),
            documents: Vec::new(),
            name: "schema".to_string(),
            keywords: Vec::new(),
        }
    }
}

impl ValidatorOptions {
    /// Replaces all compiler options at once.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The dialect of a schema without `$schema` (default 2020-12).
    pub fn default_dialect(mut self, dialect: Dialect) -> Self {
        self.options.default_dialect = dialect;
        self
    }

    /// The dialects a schema may declare; any other `$schema` is `UnsupportedDialect`.
    pub fn allowed_dialects(mut self, dialects: &[Dialect]) -> Self {
        self.options.allowed_dialects = dialects.to_vec();
        self
    }

    /// MCP's rules: 2020-12 (the default) and draft-07 only (see [`crate::mcp::options`]).
    pub fn mcp(mut self) -> Self {
        self.options = crate::mcp::options(self.options);
        self
    }

    /// What a reference to a document that is not registered does (default: error).
    pub fn ref_policy(mut self, policy: RefPolicy) -> Self {
        self.options.ref_policy = policy;
        self
    }

    /// Whether `format` asserts (default: annotation only).
    pub fn assert_format(mut self, assert: bool) -> Self {
        self.options.assert_format = assert;
        self
    }

    /// Keeps the annotating keywords, so that [`schemac_runtime::Evaluate::evaluate`]
    /// reports them (default: off; see [`Options::annotations`]).
    pub fn annotations(mut self, annotations: bool) -> Self {
        self.options.annotations = annotations;
        self
    }

    /// Plans what [`Interpreter::apply_defaults`] inserts (default: off, and it inserts
    /// nothing; see [`Options::defaults`]).
    pub fn defaults(mut self, defaults: bool) -> Self {
        self.options.defaults = defaults;
        self
    }

    /// Adds the custom keyword `name`, in every dialect: `factory` is given each
    /// occurrence's value once, at [`ValidatorOptions::build`], and makes its check — a
    /// closure that, given the instance, returns `Ok` or a message saying what to change
    /// (the error's message; shown escaped). A factory's `Err` (a value the keyword does
    /// not take) is an `InvalidKeyword` compile error at the keyword. A name the schema's
    /// dialect knows is a compile error. Replaces an earlier factory of the same name.
    ///
    /// ```
    /// use schemac::Validate;
    /// use serde_json::json;
    ///
    /// let validator = schemac::options()
    ///     .keyword("x-even-length", |value| {
    ///         let wanted = value.as_bool().ok_or("takes true or false")?;
    ///         Ok(Box::new(move |instance: &serde_json::Value| match instance.as_str() {
    ///             Some(s) if wanted && s.len() % 2 == 1 => {
    ///                 Err(format!("string must have an even length, not {}", s.len()))
    ///             }
    ///             _ => Ok(()),
    ///         }))
    ///     })
    ///     .build(&json!({"x-even-length": true}))?;
    /// assert!(validator.is_valid(&json!("ab")));
    /// let report = validator.validate(&json!("abc"));
    /// assert_eq!(report.errors[0].kind.to_string(), "string must have an even length, not 3");
    /// assert_eq!(report.errors[0].keyword_location, "/x-even-length");
    /// # Ok::<(), schemac::CompileErrors>(())
    /// ```
    pub fn keyword(
        mut self,
        name: impl Into<String>,
        factory: impl Fn(&Value) -> Result<KeywordCheck, String> + Send + Sync + 'static,
    ) -> Self {
        let name = name.into();
        self.keywords.retain(|(n, _)| *n != name);
        self.keywords.push((name, Arc::new(factory)));
        self
    }

    /// Refuses unknown keywords.
    pub fn strict(mut self, strict: bool) -> Self {
        self.options.strict = strict;
        self
    }

    /// The run-time limits (evaluation budget and depth).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Registers an offline document that references may reach under `uri`. Nothing is
    /// ever fetched; a bad URI is reported by [`ValidatorOptions::build`].
    pub fn with_document(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.documents.push((uri.into(), document));
        self
    }

    /// The name the schema goes by in error locations (default `schema`).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The compiler options as they stand.
    pub fn compiler_options(&self) -> &Options {
        &self.options
    }

    /// Compiles `schema` and returns its interpreter, or every compile error.
    pub fn build(&self, schema: &Value) -> Result<Interpreter, CompileErrors> {
        let mut options = self.options.clone();
        for (name, _) in &self.keywords {
            if !options.custom_keywords.contains(name) {
                options.custom_keywords.push(name.clone());
            }
        }
        let mut compiler = Compiler::new(options);
        let mut errors = Vec::new();
        for (uri, document) in &self.documents {
            if let Err(error) = compiler.add_document(uri, document.clone()) {
                errors.push(error);
            }
        }
        if !errors.is_empty() {
            return Err(CompileErrors(errors));
        }
        let program = compiler
            .compile_named(&self.name, schema)
            .map_err(CompileErrors)?;
        let mut interpreter = Interpreter::new(program);
        for (name, factory) in &self.keywords {
            errors.append(&mut interpreter.bind_keyword(name, factory.as_ref()));
        }
        if errors.is_empty() {
            Ok(interpreter)
        } else {
            Err(CompileErrors(errors))
        }
    }
}

/// Every error that stopped a schema from compiling (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileErrors(pub Vec<CompileError>);

impl CompileErrors {
    /// The errors, in the order the compiler found them.
    pub fn errors(&self) -> &[CompileError] {
        &self.0
    }

    /// Whether any error is of `kind`.
    pub fn has_kind(&self, kind: &crate::error::CompileErrorKind) -> bool {
        self.0.iter().any(|e| &e.kind == kind)
    }
}

impl From<Vec<CompileError>> for CompileErrors {
    fn from(errors: Vec<CompileError>) -> Self {
        CompileErrors(errors)
    }
}

impl fmt::Display for CompileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => f.write_str("the schema does not compile"),
            [one] => write!(f, "{one}"),
            many => {
                write!(f, "{} compile errors:", many.len())?;
                for error in many {
                    write!(f, "\n  {error}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for CompileErrors {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CompileErrorKind;
    use serde_json::json;

    #[test]
    fn all_errors_come_back_together() {
        let schema = json!({"properties": {"a": {"type": 3}, "b": {"minimum": "x"}}});
        let errors = validator_for(&schema).unwrap_err();
        assert_eq!(errors.errors().len(), 2, "{errors}");
        assert!(
            errors.to_string().starts_with("2 compile errors:"),
            "{errors}"
        );
        assert!(is_valid(&schema, &json!({})).is_err());
    }

    #[test]
    fn options_narrow_dialects_and_register_documents() {
        let custom = json!({"$schema": "https://example.com/custom", "type": "object"});
        let errors = options().mcp().build(&custom).unwrap_err();
        assert!(
            errors.has_kind(&CompileErrorKind::UnsupportedDialect),
            "{errors}"
        );

        let remote = json!({"$ref": "https://example.com/common.json#/$defs/id"});
        let errors = validator_for(&remote).unwrap_err();
        assert!(errors.has_kind(&CompileErrorKind::RemoteRef), "{errors}");
        let validator = options()
            .with_document(
                "https://example.com/common.json",
                json!({"$defs": {"id": {"type": "integer"}}}),
            )
            .build(&remote)
            .unwrap();
        assert!(validator.is_valid(&json!(3)));
        assert!(!validator.is_valid(&json!("3")));

        let bad_uri = options().with_document("relative.json", json!({}));
        assert!(bad_uri.build(&json!(true)).is_err());
    }

    #[test]
    fn the_named_document_appears_in_errors() {
        let errors = options()
            .named("tools.json")
            .build(&json!({"type": 3}))
            .unwrap_err();
        assert_eq!(errors.errors()[0].location.document, "tools.json");
    }
}
