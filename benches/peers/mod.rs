//! Every validator of one workload behind one interface: schemac generated and
//! interpreted, the hand-written check (MCP workloads), and the peers jsonschema 0.61.2
//! (interpreted), jsonschema-macros 0.60.2 and boon — each with `format` as an annotation, as
//! schemac's default.
//!
//! Included (with `#[path]`) by the differential test and the benchmark, which have the
//! peers as dev-dependencies; the library cannot name them.

use schemac_benches::report::{GENERATED, HANDWRITTEN};
use schemac_benches::workloads::Workload;
use schemac_benches::{generated, handwritten, interpreted};
use schemac_runtime::Validate;
use serde_json::Value;
use std::path::Path;

/// The jsonschema-macros validators `build.rs` declared.
#[allow(missing_docs, non_camel_case_types, clippy::all)]
mod macros {
    include!(concat!(env!("OUT_DIR"), "/jsonschema_macros.rs"));
}

/// A validator's `is_valid`.
pub type Check = Box<dyn Fn(&Value) -> bool>;

/// One validator of a workload.
pub struct Validator {
    /// Its column name (`schemac_benches::report::VALIDATORS`).
    pub name: &'static str,
    /// Its `is_valid`.
    pub is_valid: Check,
}

/// The validators of one workload, and why any is missing.
pub struct Validators {
    /// In `VALIDATORS` order.
    pub list: Vec<Validator>,
    /// `(validator, why it is missing)`.
    pub missing: Vec<(&'static str, String)>,
}

impl Validators {
    /// The validator named `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Validator> {
        self.list.iter().find(|v| v.name == name)
    }
}

/// Formats boon would assert under draft-07 (it always asserts `format` below 2019-09);
/// each is replaced by one that accepts everything, so that boon treats `format` as an
/// annotation like the other validators here.
const BOON_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "uuid",
    "period",
    "semver",
];

fn accept_any(_: &Value) -> Result<(), Box<dyn std::error::Error>> {
    Ok(())
}

/// The `boon` column: boon compiling `schema` (named by `schema_path`).
pub fn boon(schema_path: &Path, schema: &Value) -> Result<Check, String> {
    let mut compiler = boon::Compiler::new();
    for name in BOON_FORMATS {
        compiler.register_format(boon::Format {
            name,
            func: accept_any,
        });
    }
    // A file URL names the schema; it is added as a resource, so nothing is loaded.
    let url = format!("file://{}", schema_path.display());
    compiler
        .add_resource(&url, schema.clone())
        .map_err(|e| e.to_string())?;
    let mut schemas = boon::Schemas::new();
    let index = compiler
        .compile(&url, &mut schemas)
        .map_err(|e| e.to_string())?;
    Ok(Box::new(move |v| schemas.validate(v, index).is_ok()))
}

/// The `jsonschema` column: jsonschema 0.61.2's interpreter (the dev-dependency renamed
/// `jsonschema_latest`; 0.60.2 serves only the macro peer).
pub fn jsonschema(schema: &Value) -> Result<Check, String> {
    let validator = jsonschema_latest::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| e.to_string())?;
    Ok(Box::new(move |v| validator.is_valid(v)))
}

/// Builds every validator of `workload` (`shared`: the shared folder, for the
/// meta-schemas schemac registers).
pub fn validators(shared: &Path, workload: &Workload) -> Validators {
    let mut list = Vec::new();
    let mut missing = Vec::new();
    let mut add = |name: &'static str, made: Result<Check, String>| match made {
        Ok(is_valid) => list.push(Validator { name, is_valid }),
        Err(why) => missing.push((name, why)),
    };
    if let Some(check) = handwritten::for_module(workload.module) {
        add(HANDWRITTEN, Ok(Box::new(check)));
    }
    add(
        GENERATED,
        generated::is_valid_fn(workload.module)
            .map(|f| Box::new(f) as Check)
            .ok_or_else(|| {
                generated::NOT_GENERATED
                    .iter()
                    .find(|(m, _)| *m == workload.module)
                    .map_or("not generated".to_string(), |(_, e)| e.to_string())
            }),
    );
    add(
        "interpreted",
        interpreted::compiler(shared)
            .and_then(|c| interpreted::interpreter(&c, workload.module, &workload.schema))
            .map(|i| Box::new(move |v: &Value| i.is_valid(v)) as Check),
    );
    add("jsonschema", jsonschema(&workload.schema));
    add(
        "jsonschema-macros",
        macros::MACROS
            .iter()
            .find(|(m, _)| *m == workload.module)
            .map(|(_, f)| Box::new(*f) as Check)
            .ok_or_else(|| "no jsonschema-macros validator".to_string()),
    );
    add("boon", boon(&workload.schema_path, &workload.schema));
    Validators { list, missing }
}
