//! Evaluated-location sets (annotations for `unevaluatedProperties` /
//! `unevaluatedItems`), kept only by nodes whose `collect` flag is set.
//!
//! Properties are identified by their position in the instance object's iteration order
//! (stable for one object), items by index; both as bit sets, plus "all" flags for the
//! keywords that cover every location and a prefix length for `prefixItems`.

/// The evaluated locations one node evaluation produced at its instance location.
#[derive(Debug, Default)]
pub(super) struct Annotations {
    /// Every property is evaluated (`additionalProperties`, `unevaluatedProperties`).
    props_all: bool,
    /// Evaluated properties, by position in the object.
    props: BitSet,
    /// Every item is evaluated (`items`, `unevaluatedItems`).
    items_all: bool,
    /// Items below this index are evaluated (`prefixItems`).
    items_prefix: usize,
    /// Other evaluated items (`contains`).
    items: BitSet,
}

impl Annotations {
    /// Empties the sets, keeping their storage.
    pub(super) fn clear(&mut self) {
        self.props_all = false;
        self.props.clear();
        self.items_all = false;
        self.items_prefix = 0;
        self.items.clear();
    }

    /// Adds another evaluation's locations (a valid in-place child's).
    pub(super) fn merge(&mut self, other: &Annotations) {
        self.props_all |= other.props_all;
        self.props.union(&other.props);
        self.items_all |= other.items_all;
        self.items_prefix = self.items_prefix.max(other.items_prefix);
        self.items.union(&other.items);
    }

    /// Marks the property at `position` evaluated.
    pub(super) fn add_property(&mut self, position: usize) {
        self.props.insert(position);
    }

    /// Marks every property evaluated.
    pub(super) fn add_all_properties(&mut self) {
        self.props_all = true;
    }

    /// Whether the property at `position` is evaluated.
    pub(super) fn has_property(&self, position: usize) -> bool {
        self.props_all || self.props.contains(position)
    }

    /// Marks the items below `len` evaluated.
    pub(super) fn add_prefix(&mut self, len: usize) {
        self.items_prefix = self.items_prefix.max(len);
    }

    /// Marks the item at `index` evaluated.
    pub(super) fn add_item(&mut self, index: usize) {
        self.items.insert(index);
    }

    /// Marks every item evaluated.
    pub(super) fn add_all_items(&mut self) {
        self.items_all = true;
    }

    /// Whether the item at `index` is evaluated.
    pub(super) fn has_item(&self, index: usize) -> bool {
        self.items_all || index < self.items_prefix || self.items.contains(index)
    }
}

/// A growable bit set over `usize`.
#[derive(Debug, Default)]
struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    fn clear(&mut self) {
        self.words.clear();
    }

    fn insert(&mut self, i: usize) {
        let word = i / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    fn union(&mut self, other: &BitSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }
}
