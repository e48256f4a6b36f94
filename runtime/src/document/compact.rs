//! The same JSON read into less memory: an index of the arrays and objects only.
//!
//! [`Document`] here reads exactly what the tape's [`super::Document`] reads (the same
//! reader, the same errors) but writes down one 8-byte entry per array and per object, in
//! the order they open — where it ends, its length and how many arrays and objects it
//! holds, so that a reader can step over a value or come back to it — and nothing else:
//! strings, numbers and keys are found again in the input as a [`Node`] or an iterator
//! reaches them (the input was checked, so that is a scan for the closing quote or the
//! number's last digit, eight bytes at a time).
//!
//! Memory: the input plus 8 bytes per array and per object (a `Vec` first given room for
//! one per sixteen input bytes, at most 2^20, that grows by doubling), where the tape
//! takes 12 bytes per value and per key: on an array of small objects (`[{"a":1},…]`)
//! the index is the input's size again, the tape four and a half times it. The price is
//! time: every read of a string, number or key scans its text again, and
//! [`Instance::get`] steps over the keys before the one it finds — reading the bench
//! corpus's instances this way made generated validation from bytes 1.68x slower
//! (BENCHMARKS.md, "Reading JSON from bytes"). For large inputs where memory is what is
//! sized (the CLI reads every input of 1 MiB or more so), not for requests.

use super::read::{self, ClosedObject, KeyHash, Open, Sink, SyntaxError};
use super::scan;
use super::string::JsonStr;
use super::{Tag, ESCAPED};
use crate::instance::{ArrayView, Instance, Keys, Kind, ObjectView, Shape, Unescaped, Values};
use crate::limits::Limits;
use alloc::vec::Vec;

/// One JSON text read from bytes: the input and its index of arrays and objects (see the
/// [module documentation](self)).
#[derive(Debug, Clone)]
pub struct Document<'i> {
    /// The whole input, checked to be UTF-8.
    text: &'i str,
    /// The offset of the root value's first byte.
    root: u32,
    /// One entry per array and per object, in the order they open (the root's, if it is
    /// one, first).
    containers: Vec<Container>,
    /// The length and size of each container whose own entry cannot hold them
    /// ([`Container::LARGE`]), by container index.
    large: Vec<Large>,
    /// The offsets of the opening quotes of the keys that a later key of the same object
    /// repeats, ascending.
    shadowed: Vec<u32>,
}

/// An array or object (8 bytes).
#[derive(Debug, Clone, Copy)]
struct Container {
    /// The offset just past its closing bracket.
    end: u32,
    /// How many items, or entries (keys that no later key repeats); [`Container::LARGE`]
    /// when `large` holds it.
    len: u16,
    /// How many arrays and objects its subtree has, itself included;
    /// [`Container::LARGE`] when `large` holds it.
    size: u16,
}

impl Container {
    /// A `len` or `size` too large for 16 bits.
    const LARGE: u16 = u16::MAX;
}

/// The length and size of a container whose own entry cannot hold them.
#[derive(Debug, Clone, Copy)]
struct Large {
    index: u32,
    len: u32,
    size: u32,
}

impl<'i> Document<'i> {
    /// Inputs this long or longer are refused ([`SyntaxErrorKind::TooLarge`]): offsets
    /// spare their highest bit for a flag. (The tape takes inputs under 4 GiB.)
    ///
    /// [`SyntaxErrorKind::TooLarge`]: super::SyntaxErrorKind::TooLarge
    pub const MAX_INPUT: usize = 1 << 31;

    /// Reads the JSON text `input`, as [`super::Document::read`] does (the same nesting
    /// bound, the same errors). Cost: one pass over the input plus one over its bytes to
    /// check UTF-8, and 8 bytes per array and per object.
    pub fn read(input: &'i [u8]) -> Result<Document<'i>, SyntaxError> {
        Document::read_nested(input, super::Document::DEFAULT_MAX_NESTING)
    }

    /// [`Document::read`] with arrays and objects nested at most `max_nesting` deep.
    pub fn read_nested(input: &'i [u8], max_nesting: usize) -> Result<Document<'i>, SyntaxError> {
        let (text, mut index) = read::read_into::<Index<'_>>(input, max_nesting)?;
        // Both were filled as containers closed (inner ones first).
        index.large.sort_unstable_by_key(|l| l.index);
        index.shadowed.sort_unstable();
        Ok(Document {
            text,
            root: scan::skip_whitespace(text.as_bytes(), 0) as u32,
            containers: index.containers,
            large: index.large,
            shadowed: index.shadowed,
        })
    }

    /// Reads the JSON text `input` and runs `run` on its root under `limits` grown with
    /// the input ([`Limits::for_input`]), as [`super::Document::read_then`] does.
    pub fn read_then<T>(
        input: &[u8],
        limits: &Limits,
        run: impl FnOnce(Node<'_>, &Limits) -> T,
    ) -> Result<T, SyntaxError> {
        let document = Document::read(input)?;
        Ok(run(document.root(), &limits.for_input(input.len())))
    }

    /// The root value.
    pub fn root(&self) -> Node<'_> {
        self.value_at(self.root, 0).0
    }

    /// The input, as text.
    pub fn text(&self) -> &'i str {
        self.text
    }

    /// How many arrays and objects the document has (what its index holds an entry for).
    pub fn containers(&self) -> usize {
        self.containers.len()
    }

    /// The document as a `serde_json::Value` (duplicate keys: the last one wins, as in
    /// serde_json). Allocates the whole tree; for tests and for callers that need one.
    pub fn to_value(&self) -> serde_json::Value {
        self.root().to_value()
    }

    /// The value whose first byte is at `at` (`index` is the index of the first container
    /// that opens at or after `at`), the offset just past it and the index of the first
    /// container that opens after it. Cost: for a string or number, a scan to its end.
    #[inline]
    fn value_at(&self, at: u32, index: u32) -> (Node<'_>, u32, u32) {
        let bytes = self.text.as_bytes();
        let flag = |set: bool| if set { Node::FLAG } else { 0 };
        let (aux, end, next) = match bytes.get(at as usize) {
            Some(b'"') => {
                let (close, escaped) = scan::string_end(bytes, at as usize + 1);
                let close = close as u32;
                (close | flag(escaped), close + 1, index)
            }
            Some(b'-' | b'0'..=b'9') => {
                let (end, integral) = scan::number_end(bytes, at as usize);
                let end = end as u32;
                (end | flag(integral), end, index)
            }
            Some(b'[' | b'{') => {
                let end = self.containers[index as usize].end;
                (index, end, index + self.len_and_size(index).1)
            }
            Some(b'f') => (index, at + 5, index),
            _ => (index, at + 4, index),
        };
        (Node { doc: self, at, aux }, end, next)
    }

    /// The length and size of the container `index`.
    fn len_and_size(&self, index: u32) -> (u32, u32) {
        let c = self.containers[index as usize];
        if c.len != Container::LARGE && c.size != Container::LARGE {
            return (u32::from(c.len), u32::from(c.size));
        }
        match self.large.binary_search_by_key(&index, |l| l.index) {
            Ok(i) => (self.large[i].len, self.large[i].size),
            Err(_) => (u32::from(c.len), u32::from(c.size)),
        }
    }

    /// Whether a key between the offsets `from` and `to` is shadowed.
    fn shadows_between(&self, from: u32, to: u32) -> bool {
        let first = self.shadowed.partition_point(|&quote| quote < from);
        self.shadowed.get(first).is_some_and(|&quote| quote < to)
    }
}

/// The [`Sink`] of a [`Document`]: its containers, and the keys of the open objects (for
/// their duplicates).
struct Index<'i> {
    text: &'i str,
    containers: Vec<Container>,
    large: Vec<Large>,
    shadowed: Vec<u32>,
    /// The keys of the open objects, innermost last: where each key's text starts and
    /// ends, with [`Index::ESCAPED`] on the end.
    keys: Vec<(u32, u32)>,
    /// Where each open object's keys start in `keys`, innermost last.
    keys_from: Vec<u32>,
}

impl Index<'_> {
    /// A key's flag: it holds an escape.
    const ESCAPED: u32 = 1 << 31;
}

impl<'i> Sink<'i> for Index<'i> {
    /// Offsets in a [`Node`] and in [`Index::keys`] spare their highest bit for a flag.
    const MAX_INPUT: u64 = Document::MAX_INPUT as u64;

    fn new(text: &'i str, len: usize) -> Self {
        Index {
            text,
            containers: Vec::with_capacity(containers_estimate(len)),
            large: Vec::new(),
            shadowed: Vec::new(),
            keys: Vec::new(),
            keys_from: Vec::new(),
        }
    }

    fn scalar(&mut self, _: Tag, _: u8, _: usize, _: usize) {}

    fn key(&mut self, start: usize, end: usize, flags: u8) {
        let escaped = if flags & ESCAPED != 0 {
            Index::ESCAPED
        } else {
            0
        };
        // Offsets fit: the input is under 2 GiB (`MAX_INPUT`).
        self.keys.push((start as u32, end as u32 | escaped));
    }

    fn open(&mut self, is_object: bool) -> u32 {
        if is_object {
            self.keys_from.push(self.keys.len() as u32);
        }
        // Counts fit: the input has at least a byte per container.
        let index = self.containers.len() as u32;
        self.containers.push(Container {
            end: 0,
            len: 0,
            size: 0,
        });
        index
    }

    fn close(&mut self, open: &Open, past: usize, scratch: &mut Vec<KeyHash>) {
        let size = self.containers.len() as u32 - open.entry;
        let mut len = open.count;
        if open.is_object {
            let from = self.keys_from.pop().unwrap_or_default();
            if open.may_repeat {
                len -= read::shadow_duplicates(self, from, open.count, scratch);
            }
            self.keys.truncate(from as usize);
        }
        let narrow = |n: u32| u16::try_from(n).ok().filter(|&n| n != Container::LARGE);
        let (len16, size16) = match (narrow(len), narrow(size)) {
            (Some(len), Some(size)) => (len, size),
            _ => {
                self.large.push(Large {
                    index: open.entry,
                    len,
                    size,
                });
                (Container::LARGE, Container::LARGE)
            }
        };
        self.containers[open.entry as usize] = Container {
            end: past as u32,
            len: len16,
            size: size16,
        };
    }
}

/// A key is its index in [`Index::keys`]; an object's keys are in a row.
impl ClosedObject for Index<'_> {
    fn text(&self) -> &str {
        self.text
    }

    fn key_span(&self, key: u32) -> (usize, usize, bool) {
        let (start, end) = self.keys[key as usize];
        let escaped = end & Index::ESCAPED != 0;
        (start as usize, (end & !Index::ESCAPED) as usize, escaped)
    }

    fn next_key(&self, key: u32) -> u32 {
        key + 1
    }

    fn shadow(&mut self, key: u32) {
        // The key's opening quote, just before its text.
        self.shadowed.push(self.keys[key as usize].0 - 1);
    }
}

/// The containers a text of `len` bytes is first given room for: one per sixteen bytes
/// (an array of small objects has one per eight, prose far fewer), so that a small
/// document is read with one allocation and a large one grows by doubling from a fair
/// start. At most 2^20 (8 MiB) up front: an allocator hands large blocks out as
/// untouched pages, so room not used costs address space, not memory.
fn containers_estimate(len: usize) -> usize {
    (len / 16 + 4).min(1 << 20)
}

/// A value in a [`Document`]: a cheap handle (a reference, the offset of its first byte,
/// and where it ends or which container it is). It implements [`Instance`].
#[derive(Debug, Clone, Copy)]
pub struct Node<'d> {
    doc: &'d Document<'d>,
    /// The offset of the value's first byte.
    at: u32,
    /// A string's closing quote, with [`Node::FLAG`] when it holds an escape; the offset
    /// just past a number, with [`Node::FLAG`] when it is written with neither a fraction
    /// nor an exponent; an array's or object's container index.
    aux: u32,
}

impl<'d> Node<'d> {
    /// [`Node::aux`]'s flag.
    const FLAG: u32 = 1 << 31;

    /// The value's first byte.
    #[inline]
    fn first(self) -> u8 {
        self.doc
            .text
            .as_bytes()
            .get(self.at as usize)
            .copied()
            .unwrap_or(b'n')
    }

    /// The text of a number.
    fn span(self) -> &'d str {
        &self.doc.text[self.at as usize..(self.aux & !Node::FLAG) as usize]
    }

    /// Whether the number was written with neither a fraction nor an exponent (`-0` and
    /// `100000000000000000000` were; `1.0` and `1e2` were not). Cost: none.
    pub fn is_integral_text(self) -> bool {
        matches!(self.first(), b'-' | b'0'..=b'9') && self.aux & Node::FLAG != 0
    }

    /// The string of a string.
    fn text(self) -> JsonStr<'d> {
        let close = (self.aux & !Node::FLAG) as usize;
        JsonStr::new(
            &self.doc.text[self.at as usize + 1..close],
            self.aux & Node::FLAG != 0,
        )
    }

    /// The items when this is an array whose first byte is `open` (`[`) or the entries'
    /// start when an object (`{`): the offset of the first, the container index after
    /// this one, and how many; nothing for any other value.
    fn contents(self, open: u8) -> (u32, u32, u32) {
        if self.first() != open {
            return (0, 0, 0);
        }
        let len = self.doc.len_and_size(self.aux).0;
        let first = scan::skip_whitespace(self.doc.text.as_bytes(), self.at as usize + 1);
        (first as u32, self.aux + 1, len)
    }

    /// This value as a `serde_json::Value`. Allocates the whole subtree; recursion as
    /// deep as the value nests (bounded by the nesting limit it was read under).
    pub fn to_value(self) -> serde_json::Value {
        use serde_json::Value;
        match self.shape() {
            Shape::Null => Value::Null,
            Shape::Bool(b) => Value::Bool(b),
            Shape::Number(n) => Value::Number(n),
            Shape::String(s) => Value::String(s.into_owned()),
            Shape::Array(items) => Value::Array(items.map(Node::to_value).collect()),
            Shape::Object(entries) => Value::Object(
                entries
                    .map(|(k, v)| (k.unescaped().into_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl<'d> Instance<'d> for Node<'d> {
    type Items = Items<'d>;
    type Entries = Entries<'d>;
    type Array = Items<'d>;
    type Object = Entries<'d>;

    fn shape(self) -> Shape<'d, Node<'d>> {
        match self.first() {
            b'"' => Shape::String(self.text().unescaped()),
            b'-' | b'0'..=b'9' => {
                Shape::Number(read::number_value(self.span(), self.aux & Node::FLAG != 0))
            }
            b'[' => Shape::Array(self.items()),
            b'{' => Shape::Object(self.entries()),
            b't' => Shape::Bool(true),
            b'f' => Shape::Bool(false),
            _ => Shape::Null,
        }
    }

    fn kind(self) -> Kind {
        match self.first() {
            b'"' => Kind::String,
            b'-' | b'0'..=b'9' => Kind::Number,
            b'[' => Kind::Array,
            b'{' => Kind::Object,
            b't' | b'f' => Kind::Bool,
            _ => Kind::Null,
        }
    }

    fn as_bool(self) -> Option<bool> {
        match self.first() {
            b't' => Some(true),
            b'f' => Some(false),
            _ => None,
        }
    }

    fn as_number(self) -> Option<serde_json::Number> {
        let text = self.number_text()?;
        Some(read::number_value(text, self.is_integral_text()))
    }

    fn number_text(self) -> Option<&'d str> {
        matches!(self.first(), b'-' | b'0'..=b'9').then(|| self.span())
    }

    fn as_str(self) -> Option<JsonStr<'d>> {
        (self.first() == b'"').then(|| self.text())
    }

    fn len(self) -> Option<usize> {
        matches!(self.first(), b'[' | b'{').then(|| self.doc.len_and_size(self.aux).0 as usize)
    }

    fn items(self) -> Items<'d> {
        let (at, index, left) = self.contents(b'[');
        Items {
            doc: self.doc,
            at,
            index,
            left,
        }
    }

    fn entries(self) -> Entries<'d> {
        let (at, index, left) = self.contents(b'{');
        let shadows = left > 0
            && !self.doc.shadowed.is_empty()
            && (self.doc).shadows_between(at, self.doc.containers[self.aux as usize].end);
        Entries {
            doc: self.doc,
            at,
            index,
            left,
            shadows,
        }
    }

    fn to_value(self) -> alloc::borrow::Cow<'d, serde_json::Value> {
        // (The inherent `Node::to_value`: the subtree, built.)
        alloc::borrow::Cow::Owned(Node::to_value(self))
    }
}

/// The items of an array [`Node`], in order; as the [`ArrayView`] of its
/// [`Shape`], the rest of them.
#[derive(Debug, Clone, Copy)]
pub struct Items<'d> {
    doc: &'d Document<'d>,
    /// The offset of the next item's first byte.
    at: u32,
    /// The index of the first container that opens at or after `at`.
    index: u32,
    /// How many items are left.
    left: u32,
}

impl<'d> Iterator for Items<'d> {
    type Item = Node<'d>;

    fn next(&mut self) -> Option<Node<'d>> {
        if self.left == 0 {
            return None;
        }
        let (item, end, index) = self.doc.value_at(self.at, self.index);
        self.left -= 1;
        self.index = index;
        if self.left > 0 {
            self.at = scan::past_separator(self.doc.text.as_bytes(), end as usize) as u32;
        }
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Items<'_> {}

impl<'d> ArrayView<'d, Node<'d>> for Items<'d> {
    type Iter = Items<'d>;

    fn len(self) -> usize {
        self.left as usize
    }

    fn iter(self) -> Items<'d> {
        self
    }

    fn split_at(self, mid: usize) -> (Items<'d>, Items<'d>) {
        let mut rest = self;
        for _ in 0..mid {
            if rest.next().is_none() {
                break;
            }
        }
        let head = Items {
            left: self.left - rest.left,
            ..self
        };
        (head, rest)
    }
}

/// The entries of an object [`Node`], in document order, without the keys that a later
/// key repeats; as the [`ObjectView`] of its [`Shape`], all of them.
#[derive(Debug, Clone, Copy)]
pub struct Entries<'d> {
    doc: &'d Document<'d>,
    /// The offset of the next key's opening quote.
    at: u32,
    /// The index of the first container that opens at or after `at`.
    index: u32,
    /// How many entries are left (the object's length until the first step).
    left: u32,
    /// Whether the object has a shadowed key.
    shadows: bool,
}

super::object_view!(Node, Entries, left);

impl<'d> Iterator for Entries<'d> {
    type Item = (JsonStr<'d>, Node<'d>);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.doc.text.as_bytes();
        // The last key is never shadowed (no later key repeats it): counting the entries
        // left finds the end.
        while self.left > 0 {
            let quote = self.at as usize;
            let (close, escaped) = scan::string_end(bytes, quote + 1);
            let key = JsonStr::new(&self.doc.text[quote + 1..close], escaped);
            let value_at = scan::past_separator(bytes, close + 1);
            let (value, end, index) = self.doc.value_at(value_at as u32, self.index);
            self.index = index;
            let shadowed = self.shadows && self.doc.shadowed.binary_search(&self.at).is_ok();
            if !shadowed {
                self.left -= 1;
            }
            if self.left > 0 {
                self.at = scan::past_separator(bytes, end as usize) as u32;
            }
            if !shadowed {
                return Some((key, value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}
