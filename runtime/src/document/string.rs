//! A JSON string as read: its text between the quotes, escapes kept, unescaped on demand.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

/// A string value or object key: the text between its quotes as written, and whether it
/// holds an escape. For a string without escapes (most) every method works on that text
/// directly; with escapes, they decode as they go, and only [`JsonStr::unescaped`]
/// allocates.
#[derive(Debug, Clone, Copy)]
pub struct JsonStr<'a> {
    raw: &'a str,
    escaped: bool,
}

impl<'a> JsonStr<'a> {
    /// `raw` is the content of a JSON string that the reader accepted (escapes valid,
    /// surrogates paired) when `escaped`, or any text when not.
    #[inline]
    pub(crate) fn new(raw: &'a str, escaped: bool) -> JsonStr<'a> {
        JsonStr { raw, escaped }
    }

    /// A string that holds no escapes: text as it is (a `serde_json::Value`'s string).
    #[inline]
    pub fn plain(text: &'a str) -> JsonStr<'a> {
        JsonStr {
            raw: text,
            escaped: false,
        }
    }

    /// Whether the text as written holds an escape (`\n`, `\u00e9`). Cost: none.
    #[inline]
    pub fn has_escape(self) -> bool {
        self.escaped
    }

    /// The text as written, escapes kept. Cost: none.
    #[inline]
    pub fn raw(self) -> &'a str {
        self.raw
    }

    /// The string itself when it holds no escape, without copying. Cost: none.
    #[inline]
    pub fn as_plain(self) -> Option<&'a str> {
        (!self.escaped).then_some(self.raw)
    }

    /// The string itself: borrowed when it holds no escape, else decoded into a new
    /// `String`. Cost: none, or one pass and an allocation.
    #[inline]
    pub fn unescaped(self) -> Cow<'a, str> {
        match self.as_plain() {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.chars().collect::<String>()),
        }
    }

    /// The characters of the string, escapes decoded. Cost: one step per character.
    pub fn chars(self) -> Chars<'a> {
        Chars { rest: self.raw }
    }

    /// The length in Unicode code points (what `minLength` / `maxLength` count). Cost:
    /// a pass over the text (eight bytes at a time when it holds no escape).
    pub fn code_points(self) -> u64 {
        match self.as_plain() {
            Some(text) => crate::json::code_point_len(text),
            None => self.chars().count() as u64,
        }
    }

    /// Whether the string equals `other`. Cost: a byte comparison when it holds no
    /// escape, else a pass decoding it; nothing is allocated.
    #[inline]
    pub fn eq_str(self, other: &str) -> bool {
        match self.as_plain() {
            Some(text) => text == other,
            None => self.chars().eq(other.chars()),
        }
    }
}

impl PartialEq for JsonStr<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self.as_plain(), other.as_plain()) {
            (Some(a), Some(b)) => a == b,
            _ => self.chars().eq(other.chars()),
        }
    }
}

impl Eq for JsonStr<'_> {}

impl fmt::Display for JsonStr<'_> {
    /// Writes the string itself, escapes decoded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_plain() {
            Some(text) => f.write_str(text),
            None => self.chars().try_for_each(|c| fmt::Write::write_char(f, c)),
        }
    }
}

/// The characters of a [`JsonStr`], escapes decoded.
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    rest: &'a str,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let mut chars = self.rest.chars();
        let c = chars.next()?;
        if c != '\\' {
            self.rest = chars.as_str();
            return Some(c);
        }
        let (c, used) = decode_escape(self.rest.as_bytes());
        self.rest = self.rest.get(used..).unwrap_or("");
        Some(c)
    }
}

/// Decodes the escape at the start of `bytes` (which begins with a backslash): the
/// character and how many bytes it took. The reader checked every escape, so the
/// replacement character is only a fallback that cannot occur.
fn decode_escape(bytes: &[u8]) -> (char, usize) {
    let simple = match bytes.get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => {
            let Some(high) = hex4(bytes.get(2..6)) else {
                return (char::REPLACEMENT_CHARACTER, bytes.len().min(2));
            };
            if let Some(c) = char::from_u32(u32::from(high)) {
                return (c, 6);
            }
            let low = match bytes.get(6..8) {
                Some(b"\\u") => hex4(bytes.get(8..12)),
                _ => None,
            };
            return match low {
                Some(low @ 0xDC00..=0xDFFF) if (0xD800..0xDC00).contains(&high) => {
                    let c =
                        0x1_0000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 12)
                }
                _ => (char::REPLACEMENT_CHARACTER, 6),
            };
        }
        _ => char::REPLACEMENT_CHARACTER,
    };
    (simple, 2)
}

/// The value of four hex digits.
pub(super) fn hex4(digits: Option<&[u8]>) -> Option<u16> {
    let digits = digits?;
    if digits.len() != 4 {
        return None;
    }
    digits.iter().try_fold(0u16, |n, &d| {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        Some(n << 4 | u16::from(v))
    })
}
