//! Annotations (2020-12 §7.7): what keywords of the subschemas that passed say about the
//! instance locations they applied to.
//!
//! An [`Evaluation`] is a [`Report`] plus the annotations collected on the way; only a valid
//! instance has annotations (an annotation of a subschema that failed, or of a branch whose
//! result was dropped, never reaches the list).

use crate::error::Report;
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// One annotation, located as the 2020-12 output formats require.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// JSON pointer to the instance location the annotation applies to (`""` for the root).
    pub instance_location: String,
    /// JSON pointer to the keyword, along the evaluation path (through `$ref`s).
    pub keyword_location: String,
    /// Absolute URI of the keyword in the schema resource that holds it.
    pub absolute_keyword_location: String,
    /// The annotation's value: the keyword's value for `title`, `default` and the other
    /// meta-data, format, content and unknown keywords; for an applicator, what it applied
    /// to (see [`prefix_items_value`] and the schemac IR's "Applicator annotations").
    pub value: serde_json::Value,
}

impl Annotation {
    /// The annotating keyword: the last token of [`Annotation::keyword_location`],
    /// unescaped (`~1` is `/`, `~0` is `~`).
    pub fn keyword(&self) -> Cow<'_, str> {
        let token = self
            .keyword_location
            .rsplit_once('/')
            .map_or(self.keyword_location.as_str(), |(_, last)| last);
        if token.contains('~') {
            Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(token)
        }
    }
}

/// One subschema evaluation, valid or not, for the `verbose` output
/// ([`crate::output`]): where it was, and whether it passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// JSON pointer to the instance location the subschema was applied to.
    pub instance_location: String,
    /// JSON pointer to the subschema along the evaluation path (`""` for the root).
    pub keyword_location: String,
    /// Absolute URI of the subschema.
    pub absolute_keyword_location: String,
    /// Whether it passed.
    pub valid: bool,
}

/// The result of [`crate::Evaluate::evaluate`]: the verdict, the errors and, when the
/// instance is valid, the annotations, in evaluation order.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The verdict and the errors, as [`crate::Validate::validate`] gives them.
    pub report: Report,
    /// The annotations; empty unless the verdict is valid.
    pub annotations: Vec<Annotation>,
    /// Every subschema evaluation (of a subschema with keywords), each listed when it
    /// ended — except inside a subschema whose errors are dropped (`anyOf`, `oneOf`, `not`,
    /// `if`, `contains`) and that failed, which lists only itself — and none under
    /// `propertyNames` (a key has no instance location). What the `verbose` output shows.
    pub units: Vec<Unit>,
}

impl Evaluation {
    /// An evaluation that found `report`, with `annotations` kept only when it is valid.
    pub fn new(report: Report, mut annotations: Vec<Annotation>) -> Evaluation {
        if !report.is_valid() {
            annotations.clear();
        }
        Evaluation {
            report,
            annotations,
            units: Vec::new(),
        }
    }

    /// The same evaluation with its subschema evaluations [`Evaluation::units`].
    pub fn with_units(mut self, units: Vec<Unit>) -> Evaluation {
        self.units = units;
        self
    }
}

/// The annotation of `prefixItems` (2019-09: `items` as an array) of `prefix` subschemas
/// on an array of `len` items: `true` when it applied to every item, else the largest
/// index it applied to; `None` when it applied to none.
pub fn prefix_items_value(len: usize, prefix: usize) -> Option<serde_json::Value> {
    match (len, prefix) {
        (0, _) | (_, 0) => None,
        _ if len <= prefix => Some(serde_json::Value::Bool(true)),
        _ => Some(serde_json::Value::from(prefix - 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::prefix_items_value;
    use serde_json::json;

    #[test]
    fn prefix_items_value_is_the_largest_index_or_true() {
        assert_eq!(prefix_items_value(0, 2), None);
        assert_eq!(prefix_items_value(3, 0), None);
        assert_eq!(prefix_items_value(1, 2), Some(json!(true)));
        assert_eq!(prefix_items_value(2, 2), Some(json!(true)));
        assert_eq!(prefix_items_value(5, 2), Some(json!(1)));
    }
}
