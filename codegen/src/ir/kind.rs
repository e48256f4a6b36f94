//! The kinds of JSON instance, as both backends split a node's checks by the kind they
//! read: the interpreter keeps one lane of steps per [`Kind`], the emitter one arm of a
//! `match` on the value's variant. One enum for the project, so that what a check does
//! on a kind (a `type` passing or failing it, [`Kind::type_test`]; a check reading only
//! one kind, [`Facts::only_reads`](super::Facts::only_reads)) is decided once.

use schemac_runtime::error::TypeSet;
use schemac_runtime::instance::{Instance, Kind as RuntimeKind};

/// The kind of a JSON instance: a `serde_json::Value` variant, in its declaration order,
/// so that a value's kind is its tag (the interpreter indexes its lanes by it). An object
/// key (`propertyNames`) is a [`Kind::String`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number (an integer or not).
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// What a `type` check does on the instances of one [`Kind`] ([`Kind::type_test`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeTest {
    /// Every instance of the kind is of the type.
    Pass,
    /// No instance of the kind is.
    Fail,
    /// A number is of the type (`integer` without `number`) when it is an integer.
    IfInteger,
}

impl Kind {
    /// Every kind, in declaration (tag) order.
    pub const ALL: [Kind; 6] = [
        Kind::Null,
        Kind::Boolean,
        Kind::Number,
        Kind::String,
        Kind::Array,
        Kind::Object,
    ];

    /// The kind of `value` (a `&Value`, a document node): the runtime's
    /// [`schemac_runtime::instance::Kind`], whose variants are these in the same order.
    #[inline(always)]
    pub fn of<'a, I: Instance<'a>>(value: I) -> Kind {
        match value.kind() {
            RuntimeKind::Null => Kind::Null,
            RuntimeKind::Bool => Kind::Boolean,
            RuntimeKind::Number => Kind::Number,
            RuntimeKind::String => Kind::String,
            RuntimeKind::Array => Kind::Array,
            RuntimeKind::Object => Kind::Object,
        }
    }

    /// The `type` bit of the kind (`number` for a number).
    #[inline(always)]
    pub fn type_bit(self) -> TypeSet {
        const BITS: [TypeSet; 6] = [
            TypeSet::NULL,
            TypeSet::BOOLEAN,
            TypeSet::NUMBER,
            TypeSet::STRING,
            TypeSet::ARRAY,
            TypeSet::OBJECT,
        ];
        BITS[self as usize]
    }

    /// What `type: types` does on instances of this kind.
    pub fn type_test(self, types: TypeSet) -> TypeTest {
        if types.0 & self.type_bit().0 != 0 {
            TypeTest::Pass
        } else if self == Kind::Number && types.contains(TypeSet::INTEGER) {
            TypeTest::IfInteger
        } else {
            TypeTest::Fail
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_kind_is_its_values_tag_and_decides_type() {
        let values = [
            json!(null),
            json!(true),
            json!(1.5),
            json!("a"),
            json!([]),
            json!({}),
        ];
        for (value, kind) in values.iter().zip(Kind::ALL) {
            assert_eq!(Kind::of(value), kind);
            assert_eq!(kind.type_test(kind.type_bit()), TypeTest::Pass);
        }
        assert_eq!(
            Kind::Number.type_test(TypeSet::INTEGER),
            TypeTest::IfInteger
        );
        let number = TypeSet::NUMBER.union(TypeSet::INTEGER);
        assert_eq!(Kind::Number.type_test(number), TypeTest::Pass);
        assert_eq!(Kind::String.type_test(TypeSet::INTEGER), TypeTest::Fail);
        assert_eq!(Kind::Null.type_test(TypeSet::OBJECT), TypeTest::Fail);
    }
}
