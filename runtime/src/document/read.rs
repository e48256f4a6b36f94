//! The reader: one pass over the bytes, no recursion, no allocation per value. What it
//! writes down goes to a [`Sink`]: the tape of a [`Document`] ([`Tape`]), or the index of
//! arrays and objects of a [`compact::Document`](super::compact::Document).
//!
//! It keeps a stack of the open arrays and objects (bounded by the nesting limit) and,
//! for each open object, a filter of the keys read so far (128 buckets of a tag of each
//! key: its length, first and last bytes). When no two keys fell in one bucket and none
//! holds an escape, the object has no duplicate keys; else they are found when it closes,
//! from its keys as the sink gives them ([`ClosedObject`]): pairwise for up to eight keys
//! (by their tags first), else by a table of the keys' hashes, computed then (equal
//! hashes are confirmed by comparing the keys): one probe or two per key. The hash has
//! no secret seed, so keys can be crafted to collide: a key whose lookup steps over more
//! than [`MAX_PROBES`] slots has the keys sorted by hash instead, and a run of more than
//! eight equal hashes sorted by the keys themselves, so that the work stays O(n log n)
//! comparisons whatever the keys.

use super::string::{hex4, JsonStr};
use super::{Document, Entry, Tag, ESCAPED, INTEGRAL, SHADOWED};
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

/// Why a text is not JSON, and the byte offset where reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong.
    pub kind: SyntaxErrorKind,
    /// The offset of the byte where reading stopped (the input's length when it ended
    /// too early).
    pub offset: usize,
}

/// What is wrong with a text that is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// The input ends before the value does (or holds no value).
    UnexpectedEnd,
    /// Another byte was expected here: the text says which.
    Expected(&'static str),
    /// A number that is not written as JSON writes numbers.
    InvalidNumber,
    /// A number too large for an `f64` (beyond about ±1.8e308).
    NumberOutOfRange,
    /// A backslash not followed by one of JSON's escapes.
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate that is not one of a high-low pair.
    LoneSurrogate,
    /// A control character (U+0000 to U+001F) written unescaped in a string.
    ControlCharacter,
    /// Bytes that are not UTF-8.
    InvalidUtf8,
    /// Something other than whitespace after the value.
    TrailingCharacters,
    /// Arrays and objects nested deeper than the limit.
    TooDeep {
        /// The nesting limit read under.
        limit: usize,
    },
    /// An input too large for the offsets the reader writes down (32 bits on the tape,
    /// 31 in the compact index).
    TooLarge {
        /// The size refused, and any larger: 4 GiB or 2 GiB.
        limit: u64,
    },
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            SyntaxErrorKind::UnexpectedEnd => f.write_str("the input ends before the value does")?,
            SyntaxErrorKind::Expected(what) => write!(f, "expected {what}")?,
            SyntaxErrorKind::InvalidNumber => f.write_str(
                "invalid number (JSON writes an optional `-`, digits without a leading zero, \
                 then an optional `.` and digits, then an optional `e` and digits)",
            )?,
            SyntaxErrorKind::NumberOutOfRange => {
                f.write_str("number out of range (at most about ±1.8e308)")?
            }
            SyntaxErrorKind::InvalidEscape => f.write_str(
                "invalid escape (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hex digits)",
            )?,
            SyntaxErrorKind::LoneSurrogate => f.write_str(
                "a \\u escape of an unpaired surrogate (\\uD800 to \\uDBFF must be followed by \
                 \\uDC00 to \\uDFFF)",
            )?,
            SyntaxErrorKind::ControlCharacter => f.write_str(
                "control character in a string (U+0000 to U+001F must be written as escapes)",
            )?,
            SyntaxErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8")?,
            SyntaxErrorKind::TrailingCharacters => {
                f.write_str("characters after the value (only whitespace may follow it)")?
            }
            SyntaxErrorKind::TooDeep { limit } => {
                write!(f, "arrays and objects nest deeper than {limit} levels")?
            }
            SyntaxErrorKind::TooLarge { limit } => {
                write!(f, "input of {} GiB or more", limit >> 30)?
            }
        }
        write!(f, " at byte {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SyntaxError {}

/// Reads `input` (see [`Document::read_nested`]).
pub(super) fn read(input: &[u8], max_nesting: usize) -> Result<Document<'_>, SyntaxError> {
    let (text, tape) = read_into::<Tape<'_>>(input, max_nesting)?;
    Ok(Document {
        text,
        tape: tape.tape,
    })
}

/// Where a reading goes: what is written down of each value (a [`Document`]'s tape, or
/// a [`compact::Document`](super::compact::Document)'s index).
pub(super) trait Sink<'i>: ClosedObject {
    /// The inputs it takes are shorter than this.
    const MAX_INPUT: u64;
    /// A sink for the text `text` (the input's UTF-8 prefix) of an input of `len` bytes.
    fn new(text: &'i str, len: usize) -> Self;
    /// A string, number, `true`, `false` or `null`: its text is `start..end` (a string's
    /// without its quotes; nothing for a literal) and `flags` say what [`Entry::flags`]
    /// says.
    fn scalar(&mut self, tag: Tag, flags: u8, start: usize, end: usize);
    /// An object key, `start..end` (without its quotes), with [`ESCAPED`] in `flags` when
    /// it holds an escape.
    fn key(&mut self, start: usize, end: usize, flags: u8);
    /// An array or object opens: the handle the sink knows it by ([`Open::entry`]).
    fn open(&mut self, is_object: bool) -> u32;
    /// The array or object `open` closed, and `past` is the offset just past its closing
    /// bracket. When [`Open::may_repeat`], the sink finds its duplicate keys
    /// ([`shadow_duplicates`], with `scratch`).
    fn close(&mut self, open: &Open, past: usize, scratch: &mut Vec<KeyHash>);
}

/// The keys of an object that has just closed, for [`shadow_duplicates`]: each known by
/// a handle of the sink's.
pub(super) trait ClosedObject {
    /// The input's text.
    fn text(&self) -> &str;
    /// Where the text of the key `key` starts and ends in [`ClosedObject::text`], and
    /// whether it holds an escape.
    fn key_span(&self, key: u32) -> (usize, usize, bool);
    /// The key after the key `key` (the object has one).
    fn next_key(&self, key: u32) -> u32;
    /// Marks the key `key` as shadowed: a later key of its object equals it.
    fn shadow(&mut self, key: u32);
}

/// Reads `input` into the sink `S`: the input's text and the sink.
pub(super) fn read_into<'i, S: Sink<'i>>(
    input: &'i [u8],
    max_nesting: usize,
) -> Result<(&'i str, S), SyntaxError> {
    if input.len() as u64 >= S::MAX_INPUT {
        return Err(SyntaxError {
            kind: SyntaxErrorKind::TooLarge {
                limit: S::MAX_INPUT,
            },
            offset: 0,
        });
    }
    // Check UTF-8 first (fast, and it lets strings be sliced as `str`); read the valid
    // prefix, so that an error before the first bad byte is the one reported.
    let (text, bad_utf8) = match core::str::from_utf8(input) {
        Ok(text) => (text, None),
        Err(e) => {
            let valid = e.valid_up_to();
            (
                core::str::from_utf8(&input[..valid]).unwrap_or_default(),
                Some(valid),
            )
        }
    };
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        sink: S::new(text, input.len()),
        open: Vec::with_capacity(OPEN_CAPACITY),
        keys: Vec::new(),
        bad_utf8,
        max_nesting,
    };
    reader.run()?;
    Ok((text, reader.sink))
}

/// The [`Sink`] of a [`Document`]: its tape, an entry per value and per key.
struct Tape<'i> {
    text: &'i str,
    tape: Vec<Entry>,
}

impl Tape<'_> {
    fn push(&mut self, tag: Tag, flags: u8, a: usize, b: usize) {
        // Offsets and counts fit: the input is under 4 GiB and has at least a byte per entry.
        self.tape.push(Entry {
            tag,
            flags,
            a: a as u32,
            b: b as u32,
        });
    }
}

impl<'i> Sink<'i> for Tape<'i> {
    const MAX_INPUT: u64 = 1 << 32;

    fn new(text: &'i str, len: usize) -> Self {
        Tape {
            text,
            tape: Vec::with_capacity(tape_estimate(len)),
        }
    }

    #[inline(always)]
    fn scalar(&mut self, tag: Tag, flags: u8, start: usize, end: usize) {
        self.push(tag, flags, start, end);
    }

    #[inline(always)]
    fn key(&mut self, start: usize, end: usize, flags: u8) {
        self.push(Tag::Key, flags, start, end);
    }

    #[inline(always)]
    fn open(&mut self, is_object: bool) -> u32 {
        let entry = self.tape.len() as u32;
        let tag = if is_object { Tag::Object } else { Tag::Array };
        self.push(tag, 0, 0, 0);
        entry
    }

    fn close(&mut self, open: &Open, _past: usize, scratch: &mut Vec<KeyHash>) {
        let past = self.tape.len() as u32;
        let mut count = open.count;
        if open.may_repeat {
            count -= shadow_duplicates(self, open.entry + 1, open.count, scratch);
        }
        let entry = &mut self.tape[open.entry as usize];
        entry.a = past;
        entry.b = count;
    }
}

/// A key is a tape entry; its value ends where the next key is.
impl ClosedObject for Tape<'_> {
    fn text(&self) -> &str {
        self.text
    }

    fn key_span(&self, key: u32) -> (usize, usize, bool) {
        let e = self.tape[key as usize];
        (e.a as usize, e.b as usize, e.flags & ESCAPED != 0)
    }

    fn next_key(&self, key: u32) -> u32 {
        let value = self.tape[key as usize + 1];
        match value.tag {
            Tag::Array | Tag::Object => value.a,
            _ => key + 2,
        }
    }

    fn shadow(&mut self, key: u32) {
        self.tape[key as usize].flags |= SHADOWED;
    }
}

/// The tape entries a text of `len` bytes is first given room for: one per four bytes
/// (a small object's `"k":1,` is three entries in six bytes, prose strings one in tens),
/// so that a small document is read with one allocation and a large one grows by doubling
/// from a fair start. At most 2^20 entries (12 MiB) up front: an allocator hands large
/// blocks out as untouched pages, so room not used costs address space, not memory.
fn tape_estimate(len: usize) -> usize {
    (len / 4 + 4).min(1 << 20)
}

/// The open arrays and objects a reader has room for before its first allocation grows.
const OPEN_CAPACITY: usize = 8;

/// An array or object being read.
pub(super) struct Open {
    /// Its handle in the sink ([`Sink::open`]).
    pub(super) entry: u32,
    /// Items or keys so far.
    pub(super) count: u32,
    pub(super) is_object: bool,
    /// A bit per key tag seen so far (objects), 128 buckets.
    seen: u128,
    /// Whether two keys may be equal: a tag's bucket was seen before, or a key holds an
    /// escape. When not, closing the object looks for no duplicates.
    pub(super) may_repeat: bool,
}

/// A key of an object being closed: a digest of its text (its [`key_tag`], or its hash
/// when the object has more than eight keys) and its handle ([`ClosedObject`]).
pub(super) type KeyHash = (u64, u32);

/// The [`key_tag`] of a key that holds an escape: it may equal any key.
const ANY_KEY: u64 = u64::MAX;

/// A tag of the key `start..end` of `bytes` (its text as written), from its length and
/// its first and last bytes: equal keys have equal tags, and a key with an escape has
/// [`ANY_KEY`].
fn key_tag(bytes: &[u8], start: usize, end: usize, escaped: bool) -> u64 {
    if escaped {
        return ANY_KEY;
    }
    let byte = |at: usize| u64::from(bytes.get(at).copied().unwrap_or(0));
    if start == end {
        return 0;
    }
    (end - start) as u64 | byte(start) << 32 | byte(end - 1) << 40
}

struct Reader<'a, S> {
    /// The input up to its first byte that is not UTF-8 (all of it, usually).
    text: &'a str,
    /// `text` as bytes.
    bytes: &'a [u8],
    at: usize,
    sink: S,
    open: Vec<Open>,
    /// The keys of the object being closed, when it may have duplicates and more than
    /// eight, and the table that finds them (kept for the next such object).
    keys: Vec<KeyHash>,
    /// The offset of the first byte that is not UTF-8.
    bad_utf8: Option<usize>,
    max_nesting: usize,
}

impl<'a, S: Sink<'a>> Reader<'a, S> {
    fn error(&self, kind: SyntaxErrorKind) -> SyntaxError {
        SyntaxError {
            kind,
            offset: self.at,
        }
    }

    /// The error for running out of input: the input ended, or its first bad byte is here.
    fn end(&self) -> SyntaxError {
        match self.bad_utf8 {
            Some(offset) => SyntaxError {
                kind: SyntaxErrorKind::InvalidUtf8,
                offset,
            },
            None => self.error(SyntaxErrorKind::UnexpectedEnd),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn run(&mut self) -> Result<(), SyntaxError> {
        loop {
            if !self.value()? {
                // An array or object opened: read its first item or value.
                continue;
            }
            // A value is complete: go on to its next sibling, closing what it ends.
            loop {
                let Some(top) = self.open.last() else {
                    self.skip_whitespace();
                    return match self.peek() {
                        None if self.bad_utf8.is_none() => Ok(()),
                        None => Err(self.end()),
                        Some(_) => Err(self.error(SyntaxErrorKind::TrailingCharacters)),
                    };
                };
                let is_object = top.is_object;
                self.skip_whitespace();
                match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        if is_object {
                            self.skip_whitespace();
                            self.key()?;
                        }
                        if let Some(top) = self.open.last_mut() {
                            top.count += 1;
                        }
                        break;
                    }
                    Some(b']') if !is_object => {
                        self.at += 1;
                        self.close();
                    }
                    Some(b'}') if is_object => {
                        self.at += 1;
                        self.close();
                    }
                    Some(_) if is_object => {
                        return Err(self.error(SyntaxErrorKind::Expected("`,` or `}`")))
                    }
                    Some(_) => return Err(self.error(SyntaxErrorKind::Expected("`,` or `]`"))),
                    None => return Err(self.end()),
                }
            }
        }
    }

    /// Reads a value, or opens an array or object: `true` when a value is complete (a
    /// scalar, or an empty array or object), `false` when an array or object was opened
    /// (an object's first key read).
    fn value(&mut self) -> Result<bool, SyntaxError> {
        self.skip_whitespace();
        let Some(b) = self.peek() else {
            return Err(self.end());
        };
        match b {
            b'"' => {
                let (start, end, flags) = self.string()?;
                self.sink.scalar(Tag::String, flags, start, end);
            }
            b'-' | b'0'..=b'9' => self.number()?,
            b't' => self.literal(b"true", Tag::True)?,
            b'f' => self.literal(b"false", Tag::False)?,
            b'n' => self.literal(b"null", Tag::Null)?,
            b'[' | b'{' => {
                let is_object = b == b'{';
                if self.open.len() >= self.max_nesting {
                    return Err(self.error(SyntaxErrorKind::TooDeep {
                        limit: self.max_nesting,
                    }));
                }
                let entry = self.sink.open(is_object);
                self.open.push(Open {
                    entry,
                    count: 0,
                    seen: 0,
                    may_repeat: false,
                    is_object,
                });
                self.at += 1;
                self.skip_whitespace();
                let close = if is_object { b'}' } else { b']' };
                if self.peek() == Some(close) {
                    self.at += 1;
                    self.close();
                    return Ok(true);
                }
                if is_object {
                    self.key()?;
                }
                if let Some(top) = self.open.last_mut() {
                    top.count = 1;
                }
                return Ok(false);
            }
            _ => return Err(self.error(SyntaxErrorKind::Expected("a value"))),
        }
        Ok(true)
    }

    /// Closes the innermost array or object: its extent, its length, its duplicate keys.
    #[inline(always)]
    fn close(&mut self) {
        let Some(open) = self.open.pop() else { return };
        self.sink.close(&open, self.at, &mut self.keys);
    }

    /// Reads an object key and the `:` after it.
    fn key(&mut self) -> Result<(), SyntaxError> {
        if self.peek() != Some(b'"') {
            return Err(match self.peek() {
                None => self.end(),
                Some(_) => self.error(SyntaxErrorKind::Expected("a key (a string)")),
            });
        }
        let (start, end, flags) = self.string()?;
        let tag = key_tag(self.bytes, start, end, flags & ESCAPED != 0);
        if let Some(top) = self.open.last_mut() {
            let bucket = 1u128 << (tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57);
            top.may_repeat |= top.seen & bucket != 0 || tag == ANY_KEY;
            top.seen |= bucket;
        }
        self.sink.key(start, end, flags);
        self.skip_whitespace();
        match self.peek() {
            Some(b':') => {
                self.at += 1;
                Ok(())
            }
            Some(_) => Err(self.error(SyntaxErrorKind::Expected("`:` after a key"))),
            None => Err(self.end()),
        }
    }

    /// Reads a string from its opening quote: the range of its content and its flags.
    #[inline(always)]
    fn string(&mut self) -> Result<(usize, usize, u8), SyntaxError> {
        self.at += 1;
        let start = self.at;
        let mut flags = 0;
        loop {
            self.skip_plain();
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok((start, self.at - 1, flags));
                }
                Some(b'\\') => {
                    flags = ESCAPED;
                    self.escape()?;
                }
                Some(_) => return Err(self.error(SyntaxErrorKind::ControlCharacter)),
                None => return Err(self.end()),
            }
        }
    }

    /// Skips string bytes that need no attention (not `"`, `\` or a control character),
    /// eight at a time.
    fn skip_plain(&mut self) {
        const LOW: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        while let Some(w) = self.bytes.get(self.at..self.at + 8) {
            let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            let quote = w ^ (LOW * u64::from(b'"'));
            let backslash = w ^ (LOW * u64::from(b'\\'));
            // A byte is flagged when it is zero after the xor (a quote or backslash) or
            // below 0x20; the lowest flag is exact (borrows only reach higher bytes).
            let stop = (quote.wrapping_sub(LOW) & !quote
                | backslash.wrapping_sub(LOW) & !backslash
                | w.wrapping_sub(LOW * 0x20) & !w)
                & HIGH;
            if stop != 0 {
                self.at += stop.trailing_zeros() as usize / 8;
                return;
            }
            self.at += 8;
        }
        while let Some(b) = self.peek() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                return;
            }
            self.at += 1;
        }
    }

    /// Checks the escape at a backslash and steps over it.
    fn escape(&mut self) -> Result<(), SyntaxError> {
        let Some(&b) = self.bytes.get(self.at + 1) else {
            self.at += 1;
            return Err(self.end());
        };
        if b != b'u' {
            if !matches!(b, b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') {
                self.at += 1;
                return Err(self.error(SyntaxErrorKind::InvalidEscape));
            }
            self.at += 2;
            return Ok(());
        }
        self.at += 2;
        let high = self.hex()?;
        if (0xDC00..=0xDFFF).contains(&high) {
            return Err(self.error(SyntaxErrorKind::LoneSurrogate));
        }
        if !(0xD800..=0xDBFF).contains(&high) {
            return Ok(());
        }
        match self.bytes.get(self.at..self.at + 2) {
            Some(b"\\u") => self.at += 2,
            Some(_) => return Err(self.error(SyntaxErrorKind::LoneSurrogate)),
            None if self.at + 1 == self.bytes.len() && self.bytes[self.at] != b'\\' => {
                return Err(self.error(SyntaxErrorKind::LoneSurrogate))
            }
            None => {
                self.at = self.bytes.len();
                return Err(self.end());
            }
        }
        let low = self.hex()?;
        if !(0xDC00..=0xDFFF).contains(&low) {
            return Err(self.error(SyntaxErrorKind::LoneSurrogate));
        }
        Ok(())
    }

    /// Reads the four hex digits of a `\u` escape.
    fn hex(&mut self) -> Result<u16, SyntaxError> {
        let Some(digits) = self.bytes.get(self.at..self.at + 4) else {
            self.at = self.bytes.len();
            return Err(self.end());
        };
        let value = hex4(Some(digits));
        match value {
            Some(value) => {
                self.at += 4;
                Ok(value)
            }
            None => Err(self.error(SyntaxErrorKind::InvalidEscape)),
        }
    }

    /// Reads `true`, `false` or `null`.
    fn literal(&mut self, word: &[u8], tag: Tag) -> Result<(), SyntaxError> {
        let rest = &self.bytes[self.at..];
        if rest.starts_with(word) {
            self.at += word.len();
            self.sink.scalar(tag, 0, 0, 0);
            return Ok(());
        }
        let same = rest.iter().zip(word).take_while(|(a, b)| a == b).count();
        self.at += same;
        if same == rest.len() {
            return Err(self.end());
        }
        Err(self.error(SyntaxErrorKind::Expected(match tag {
            Tag::True => "`true`",
            Tag::False => "`false`",
            _ => "`null`",
        })))
    }

    /// Reads a number: checks its syntax and that its value is finite.
    fn number(&mut self) -> Result<(), SyntaxError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error(SyntaxErrorKind::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            Some(_) => return Err(self.error(SyntaxErrorKind::InvalidNumber)),
            None => return Err(self.end()),
        }
        let int_digits = self.at - int_start;
        let int_is_zero = self.bytes[int_start] == b'0';
        let mut flags = INTEGRAL;
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.required_digits()?;
            flags = 0;
        }
        // The exponent, clamped: any exponent this large decides the same way.
        let mut exponent: i64 = 0;
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let negative = match self.peek() {
                Some(b'-') => {
                    self.at += 1;
                    true
                }
                Some(b'+') => {
                    self.at += 1;
                    false
                }
                _ => false,
            };
            let digits_from = self.at;
            self.required_digits()?;
            for &d in &self.bytes[digits_from..self.at] {
                exponent = (exponent * 10 + i64::from(d - b'0')).min(1_000_000);
            }
            if negative {
                exponent = -exponent;
            }
            flags = 0;
        }
        // The value is below 10^magnitude; only a number that may reach f64::MAX
        // (about 1.8e308) is parsed to see whether it does.
        let magnitude = if int_is_zero { 0 } else { int_digits as i64 } + exponent;
        if magnitude > 308 {
            let text = &self.text[start..self.at];
            if text.parse::<f64>().map_or(true, f64::is_infinite) {
                self.at = start;
                return Err(self.error(SyntaxErrorKind::NumberOutOfRange));
            }
        }
        self.sink.scalar(Tag::Number, flags, start, self.at);
        Ok(())
    }

    /// Steps over digits, eight at a time.
    fn digits(&mut self) {
        const LOW: u64 = 0x0101_0101_0101_0101;
        while let Some(w) = self.bytes.get(self.at..self.at + 8) {
            let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            // A byte is a digit when its high nibble is 3 and adding 6 keeps it so.
            let not_digit = (w & (LOW * 0xF0) ^ (LOW * 0x30))
                | (w.wrapping_add(LOW * 0x06) & (LOW * 0xF0) ^ (LOW * 0x30));
            if not_digit != 0 {
                self.at += not_digit.trailing_zeros() as usize / 8;
                return;
            }
            self.at += 8;
        }
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    /// At least one digit (after `.`, `e`, `e+`, `e-`).
    fn required_digits(&mut self) -> Result<(), SyntaxError> {
        match self.peek() {
            Some(b'0'..=b'9') => {
                self.digits();
                Ok(())
            }
            Some(_) => Err(self.error(SyntaxErrorKind::InvalidNumber)),
            None => Err(self.end()),
        }
    }
}

/// The number `text` (valid JSON) as serde_json holds it: a `u64` when it is written
/// without fraction or exponent and fits, an `i64` when negative and it fits (`-0` is
/// `-0.0`, as serde_json reads it), else the `f64` nearest to it.
pub(super) fn number_value(text: &str, integral: bool) -> serde_json::Number {
    if integral {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text),
        };
        let magnitude = digits.bytes().try_fold(0u64, |n, d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        match magnitude {
            Some(m) if !negative => return m.into(),
            Some(m @ 1..=0x8000_0000_0000_0000) => return (m as i64).wrapping_neg().into(),
            _ => {}
        }
    }
    let f = text.parse::<f64>().unwrap_or(f64::NAN);
    serde_json::Number::from_f64(f).unwrap_or_else(|| 0u64.into())
}

/// Marks the keys of a closed object (`count` of them, the first `first`) that a later
/// key equals as shadowed; returns how many it marked. Up to eight keys are compared
/// pairwise by their tags, from an array on the stack; more, by their hashes, in
/// `scratch`.
pub(super) fn shadow_duplicates<O: ClosedObject>(
    object: &mut O,
    first: u32,
    count: u32,
    scratch: &mut Vec<KeyHash>,
) -> u32 {
    let mut key = first;
    let mut next = |object: &O, i: u32| {
        let at = key;
        if i + 1 < count {
            key = object.next_key(at);
        }
        at
    };
    if count <= 8 {
        let mut few = [(0, 0); 8];
        for (i, slot) in (0..count).zip(&mut few) {
            let at = next(object, i);
            let (start, end, escaped) = object.key_span(at);
            *slot = (key_tag(object.text().as_bytes(), start, end, escaped), at);
        }
        return shadow_pairwise(&few[..count as usize], object);
    }
    scratch.clear();
    scratch.extend((0..count).map(|i| (0, next(object, i))));
    shadow_many(scratch, object)
}

/// [`shadow_duplicates`] for more than eight keys (`scratch`: their handles in document
/// order), by their hashes: each key, from the last, looked up in an open-addressing
/// table of the later ones (kept in `scratch` after the keys), so that the work is one
/// probe or two per key. Keys crafted so that their hashes meet in the table (the hash
/// has no secret seed) make long probe runs: past [`MAX_PROBES`] steps for one key, the
/// keys are sorted by hash instead ([`shadow_sorted`]), O(n log n) whatever the keys; so
/// are fewer or more keys than [`TABLE_KEYS`].
fn shadow_many<O: ClosedObject>(scratch: &mut Vec<KeyHash>, object: &mut O) -> u32 {
    /// A free slot of the table (no key has this handle: a tape holds fewer entries).
    const FREE: KeyHash = (0, u32::MAX);
    let n = scratch.len();
    if !TABLE_KEYS.contains(&n) {
        return shadow_sorted(scratch, object);
    }
    hash_keys(scratch, object);
    let size = (2 * n).next_power_of_two();
    scratch.resize(n + size, FREE);
    let (keys, table) = scratch.split_at_mut(n);
    let mask = size - 1;
    // Each key's verdict replaces its hash once it is placed: 1 when a later key equals it.
    for key in keys.iter_mut().rev() {
        let (hash, at) = *key;
        let mut slot = (hash >> 32) as usize & mask;
        let mut probes = 0;
        let repeated = loop {
            match table[slot] {
                FREE => {
                    table[slot] = (hash, at);
                    break false;
                }
                (h, b) if h == hash && key_text(object, b) == key_text(object, at) => break true,
                _ if probes == MAX_PROBES => {
                    scratch.truncate(n);
                    return shadow_sorted(scratch, object);
                }
                _ => {
                    slot = (slot + 1) & mask;
                    probes += 1;
                }
            }
        };
        key.0 = u64::from(repeated);
    }
    let mut shadowed = 0;
    for &(repeated, at) in &*keys {
        if repeated == 1 {
            object.shadow(at);
            shadowed += 1;
        }
    }
    scratch.truncate(n);
    shadowed
}

/// The most slots a key's lookup in [`shadow_many`]'s table steps over before the keys
/// are sorted instead: a table at most half full has runs this long only when keys are
/// made to meet.
const MAX_PROBES: usize = 32;

/// How many keys [`shadow_many`] finds duplicates among with a table: from 33 (fewer sort
/// faster than a table of 64 slots or more is cleared: objects of 9–16 keys read 1–3%
/// more instructions with the table) to 65,536 (at most 64 bytes per key, 4 MiB; a larger
/// object has its keys sorted, with no memory beyond their list).
const TABLE_KEYS: core::ops::RangeInclusive<usize> = 33..=1 << 16;

/// Sets each of `keys` (their handles) to its key's hash.
fn hash_keys<O: ClosedObject>(keys: &mut [KeyHash], object: &O) {
    let mut scratch = String::new();
    for (hash, at) in keys.iter_mut() {
        let key = key_text(object, *at);
        *hash = match key.as_plain() {
            Some(plain) => hash_bytes(plain.as_bytes()),
            None => {
                scratch.clear();
                scratch.extend(key.chars());
                hash_bytes(scratch.as_bytes())
            }
        };
    }
}

/// [`shadow_many`] by sorting the keys (`keys`: their handles in document order) by
/// their hashes, then each run of equal hashes by the keys themselves.
fn shadow_sorted<O: ClosedObject>(keys: &mut [KeyHash], object: &mut O) -> u32 {
    hash_keys(keys, object);
    // Equal hashes next to each other, in document order among themselves.
    keys.sort_unstable();
    keys.chunk_by_mut(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
        .map(|run| {
            if run.len() <= 8 {
                return shadow_pairwise(run, object);
            }
            // Crafted collisions: sort the run by the keys themselves.
            run.sort_unstable_by(|a, b| {
                key_order(key_text(object, a.1), key_text(object, b.1)).then(a.1.cmp(&b.1))
            });
            let mut shadowed = 0;
            for pair in run.windows(2) {
                if key_text(object, pair[0].1) == key_text(object, pair[1].1) {
                    object.shadow(pair[0].1);
                    shadowed += 1;
                }
            }
            shadowed
        })
        .sum()
}

/// [`shadow_duplicates`] for a few keys (with their tags) or a run of equal hashes: each
/// compared with the later ones whose digest is the same (or may be: tags of keys with
/// escapes).
fn shadow_pairwise<O: ClosedObject>(keys: &[KeyHash], object: &mut O) -> u32 {
    let mut shadowed = 0;
    for (i, &(digest, at)) in keys.iter().enumerate() {
        let repeated = keys[i + 1..].iter().any(|&(d, b)| {
            (d == digest || (d | digest) == ANY_KEY) && key_text(object, b) == key_text(object, at)
        });
        if repeated {
            object.shadow(at);
            shadowed += 1;
        }
    }
    shadowed
}

/// The order of two keys by their characters (for unescaped keys, their bytes: UTF-8
/// orders as code points do).
fn key_order(a: JsonStr<'_>, b: JsonStr<'_>) -> Ordering {
    match (a.as_plain(), b.as_plain()) {
        (Some(a), Some(b)) => a.as_bytes().cmp(b.as_bytes()),
        _ => a.chars().cmp(b.chars()),
    }
}

/// The text of the key `key` of `object`.
fn key_text<O: ClosedObject>(object: &O, key: u32) -> JsonStr<'_> {
    let (start, end, escaped) = object.key_span(key);
    JsonStr::new(&object.text()[start..end], escaped)
}

/// A hash of a key's bytes (word at a time, multiply and rotate).
fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let tail = words
        .remainder()
        .iter()
        .rev()
        .fold(0u64, |t, &b| t << 8 | u64::from(b));
    h = (h.rotate_left(5) ^ tail).wrapping_mul(K);
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;

    /// Sixteen-byte keys whose second word is chosen to cancel the first: every one has
    /// the same hash, as an attacker could make them.
    fn colliding_keys(n: usize) -> Vec<String> {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let start = 16u64.wrapping_mul(K);
        let target = 0x0123_4567_89ab_cdef;
        let printable = |b: &u8| (0x20..0x7f).contains(b) && *b != b'"' && *b != b'\\';
        let mut keys = Vec::new();
        for counter in 0u64.. {
            let mut first = [b'a'; 8];
            let mut rest = counter;
            for byte in &mut first {
                *byte = b'a' + (rest % 26) as u8;
                rest /= 26;
            }
            let h1 = (start.rotate_left(5) ^ u64::from_le_bytes(first)).wrapping_mul(K);
            let second = (h1.rotate_left(5) ^ target).to_le_bytes();
            if second.iter().all(printable) {
                let key = [first, second].concat();
                keys.push(String::from_utf8(key).expect("printable"));
                if keys.len() == n {
                    break;
                }
            }
        }
        keys
    }

    #[test]
    fn crafted_hash_collisions_still_find_the_duplicates() {
        // More keys of one hash than a table lookup may step over: sorted instead.
        let keys = colliding_keys(2 * MAX_PROBES + 20);
        let hash = hash_bytes(keys[0].as_bytes());
        assert!(keys.iter().all(|k| hash_bytes(k.as_bytes()) == hash));
        // Each key once, then the first three again (one of them twice).
        let mut text = String::from("{");
        for (i, key) in keys.iter().enumerate() {
            text.push_str(&format!("\"{key}\": {i}, "));
        }
        for key in [&keys[0], &keys[1], &keys[2], &keys[0]] {
            text.push_str(&format!("\"{key}\": \"again\", "));
        }
        text.push_str("\"last\": null}");
        let doc = Document::read(text.as_bytes()).expect("reads");
        let root = doc.root();
        assert_eq!(root.len(), Some(keys.len() + 1));
        assert_eq!(root.entries().count(), keys.len() + 1);
        for (i, key) in keys.iter().enumerate() {
            let value = root.get(key).expect("every key");
            let again = value.as_str().is_some_and(|s| s.eq_str("again"));
            assert_eq!(again, i < 3, "{key}");
        }
    }
}
