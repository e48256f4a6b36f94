//! The JSON Schema Test Suite's schemas, compiled into Rust validators by `build.rs` (one
//! module per group) and included here, with [`lookup`] to find a group's validator; the
//! annotation and output tests' schemas likewise, built with `evaluate`
//! ([`lookup_evaluator`]); and the hostile schemas of [`crate::hostile`], found with
//! [`hostile`].

/// The generated modules, one per group that compiled.
#[allow(missing_docs)]
pub mod suite {
    include!(concat!(env!("OUT_DIR"), "/suite_validators.rs"));
}

use crate::suite::{File, Group, SetSpec};
use schemac::interp::Interpreter;
use schemac_runtime::{Evaluate, Validate};
pub use suite::{DEFAULTS, DRAFTS, EVALUATORS, HOSTILE, VALIDATORS};

/// The generated validator of group `index` of `file` in the set labelled `label`
/// (`draft2020-12 required`), if its schema compiled at build time.
pub fn lookup(label: &str, file: &str, index: usize) -> Option<&'static (dyn Validate + Sync)> {
    VALIDATORS
        .iter()
        .find(|(l, f, i, _)| *l == label && *f == file && *i == index)
        .map(|(_, _, _, v)| *v)
}

/// Both backends of `group` of `file` in the set `spec`: the interpreter of its schema
/// compiled by `compiler` (named as `build.rs` names it, `<draft>/<set>/<file>#<index>`)
/// and the validator generated at build time; `Ok(None)` when the schema compiles in
/// neither, an error when only one backend has it.
pub fn both_backends(
    compiler: &schemac::Compiler,
    spec: &SetSpec,
    file: &File,
    group: &Group,
) -> Result<Option<(Interpreter, &'static (dyn Validate + Sync))>, String> {
    let name = format!("{}/{}/{}#{}", spec.draft, spec.name, file.name, group.index);
    let program = compiler.compile_named(&name, &group.schema);
    match (program, lookup(&spec.label(), &file.name, group.index)) {
        (Ok(program), Some(generated)) => {
            Ok(Some((crate::custom::interpreter(program)?, generated)))
        }
        (Err(_), None) => Ok(None),
        (Ok(_), None) => Err(format!("{name}: compiles but was not generated")),
        (Err(e), Some(_)) => Err(format!("{name}: generated but fails to compile: {e:?}")),
    }
}

/// The generated evaluator (built with `evaluate`) of case or group `index` of `file` in the
/// annotation or output set labelled `label` (`draft2020-12 annotations`), if its schema
/// compiled at build time.
pub fn lookup_evaluator(
    label: &str,
    file: &str,
    index: usize,
) -> Option<&'static (dyn Evaluate + Sync)> {
    EVALUATORS
        .iter()
        .find(|(l, f, i, _)| *l == label && *f == file && *i == index)
        .map(|(_, _, _, v)| *v)
}

/// The generated validator of the hostile schema `name` ([`crate::hostile`]).
pub fn hostile(name: &str) -> Option<&'static (dyn Validate + Sync)> {
    HOSTILE.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
