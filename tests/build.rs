//! Compiles every schema of the JSON Schema Test Suite's sets (draft2020-12, draft2019-09,
//! draft7, draft6, draft4; `required`, `optional`, `format` with format assertion) into
//! generated Rust validators, one module per group, plus a table from `(set, file, group
//! index)` to each module's validator.
//! The `[generated]` backend of the suite harness and the differential test run them.
//! The annotation tests' schemas (per dialect) and the output tests' (2020-12, 2019-09)
//! are compiled with annotations kept and generated with `evaluate`, into a second table.
//!
//! A group whose schema does not compile gets no module; the backend then reports the
//! compile error the same way the interpreter's backend does.
//!
//! The hostile schemas of issue 9 (`src/hostile.rs`) are compiled too, one module each,
//! listed in `HOSTILE`; each must compile.
//!
//! The shared corpora's schemas (`src/corpus.rs`: `bench-corpus/`, `realworld/cases/`)
//! are generated into a file of their own, `corpus_validators.rs`, listed in `CORPUS`:
//! only the budget test includes it, so the other tests do not compile them.

#[path = "src/corpus.rs"]
#[allow(dead_code)]
mod corpus;
#[path = "src/evaluation_cases.rs"]
#[allow(dead_code)]
mod evaluation_cases;
#[path = "src/hostile.rs"]
#[allow(dead_code)]
mod hostile;
#[path = "src/paths.rs"]
#[allow(dead_code)]
mod paths;
#[path = "src/registry.rs"]
#[allow(dead_code)]
mod registry;
#[path = "src/suite.rs"]
#[allow(dead_code)]
mod suite;

use quote::quote;
use schemac::driver::{Entries, InputError, Schema, Units};
use schemac::emit::{self, EmitOptions};
use std::path::PathBuf;

/// The drafts whose sets are compiled into generated code, unless the environment
/// variable `SCHEMAC_GENERATED_DRAFTS` lists others (comma-separated suite folder names,
/// e.g. `draft2020-12,draft7`; empty for none, to measure the build without them).
const DEFAULT_DRAFTS: &[&str] = &["draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"];

fn drafts() -> Vec<String> {
    match std::env::var("SCHEMAC_GENERATED_DRAFTS") {
        Ok(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        Err(_) => DEFAULT_DRAFTS.iter().map(|s| s.to_string()).collect(),
    }
}

fn main() {
    if let Err(e) = run() {
        // A missing suite must fail loudly, never skip.
        eprintln!("schemac-tests build script: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/paths.rs");
    println!("cargo:rerun-if-changed=src/registry.rs");
    println!("cargo:rerun-if-changed=src/suite.rs");
    println!("cargo:rerun-if-changed=src/evaluation_cases.rs");
    println!("cargo:rerun-if-changed=src/hostile.rs");
    println!("cargo:rerun-if-changed=src/corpus.rs");
    println!("cargo:rerun-if-env-changed=SCHEMAC_SHARED");
    println!("cargo:rerun-if-env-changed=JSON_SCHEMA_TEST_SUITE");
    println!("cargo:rerun-if-env-changed=SCHEMAC_GENERATED_DRAFTS");
    let drafts = drafts();
    let suite_dir = paths::suite_dir()?;
    for folder in ["tests", "remotes", "annotations", "output-tests"] {
        println!(
            "cargo:rerun-if-changed={}",
            suite_dir.join(folder).display()
        );
    }
    println!(
        "cargo:rerun-if-changed={}",
        paths::metaschemas_dir()?.display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        paths::older_metaschemas_dir()?.display()
    );
    println!("cargo:rerun-if-changed=fixtures");
    println!("cargo:rerun-if-changed=cases/annotations.json");
    println!("cargo:rerun-if-changed={DEFAULTS_CASES}");

    let mut compiled = Table::default();
    let mut sets = Vec::new();
    for spec in suite::SETS
        .iter()
        .filter(|s| drafts.iter().any(|d| d == s.draft))
    {
        sets.push(suite::Set::load(&suite_dir, *spec)?);
    }
    // The project's fixtures, always.
    sets.push(suite::Set::load_dir(
        &suite::fixtures_dir(),
        suite::FIXTURES,
    )?);
    for set in &sets {
        let spec = &set.spec;
        let compiler = registry::compiler(spec.options())?;
        for file in &set.files {
            let stem = file.name.trim_end_matches(".json");
            for group in &file.groups {
                let name = format!("{}/{}/{}#{}", spec.draft, spec.name, file.name, group.index);
                let module = format!("{}_{}_{}_{}", spec.draft, spec.name, stem, group.index);
                let row = (spec.label(), file.name.clone(), group.index);
                compiled.add(&compiler, &module, &name, row, &group.schema)?;
            }
        }
    }
    let evaluated = evaluation_programs(&suite_dir, &drafts)?;
    let (modules, entries) = compiled.generate(&EmitOptions {
        custom_keywords: [(
            suite::CUSTOM_KEYWORD.to_string(),
            suite::CUSTOM_KEYWORD_FUNCTION.to_string(),
        )]
        .into(),
        ..EmitOptions::default()
    })?;
    let (evaluating_modules, evaluators) = evaluated.generate(&EmitOptions {
        validate: EVALUATING.validate(),
        evaluate: EVALUATING.evaluate(),
        ..EmitOptions::default()
    })?;
    let count = entries.len();
    let evaluator_count = evaluators.len();
    let mut hostile = Units::new();
    for h in hostile::ALL {
        let module = format!("hostile_{}", h.name);
        let schema = (h.schema)();
        hostile
            .add(
                &registry::compiler(h.options())?,
                Schema::new(&module, h.name, &schema),
            )
            .map_err(|e| format!("hostile schema {}: {e}", h.name))?;
    }
    // Once more under a name with a CR, a line separator and bidirectional controls, which
    // the module's doc comment quotes, and with its text as `SCHEMA`.
    let forged = hostile::find("control_characters").ok_or("no control_characters")?;
    let schema = (forged.schema)();
    hostile
        .add(
            &registry::compiler(forged.options())?,
            Schema {
                name: "hostile_control_characters_named",
                source: hostile::CONTROL_CHARACTERS_SOURCE.to_string(),
                file: std::path::Path::new(hostile::CONTROL_CHARACTERS_SOURCE),
                text: Some(schema.to_string()),
                value: &schema,
                tool: None,
            },
        )
        .map_err(|e| format!("hostile schema {}: {e}", forged.name))?;
    let hostile_modules = emit::generate_tokens(&hostile.emit_units(), &EmitOptions::default())
        .map_err(|e| format!("generating the hostile schemas' validators: {e}"))?;
    let hostile_entries: Vec<_> = hostile
        .compiled()
        .iter()
        .map(|unit| {
            let (name, module) = (&unit.source, quote::format_ident!("{}", unit.module));
            quote!((#name, &#module::Validator))
        })
        .collect();
    let hostile_count = hostile_entries.len();
    let (defaults_modules, defaults_entries) = defaults_validators()?;
    let defaults_count = defaults_entries.len();
    let tokens = quote! {
        #modules

        /// The suite folders of the drafts compiled here.
        pub const DRAFTS: &[&str] = &[#(#drafts),*];

        /// Every generated validator: `(set label, file name, group index, validator)`,
        /// in suite order.
        pub static VALIDATORS: [(&str, &str, usize, &(dyn ::schemac_runtime::Validate + Sync)); #count] = [
            #(#entries),*
        ];

        #evaluating_modules

        /// Every generated evaluator: `(set label, file name, case index, evaluator)`.
        pub static EVALUATORS: [(&str, &str, usize, &(dyn ::schemac_runtime::Evaluate + Sync)); #evaluator_count] = [
            #(#evaluators),*
        ];

        #hostile_modules

        /// The generated validators of the hostile schemas: `(name, validator)`.
        pub static HOSTILE: [(&str, &(dyn ::schemac_runtime::Validate + Sync)); #hostile_count] = [
            #(#hostile_entries),*
        ];

        #defaults_modules

        /// The generated validators of `tests/cases/defaults.json`, built with
        /// `apply_defaults`: `(group index, validator)`.
        pub static DEFAULTS: [(usize, &(dyn ::schemac_runtime::Validate + Sync)); #defaults_count] = [
            #(#defaults_entries),*
        ];
    };
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("the generated suite code does not parse: {e}"))?;
    let code = format!(
        "// @generated by schemac {} from the JSON Schema Test Suite ({}). Do not edit.\n{}",
        emit::GENERATOR_VERSION,
        drafts.join(", "),
        prettyplease::unparse(&file)
    );
    write_out("suite_validators.rs", &code)?;
    corpus_validators()
}

/// Writes `code` to `name` in `OUT_DIR`, unless it holds those bytes already.
fn write_out(name: &str, code: &str) -> Result<(), String> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?).join(name);
    if std::fs::read(&out).ok().as_deref() != Some(code.as_bytes()) {
        std::fs::write(&out, code).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(())
}

/// Generates every corpus schema into `corpus_validators.rs`, one module per case, and
/// the table `CORPUS` of `(case id, validator)`. A schema that does not compile gets no
/// module (the budget test reports it).
fn corpus_validators() -> Result<(), String> {
    let shared = paths::shared_dir()?;
    for folder in corpus::CORPORA {
        println!("cargo:rerun-if-changed={}", shared.join(folder).display());
    }
    let compiler = corpus::compiler()?;
    let mut units = Units::new();
    let mut ids = Vec::new();
    for case in corpus::cases(&shared)? {
        let schema = corpus::schema(&case)?;
        match units.add(&compiler, Schema::new(&case.id, &case.id, &schema)) {
            Ok(_) => ids.push(case.id),
            Err(InputError::Compile(_)) => {}
            Err(e) => return Err(format!("corpus schema {}: {e}", case.id)),
        }
    }
    let modules = emit::generate_tokens(&units.emit_units(), &EmitOptions::default())
        .map_err(|e| format!("generating the corpus validators: {e}"))?;
    let entries = units.compiled().iter().zip(&ids).map(|(unit, id)| {
        let module = quote::format_ident!("{}", unit.module);
        quote!((#id, &#module::Validator))
    });
    let count = ids.len();
    let tokens = quote! {
        #modules

        /// Every generated corpus validator: `(case id, validator)`, in corpus order.
        pub static CORPUS: [(&str, &(dyn ::schemac_runtime::Validate + Sync)); #count] = [
            #(#entries),*
        ];
    };
    let file: syn::File = syn::parse2(tokens)
        .map_err(|e| format!("the generated corpus code does not parse: {e}"))?;
    let code = format!(
        "// @generated by schemac {} from the shared corpora ({}). Do not edit.\n{}",
        emit::GENERATOR_VERSION,
        corpus::CORPORA.join(", "),
        prettyplease::unparse(&file)
    );
    write_out("corpus_validators.rs", &code)
}

/// The defaults cases, relative to this crate: schemas, instances and the instances with
/// their defaults applied (`tests/defaults.rs`).
const DEFAULTS_CASES: &str = "cases/defaults.json";

/// Every schema of [`DEFAULTS_CASES`] compiled with defaults planned, one module per group
/// (`defaults_<index>`), and the table entries `(index, &module::Validator)`.
fn defaults_validators() -> Result<(proc_macro2::TokenStream, Vec<proc_macro2::TokenStream>), String>
{
    let text = std::fs::read_to_string(DEFAULTS_CASES)
        .map_err(|e| format!("cannot read {DEFAULTS_CASES}: {e}"))?;
    let groups: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| format!("{DEFAULTS_CASES}: {e}"))?;
    let compiler = registry::compiler(schemac::Options {
        defaults: true,
        ..schemac::Options::default()
    })?;
    let mut units = Units::new();
    let mut entries = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        let module = format!("defaults_{index}");
        units
            .add(&compiler, Schema::new(&module, &module, &group["schema"]))
            .map_err(|e| format!("{DEFAULTS_CASES} group {index}: {e}"))?;
        let ident = quote::format_ident!("{}", module);
        entries.push(quote!((#index, &#ident::Validator)));
    }
    let modules = emit::generate_tokens(&units.emit_units(), &EmitOptions::default())
        .map_err(|e| format!("generating the defaults cases' validators: {e}"))?;
    Ok((modules, entries))
}

/// What the annotation and output tests' modules give: `evaluate`.
const EVALUATING: Entries = Entries::new(true, true);

/// The project's annotation cases, relative to this crate: schemas with instances and the
/// annotations they give (`tests/annotations.rs`).
const ANNOTATION_CASES: &str = "cases/annotations.json";

/// Compiled schemas and, for each, its row in a table: `(set label, file, index)`.
#[derive(Default)]
struct Table {
    units: Units,
    rows: Vec<(String, String, usize)>,
}

impl Table {
    /// Compiles `schema` (named `name` in errors and comments) into module `module`, in
    /// table row `row`. A schema that does not compile gets no module: the backend reports
    /// its compile error as the interpreter's does.
    fn add(
        &mut self,
        compiler: &schemac::Compiler,
        module: &str,
        name: &str,
        row: (String, String, usize),
        schema: &serde_json::Value,
    ) -> Result<(), String> {
        match self.units.add(compiler, Schema::new(module, name, schema)) {
            Ok(_) => {
                self.rows.push(row);
                Ok(())
            }
            Err(InputError::Compile(_)) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The modules under `options`, and their table entries
    /// `(label, file, index, &module::Validator)`.
    fn generate(
        &self,
        options: &EmitOptions,
    ) -> Result<(proc_macro2::TokenStream, Vec<proc_macro2::TokenStream>), String> {
        let modules = emit::generate_tokens(&self.units.emit_units(), options)
            .map_err(|e| format!("generating the suite's validators: {e}"))?;
        let entries = self
            .units
            .compiled()
            .iter()
            .zip(&self.rows)
            .map(|(unit, (label, file, index))| {
                let module = quote::format_ident!("{}", unit.module);
                quote!((#label, #file, #index, &#module::Validator))
            })
            .collect();
        Ok((modules, entries))
    }
}

/// The annotation tests' schemas under every dialect of `drafts`, and the output tests'
/// of 2020-12 and 2019-09 when in `drafts`, compiled with annotations kept (a schema that
/// does not compile gets no module).
fn evaluation_programs(suite_dir: &std::path::Path, drafts: &[String]) -> Result<Table, String> {
    let compiler = |dialect| {
        registry::compiler(EVALUATING.compile_options(schemac::Options {
            default_dialect: dialect,
            ..schemac::Options::default()
        }))
    };
    let mut out = Table::default();
    let mut push = |draft: &str,
                    set: &str,
                    file: &str,
                    index: usize,
                    compiler: &schemac::Compiler,
                    schema: &serde_json::Value|
     -> Result<(), String> {
        let label = format!("{draft} {set}");
        let name = format!("{label}/{file}#{index}");
        let stem = file.trim_end_matches(".json");
        let module = format!("{draft}_{set}_{stem}_{index}");
        out.add(
            compiler,
            &module,
            &name,
            (label, file.to_string(), index),
            schema,
        )
    };
    // The project's annotation cases (2020-12 unless a schema says otherwise), always.
    let own = paths::read_json(std::path::Path::new(ANNOTATION_CASES))?;
    let base = compiler(schemac::Dialect::Draft2020_12)?;
    for (index, case) in own.as_array().into_iter().flatten().enumerate() {
        let schema = case
            .get("schema")
            .ok_or("an annotation case without a schema")?;
        push(
            "cases",
            "annotations",
            "annotations.json",
            index,
            &base,
            schema,
        )?;
    }
    let cases = evaluation_cases::load(&suite_dir.join("annotations").join("tests"))?;
    for spec in suite::SETS
        .iter()
        .filter(|s| s.name == "required" && drafts.iter().any(|d| d == s.draft))
    {
        let dialect = spec.default_dialect;
        let base = compiler(dialect)?;
        for case in &cases {
            if evaluation_cases::compatible(
                case.compatibility.as_deref(),
                evaluation_cases::release(dialect),
            ) {
                push(
                    spec.draft,
                    "annotations",
                    &case.file,
                    case.index,
                    &case.compiler(&base)?,
                    &case.schema,
                )?;
            }
        }
        if matches!(
            dialect,
            schemac::Dialect::Draft2020_12 | schemac::Dialect::Draft2019_09
        ) {
            for (file, index, group) in evaluation_cases::output_groups(suite_dir, spec.draft)? {
                if let Some(schema) = group.get("schema") {
                    push(spec.draft, "output", &file, index, &base, schema)?;
                }
            }
        }
    }
    Ok(out)
}
