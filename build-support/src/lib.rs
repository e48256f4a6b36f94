//! build.rs integration for schemac: compiles JSON Schemas into Rust validators in
//! `OUT_DIR`, in the manner of `cc::Build` and `prost_build::Config`.
//!
//! In `build.rs` (with `schemac-build` as a build-dependency):
//!
//! ```no_run
//! fn main() -> Result<(), schemac_build::Error> {
//!     schemac_build::Builder::new()
//!         .schema("get_weather", "schemas/get_weather.json") // module `get_weather`
//!         .schema_dir("schemas/tools/") // every *.json there, module named after the file
//!         .document("https://example.com/common.json", "schemas/shared/common.json")
//!         .compile() // writes OUT_DIR/schemac.rs
//! }
//! ```
//!
//! and in the crate (with `schemac-runtime` as a dependency):
//!
//! ```ignore
//! mod validators {
//!     schemac_runtime::include_validators!();
//! }
//!
//! fn accept(arguments: &serde_json::Value) -> bool {
//!     validators::get_weather::is_valid(arguments)
//! }
//! ```
//!
//! Each schema becomes a module with `is_valid`, `check`, `validate` and a zero-sized
//! `Validator` implementing `schemac_runtime::Validate`; with [`Builder::validate`]`(false)`
//! only `is_valid` and `check` (the `Validator` implements `schemac_runtime::Check`); with
//! [`Builder::evaluate`]`(true)` also `evaluate`, which collects annotations (the
//! `Validator` implements `schemac_runtime::Evaluate`).
//! `SCHEMA` (the schema text) is there for [`Builder::mcp_tools`] modules, and for every
//! module with [`Builder::schema_text`]`(true)`; [`Builder::mcp_tools`] also generates
//! `TOOLS`, the table of the tools by their listed names.
//!
//! Every public item of the generated code carries `#[allow(dead_code)]`, so a crate that
//! includes the validators in a private module, as above, and uses only some of them
//! builds without warnings, under `#![deny(warnings)]` too.
//!
//! [`Builder::compile`] prints `cargo:rerun-if-changed` for every file it reads, prints
//! compile warnings as `cargo:warning`, and rewrites the output file only when its bytes
//! change. [`Builder::generate`] does the same work without touching `OUT_DIR` or printing.
#![deny(missing_docs)]

use schemac::driver::{self, Files, Units};
use schemac::emit::{self, EmitOptions};
use schemac::{Compiler, Dialect, Options, RefPolicy, UnsupportedRegexPolicy};
use schemac_runtime::error::Escaped;
use schemac_runtime::Limits;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why an input gave no module ([`Error::Inputs`]): the driver's error, shared with the
/// CLI.
pub use schemac::driver::InputError;

/// Configures which schemas to compile and how; see the crate documentation.
#[derive(Debug, Clone)]
pub struct Builder {
    schemas: Vec<(String, PathBuf)>,
    dirs: Vec<PathBuf>,
    mcp_tools: Vec<PathBuf>,
    documents: Vec<(String, PathBuf)>,
    options: Options,
    formats: BTreeMap<String, String>,
    keywords: BTreeMap<String, String>,
    runtime_path: String,
    out_dir: Option<PathBuf>,
    out_file: String,
    validate: bool,
    evaluate: bool,
    schema_text: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder with schemac's default options and no schemas.
    pub fn new() -> Builder {
        Builder {
            schemas: Vec::new(),
            dirs: Vec::new(),
            mcp_tools: Vec::new(),
            documents: Vec::new(),
            options: Options::default(),
            formats: BTreeMap::new(),
            keywords: BTreeMap::new(),
            runtime_path: "::schemac_runtime".to_string(),
            out_dir: None,
            out_file: "schemac.rs".to_string(),
            validate: true,
            evaluate: false,
            schema_text: false,
        }
    }

    /// Compiles the schema in file `path` into module `module` (sanitized into a Rust
    /// identifier: `aws-cdk` → `aws_cdk`).
    pub fn schema(&mut self, module: &str, path: impl AsRef<Path>) -> &mut Self {
        self.schemas
            .push((module.to_string(), path.as_ref().to_path_buf()));
        self
    }

    /// Compiles every `*.json` file directly in `dir`, each into a module named after the
    /// file (without `.json`, sanitized).
    pub fn schema_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Compiles the tools of an MCP tool list in file `path` (a `tools/list` result,
    /// `{"tools": [...]}`, or the bare array of tools): each tool's `inputSchema` into
    /// module `<tool>_input` and its `outputSchema`, when it has one, into `<tool>_output`
    /// (tool names sanitized: `getWeather` → `get_weather`, `github.get-me` →
    /// `github_get_me`). The generated file also gets `TOOLS`, a
    /// `&[schemac_runtime::tools::Tool]` with every tool of every list in the order listed:
    /// its name as listed, its validators and its schema texts (what
    /// `schemac_rmcp::ToolValidators::from_table` takes). MCP's rules apply: tool names are
    /// unique, an input schema must be an object schema, and only the 2020-12 and draft-07
    /// dialects are allowed (for every schema of this builder).
    pub fn mcp_tools(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.mcp_tools.push(path.as_ref().to_path_buf());
        self
    }

    /// Makes the document in file `path` resolvable by `$ref` under `uri`, without a
    /// module of its own.
    pub fn document(&mut self, uri: &str, path: impl AsRef<Path>) -> &mut Self {
        self.documents
            .push((uri.to_string(), path.as_ref().to_path_buf()));
        self
    }

    /// Replaces all compiler options at once (custom formats added with
    /// [`Builder::format`] are kept).
    pub fn options(&mut self, options: Options) -> &mut Self {
        self.options = options;
        self
    }

    /// The dialect of a schema without `$schema` (default: 2020-12).
    pub fn default_dialect(&mut self, dialect: Dialect) -> &mut Self {
        self.options.default_dialect = dialect;
        self
    }

    /// The dialects a schema may declare (default: every supported one).
    pub fn allowed_dialects(&mut self, dialects: &[Dialect]) -> &mut Self {
        self.options.allowed_dialects = dialects.to_vec();
        self
    }

    /// What to do with a reference to a document that was not registered (default: error).
    pub fn ref_policy(&mut self, policy: RefPolicy) -> &mut Self {
        self.options.ref_policy = policy;
        self
    }

    /// Whether `format` asserts (default: annotation only).
    pub fn assert_format(&mut self, assert: bool) -> &mut Self {
        self.options.assert_format = assert;
        self
    }

    /// Whether draft-07's `contentEncoding: base64` and `contentMediaType:
    /// application/json` assert (default: annotations only; 2019-09 and 2020-12 keep
    /// content as annotations). See [`schemac::Options::assert_content`].
    pub fn assert_content(&mut self, assert: bool) -> &mut Self {
        self.options.assert_content = assert;
        self
    }

    /// Adds a custom format: `function` is the path of a `fn(&str) -> bool` that the
    /// generated code calls (`"crate::formats::currency"`). Asserted when
    /// [`Builder::assert_format`] is on.
    pub fn format(&mut self, name: &str, function: &str) -> &mut Self {
        self.formats.insert(name.to_string(), function.to_string());
        self
    }

    /// Adds a custom keyword, in every dialect: `function` is the path of a
    /// `fn(&Constant<'static>, &Value) -> Result<(), String>` that the generated code
    /// calls with the keyword's value (`schemac_runtime::instance::Constant`, static data)
    /// and the instance, once per evaluation of a subschema that has the keyword (a budget
    /// unit each): `Ok`, or a message saying what to change (the error's message, shown
    /// escaped). A name the schema's dialect knows is a compile error.
    pub fn keyword(&mut self, name: &str, function: &str) -> &mut Self {
        self.keywords.insert(name.to_string(), function.to_string());
        self
    }

    /// What to do with a pattern the regex engine refuses (default: error).
    pub fn unsupported_regex(&mut self, policy: UnsupportedRegexPolicy) -> &mut Self {
        self.options.unsupported_regex = policy;
        self
    }

    /// Refuses unknown keywords (for schemas the project authors itself). Without it, an
    /// unknown keyword close to a known one (`minLenght`) is a warning naming the keyword
    /// probably meant.
    pub fn strict(&mut self, strict: bool) -> &mut Self {
        self.options.strict = strict;
        self
    }

    /// Run-time limits compiled into the validators (evaluation budget, depth).
    pub fn limits(&mut self, limits: Limits) -> &mut Self {
        self.options.limits = limits;
        self
    }

    /// Deepest nesting of subschemas allowed in a document.
    pub fn max_schema_depth(&mut self, depth: usize) -> &mut Self {
        self.options.max_schema_depth = depth;
        self
    }

    /// Most subschemas allowed in one compiled schema.
    pub fn max_subschemas(&mut self, count: usize) -> &mut Self {
        self.options.max_subschemas = count;
        self
    }

    /// The path generated code names the runtime by (default `::schemac_runtime`; set it
    /// when the dependency is renamed or re-exported).
    pub fn runtime_path(&mut self, path: &str) -> &mut Self {
        self.runtime_path = path.to_string();
        self
    }

    /// Where [`Builder::compile`] writes (default: the `OUT_DIR` environment variable).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The output file's name (default `schemac.rs`; include another name with
    /// `include_validators!("name.rs")`).
    pub fn out_file(&mut self, name: &str) -> &mut Self {
        self.out_file = name.to_string();
        self
    }

    /// Whether modules get `validate` (errors with locations) besides `is_valid` / `check`
    /// (default `true`). Without it each module's `Validator` implements only
    /// `schemac_runtime::Check`, and the generated code is about half the size: for
    /// embedded targets and servers that only need a verdict.
    pub fn validate(&mut self, validate: bool) -> &mut Self {
        self.validate = validate;
        self
    }

    /// Whether modules get `evaluate` besides `validate` (default `false`): the errors and,
    /// for a valid instance, the annotations (meta-data, `format`, content and unknown
    /// keywords of the subschemas that passed), with their locations. Without it the
    /// generated code holds no annotations and does no annotation bookkeeping. Implies
    /// [`Builder::validate`]`(true)`.
    pub fn evaluate(&mut self, evaluate: bool) -> &mut Self {
        self.evaluate = evaluate;
        self
    }

    /// Whether modules get `apply_defaults(&mut Value) -> bool` (default `false`), which
    /// inserts the `default` of every missing property whose subschema applies for
    /// certain (`properties`, through `$ref` and `allOf`; never under `anyOf`, `oneOf`,
    /// `not`, `if` / `then` / `else` or `dependentSchemas`; the first default in schema
    /// order wins), at every depth validation reaches; the module's `Validator` answers
    /// `Validate::apply_defaults` with it. For arguments already validated: a server fills
    /// in what the caller left out before its handler reads them.
    pub fn defaults(&mut self, defaults: bool) -> &mut Self {
        self.options.defaults = defaults;
        self
    }

    /// Whether every module gets a `SCHEMA` constant with the schema's text (default
    /// `false`). Modules of [`Builder::mcp_tools`] always have it (a server lists its
    /// tools with it).
    pub fn schema_text(&mut self, schema_text: bool) -> &mut Self {
        self.schema_text = schema_text;
        self
    }

    /// Compiles every schema and returns the generated source, without writing or printing.
    pub fn generate(&self) -> Result<Generated, Error> {
        let entries = driver::Entries::new(self.validate, self.evaluate);
        let mut options = entries.compile_options(self.options.clone());
        for name in self.formats.keys() {
            if !options.custom_formats.contains(name) {
                options.custom_formats.push(name.clone());
            }
        }
        for name in self.keywords.keys() {
            if !options.custom_keywords.contains(name) {
                options.custom_keywords.push(name.clone());
            }
        }
        if !self.mcp_tools.is_empty() {
            // MCP's dialect rules, for every schema of this builder.
            options = schemac::mcp::options(options);
        }
        let mut compiler = Compiler::new(options);
        let mut files = Files::default();
        let mut errors = Errors::default();
        for (uri, path) in &self.documents {
            errors.add(driver::add_document(&mut compiler, &mut files, uri, path));
        }
        let mut units = Units::new().schema_text(self.schema_text);
        for (module, path) in &self.schemas {
            errors.add(units.add_file(&compiler, &mut files, Some(module), path));
        }
        for dir in &self.dirs {
            errors.add_all(units.add_dir(&compiler, &mut files, dir));
        }
        for path in &self.mcp_tools {
            errors.add_all(units.add_mcp_tools(&compiler, &mut files, path));
        }
        errors.result()?;
        let emit_options = EmitOptions {
            runtime_path: self.runtime_path.clone(),
            custom_formats: self.formats.clone(),
            custom_keywords: self.keywords.clone(),
            validate: entries.validate(),
            evaluate: entries.evaluate(),
        };
        let code = emit::generate(&units.emit_units(), &emit_options).map_err(Error::Emit)?;
        let warnings = units
            .compiled()
            .iter()
            .flat_map(|unit| &unit.program.warnings)
            .map(|w| w.to_string())
            .collect();
        Ok(Generated {
            code,
            files_read: files.read,
            warnings,
        })
    }

    /// Compiles every schema and writes the validators to `OUT_DIR/schemac.rs` (or the
    /// configured place), for `include_validators!`. Prints `cargo:rerun-if-changed` for
    /// every file read and `cargo:warning` for every warning; on error, every error of
    /// every input is returned together ([`Error::Inputs`]: unreadable files, module name
    /// collisions, tool-list entries that are not tools and every schema's compile errors),
    /// each naming its file, and compile errors their JSON pointer and keyword.
    pub fn compile(&self) -> Result<(), Error> {
        let result = self.generate();
        // Rerun when any input changes, even after a failure.
        let mut watched: Vec<&PathBuf> = self.schemas.iter().map(|(_, p)| p).collect();
        watched.extend(self.dirs.iter());
        watched.extend(self.mcp_tools.iter());
        watched.extend(self.documents.iter().map(|(_, p)| p));
        for path in &watched {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let generated = result?;
        for path in &generated.files_read {
            if !watched.contains(&path) {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        for warning in &generated.warnings {
            println!("cargo:warning={}", warning.replace('\n', " "));
        }
        let dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let path = dir.join(&self.out_file);
        write_if_changed(&path, generated.code.as_bytes())
    }
}

/// The result of [`Builder::generate`].
#[derive(Debug, Clone)]
pub struct Generated {
    /// The generated Rust source.
    pub code: String,
    /// Every file and directory read.
    pub files_read: Vec<PathBuf>,
    /// Compile warnings, one line each (`file#pointer (keyword): warning: message`).
    pub warnings: Vec<String>,
}

/// Writes `bytes` to `path` unless it already holds exactly them (so that a build that
/// changes nothing does not recompile the crate).
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The errors of [`Builder::generate`]'s inputs, every one of them.
#[derive(Default)]
struct Errors(Vec<InputError>);

impl Errors {
    /// Keeps `result`'s error, if any.
    fn add<T>(&mut self, result: Result<T, InputError>) {
        self.0.extend(result.err());
    }

    /// Keeps every error of `result`.
    fn add_all(&mut self, result: Result<(), Vec<InputError>>) {
        self.0.extend(result.err().into_iter().flatten());
    }

    /// `Ok` when no input failed, else every error.
    fn result(self) -> Result<(), Error> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Error::Inputs(self.0))
        }
    }
}

/// Why the validators could not be generated.
///
/// `Debug` prints the same text as `Display`, so that a build script's
/// `fn main() -> Result<(), schemac_build::Error>` shows every error readably.
#[non_exhaustive]
pub enum Error {
    /// The output file could not be written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Inputs could not be read, named or compiled: every problem of every input at once,
    /// in the order the inputs were given (documents, schemas, directories, tool lists) —
    /// a file that cannot be read or is not JSON, a module name that cannot be made a Rust
    /// identifier, two schemas that would generate the same module, an entry of a tool
    /// list that is not a tool, and every compile error of every schema. Each names its
    /// file; compile errors also the JSON pointer and the keyword.
    Inputs(Vec<InputError>),
    /// The Rust backend refused the input.
    Emit(emit::EmitError),
    /// `OUT_DIR` is not set (not running under cargo) and no `out_dir` was given.
    NoOutDir,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => {
                write!(f, "{}: {source}", Escaped(&path.display().to_string()))
            }
            Error::Inputs(inputs) => {
                let count = |input: &InputError| match input {
                    InputError::Compile(errors) => errors.len(),
                    _ => 1,
                };
                write!(f, "{} error(s):", inputs.iter().map(count).sum::<usize>())?;
                for input in inputs {
                    match input {
                        InputError::Compile(errors) => {
                            for e in errors {
                                write!(f, "\n  {e}")?;
                            }
                        }
                        InputError::Collision { .. } => write!(
                            f,
                            "\n  {input}; rename one or add it with `.schema(\"other_name\", path)`"
                        )?,
                        other => write!(f, "\n  {other}")?,
                    }
                }
                Ok(())
            }
            Error::Emit(e) => write!(f, "{e}"),
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: call compile() from a build script or set out_dir()",
            ),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Emit(e) => Some(e),
            _ => None,
        }
    }
}
