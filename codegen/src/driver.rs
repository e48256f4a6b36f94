//! From inputs to units: schema files, directories of them, MCP `tools/list` results and
//! schemas in memory, each compiled and given a Rust module name that no other unit of
//! the same generated file has. The one path shared by the CLI's `generate`,
//! `schemac-build`'s `Builder` and the tests crate's build script.
//!
//! Takes a [`Compiler`] (documents registered with [`add_document`]) and a [`Read`] that
//! says how files are read — [`Files`] reads them whole, the CLI under its limits; gives
//! [`Units`], whose [`Units::emit_units`] the Rust backend generates modules for. Every
//! error names its file: the schema's, or both schemas' when two would generate the same
//! module.
//!
//! ```
//! use schemac::driver::{Schema, Units};
//! use schemac::Compiler;
//!
//! let compiler = Compiler::new(schemac::Options::default());
//! let schema = serde_json::json!({"type": "object"});
//! let mut units = Units::new();
//! let unit = units.add(&compiler, Schema::new("get-weather", "tools.json", &schema))?;
//! assert_eq!(unit.module, "get_weather");
//! let again = units.add(&compiler, Schema::new("getWeather", "other.json", &schema));
//! assert_eq!(
//!     again.unwrap_err().to_string(),
//!     "tools.json and other.json would both generate module `get_weather`"
//! );
//! # Ok::<(), schemac::driver::InputError>(())
//! ```

use crate::check::Compiler;
use crate::error::CompileError;
use crate::ir::Program;
use crate::mcp::{ToolList, ToolPart};
use crate::names::{ModuleNames, Unclaimable};
use crate::options::Options;
use schemac_runtime::error::Escaped;
use schemac_runtime::json::drop_deep;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// A file read: its text (served as a module's `SCHEMA` where asked) and its JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The file's text.
    pub text: String,
    /// The JSON value it holds.
    pub value: Value,
}

/// How the driver reads files. [`Files`] reads them whole with `std::fs` and
/// `serde_json`; a caller with limits (the CLI's input size and nesting) brings its own.
pub trait Read {
    /// Reads and parses the file at `path`; the error names it.
    fn read(&mut self, path: &Path) -> Result<Source, InputError>;

    /// The `*.json` files directly in `dir`, sorted (by default listed with
    /// [`json_files`]).
    fn json_files(&mut self, dir: &Path) -> Result<Vec<PathBuf>, InputError> {
        json_files(dir)
    }
}

/// Reads files whole (serde_json's recursion limit of 128 applies) and keeps every path
/// it read or listed, for `cargo:rerun-if-changed`.
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// Every file and directory read, in order.
    pub read: Vec<PathBuf>,
}

impl Read for Files {
    fn read(&mut self, path: &Path) -> Result<Source, InputError> {
        self.read.push(path.to_path_buf());
        let text = std::fs::read_to_string(path).map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let value = serde_json::from_str(&text).map_err(|e| InputError::Json {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        Ok(Source { text, value })
    }

    fn json_files(&mut self, dir: &Path) -> Result<Vec<PathBuf>, InputError> {
        self.read.push(dir.to_path_buf());
        json_files(dir)
    }
}

/// The `*.json` files directly in `dir` (not in its subdirectories), sorted.
pub fn json_files(dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let io = |source| InputError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Reads the document in file `path` and registers it in `compiler` under `uri`, so that
/// references reach it; it gets no module of its own.
pub fn add_document(
    compiler: &mut Compiler,
    reader: &mut dyn Read,
    uri: &str,
    path: &Path,
) -> Result<(), InputError> {
    let source = reader.read(path)?;
    compiler
        .add_document(uri, source.value)
        .map(|_| ())
        .map_err(|e| InputError::Compile(vec![e]))
}

/// Reads the MCP tool list in file `path` (a `tools/list` result, `{"tools": [...]}`, or
/// the bare array of tools) with [`crate::mcp::tools`]: the tools that follow MCP's rules
/// and, beside them, why the other entries do not. The one reader of tool lists, for
/// the CLI's `--tools` and the Builder's `mcp_tools`.
pub fn read_mcp_tools(reader: &mut dyn Read, path: &Path) -> Result<ToolList, InputError> {
    let source = reader.read(path)?;
    let list = crate::mcp::tools(&display_path(path), &source.value);
    // Read input may nest deeply: dropped without recursion.
    drop_deep(source.value);
    Ok(list)
}

/// A path as generated code and error locations write it: forward slashes, so that the
/// output is the same on every platform.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// A schema in memory, to compile into a unit.
#[derive(Debug, Clone)]
pub struct Schema<'a> {
    /// What the module is named after, before [`crate::names::module_name`] sanitizes it
    /// (a file stem, a tool name and `_input`, a name given by the user).
    pub name: &'a str,
    /// What the schema is: its file, or the file and the place in it (`tools.json
    /// [get_weather inputSchema]`). Names the schema in compile errors, in collisions and in
    /// the module's doc comment.
    pub source: String,
    /// The file the schema came from, named in the generated file's header.
    pub file: &'a Path,
    /// The schema's text, for the module's `SCHEMA` constant; `None` leaves it out.
    pub text: Option<String>,
    /// The schema.
    pub value: &'a Value,
    /// The tool the schema belongs to, if it is an MCP tool's (listed in `TOOLS`).
    pub tool: Option<ToolPart>,
}

impl<'a> Schema<'a> {
    /// The schema `value` from `file`, named `name`: its source is the file, and it has
    /// no `SCHEMA` text.
    pub fn new(name: &'a str, file: &'a str, value: &'a Value) -> Schema<'a> {
        Schema {
            name,
            source: file.to_string(),
            file: Path::new(file),
            text: None,
            value,
            tool: None,
        }
    }
}

/// What a module was made for, as a collision names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The unit's source (see [`Schema::source`]).
    pub source: String,
    /// The file it came from.
    pub file: PathBuf,
}

/// One compiled schema with its module name: what a module is generated from.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The module's name, a Rust identifier unique among the units.
    pub module: String,
    /// What the schema is (see [`Schema::source`]).
    pub source: String,
    /// The file it came from, with forward slashes ([`display_path`]).
    pub file: String,
    /// The schema's text for the `SCHEMA` constant, if asked for.
    pub schema_text: Option<String>,
    /// The compiled schema; its warnings are in [`Program::warnings`].
    pub program: Program,
    /// The tool it belongs to, if it is an MCP tool's schema.
    pub tool: Option<ToolPart>,
}

/// The units of one generated file, in the order added; each module name is claimed once.
#[derive(Debug, Default)]
pub struct Units {
    units: Vec<Compiled>,
    names: ModuleNames<Origin>,
    schema_text: bool,
}

impl Units {
    /// No units; files added keep no `SCHEMA` text.
    pub fn new() -> Units {
        Units::default()
    }

    /// Whether units added from files ([`Units::add_file`], [`Units::add_dir`]) keep the
    /// file's text for a `SCHEMA` constant (default `false`). MCP tools always keep it.
    pub fn schema_text(mut self, keep: bool) -> Units {
        self.schema_text = keep;
        self
    }

    /// Compiles `schema` into a unit. Its module name is claimed first: when none can be
    /// made from [`Schema::name`] or another unit has it, nothing is compiled.
    pub fn add(
        &mut self,
        compiler: &Compiler,
        schema: Schema<'_>,
    ) -> Result<&Compiled, InputError> {
        let module = self.claim(schema.name, &schema.source, schema.file)?;
        self.compile(compiler, module, schema)
    }

    /// Reads and compiles the schema in file `path` into module `module`, or, without one,
    /// a module named after the file (`aws-cdk.json` → `aws_cdk`). The name is claimed
    /// before the file is read.
    pub fn add_file(
        &mut self,
        compiler: &Compiler,
        reader: &mut dyn Read,
        module: Option<&str>,
        path: &Path,
    ) -> Result<&Compiled, InputError> {
        let stem;
        let name = match module {
            Some(module) => module,
            None => {
                stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                &stem
            }
        };
        let source = display_path(path);
        let module = self.claim(name, &source, path)?;
        let Source { text, value } = reader.read(path)?;
        let schema = Schema {
            name,
            source,
            file: path,
            text: self.schema_text.then_some(text),
            value: &value,
            tool: None,
        };
        let compiled = self.compile(compiler, module, schema);
        // Read input may nest deeply: dropped without recursion.
        drop_deep(value);
        compiled
    }

    /// Adds every `*.json` file directly in `dir`, in name order, each named after its
    /// file ([`Units::add_file`]); a file that fails does not stop the others.
    pub fn add_dir(
        &mut self,
        compiler: &Compiler,
        reader: &mut dyn Read,
        dir: &Path,
    ) -> Result<(), Vec<InputError>> {
        let files = reader.json_files(dir).map_err(|e| vec![e])?;
        let errors = files
            .iter()
            .filter_map(|path| self.add_file(compiler, reader, None, path).err())
            .collect();
        none(errors)
    }

    /// Adds the tools of the MCP `tools/list` result in file `path` ([`read_mcp_tools`]):
    /// each tool's `inputSchema` as module `<tool>_input` and its `outputSchema`, when it
    /// has one, as `<tool>_output`, both keeping their text (a server lists its tools with
    /// it) and listed in the generated `TOOLS` table under the tool's name. MCP's dialect
    /// rules are the compiler's options ([`crate::mcp::options`]). Every error at once: the
    /// entries of the list that are not tools, and the schemas of the others that do not
    /// compile.
    pub fn add_mcp_tools(
        &mut self,
        compiler: &Compiler,
        reader: &mut dyn Read,
        path: &Path,
    ) -> Result<(), Vec<InputError>> {
        let list = read_mcp_tools(reader, path).map_err(|e| vec![e])?;
        let document = display_path(path);
        let mut errors = Vec::new();
        if !list.errors.is_empty() {
            errors.push(InputError::Compile(list.errors));
        }
        for tool in &list.tools {
            let module = crate::names::module_name(&tool.name).unwrap_or_default();
            for (role, schema) in tool.schemas() {
                let unit = Schema {
                    name: &format!("{module}_{}", role.suffix()),
                    source: tool.schema_source(&document, role),
                    file: path,
                    text: Some(schema.to_string()),
                    value: schema,
                    tool: Some(ToolPart::new(&tool.name, role, schema)),
                };
                if let Err(e) = self.add(compiler, unit) {
                    errors.push(e);
                }
            }
        }
        for tool in list.tools {
            drop_deep(tool.input_schema);
            if let Some(output) = tool.output_schema {
                drop_deep(output);
            }
        }
        none(errors)
    }

    /// The units, in the order added.
    pub fn compiled(&self) -> &[Compiled] {
        &self.units
    }

    /// The units as the Rust backend takes them ([`crate::emit::generate`]).
    #[cfg(feature = "emit")]
    pub fn emit_units(&self) -> Vec<crate::emit::Unit<'_>> {
        self.units
            .iter()
            .map(|unit| crate::emit::Unit {
                module: &unit.module,
                source: &unit.source,
                file: &unit.file,
                schema_text: unit.schema_text.as_deref(),
                program: &unit.program,
                tool: unit.tool.as_ref(),
            })
            .collect()
    }

    /// The module for `name`, now taken by the unit `source` from `file`.
    fn claim(&mut self, name: &str, source: &str, file: &Path) -> Result<String, InputError> {
        let origin = Origin {
            source: source.to_string(),
            file: file.to_path_buf(),
        };
        self.names
            .claim(name, origin.clone())
            .map_err(|refused| match refused {
                Unclaimable::Empty => InputError::NoModuleName {
                    name: name.to_string(),
                    path: file.to_path_buf(),
                },
                Unclaimable::Taken { module, first } => InputError::Collision {
                    module,
                    first: first.clone(),
                    second: origin,
                },
            })
    }

    /// Compiles `schema` into module `module` (claimed) and keeps it.
    fn compile(
        &mut self,
        compiler: &Compiler,
        module: String,
        schema: Schema<'_>,
    ) -> Result<&Compiled, InputError> {
        let program = compiler
            .compile_named(&schema.source, schema.value)
            .map_err(InputError::Compile)?;
        self.units.push(Compiled {
            module,
            source: schema.source,
            file: display_path(schema.file),
            schema_text: schema.text,
            program,
            tool: schema.tool,
        });
        Ok(&self.units[self.units.len() - 1])
    }
}

/// `Ok` when `errors` is empty, else `Err` with them.
fn none(errors: Vec<InputError>) -> Result<(), Vec<InputError>> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Why an input gave no unit. Every one names its file; [`fmt::Display`] writes a path
/// that holds a control character, a quote or a backslash as a JSON string, so that no file
/// name can forge a line of output.
#[derive(Debug)]
#[non_exhaustive]
pub enum InputError {
    /// A file or directory could not be read.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not valid JSON.
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A [`Read`] refused the file (the CLI: larger than `--max-input-size`, nested too
    /// deeply, not JSON); the message names the file.
    Refused {
        /// The file.
        path: PathBuf,
        /// What the reader said, naming the file.
        message: String,
    },
    /// No Rust module name can be made from `name` (it is empty: a path without a file
    /// name, a module name given as `""`).
    NoModuleName {
        /// The name.
        name: String,
        /// The file it was for.
        path: PathBuf,
    },
    /// Two units would generate the same module.
    Collision {
        /// The module.
        module: String,
        /// The unit that claimed it first.
        first: Origin,
        /// The unit refused.
        second: Origin,
    },
    /// The schema (or a registered document) did not compile: every error, each naming
    /// its file, JSON pointer and keyword.
    Compile(Vec<CompileError>),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = |path: &Path| Escaped(&path.display().to_string()).to_string();
        match self {
            InputError::Io { path: p, source } => write!(f, "{}: {source}", path(p)),
            InputError::Json {
                path: p,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: not valid JSON: {message}", path(p)),
            InputError::Refused { message, .. } => f.write_str(message),
            InputError::NoModuleName { name, path: p } => write!(
                f,
                "{}: no Rust module name can be made from {name:?}",
                path(p)
            ),
            InputError::Collision {
                module,
                first,
                second,
            } => write!(
                f,
                "{} and {} would both generate module `{module}`",
                Escaped(&first.source),
                Escaped(&second.source)
            ),
            InputError::Compile(errors) => {
                for (i, error) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    write!(f, "{error}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What generated modules give besides `check` / `is_valid`, decided here once for every
/// caller (`schemac-build`'s `Builder`, [`crate::emit::generate`], the tests crate's build
/// script): `evaluate` brings `validate`, and needs its programs compiled with their
/// annotations ([`Options::annotations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entries {
    validate: bool,
    evaluate: bool,
}

impl Entries {
    /// The entries asked for: `validate` (the error-collecting functions) and `evaluate`
    /// (annotations too), which brings `validate`.
    pub const fn new(validate: bool, evaluate: bool) -> Entries {
        Entries {
            validate: validate || evaluate,
            evaluate,
        }
    }

    /// Whether modules get `validate`.
    pub const fn validate(self) -> bool {
        self.validate
    }

    /// Whether modules get `evaluate`.
    pub const fn evaluate(self) -> bool {
        self.evaluate
    }

    /// `options` as the schemas must be compiled for these entries: annotations kept for
    /// `evaluate`.
    pub fn compile_options(self, mut options: Options) -> Options {
        options.annotations |= self.evaluate;
        options
    }
}
