//! Tables of unsigned words held as bytes: what generated code embeds as byte strings
//! (`b"..."`), a few characters per byte, instead of one integer literal per entry.
//!
//! A [`Words`] is `len × width` bytes, each word little-endian, `width` 1, 2, 3 or 4 (the
//! compiler picks the narrowest that holds the table's largest value).

/// A table of little-endian words of 1, 2, 3 or 4 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words<'a> {
    bytes: &'a [u8],
    width: u8,
}

impl<'a> Words<'a> {
    /// Words of `width` bytes (1, 2, 3 or 4; any other width reads as 4) in `bytes`; a
    /// partial word at the end is ignored.
    pub const fn new(bytes: &'a [u8], width: u8) -> Self {
        let width = match width {
            1..=3 => width,
            _ => 4,
        };
        Words { bytes, width }
    }

    /// The bytes.
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Bytes per word.
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Number of words.
    pub const fn len(&self) -> usize {
        self.bytes.len() / self.width as usize
    }

    /// Whether there are no words.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word `i`, if there is one.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<u32> {
        match self.width {
            1 => W1::read(self.bytes, i),
            2 => W2::read(self.bytes, i),
            3 => W3::read(self.bytes, i),
            _ => W4::read(self.bytes, i),
        }
    }
}

/// A word width, for loops specialized to one (the DFA runner).
pub(crate) trait Width {
    /// Word `i` of `bytes`.
    fn read(bytes: &[u8], i: usize) -> Option<u32>;
}

/// One-byte words.
pub(crate) struct W1;
/// Two-byte words.
pub(crate) struct W2;
/// Three-byte words.
pub(crate) struct W3;
/// Four-byte words.
pub(crate) struct W4;

impl Width for W1 {
    #[inline(always)]
    fn read(bytes: &[u8], i: usize) -> Option<u32> {
        bytes.get(i).map(|&b| u32::from(b))
    }
}

impl Width for W2 {
    #[inline(always)]
    fn read(bytes: &[u8], i: usize) -> Option<u32> {
        match bytes.get(2 * i..2 * i + 2) {
            Some(&[a, b]) => Some(u32::from(u16::from_le_bytes([a, b]))),
            _ => None,
        }
    }
}

impl Width for W3 {
    #[inline(always)]
    fn read(bytes: &[u8], i: usize) -> Option<u32> {
        match bytes.get(3 * i..3 * i + 3) {
            Some(&[a, b, c]) => Some(u32::from_le_bytes([a, b, c, 0])),
            _ => None,
        }
    }
}

impl Width for W4 {
    #[inline(always)]
    fn read(bytes: &[u8], i: usize) -> Option<u32> {
        match bytes.get(4 * i..4 * i + 4) {
            Some(&[a, b, c, d]) => Some(u32::from_le_bytes([a, b, c, d])),
            _ => None,
        }
    }
}

/// `words` as little-endian bytes of the narrowest width that holds them all, and that
/// width (for the compiler, which embeds the bytes).
pub fn encode(words: &[u32]) -> (alloc::vec::Vec<u8>, u8) {
    let max = words.iter().copied().max().unwrap_or(0);
    let width: u8 = if max <= 0xFF {
        1
    } else if max <= 0xFFFF {
        2
    } else if max <= 0xFF_FFFF {
        3
    } else {
        4
    };
    let mut out = alloc::vec::Vec::with_capacity(words.len() * width as usize);
    for &w in words {
        out.extend_from_slice(&w.to_le_bytes()[..width as usize]);
    }
    (out, width)
}

#[cfg(test)]
mod tests {
    use super::{encode, Words};

    #[test]
    fn round_trips_at_each_width() {
        for words in [
            &[0u32, 7, 255][..],
            &[1, 256, 65535],
            &[0, 65536, u32::MAX],
            &[],
        ] {
            let (bytes, width) = encode(words);
            let t = Words::new(&bytes, width);
            assert_eq!(t.len(), words.len());
            let back: alloc::vec::Vec<u32> = (0..t.len()).filter_map(|i| t.get(i)).collect();
            assert_eq!(back, words);
            assert_eq!(t.get(words.len()), None);
        }
        assert_eq!(encode(&[300]).1, 2);
        assert_eq!(encode(&[3]).1, 1);
        assert_eq!(encode(&[0x10_FFFF]).1, 3);
        assert_eq!(encode(&[1 << 24]).1, 4);
    }
}
