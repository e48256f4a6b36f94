//! Compiler options: dialects, reference policy, format assertion, limits.

use crate::dialect::Dialect;
use crate::regex::RegexOptions;
use schemac_runtime::Limits;

/// What to do with a reference to a document that is not in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RefPolicy {
    /// A compile error (`RemoteRef`). The default.
    #[default]
    Error,
    /// Compile with a warning; a validation that reaches the reference is incomplete.
    Warn,
}

/// What to do with a pattern that uses a construct the regex engine refuses
/// (backreferences, modifiers, legacy octal escapes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnsupportedRegexPolicy {
    /// A compile error (`UnsupportedRegex`). The default.
    #[default]
    Error,
    /// Compile with a warning: the `pattern` is skipped and the `patternProperties` entry
    /// matches nothing.
    Ignore,
}

/// Everything the compiler can be told.
#[derive(Debug, Clone)]
pub struct Options {
    /// The dialect of a resource without `$schema`. Default: 2020-12.
    pub default_dialect: Dialect,
    /// The dialects a resource may declare. Default: all supported.
    pub allowed_dialects: Vec<Dialect>,
    /// Who narrowed `allowed_dialects`, named in the `UnsupportedDialect` message of a
    /// dialect that is supported but not allowed (the MCP layer sets "MCP"). `None`: the
    /// message names the `allowed_dialects` option.
    pub dialect_rule: Option<String>,
    /// Unresolvable remote references: error (default) or warn.
    pub ref_policy: RefPolicy,
    /// Whether `format` asserts (default: annotation only).
    pub assert_format: bool,
    /// Whether draft-07's content keywords assert (default: annotation only, as in every
    /// dialect). When on, in draft-07 resources `contentEncoding: "base64"` requires a
    /// string to be valid base64 (RFC 4648, with padding) and `contentMediaType:
    /// "application/json"` requires it (decoded first when `contentEncoding` is base64) to
    /// be JSON; other encodings and media types are not asserted (with a warning).
    /// 2019-09 and 2020-12 keep content as annotations, as their specifications say.
    pub assert_content: bool,
    /// Format names the caller supplies checks for (custom formats). With format
    /// assertion on, these are asserted beside the built-in ones.
    pub custom_formats: Vec<String>,
    /// Keyword names the caller supplies checks for (custom keywords): in every dialect
    /// each becomes a [`crate::ir::CheckKind::Custom`] check, run with the subschema's
    /// costlier assertions (`pattern`, `format`), before its applicators; each call is a
    /// budget unit. A name the dialect knows is a compile error there.
    pub custom_keywords: Vec<String>,
    /// Patterns the engine refuses: error (default) or ignore.
    pub unsupported_regex: UnsupportedRegexPolicy,
    /// Refuse unknown keywords (for schemas the project authors itself).
    pub strict: bool,
    /// Keep the annotating keywords (meta-data, `format`, content, unknown keywords) in
    /// the program, for [`crate::interp::Interpreter`]'s `evaluate`. Default: off, and the
    /// program is then exactly what validation needs.
    pub annotations: bool,
    /// Plan what `apply_defaults` inserts (the `default`s of [`crate::ir::defaults`]):
    /// for [`crate::interp::Interpreter::apply_defaults`] and generated code's
    /// `apply_defaults`. Default: off, and the program holds no defaults.
    pub defaults: bool,
    /// Deepest nesting of subschemas in a document. Default: 64.
    pub max_schema_depth: usize,
    /// Most subschemas in one compiled program. Default: 10,000.
    pub max_subschemas: usize,
    /// Most places the `$dynamicRef`s of one program may land, summed over those that
    /// resolve at run time (their anchor is declared by more than one resource): each
    /// such reference counts the resources declaring its anchor. Generated code holds a
    /// branch per place, so this bounds its size and the time to generate it. Default:
    /// 10,000 ([`Options::DEFAULT_MAX_DYNAMIC_TARGETS`]); over it is
    /// `TooManyDynamicTargets`.
    pub max_dynamic_targets: usize,
    /// Regex compilation limits.
    pub regex: RegexOptions,
    /// Run-time limits (budget, depth) compiled into the program.
    pub limits: Limits,
}

impl Options {
    /// The default [`Options::max_dynamic_targets`]: hundreds of times what the 2020-12
    /// meta-schema and its vocabularies use.
    pub const DEFAULT_MAX_DYNAMIC_TARGETS: usize = 10_000;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            default_dialect: Dialect::Draft2020_12,
            allowed_dialects: Dialect::ALL.to_vec(),
            dialect_rule: None,
            ref_policy: RefPolicy::Error,
            assert_format: false,
            assert_content: false,
            custom_formats: Vec::new(),
            custom_keywords: Vec::new(),
            unsupported_regex: UnsupportedRegexPolicy::Error,
            strict: false,
            annotations: false,
            defaults: false,
            max_schema_depth: 64,
            max_subschemas: 10_000,
            max_dynamic_targets: Options::DEFAULT_MAX_DYNAMIC_TARGETS,
            regex: RegexOptions::default(),
            limits: Limits::default(),
        }
    }
}
