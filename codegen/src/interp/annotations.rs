//! Evaluated-location sets (annotations for `unevaluatedProperties` /
//! `unevaluatedItems`), kept only by nodes whose `collect` flag is set: the runtime's
//! [`Eval`] (and [`Bits`]), as generated code keeps them.
//!
//! Properties are identified by their position in the instance object's iteration order
//! (stable for one object), items by index; in short-circuit evaluation, properties that
//! a `properties` check evaluates are also identified by name, numbered by the program's
//! [`NameTable`], so that such a check records its names without a pass of its own.

use super::index::NameTable;
use schemac_runtime::engine::{Bits, Eval};

/// The evaluated locations one node evaluation produced at its instance location.
#[derive(Debug, Default)]
pub(super) struct Annotations {
    /// Evaluated properties by position in the object, and items by index, as generated
    /// code keeps them.
    located: Eval,
    /// Evaluated properties, by name: the ids ([`NameTable`]) of the names evaluated
    /// where the instance has them.
    names: Bits,
}

impl Annotations {
    /// Empties the sets, keeping their storage.
    pub(super) fn clear(&mut self) {
        self.located.clear();
        self.names.clear();
    }

    /// Adds another evaluation's locations (a valid in-place child's).
    pub(super) fn merge(&mut self, other: &Annotations) {
        self.located.merge(&other.located);
        self.names.merge(&other.names);
    }

    /// Marks the property at `position` evaluated.
    pub(super) fn add_property(&mut self, position: usize) {
        self.located.props.set(position);
    }

    /// Marks every property evaluated.
    pub(super) fn add_all_properties(&mut self) {
        self.located.props.set_all();
    }

    /// Marks the properties of the names `names` (by id) evaluated.
    pub(super) fn add_names(&mut self, names: &Bits) {
        self.names.merge(names);
    }

    /// Whether the property `key` at `position` is evaluated, its name's id found in
    /// `table` (the table of the program's names, which names recorded need).
    #[inline]
    pub(super) fn has_property(
        &self,
        position: usize,
        key: &str,
        table: Option<&NameTable>,
    ) -> bool {
        self.located.props.get(position)
            || (self.names != Bits::new()
                && (table.and_then(|t| t.id(key))).is_some_and(|id| self.names.get(id)))
    }

    /// Marks the items below `len` evaluated.
    pub(super) fn add_prefix(&mut self, len: usize) {
        self.located.items.set_range(0, len);
    }

    /// Marks the item at `index` evaluated.
    pub(super) fn add_item(&mut self, index: usize) {
        self.located.items.set(index);
    }

    /// Marks every item evaluated.
    pub(super) fn add_all_items(&mut self) {
        self.located.items.set_all();
    }

    /// Whether the item at `index` is evaluated.
    pub(super) fn has_item(&self, index: usize) -> bool {
        self.located.items.get(index)
    }
}
