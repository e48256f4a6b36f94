//! Prints the size of the generated code as Markdown tables: lines and bytes per schema,
//! with `validate` on (the default) and off (`Builder::validate(false)`, the CLI's
//! `--check-only`), and the totals.
//!
//! ```text
//! cargo run --release -p schemac-benches --bin sizes [corpus] [realworld]
//! ```
//!
//! - `corpus`: every schema of the benchmark (`src/catalog.rs`), each compiled alone with
//!   the meta-schemas registered, as `build.rs` does;
//! - `realworld`: the draft-07 SchemaStore schemas of the real-world corpus
//!   (`<shared>/realworld/cases/ss-*` whose text declares draft-07, as
//!   `build-support/tests/realworld.rs` selects them), each compiled alone with draft-07
//!   as the default dialect, then all together in one builder (as that test does).
//!
//! Without an argument, both. A schema that schemac refuses is listed as refused and left
//! out of the totals. Under each table, a breakdown read from the generated text: the
//! leading indentation, the `///` lines, the node functions of the verdict path (`fn c<N>`)
//! and of the error path (`fn e<N>`), and how many of those repeat another one (what
//! sharing could still remove; error-path functions compared without their error
//! locations).

use schemac_benches::{catalog, paths};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One generated source's figures, with a rough breakdown read from its text.
#[derive(Debug, Clone, Copy, Default)]
struct Size {
    lines: usize,
    bytes: usize,
    /// Bytes of leading indentation (prettyplease's four spaces a level).
    indent: usize,
    /// Bytes of `///` lines.
    doc: usize,
    /// Node functions of the verdict path (`fn c<N>`) and their bytes.
    check_fns: usize,
    check_bytes: usize,
    /// Node functions of the error path (`fn e<N>`, `validate` only) and their bytes.
    error_fns: usize,
    error_bytes: usize,
    /// `cx.fail(` and `cx.error(` calls: the error sites.
    error_sites: usize,
    /// Node functions that repeat another one (callees compared by what they do), and
    /// their bytes: sharing could remove them.
    check_copies: usize,
    check_copy_bytes: usize,
    /// The same for error-path functions, their error locations (the absolute URIs of
    /// their error sites) left out of the comparison.
    error_copies: usize,
    error_copy_bytes: usize,
}

impl Size {
    fn add(&mut self, other: &Size) {
        self.lines += other.lines;
        self.bytes += other.bytes;
        self.indent += other.indent;
        self.doc += other.doc;
        self.check_fns += other.check_fns;
        self.check_bytes += other.check_bytes;
        self.error_fns += other.error_fns;
        self.error_bytes += other.error_bytes;
        self.error_sites += other.error_sites;
        self.check_copies += other.check_copies;
        self.check_copy_bytes += other.check_copy_bytes;
        self.error_copies += other.error_copies;
        self.error_copy_bytes += other.error_copy_bytes;
    }
}

/// One schema's figures with `validate` on and off, or the error.
type Sizes = Result<[Size; 2], String>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for arg in &args {
        if arg != "corpus" && arg != "realworld" {
            eprintln!("usage: sizes [corpus] [realworld]");
            std::process::exit(2);
        }
    }
    let wants = |set: &str| args.is_empty() || args.iter().any(|a| a == set);
    let shared = match paths::shared_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("sizes: {e}");
            std::process::exit(1);
        }
    };
    if wants("corpus") {
        corpus(&shared);
    }
    if wants("realworld") {
        realworld(&shared);
    }
}

fn corpus_builder(shared: &Path) -> schemac_build::Builder {
    let mut builder = schemac_build::Builder::new();
    for (uri, path) in catalog::METASCHEMAS {
        builder.document(uri, shared.join(path));
    }
    builder
}

fn realworld_builder() -> schemac_build::Builder {
    let mut builder = schemac_build::Builder::new();
    builder.default_dialect(schemac::Dialect::Draft7);
    builder
}

/// Which node function a line of generated code belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Within {
    Other,
    Check,
    Error,
}

fn measure(code: &str) -> Size {
    let mut size = Size {
        bytes: code.len(),
        ..Size::default()
    };
    // A node function is `    fn c<N><'a, V: …>(` or `    fn e<N>…(` (with its `///` and
    // attribute lines before it) up to its closing `    }`, at the module's indentation.
    let node = |line: &str, prefix: &str| {
        line.strip_prefix(prefix).is_some_and(|rest| {
            rest.split(['(', '<'])
                .next()
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let mut within = Within::Other;
    let mut pending = 0;
    // Each node function: whether it is on the error path, its bytes, its text from `fn`,
    // and the number of the module it is in.
    let mut nodes: Vec<Node> = Vec::new();
    let mut module = 0;
    for line in code.lines() {
        if line.starts_with("pub mod ") {
            module += 1;
        }
        let bytes = line.len() + 1;
        size.lines += 1;
        size.indent += line.len() - line.trim_start_matches(' ').len();
        let trimmed = line.trim_start();
        if trimmed.starts_with("///") {
            size.doc += bytes;
        }
        // A call of an error site of the `FAULTS` table, or of one whose error is built
        // there (`oneOf`'s count), on one line or broken over several.
        size.error_sites +=
            trimmed.matches("cx.fail(").count() + trimmed.matches("cx.error(").count();
        if within == Within::Other {
            if node(line, "    fn c") {
                within = Within::Check;
                size.check_fns += 1;
                size.check_bytes += pending;
            } else if node(line, "    fn e") {
                within = Within::Error;
                size.error_fns += 1;
                size.error_bytes += pending;
            }
            if within != Within::Other {
                nodes.push(Node {
                    error: within == Within::Error,
                    bytes: pending,
                    text: String::new(),
                    module,
                });
            } else if line.starts_with("    ///") || line.starts_with("    #[") {
                pending += bytes;
                continue;
            }
            pending = 0;
        }
        match within {
            Within::Check => size.check_bytes += bytes,
            Within::Error => size.error_bytes += bytes,
            Within::Other => {}
        }
        if let (Some(node), false) = (nodes.last_mut(), within == Within::Other) {
            node.bytes += bytes;
            node.text.push_str(line);
            node.text.push('\n');
        }
        if line == "    }" {
            within = Within::Other;
        }
    }
    copies(&nodes, &mut size);
    size
}

/// A node function of the generated code.
struct Node {
    /// On the error path (`fn e<N>`).
    error: bool,
    /// Its bytes with its `///` and attribute lines.
    bytes: usize,
    /// Its text from `fn` to its closing brace.
    text: String,
    /// Which module of the generated code it is in.
    module: usize,
}

/// `text` with every node function name followed by `(` (its own and its callees') replaced
/// by `F`, and every string literal that starts `http` and has a `#` (a keyword location)
/// by `U`; and those names in order.
fn shape(text: &str) -> (String, Vec<&str>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut names = Vec::new();
    let mut i = 0;
    while let Some(ch) = text[i..].chars().next() {
        if ch == '"' && text[i + 1..].starts_with("http") {
            let mut end = i + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(bytes.len());
            if text[i..end].contains('#') {
                out.push('U');
            } else {
                out.push_str(&text[i..end]);
            }
            i = end;
            continue;
        }
        let starts_name = (ch == 'c' || ch == 'e')
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts_name {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 && bytes.get(i + 1 + digits) == Some(&b'(') {
                names.push(&text[i..i + 1 + digits]);
                out.push('F');
                i += 1 + digits;
                continue;
            }
        }
        out.push(ch);
        i += ch.len_utf8();
    }
    (out, names)
}

/// Counts the node functions that do what another one does: same text up to names and
/// error locations ([`shape`]), and callees that do the same, refined to a fixed point.
fn copies(nodes: &[Node], size: &mut Size) {
    let shapes: Vec<(String, Vec<&str>)> = nodes.iter().map(|n| shape(&n.text)).collect();
    // A function's own name is the first name in its text.
    let index: HashMap<(usize, &str), usize> = shapes
        .iter()
        .enumerate()
        .filter_map(|(i, (_, names))| Some(((nodes[i].module, *names.first()?), i)))
        .collect();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut class: Vec<usize> = shapes
        .iter()
        .map(|(text, _)| {
            let next = ids.len();
            *ids.entry(text).or_insert(next)
        })
        .collect();
    let mut count = ids.len();
    loop {
        let mut ids: HashMap<(usize, Vec<usize>), usize> = HashMap::new();
        let next: Vec<usize> = shapes
            .iter()
            .enumerate()
            .map(|(i, (_, names))| {
                let callees = names
                    .iter()
                    .skip(1)
                    .map(|name| {
                        index
                            .get(&(nodes[i].module, *name))
                            .map_or(usize::MAX, |&j| class[j])
                    })
                    .collect();
                let fresh = ids.len();
                *ids.entry((class[i], callees)).or_insert(fresh)
            })
            .collect();
        class = next;
        if ids.len() == count {
            break;
        }
        count = ids.len();
    }
    let mut seen = vec![false; count];
    for (node, class) in nodes.iter().zip(class) {
        if std::mem::replace(&mut seen[class], true) {
            if node.error {
                size.error_copies += 1;
                size.error_copy_bytes += node.bytes;
            } else {
                size.check_copies += 1;
                size.check_copy_bytes += node.bytes;
            }
        }
    }
}

/// Generates `schemas` with `validate` on, then off.
fn sizes(make: &dyn Fn() -> schemac_build::Builder, schemas: &[(String, PathBuf)]) -> Sizes {
    let mut out = [Size::default(); 2];
    for (slot, validate) in out.iter_mut().zip([true, false]) {
        let mut builder = make();
        builder.validate(validate);
        for (module, path) in schemas {
            builder.schema(module, path);
        }
        let generated = builder.generate().map_err(|e| {
            let text = e.to_string();
            text.lines().take(2).collect::<Vec<_>>().join(" ")
        })?;
        *slot = measure(&generated.code);
    }
    Ok(out)
}

/// One line of the breakdown: its label, its figure, and whether that is bytes to show as
/// a share of the total.
type Figure = (&'static str, fn(&Size) -> usize, bool);

/// The breakdown under each table.
const BREAKDOWN: [Figure; 11] = [
    ("leading indentation, bytes", |s| s.indent, true),
    ("`///` lines, bytes", |s| s.doc, true),
    ("check functions (`fn c<N>`)", |s| s.check_fns, false),
    ("their bytes", |s| s.check_bytes, true),
    ("of which copies of another", |s| s.check_copies, false),
    ("their bytes", |s| s.check_copy_bytes, true),
    ("error-path functions (`fn e<N>`)", |s| s.error_fns, false),
    ("their bytes", |s| s.error_bytes, true),
    (
        "of which copies of another but for error locations",
        |s| s.error_copies,
        false,
    ),
    ("their bytes", |s| s.error_copy_bytes, true),
    (
        "error sites (`cx.fail(`, `cx.error(`)",
        |s| s.error_sites,
        false,
    ),
];

fn table(title: &str, rows: &[(String, Sizes)]) {
    println!("## {title}\n");
    println!(
        "| schema | lines | bytes | check-only lines | check-only bytes |\n|---|---:|---:|---:|---:|"
    );
    let (mut on_total, mut off_total) = (Size::default(), Size::default());
    let mut counted = 0;
    let mut refused = Vec::new();
    for (name, sizes) in rows {
        match sizes {
            Ok([on, off]) => {
                println!(
                    "| {name} | {} | {} | {} | {} |",
                    on.lines, on.bytes, off.lines, off.bytes
                );
                on_total.add(on);
                off_total.add(off);
                counted += 1;
            }
            Err(e) => {
                println!("| {name} | refused | | | |");
                refused.push(format!("{name}: {e}"));
            }
        }
    }
    println!(
        "| **total ({counted} schemas)** | {} | {} ({}) | {} | {} ({}) |",
        on_total.lines,
        on_total.bytes,
        mb(on_total.bytes),
        off_total.lines,
        off_total.bytes,
        mb(off_total.bytes)
    );
    for r in refused {
        println!("\nrefused: {r}");
    }
    println!("\n| of the total | validate on | check-only |\n|---|---:|---:|");
    for (what, figure, of_bytes) in BREAKDOWN {
        let cell = |size: &Size| {
            let value = figure(size);
            if of_bytes {
                let percent = 100.0 * value as f64 / size.bytes.max(1) as f64;
                format!("{value} ({percent:.0}%)")
            } else {
                value.to_string()
            }
        };
        println!("| {what} | {} | {} |", cell(&on_total), cell(&off_total));
    }
    println!();
}

/// Bytes in MB (10^6), two decimals.
fn mb(bytes: usize) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

fn corpus(shared: &Path) {
    let make = || corpus_builder(shared);
    let rows: Vec<(String, Sizes)> = catalog::SCHEMAS
        .iter()
        .map(|(module, path)| {
            let one = [(module.to_string(), shared.join(path))];
            (module.to_string(), sizes(&make, &one))
        })
        .collect();
    table("Bench corpus (`src/catalog.rs`), each schema alone", &rows);
}

/// The draft-07 SchemaStore schemas of the real-world corpus: `(id, schema path)`, sorted.
fn realworld_schemas(shared: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let cases = shared.join("realworld/cases");
    let entries = std::fs::read_dir(&cases).map_err(|e| format!("{}: {e}", cases.display()))?;
    let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let schema = dir.join("schema.json");
        if !id.starts_with("ss-") {
            continue;
        }
        let text =
            std::fs::read_to_string(&schema).map_err(|e| format!("{}: {e}", schema.display()))?;
        if text.contains("json-schema.org/draft-07/schema") {
            out.push((id, schema));
        }
    }
    Ok(out)
}

fn realworld(shared: &Path) {
    let schemas = match realworld_schemas(shared) {
        Ok(schemas) => schemas,
        Err(e) => {
            eprintln!("sizes: {e}");
            std::process::exit(1);
        }
    };
    let rows: Vec<(String, Sizes)> = schemas
        .iter()
        .map(|(id, path)| {
            let one = [(id.clone(), path.clone())];
            (id.clone(), sizes(&realworld_builder, &one))
        })
        .collect();
    table(
        &format!(
            "Real-world draft-07 SchemaStore schemas (`realworld/cases/ss-*`, {}), each schema alone",
            schemas.len()
        ),
        &rows,
    );
    match sizes(&realworld_builder, &schemas) {
        Ok([on, off]) => println!(
            "All {} in one builder (as `build-support/tests/realworld.rs`): {} lines, {} bytes \
             ({}); check-only {} lines, {} bytes ({}).\n",
            schemas.len(),
            on.lines,
            on.bytes,
            mb(on.bytes),
            off.lines,
            off.bytes,
            mb(off.bytes)
        ),
        Err(e) => println!("All in one builder: refused: {e}\n"),
    }
}
