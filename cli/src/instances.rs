//! Reading JSON input under limits: a file or standard input (`-`) read whole but never
//! past `--max-input-size`, or (`--jsonl`) streamed one line at a time. Schemas are parsed
//! into a `Value` here ([`read_json`]); instances are kept as bytes ([`Instance`]), which
//! the interpreter reads into a document and validates in place.
//!
//! Every read is bounded: a whole input by the size limit, a `--jsonl` line by the same
//! limit, nesting by [`MAX_NESTING`] (checked by a scan before serde_json, whose own
//! recursion limit of 128 is off), and reading stops at the first byte that cannot start
//! JSON, so `/dev/zero` or a binary file costs one buffer, not the limit.

use schemac::driver::{self, InputError, Source};
use schemac_runtime::error::Escaped;
use serde::Deserialize;
use serde_json::Value;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The default of `--max-input-size`: 64 MiB.
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 64 * 1024 * 1024;

/// How deeply arrays and objects may nest in any input. serde_json parses recursively,
/// so this bounds its stack use: parsing and dropping the deepest input allowed fit in a
/// 2 MiB thread stack (tested), and the CLI works on a thread with [`crate::STACK_SIZE`]
/// bytes of stack.
pub const MAX_NESTING: usize = 2048;

/// One instance to validate and the name it is reported under.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// `PATH` (`-` for standard input), or `PATH:LINE` under `--jsonl`.
    pub name: String,
    /// The instance's text, not parsed yet (its first byte that is not whitespace can
    /// start JSON).
    pub text: Vec<u8>,
}

impl Instance {
    /// The instance parsed as [`parse`] parses (for a caller that needs a `Value`); the
    /// error names the instance.
    pub fn parse(&self) -> Result<Value, String> {
        parse(&self.text).map_err(|e| format!("{}: not JSON: {e}", Escaped(&self.name)))
    }
}

/// Opens `source` (`-`: standard input); the error names it.
fn open(source: &Path) -> Result<Box<dyn Read>, String> {
    if source == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    File::open(source)
        .map(|f| Box::new(f) as Box<dyn Read>)
        .map_err(|e| format!("{}: cannot read: {e}", display(source)))
}

/// How messages name a path: as it is, or as a JSON string when it holds a control
/// character, a quote or a backslash (so that a file name cannot forge a line).
pub fn display(path: &Path) -> String {
    Escaped(&path.display().to_string()).to_string()
}

/// Reads and parses the JSON value in `source` (`-`: standard input) under `max_size`
/// bytes; the error names `source` (and the limit, when that is what was hit).
pub fn read_json(source: &Path, max_size: u64) -> Result<Value, String> {
    read_source(source, max_size).map(|source| source.value)
}

/// [`read_json`], keeping the text too.
fn read_source(source: &Path, max_size: u64) -> Result<Source, String> {
    let text = read_text(source, max_size)?;
    let value =
        parse(text.as_bytes()).map_err(|e| format!("{}: not JSON: {e}", display(source)))?;
    Ok(Source { text, value })
}

/// How the driver reads schema files and `--document`s: as [`read_json`], under
/// `--max-input-size` (the field) and [`MAX_NESTING`].
pub struct Limited(pub u64);

impl driver::Read for Limited {
    fn read(&mut self, path: &Path) -> Result<Source, InputError> {
        read_source(path, self.0).map_err(|message| InputError::Refused {
            path: path.to_path_buf(),
            message,
        })
    }
}

/// Reads `source` whole as UTF-8 text under `max_size` bytes, stopping early when the
/// input cannot be JSON.
pub fn read_text(source: &Path, max_size: u64) -> Result<String, String> {
    let bytes = read_bytes(source, max_size)?;
    let name = display(source);
    String::from_utf8(bytes).map_err(|e| format!("{name}: not JSON: not UTF-8 text: {e}"))
}

/// The instance in `source` (`-`: standard input): its bytes, read whole under
/// `max_size` bytes as [`read_text`] reads them (not checked to be UTF-8: reading the
/// document does that).
pub fn read_instance(source: &Path, max_size: u64) -> Result<Instance, String> {
    let text = read_bytes(source, max_size)?;
    Ok(Instance {
        name: source.display().to_string(),
        text,
    })
}

/// Reads `source` whole under `max_size` bytes, stopping early when the input cannot be
/// JSON.
fn read_bytes(source: &Path, max_size: u64) -> Result<Vec<u8>, String> {
    let name = display(source);
    let reader = open(source)?;
    // A file's size, when it has one, sizes the buffer once (no doubling past it).
    let size = std::fs::metadata(source)
        .map_or(0, |m| m.len())
        .min(max_size);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    let mut limited = reader.take(max_size.saturating_add(1));
    let mut chunk = [0u8; 64 * 1024];
    let mut start = StartCheck::default();
    loop {
        let n = match limited.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{name}: cannot read: {e}")),
        };
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > max_size {
            return Err(format!(
                "{name}: larger than the input size limit of {max_size} bytes \
                 (--max-input-size)"
            ));
        }
        if let Err(e) = start.check(&bytes) {
            return Err(format!("{name}: not JSON: {e}"));
        }
    }
    Ok(bytes)
}

/// Err when the first byte that is not JSON whitespace cannot start a JSON value.
fn check_start(bytes: &[u8]) -> Result<(), String> {
    StartCheck::default().check(bytes)
}

/// [`check_start`] on an input that grows as it is read: the scan goes on from where the
/// last call stopped, so every byte is looked at once however the input arrives (a
/// rescan from the start on each chunk made leading whitespace quadratic).
#[derive(Debug, Default)]
struct StartCheck {
    /// How many bytes have been found to be whitespace.
    scanned: usize,
    /// Whether a byte that is not whitespace (one that can start JSON) has been seen.
    started: bool,
}

impl StartCheck {
    /// Scans the bytes of `bytes` past those scanned before (`bytes` is the input read so
    /// far: what earlier calls were given, and more).
    fn check(&mut self, bytes: &[u8]) -> Result<(), String> {
        if self.started {
            return Ok(());
        }
        let unseen = &bytes[self.scanned.min(bytes.len())..];
        let Some(skipped) = unseen
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        else {
            self.scanned += unseen.len();
            return Ok(());
        };
        let at = self.scanned + skipped;
        self.scanned = at;
        match bytes[at] {
            b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                self.started = true;
                Ok(())
            }
            b => Err(format!(
                "byte 0x{b:02x} at offset {at} cannot start a JSON value"
            )),
        }
    }
}

/// Parses one JSON value: nesting is checked first (no deeper than [`MAX_NESTING`]), then
/// serde_json parses without its recursion limit.
pub fn parse(text: &[u8]) -> Result<Value, String> {
    check_start(text)?;
    check_nesting(text)?;
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de).map_err(|e| e.to_string())?;
    if let Err(e) = de.end() {
        schemac_runtime::json::drop_deep(value);
        return Err(e.to_string());
    }
    Ok(value)
}

/// Err when arrays and objects in `text` nest deeper than [`MAX_NESTING`] (brackets in
/// strings do not count; malformed text is left to the parser).
fn check_nesting(text: &[u8]) -> Result<(), String> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, &b) in text.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "arrays and objects nest deeper than {MAX_NESTING} levels \
                         (at offset {at})"
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The instances of `source` under `--jsonl`: one per non-empty line, read one line at a
/// time (no line longer than `max_size` bytes), each given to `each` as it is read (not
/// parsed: the caller reports a line that is not JSON and goes on). Reading stops at a
/// line that is too long or that cannot start JSON (the rest of the input is not read),
/// given to `each` as an `Err`. Returns
/// `false` when `each` did (nothing more can be reported), else `true`.
pub fn for_each_line(
    source: &Path,
    max_size: u64,
    mut each: impl FnMut(Result<Instance, String>) -> bool,
) -> bool {
    let raw_name = source.display().to_string();
    let name = display(source);
    let reader = match open(source) {
        Ok(reader) => reader,
        Err(message) => return each(Err(message)),
    };
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let stop = match read_line(&mut reader, max_size, &mut line) {
            Ok(Line::End) => return true,
            Ok(Line::Read) => None,
            Ok(Line::TooLong) => Some(format!(
                "line longer than the input size limit of {max_size} bytes (--max-input-size)"
            )),
            Ok(Line::CannotStart(e)) => Some(format!("not JSON: {e}")),
            Err(e) => Some(format!("cannot read: {e}")),
        };
        if let Some(why) = stop {
            return each(Err(format!(
                "{name}:{number}: {why}; the rest of {name} is not read"
            )));
        }
        let content = line.strip_suffix(b"\n").unwrap_or(&line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let instance = Instance {
            name: format!("{raw_name}:{number}"),
            text: content.to_vec(),
        };
        if !each(Ok(instance)) {
            return false;
        }
    }
    true
}

/// How reading one line ended.
enum Line {
    /// No more input.
    End,
    /// A line (with its `\n`, unless it is the last) is in the buffer.
    Read,
    /// The line is longer than the limit (what was read of it is in the buffer).
    TooLong,
    /// The line's first byte that is not whitespace cannot start JSON.
    CannotStart(String),
}

/// Reads one line into `line`, checking as bytes arrive: it stops as soon as the line is
/// over `max_size` bytes (not counting its line end) or its first byte that is not
/// whitespace cannot start JSON, so that no line costs more than the limit and `/dev/zero`
/// costs one buffer.
fn read_line(reader: &mut impl BufRead, max_size: u64, line: &mut Vec<u8>) -> io::Result<Line> {
    let mut start = StartCheck::default();
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read
            });
        }
        let (used, complete) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        line.extend_from_slice(&available[..used]);
        reader.consume(used);
        if let Err(e) = start.check(line) {
            return Ok(Line::CannotStart(e));
        }
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.len() as u64 > max_size {
            return Ok(Line::TooLong);
        }
        if complete {
            return Ok(Line::Read);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings() {
        let deep = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
        assert!(check_nesting(deep.as_bytes()).is_ok());
        let deeper = format!("[{deep}]");
        assert!(check_nesting(deeper.as_bytes())
            .unwrap_err()
            .contains("deeper than 2048"));
        let quoted = format!("[\"{}\\\"{}\"]", "[".repeat(20_000), "{".repeat(20_000));
        assert!(check_nesting(quoted.as_bytes()).is_ok());
    }

    #[test]
    fn deep_values_parse_and_drop_on_a_2_mib_stack() {
        // The deepest input allowed, on a 2 MiB thread.
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| {
                let text = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
                let value = parse(text.as_bytes()).expect("parses");
                schemac_runtime::json::drop_deep(value);
                let text = format!(
                    "{}1{}",
                    "{\"a\":".repeat(MAX_NESTING),
                    "}".repeat(MAX_NESTING)
                );
                let value = parse(text.as_bytes()).expect("parses");
                schemac_runtime::json::drop_deep(value);
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
    }

    #[test]
    fn the_first_byte_decides_whether_input_can_be_json() {
        assert!(check_start(b"  \n{").is_ok());
        assert!(check_start(b"").is_ok());
        assert!(check_start(b" \0")
            .unwrap_err()
            .contains("byte 0x00 at offset 1"));
        assert!(check_start(b"\xef\xbb\xbf{").is_err());
    }

    #[test]
    fn leading_whitespace_is_scanned_once_however_the_input_arrives() {
        // 16 MiB of spaces arriving 64 KiB at a time, as `read_text` and `read_line` read.
        const CHUNK: usize = 64 * 1024;
        let mut start = StartCheck::default();
        let mut input = Vec::new();
        for _ in 0..256 {
            input.extend_from_slice(&[b' '; CHUNK]);
            assert!(start.check(&input).is_ok());
            assert_eq!(start.scanned, input.len());
            // Bytes already scanned are never looked at again: were they rescanned, this
            // one would be refused.
            input[start.scanned - 1] = 0;
        }
        input.push(b'1');
        assert!(start.check(&input).is_ok());
        assert!(start.started);
        // Once started, later bytes are the parser's business.
        input.push(0);
        assert!(start.check(&input).is_ok());

        let mut start = StartCheck::default();
        assert!(start.check(b"  ").is_ok());
        assert!(start
            .check(b"  \t\0")
            .unwrap_err()
            .contains("byte 0x00 at offset 3"));
    }
}
