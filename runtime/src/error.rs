//! Validation outcomes and errors.
//!
//! Error messages never quote instance values; the instance location (a JSON pointer,
//! which names instance keys as the 2020-12 output format requires) says where.

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
    /// The evaluation nested deeper than [`crate::Limits::max_depth`].
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
                write!(f, "reached unresolved reference {uri}")
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

    /// Whether `value` has one of the types in the set.
    pub fn matches(self, value: &serde_json::Value) -> bool {
        use serde_json::Value;
        match value {
            Value::Null => self.contains(TypeSet::NULL),
            Value::Bool(_) => self.contains(TypeSet::BOOLEAN),
            Value::Object(_) => self.contains(TypeSet::OBJECT),
            Value::Array(_) => self.contains(TypeSet::ARRAY),
            Value::String(_) => self.contains(TypeSet::STRING),
            Value::Number(n) => {
                self.contains(TypeSet::NUMBER)
                    || (self.contains(TypeSet::INTEGER) && crate::json::is_integer(n))
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

/// What a failed keyword asserted. Holds schema values only, never instance values.
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
    },
    /// `const`
    Const,
    /// `enum`
    Enum,
    /// `multipleOf`
    MultipleOf {
        /// The divisor.
        divisor: f64,
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
    /// `anyOf`: no subschema matched
    AnyOf,
    /// `oneOf`: no subschema or more than one matched
    OneOf {
        /// How many subschemas matched (0, or at least 2).
        matched: u64,
    },
    /// `not`: the subschema matched
    Not,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::FalseSchema => f.write_str("no value is allowed here"),
            ErrorKind::Type { expected } => write!(f, "value is not of type {expected}"),
            ErrorKind::Const => f.write_str("value is not the constant the schema requires"),
            ErrorKind::Enum => f.write_str("value is not one of the values the schema allows"),
            ErrorKind::MultipleOf { divisor } => write!(f, "number is not a multiple of {divisor}"),
            ErrorKind::Minimum { limit } => write!(f, "number is less than the minimum {limit}"),
            ErrorKind::ExclusiveMinimum { limit } => {
                write!(
                    f,
                    "number is not greater than the exclusive minimum {limit}"
                )
            }
            ErrorKind::Maximum { limit } => write!(f, "number is greater than the maximum {limit}"),
            ErrorKind::ExclusiveMaximum { limit } => {
                write!(f, "number is not less than the exclusive maximum {limit}")
            }
            ErrorKind::MinLength { limit } => {
                write!(f, "string is shorter than {limit} characters")
            }
            ErrorKind::MaxLength { limit } => write!(f, "string is longer than {limit} characters"),
            ErrorKind::Pattern { pattern } => {
                write!(f, "string does not match the pattern {pattern:?}")
            }
            ErrorKind::Format { format } => write!(f, "string is not a valid {format}"),
            ErrorKind::ContentEncoding { encoding } => {
                write!(f, "string is not valid {encoding}")
            }
            ErrorKind::ContentMediaType { media_type } => {
                write!(f, "string content is not a valid {media_type} document")
            }
            ErrorKind::MinItems { limit } => write!(f, "array has fewer than {limit} items"),
            ErrorKind::MaxItems { limit } => write!(f, "array has more than {limit} items"),
            ErrorKind::UniqueItems => f.write_str("array items are not unique"),
            ErrorKind::Contains { min, max: None } => {
                write!(f, "array has fewer than {min} items matching `contains`")
            }
            ErrorKind::Contains {
                min,
                max: Some(max),
            } => write!(
                f,
                "array does not have between {min} and {max} items matching `contains`"
            ),
            ErrorKind::MinProperties { limit } => {
                write!(f, "object has fewer than {limit} properties")
            }
            ErrorKind::MaxProperties { limit } => {
                write!(f, "object has more than {limit} properties")
            }
            ErrorKind::Required { property } => {
                write!(f, "required property {property:?} is missing")
            }
            ErrorKind::DependentRequired { property, missing } => write!(
                f,
                "property {missing:?} is required when {property:?} is present"
            ),
            ErrorKind::AnyOf => f.write_str("value matches none of the `anyOf` subschemas"),
            ErrorKind::OneOf { matched: 0 } => {
                f.write_str("value matches none of the `oneOf` subschemas")
            }
            ErrorKind::OneOf { matched } => {
                write!(
                    f,
                    "value matches {matched} of the `oneOf` subschemas, not exactly one"
                )
            }
            ErrorKind::Not => f.write_str("value matches the schema in `not`"),
        }
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
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.instance_location.is_empty() {
            "(root)"
        } else {
            &self.instance_location
        };
        write!(f, "{at}: {} (at {})", self.kind, self.keyword_location)
    }
}

/// The result of [`crate::Validate::validate`]: the verdict and every error found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Valid, invalid or incomplete. `Invalid` exactly when `errors` is non-empty.
    pub verdict: Verdict,
    /// Every failed assertion, in evaluation order.
    pub errors: Vec<ValidationError>,
}

impl Report {
    /// Whether the instance was fully checked and is valid.
    pub fn is_valid(&self) -> bool {
        self.verdict == Verdict::Valid
    }
}
