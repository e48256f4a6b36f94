//! Instance access: what validation reads of a JSON value, behind one small trait with
//! two implementations for instances — a parsed `serde_json::Value` (`&Value`) and a value
//! of a [`Document`](crate::document::Document) read straight from bytes
//! ([`Node`](crate::document::Node)) — and a third for schema values held as static data
//! ([`Constant`]: the members of a large `enum` in generated code, compared with an
//! instance by [`crate::json::equal`]).
//!
//! Code written against [`Instance`] is generic and monomorphized: each implementation
//! gets its own copy, with no dynamic dispatch, and the `&Value` copy does what code
//! written against `Value` does. Each method says what it costs for both.
//!
//! Generated code reads an instance through [`Instance::shape`]: one `match` on the
//! value's [`Shape`], whose arms hold what the checks of that kind read — the number, the
//! string (unescaped), an [`ArrayView`] or an [`ObjectView`] — as a `match` on a `Value`'s
//! variants binds them.

use crate::document::JsonStr;
use alloc::borrow::Cow;
use alloc::string::String;
use serde_json::{Map, Number, Value};

/// A value's kind together with what validation reads of it ([`Instance::shape`]).
#[derive(Debug, Clone)]
pub enum Shape<'a, I: Instance<'a>> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as [`Instance::as_number`] gives it.
    Number(Number),
    /// A string, unescaped (borrowed unless it holds an escape).
    String(Cow<'a, str>),
    /// An array.
    Array(I::Array),
    /// An object.
    Object(I::Object),
}

/// The items of an array [`Instance`]: a cheap `Copy` view (a slice of a `Value`'s, a
/// range of a document's tape).
pub trait ArrayView<'a, I: Instance<'a>>: Copy {
    /// The items, in order.
    type Iter: ExactSizeIterator<Item = I> + Clone;

    /// How many items. Cost: a length read.
    fn len(self) -> usize;

    /// Whether there are none.
    #[inline]
    fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The items, in order.
    fn iter(self) -> Self::Iter;

    /// The first item.
    #[inline]
    fn first(self) -> Option<I> {
        self.iter().next()
    }

    /// The item at `index`. Cost: `&Value` an index; a document steps over the items
    /// before it.
    #[inline]
    fn get(self, index: usize) -> Option<I> {
        self.iter().nth(index)
    }

    /// The first `mid` items and the rest (`mid` at most [`ArrayView::len`]).
    fn split_at(self, mid: usize) -> (Self, Self);
}

/// The entries of an object [`Instance`]: a cheap `Copy` view whose entries come with
/// their keys unescaped ([`ObjectView::iter`]), in the order [`Instance::entries`] gives.
pub trait ObjectView<'a, I: Instance<'a>>: Copy {
    /// The entries, keys as read.
    type Entries: Iterator<Item = (JsonStr<'a>, I)> + Clone;
    /// A key, unescaped, as [`ObjectView::iter`] and [`ObjectView::keys`] give it: a
    /// `Value` map's `&String`, a document's `Cow` (borrowed unless it holds an escape).
    type Key: AsRef<str>;
    /// The entries, keys unescaped (the map's own iterator for a `Value`).
    type Iter: Iterator<Item = (Self::Key, I)>;
    /// The keys, unescaped.
    type Keys: Iterator<Item = Self::Key>;
    /// The values.
    type Values: Iterator<Item = I>;

    /// How many entries (distinct keys). Cost: a length read.
    fn len(self) -> usize;

    /// Whether there are none.
    #[inline]
    fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The entries, keys as read ([`JsonStr`]).
    fn entries(self) -> Self::Entries;

    /// The value of `key` (as [`Instance::get`]).
    fn get(self, key: &str) -> Option<I>;

    /// The place of the entry `key` among [`ObjectView::entries`] and its value, by a
    /// pass that ends where it finds it.
    #[inline]
    fn position(self, key: &str) -> Option<(usize, I)> {
        (self.entries().enumerate()).find_map(|(i, (k, v))| k.eq_str(key).then_some((i, v)))
    }

    /// Whether the object has the entry `key`.
    #[inline]
    fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries, keys unescaped (a `Value`'s: its map's own iterator, no adapter).
    fn iter(self) -> Self::Iter;

    /// The keys, unescaped.
    fn keys(self) -> Self::Keys;

    /// The values.
    fn values(self) -> Self::Values;
}

/// Entries with their keys unescaped: an [`ObjectView::iter`].
#[derive(Debug, Clone)]
pub struct Unescaped<E>(pub E);

impl<'a, I, E: Iterator<Item = (JsonStr<'a>, I)>> Iterator for Unescaped<E> {
    type Item = (Cow<'a, str>, I);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.next()?;
        Some((key.unescaped(), value))
    }
}

/// The keys of entries, unescaped: an [`ObjectView::keys`].
#[derive(Debug, Clone)]
pub struct Keys<E>(pub E);

impl<'a, I, E: Iterator<Item = (JsonStr<'a>, I)>> Iterator for Keys<E> {
    type Item = Cow<'a, str>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.0.next()?.0.unescaped())
    }
}

/// The values of entries: an [`ObjectView::values`].
#[derive(Debug, Clone)]
pub struct Values<E>(pub E);

impl<'a, I, E: Iterator<Item = (JsonStr<'a>, I)>> Iterator for Values<E> {
    type Item = I;

    #[inline]
    fn next(&mut self) -> Option<I> {
        Some(self.0.next()?.1)
    }
}

/// The JSON kind of a value (`integer` is not a kind: it is a number with no fraction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A JSON value as validation reads it: a cheap `Copy` handle (`&'a Value`, or a
/// document node) whose strings, items and entries live as long as `'a`.
pub trait Instance<'a>: Copy {
    /// The items of an array, in order.
    type Items: ExactSizeIterator<Item = Self> + Clone;
    /// The entries of an object: `&Value`'s in its map's order (sorted, or insertion order
    /// under serde_json's `preserve_order`), a document's in document order; a key that a
    /// later one repeats is left out (the last one wins).
    type Entries: Iterator<Item = (JsonStr<'a>, Self)> + Clone;
    /// What [`Instance::shape`] gives of an array.
    type Array: ArrayView<'a, Self>;
    /// What [`Instance::shape`] gives of an object.
    type Object: ObjectView<'a, Self>;

    /// The value's kind. Cost: a tag read, both.
    fn kind(self) -> Kind;

    /// The value's kind and what validation reads of it, for one `match`. Cost: a tag
    /// read; a document's number is parsed (as [`Instance::as_number`]) and its string
    /// unescaped if it holds an escape; use [`Instance::kind`] where only the kind
    /// matters.
    fn shape(self) -> Shape<'a, Self>;

    /// The boolean, if this is one. Cost: a tag read, both.
    fn as_bool(self) -> Option<bool>;

    /// The number as serde_json holds it: a `u64` when written without fraction or
    /// exponent and it fits, an `i64` when it is negative and fits (`-0` is `-0.0`), else
    /// the nearest `f64`. Cost: `&Value` a copy; a document parses its text (an integer:
    /// a few nanoseconds; a float: a correctly rounded decimal conversion).
    fn as_number(self) -> Option<Number>;

    /// The number as a `u64` if serde_json holds it as an integer that fits (as
    /// [`Number::as_u64`]: `7.0` is not). Cost: as [`Instance::as_number`].
    fn as_u64(self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `i64` if serde_json holds it as an integer that fits (as
    /// [`Number::as_i64`]). Cost: as [`Instance::as_number`].
    fn as_i64(self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as an `f64` (rounded if it is an integer beyond 2^53). Cost: as
    /// [`Instance::as_number`].
    fn as_f64(self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The number's text as written (`-0`, `1.50`, `100000000000000000000`), when the
    /// instance keeps it: a document does, a `Value` does not (`None`: it keeps only the
    /// [`Number`]). Cost: a tag read, both.
    fn number_text(self) -> Option<&'a str>;

    /// Whether this is a number written with neither a fraction nor an exponent (`-0`,
    /// `7`): draft-04's integer, which only a document can tell from `-0.0` (a `Value`
    /// holds `-0` as `-0.0`, and this is `false` there). Cost: a scan of the number's text.
    #[inline]
    fn written_integral(self) -> bool {
        self.number_text()
            .is_some_and(|t| !t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')))
    }

    /// The string, if this is one; unescaped on demand ([`JsonStr`]). Cost: a tag read,
    /// both.
    fn as_str(self) -> Option<JsonStr<'a>>;

    /// The number of items of an array or of entries of an object (distinct keys), else
    /// `None`. Cost: a length read, both.
    fn len(self) -> Option<usize>;

    /// Whether this is an empty array or object. Cost: as [`Instance::len`].
    fn is_empty(self) -> bool {
        self.len() == Some(0)
    }

    /// The items of an array (nothing for anything else). Cost per item: a pointer step
    /// for `&Value`, a tape read for a document (nested values are skipped, not walked).
    fn items(self) -> Self::Items;

    /// The entries of an object (nothing for anything else). Cost per entry: a map step
    /// for `&Value`, two tape reads for a document.
    fn entries(self) -> Self::Entries;

    /// The array item at `index`. Cost: `&Value` an index; a document steps over the
    /// items before it (one tape read each): iterate [`Instance::items`] instead of
    /// calling this in a loop.
    fn item(self, index: usize) -> Option<Self> {
        self.items().nth(index)
    }

    /// The value of `key` in an object. Cost: `&Value` a pass comparing lengths first
    /// over an object of at most 8 entries, else a map lookup (a B-tree search, or a hash
    /// under `preserve_order`); a document compares the key with each of the
    /// object's keys: several lookups on a large object cost more than one pass over
    /// [`Instance::entries`].
    fn get(self, key: &str) -> Option<Self> {
        self.entries()
            .find(|(k, _)| k.eq_str(key))
            .map(|(_, value)| value)
    }

    /// The value as a `serde_json::Value`: borrowed where it is one (`&Value`), else
    /// built (a document's subtree, a constant: allocated, recursing as deep as the value
    /// nests). For code that takes a `&Value`, such as a custom keyword's check.
    fn to_value(self) -> Cow<'a, Value>;
}

impl<'a> Instance<'a> for &'a Value {
    type Items = core::slice::Iter<'a, Value>;
    type Entries = ValueEntries<'a>;
    type Array = &'a [Value];
    type Object = &'a Map<String, Value>;

    #[inline]
    fn shape(self) -> Shape<'a, Self> {
        match self {
            Value::Null => Shape::Null,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Number(n) => Shape::Number(n.clone()),
            Value::String(s) => Shape::String(Cow::Borrowed(s)),
            Value::Array(items) => Shape::Array(items.as_slice()),
            Value::Object(map) => Shape::Object(map),
        }
    }

    #[inline]
    fn kind(self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    #[inline]
    fn as_bool(self) -> Option<bool> {
        self.as_bool()
    }

    #[inline]
    fn as_number(self) -> Option<Number> {
        self.as_number().cloned()
    }

    #[inline]
    fn as_u64(self) -> Option<u64> {
        self.as_u64()
    }

    #[inline]
    fn as_i64(self) -> Option<i64> {
        self.as_i64()
    }

    #[inline]
    fn as_f64(self) -> Option<f64> {
        self.as_f64()
    }

    #[inline]
    fn number_text(self) -> Option<&'a str> {
        None
    }

    #[inline]
    fn as_str(self) -> Option<JsonStr<'a>> {
        self.as_str().map(JsonStr::plain)
    }

    #[inline]
    fn len(self) -> Option<usize> {
        match self {
            Value::Array(items) => Some(items.len()),
            Value::Object(map) => Some(map.len()),
            _ => None,
        }
    }

    #[inline]
    fn items(self) -> Self::Items {
        match self {
            Value::Array(items) => items.iter(),
            _ => [].iter(),
        }
    }

    #[inline]
    fn entries(self) -> Self::Entries {
        ValueEntries(self.as_object().map(Map::iter))
    }

    #[inline]
    fn item(self, index: usize) -> Option<Self> {
        self.as_array()?.get(index)
    }

    #[inline]
    fn get(self, key: &str) -> Option<Self> {
        crate::engine::get(self.as_object()?, key)
    }

    #[inline]
    fn to_value(self) -> Cow<'a, Value> {
        Cow::Borrowed(self)
    }
}

impl<'a> ArrayView<'a, &'a Value> for &'a [Value] {
    type Iter = core::slice::Iter<'a, Value>;

    #[inline]
    fn len(self) -> usize {
        <[Value]>::len(self)
    }

    #[inline]
    fn iter(self) -> Self::Iter {
        <[Value]>::iter(self)
    }

    #[inline]
    fn first(self) -> Option<&'a Value> {
        <[Value]>::first(self)
    }

    #[inline]
    fn get(self, index: usize) -> Option<&'a Value> {
        <[Value]>::get(self, index)
    }

    #[inline]
    fn split_at(self, mid: usize) -> (Self, Self) {
        <[Value]>::split_at(self, mid)
    }
}

impl<'a> ObjectView<'a, &'a Value> for &'a Map<String, Value> {
    type Entries = MapEntries<'a>;
    type Key = &'a String;
    type Iter = serde_json::map::Iter<'a>;
    type Keys = serde_json::map::Keys<'a>;
    type Values = serde_json::map::Values<'a>;

    #[inline]
    fn iter(self) -> serde_json::map::Iter<'a> {
        Map::iter(self)
    }

    #[inline]
    fn keys(self) -> serde_json::map::Keys<'a> {
        Map::keys(self)
    }

    #[inline]
    fn values(self) -> serde_json::map::Values<'a> {
        Map::values(self)
    }

    #[inline]
    fn len(self) -> usize {
        Map::len(self)
    }

    #[inline]
    fn entries(self) -> MapEntries<'a> {
        MapEntries(Map::iter(self))
    }

    #[inline]
    fn get(self, key: &str) -> Option<&'a Value> {
        crate::engine::get(self, key)
    }

    #[inline]
    fn contains_key(self, key: &str) -> bool {
        Map::contains_key(self, key)
    }
}

/// The entries of a `&Value` object as an [`ObjectView`] gives them.
#[derive(Debug, Clone)]
pub struct MapEntries<'a>(serde_json::map::Iter<'a>);

impl<'a> Iterator for MapEntries<'a> {
    type Item = (JsonStr<'a>, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.next()?;
        Some((JsonStr::plain(key), value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// The entries of a `&Value` object (see [`Instance::entries`]).
#[derive(Debug, Clone)]
pub struct ValueEntries<'a>(Option<serde_json::map::Iter<'a>>);

impl<'a> Iterator for ValueEntries<'a> {
    type Item = (JsonStr<'a>, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.as_mut()?.next()?;
        Some((JsonStr::plain(key), value))
    }
}

/// An object key as a string instance: what `propertyNames` applies its subschema to
/// (the key has no instance location of its own), without copying it into a `Value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyStr<'k>(pub &'k str);

/// The items and entries of an instance that has none ([`KeyStr`]'s).
#[derive(Debug, Clone, Copy)]
pub struct Nothing;

impl<'k> ArrayView<'k, KeyStr<'k>> for Nothing {
    type Iter = core::iter::Empty<KeyStr<'k>>;

    fn len(self) -> usize {
        0
    }

    fn iter(self) -> Self::Iter {
        core::iter::empty()
    }

    fn split_at(self, _mid: usize) -> (Nothing, Nothing) {
        (Nothing, Nothing)
    }
}

impl<'k> ObjectView<'k, KeyStr<'k>> for Nothing {
    type Entries = core::iter::Empty<(JsonStr<'k>, KeyStr<'k>)>;
    type Key = &'k str;
    type Iter = core::iter::Empty<(&'k str, KeyStr<'k>)>;
    type Keys = core::iter::Empty<&'k str>;
    type Values = core::iter::Empty<KeyStr<'k>>;

    fn iter(self) -> Self::Iter {
        core::iter::empty()
    }

    fn keys(self) -> Self::Keys {
        core::iter::empty()
    }

    fn values(self) -> Self::Values {
        core::iter::empty()
    }

    fn len(self) -> usize {
        0
    }

    fn entries(self) -> Self::Entries {
        core::iter::empty()
    }

    fn get(self, _key: &str) -> Option<KeyStr<'k>> {
        None
    }
}

impl<'k> Instance<'k> for KeyStr<'k> {
    type Items = core::iter::Empty<KeyStr<'k>>;
    type Entries = core::iter::Empty<(JsonStr<'k>, KeyStr<'k>)>;
    type Array = Nothing;
    type Object = Nothing;

    #[inline]
    fn kind(self) -> Kind {
        Kind::String
    }

    #[inline]
    fn shape(self) -> Shape<'k, Self> {
        Shape::String(Cow::Borrowed(self.0))
    }

    fn as_bool(self) -> Option<bool> {
        None
    }

    fn as_number(self) -> Option<Number> {
        None
    }

    fn number_text(self) -> Option<&'k str> {
        None
    }

    #[inline]
    fn as_str(self) -> Option<JsonStr<'k>> {
        Some(JsonStr::plain(self.0))
    }

    fn len(self) -> Option<usize> {
        None
    }

    fn items(self) -> Self::Items {
        core::iter::empty()
    }

    fn entries(self) -> Self::Entries {
        core::iter::empty()
    }

    fn get(self, _key: &str) -> Option<Self> {
        None
    }

    fn to_value(self) -> Cow<'k, Value> {
        Cow::Owned(Value::String(self.0.into()))
    }
}

/// A JSON value held as static data: what generated code keeps of a large `enum`'s arrays
/// and objects (and a large `const`'s), compared with an instance by
/// [`crate::json::equal`] through this [`Instance`] implementation, where comparison code
/// generated per member would cost the compiler minutes on a few thousand members.
///
/// Numbers are held by value as [`crate::lookup::Key`] divides them (an integral value is
/// an integer); an object's entries are sorted by key, without repeats (the compiler emits
/// them so: [`Instance::get`] searches them by bisection, and unsorted entries give wrong
/// answers, never a panic).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Constant<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX` that fits `u64`.
    Uint(u64),
    /// Any other number.
    Float(f64),
    /// A string (its text, unescaped).
    String(&'a str),
    /// An array.
    Array(&'a [Constant<'a>]),
    /// An object: its entries sorted by key.
    Object(&'a [(&'a str, Constant<'a>)]),
}

impl<'a> Instance<'a> for &'a Constant<'a> {
    type Items = core::slice::Iter<'a, Constant<'a>>;
    type Entries = ConstantEntries<'a>;
    type Array = &'a [Constant<'a>];
    type Object = &'a [(&'a str, Constant<'a>)];

    fn shape(self) -> Shape<'a, Self> {
        match self {
            Constant::Null => Shape::Null,
            Constant::Bool(b) => Shape::Bool(*b),
            Constant::String(s) => Shape::String(Cow::Borrowed(s)),
            Constant::Array(items) => Shape::Array(*items),
            Constant::Object(entries) => Shape::Object(*entries),
            number => Shape::Number(number.as_number().unwrap_or_else(|| Number::from(0))),
        }
    }

    #[inline]
    fn kind(self) -> Kind {
        match self {
            Constant::Null => Kind::Null,
            Constant::Bool(_) => Kind::Bool,
            Constant::Int(_) | Constant::Uint(_) | Constant::Float(_) => Kind::Number,
            Constant::String(_) => Kind::String,
            Constant::Array(_) => Kind::Array,
            Constant::Object(_) => Kind::Object,
        }
    }

    #[inline]
    fn as_bool(self) -> Option<bool> {
        match self {
            Constant::Bool(b) => Some(*b),
            _ => None,
        }
    }

    #[inline]
    fn as_number(self) -> Option<Number> {
        match *self {
            Constant::Int(i) => Some(Number::from(i)),
            Constant::Uint(u) => Some(Number::from(u)),
            Constant::Float(f) => Number::from_f64(f),
            _ => None,
        }
    }

    #[inline]
    fn number_text(self) -> Option<&'a str> {
        None
    }

    #[inline]
    fn as_str(self) -> Option<JsonStr<'a>> {
        match self {
            Constant::String(s) => Some(JsonStr::plain(s)),
            _ => None,
        }
    }

    #[inline]
    fn len(self) -> Option<usize> {
        match self {
            Constant::Array(items) => Some(items.len()),
            Constant::Object(entries) => Some(entries.len()),
            _ => None,
        }
    }

    #[inline]
    fn items(self) -> Self::Items {
        match self {
            Constant::Array(items) => items.iter(),
            _ => [].iter(),
        }
    }

    #[inline]
    fn entries(self) -> Self::Entries {
        match self {
            Constant::Object(entries) => ConstantEntries(entries.iter()),
            _ => ConstantEntries([].iter()),
        }
    }

    #[inline]
    fn item(self, index: usize) -> Option<Self> {
        match self {
            Constant::Array(items) => items.get(index),
            _ => None,
        }
    }

    #[inline]
    fn get(self, key: &str) -> Option<Self> {
        match self {
            Constant::Object(entries) => ObjectView::get(*entries, key),
            _ => None,
        }
    }

    fn to_value(self) -> Cow<'a, Value> {
        Cow::Owned(match *self {
            Constant::Null => Value::Null,
            Constant::Bool(b) => Value::Bool(b),
            Constant::Int(i) => Value::from(i),
            Constant::Uint(u) => Value::from(u),
            Constant::Float(f) => Value::from(f),
            Constant::String(s) => Value::from(s),
            Constant::Array(items) => items.iter().map(|i| i.to_value().into_owned()).collect(),
            Constant::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| ((*k).into(), v.to_value().into_owned()))
                    .collect(),
            ),
        })
    }
}

impl<'a> ArrayView<'a, &'a Constant<'a>> for &'a [Constant<'a>] {
    type Iter = core::slice::Iter<'a, Constant<'a>>;

    fn len(self) -> usize {
        <[Constant<'a>]>::len(self)
    }

    fn iter(self) -> Self::Iter {
        <[Constant<'a>]>::iter(self)
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        <[Constant<'a>]>::split_at(self, mid)
    }
}

impl<'a> ObjectView<'a, &'a Constant<'a>> for &'a [(&'a str, Constant<'a>)] {
    type Entries = ConstantEntries<'a>;
    type Key = Cow<'a, str>;
    type Iter = Unescaped<ConstantEntries<'a>>;
    type Keys = Keys<ConstantEntries<'a>>;
    type Values = Values<ConstantEntries<'a>>;

    fn iter(self) -> Self::Iter {
        Unescaped(self.entries())
    }

    fn keys(self) -> Self::Keys {
        Keys(self.entries())
    }

    fn values(self) -> Self::Values {
        Values(self.entries())
    }

    fn len(self) -> usize {
        <[(&'a str, Constant<'a>)]>::len(self)
    }

    fn entries(self) -> ConstantEntries<'a> {
        ConstantEntries(<[(&'a str, Constant<'a>)]>::iter(self))
    }

    fn get(self, key: &str) -> Option<&'a Constant<'a>> {
        let at = self.binary_search_by(|(k, _)| (*k).cmp(key)).ok()?;
        <[(&'a str, Constant<'a>)]>::get(self, at).map(|(_, value)| value)
    }
}

/// The entries of a [`Constant`] object (see [`Instance::entries`]).
#[derive(Debug, Clone)]
pub struct ConstantEntries<'a>(core::slice::Iter<'a, (&'a str, Constant<'a>)>);

impl<'a> Iterator for ConstantEntries<'a> {
    type Item = (JsonStr<'a>, &'a Constant<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.next()?;
        Some((JsonStr::plain(key), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::equal;
    use serde_json::json;

    /// `{"a": [1, 2.5, "x"], "b": null, "c": {"d": true}}` as static data.
    const OBJECT: Constant<'static> = Constant::Object(&[
        (
            "a",
            Constant::Array(&[
                Constant::Int(1),
                Constant::Float(2.5),
                Constant::String("x"),
            ]),
        ),
        ("b", Constant::Null),
        ("c", Constant::Object(&[("d", Constant::Bool(true))])),
    ]);

    #[test]
    fn constants_equal_the_values_they_hold() {
        assert!(equal(
            &json!({"c": {"d": true}, "b": null, "a": [1.0, 2.5, "x"]}),
            &OBJECT
        ));
        assert!(equal(
            &OBJECT,
            &json!({"a": [1, 2.5, "x"], "b": null, "c": {"d": true}})
        ));
        for other in [
            json!({"a": [1, 2.5, "x"], "b": null, "c": {"d": false}}),
            json!({"a": [1, 2.5], "b": null, "c": {"d": true}}),
            json!({"a": [1, 2.5, "x"], "b": null, "e": {"d": true}}),
            json!({"a": [1, 2.5, "x"], "b": null}),
            json!([1, 2.5, "x"]),
        ] {
            assert!(!equal(&other, &OBJECT), "{other}");
        }
        let big = Constant::Uint(u64::MAX);
        assert!(equal(&json!(u64::MAX), &big));
        assert!(!equal(&json!(u64::MAX - 1), &big));
        assert_eq!(
            (&OBJECT).get("c").and_then(|c| c.get("d")),
            Some(&Constant::Bool(true))
        );
        assert_eq!((&OBJECT).get("z"), None);
    }
}
