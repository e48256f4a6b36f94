//! Validation outcomes and errors.
//!
//! Error messages never quote instance values; the instance location (a JSON pointer,
//! which names instance keys as the 2020-12 output format requires) says where.

use crate::limits::Usage;
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// The outcome of a validation: valid, invalid, or incomplete.
///
/// An incomplete check is never reported as valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every check ran and passed.
    Valid,
    /// Some check failed.
    Invalid,
    /// The check could not finish; no failure was found before it stopped.
    Incomplete(IncompleteReason),
}

/// Why a check could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IncompleteReason {
    /// The evaluation budget ([`crate::Limits::budget`]) ran out.
    BudgetExceeded,
    /// The evaluation went deeper than [`crate::Limits::max_depth`] into the instance, or
    /// nested more than [`crate::Limits::max_in_place`] subschema evaluations without a
    /// step into the instance, or more than [`crate::Limits::max_nesting`] in all.
    DepthExceeded,
    /// Evaluation reached a reference to a document that was not available at compile
    /// time (compiled under the `warn` reference policy). Holds the reference's URI.
    UnresolvedRef(Cow<'static, str>),
}

impl fmt::Display for IncompleteReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IncompleteReason::BudgetExceeded => f.write_str("evaluation budget exceeded"),
            IncompleteReason::DepthExceeded => f.write_str("evaluation depth limit exceeded"),
            IncompleteReason::UnresolvedRef(uri) => {
                write!(f, "reached unresolved reference {}", Escaped(uri))
            }
        }
    }
}

/// The JSON types of the `type` keyword, as a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TypeSet(pub u8);

impl TypeSet {
    /// `null`
    pub const NULL: TypeSet = TypeSet(1);
    /// `boolean`
    pub const BOOLEAN: TypeSet = TypeSet(2);
    /// `object`
    pub const OBJECT: TypeSet = TypeSet(4);
    /// `array`
    pub const ARRAY: TypeSet = TypeSet(8);
    /// `number` (includes integers)
    pub const NUMBER: TypeSet = TypeSet(16);
    /// `string`
    pub const STRING: TypeSet = TypeSet(32);
    /// `integer` (numbers with a zero fractional part, `1.0` included)
    pub const INTEGER: TypeSet = TypeSet(64);

    /// The names in schema order of the bits.
    const NAMES: [(TypeSet, &'static str); 7] = [
        (TypeSet::NULL, "null"),
        (TypeSet::BOOLEAN, "boolean"),
        (TypeSet::OBJECT, "object"),
        (TypeSet::ARRAY, "array"),
        (TypeSet::NUMBER, "number"),
        (TypeSet::STRING, "string"),
        (TypeSet::INTEGER, "integer"),
    ];

    /// The type named `name`, if it is one of the seven JSON Schema type names.
    pub fn from_name(name: &str) -> Option<TypeSet> {
        TypeSet::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(t, _)| *t)
    }

    /// The union of two sets.
    pub const fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// Whether every bit of `other` is in `self`.
    pub const fn contains(self, other: TypeSet) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// The JSON type of `value`, as a message names it: `integer` for a number held as an
    /// integer, `number` for any other number (`1.0` included). Names the type only, never
    /// the value.
    pub fn of<'a, I: crate::instance::Instance<'a>>(value: I) -> TypeSet {
        use crate::instance::Kind;
        match value.kind() {
            Kind::Null => TypeSet::NULL,
            Kind::Bool => TypeSet::BOOLEAN,
            Kind::Object => TypeSet::OBJECT,
            Kind::Array => TypeSet::ARRAY,
            Kind::String => TypeSet::STRING,
            Kind::Number if value.as_number().is_some_and(|n| n.is_i64() || n.is_u64()) => {
                TypeSet::INTEGER
            }
            Kind::Number => TypeSet::NUMBER,
        }
    }

    /// The set's names for a sentence: `string`, `string or null`, `object, array or null`.
    pub fn alternatives(self) -> Alternatives {
        Alternatives(self)
    }

    /// Whether `value` has one of the types in the set.
    #[inline]
    pub fn matches<'a, I: crate::instance::Instance<'a>>(self, value: I) -> bool {
        use crate::instance::Kind;
        match value.kind() {
            Kind::Null => self.contains(TypeSet::NULL),
            Kind::Bool => self.contains(TypeSet::BOOLEAN),
            Kind::Object => self.contains(TypeSet::OBJECT),
            Kind::Array => self.contains(TypeSet::ARRAY),
            Kind::String => self.contains(TypeSet::STRING),
            Kind::Number => {
                self.contains(TypeSet::NUMBER)
                    || (self.contains(TypeSet::INTEGER)
                        && value
                            .as_number()
                            .is_some_and(|n| crate::json::is_integer(&n)))
            }
        }
    }
}

impl fmt::Display for TypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (t, name) in TypeSet::NAMES {
            if self.contains(t) {
                if !first {
                    f.write_str(", ")?;
                }
                first = false;
                f.write_str(name)?;
            }
        }
        Ok(())
    }
}

/// A [`TypeSet`]'s names joined for a sentence ([`TypeSet::alternatives`]).
#[derive(Debug, Clone, Copy)]
pub struct Alternatives(TypeSet);

impl fmt::Display for Alternatives {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = TypeSet::NAMES
            .iter()
            .filter(|(t, _)| self.0.contains(*t))
            .map(|(_, name)| *name)
            .collect();
        for (i, name) in names.iter().enumerate() {
            match i {
                0 => {}
                i if i + 1 == names.len() => f.write_str(" or ")?,
                _ => f.write_str(", ")?,
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// `count` and `noun`, the noun in the plural unless the count is one (`1 character`,
/// `2 characters`); `plural` is the plural's ending, replacing `singular`'s.
struct Count(u64, &'static str, &'static str, &'static str);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Count(count, stem, singular, plural) = *self;
        let ending = if count == 1 { singular } else { plural };
        write!(f, "{count} {stem}{ending}")
    }
}

/// `n` characters.
fn characters(n: u64) -> Count {
    Count(n, "character", "", "s")
}

/// `n` items.
fn items(n: u64) -> Count {
    Count(n, "item", "", "s")
}

/// `n` properties.
fn properties(n: u64) -> Count {
    Count(n, "propert", "y", "ies")
}

/// The longest property name, in characters, that a `PropertyNotAllowed` message quotes;
/// a longer one is cut there and its length given (a model can act on its start, and a
/// 15 MB key must not make a 15 MB message).
pub const MAX_PROPERTY_CHARS: usize = 64;

/// What a failed keyword asserted. Holds schema values only, never instance values (the
/// JSON type of the instance, and the name of a property that is not allowed — an
/// instance key, which the instance location names as well — aside).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The `false` schema (also `additionalProperties: false` and friends, reported at the
    /// offending instance location).
    FalseSchema,
    /// `type`
    Type {
        /// The allowed types.
        expected: TypeSet,
        /// The instance's JSON type ([`TypeSet::of`]).
        found: TypeSet,
    },
    /// `const`
    Const {
        /// The constant, as JSON text shortened and escaped for a message (schemac's
        /// `plan::messages`).
        expected: Cow<'static, str>,
    },
    /// `enum`
    Enum {
        /// The first few allowed values, as JSON text shortened and escaped for a message,
        /// with how many more there are (schemac's `plan::messages`).
        allowed: Cow<'static, str>,
    },
    /// A `false` subschema of `additionalProperties` or `unevaluatedProperties` applied to a
    /// property: the object does not allow it.
    PropertyNotAllowed {
        /// The property's name (an instance key, which the instance location names too).
        property: Cow<'static, str>,
        /// The names the object allows, as JSON strings for a message, where they are known
        /// and few; else empty.
        allowed: Cow<'static, str>,
        /// Whether the property is one of the names a subschema declares and the object
        /// allows: `unevaluatedProperties` refuses such a name when that subschema failed.
        declared: bool,
    },
    /// `multipleOf`
    MultipleOf {
        /// The divisor, an integer exactly.
        divisor: crate::json::Divisor,
    },
    /// `minimum`
    Minimum {
        /// The limit.
        limit: f64,
    },
    /// `exclusiveMinimum`
    ExclusiveMinimum {
        /// The limit.
        limit: f64,
    },
    /// `maximum`
    Maximum {
        /// The limit.
        limit: f64,
    },
    /// `exclusiveMaximum`
    ExclusiveMaximum {
        /// The limit.
        limit: f64,
    },
    /// `minLength` (code points)
    MinLength {
        /// The limit.
        limit: u64,
    },
    /// `maxLength` (code points)
    MaxLength {
        /// The limit.
        limit: u64,
    },
    /// `pattern`
    Pattern {
        /// The pattern's source text.
        pattern: Cow<'static, str>,
    },
    /// `format` (only when formats are asserted)
    Format {
        /// The format's name.
        format: Cow<'static, str>,
    },
    /// `contentEncoding` (draft-07, only when content is asserted): the string is not in
    /// the encoding.
    ContentEncoding {
        /// The encoding's name (`base64`).
        encoding: Cow<'static, str>,
    },
    /// `contentMediaType` (draft-07, only when content is asserted): the (decoded) string
    /// is not a document of the media type.
    ContentMediaType {
        /// The media type (`application/json`).
        media_type: Cow<'static, str>,
    },
    /// `minItems`
    MinItems {
        /// The limit.
        limit: u64,
    },
    /// `maxItems`
    MaxItems {
        /// The limit.
        limit: u64,
    },
    /// `uniqueItems`
    UniqueItems,
    /// `contains` with `minContains` / `maxContains`
    Contains {
        /// The minimum number of matching items.
        min: u64,
        /// The maximum number of matching items, if any.
        max: Option<u64>,
    },
    /// `minProperties`
    MinProperties {
        /// The limit.
        limit: u64,
    },
    /// `maxProperties`
    MaxProperties {
        /// The limit.
        limit: u64,
    },
    /// `required`, one error per missing property
    Required {
        /// The missing property.
        property: Cow<'static, str>,
    },
    /// `dependentRequired` (or draft-07 `dependencies` with an array)
    DependentRequired {
        /// The property whose presence requires the other.
        property: Cow<'static, str>,
        /// The missing property.
        missing: Cow<'static, str>,
    },
    /// `anyOf`: no subschema matched. The errors of the closest subschema follow it in the
    /// report, one [`ValidationError::level`] deeper (schemac's `plan::explain` says which
    /// subschema is the closest), unless no subschema allows the instance's JSON type.
    AnyOf {
        /// When no subschema allows the instance's JSON type: the types they allow and the
        /// type found.
        types: Option<TypeMismatch>,
    },
    /// `oneOf`: no subschema or more than one matched. When none did, the errors of the
    /// closest subschema follow, as for [`ErrorKind::AnyOf`].
    OneOf {
        /// The subschemas that matched (none, or at least 2).
        matched: Matched,
        /// When no subschema allows the instance's JSON type: the types they allow and the
        /// type found.
        types: Option<TypeMismatch>,
    },
    /// `not`: the subschema matched
    Not,
    /// A custom keyword's check failed: its message, as the check gave it (schemac's
    /// `Options::custom_keywords`; the keyword location names the keyword).
    Custom {
        /// The keyword's name.
        keyword: Cow<'static, str>,
        /// What the check said (what to change), shown escaped.
        message: Cow<'static, str>,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::FalseSchema => f.write_str("no value is allowed here"),
            ErrorKind::Type { expected, found } => write!(
                f,
                "expected {}, found {}",
                expected.alternatives(),
                found.alternatives()
            ),
            ErrorKind::Const { expected } => write!(f, "value must be {expected}"),
            ErrorKind::Enum { allowed } => write!(f, "value must be one of {allowed}"),
            ErrorKind::PropertyNotAllowed {
                property,
                allowed,
                declared,
            } => {
                // The instance location names the key in full; the message names its start.
                match property.char_indices().nth(MAX_PROPERTY_CHARS) {
                    None => write!(f, "property `{}` is not allowed", Escaped(property))?,
                    Some((end, _)) => write!(
                        f,
                        "property `{}…` ({} characters) is not allowed",
                        Escaped(&property[..end]),
                        property.chars().count()
                    )?,
                }
                match (*declared, allowed.is_empty()) {
                    (true, _) => f.write_str(", as the subschema that declares it failed"),
                    (false, true) => Ok(()),
                    (false, false) => write!(f, " (allowed: {allowed})"),
                }
            }
            ErrorKind::MultipleOf { divisor } => {
                write!(f, "number must be a multiple of {divisor}")
            }
            ErrorKind::Minimum { limit } => write!(f, "number must be at least {limit}"),
            ErrorKind::ExclusiveMinimum { limit } => {
                write!(f, "number must be greater than {limit}")
            }
            ErrorKind::Maximum { limit } => write!(f, "number must be at most {limit}"),
            ErrorKind::ExclusiveMaximum { limit } => {
                write!(f, "number must be less than {limit}")
            }
            ErrorKind::MinLength { limit } => {
                write!(f, "string must have at least {}", characters(*limit))
            }
            ErrorKind::MaxLength { limit } => {
                write!(f, "string must have at most {}", characters(*limit))
            }
            ErrorKind::Pattern { pattern } => {
                write!(f, "string must match the pattern {pattern:?}")
            }
            ErrorKind::Format { format } => {
                write!(f, "string is not a valid {}", Escaped(format))
            }
            ErrorKind::ContentEncoding { encoding } => {
                write!(f, "string is not valid {encoding}")
            }
            ErrorKind::ContentMediaType { media_type } => {
                write!(f, "string content is not a valid {media_type} document")
            }
            ErrorKind::MinItems { limit } => {
                write!(f, "array must have at least {}", items(*limit))
            }
            ErrorKind::MaxItems { limit } => write!(f, "array must have at most {}", items(*limit)),
            ErrorKind::UniqueItems => f.write_str("array items must be unique"),
            ErrorKind::Contains { min, max } => {
                f.write_str("array must have ")?;
                match *max {
                    None => write!(f, "at least {}", items(*min))?,
                    Some(max) if max == *min => write!(f, "exactly {}", items(max))?,
                    Some(max) if *min == 0 => write!(f, "at most {}", items(max))?,
                    Some(max) => write!(f, "between {min} and {max} items")?,
                }
                f.write_str(" matching `contains`")
            }
            ErrorKind::MinProperties { limit } => {
                write!(f, "object must have at least {}", properties(*limit))
            }
            ErrorKind::MaxProperties { limit } => {
                write!(f, "object must have at most {}", properties(*limit))
            }
            ErrorKind::Required { property } => {
                write!(f, "required property {property:?} is missing")
            }
            ErrorKind::DependentRequired { property, missing } => write!(
                f,
                "property {missing:?} is required when {property:?} is present"
            ),
            ErrorKind::AnyOf { types } => none_of(f, "anyOf", types),
            ErrorKind::OneOf { matched, types } if matched.count == 0 => none_of(f, "oneOf", types),
            ErrorKind::OneOf { matched, .. } => {
                write!(f, "value matches {matched} of `oneOf`, not exactly one")
            }
            ErrorKind::Not => f.write_str("value must not match the schema in `not`"),
            ErrorKind::Custom { message, .. } => write!(f, "{}", Escaped(message)),
        }
    }
}

/// `value matches none of the `KEYWORD` subschemas`, then the types they allow and the one
/// found when none allows it.
fn none_of(f: &mut fmt::Formatter<'_>, keyword: &str, types: &Option<TypeMismatch>) -> fmt::Result {
    write!(f, "value matches none of the `{keyword}` subschemas")?;
    match types {
        Some(TypeMismatch { expected, found }) => write!(
            f,
            ": expected {}, found {}",
            expected.alternatives(),
            found.alternatives()
        ),
        None => Ok(()),
    }
}

/// The JSON types the subschemas of an `anyOf` / `oneOf` allow, and the instance's, when
/// none allows it ([`ErrorKind::AnyOf`], [`ErrorKind::OneOf`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeMismatch {
    /// The types some subschema allows.
    pub expected: TypeSet,
    /// The instance's JSON type ([`TypeSet::of`]).
    pub found: TypeSet,
}

impl TypeMismatch {
    /// The mismatch of `value` with the types `expected` (the union of what the subschemas
    /// allow), or `None` when one of them is `value`'s.
    pub fn of<'a, I: crate::instance::Instance<'a>>(
        expected: TypeSet,
        value: I,
    ) -> Option<TypeMismatch> {
        (!expected.matches(value)).then(|| TypeMismatch {
            expected,
            found: TypeSet::of(value),
        })
    }
}

/// How many subschema indices a [`Matched`] keeps for its message.
pub const LISTED_MATCHES: usize = 5;

/// The subschemas of a `oneOf` that matched: how many, and the indices of the first
/// [`LISTED_MATCHES`], which its message names (`subschemas 0 and 2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Matched {
    count: u64,
    first: [u32; LISTED_MATCHES],
}

impl Matched {
    /// Counts subschema `index` as matched (indices are added in increasing order).
    #[inline]
    pub fn add(&mut self, index: u32) {
        if let Some(slot) = self.first.get_mut(self.count as usize) {
            *slot = index;
        }
        self.count += 1;
    }

    /// How many subschemas matched.
    #[inline]
    pub fn count(&self) -> u64 {
        self.count
    }
}

impl fmt::Display for Matched {
    /// `subschema 3`, `subschemas 0 and 2`, `subschemas 0, 1 and 4`, or for more than
    /// [`LISTED_MATCHES`], `7 subschemas (0, 1, 2, 3, 4, …)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let listed = &self.first[..(self.count as usize).min(LISTED_MATCHES)];
        if self.count > LISTED_MATCHES as u64 {
            write!(f, "{} subschemas (", self.count)?;
            for index in listed {
                write!(f, "{index}, ")?;
            }
            return f.write_str("…)");
        }
        f.write_str(if self.count == 1 {
            "subschema "
        } else {
            "subschemas "
        })?;
        for (i, index) in listed.iter().enumerate() {
            match i {
                0 => {}
                i if i + 1 == listed.len() => f.write_str(" and ")?,
                _ => f.write_str(", ")?,
            }
            write!(f, "{index}")?;
        }
        Ok(())
    }
}

/// One failed assertion, located as the 2020-12 output formats require.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationError {
    /// JSON pointer to the failing part of the instance (`""` for the root).
    pub instance_location: String,
    /// JSON pointer to the keyword, along the evaluation path (through `$ref`s).
    pub keyword_location: String,
    /// Absolute URI of the keyword in the schema resource that holds it.
    pub absolute_keyword_location: String,
    /// What the keyword asserted.
    pub kind: ErrorKind,
    /// How deep the error explains another: 0 for an error of the instance; an error of
    /// the closest subschema of a failed `anyOf` / `oneOf` (which explains why it failed)
    /// is one deeper than the applicator's error and follows it in the report, before the
    /// next error no deeper than the applicator's.
    pub level: u32,
}

impl fmt::Display for ValidationError {
    /// `LOCATION: MESSAGE (at KEYWORD-LOCATION)`; both locations written through
    /// [`Escaped`], so that an instance key cannot forge a line of output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.instance_location.is_empty() {
            f.write_str("(root)")?;
        } else {
            write!(f, "{}", Escaped(&self.instance_location))?;
        }
        write!(
            f,
            ": {} (at {})",
            self.kind,
            Escaped(&self.keyword_location)
        )
    }
}

impl ValidationError {
    /// The error as a line of a text report: `because ` before the error
    /// ([`fmt::Display`]) and two spaces per [`level`](ValidationError::level) when it
    /// explains the error before it.
    pub fn line(&self) -> Line<'_> {
        Line(self)
    }
}

/// A [`ValidationError`] as a line of a text report ([`ValidationError::line`]).
#[derive(Debug, Clone, Copy)]
pub struct Line<'e>(&'e ValidationError);

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.0.level {
            f.write_str("  ")?;
        }
        if self.0.level > 0 {
            f.write_str("because ")?;
        }
        write!(f, "{}", self.0)
    }
}

/// Text for a line-oriented output (a location, a file path, a URI or a name from a
/// schema): written as it is, unless it holds a character that [`misleads`], a quote or a
/// backslash — then as a JSON string literal (quoted, those characters escaped), so that
/// the text can neither break a line nor pass for other output, hide text from a human
/// reader that a model still reads, and reads back unambiguously. Every string that came
/// from a schema or an instance is written through it (or through Rust's `{:?}`, which
/// escapes these characters too) wherever it reaches text output.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(pub &'a str);

/// Whether `c` can break a line, change how text around it reads or hide text: a control
/// character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029), or an
/// invisible formatting character (bidirectional-text controls, which rustc refuses in
/// comments, zero-width characters, U+FEFF, the tag characters U+E0000–U+E007F: Unicode's
/// `Cf` class). [`Escaped`] and the comments of generated code escape these.
pub fn misleads(c: char) -> bool {
    c.is_control() || Escaped::is_invisible(c)
}

impl Escaped<'_> {
    /// Whether `c` is written escaped: a character that [`misleads`], a quote or a
    /// backslash.
    pub fn needs_escape(c: char) -> bool {
        misleads(c) || c == '"' || c == '\\'
    }

    /// Unicode's format characters (`Cf`: bidirectional controls, zero-width characters,
    /// U+FEFF, tag characters) and the line and paragraph separators (`Zl`, `Zp`).
    fn is_invisible(c: char) -> bool {
        matches!(
            c,
            '\u{ad}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
        )
    }
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        if !self.0.chars().any(Escaped::needs_escape) {
            return f.write_str(self.0);
        }
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if Escaped::needs_escape(c) => write_utf16_escape(f, c)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// `c` as JSON writes it escaped: `\\uXXXX`, a surrogate pair beyond the BMP.
fn write_utf16_escape(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        write!(f, "\\u{:04x}", unit)?;
    }
    Ok(())
}

/// The result of [`crate::Validate::validate`]: the verdict and the errors found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Valid, invalid or incomplete. `Invalid` exactly when an error was found
    /// (`errors` is non-empty or `errors_omitted` is not zero).
    pub verdict: Verdict,
    /// The failed assertions, in evaluation order: the first
    /// [`Limits::max_errors`](crate::Limits::max_errors) of them.
    pub errors: Vec<ValidationError>,
    /// How many more errors were found but left out of `errors` by the bound.
    pub errors_omitted: u64,
    /// What the validation spent of its [`Limits`](crate::Limits).
    pub usage: Usage,
}

/// What [`ErrorList::mute`] saved, for [`ErrorList::unmute`].
#[derive(Debug, Clone, Copy)]
#[must_use]
pub struct Muted {
    silent: usize,
    muted: bool,
}

/// Where an [`ErrorList`] stood ([`ErrorList::position`]), for [`ErrorList::drop_between`].
#[derive(Debug, Clone, Copy)]
pub struct Position {
    kept: usize,
    omitted: u64,
}

/// The errors of one validation under the [`Limits::max_errors`](crate::Limits::max_errors)
/// bound: the first `max` errors in the order they are pushed are kept, the rest only
/// counted (and never built). Both backends collect through it, so they cut alike.
#[derive(Debug, Clone, Default)]
pub struct ErrorList {
    kept: Vec<ValidationError>,
    omitted: u64,
    max: usize,
    /// Errors counted but never built, pushed while [`ErrorList::muted`] was set: those of
    /// a subschema whose errors are dropped (`anyOf`, `not`, ...).
    silent: usize,
    /// Whether errors are only counted (see `silent`).
    muted: bool,
}

impl ErrorList {
    /// An empty list that keeps at most `max` errors.
    pub const fn new(max: usize) -> ErrorList {
        ErrorList {
            kept: Vec::new(),
            omitted: 0,
            max,
            silent: 0,
            muted: false,
        }
    }

    /// From now on, errors are counted but not kept (nor counted as omitted): those of a
    /// subschema whose errors are dropped (`anyOf`, `not`, ...), so that its validity still
    /// reads off [`ErrorList::count`]. [`ErrorList::unmute`] with the returned mark forgets
    /// them and restores the previous mode.
    #[inline]
    pub fn mute(&mut self) -> Muted {
        let mark = Muted {
            silent: self.silent,
            muted: self.muted,
        };
        self.muted = true;
        mark
    }

    /// Whether errors are only counted (inside [`ErrorList::mute`]).
    #[inline]
    pub fn is_muted(&self) -> bool {
        self.muted
    }

    /// Ends what [`ErrorList::mute`] began: the errors counted since are forgotten.
    #[inline]
    pub fn unmute(&mut self, mark: Muted) {
        self.silent = mark.silent;
        self.muted = mark.muted;
    }

    /// Adds the error `make` builds, or only counts it when the list is full (then `make`
    /// is not called: an error past the bound costs no allocation).
    #[inline]
    pub fn push_with(&mut self, make: impl FnOnce() -> ValidationError) {
        if self.muted {
            self.silent += 1;
        } else if self.kept.len() < self.max {
            self.kept.push(make());
        } else {
            self.omitted += 1;
        }
    }

    /// Whether the next error pushed would be built: errors are not muted and the list is
    /// not full.
    #[inline]
    pub fn builds(&self) -> bool {
        !self.muted && self.kept.len() < self.max
    }

    /// Counts `n` errors that are not built, as `n` pushes would when
    /// [`ErrorList::builds`] is false (errors counted past the bound cost no work each).
    #[inline]
    pub fn count_unbuilt(&mut self, n: u64) {
        if self.muted {
            self.silent = self.silent.saturating_add(n as usize);
        } else {
            self.omitted = self.omitted.saturating_add(n);
        }
    }

    /// How many errors were pushed (kept and omitted): a node is valid when it added none.
    #[inline]
    pub fn count(&self) -> usize {
        self.kept.len() + self.omitted as usize + self.silent
    }

    /// Whether no error was pushed.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// Where the list stands: what errors pushed from now on can be dropped back to
    /// ([`ErrorList::drop_between`]). Not inside [`ErrorList::mute`].
    #[inline]
    pub fn position(&self) -> Position {
        Position {
            kept: self.kept.len(),
            omitted: self.omitted,
        }
    }

    /// Forgets the errors pushed between `from` and `to` (positions taken in that order,
    /// with no drop between them since `from`), kept and omitted alike; those pushed after
    /// `to` move up.
    pub fn drop_between(&mut self, from: Position, to: Position) {
        self.kept.drain(from.kept..to.kept);
        self.omitted -= to.omitted - from.omitted;
    }

    /// The errors kept and how many were omitted.
    pub fn into_parts(self) -> (Vec<ValidationError>, u64) {
        (self.kept, self.omitted)
    }
}

impl Report {
    /// The report of a validation that found `errors` (and, when it stopped early, why);
    /// invalid when any error was found, else incomplete when it stopped, else valid.
    pub fn new(errors: ErrorList, stopped: Option<IncompleteReason>) -> Report {
        let verdict = match (errors.is_empty(), stopped) {
            (false, _) => Verdict::Invalid,
            (true, Some(reason)) => Verdict::Incomplete(reason),
            (true, None) => Verdict::Valid,
        };
        let (errors, errors_omitted) = errors.into_parts();
        Report {
            verdict,
            errors,
            errors_omitted,
            usage: Usage::default(),
        }
    }

    /// The same report with what its validation spent, [`Report::usage`].
    pub fn with_usage(mut self, usage: Usage) -> Report {
        self.usage = usage;
        self
    }

    /// Whether the instance was fully checked and is valid.
    pub fn is_valid(&self) -> bool {
        self.verdict == Verdict::Valid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn escaped_quotes_only_what_could_forge_or_mislead() {
        assert_eq!(Escaped("/a/b~1c/0").to_string(), "/a/b~1c/0");
        assert_eq!(Escaped("/é/日本").to_string(), "/é/日本");
        assert_eq!(
            Escaped("/x\nevil.json: valid\n ").to_string(),
            r#""/x\nevil.json: valid\n ""#
        );
        assert_eq!(
            Escaped("\u{1b}[31m\r\0\u{7f}\u{85}\u{202e}").to_string(),
            r#""\u001b[31m\r\u0000\u007f\u0085\u202e""#
        );
        assert_eq!(
            Escaped("a\u{2028}b\u{2029}c\u{61c}d\u{200e}\u{2066}").to_string(),
            r#""a\u2028b\u2029c\u061cd\u200e\u2066""#
        );
        assert_eq!(Escaped(r#"a"b\c"#).to_string(), r#""a\"b\\c""#);
        // Line separators and invisible characters that a model reads and a person
        // does not see (U+200B, U+FEFF, a tag character).
        assert_eq!(
            Escaped("/a\u{2028}b\u{2029}c\u{200b}d\u{feff}e\u{e0041}").to_string(),
            r#""/a\u2028b\u2029c\u200bd\ufeffe\udb40\udc41""#
        );
        // What is escaped reads back as the original through a JSON parser.
        let text = "/k\u{1}\"\\\t\u{9b}\u{2028}\u{e007f}";
        let back: alloc::string::String = serde_json::from_str(&Escaped(text).to_string()).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn messages_say_what_is_allowed_with_correct_plurals() {
        let text = |kind: ErrorKind| kind.to_string();
        assert_eq!(
            text(ErrorKind::MinLength { limit: 1 }),
            "string must have at least 1 character"
        );
        assert_eq!(
            text(ErrorKind::MaxLength { limit: 2 }),
            "string must have at most 2 characters"
        );
        assert_eq!(
            text(ErrorKind::MinItems { limit: 1 }),
            "array must have at least 1 item"
        );
        assert_eq!(
            text(ErrorKind::MaxProperties { limit: 1 }),
            "object must have at most 1 property"
        );
        assert_eq!(
            text(ErrorKind::MinProperties { limit: 3 }),
            "object must have at least 3 properties"
        );
        let contains = |min, max| text(ErrorKind::Contains { min, max });
        assert_eq!(
            contains(1, None),
            "array must have at least 1 item matching `contains`"
        );
        assert_eq!(
            contains(2, Some(2)),
            "array must have exactly 2 items matching `contains`"
        );
        assert_eq!(
            contains(0, Some(1)),
            "array must have at most 1 item matching `contains`"
        );
        assert_eq!(
            contains(1, Some(3)),
            "array must have between 1 and 3 items matching `contains`"
        );
        let types = TypeSet::STRING.union(TypeSet::NULL);
        assert_eq!(
            text(ErrorKind::Type {
                expected: types,
                found: TypeSet::of(&serde_json::json!(5)),
            }),
            "expected null or string, found integer"
        );
        assert_eq!(
            text(ErrorKind::Type {
                expected: TypeSet::INTEGER,
                found: TypeSet::of(&serde_json::json!(1.5)),
            }),
            "expected integer, found number"
        );
        let all = TypeSet(0x7f);
        assert_eq!(
            all.alternatives().to_string(),
            "null, boolean, object, array, number, string or integer"
        );
        assert_eq!(
            text(ErrorKind::Enum {
                allowed: "\"a\", \"b\"".into()
            }),
            r#"value must be one of "a", "b""#
        );
        assert_eq!(
            text(ErrorKind::Const {
                expected: "null".into()
            }),
            "value must be null"
        );
        // A property name is escaped as instance locations are.
        assert_eq!(
            text(ErrorKind::PropertyNotAllowed {
                property: "enc\nvalid".into(),
                allowed: "\"path\"".into(),
                declared: false,
            }),
            r#"property `"enc\nvalid"` is not allowed (allowed: "path")"#
        );
        assert_eq!(
            text(ErrorKind::PropertyNotAllowed {
                property: "encoding".into(),
                allowed: "".into(),
                declared: false,
            }),
            "property `encoding` is not allowed"
        );
        assert_eq!(
            text(ErrorKind::PropertyNotAllowed {
                property: "path".into(),
                allowed: "\"content\", \"path\"".into(),
                declared: true,
            }),
            "property `path` is not allowed, as the subschema that declares it failed"
        );
        let long = format!("{}\u{202e}", "k".repeat(MAX_PROPERTY_CHARS - 1));
        assert_eq!(
            text(ErrorKind::PropertyNotAllowed {
                property: format!("{long}tail").into(),
                allowed: "".into(),
                declared: false,
            }),
            format!(
                "property `\"{}\\u202e\"…` (68 characters) is not allowed",
                "k".repeat(MAX_PROPERTY_CHARS - 1)
            )
        );
    }

    #[test]
    fn any_of_and_one_of_name_types_and_matches() {
        let matched = |indices: &[u32]| {
            let mut m = Matched::default();
            for &i in indices {
                m.add(i);
            }
            ErrorKind::OneOf {
                matched: m,
                types: None,
            }
            .to_string()
        };
        assert_eq!(matched(&[]), "value matches none of the `oneOf` subschemas");
        assert_eq!(
            matched(&[0, 2]),
            "value matches subschemas 0 and 2 of `oneOf`, not exactly one"
        );
        assert_eq!(
            matched(&[1, 3, 4]),
            "value matches subschemas 1, 3 and 4 of `oneOf`, not exactly one"
        );
        assert_eq!(
            matched(&[0, 1, 2, 3, 4, 5, 6]),
            "value matches 7 subschemas (0, 1, 2, 3, 4, …) of `oneOf`, not exactly one"
        );
        let types = TypeMismatch::of(
            TypeSet::STRING.union(TypeSet::OBJECT),
            &serde_json::json!(5),
        );
        assert_eq!(
            ErrorKind::AnyOf { types }.to_string(),
            "value matches none of the `anyOf` subschemas: expected object or string, found integer"
        );
        assert_eq!(
            TypeMismatch::of(TypeSet::STRING, &serde_json::json!("s")),
            None
        );
    }

    #[test]
    fn an_explaining_error_is_a_because_line() {
        let mut error = ValidationError {
            instance_location: "/a".into(),
            keyword_location: "/anyOf/1/minimum".into(),
            absolute_keyword_location: "https://x/s.json#/anyOf/1/minimum".into(),
            kind: ErrorKind::Minimum { limit: 1.0 },
            level: 0,
        };
        assert_eq!(
            error.line().to_string(),
            "/a: number must be at least 1 (at /anyOf/1/minimum)"
        );
        error.level = 2;
        assert_eq!(
            error.line().to_string(),
            "    because /a: number must be at least 1 (at /anyOf/1/minimum)"
        );
    }

    #[test]
    fn errors_display_escaped_locations() {
        let error = ValidationError {
            instance_location: "/x\nevil.json: valid\n ".into(),
            keyword_location: "/properties/a\rb/type".into(),
            absolute_keyword_location: "https://x/s.json#/type".into(),
            kind: ErrorKind::UniqueItems,
            level: 0,
        };
        let text = error.to_string();
        assert!(!text.contains('\n') && !text.contains('\r'), "{text}");
        assert_eq!(
            text,
            r#""/x\nevil.json: valid\n ": array items must be unique (at "/properties/a\rb/type")"#
        );
    }
}
