//! The `schemac` command line: check schemas and validate instances with the interpreter.
//!
//! ```text
//! schemac check SCHEMA...
//! schemac validate SCHEMA INSTANCE... [--jsonl] [--output text|json]
//! schemac generate SCHEMA... -o FILE [--runtime-path PATH] [--check-only]
//! shared: --document URI=PATH  --refs error|warn  --assert-format  --dialect 2020-12|draft7
//! ```
//!
//! Exit codes, relied on by scripts: 0 all schemas compile / all instances valid; 1 some
//! instance invalid; 2 a schema, usage or I/O error (an instance that is not JSON is an
//! I/O error); 3 no instance invalid but some incomplete (an unresolved reference reached
//! under `--refs warn`, or a run-time limit hit). Compile errors and warnings go to
//! stderr; validation results to stdout.

mod args;
mod instances;

use args::{Cli, Command, OutputFormat, SharedOptions};
use clap::Parser;
use instances::Instance;
use schemac::interp::Interpreter;
use schemac::{Compiler, Options};
use schemac_runtime::{Report, Validate, Verdict};
use serde_json::Value;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

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
    let status = match &cli.command {
        Command::Check { schemas } => check(&cli.shared, schemas),
        Command::Validate {
            schema,
            instances,
            jsonl,
            output,
        } => validate(&cli.shared, schema, instances, *jsonl, *output),
        Command::Generate {
            schemas,
            output,
            runtime_path,
            check_only,
        } => generate(&cli.shared, schemas, output, runtime_path, !check_only),
    };
    ExitCode::from(status.code())
}

/// A compiler with the shared options and every `--document` registered; on failure the
/// message has been printed.
fn compiler(shared: &SharedOptions) -> Result<Compiler, ()> {
    let options = Options {
        default_dialect: shared.dialect.into(),
        ref_policy: shared.refs.into(),
        assert_format: shared.assert_format,
        assert_content: shared.assert_content,
        ..Options::default()
    };
    let mut compiler = Compiler::new(options);
    let mut failed = false;
    for document in &shared.documents {
        let result = read_json(&document.path).and_then(|value| {
            compiler
                .add_document(&document.uri, value)
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        if let Err(message) = result {
            eprintln!("schemac: --document {}: {message}", document.uri);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(compiler)
    }
}

/// Reads and parses a JSON file; the error names the file.
fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// Reads and compiles one schema, printing its errors and warnings to stderr.
fn compile(compiler: &Compiler, path: &Path) -> Option<schemac::ir::Program> {
    let schema = match read_json(path) {
        Ok(schema) => schema,
        Err(message) => {
            eprintln!("schemac: {message}");
            return None;
        }
    };
    match compiler.compile_named(&path.display().to_string(), &schema) {
        Ok(program) => {
            for warning in &program.warnings {
                eprintln!("{warning}");
            }
            Some(program)
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("{error}");
            }
            None
        }
    }
}

/// `schemac check SCHEMA...`: 0 when every schema compiles, else 2.
fn check(shared: &SharedOptions, schemas: &[std::path::PathBuf]) -> Status {
    let Ok(compiler) = compiler(shared) else {
        return Status::Error;
    };
    let failed = schemas
        .iter()
        .filter(|path| compile(&compiler, path).is_none())
        .count();
    if failed == 0 {
        Status::Ok
    } else {
        eprintln!(
            "schemac: {failed} of {} schema(s) failed to compile",
            schemas.len()
        );
        Status::Error
    }
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
    let Ok(compiler) = compiler(shared) else {
        return Status::Error;
    };
    let mut failed = false;
    let mut compiled = Vec::new();
    let mut modules: std::collections::BTreeMap<String, &Path> = Default::default();
    for path in schemas {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(module) = emit::module_name(&stem) else {
            eprintln!(
                "schemac: {}: no Rust module name can be made from the file name",
                path.display()
            );
            failed = true;
            continue;
        };
        if let Some(first) = modules.insert(module.clone(), path) {
            eprintln!(
                "schemac: {} and {} would both generate module `{module}`",
                first.display(),
                path.display()
            );
            failed = true;
            continue;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("schemac: cannot read {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        match compile(&compiler, path) {
            Some(program) => compiled.push((module, path.display().to_string(), text, program)),
            None => failed = true,
        }
    }
    if failed {
        eprintln!("schemac: nothing written");
        return Status::Error;
    }
    let units: Vec<emit::Unit<'_>> = compiled
        .iter()
        .map(|(module, source, text, program)| emit::Unit {
            module,
            source,
            file: source,
            schema_text: Some(text),
            program,
        })
        .collect();
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
            eprintln!("schemac: cannot write {}: {e}", output.display());
            Status::Error
        }
    }
}

/// `schemac validate SCHEMA INSTANCE...`.
fn validate(
    shared: &SharedOptions,
    schema: &Path,
    sources: &[std::path::PathBuf],
    jsonl: bool,
    output: OutputFormat,
) -> Status {
    let Ok(compiler) = compiler(shared) else {
        return Status::Error;
    };
    let Some(program) = compile(&compiler, schema) else {
        return Status::Error;
    };
    let validator = Interpreter::new(program);
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut status = Status::Ok;
    for source in sources {
        for instance in instances::read(source, jsonl) {
            let instance = match instance {
                Ok(instance) => instance,
                Err(message) => {
                    eprintln!("schemac: {message}");
                    status = status.worst(Status::Error);
                    continue;
                }
            };
            let report = validator.validate(&instance.value);
            status = status.worst(match report.verdict {
                Verdict::Valid => Status::Ok,
                Verdict::Invalid => Status::Invalid,
                Verdict::Incomplete(_) => Status::Incomplete,
            });
            let written = match output {
                OutputFormat::Text => write_text(&mut stdout, &instance, &report),
                OutputFormat::Json => write_json(&mut stdout, &instance, &report),
            };
            if written.is_err() {
                // stdout is gone (a closed pipe): nothing more can be reported.
                return Status::Error;
            }
        }
    }
    if stdout.flush().is_err() {
        return Status::Error;
    }
    status
}

/// `PATH: valid`, `PATH: invalid` and its errors indented, or `PATH: incomplete (REASON)`.
fn write_text(out: &mut impl Write, instance: &Instance, report: &Report) -> io::Result<()> {
    match &report.verdict {
        Verdict::Valid => writeln!(out, "{}: valid", instance.name),
        Verdict::Invalid => {
            writeln!(out, "{}: invalid", instance.name)?;
            for error in &report.errors {
                writeln!(out, "  {error}")?;
            }
            Ok(())
        }
        Verdict::Incomplete(reason) => writeln!(out, "{}: incomplete ({reason})", instance.name),
    }
}

/// One line of JSON: the 2020-12 basic output format plus `"instance": PATH`.
fn write_json(out: &mut impl Write, instance: &Instance, report: &Report) -> io::Result<()> {
    let mut unit = schemac_runtime::output::basic(report);
    if let Value::Object(map) = &mut unit {
        map.insert("instance".into(), Value::String(instance.name.clone()));
    }
    writeln!(out, "{unit}")
}
