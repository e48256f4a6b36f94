//! The MCP tool mode: `check --tools TOOLS` and `validate --tools TOOLS --tool NAME` (or
//! `--output-of NAME`). Tool lists are read by the driver's one reader
//! ([`driver::read_mcp_tools`]: a `tools/list` result or an array of tools, MCP's rules on
//! each entry), and every schema is compiled under MCP's dialect rules.

use crate::{instances, print_input_error, report_compiled, Status};
use schemac::driver::{self, InputError};
use schemac::ir::Program;
use schemac::mcp::{SchemaRole, ToolList};
use schemac::Compiler;
use schemac_runtime::error::Escaped;
use std::path::Path;

/// Reads the tool list in `path`, printing why it cannot be read.
fn read(shared: &crate::SharedOptions, path: &Path) -> Option<ToolList> {
    let mut reader = instances::Limited(shared.max_input_size);
    match driver::read_mcp_tools(&mut reader, path) {
        Ok(list) => Some(list),
        Err(error) => {
            print_input_error(&error);
            None
        }
    }
}

/// `schemac check --tools TOOLS`: every entry of the list and every schema of every tool,
/// a line per tool on stdout (`TOOLS [NAME]: inputSchema compiles, outputSchema
/// compiles`), errors on stderr; 0 when all compile, else 2.
pub fn check(compiler: &Compiler, shared: &crate::SharedOptions, path: &Path) -> Status {
    let Some(list) = read(shared, path) else {
        return Status::Error;
    };
    let document = driver::display_path(path);
    let refused = list.errors.len();
    if refused > 0 {
        print_input_error(&InputError::Compile(list.errors));
    }
    let mut failed = 0;
    for tool in &list.tools {
        let mut parts = Vec::new();
        let mut ok = true;
        for (role, schema) in tool.schemas() {
            let source = tool.schema_source(&document, role);
            let compiled = report_compiled(compiler.compile_named(&source, schema)).is_some();
            ok &= compiled;
            let verdict = if compiled {
                "compiles"
            } else {
                "does not compile"
            };
            parts.push(format!("{} {verdict}", role.keyword()));
        }
        if tool.output_schema.is_none() {
            parts.push("no outputSchema".to_string());
        }
        failed += usize::from(!ok);
        let name = Escaped(&format!("{document} [{}]", tool.name)).to_string();
        println!("{name}: {}", parts.join(", "));
    }
    let total = list.tools.len() + refused;
    if failed + refused == 0 {
        Status::Ok
    } else {
        eprintln!(
            "schemac: {} of {total} tool(s) failed: {refused} not a tool by MCP's rules, \
             {failed} with a schema that does not compile",
            failed + refused
        );
        Status::Error
    }
}

/// The compiled schema `role` of tool `name` in the list in `path`, or `None` after
/// printing why: the list cannot be read, has no such tool (its tools are named), the
/// tool has no output schema, or the schema does not compile.
pub fn program(
    compiler: &Compiler,
    shared: &crate::SharedOptions,
    path: &Path,
    name: &str,
    role: SchemaRole,
) -> Option<Program> {
    let list = read(shared, path)?;
    let document = driver::display_path(path);
    let Some(tool) = list.tools.iter().find(|tool| tool.name == name) else {
        if !list.errors.is_empty() {
            print_input_error(&InputError::Compile(list.errors));
        }
        let names: Vec<String> = list
            .tools
            .iter()
            .map(|tool| Escaped(&tool.name).to_string())
            .collect();
        eprintln!(
            "schemac: {}: no tool {} that follows MCP's rules; its tools: {}",
            Escaped(&document),
            Escaped(name),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
        return None;
    };
    let Some((_, schema)) = tool.schemas().find(|(r, _)| *r == role) else {
        eprintln!(
            "schemac: {}: tool {} declares no outputSchema, so its structured content is \
             not constrained",
            Escaped(&document),
            Escaped(name)
        );
        return None;
    };
    report_compiled(compiler.compile_named(&tool.schema_source(&document, role), schema))
}
