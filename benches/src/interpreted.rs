//! schemac's interpreter over the same schemas, compiled at run time with the same
//! options as `build.rs` uses (defaults, the meta-schemas registered offline).

use crate::catalog::METASCHEMAS;
use crate::paths;
use schemac::interp::Interpreter;
use schemac::{Compiler, Options};
use serde_json::Value;
use std::path::Path;

/// A compiler with default options and the meta-schemas of `shared` registered.
pub fn compiler(shared: &Path) -> Result<Compiler, String> {
    let mut compiler = Compiler::new(Options::default());
    for (uri, path) in METASCHEMAS {
        let doc = paths::read_json(&shared.join(path))?;
        compiler
            .add_document(uri, doc)
            .map_err(|e| format!("cannot register {uri}: {e}"))?;
    }
    Ok(compiler)
}

/// Compiles `schema` (named `source` in errors) for the interpreter.
pub fn interpreter(
    compiler: &Compiler,
    source: &str,
    schema: &Value,
) -> Result<Interpreter, String> {
    compiler
        .compile_named(source, schema)
        .map(Interpreter::new)
        .map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
}
