//! `apply_defaults` in generated code: the program's [`Defaults`] rendered as one function
//! per step (`dN`), as the interpreter walks them (the rule is [`crate::ir::defaults`]'s).

use super::node::Gen;
use super::value::built;
use crate::ir::defaults::{Defaults, DefaultsStep, StepId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// The module's `apply_defaults` and its step functions.
pub(super) fn tokens(defaults: &Defaults, gen: &Gen<'_>) -> TokenStream {
    let body = match defaults.root() {
        Some(root) => {
            let root = step_name(root);
            quote!(#root(instance, 0))
        }
        None => quote!(true),
    };
    let param = if defaults.root().is_some() {
        quote!(instance)
    } else {
        quote!(_instance)
    };
    let steps = defaults
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| step_fn(StepId(i), step, gen));
    quote! {
        use __rt::serde_json::Value;

        /// Inserts into `instance` the `default` of every missing property whose subschema
        /// applies for certain (not under `anyOf`, `oneOf`, `not`, `if` / `then` / `else`
        /// or `dependentSchemas`), at every depth validation reaches (`LIMITS.max_depth`);
        /// `false` when it stopped there. Meant for an instance already validated.
        #[allow(dead_code)]
        pub fn apply_defaults(#param: &mut Value) -> bool {
            #body
        }

        #(#steps)*
    }
}

/// The name of step `id`'s function.
fn step_name(id: StepId) -> proc_macro2::Ident {
    format_ident!("d{}", id.0)
}

/// A call of step `id` on `x`, one level deeper, folded into `complete`.
fn call(id: StepId, x: TokenStream) -> TokenStream {
    let name = step_name(id);
    quote!(complete &= #name(#x, depth + 1);)
}

/// Step `id`'s function.
fn step_fn(id: StepId, step: &DefaultsStep, gen: &Gen<'_>) -> TokenStream {
    let name = step_name(id);
    let uri = &gen.program().node(step.schema).uri;
    let doc = format!(
        " The defaults at{}.",
        super::node::doc_text(gen.relative_location(uri))
    );
    let object = step.reads_objects().then(|| object_arm(step, gen));
    let array = step.reads_arrays().then(|| array_arm(step));
    let walk = match (object, array) {
        (Some(object), Some(array)) => quote! {
            match v {
                Value::Object(obj) => { #object }
                Value::Array(items) => { #array }
                _ => {}
            }
        },
        (Some(object), None) => quote!(if let Value::Object(obj) = v { #object }),
        (None, Some(array)) => quote!(if let Value::Array(items) = v { #array }),
        (None, None) => quote!(),
    };
    if step.descends() {
        quote! {
            #[doc = #doc]
            fn #name(v: &mut Value, depth: u32) -> bool {
                if depth >= LIMITS.max_depth {
                    return false;
                }
                let mut complete = true;
                #walk
                complete
            }
        }
    } else {
        quote! {
            #[doc = #doc]
            fn #name(v: &mut Value, _depth: u32) -> bool {
                #walk
                true
            }
        }
    }
}

/// What a step does at an object `obj`.
fn object_arm(step: &DefaultsStep, gen: &Gen<'_>) -> TokenStream {
    let inserts = step.insert.iter().map(|(name, value)| {
        let value = built(value);
        quote! {
            if !obj.contains_key(#name) {
                obj.insert(#name.into(), #value);
            }
        }
    });
    let mut by_name: BTreeMap<&str, Vec<StepId>> = BTreeMap::new();
    for (name, id) in &step.properties {
        by_name.entry(name).or_default().push(*id);
    }
    let named = keyed_calls(&by_name, quote!(k), quote!(k.as_str()));
    let matched = |re| match gen.regex_static(re) {
        Some(regex) => quote!(#regex.is_match(k)),
        None => quote!(false),
    };
    let patterns = step.patterns.iter().map(|(re, id)| {
        let test = matched(*re);
        let call = call(*id, quote!(x));
        quote!(if #test { #call })
    });
    let additional = step.additional.iter().map(|a| {
        let mut left = Vec::new();
        if !a.known.is_empty() {
            let known = &a.known;
            left.push(quote!(!matches!(k.as_str(), #(#known)|*)));
        }
        left.extend(a.patterns.iter().map(|re| {
            let test = matched(*re);
            quote!(!#test)
        }));
        let call = call(a.step, quote!(x));
        if left.is_empty() {
            call
        } else {
            quote!(if #(#left)&&* { #call })
        }
    });
    let walk = step.enters_values().then(|| {
        quote! {
            for (k, x) in obj.iter_mut() {
                #named
                #(#patterns)*
                #(#additional)*
            }
        }
    });
    quote! {
        #(#inserts)*
        #walk
    }
}

/// The calls of the steps of each key (a property name, an item index) on `x` where
/// `subject` is that key: an `if` for one key, a `match` on `scrutinee` for several.
fn keyed_calls<K: quote::ToTokens>(
    groups: &BTreeMap<K, Vec<StepId>>,
    subject: TokenStream,
    scrutinee: TokenStream,
) -> TokenStream {
    let calls = |ids: &[StepId]| {
        let calls = ids.iter().map(|id| call(*id, quote!(x)));
        quote!(#(#calls)*)
    };
    match groups.len() {
        0 => quote!(),
        1 => {
            let (key, ids) = groups.iter().next().expect("one key");
            let calls = calls(ids);
            quote!(if #subject == #key { #calls })
        }
        _ => {
            let arms = groups.iter().map(|(key, ids)| {
                let calls = calls(ids);
                quote!(#key => { #calls })
            });
            quote!(match #scrutinee { #(#arms)* _ => {} })
        }
    }
}

/// What a step does at an array `items`.
fn array_arm(step: &DefaultsStep) -> TokenStream {
    let mut by_index: BTreeMap<usize, Vec<StepId>> = BTreeMap::new();
    for (index, id) in &step.prefix_items {
        by_index.entry(*index).or_default().push(*id);
    }
    let prefix = keyed_calls(&by_index, quote!(i), quote!(i));
    let rest = step.items.iter().map(|(skip, id)| {
        let call = call(*id, quote!(x));
        if *skip == 0 {
            call
        } else {
            quote!(if i >= #skip { #call })
        }
    });
    if step.prefix_items.is_empty() && step.items.iter().all(|(skip, _)| *skip == 0) {
        quote!(for x in items.iter_mut() { #(#rest)* })
    } else {
        quote!(for (i, x) in items.iter_mut().enumerate() { #prefix #(#rest)* })
    }
}
