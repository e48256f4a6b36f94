//! Content assertions (draft-07 `contentEncoding` / `contentMediaType`, when the compiler's
//! `assert_content` option is on): base64 (RFC 4648 §4, padded) and `application/json`.

use alloc::vec::Vec;

/// The value of a base64 alphabet byte, if it is one.
fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes base64 (RFC 4648 §4: the standard alphabet, padded to a multiple of four
/// characters); `None` when `text` is not base64.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let quads = bytes.len() / 4;
    for (i, quad) in bytes.chunks_exact(4).enumerate() {
        let last = i + 1 == quads;
        let pad = match (quad[2], quad[3]) {
            (b'=', b'=') if last => 2,
            (_, b'=') if last => 1,
            _ => 0,
        };
        let mut acc: u32 = 0;
        for &b in &quad[..4 - pad] {
            acc = (acc << 6) | u32::from(sextet(b)?);
        }
        acc <<= 6 * pad as u32;
        let decoded = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&decoded[..3 - pad]);
    }
    Some(out)
}

/// Whether `text` is base64 (see [`decode_base64`]).
pub fn is_base64(text: &str) -> bool {
    decode_base64(text).is_some()
}

/// Whether `bytes` are one JSON text (RFC 8259). serde_json's recursion limit bounds the
/// parse's depth.
pub fn is_json_bytes(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
}

/// Whether `text` is a JSON document (`contentMediaType: application/json`). With
/// `base64`, `text` is decoded first; a string that does not decode passes here, since
/// `contentEncoding` reports it.
pub fn is_json(text: &str, base64: bool) -> bool {
    if !base64 {
        return is_json_bytes(text.as_bytes());
    }
    match decode_base64(text) {
        Some(bytes) => is_json_bytes(&bytes),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64() {
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("Zm9v").unwrap(), b"foo");
        assert_eq!(decode_base64("Zm9vYg==").unwrap(), b"foob");
        assert_eq!(decode_base64("Zm9vYmE=").unwrap(), b"fooba");
        assert_eq!(
            decode_base64("eyJmb28iOiAiYmFyIn0K").unwrap(),
            b"{\"foo\": \"bar\"}\n"
        );
        for bad in ["Zm9", "Zm9v%", "Zg=a", "Z===", "Zg==Zm9v", "Zm 9v"] {
            assert!(!is_base64(bad), "{bad}");
        }
    }

    #[test]
    fn json() {
        assert!(is_json("{\"a\": [1, 2]}", false));
        assert!(!is_json("{:}", false));
        assert!(is_json("eyJmb28iOiAiYmFyIn0K", true));
        assert!(!is_json("ezp9Cg==", true));
        // Not base64: reported by `contentEncoding`, passes here.
        assert!(is_json("{}", true));
    }
}
