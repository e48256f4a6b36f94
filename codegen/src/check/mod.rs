//! Checking and lowering: keyword shapes and limits (by each resource's dialect, from
//! [`crate::dialect`]), every reference resolved once, and the IR [`Program`] built.
//! Errors are collected, each with its location.

mod lower;

use crate::error::{CompileError, CompileWarning, Location};
use crate::ir::Program;
use crate::load::{Index, Registry};
use crate::options::Options;
use schemac_runtime::error::Escaped;
use serde_json::Value;

/// The compiler: options plus the offline registry of documents.
#[derive(Debug, Clone, Default)]
pub struct Compiler {
    options: Options,
    registry: Registry,
}

impl Compiler {
    /// A compiler with `options` and an empty registry.
    pub fn new(options: Options) -> Compiler {
        Compiler {
            options,
            registry: Registry::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The registry of offline documents, to add to.
    pub fn registry_mut(&mut self) -> &mut Registry {
        &mut self.registry
    }

    /// Registers an offline document under `uri` (see [`Registry::add`]).
    pub fn add_document(&mut self, uri: &str, value: Value) -> Result<&mut Self, CompileError> {
        self.registry.add(uri, value)?;
        Ok(self)
    }

    /// Compiles `schema` (whose base URI is its `$id`, else
    /// [`crate::load::DEFAULT_BASE_URI`]); errors name the document as `schema`.
    pub fn compile(&self, schema: &Value) -> Result<Program, Vec<CompileError>> {
        self.compile_named("schema", schema)
    }

    /// Compiles `schema`; `name` (usually its file path) names it in error locations.
    /// A document that looks like an MCP tool or tool list rather than a schema
    /// ([`crate::mcp::looks_like_tools`]) compiles with a warning saying so first: as a
    /// schema it would constrain nothing.
    pub fn compile_named(&self, name: &str, schema: &Value) -> Result<Program, Vec<CompileError>> {
        let mut index = Index::new(&self.registry, &self.options);
        let root = index.load_root(name, schema);
        let mut program = lower::lower(index, root, &self.options)?;
        if let Some(what) = crate::mcp::looks_like_tools(schema) {
            program.warnings.insert(0, tools_as_schema(name, what));
        }
        Ok(program)
    }
}

/// The warning for document `name`, which looks like `what` (an MCP tool or tool list),
/// compiled as a schema.
fn tools_as_schema(name: &str, what: &str) -> CompileWarning {
    let location = Location {
        document: name.to_owned(),
        pointer: String::new(),
        keyword: None,
    };
    let name = Escaped(name);
    CompileWarning {
        location,
        message: format!(
            "{name} looks like {what}, not a schema (as a schema, its tool fields are \
             unknown keywords that constrain nothing); compile its tools as tools: \
             `schemac check --tools {name}`, `schemac validate --tools {name} --tool NAME \
             CALL...`, or `Builder::mcp_tools` in a build script"
        ),
    }
}
