//! The `TOOLS` table: takes the units that are MCP tools' schemas ([`Unit::tool`]) and
//! gives a `static` beside the modules, one entry per tool in the order its input schema
//! came, with the tool's name as listed (the module names are sanitized: `github.get-me`
//! → `github_get_me_input`), its validators behind the runtime's `Validate` trait (`Check`
//! without `validate`) and its schema texts (`runtime::tools::Tool`).

use super::{EmitError, Unit};
use crate::mcp::SchemaRole;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// One tool's modules, as found among the units.
struct Entry<'a> {
    name: &'a str,
    input: &'a Unit<'a>,
    output: Option<&'a Unit<'a>>,
}

/// The `TOOLS` table of `units`, or nothing when no unit is a tool's schema. A tool needs
/// exactly one input schema, at most one output schema, and the text of each.
pub(super) fn tokens(
    units: &[Unit<'_>],
    runtime: &TokenStream,
    validate: bool,
) -> Result<TokenStream, EmitError> {
    let entries = entries(units)?;
    if entries.is_empty() {
        return Ok(quote!());
    }
    let schema = |unit: &Unit<'_>| {
        let module = format_ident!("{}", unit.module);
        let object_root = unit.tool.is_some_and(|part| part.object_root);
        quote! {
            #runtime::__private::ToolSchema {
                validator: &#module::Validator,
                text: #module::SCHEMA,
                object_root: #object_root,
            }
        }
    };
    let rows = entries.iter().map(|entry| {
        let name = entry.name;
        let input = schema(entry.input);
        let output = match entry.output {
            Some(unit) => {
                let output = schema(unit);
                quote!(::core::option::Option::Some(#output))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #runtime::__private::Tool {
                name: #name,
                input: #input,
                output: #output,
            }
        }
    });
    let validator = if validate {
        quote!(dyn #runtime::__private::Validate + ::core::marker::Sync)
    } else {
        quote!(dyn #runtime::__private::Check + ::core::marker::Sync)
    };
    Ok(quote! {
        /// The MCP tools these validators were generated for, in the order listed: each
        /// tool's name as listed, its validators and its schema texts.
        #[allow(dead_code)]
        pub static TOOLS: &[#runtime::__private::Tool<#validator>] = &[#(#rows),*];
    })
}

/// The tools among `units`, in the order of their input schemas.
fn entries<'a>(units: &'a [Unit<'a>]) -> Result<Vec<Entry<'a>>, EmitError> {
    let refuse =
        |name: &str, why: &str| Err(EmitError::InvalidToolTable(format!("tool {name:?} {why}")));
    let mut entries: Vec<Entry<'a>> = Vec::new();
    for unit in units {
        let Some(part) = unit.tool else { continue };
        if unit.schema_text.is_none() {
            return refuse(&part.tool, "has a schema without its text");
        }
        let found = entries.iter_mut().find(|e| e.name == part.tool);
        match (part.role, found) {
            (SchemaRole::Input, None) => entries.push(Entry {
                name: &part.tool,
                input: unit,
                output: None,
            }),
            (SchemaRole::Output, Some(entry)) if entry.output.is_none() => {
                entry.output = Some(unit);
            }
            (SchemaRole::Input, Some(_)) => return refuse(&part.tool, "has two input schemas"),
            (SchemaRole::Output, Some(_)) => return refuse(&part.tool, "has two output schemas"),
            (SchemaRole::Output, None) => {
                return refuse(&part.tool, "has an output schema before its input schema")
            }
        }
    }
    Ok(entries)
}
