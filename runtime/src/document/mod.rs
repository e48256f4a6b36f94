//! JSON documents read straight from bytes: a tape in place of a `serde_json::Value`.
//!
//! [`Document::read`] takes the bytes of one JSON text and gives a [`Document`]: the
//! input (checked to be UTF-8) and a flat tape with one entry per value and per object
//! key, in document order. A string or number entry holds the byte offsets of its text in
//! the input, nothing is copied; an array or object entry holds its length and the index
//! just past its subtree, so a reader can skip a value or come back to it. Strings are
//! unescaped only on demand ([`JsonStr::unescaped`]), and only when they hold an escape.
//!
//! What it accepts is exactly what `serde_json::from_slice::<Value>` accepts (RFC 8259:
//! no byte order mark, no trailing commas, no leading zeros, no control characters in
//! strings, escaped surrogates only in pairs, numbers whose value is finite, nothing but
//! whitespace after the value), apart from nesting, which has its own bound
//! ([`Document::DEFAULT_MAX_NESTING`]; serde_json's own is 128 unless turned off); what it
//! refuses gets a [`SyntaxError`] with the byte offset where reading stopped. Numbers are
//! rounded as serde_json rounds with its `float_roundtrip` feature (correctly): without
//! that feature serde_json's float parsing can be a unit in the last place off, and decide
//! differently on numbers within one unit of `f64::MAX`.
//!
//! Duplicate keys: as in serde_json, the last one wins. The tape keeps every entry; a key
//! that a later one repeats is marked shadowed, and the object's length and
//! [`Node::entries`] leave it out.
//!
//! Memory: 12 bytes of tape per value and per key (a `Vec` first given room for one entry
//! per four input bytes, at most 2^20, that grows by doubling), plus the input; reading
//! allocates nothing per value. The nesting stack and, while an object of more than
//! eight keys that may repeat one closes, the list of its keys and a table of their
//! hashes (16 bytes each, and 32 to 64 per key for the table, which only objects of 33 to
//! 65,536 keys get; kept for the next) are the only other buffers. Where memory matters more than time (large
//! inputs), [`compact::Document`] reads the same text with the same reader into 8 bytes
//! per array and per object only.

pub mod compact;
mod read;
mod scan;
mod string;

pub use read::{SyntaxError, SyntaxErrorKind};
pub use string::JsonStr;

use crate::instance::{ArrayView, Instance, Keys, Kind, ObjectView, Shape, Unescaped, Values};
use crate::limits::Limits;
use alloc::vec::Vec;

/// The [`ObjectView`] of the entries iterator `$entries` of a document's nodes `$node`
/// (items `(JsonStr, $node)`, its field `$len` counting the entries left): the tape's and
/// the compact form's alike; `$position`, if given, is the iterator's own search for a
/// key ([`ObjectView::position`]).
macro_rules! object_view {
    ($node:ident, $entries:ident, $len:ident $(, $position:ident)?) => {
        impl<'d> ObjectView<'d, $node<'d>> for $entries<'d> {
            type Entries = $entries<'d>;
            type Key = alloc::borrow::Cow<'d, str>;
            type Iter = Unescaped<$entries<'d>>;
            type Keys = Keys<$entries<'d>>;
            type Values = Values<$entries<'d>>;

            #[inline]
            fn iter(self) -> Self::Iter {
                Unescaped(self)
            }

            #[inline]
            fn keys(self) -> Self::Keys {
                Keys(self)
            }

            #[inline]
            fn values(self) -> Self::Values {
                Values(self)
            }

            #[inline]
            fn len(self) -> usize {
                self.$len as usize
            }

            #[inline]
            fn entries(self) -> $entries<'d> {
                self
            }

            fn get(self, key: &str) -> Option<$node<'d>> {
                self.position(key).map(|(_, value)| value)
            }

            $(
                #[inline]
                fn position(self, key: &str) -> Option<(usize, $node<'d>)> {
                    self.$position(key)
                }
            )?
        }
    };
}
use object_view;

/// One JSON text read from bytes: the input and its tape (see the [module
/// documentation](self)).
#[derive(Debug, Clone)]
pub struct Document<'i> {
    /// The whole input, checked to be UTF-8.
    text: &'i str,
    /// One entry per value and per object key, in document order; the root is entry 0.
    tape: Vec<Entry>,
}

/// What a tape entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    Null,
    False,
    True,
    Number,
    String,
    /// An object key: the entry just before the key's value.
    Key,
    Array,
    Object,
}

/// One tape entry (12 bytes).
///
/// - `Number`, `String`, `Key`: `a..b` is the byte range of the text in the input (a
///   string's or key's without its quotes);
/// - `Array`, `Object`: `a` is the index of the entry just past the subtree, `b` the
///   number of items or of entries (keys that no later key repeats).
/// - `Null`, `False`, `True`: `a` and `b` are unused.
#[derive(Debug, Clone, Copy)]
struct Entry {
    tag: Tag,
    flags: u8,
    a: u32,
    b: u32,
}

/// [`Entry::flags`] of a string or key: it holds at least one escape.
const ESCAPED: u8 = 1;
/// [`Entry::flags`] of a key: a later key of the same object is equal to it, so its value
/// is not the object's (the last one wins).
const SHADOWED: u8 = 2;
/// [`Entry::flags`] of a number: written with neither a fraction nor an exponent.
const INTEGRAL: u8 = 4;

impl<'i> Document<'i> {
    /// How deeply arrays and objects may nest by default: as the CLI allows
    /// (`MAX_NESTING`).
    pub const DEFAULT_MAX_NESTING: usize = 2048;

    /// Reads the JSON text `input` (arrays and objects nested at most
    /// [`Document::DEFAULT_MAX_NESTING`] deep). Cost: one pass over the input plus one
    /// over its bytes to check UTF-8, and 12 bytes per value and per key.
    pub fn read(input: &'i [u8]) -> Result<Document<'i>, SyntaxError> {
        Document::read_nested(input, Document::DEFAULT_MAX_NESTING)
    }

    /// [`Document::read`] with arrays and objects nested at most `max_nesting` deep
    /// (serde_json's default recursion limit accepts 127 levels).
    pub fn read_nested(input: &'i [u8], max_nesting: usize) -> Result<Document<'i>, SyntaxError> {
        read::read(input, max_nesting)
    }

    /// Reads the JSON text `input` and runs `run` on its root under `limits` grown with
    /// the input ([`Limits::for_input`]): what every validator's `*_json` entry point does
    /// (generated code's and the interpreter's alike).
    #[inline(always)]
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
        Node { doc: self, at: 0 }
    }

    /// The input, as text.
    pub fn text(&self) -> &'i str {
        self.text
    }

    /// How many tape entries the document has: one per value and one per object key.
    pub fn tape_len(&self) -> usize {
        self.tape.len()
    }

    /// The document as a `serde_json::Value` (duplicate keys: the last one wins, as in
    /// serde_json). Allocates the whole tree; for tests and for callers that need one.
    pub fn to_value(&self) -> serde_json::Value {
        self.root().to_value()
    }
}

/// A value in a [`Document`]: a cheap handle (a reference and an index) that reads the
/// tape. It implements [`Instance`].
#[derive(Debug, Clone, Copy)]
pub struct Node<'d> {
    doc: &'d Document<'d>,
    at: u32,
}

// The helpers and the iterators' `next` are `#[inline]`: validators in other crates call
// them for every value they read.
impl<'d> Node<'d> {
    #[inline]
    fn entry(self) -> Entry {
        self.doc.tape[self.at as usize]
    }

    /// The text of a number, string or key entry `e` (this node's).
    #[inline]
    fn span(self, e: Entry) -> &'d str {
        &self.doc.text[e.a as usize..e.b as usize]
    }

    /// Whether the number was written with neither a fraction nor an exponent (`-0` and
    /// `100000000000000000000` were; `1.0` and `1e2` were not). Cost: one tape read.
    pub fn is_integral_text(self) -> bool {
        let e = self.entry();
        e.tag == Tag::Number && e.flags & INTEGRAL != 0
    }

    /// The string of a string or key entry `e` (this node's).
    #[inline]
    fn text(self, e: Entry) -> JsonStr<'d> {
        JsonStr::new(self.span(e), e.flags & ESCAPED != 0)
    }

    /// The range of tape entries inside this value when it is a `tag` (an array or
    /// object), else an empty range.
    #[inline]
    fn contents(self, tag: Tag) -> (u32, u32) {
        let e = self.entry();
        if e.tag == tag {
            (self.at + 1, e.a)
        } else {
            (0, 0)
        }
    }

    /// The index just past this value's subtree (`e`, its entry).
    #[inline]
    fn next(self, e: Entry) -> u32 {
        match e.tag {
            Tag::Array | Tag::Object => e.a,
            _ => self.at + 1,
        }
    }

    /// This value as a `serde_json::Value`. Allocates the whole subtree; recursion as
    /// deep as the value nests (bounded by the nesting limit it was read under).
    pub fn to_value(self) -> serde_json::Value {
        use serde_json::Value;
        let e = self.entry();
        match e.tag {
            Tag::Null => Value::Null,
            Tag::False => Value::Bool(false),
            Tag::True => Value::Bool(true),
            Tag::Number => Value::Number(read::number_value(self.span(e), self.is_integral_text())),
            Tag::String | Tag::Key => Value::String(self.text(e).unescaped().into_owned()),
            Tag::Array => Value::Array(self.items().map(Node::to_value).collect()),
            Tag::Object => Value::Object(
                self.entries()
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

    #[inline]
    fn shape(self) -> Shape<'d, Node<'d>> {
        let e = self.entry();
        match e.tag {
            Tag::Null => Shape::Null,
            Tag::False => Shape::Bool(false),
            Tag::True => Shape::Bool(true),
            Tag::Number => Shape::Number(read::number_value(self.span(e), e.flags & INTEGRAL != 0)),
            Tag::String | Tag::Key => Shape::String(self.text(e).unescaped()),
            Tag::Array => Shape::Array(self.items()),
            Tag::Object => Shape::Object(self.entries()),
        }
    }

    #[inline]
    fn get(self, key: &str) -> Option<Self> {
        self.entries().find_entry(key).map(|(_, value)| value)
    }

    #[inline]
    fn kind(self) -> Kind {
        match self.entry().tag {
            Tag::Null => Kind::Null,
            Tag::False | Tag::True => Kind::Bool,
            Tag::Number => Kind::Number,
            Tag::String | Tag::Key => Kind::String,
            Tag::Array => Kind::Array,
            Tag::Object => Kind::Object,
        }
    }

    #[inline]
    fn as_bool(self) -> Option<bool> {
        match self.entry().tag {
            Tag::True => Some(true),
            Tag::False => Some(false),
            _ => None,
        }
    }

    fn as_number(self) -> Option<serde_json::Number> {
        let text = self.number_text()?;
        Some(read::number_value(text, self.is_integral_text()))
    }

    #[inline]
    fn number_text(self) -> Option<&'d str> {
        let e = self.entry();
        (e.tag == Tag::Number).then(|| self.span(e))
    }

    #[inline]
    fn as_str(self) -> Option<JsonStr<'d>> {
        let e = self.entry();
        (e.tag == Tag::String).then(|| self.text(e))
    }

    #[inline]
    fn len(self) -> Option<usize> {
        let e = self.entry();
        matches!(e.tag, Tag::Array | Tag::Object).then_some(e.b as usize)
    }

    #[inline]
    fn items(self) -> Items<'d> {
        let (at, end) = self.contents(Tag::Array);
        Items {
            doc: self.doc,
            at,
            end,
            left: if at < end { self.entry().b } else { 0 },
        }
    }

    #[inline]
    fn entries(self) -> Entries<'d> {
        let (at, end) = self.contents(Tag::Object);
        Entries {
            doc: self.doc,
            at,
            end,
            len: if at < end { self.entry().b } else { 0 },
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
    at: u32,
    end: u32,
    /// How many items are left.
    left: u32,
}

impl<'d> Iterator for Items<'d> {
    type Item = Node<'d>;

    #[inline]
    fn next(&mut self) -> Option<Node<'d>> {
        if self.at >= self.end {
            return None;
        }
        let item = Node {
            doc: self.doc,
            at: self.at,
        };
        self.at = item.next(item.entry());
        self.left = self.left.saturating_sub(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Items<'_> {}

impl<'d> ArrayView<'d, Node<'d>> for Items<'d> {
    type Iter = Items<'d>;

    #[inline]
    fn len(self) -> usize {
        self.left as usize
    }

    #[inline]
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
            end: rest.at,
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
    at: u32,
    end: u32,
    /// How many (distinct keys): the object's length until the first step.
    len: u32,
}

object_view!(Node, Entries, len, find_entry);

impl<'d> Entries<'d> {
    /// The place among these of the entry `key` (the last of equal keys: the others are
    /// shadowed) and its value, read off the tape: a key is compared only when its
    /// length is the sought one (or it holds an escape), and no node is made for the
    /// others.
    #[inline]
    fn find_entry(self, key: &str) -> Option<(usize, Node<'d>)> {
        let (tape, text) = (&self.doc.tape[..], self.doc.text.as_bytes());
        let mut at = self.at as usize;
        let mut place = 0;
        while let (true, Some(k), Some(v)) =
            (at < self.end as usize, tape.get(at), tape.get(at + 1))
        {
            if k.flags & SHADOWED == 0 {
                let span = k.a as usize..k.b as usize;
                let found = match k.flags & ESCAPED {
                    0 => span.len() == key.len() && text.get(span) == Some(key.as_bytes()),
                    _ => JsonStr::new(&self.doc.text[span], true).eq_str(key),
                };
                if found {
                    let value = Node {
                        doc: self.doc,
                        at: at as u32 + 1,
                    };
                    return Some((place, value));
                }
                place += 1;
            }
            at = match v.tag {
                Tag::Array | Tag::Object => v.a as usize,
                _ => at + 2,
            };
        }
        None
    }
}

impl<'d> Iterator for Entries<'d> {
    type Item = (JsonStr<'d>, Node<'d>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while self.at < self.end {
            let key = Node {
                doc: self.doc,
                at: self.at,
            };
            let value = Node {
                doc: self.doc,
                at: self.at + 1,
            };
            self.at = value.next(value.entry());
            let k = key.entry();
            if k.flags & SHADOWED == 0 {
                return Some((key.text(k), value));
            }
        }
        None
    }
}
