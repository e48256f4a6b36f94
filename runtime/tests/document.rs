//! The byte reader ([`Document::read`]) against serde_json: the same accept/reject, and
//! for accepted input the same value (compared as serialized text, so that `1` and `1.0`,
//! `0.0` and `-0.0` differ), read both through [`Document::to_value`] and through the
//! [`Instance`] trait (the same walk over `&Value` and over the document) — and the same
//! for the compact form ([`compact::Document`], the same errors as the tape's).
//!
//! Inputs: every `.json` file and every `.jsonl` line of the shared data folder (the test
//! suite, whose instances are also read one by one, the benchmark corpora, `realworld/`),
//! every truncation and many one-byte changes of a set of small documents, and a list of
//! malformed inputs. serde_json here has `float_roundtrip` (a dev-dependency feature), as
//! the CLI's does: the rounding the reader matches.

use schemac_runtime::document::{compact, Document, SyntaxErrorKind};
use schemac_runtime::instance::{Instance, Kind, ObjectView, Shape};
use serde_json::{Map, Number, Value};
use std::path::{Path, PathBuf};

/// serde_json's default recursion limit accepts this many levels of nesting.
const SERDE_NESTING: usize = 127;

/// The shared data folder: `SCHEMAC_SHARED`, else `shared` beside the workspace root.
fn shared() -> PathBuf {
    let shared = match std::env::var_os("SCHEMAC_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    assert!(
        shared.is_dir(),
        "the shared folder is missing: {}",
        shared.display()
    );
    shared
}

/// A value rebuilt through the [`Instance`] trait alone, checking on the way that the
/// lengths agree with the items and entries.
fn rebuilt<'a, I: Instance<'a>>(value: I) -> Value {
    match value.kind() {
        Kind::Null => Value::Null,
        Kind::Bool => Value::Bool(value.as_bool().expect("a boolean")),
        Kind::Number => {
            let n = value.as_number().expect("a number");
            assert_eq!(value.as_u64(), n.as_u64());
            assert_eq!(value.as_i64(), n.as_i64());
            assert_eq!(value.as_f64(), n.as_f64());
            Value::Number(n)
        }
        Kind::String => {
            let s = value.as_str().expect("a string");
            let text = s.unescaped().into_owned();
            assert!(s.eq_str(&text));
            assert_eq!(s.code_points(), text.chars().count() as u64);
            Value::String(text)
        }
        Kind::Array => {
            let items: Vec<Value> = value.items().map(rebuilt).collect();
            assert_eq!(value.len(), Some(items.len()));
            if let Some(last) = items.len().checked_sub(1) {
                assert!(same_shallow(
                    value.item(last).expect("the last item"),
                    &items[last]
                ));
            }
            Value::Array(items)
        }
        Kind::Object => {
            let mut map = Map::new();
            for (key, item) in value.entries() {
                let key = key.unescaped().into_owned();
                let item = rebuilt(item);
                let got = value.get(&key).expect("get finds every key of entries()");
                assert!(same_shallow(got, &item), "get({key:?})");
                assert!(map.insert(key, item).is_none(), "a key twice in entries()");
            }
            assert_eq!(value.len(), Some(map.len()));
            Value::Object(map)
        }
    }
}

/// Whether `value` is `expected` at its top level: a scalar equal, an array or object of
/// the same length (rebuilding it would make the walk exponential in the nesting).
fn same_shallow<'a, I: Instance<'a>>(value: I, expected: &Value) -> bool {
    match value.kind() {
        Kind::Array | Kind::Object => {
            Instance::kind(expected) == value.kind() && value.len() == Instance::len(expected)
        }
        _ => rebuilt(value) == *expected,
    }
}

/// Reads `input` both ways under `nesting` (the reader's limit; serde_json's default one
/// when it is [`SERDE_NESTING`], else serde_json on a value that nests less); panics when
/// they disagree. Returns whether it was accepted.
fn agree(input: &[u8]) -> bool {
    let ours = Document::read_nested(input, SERDE_NESTING);
    let theirs = serde_json::from_slice::<Value>(input);
    // The compact form reads with the same reader: the same verdict, the same error.
    let compact = compact::Document::read_nested(input, SERDE_NESTING);
    assert_eq!(
        compact.as_ref().err(),
        ours.as_ref().err(),
        "compact and tape errors on {:?}",
        String::from_utf8_lossy(input)
    );
    let shown = || {
        String::from_utf8_lossy(input)
            .chars()
            .take(300)
            .collect::<String>()
    };
    match (&ours, &theirs) {
        (Ok(doc), Ok(value)) => {
            let expected = value.to_string();
            assert_eq!(
                doc.to_value().to_string(),
                expected,
                "to_value of {:?}",
                shown()
            );
            assert_eq!(
                rebuilt(doc.root()).to_string(),
                expected,
                "rebuilt from {:?}",
                shown()
            );
            assert_eq!(
                rebuilt(value).to_string(),
                expected,
                "rebuilt &Value {:?}",
                shown()
            );
            let compact = compact.expect("the tape read it");
            assert_eq!(
                compact.to_value().to_string(),
                expected,
                "compact to_value of {:?}",
                shown()
            );
            assert_eq!(
                rebuilt(compact.root()).to_string(),
                expected,
                "rebuilt from compact {:?}",
                shown()
            );
            true
        }
        (Err(e), Err(_)) => {
            assert!(e.offset <= input.len(), "{e} past the end of {:?}", shown());
            false
        }
        (Ok(_), Err(e)) => panic!("accepted {:?}, which serde_json refuses: {e}", shown()),
        (Err(e), Ok(_)) => panic!("refused {:?} ({e}), which serde_json accepts", shown()),
    }
}

/// Every file under `dir` (recursively) with the extension `ext`, sorted.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn every_shared_file_line_and_suite_instance_reads_as_serde_json_reads_it() {
    let shared = shared();
    let (mut json, mut jsonl) = (Vec::new(), Vec::new());
    files(&shared, "json", &mut json);
    files(&shared, "jsonl", &mut jsonl);
    let (mut inputs, mut accepted, mut instances) = (0, 0, 0);
    for path in &json {
        let bytes = std::fs::read(path).expect("readable");
        inputs += 1;
        accepted += usize::from(agree(&bytes));
        // The suite's instances, one by one, compact and pretty.
        let Ok(Value::Array(groups)) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        for test in groups
            .iter()
            .filter_map(|g| g.get("tests")?.as_array())
            .flatten()
        {
            if let Some(data) = test.get("data") {
                for text in [
                    data.to_string(),
                    serde_json::to_string_pretty(data).expect("text"),
                ] {
                    assert!(agree(text.as_bytes()));
                    instances += 1;
                }
            }
        }
    }
    let mut lines = 0;
    for path in &jsonl {
        let text = std::fs::read(path).expect("readable");
        for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            assert!(agree(line), "{}: a line refused", path.display());
            lines += 1;
        }
    }
    println!("{inputs} files ({accepted} accepted), {lines} lines, {instances} suite instances");
    // Enough of each that a missing folder cannot pass unnoticed.
    assert!(
        json.len() > 1_500 && accepted == inputs,
        "{inputs} files, {accepted} accepted"
    );
    assert!(lines > 1_000, "{lines} lines");
    assert!(instances > 10_000, "{instances} suite instances");
}

/// Small documents that between them hold every kind of token.
const SEEDS: &[&str] = &[
    r#"{"a": [1, -2.5e3, 0, -0, 1E+2, 3.25E-2], "b": {"c": null, "d": true, "e": false}}"#,
    r#"["plain", "esc\"aped\\ \/ \b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é中😀"]"#,
    r#"{"k\u0061y": "x", "key": "y", "": {}, "z": []}"#,
    "[18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809]",
    "[1.7976931348623157e308, 2.2250738585072014e-308, 5e-324, 123456789012345678901234567890]",
    " \t\r\n[ \n{ \"a\" : [ ] , \"b\" : { } } ] \n",
    "\"\\uD834\\uDD1E\"",
];

/// Bytes that a one-byte change puts in: structure, string and number syntax, controls,
/// and bytes that break UTF-8.
const CHANGES: &[u8] = &[
    0x00, 0x09, 0x1f, b' ', b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'1', b'-',
    b'+', b'.', b'e', b'u', b'D', b'n', b'/', 0x7f, 0x80, 0xbf, 0xc3, 0xed, 0xf4, 0xff,
];

#[test]
fn truncations_and_one_byte_changes_agree_with_serde_json() {
    let (mut inputs, mut accepted) = (0, 0);
    for seed in SEEDS {
        let seed = seed.as_bytes();
        for end in 0..=seed.len() {
            inputs += 1;
            accepted += usize::from(agree(&seed[..end]));
        }
        for at in 0..seed.len() {
            for &b in CHANGES {
                let mut changed = seed.to_vec();
                changed[at] = b;
                inputs += 1;
                accepted += usize::from(agree(&changed));
                changed.insert(at, b);
                inputs += 1;
                accepted += usize::from(agree(&changed));
            }
            let mut removed = seed.to_vec();
            removed.remove(at);
            inputs += 1;
            accepted += usize::from(agree(&removed));
        }
    }
    println!("{inputs} inputs, {accepted} accepted");
    // Both outcomes are well represented.
    assert!(inputs > 25_000 && accepted > 3_000 && inputs - accepted > 10_000);
}

#[test]
fn malformed_inputs_are_refused_as_serde_json_refuses_them() {
    let refused: &[&[u8]] = &[
        b"",
        b"   ",
        b"\xef\xbb\xbf{}",
        b"{} x",
        b"[1,]",
        b"{\"a\":1,}",
        b"{,}",
        b"[,1]",
        b"{\"a\" 1}",
        b"{1:2}",
        b"{'a':1}",
        b"[01]",
        b"[-]",
        b"[-01]",
        b"[1.]",
        b"[.5]",
        b"[1e]",
        b"[1e+]",
        b"[+1]",
        b"[1.5e3.2]",
        b"[0x10]",
        b"[NaN]",
        b"[Infinity]",
        b"[1e309]",
        b"[-1e309]",
        b"[1.8e308]",
        b"[1797693134862315807937289714053034150799341327710892",
        b"[\"\\x41\"]",
        b"[\"\\u12\"]",
        b"[\"\\u12G4\"]",
        b"[\"\\uD800\"]",
        b"[\"\\uDC00\"]",
        b"[\"\\uD800\\u0041\"]",
        b"[\"\\uD800\\uD800\"]",
        b"[\"\\uD800x\"]",
        b"[\"\\uD800\\n\"]",
        b"[\"a\x00b\"]",
        b"[\"a\x1fb\"]",
        b"[\"a\nb\"]",
        b"[\"\xff\"]",
        b"[\"\xc3\"]",
        b"[\"\xc0\xaf\"]",
        b"[\"\xed\xa0\x80\"]",
        b"[\"\xf4\x90\x80\x80\"]",
        b"\"abc",
        b"\"abc\\",
        b"\"\\u00",
        b"[tru]",
        b"[truth]",
        b"[nul",
        b"[True]",
        b"[null]]",
        b"{\"a\":1}}",
        b"1 2",
        b"\x00",
        b"[1]\x00",
        b"[\xc3\xa9]",
    ];
    for input in refused {
        assert!(
            !agree(input),
            "accepted {:?}",
            String::from_utf8_lossy(input)
        );
    }
    let accepted: &[&[u8]] = &[
        b"[1e308, 1.7976931348623157e308, -1.7976931348623158e308, 1e-400, 0e99999999999]",
        b"[1797693134862315708145274237317043567980705675258449965989174768031572607800285387605895586327668781715404589535143824642343213268894641827684675467035375169860499105765512820762454900903893289440758685541403617.8]",
        b"[0.0000000000000000000000000000000000000001e-300, -0.0, -0, 0e-0]",
        b"\"\\/\\u0000\\u001f\\u007f\\uffff\\uDBFF\\uDFFF\"",
        b"\"\x7f\xc2\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"",
        b"{\"\":\"\"}",
        b"\r\n\t 0 \r\n\t",
    ];
    for input in accepted {
        assert!(agree(input), "refused {:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn nesting_is_bounded_as_serde_json_bounds_it() {
    for depth in [
        1,
        SERDE_NESTING - 1,
        SERDE_NESTING,
        SERDE_NESTING + 1,
        1_000,
    ] {
        let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        for text in [arrays, objects] {
            assert_eq!(
                agree(text.as_bytes()),
                depth <= SERDE_NESTING,
                "depth {depth}"
            );
        }
    }
    // Under the default limit, deep nesting reads without recursion.
    let deep = format!("{}{}", "[".repeat(2048), "]".repeat(2048));
    assert!(Document::read(deep.as_bytes()).is_ok());
    let deeper = format!("[{deep}]");
    let error = Document::read(deeper.as_bytes()).unwrap_err();
    assert_eq!(error.kind, SyntaxErrorKind::TooDeep { limit: 2048 });
    assert_eq!(error.offset, 2048);
}

#[test]
fn errors_name_the_byte_where_reading_stopped() {
    let cases: &[(&[u8], usize, SyntaxErrorKind)] = &[
        (b"", 0, SyntaxErrorKind::UnexpectedEnd),
        (b"[1, 2", 5, SyntaxErrorKind::UnexpectedEnd),
        (b"[1 2]", 3, SyntaxErrorKind::Expected("`,` or `]`")),
        (
            b"{\"a\":1 \"b\"}",
            7,
            SyntaxErrorKind::Expected("`,` or `}`"),
        ),
        (
            b"{\"a\" 1}",
            5,
            SyntaxErrorKind::Expected("`:` after a key"),
        ),
        (b"{1}", 1, SyntaxErrorKind::Expected("a key (a string)")),
        (b"[01]", 2, SyntaxErrorKind::InvalidNumber),
        (b"[1, 1e999]", 4, SyntaxErrorKind::NumberOutOfRange),
        (b"[\"a\\qb\"]", 4, SyntaxErrorKind::InvalidEscape),
        (b"[\"\\uDC00\"]", 8, SyntaxErrorKind::LoneSurrogate),
        (b"[\"a\tb\"]", 3, SyntaxErrorKind::ControlCharacter),
        (b"[\"ab\xff\"]", 4, SyntaxErrorKind::InvalidUtf8),
        (b"[1] [", 4, SyntaxErrorKind::TrailingCharacters),
        (b"\xef\xbb\xbf[]", 0, SyntaxErrorKind::Expected("a value")),
        // A syntax error before the first byte that is not UTF-8 is the one reported.
        (b"[1 \"\xff\"]", 3, SyntaxErrorKind::Expected("`,` or `]`")),
    ];
    for &(input, offset, kind) in cases {
        let error = Document::read(input).unwrap_err();
        assert_eq!(
            (error.offset, error.kind),
            (offset, kind),
            "{input:?}: {error}"
        );
        assert!(error.to_string().ends_with(&format!(" at byte {offset}")));
    }
}

#[test]
fn duplicate_keys_keep_the_last_as_serde_json_does() {
    // Small objects (compared pairwise) and large ones (sorted by hash), with escapes.
    let small = br#"{"a": 1, "\u0061": 2, "b": 3, "a": {"a": 4, "a": 5}}"#;
    let doc = Document::read(small).expect("reads");
    let root = doc.root();
    assert_eq!(root.len(), Some(2));
    let keys: Vec<String> = root.entries().map(|(k, _)| k.to_string()).collect();
    assert_eq!(keys, ["b", "a"]);
    let inner = root.get("a").expect("a");
    assert_eq!(inner.len(), Some(1));
    assert_eq!(inner.get("a").and_then(Instance::as_u64), Some(5));
    assert!(agree(small));
    // Keys after arrays and objects (stepped over to find the keys of the object).
    let nested = br#"{"a": [1, {"a": 2}], "c": {"d": [], "c": 0}, "a": 3, "e": []}"#;
    let doc = Document::read(nested).expect("reads");
    assert_eq!(doc.root().len(), Some(3));
    assert_eq!(doc.root().get("a").and_then(Instance::as_u64), Some(3));
    assert!(agree(nested));
    // The only repeat written with an escape (an object of a few keys, then of many).
    for n in [2, 30] {
        let mut text = String::from("{");
        for i in 0..n - 1 {
            text.push_str(&format!("\"k{i}\": {i}, "));
        }
        text.push_str("\"k\\u0030\": \"again\"}");
        let doc = Document::read(text.as_bytes()).expect("reads");
        assert_eq!(doc.root().len(), Some(n - 1), "{text}");
        let k0 = doc.root().get("k0").and_then(Instance::as_str);
        assert_eq!(k0.map(|s| s.to_string()), Some("again".into()), "{text}");
        assert!(agree(text.as_bytes()));
    }
    let mut large = String::from("{");
    for i in 0..40 {
        large.push_str(&format!("\"k{}\": {i}, ", i % 13));
    }
    large.push_str("\"k\\u0031\": \"last\"}");
    let doc = Document::read(large.as_bytes()).expect("reads");
    assert_eq!(doc.root().len(), Some(13));
    assert_eq!(
        doc.root()
            .get("k1")
            .and_then(Instance::as_str)
            .map(|s| s.to_string()),
        Some("last".into())
    );
    assert_eq!(doc.root().get("k0").and_then(Instance::as_u64), Some(39));
    assert!(agree(large.as_bytes()));
}

#[test]
fn a_key_is_found_at_its_place_among_the_entries() {
    // 1,000 keys (values of several kinds, to be stepped over), every seventh repeated
    // later (the last wins), one repeat written with an escape: both forms find each key
    // where their entries have it, with the value serde_json keeps.
    let mut text = String::from("{");
    for i in 0..1000 {
        text.push_str(&format!("\"k{i}\": [{i}, {{\"k{i}\": 0}}], "));
    }
    for i in (0..1000).step_by(7) {
        text.push_str(&format!("\"k{i}\": \"again\", "));
    }
    text.push_str("\"k\\u0031\": \"escaped\"}");
    assert!(agree(text.as_bytes()));
    let value: Value = serde_json::from_str(&text).expect("serde_json reads it");
    let tape = Document::read(text.as_bytes()).expect("reads");
    let small = compact::Document::read(text.as_bytes()).expect("reads");
    fn places<'a, I: Instance<'a>>(root: I, value: &Value) -> usize {
        let Shape::Object(object) = root.shape() else {
            panic!("an object")
        };
        let keys: Vec<String> = object.entries().map(|(k, _)| k.to_string()).collect();
        for (place, key) in keys.iter().enumerate() {
            let (found, at) = object.position(key).expect("every key");
            assert_eq!(found, place, "{key}");
            assert_eq!(at.to_value().into_owned(), value[key], "{key}");
        }
        assert!(object.position("k1000").is_none());
        assert!(object.position("k").is_none());
        keys.len()
    }
    assert_eq!(places(tape.root(), &value), 1000);
    assert_eq!(places(small.root(), &value), 1000);
    let k1 = tape.root().get("k1").and_then(Instance::as_str);
    assert_eq!(k1.map(|s| s.to_string()), Some("escaped".into()));
    let k7 = tape.root().get("k7").and_then(Instance::as_str);
    assert_eq!(k7.map(|s| s.to_string()), Some("again".into()));
}

#[test]
fn numbers_keep_their_text_and_read_as_serde_json_holds_them() {
    let doc = Document::read(b"[-0, 1.50, 100000000000000000000, 9007199254740993, -7, 2e0]")
        .expect("reads");
    let items: Vec<_> = doc.root().items().collect();
    let texts: Vec<_> = items
        .iter()
        .map(|n| n.number_text().expect("a number"))
        .collect();
    assert_eq!(
        texts,
        [
            "-0",
            "1.50",
            "100000000000000000000",
            "9007199254740993",
            "-7",
            "2e0"
        ]
    );
    let integral: Vec<_> = items.iter().map(|n| n.is_integral_text()).collect();
    assert_eq!(integral, [true, false, true, true, true, false]);
    assert_eq!(items[0].as_f64().map(f64::is_sign_negative), Some(true));
    assert_eq!(items[0].as_i64(), None);
    assert_eq!(items[3].as_u64(), Some(9_007_199_254_740_993));
    assert_eq!(items[4].as_i64(), Some(-7));
    assert_eq!(items[5].as_number(), Number::from_f64(2.0));
    let value: Value = serde_json::json!([1]);
    assert_eq!((&value).number_text(), None);
}

#[test]
fn compact_containers_too_large_for_their_entry_are_read_whole() {
    // An array of 70,000 items (a length over 16 bits), one of 70,000 arrays (a subtree
    // over 16 bits), an object of 70,000 keys with a duplicate, then values after them:
    // stepping over a large container must land where the next value starts.
    let n = 70_000;
    let numbers: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let arrays = vec!["[1]"; n].join(",");
    let mut keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
    keys.push("\"k7\": \"last\"".into());
    let text = format!(
        "[[{}], [{arrays}], {{{}}}, [\"after\", {{\"x\": [true]}}], null]",
        numbers.join(", "),
        keys.join(",\n ")
    );
    let doc = compact::Document::read(text.as_bytes()).expect("reads");
    let value: Value = serde_json::from_str(&text).expect("serde_json reads it");
    assert_eq!(doc.to_value(), value);
    let items: Vec<_> = doc.root().items().collect();
    assert_eq!(items.len(), 5);
    assert_eq!(items[0].len(), Some(n));
    assert_eq!(items[1].len(), Some(n));
    assert_eq!(items[2].len(), Some(n));
    assert_eq!(items[2].entries().count(), n);
    assert_eq!(doc.containers(), 1 + 1 + 1 + n + 1 + 1 + 1 + 1);
    let last = items[2].get("k7").and_then(Instance::as_str);
    assert_eq!(last.map(|s| s.to_string()), Some("last".into()));
    let k = items[2].get("k69999").and_then(Instance::as_u64);
    assert_eq!(k, Some(69_999));
    let after = items[3].item(1).and_then(|o| o.get("x")).expect("x");
    assert_eq!(after.item(0).and_then(Instance::as_bool), Some(true));
    assert_eq!(items[4].kind(), Kind::Null);
}
