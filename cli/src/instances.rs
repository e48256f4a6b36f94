//! Reading instances: a file, standard input (`-`), or one per line (`--jsonl`).

use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// One instance to validate and the name it is reported under.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// `PATH` (`-` for standard input), or `PATH:LINE` under `--jsonl`.
    pub name: String,
    /// The parsed instance.
    pub value: Value,
}

/// The instances in `source`: one (the whole input), or with `jsonl` one per non-empty
/// line. Each element is an instance or an error message naming where (a read failure,
/// or input that is not JSON).
pub fn read(source: &Path, jsonl: bool) -> Vec<Result<Instance, String>> {
    let name = source.display().to_string();
    let text = if source == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map(|_| text)
            .map_err(|e| format!("-: cannot read standard input: {e}"))
    } else {
        std::fs::read_to_string(source).map_err(|e| format!("{name}: cannot read: {e}"))
    };
    let text = match text {
        Ok(text) => text,
        Err(message) => return vec![Err(message)],
    };
    if !jsonl {
        return vec![parse(name, &text)];
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| parse(format!("{name}:{}", n + 1), line))
        .collect()
}

fn parse(name: String, text: &str) -> Result<Instance, String> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(Instance { name, value }),
        Err(e) => Err(format!("{name}: not JSON: {e}")),
    }
}
