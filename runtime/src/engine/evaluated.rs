//! Evaluated-location sets for `unevaluatedProperties` / `unevaluatedItems`.

use alloc::vec::Vec;

/// A set of instance locations (object entries by iteration position, or array indices)
/// evaluated so far, for `unevaluatedProperties` / `unevaluatedItems`: a prefix
/// (`0..prefix`, what `items`, `prefixItems`, `additionalProperties` and `unevaluated*`
/// record), the first 64 locations inline, and the rest on the heap — which is allocated
/// only when a location from 64 on is recorded one by one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bits {
    prefix: usize,
    head: u64,
    rest: Vec<u64>,
}

impl Bits {
    /// An empty set (no allocation).
    pub const fn new() -> Bits {
        Bits {
            prefix: 0,
            head: 0,
            rest: Vec::new(),
        }
    }

    /// Records location `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        if i < 64 {
            self.head |= 1 << i;
            return;
        }
        let w = i / 64 - 1;
        if self.rest.len() <= w {
            self.rest.resize(w + 1, 0);
        }
        self.rest[w] |= 1 << (i % 64);
    }

    /// Records locations `from..to`.
    #[inline]
    pub fn set_range(&mut self, from: usize, to: usize) {
        if from <= self.prefix {
            self.prefix = self.prefix.max(to);
            return;
        }
        self.set_each(from, to);
    }

    /// Records locations `from..to` one by one.
    fn set_each(&mut self, from: usize, to: usize) {
        for i in from..to {
            self.set(i);
        }
    }

    /// Records every location.
    pub fn set_all(&mut self) {
        self.prefix = usize::MAX;
    }

    /// Whether location `i` is recorded.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        if i < self.prefix {
            return true;
        }
        if i < 64 {
            return self.head & (1 << i) != 0;
        }
        self.rest
            .get(i / 64 - 1)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds every location of `other`.
    #[inline]
    pub fn merge(&mut self, other: &Bits) {
        self.prefix = self.prefix.max(other.prefix);
        self.head |= other.head;
        if !other.rest.is_empty() {
            self.merge_rest(&other.rest);
        }
    }

    /// Adds the locations from 64 on of another set, `rest`.
    fn merge_rest(&mut self, rest: &[u64]) {
        if self.rest.len() < rest.len() {
            self.rest.resize(rest.len(), 0);
        }
        for (a, b) in self.rest.iter_mut().zip(rest) {
            *a |= *b;
        }
    }

    /// Forgets every location, keeping the heap storage.
    pub fn clear(&mut self) {
        self.prefix = 0;
        self.head = 0;
        self.rest.clear();
    }
}

/// The evaluated properties and items of one node evaluation.
#[derive(Debug, Clone, Default)]
pub struct Eval {
    /// Evaluated object entries, by iteration position.
    pub props: Bits,
    /// Evaluated array indices.
    pub items: Bits,
}

impl Eval {
    /// An empty set (no allocation).
    #[inline]
    pub const fn new() -> Eval {
        Eval {
            props: Bits::new(),
            items: Bits::new(),
        }
    }

    /// Adds the locations of a valid in-place child.
    #[inline]
    pub fn merge(&mut self, other: &Eval) {
        self.props.merge(&other.props);
        self.items.merge(&other.items);
    }

    /// Empties the sets, keeping their storage (for reuse).
    pub fn clear(&mut self) {
        self.props.clear();
        self.items.clear();
    }
}
