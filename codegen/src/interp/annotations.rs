//! Evaluated-location sets (annotations for `unevaluatedProperties` /
//! `unevaluatedItems`), kept only by nodes whose `collect` flag is set: the runtime's
//! [`Bits`], as generated code keeps them.
//!
//! Properties are identified by their position in the instance object's iteration order
//! (stable for one object), items by index.

use schemac_runtime::__private::Bits;

/// The evaluated locations one node evaluation produced at its instance location.
#[derive(Debug, Default)]
pub(super) struct Annotations {
    /// Evaluated properties, by position in the object.
    props: Bits,
    /// Evaluated items, by index.
    items: Bits,
}

impl Annotations {
    /// Empties the sets, keeping their storage.
    pub(super) fn clear(&mut self) {
        self.props.clear();
        self.items.clear();
    }

    /// Adds another evaluation's locations (a valid in-place child's).
    pub(super) fn merge(&mut self, other: &Annotations) {
        self.props.merge(&other.props);
        self.items.merge(&other.items);
    }

    /// Marks the property at `position` evaluated.
    pub(super) fn add_property(&mut self, position: usize) {
        self.props.set(position);
    }

    /// Marks every property evaluated.
    pub(super) fn add_all_properties(&mut self) {
        self.props.set_all();
    }

    /// Whether the property at `position` is evaluated.
    pub(super) fn has_property(&self, position: usize) -> bool {
        self.props.get(position)
    }

    /// Marks the items below `len` evaluated.
    pub(super) fn add_prefix(&mut self, len: usize) {
        self.items.set_range(0, len);
    }

    /// Marks the item at `index` evaluated.
    pub(super) fn add_item(&mut self, index: usize) {
        self.items.set(index);
    }

    /// Marks every item evaluated.
    pub(super) fn add_all_items(&mut self) {
        self.items.set_all();
    }

    /// Whether the item at `index` is evaluated.
    pub(super) fn has_item(&self, index: usize) -> bool {
        self.items.get(index)
    }
}
