//! Compiler options: dialects, reference policy, format assertion, limits.

use crate::regex::RegexOptions;
use schemac_runtime::Limits;

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
    /// Patterns the engine refuses: error (default) or ignore.
    pub unsupported_regex: UnsupportedRegexPolicy,
    /// Refuse unknown keywords (for schemas the project authors itself).
    pub strict: bool,
    /// Keep the annotating keywords (meta-data, `format`, content, unknown keywords) in
    /// the program, for [`crate::interp::Interpreter`]'s `evaluate`. Default: off, and the
    /// program is then exactly what validation needs.
    pub annotations: bool,
    /// Deepest nesting of subschemas in a document. Default: 64.
    pub max_schema_depth: usize,
    /// Most subschemas in one compiled program. Default: 10,000.
    pub max_subschemas: usize,
    /// Regex compilation limits.
    pub regex: RegexOptions,
    /// Run-time limits (budget, depth) compiled into the program.
    pub limits: Limits,
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
            unsupported_regex: UnsupportedRegexPolicy::Error,
            strict: false,
            annotations: false,
            max_schema_depth: 64,
            max_subschemas: 10_000,
            regex: RegexOptions::default(),
            limits: Limits::default(),
        }
    }
}
