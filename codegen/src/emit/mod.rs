//! The Rust backend: takes compiled [`Program`]s and gives Rust source — one module per
//! schema, built as a `proc_macro2::TokenStream` with `quote`, parsed with `syn` and
//! formatted with `prettyplease`.
//!
//! Every IR node becomes two functions: a short-circuit one (`cN`, behind `check` and
//! `is_valid`) and an error-collecting one (`eN`, behind `validate`). Both follow the
//! "Evaluation semantics" of [`crate::ir`] exactly, as the interpreter does. Within a node,
//! consecutive checks that depend on the instance's JSON type are dispatched by one `match`
//! on its shape (node functions are generic over the runtime's `Instance`: a `&Value` or a
//! document read from bytes); `properties`, `patternProperties`, `additionalProperties`,
//! `propertyNames` and `required` run in one pass over the object with a `match` on the key
//! (and, for long pattern lists, a `static` prefilter naming the patterns to try); string
//! `enum`s and `const`s are `match`es, large `enum`s binary searches in `static` sorted
//! tables ([`crate::plan::lookup`]); regexes are `static` tables; evaluated-location
//! sets and the dynamic scope appear only where [`crate::ir::analyse`] says they are needed.
//!
//! A module's entry points (`is_valid`, `check`, `validate`, their `*_json` forms from
//! bytes, its `Validator` and trait implementations) are written once, in the runtime: the
//! module names its root functions (`impl Root`, `impl ErrorsRoot`) and which entry points
//! it offers (`entry_points!(Validator, validate, …)`).
//!
//! The output is deterministic (it depends only on the programs, in the order given) and
//! starts with a comment naming its sources and the schemac version.

mod defaults;
mod node;
pub mod tables;
mod tool_table;
mod value;

use crate::driver::Entries;
use crate::ir::Program;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The schemac version written into generated code; the runtime checks it at compile time.
pub const GENERATOR_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Options of the Rust backend.
#[derive(Debug, Clone)]
pub struct EmitOptions {
    /// Path of the runtime crate as generated code names it. Default: `::schemac_runtime`.
    pub runtime_path: String,
    /// Custom formats: format name → path of a `fn(&str) -> bool` the generated code calls
    /// (`crate::formats::currency`). Take precedence over the runtime's built-in formats.
    pub custom_formats: BTreeMap<String, String>,
    /// Custom keywords: keyword name → path of a `fn(&Constant<'static>, &Value) ->
    /// Result<(), String>` the generated code calls with the keyword's value (the
    /// runtime's `instance::Constant`, static data) and the instance: `Ok`, or a message
    /// saying what to change. Every custom keyword of a program needs one.
    pub custom_keywords: BTreeMap<String, String>,
    /// Emit `validate` (the error-collecting functions) besides `check` / `is_valid`.
    /// Without it the module's `Validator` implements only the runtime's `Check`, and the
    /// generated code is about half the size. Default: `true`.
    pub validate: bool,
    /// Emit `evaluate` too (which brings `validate`, [`crate::driver::Entries`]): the module's `Validator` implements the
    /// runtime's `Evaluate`, giving the annotations its program holds (compile it with
    /// [`crate::Options::annotations`]). The error-collecting functions then carry the
    /// annotation bookkeeping, behind a run-time test that `validate` passes quickly.
    /// Default: `false` (the code is exactly what validation needs).
    pub evaluate: bool,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            runtime_path: "::schemac_runtime".to_string(),
            custom_formats: BTreeMap::new(),
            custom_keywords: BTreeMap::new(),
            validate: true,
            evaluate: false,
        }
    }
}

/// One schema to generate a module for.
#[derive(Debug, Clone, Copy)]
pub struct Unit<'a> {
    /// The module's name: a Rust identifier (see [`module_name`]).
    pub module: &'a str,
    /// What the schema is, named in the module's doc comment: its file path, or the
    /// file and the place in it (`tools.json [get_weather inputSchema]`).
    pub source: &'a str,
    /// The file the schema came from, named in the header comment (once per file).
    pub file: &'a str,
    /// The schema's text, served as the module's `SCHEMA` constant; `None` leaves the
    /// constant out.
    pub schema_text: Option<&'a str>,
    /// The compiled schema.
    pub program: &'a Program,
    /// The MCP tool whose schema this is, if any: the generated `TOOLS` table lists it
    /// under the tool's name (it needs [`Unit::schema_text`]).
    pub tool: Option<&'a crate::mcp::ToolPart>,
}

/// Why code could not be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EmitError {
    /// A module name that is not a Rust identifier.
    InvalidModuleName(String),
    /// Two units with the same module name.
    DuplicateModule(String),
    /// The runtime path or a custom format's function path is not a Rust path.
    InvalidPath {
        /// What the path is for.
        what: String,
        /// The path as given.
        path: String,
    },
    /// The units' tool parts do not make a tool table ([`Unit::tool`]: a tool with two
    /// input schemas, an output schema without an input schema, a schema without text).
    InvalidToolTable(String),
    /// A schema uses a custom keyword that [`EmitOptions::custom_keywords`] gives no
    /// function for.
    MissingKeywordFunction(String),
    /// The generated tokens did not parse as a Rust file (a bug in the backend).
    Internal(String),
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::InvalidModuleName(name) => write!(
                f,
                "module name {name:?} is not a Rust identifier (letters, digits and `_`, not starting with a digit, not a keyword)"
            ),
            EmitError::DuplicateModule(name) => {
                write!(f, "two schemas would generate the same module `{name}`")
            }
            EmitError::InvalidPath { what, path } => {
                write!(f, "{what}: {path:?} is not a Rust path such as `crate::formats::currency`")
            }
            EmitError::InvalidToolTable(why) => {
                write!(f, "the MCP tool table cannot be generated: {why}")
            }
            EmitError::MissingKeywordFunction(name) => write!(
                f,
                "custom keyword `{}` has no function to call (give its path: Builder::keyword)",
                schemac_runtime::error::Escaped(name)
            ),
            EmitError::Internal(message) => {
                write!(f, "internal error in the Rust backend: {message}")
            }
        }
    }
}

impl std::error::Error for EmitError {}

pub use crate::names::module_name;

/// Generates the formatted Rust source for `units`: a header comment, a compile-time check
/// of the runtime's version, and one module per unit.
pub fn generate(units: &[Unit<'_>], options: &EmitOptions) -> Result<String, EmitError> {
    let tokens = generate_tokens(units, options)?;
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| EmitError::Internal(format!("generated tokens: {e}")))?;
    let mut sources: Vec<String> = Vec::new();
    for unit in units {
        let file = node::comment_text(unit.file);
        if !sources.contains(&file) {
            sources.push(file);
        }
    }
    let mut out = format!(
        "// @generated by schemac {GENERATOR_VERSION} from {}. Do not edit.\n",
        if sources.is_empty() {
            "no schemas".to_string()
        } else {
            sources.join(", ")
        }
    );
    out.push_str(&prettyplease::unparse(&file));
    // Generating code is work in proportion to the code generated.
    crate::work::add(out.len());
    Ok(out)
}

/// The tokens of [`generate`], unformatted.
pub fn generate_tokens(
    units: &[Unit<'_>],
    options: &EmitOptions,
) -> Result<TokenStream, EmitError> {
    let runtime: syn::Path =
        syn::parse_str(&options.runtime_path).map_err(|_| EmitError::InvalidPath {
            what: "runtime path".to_string(),
            path: options.runtime_path.clone(),
        })?;
    let formats = parsed_paths(&options.custom_formats, "custom format")?;
    let keywords = parsed_paths(&options.custom_keywords, "custom keyword")?;
    for unit in units {
        let customs = unit.program.nodes.iter().flat_map(|n| &n.checks);
        for check in customs.filter(|c| matches!(c.kind, crate::ir::CheckKind::Custom(_))) {
            if !keywords.contains_key(&*check.keyword) {
                return Err(EmitError::MissingKeywordFunction(check.keyword.to_string()));
            }
        }
    }
    let entries = Entries::new(options.validate, options.evaluate);
    let mut seen = BTreeSet::new();
    let mut modules = Vec::new();
    for unit in units {
        if syn::parse_str::<syn::Ident>(unit.module).is_err() || unit.module.starts_with("r#") {
            return Err(EmitError::InvalidModuleName(unit.module.to_string()));
        }
        if !seen.insert(unit.module) {
            return Err(EmitError::DuplicateModule(unit.module.to_string()));
        }
        modules.push(module_tokens(
            unit,
            &quote!(#runtime),
            (&formats, &keywords),
            entries,
        ));
    }
    let tools = tool_table::tokens(units, &quote!(#runtime), entries.validate())?;
    Ok(quote! {
        const _: () = #runtime::__private::assert_compatible(#GENERATOR_VERSION);
        #(#modules)*
        #tools
    })
}

/// The user's function paths `paths` (name → path) parsed; `what` names them in errors.
fn parsed_paths(
    paths: &BTreeMap<String, String>,
    what: &str,
) -> Result<BTreeMap<String, syn::Path>, EmitError> {
    paths
        .iter()
        .map(|(name, path)| match syn::parse_str::<syn::Path>(path) {
            Ok(parsed) => Ok((name.clone(), parsed)),
            Err(_) => Err(EmitError::InvalidPath {
                what: format!("{what} {name:?}"),
                path: path.clone(),
            }),
        })
        .collect()
}

/// One schema's module.
fn module_tokens(
    unit: &Unit<'_>,
    runtime: &TokenStream,
    (formats, keywords): (&BTreeMap<String, syn::Path>, &BTreeMap<String, syn::Path>),
    entries: Entries,
) -> TokenStream {
    let (validate, evaluate) = (entries.validate(), entries.evaluate());
    let plan = crate::plan::Plan::new(unit.program.clone());
    let program = &plan.program;
    let gen = node::Gen::new(&plan, runtime, (formats, keywords), validate, evaluate);
    // (Before the functions: the regexes the defaults test are emitted with theirs.)
    let apply_defaults = unit
        .program
        .defaults
        .as_ref()
        .map(|planned| defaults::tokens(planned, &gen));
    let body = gen.functions();
    let imports = gen.imports();
    let module = format_ident!("{}", unit.module);
    let doc = format!(
        " Validator for{}, generated by schemac.",
        node::doc_text(unit.source)
    );
    let located = format!(" is in{}.", node::doc_text(node::root_document(program)));
    // An error-collecting function `eN` has no doc comment where `cN` has one.
    let locations: &[&str] = if validate {
        &[
            " A function's doc comment gives its subschema's location (`eN`'s is `cN`'s where",
            " there is a `cN`); one that starts with `#`",
        ]
    } else {
        &[" A function's doc comment gives its subschema's location; one that starts with `#`"]
    };
    let schema_const = unit.schema_text.map(|text| {
        quote! {
            /// The schema's text, as compiled.
            #[allow(dead_code)]
            pub const SCHEMA: &str = #text;
        }
    });
    let root_check = node::fn_name(
        gen.callee(program.root, node::Mode::Check),
        node::Mode::Check,
    );
    let root_errors = node::fn_name(
        gen.callee(program.root, node::Mode::Errors),
        node::Mode::Errors,
    );
    let root_uri = &program.node(program.root).uri;
    // (The root takes a set only where a node that applies it in place reads it.)
    let root_ev = if program.node(program.root).collect.given {
        quote!(, &mut __rt::Eval::new())
    } else {
        quote!()
    };
    let budget = program.limits.budget;
    let max_depth = program.limits.max_depth;
    let max_in_place = program.limits.max_in_place;
    let max_nesting = program.limits.max_nesting;
    let max_errors = program.limits.max_errors;
    // The root functions the runtime's entry points run (`__rt::entry`), and which of
    // them the module offers (`__rt::entry_points!`). The short-circuit root is inlined
    // into the entry points in optimized builds, as the root function is into it (see
    // `Gen::functions`): the fresh state stays the entry point's local, its counters in
    // registers (called through a pointer instead, w4_patterns ran 10% more
    // instructions).
    let errors_root = validate.then(|| {
        let (sites, faults) = gen.tables();
        quote! {
            impl __rt::ErrorsRoot for Validator {
                const SITES: &'static [__rt::Site] = #sites;
                const FAULTS: &'static [__rt::Fault] = #faults;
                const BASE: &'static str = #root_uri;
                #[inline]
                fn errors<'a, V: __rt::Instance<'a>>(v: V, cx: &mut __rt::Errors) -> __rt::Done {
                    #root_errors(v, cx #root_ev)
                }
            }
        }
    });
    let offered = if validate {
        let evaluate = evaluate.then(|| quote!(, evaluate));
        let defaults = apply_defaults.is_some().then(|| quote!(, defaults));
        quote!(validate #evaluate #defaults)
    } else {
        quote!(check)
    };
    // Every public item carries `#[allow(dead_code)]`: a crate that includes the
    // validators in a private module (the README's `mod validators { .. }`) and uses a few
    // of them gets no warning for the rest, and each allowed item stays a root of the
    // dead-code analysis, so a helper that no public item reaches would still warn.
    // Lints that generated code trips by design: literal numbers of the schema, long
    // functions, `anyOf` branches each behind its own type test (`matches!(v, A) &&
    // c1(v, cx)? || matches!(v, A) && c2(v, cx)?` keeps the branches' order and calls), and
    // a failure written `return Ok(false);` also where it ends the function (a `match`
    // whose every arm fails).
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #(#[doc = #locations])*
        #[doc = #located]
        #[allow(
            clippy::approx_constant,
            clippy::excessive_precision,
            clippy::too_many_lines,
            clippy::nonminimal_bool,
            clippy::needless_return
        )]
        pub mod #module {
            use #runtime::__private as __rt;
            #[allow(unused_imports)]
            use __rt::{ArrayView as _, ObjectView as _};
            #imports

            #schema_const

            /// The run-time limits compiled into this validator.
            #[allow(dead_code)]
            pub const LIMITS: __rt::Limits = __rt::Limits {
                budget: #budget,
                max_depth: #max_depth,
                max_in_place: #max_in_place,
                max_nesting: #max_nesting,
                max_errors: #max_errors,
            };

            __rt::entry_points!(Validator, #offered);

            impl __rt::Root for Validator {
                const LIMITS: __rt::Limits = LIMITS;
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn check<'a, V: __rt::Instance<'a>>(v: V, cx: &mut __rt::State) -> __rt::Res {
                    #root_check(v, cx #root_ev)
                }
            }

            #errors_root

            #apply_defaults

            #body
        }
    }
}

#[cfg(test)]
mod tests;
