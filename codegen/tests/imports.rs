//! The source files of `codegen/src` import one another without circles, and from the
//! modules that define what they import rather than through the crate root's re-exports.
//!
//! Read as text: every `use` declaration of every file is resolved to the file of the
//! module it names (`crate::`, `super::`, `self::` and child-module paths), giving one
//! edge per import. An edge from a file to the `mod.rs` of a module it belongs to is the
//! module's own narrative (its shared types) and is not counted, nor is a file's test
//! module; any other cycle is a circle of files, where planning and execution (or two
//! keyword families) knot.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path (`["interp", "eval"]`), the crate root being empty.
type ModulePath = Vec<String>;

/// Every `.rs` file below `dir`, by module path.
fn modules(src: &Path, dir: &Path, files: &mut BTreeMap<ModulePath, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read codegen/src")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            modules(src, &path, files);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path
            .strip_prefix(src)
            .expect("below src")
            .with_extension("");
        let mut module: ModulePath = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        files.insert(module, path);
    }
}

/// The `use` declarations of `text` (comments aside, and the file's test module: what
/// tests import is no dependency of the code), each as the list of paths it imports.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let text = text
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(text);
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = code.as_str();
    while let Some(at) = find_use(rest) {
        let tail = &rest[at..];
        let end = tail.find(';').unwrap_or(tail.len());
        let decl: String = tail[..end].split_whitespace().collect();
        // `usecrate::a::{b,c::D}` → `crate::a::{b,c::D}`.
        let decl = decl.trim_start_matches("use");
        let mut paths = Vec::new();
        expand(decl, &mut paths);
        out.extend(paths.into_iter().map(|p| {
            p.split("::")
                .map(str::to_string)
                .filter(|s| !s.is_empty())
                .collect()
        }));
        rest = &tail[end.min(tail.len())..];
    }
    out
}

/// The byte offset of the next `use` declaration in `text` (at a line's start, after
/// any visibility).
fn find_use(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let decl = ["pub(crate) use ", "pub(super) use ", "pub use ", "use "]
            .iter()
            .find(|prefix| trimmed.starts_with(*prefix));
        if let Some(prefix) = decl {
            let indent = line.len() - trimmed.len();
            return Some(offset + indent + prefix.len() - "use ".len());
        }
        offset += line.len();
    }
    None
}

/// `decl` (`a::{b, c::{d, e}}`, no spaces) as the paths it names.
fn expand(decl: &str, out: &mut Vec<String>) {
    let Some(open) = decl.find('{') else {
        out.push(decl.split(" as ").next().unwrap_or(decl).to_string());
        return;
    };
    let prefix = &decl[..open];
    let inner = &decl[open + 1..decl.rfind('}').unwrap_or(decl.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&format!("{prefix}{}", &inner[start..i]), out);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        expand(&format!("{prefix}{}", &inner[start..]), out);
    }
}

/// The module a path used in `module` names (its longest prefix that is a file's
/// module), or `None` for another crate.
fn target(
    module: &ModulePath,
    path: &[String],
    files: &BTreeMap<ModulePath, PathBuf>,
) -> Option<ModulePath> {
    let mut base: ModulePath = Vec::new();
    let mut segments = path.iter().peekable();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
        }
        Some("self") | Some("super") => {
            // In a `foo.rs` or `foo/mod.rs` file, `self` is `foo` and `super` its parent.
            base = module.clone();
            while let Some(s) = segments.peek() {
                match s.as_str() {
                    "self" => {}
                    "super" => {
                        base.pop();
                    }
                    _ => break,
                }
                segments.next();
            }
        }
        Some(first) => {
            // A child module of this one (`use call::When;` in `emit/node/mod.rs`), else
            // another crate.
            let mut child = module.clone();
            child.push(first.to_string());
            if !files.contains_key(&child) {
                return None;
            }
            base = module.clone();
        }
        None => return None,
    }
    let mut best = None;
    let mut current = base;
    if files.contains_key(&current) {
        best = Some(current.clone());
    }
    for segment in segments {
        current.push(segment.clone());
        if files.contains_key(&current) {
            best = Some(current.clone());
        }
    }
    best
}

/// The import edges between the files of `codegen/src`, by module path, leaving out a
/// file's imports from the modules it is inside of.
fn import_graph() -> (BTreeMap<ModulePath, BTreeSet<ModulePath>>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    modules(&src, &src, &mut files);
    let mut graph: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    let mut through_root = Vec::new();
    for (module, file) in &files {
        let text = std::fs::read_to_string(file).expect("read a source file");
        let edges = graph.entry(module.clone()).or_default();
        for path in use_paths(&text) {
            let Some(to) = target(module, &path, &files) else {
                continue;
            };
            if to.is_empty() && !module.is_empty() && path.first().is_some_and(|s| s == "crate") {
                through_root.push(format!("{}: use {}", file.display(), path.join("::")));
            }
            // The module's own narrative (an ancestor): not a circle.
            if module.starts_with(&to) {
                continue;
            }
            edges.insert(to);
        }
    }
    (graph, through_root)
}

/// The circles of `graph`: its strongly connected components of more than one module
/// (Tarjan's algorithm), each sorted, in module order.
fn circles(graph: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<ModulePath, BTreeSet<ModulePath>>,
        index: BTreeMap<&'g ModulePath, (usize, usize)>,
        stack: Vec<&'g ModulePath>,
        on_stack: BTreeSet<&'g ModulePath>,
        found: Vec<Vec<ModulePath>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, node: &'g ModulePath) -> usize {
            let n = self.index.len();
            self.index.insert(node, (n, n));
            self.stack.push(node);
            self.on_stack.insert(node);
            let mut low = n;
            for next in self.graph.get(node).into_iter().flatten() {
                let Some((next, _)) = self.graph.get_key_value(next) else {
                    continue;
                };
                match self.index.get(next) {
                    None => low = low.min(self.visit(next)),
                    Some(&(at, _)) if self.on_stack.contains(next) => low = low.min(at),
                    Some(_) => {}
                }
            }
            self.index.insert(node, (n, low));
            if low == n {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.clone());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
            low
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node) {
            walk.visit(node);
        }
    }
    walk.found.sort();
    walk.found
}

#[test]
fn source_files_import_without_circles() {
    let (graph, _) = import_graph();
    // The reader works: files known to import each other are seen doing so.
    let module = |path: &str| -> ModulePath { path.split("::").map(str::to_string).collect() };
    let apply = graph.get(&module("interp::apply"));
    assert!(
        apply.is_some_and(|edges| edges.contains(&module("interp::plan"))),
        "{graph:?}"
    );
    let found: Vec<String> = circles(&graph)
        .iter()
        .map(|circle| {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            names.join(" ↔ ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "files import in circles:\n{}",
        found.join("\n")
    );
}

#[test]
fn items_are_imported_from_their_home_modules() {
    let (_, through_root) = import_graph();
    assert!(
        through_root.is_empty(),
        "imported through lib.rs's re-exports instead of their home modules:\n{}",
        through_root.join("\n")
    );
}

#[test]
fn use_declarations_are_read_with_their_braces() {
    let paths = use_paths("use super::{a::{B, C}, d::E};\npub(super) use crate::f::G;\n");
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        ["super::a::B", "super::a::C", "super::d::E", "crate::f::G"]
    );
}
