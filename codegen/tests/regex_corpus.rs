//! Every pattern in the shared corpora (real-world schemas, benchmark schemas, MCP tool
//! schemas) through the compiler and every executor: what compiles, what is refused and
//! why, and agreement of the Pike VM, the DFA and the fast path on probe strings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemac::regex::{compile, RegexError, RegexOptions};
use serde_json::Value;

fn shared_dir() -> PathBuf {
    match std::env::var("SCHEMAC_SHARED") {
        Ok(p) => PathBuf::from(p),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

fn collect(v: &Value, patterns: &mut BTreeMap<String, ()>, strings: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                match (k.as_str(), v) {
                    ("pattern", Value::String(p)) => {
                        patterns.insert(p.clone(), ());
                    }
                    ("patternProperties", Value::Object(pp)) => {
                        for key in pp.keys() {
                            patterns.insert(key.clone(), ());
                        }
                    }
                    _ => {}
                }
                collect(v, patterns, strings);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, patterns, strings)),
        Value::String(s) if strings.len() < 400 && s.len() < 200 => strings.push(s.clone()),
        _ => {}
    }
}

#[test]
fn corpus_patterns_through_every_engine() {
    let root = shared_dir();
    let mut files = Vec::new();
    for sub in [
        "realworld",
        "bench-corpus",
        "bench-mcp",
        "jsonschema-rs-bench-data",
    ] {
        walk(&root.join(sub), &mut files);
    }
    assert!(
        !files.is_empty(),
        "no corpus under {} (set SCHEMAC_SHARED)",
        root.display()
    );
    let mut patterns = BTreeMap::new();
    let mut strings = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if text.len() > 5_000_000 {
            continue;
        }
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            collect(&v, &mut patterns, &mut strings);
        }
    }
    strings.extend(
        [
            "",
            "a",
            "abc",
            "A1",
            "2024-01-31",
            "foo_bar",
            "x-y.z",
            "ü",
            "\u{1F600}",
            " ",
            "a b",
        ]
        .map(String::from),
    );
    let opts = RegexOptions::default();
    let (mut ok, mut dfa, mut pairs) = (0, 0, 0);
    let mut refused: Vec<String> = Vec::new();
    let mut disagreements = Vec::new();
    for p in patterns.keys() {
        match compile(p, &opts) {
            Ok(re) => {
                ok += 1;
                let rt = re.as_runtime();
                dfa += usize::from(rt.dfa().is_some());
                let mut probes: Vec<&str> = strings.iter().map(String::as_str).collect();
                probes.push(p);
                for s in probes {
                    pairs += 1;
                    let pike = rt.program().is_match(s);
                    let d = rt.dfa().map(|d| d.is_match(s));
                    if rt.is_match(s) != pike || d.is_some_and(|d| d != pike) {
                        disagreements.push(format!("{p:?} on {s:?}"));
                    }
                }
            }
            Err(e) => {
                let kind = match e {
                    RegexError::Invalid { .. } => "invalid",
                    RegexError::Unsupported { .. } => "unsupported",
                    RegexError::TooLarge { .. } => "too large",
                    _ => "refused",
                };
                refused.push(format!("{kind}: {p:?}: {e}"));
            }
        }
    }
    println!(
        "corpus: {} files, {} distinct patterns: {ok} compiled ({dfa} with a DFA), {} refused; \
         {pairs} probe matches, {} engine disagreements",
        files.len(),
        patterns.len(),
        refused.len(),
        disagreements.len()
    );
    for r in &refused {
        println!("  {r}");
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(ok > 0);
}
