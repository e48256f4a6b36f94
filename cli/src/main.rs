//! The `schemac` command line: check schemas and validate instances with the interpreter.
//!
//! ```text
//! schemac check SCHEMA...  |  schemac check --tools TOOLS
//! schemac validate SCHEMA INSTANCE... [--jsonl] [--output text|flag|basic|detailed|verbose]
//! schemac validate --tools TOOLS (--tool NAME | --output-of NAME) INSTANCE...
//! schemac generate SCHEMA... -o FILE [--runtime-path PATH] [--check-only]
//! schemac bowtie                     (Bowtie's IHOP protocol on stdin/stdout)
//! shared: --document URI=PATH  --refs error|warn  --assert-format  --dialect 2020-12|draft7
//!         --max-input-size BYTES  --max-errors N
//! ```
//!
//! Every input is read under `--max-input-size` (a `--jsonl` input one line at a time),
//! nested at most [`instances::MAX_NESTING`] deep, and the work runs on a thread with a
//! stack of [`STACK_SIZE`] bytes, which that nesting fits in.
//!
//! Exit codes, relied on by scripts: 0 all schemas compile / all instances valid; 1 some
//! instance invalid; 2 a schema, usage or I/O error (an instance that is not JSON is an
//! I/O error); 3 no instance invalid but some incomplete (an unresolved reference reached
//! under `--refs warn`, or a run-time limit hit). Compile errors and warnings go to
//! stderr; validation results to stdout.

mod args;
mod bowtie;
mod instances;
mod tools;

use args::{Cli, Command, OutputFormat, SharedOptions};
use clap::Parser;
use instances::Instance;
use schemac::driver::{self, InputError, Units};
use schemac::interp::Interpreter;
use schemac::ir::Program;
use schemac::mcp::SchemaRole;
use schemac::{CompileError, Compiler, Dialect, Options};
use schemac_runtime::document::{compact, SyntaxErrorKind};
use schemac_runtime::error::Escaped;
use schemac_runtime::json::drop_deep;
use schemac_runtime::output::{self, Format};
use schemac_runtime::{Evaluate, Evaluation};
use schemac_runtime::{Limits, Report, Validate, Verdict};
use serde_json::Value;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// The stack of the thread the CLI works on: parsing and dropping values
/// [`instances::MAX_NESTING`] deep use a fraction of it, and validation runs with an
/// instance depth bound of [`instances::MAX_NESTING`] and a stack guard 32 times the
/// default (which fits 2 MiB).
pub const STACK_SIZE: usize = 64 * 1024 * 1024;

/// The exit statuses of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    /// Everything compiled / every instance valid.
    Ok,
    /// No instance invalid, some incomplete.
    Incomplete,
    /// Some instance invalid.
    Invalid,
    /// A schema, usage or I/O error.
    Error,
}

impl Status {
    fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Invalid => 1,
            Status::Error => 2,
            Status::Incomplete => 3,
        }
    }

    /// The status of a run with both outcomes: an error outranks an invalid instance,
    /// which outranks an incomplete one (the variants are declared in that order).
    fn worst(self, other: Status) -> Status {
        self.max(other)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || run(&cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(status)) => ExitCode::from(status.code()),
        Ok(Err(_)) => ExitCode::from(Status::Error.code()),
        Err(e) => {
            eprintln!("schemac: cannot start the worker thread: {e}");
            ExitCode::from(Status::Error.code())
        }
    }
}

fn run(cli: &Cli) -> Status {
    match &cli.command {
        Command::Check { schemas, tools } => check(&cli.shared, schemas, tools.as_deref()),
        Command::Validate {
            files,
            tools,
            tool,
            output_of,
            jsonl,
            output,
        } => {
            let (schema, instances) = match (tools, tool, output_of) {
                (Some(list), Some(name), _) => {
                    (Schema::Tool(list, name, SchemaRole::Input), &files[..])
                }
                (Some(list), _, Some(name)) => {
                    (Schema::Tool(list, name, SchemaRole::Output), &files[..])
                }
                _ => match &files[..] {
                    [schema, instances @ ..] if !instances.is_empty() => {
                        (Schema::File(schema), instances)
                    }
                    _ => {
                        eprintln!(
                            "schemac: validate needs a SCHEMA and at least one INSTANCE \
                             (or --tools TOOLS with --tool NAME or --output-of NAME)"
                        );
                        return Status::Error;
                    }
                },
            };
            validate(&cli.shared, schema, instances, *jsonl, *output)
        }
        Command::Generate {
            schemas,
            output,
            runtime_path,
            check_only,
        } => generate(&cli.shared, schemas, output, runtime_path, !check_only),
        Command::Bowtie => bowtie::serve(&cli.shared),
    }
}

/// Where `validate` takes its schema from.
enum Schema<'a> {
    /// A schema file.
    File(&'a Path),
    /// A tool's schema in an MCP tool list: the list, the tool's name, which schema.
    Tool(&'a Path, &'a str, SchemaRole),
}

/// A compiler with the shared options, `dialect` for schemas without `$schema` (keeping
/// annotations when `annotations`, under MCP's dialect rules when `mcp`) and every
/// `--document` registered; on failure the message has been printed.
fn compiler(
    shared: &SharedOptions,
    dialect: Dialect,
    annotations: bool,
    mcp: bool,
) -> Result<Compiler, ()> {
    let options = Options {
        annotations,
        default_dialect: dialect,
        ref_policy: shared.refs.into(),
        assert_format: shared.assert_format,
        assert_content: shared.assert_content,
        limits: Limits {
            max_errors: shared.max_errors,
            // As deep as an instance may be read, with a stack guard for this thread's
            // stack (the default fits 2 MiB).
            max_depth: instances::MAX_NESTING as u32,
            max_nesting: Limits::DEFAULT_MAX_NESTING * (STACK_SIZE / (2 * 1024 * 1024)) as u32,
            ..Limits::DEFAULT
        },
        ..Options::default()
    };
    let options = if mcp {
        schemac::mcp::options(options)
    } else {
        options
    };
    let mut compiler = Compiler::new(options);
    let mut reader = instances::Limited(shared.max_input_size);
    let mut failed = false;
    for document in &shared.documents {
        let added = driver::add_document(&mut compiler, &mut reader, &document.uri, &document.path);
        if let Err(error) = added {
            eprintln!("schemac: --document {}: {error}", Escaped(&document.uri));
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(compiler)
    }
}

/// Reads and compiles one schema, printing its errors and warnings to stderr (among them,
/// the compiler's warning naming `--tools` when the file looks like an MCP tool or tool
/// list, which as a schema would constrain nothing).
fn compile(compiler: &Compiler, shared: &SharedOptions, path: &Path) -> Option<Program> {
    let schema = match instances::read_json(path, shared.max_input_size) {
        Ok(schema) => schema,
        Err(message) => {
            eprintln!("schemac: {message}");
            return None;
        }
    };
    let compiled = compiler.compile_named(&path.display().to_string(), &schema);
    drop_deep(schema);
    report_compiled(compiled)
}

/// The compiled schema, its warnings printed to stderr; or `None`, its errors printed.
fn report_compiled(compiled: Result<Program, Vec<CompileError>>) -> Option<Program> {
    match compiled {
        Ok(program) => {
            print_warnings(&program);
            Some(program)
        }
        Err(errors) => {
            print_input_error(&InputError::Compile(errors));
            None
        }
    }
}

/// Prints a compiled schema's warnings to stderr.
fn print_warnings(program: &Program) {
    for warning in &program.warnings {
        eprintln!("{warning}");
    }
}

/// Prints why an input gave no module to stderr: compile errors one a line, as the
/// compiler writes them; anything else after `schemac: `.
fn print_input_error(error: &InputError) {
    match error {
        InputError::Compile(errors) => {
            for error in errors {
                eprintln!("{error}");
            }
        }
        other => eprintln!("schemac: {other}"),
    }
}

/// `schemac check SCHEMA... [--tools TOOLS]`: a line `PATH: compiles` per schema that
/// compiles, a line per tool of TOOLS; 0 when everything compiles, else 2.
fn check(
    shared: &SharedOptions,
    schemas: &[std::path::PathBuf],
    tool_list: Option<&Path>,
) -> Status {
    let mut status = Status::Ok;
    if !schemas.is_empty() {
        let Ok(compiler) = compiler(shared, shared.dialect.into(), false, false) else {
            return Status::Error;
        };
        let mut failed = 0;
        for path in schemas {
            match compile(&compiler, shared, path) {
                Some(_) => println!("{}: compiles", instances::display(path)),
                None => failed += 1,
            }
        }
        if failed > 0 {
            eprintln!(
                "schemac: {failed} of {} schema(s) failed to compile",
                schemas.len()
            );
            status = Status::Error;
        }
    }
    if let Some(list) = tool_list {
        let Ok(compiler) = compiler(shared, shared.dialect.into(), false, true) else {
            return Status::Error;
        };
        status = status.worst(tools::check(&compiler, shared, list));
    }
    status
}

/// `schemac generate SCHEMA... -o FILE`: every schema compiled into one Rust file, one
/// module per schema named after the file; nothing is written unless all compile.
fn generate(
    shared: &SharedOptions,
    schemas: &[std::path::PathBuf],
    output: &Path,
    runtime_path: &str,
    validate: bool,
) -> Status {
    use schemac::emit;
    let Ok(compiler) = compiler(shared, shared.dialect.into(), false, false) else {
        return Status::Error;
    };
    let mut reader = instances::Limited(shared.max_input_size);
    let mut units = Units::new().schema_text(true);
    let mut failed = false;
    for path in schemas {
        match units.add_file(&compiler, &mut reader, None, path) {
            Ok(unit) => print_warnings(&unit.program),
            Err(error) => {
                print_input_error(&error);
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("schemac: nothing written");
        return Status::Error;
    }
    let units = units.emit_units();
    let options = emit::EmitOptions {
        runtime_path: runtime_path.to_string(),
        validate,
        ..emit::EmitOptions::default()
    };
    let code = match emit::generate(&units, &options) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("schemac: {e}");
            return Status::Error;
        }
    };
    let written = if output == Path::new("-") {
        io::stdout().lock().write_all(code.as_bytes())
    } else {
        std::fs::write(output, code.as_bytes())
    };
    match written {
        Ok(()) => Status::Ok,
        Err(e) => {
            eprintln!("schemac: cannot write {}: {e}", instances::display(output));
            Status::Error
        }
    }
}

/// `schemac validate SCHEMA INSTANCE...`, or `--tools TOOLS --tool NAME INSTANCE...`.
fn validate(
    shared: &SharedOptions,
    schema: Schema<'_>,
    sources: &[std::path::PathBuf],
    jsonl: bool,
    output: OutputFormat,
) -> Status {
    let mcp = matches!(schema, Schema::Tool(..));
    let Ok(compiler) = compiler(shared, shared.dialect.into(), output.annotates(), mcp) else {
        return Status::Error;
    };
    let program = match schema {
        Schema::File(path) => compile(&compiler, shared, path),
        Schema::Tool(list, name, role) => tools::program(&compiler, shared, list, name, role),
    };
    let Some(program) = program else {
        return Status::Error;
    };
    let validator = Interpreter::new(program);
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut status = Status::Ok;
    // Validates and reports one instance; `false` once nothing more can be reported.
    let mut each = |instance: Result<Instance, String>| -> bool {
        let instance = match instance {
            Ok(instance) => instance,
            Err(message) => {
                eprintln!("schemac: {message}");
                status = status.worst(Status::Error);
                return true;
            }
        };
        // Read into a document and validated in place, under the budget grown with the
        // input (`Limits::for_input`): a large input into the compact form, which takes
        // 8 bytes per array and object where the tape takes 12 per value and key.
        let text = &instance.text;
        let compact = (COMPACT_FROM..compact::Document::MAX_INPUT).contains(&text.len());
        let evaluation = match (output.annotates(), compact) {
            (true, false) => validator.evaluate_json(text),
            (true, true) => validator.evaluate_json_compact(text),
            (false, false) => validator.validate_json(text).map(without_annotations),
            (false, true) => validator
                .validate_json_compact(text)
                .map(without_annotations),
        };
        let evaluation = match evaluation {
            Ok(evaluation) => evaluation,
            Err(e) => {
                let what = match e.kind {
                    SyntaxErrorKind::TooLarge { .. } => "too large to read",
                    _ => "not JSON",
                };
                eprintln!("schemac: {}: {what}: {e}", Escaped(&instance.name));
                status = status.worst(Status::Error);
                return true;
            }
        };
        status = status.worst(match evaluation.report.verdict {
            Verdict::Valid => Status::Ok,
            Verdict::Invalid => Status::Invalid,
            Verdict::Incomplete(_) => Status::Incomplete,
        });
        let written = match output.format() {
            None => write_text(&mut stdout, &instance, &evaluation.report),
            Some(format) => write_json(&mut stdout, &instance, format, &evaluation),
        };
        // stdout is gone (a closed pipe): nothing more can be reported.
        written.is_ok()
    };
    for source in sources {
        let go_on = if jsonl {
            instances::for_each_line(source, shared.max_input_size, &mut each)
        } else {
            each(instances::read_instance(source, shared.max_input_size))
        };
        if !go_on {
            return Status::Error;
        }
    }
    if stdout.flush().is_err() {
        return Status::Error;
    }
    status
}

/// Inputs of this many bytes or more are read into the compact form
/// ([`compact::Document`]; those of [`compact::Document::MAX_INPUT`] or more into the tape,
/// which reads up to 4 GiB): memory then stays near the input's size (2.0 bytes per input
/// byte at the peak on an array of small objects, where the tape's is 5.6), and validation
/// reads strings, numbers and keys again from the text, which is slower. Below it the
/// tape's twelve bytes per value come to a few megabytes at most.
const COMPACT_FROM: usize = 1 << 20;

/// A report as an evaluation without annotations.
fn without_annotations(report: Report) -> Evaluation {
    Evaluation::new(report, Vec::new())
}

/// `PATH: valid`, `PATH: invalid` and its errors indented (those that explain a failed
/// `anyOf` / `oneOf` further, as `because` lines), or `PATH: incomplete (REASON)`.
/// Paths and locations that hold a control character, a quote or a backslash are written
/// as JSON strings ([`Escaped`]): no input can forge a line.
fn write_text(out: &mut impl Write, instance: &Instance, report: &Report) -> io::Result<()> {
    let name = Escaped(&instance.name);
    match &report.verdict {
        Verdict::Valid => writeln!(out, "{name}: valid"),
        Verdict::Invalid => {
            writeln!(out, "{name}: invalid")?;
            for error in &report.errors {
                writeln!(out, "  {}", error.line())?;
            }
            if report.errors_omitted > 0 {
                writeln!(
                    out,
                    "  ... and {} more error(s), not listed (--max-errors)",
                    report.errors_omitted
                )?;
            }
            Ok(())
        }
        Verdict::Incomplete(reason) => writeln!(out, "{name}: incomplete ({reason})"),
    }
}

/// One line of JSON: the 2020-12 output `format` plus `"instance": PATH`.
fn write_json(
    out: &mut impl Write,
    instance: &Instance,
    format: Format,
    evaluation: &Evaluation,
) -> io::Result<()> {
    let mut unit = output::evaluation(format, evaluation);
    if let Value::Object(map) = &mut unit {
        map.insert("instance".into(), Value::String(instance.name.clone()));
    }
    writeln!(out, "{unit}")
}
