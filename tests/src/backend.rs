//! The backends a suite case runs through.
//!
//! A backend turns one group's schema into a [`Validate`]; the runner then checks every
//! test of the group with it. The harness runs a list of backends (see
//! `tests/suite/main.rs`), each printing its own summary line per set, so that adding the
//! generated-code backend is one more entry in that list.

use crate::suite::{File, Group, SetSpec};
use schemac::interp::Interpreter;
use schemac::Compiler;
use schemac_runtime::{Evaluate, Validate};

/// Everything a backend may need to prepare one group.
#[derive(Clone, Copy)]
pub struct GroupContext<'a> {
    /// The set (its draft, name and options).
    pub spec: &'a SetSpec,
    /// The file the group is in.
    pub file: &'a File,
    /// The group: its description, index and schema.
    pub group: &'a Group,
    /// A compiler with the set's options and every offline document registered.
    pub compiler: &'a Compiler,
}

impl GroupContext<'_> {
    /// The name the schema goes by in compile errors: `<draft>/<set>/<file>#<group index>`.
    pub fn schema_name(&self) -> String {
        format!(
            "{}/{}/{}#{}",
            self.spec.draft, self.spec.name, self.file.name, self.group.index
        )
    }
}

/// What a backend made of a group's schema.
pub enum Prepared {
    /// A validator to run the group's tests through.
    Ready(Box<dyn Validate>),
    /// The schema could not be prepared: every test of the group fails with this reason.
    Failed(String),
    /// The backend does not run this group: every test is skipped with this reason (and
    /// listed as skipped).
    Skipped(String),
}

/// A way of validating suite cases.
pub trait Backend {
    /// The name shown in brackets in the summary line: `interpreted`.
    fn name(&self) -> &'static str;

    /// Prepares a validator for one group's schema.
    fn prepare(&self, ctx: &GroupContext<'_>) -> Prepared;
}

/// The interpreter: compile the schema to IR at run time and interpret it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Interpreted;

impl Backend for Interpreted {
    fn name(&self) -> &'static str {
        "interpreted"
    }

    fn prepare(&self, ctx: &GroupContext<'_>) -> Prepared {
        match ctx
            .compiler
            .compile_named(&ctx.schema_name(), &ctx.group.schema)
        {
            Ok(program) => match crate::custom::interpreter(program) {
                Ok(interpreter) => Prepared::Ready(Box::new(interpreter)),
                Err(refused) => Prepared::Failed(refused),
            },
            Err(errors) => Prepared::Failed(compile_error_text(&errors)),
        }
    }
}

/// One schema of the annotation or output tests, to prepare for `evaluate`.
pub struct ToPrepare<'a> {
    /// A compiler with the set's options (annotations kept) and the offline documents.
    pub compiler: &'a Compiler,
    /// The set's label: `draft2020-12 annotations`, `draft2020-12 output`.
    pub label: &'a str,
    /// The file the schema is in.
    pub file: &'a str,
    /// Its case's (group's) index in the file.
    pub index: usize,
    /// The schema.
    pub schema: &'a serde_json::Value,
}

impl ToPrepare<'_> {
    /// The name the schema goes by in compile errors: `<label>/<file>#<index>`.
    pub fn name(&self) -> String {
        format!("{}/{}#{}", self.label, self.file, self.index)
    }
}

/// A backend of the annotation and output tests: an [`Evaluate`] for a schema, or why not.
pub type Prepare<'a> = &'a dyn Fn(&ToPrepare<'_>) -> Result<Box<dyn Evaluate>, String>;

/// The interpreter's [`Prepare`]: compiles the schema and interprets it.
pub fn interpret(schema: &ToPrepare<'_>) -> Result<Box<dyn Evaluate>, String> {
    match schema.compiler.compile_named(&schema.name(), schema.schema) {
        Ok(program) => Ok(Box::new(Interpreter::new(program))),
        Err(errors) => Err(compile_error_text(&errors)),
    }
}

/// The generated code's [`Prepare`]: the module `build.rs` generated (with `evaluate`)
/// for the schema.
pub fn generated(schema: &ToPrepare<'_>) -> Result<Box<dyn Evaluate>, String> {
    if let Some(evaluator) =
        crate::generated::lookup_evaluator(schema.label, schema.file, schema.index)
    {
        return Ok(Box::new(evaluator));
    }
    match schema.compiler.compile_named(&schema.name(), schema.schema) {
        Ok(_) => Err("the schema compiles now but was not generated at build time".to_string()),
        Err(errors) => Err(compile_error_text(&errors)),
    }
}

/// How a case that does not compile fails: `compile error: ` and every error.
fn compile_error_text(errors: &[schemac::CompileError]) -> String {
    format!(
        "compile error: {}",
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// The Rust backend: the schema was compiled into Rust by `build.rs` and built into this
/// crate ([`crate::generated`]); the group's generated validator runs the cases.
#[derive(Debug, Clone, Copy, Default)]
pub struct Generated;

impl Backend for Generated {
    fn name(&self) -> &'static str {
        "generated"
    }

    fn prepare(&self, ctx: &GroupContext<'_>) -> Prepared {
        if let Some(validator) =
            crate::generated::lookup(&ctx.spec.label(), &ctx.file.name, ctx.group.index)
        {
            return Prepared::Ready(Box::new(validator));
        }
        if !crate::generated::DRAFTS.contains(&ctx.spec.draft) {
            return Prepared::Skipped(format!(
                "{} is not compiled into generated code (tests/build.rs DRAFTS)",
                ctx.spec.draft
            ));
        }
        // No module: the schema did not compile at build time. Report why, as the
        // interpreter's backend does.
        match ctx
            .compiler
            .compile_named(&ctx.schema_name(), &ctx.group.schema)
        {
            Ok(_) => Prepared::Failed(
                "the schema compiles now but was not generated at build time".to_string(),
            ),
            Err(errors) => Prepared::Failed(compile_error_text(&errors)),
        }
    }
}
