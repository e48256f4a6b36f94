//! The command line's arguments (clap).

use clap::{Args, Parser, Subcommand, ValueEnum};
use schemac::{Dialect, RefPolicy};
use std::path::PathBuf;

/// Check JSON Schemas (2020-12, 2019-09, draft-07, draft-06, draft-04) and validate JSON instances against them.
///
/// Exit status: 0 all valid (or all schemas compile), 1 some instance invalid, 2 a schema,
/// usage or I/O error, 3 none invalid but some incomplete.
#[derive(Debug, Parser)]
#[command(name = "schemac", version)]
pub struct Cli {
    /// Options shared by every command.
    #[command(flatten)]
    pub shared: SharedOptions,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile each schema; exit 0 when every one compiles, 2 otherwise (errors and
    /// warnings on stderr).
    Check {
        /// Schema files; each that compiles gets a line `PATH: compiles` on stdout.
        #[arg(required_unless_present = "tools", value_name = "SCHEMA")]
        schemas: Vec<PathBuf>,
        /// An MCP tool list (a `tools/list` result, `{"tools": [...]}`, or an array of
        /// tools), checked under MCP's rules (2020-12 or draft-07, an object `inputSchema`,
        /// unique names): every tool's `inputSchema` and `outputSchema`, a line per tool.
        #[arg(long, value_name = "TOOLS")]
        tools: Option<PathBuf>,
    },
    /// Validate instances against a schema: one line per instance on stdout,
    /// `PATH: valid`, `PATH: invalid` (errors indented below) or
    /// `PATH: incomplete (REASON)`.
    #[command(
        override_usage = "schemac validate [OPTIONS] SCHEMA INSTANCE...\n       \
        schemac validate [OPTIONS] --tools TOOLS (--tool NAME | --output-of NAME) INSTANCE..."
    )]
    Validate {
        /// The schema file, then instance files (`-` reads standard input); with `--tools`,
        /// instance files only.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Take the schema from an MCP tool list (as `check --tools` reads it, under MCP's
        /// rules) instead of a schema file: a tool's `inputSchema` (`--tool`) or
        /// `outputSchema` (`--output-of`).
        #[arg(long, value_name = "TOOLS", requires = "which_tool")]
        tools: Option<PathBuf>,
        /// Validate tool calls' arguments against tool NAME's `inputSchema`.
        #[arg(long, value_name = "NAME", group = "which_tool", requires = "tools")]
        tool: Option<String>,
        /// Validate structured content (a result's `structuredContent`) against tool
        /// NAME's `outputSchema`.
        #[arg(long, value_name = "NAME", group = "which_tool", requires = "tools")]
        output_of: Option<String>,
        /// Treat each non-empty line of each instance file as one instance (named
        /// `PATH:LINE`).
        #[arg(long)]
        jsonl: bool,
        /// `text`, or one JSON object per instance in a 2020-12 output format (`flag`,
        /// `basic` — also called `json` —, `detailed`, `verbose`), plus
        /// `"instance": PATH`; `basic`, `detailed` and `verbose` list the annotations of a
        /// valid instance.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        output: OutputFormat,
    },
    // The doc comment is the command's help text: its URL stays bare there.
    #[allow(rustdoc::bare_urls)]
    /// Serve Bowtie (https://bowtie.report): its IHOP protocol, one JSON command per line
    /// on standard input (`start`, `dialect`, `run`, `stop`), one JSON response per line on
    /// standard output. Exit 0 at `stop` or the end of the input, 2 on a line that is not
    /// a command.
    Bowtie,
    /// Compile schemas into Rust validators: one module per schema, named after its file
    /// (`aws-cdk.json` → `aws_cdk`), written to FILE (`-` for standard output) for
    /// `include!`. Exit 0, or 2 on any schema or I/O error (nothing is written then).
    Generate {
        /// Schema files.
        #[arg(required = true, value_name = "SCHEMA")]
        schemas: Vec<PathBuf>,
        /// The Rust file to write.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// The path generated code names the runtime crate by.
        #[arg(long, value_name = "PATH", default_value = "::schemac_runtime")]
        runtime_path: String,
        /// Generate `is_valid` / `check` only: no `validate` (error-collecting) code.
        #[arg(long)]
        check_only: bool,
    },
}

/// Options that every command takes.
#[derive(Debug, Args)]
pub struct SharedOptions {
    /// Register an offline document that references may reach (repeatable). Split at the
    /// first `=` after the URI's scheme. Nothing is ever fetched.
    #[arg(
        long = "document",
        value_name = "URI=PATH",
        value_parser = parse_document,
        global = true
    )]
    pub documents: Vec<DocumentArg>,
    /// A reference to a document that is not registered: a compile error, or a warning
    /// (validation that reaches it is then incomplete, exit 3).
    #[arg(long, value_enum, default_value_t = RefsArg::Error, global = true)]
    pub refs: RefsArg,
    /// Make `format` an assertion (default: annotation only).
    #[arg(long, global = true)]
    pub assert_format: bool,
    /// Make draft-07's `contentEncoding: base64` and `contentMediaType: application/json`
    /// assertions (default: annotations only; 2019-09 and 2020-12 keep them annotations).
    #[arg(long, global = true)]
    pub assert_content: bool,
    /// The dialect of schemas without `$schema`.
    #[arg(long, value_enum, default_value_t = DialectArg::V2020_12, global = true)]
    pub dialect: DialectArg,
    /// The largest input read, in bytes: a schema, a `--document`, an instance, or one
    /// line under `--jsonl`. A larger one is an error (exit 2) naming the limit.
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = crate::instances::DEFAULT_MAX_INPUT_SIZE,
        global = true
    )]
    pub max_input_size: u64,
    /// How many errors are listed per instance; past it they are counted ("... and N
    /// more", `"errorsOmitted": N` in JSON output).
    #[arg(
        long,
        value_name = "N",
        default_value_t = schemac_runtime::Limits::DEFAULT_MAX_ERRORS,
        global = true
    )]
    pub max_errors: usize,
}

/// `--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable lines.
    Text,
    /// JSON lines in the 2020-12 flag output format: the verdict only.
    Flag,
    /// JSON lines in the 2020-12 basic output format: a flat list of units.
    #[value(alias = "json")]
    Basic,
    /// JSON lines in the 2020-12 detailed output format: units nested by subschema.
    Detailed,
    /// JSON lines in the 2020-12 verbose output format: every subschema evaluated listed.
    Verbose,
}

impl OutputFormat {
    /// The 2020-12 output format, or `None` for text.
    pub fn format(self) -> Option<schemac_runtime::output::Format> {
        use schemac_runtime::output::Format;
        match self {
            OutputFormat::Text => None,
            OutputFormat::Flag => Some(Format::Flag),
            OutputFormat::Basic => Some(Format::Basic),
            OutputFormat::Detailed => Some(Format::Detailed),
            OutputFormat::Verbose => Some(Format::Verbose),
        }
    }

    /// Whether the format lists annotations (so that validation collects them).
    pub fn annotates(self) -> bool {
        matches!(
            self,
            OutputFormat::Basic | OutputFormat::Detailed | OutputFormat::Verbose
        )
    }
}

/// `--refs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RefsArg {
    /// A compile error (`RemoteRef`).
    Error,
    /// A warning; validation reaching the reference is incomplete.
    Warn,
}

impl From<RefsArg> for RefPolicy {
    fn from(arg: RefsArg) -> RefPolicy {
        match arg {
            RefsArg::Error => RefPolicy::Error,
            RefsArg::Warn => RefPolicy::Warn,
        }
    }
}

/// `--dialect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// JSON Schema 2020-12.
    #[value(name = "2020-12")]
    V2020_12,
    /// JSON Schema 2019-09.
    #[value(name = "2019-09")]
    V2019_09,
    /// JSON Schema draft-07.
    #[value(name = "draft7")]
    Draft7,
    /// JSON Schema draft-06.
    #[value(name = "draft6")]
    Draft6,
    /// JSON Schema draft-04.
    #[value(name = "draft4")]
    Draft4,
}

impl From<DialectArg> for Dialect {
    fn from(arg: DialectArg) -> Dialect {
        match arg {
            DialectArg::V2020_12 => Dialect::Draft2020_12,
            DialectArg::V2019_09 => Dialect::Draft2019_09,
            DialectArg::Draft7 => Dialect::Draft7,
            DialectArg::Draft6 => Dialect::Draft6,
            DialectArg::Draft4 => Dialect::Draft4,
        }
    }
}

/// One `--document URI=PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentArg {
    /// The absolute URI the document is registered under.
    pub uri: String,
    /// The file holding it.
    pub path: PathBuf,
}

/// Splits `URI=PATH` at the first `=` after the URI's scheme (`scheme:`), so that neither
/// the scheme check nor the path is confused by an `=` elsewhere.
pub fn parse_document(arg: &str) -> Result<DocumentArg, String> {
    let colon = arg
        .find(':')
        .ok_or_else(|| format!("`{arg}`: expected URI=PATH with an absolute URI (scheme:...)"))?;
    let scheme = &arg[..colon];
    if !schemac::load::uri::is_scheme(scheme) {
        return Err(format!(
            "`{arg}`: expected URI=PATH with an absolute URI; `{scheme}` is not a URI scheme"
        ));
    }
    let eq = arg[colon..]
        .find('=')
        .map(|i| colon + i)
        .ok_or_else(|| format!("`{arg}`: expected URI=PATH (no `=` after the URI)"))?;
    let (uri, path) = (&arg[..eq], &arg[eq + 1..]);
    if path.is_empty() {
        return Err(format!("`{arg}`: the PATH after `=` is empty"));
    }
    Ok(DocumentArg {
        uri: uri.to_string(),
        path: PathBuf::from(path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_splits_at_the_first_equals_after_the_scheme() {
        let doc = parse_document("https://example.com/s.json?a=b=./x.json").unwrap();
        assert_eq!(doc.uri, "https://example.com/s.json?a");
        assert_eq!(doc.path, PathBuf::from("b=./x.json"));
        let doc = parse_document("urn:example:common=schemas/a=b.json").unwrap();
        assert_eq!(doc.uri, "urn:example:common");
        assert_eq!(doc.path, PathBuf::from("schemas/a=b.json"));
    }

    #[test]
    fn document_requires_a_scheme_an_equals_and_a_path() {
        assert!(parse_document("common.json=x.json")
            .unwrap_err()
            .contains("absolute URI"));
        assert!(parse_document("a=b:c=x.json")
            .unwrap_err()
            .contains("not a URI scheme"));
        assert!(parse_document("https://example.com/a.json")
            .unwrap_err()
            .contains("no `=`"));
        assert!(parse_document("https://example.com/a.json=")
            .unwrap_err()
            .contains("empty"));
    }

    #[test]
    fn every_dialect_has_a_command_line_name() {
        for dialect in Dialect::ALL {
            let arg = DialectArg::from_str(dialect.name(), false)
                .unwrap_or_else(|e| panic!("--dialect {}: {e}", dialect.name()));
            assert_eq!(Dialect::from(arg), dialect);
        }
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
