//! A run of type-dependent checks as one `match` on the value's variant, and the checks of
//! each arm.

use super::super::value;
use super::code::{Code, Uses};
use super::{reported_apart, state, Fun, Gen, Mode};
use crate::ir::kind::{Kind, TypeTest};
use crate::ir::{dispatched_kind, undispatched_kind, Check, CheckKind};
use crate::plan::absorb::When;
use crate::plan::in_object_pass;
use crate::plan::thresholds::REQUIRED_IN_LOOP;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Context of one arm of a dispatch.
pub(super) struct ArmCx<'f, 'n> {
    /// The function the arm is in.
    pub(super) f: &'f Fun<'n>,
    /// The kind of instance the arm matches.
    pub(super) kind: Kind,
}

/// The kinds of instance in the order a dispatch writes its arms (and a type guard its
/// patterns): a rendering choice, which the checked-in generated code follows; the
/// interpreter keeps its lanes in [`Kind::ALL`]'s (tag) order.
pub(super) const ARMS: [Kind; 6] = [
    Kind::Object,
    Kind::String,
    Kind::Number,
    Kind::Array,
    Kind::Boolean,
    Kind::Null,
];

/// The pattern matching the kind `kind` in a `match` on the instance's kind
/// (`v.kind()`: an [`Instance`](schemac_runtime::instance::Instance) method).
pub(super) fn kind_pattern(kind: Kind) -> TokenStream {
    match kind {
        Kind::Null => quote!(__rt::Kind::Null),
        Kind::Boolean => quote!(__rt::Kind::Bool),
        Kind::Number => quote!(__rt::Kind::Number),
        Kind::String => quote!(__rt::Kind::String),
        Kind::Array => quote!(__rt::Kind::Array),
        Kind::Object => quote!(__rt::Kind::Object),
    }
}

/// A test that the instance is of one of `kinds`.
pub(super) fn kind_test(kinds: &[Kind]) -> TokenStream {
    let patterns = kinds.iter().map(|&k| kind_pattern(k));
    quote!(matches!(v.kind(), #(#patterns)|*))
}

/// The pattern matching the kind `kind` in a `match` on the instance's shape
/// (`&v.shape()`), binding what its checks read (`b`, `num`, `text`, `arr`, `obj`) when
/// `binds`.
pub(super) fn shape_pattern(kind: Kind, binds: bool) -> TokenStream {
    match (kind, binds) {
        (Kind::Null, _) => quote!(__rt::Shape::Null),
        (Kind::Boolean, true) => quote!(__rt::Shape::Bool(b)),
        (Kind::Boolean, false) => quote!(__rt::Shape::Bool(_)),
        (Kind::Number, true) => quote!(__rt::Shape::Number(num)),
        (Kind::Number, false) => quote!(__rt::Shape::Number(_)),
        (Kind::String, true) => quote!(__rt::Shape::String(text)),
        (Kind::String, false) => quote!(__rt::Shape::String(_)),
        (Kind::Array, true) => quote!(__rt::Shape::Array(arr)),
        (Kind::Array, false) => quote!(__rt::Shape::Array(_)),
        (Kind::Object, true) => quote!(__rt::Shape::Object(obj)),
        (Kind::Object, false) => quote!(__rt::Shape::Object(_)),
    }
}

impl Gen<'_> {
    /// A run of type-dependent checks as one dispatch on the value's variant; it ends
    /// (short-circuit code) where every variant fails unconditionally.
    pub(super) fn dispatch(&self, f: &Fun<'_>, checks: &[(Check, When)]) -> Code {
        let arms: Vec<(Kind, Code)> = ARMS
            .into_iter()
            .map(|kind| (kind, self.arm(&ArmCx { f, kind }, checks)))
            .collect();
        let all_end = arms.iter().all(|(_, code)| code.ends());
        // Group arms whose code is identical and binds nothing.
        let mut groups: Vec<(Vec<Kind>, Code, String)> = Vec::new();
        for (kind, code) in arms {
            if code.is_empty() {
                continue;
            }
            let key = code.render().to_string();
            if !code.binds() {
                if let Some(g) = groups.iter_mut().find(|(_, c, k)| !c.binds() && *k == key) {
                    g.0.push(kind);
                    continue;
                }
            }
            groups.push((vec![kind], code, key));
        }
        if groups.is_empty() {
            return Code::default();
        }
        // The variants no check applies to: they pass.
        let passing: Vec<Kind> = ARMS
            .into_iter()
            .filter(|v| !groups.iter().any(|(vs, ..)| vs.contains(v)))
            .collect();
        if groups.len() == 1 && passing.is_empty() && !groups[0].1.binds() {
            // The same code for every variant: no dispatch needed.
            return groups.remove(0).1;
        }
        if groups.len() == 1 && !groups[0].1.binds() {
            // One outcome besides passing: a test of whichever side names fewer variants.
            let (vs, code, _) = groups.remove(0);
            let cond = if vs.len() > passing.len() {
                let test = kind_test(&passing);
                quote!(!#test)
            } else {
                kind_test(&vs)
            };
            return Code::if_then(cond, code).using(Uses::V);
        }
        if groups.len() == 1 {
            let (vs, code, _) = groups.remove(0);
            let ps = vs.iter().map(|&v| shape_pattern(v, true));
            let tokens = code.render();
            return Code::built_from(quote!(if let #(#ps)|* = &v.shape() { #tokens }), [&code])
                .declaring(Uses::BINDING)
                .using(Uses::V);
        }
        // A match on the shape where an arm reads what it binds, else on the kind.
        let shaped = groups.iter().any(|(_, code, _)| code.binds());
        let pattern = |vs: &[Kind], binds: bool| -> TokenStream {
            let ps: Vec<_> = if shaped {
                vs.iter().map(|&v| shape_pattern(v, binds)).collect()
            } else {
                vs.iter().map(|&v| kind_pattern(v)).collect()
            };
            quote!(#(#ps)|*)
        };
        let scrutinee = if shaped {
            quote!(&v.shape())
        } else {
            quote!(v.kind())
        };
        // The outcome shared by the most variants is the last arm, `_`: passing, or the
        // largest group of several variants that binds nothing (usually the wrong types'
        // failure). Fewer explicit cases let the compiler test the variant with a
        // comparison or two where a jump table would mispredict.
        let fallback = groups
            .iter()
            .enumerate()
            .filter(|(_, (vs, code, _))| !code.binds() && vs.len() > 1.max(passing.len()))
            .max_by_key(|(i, (vs, ..))| (vs.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        // With passing as `_`, a lone `if` is its arm's guard.
        let guards = fallback.is_none() && !passing.is_empty();
        let mut arms: Vec<_> = groups
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != fallback)
            .map(|(_, (vs, code, _))| {
                let p = pattern(vs, code.binds());
                match code.single_if() {
                    Some((cond, body)) if guards => {
                        let body = body.arm(f.mode);
                        quote!(#p if #cond => #body)
                    }
                    _ => {
                        let code = code.arm(f.mode);
                        quote!(#p => #code)
                    }
                }
            })
            .collect();
        let rest = match fallback {
            Some(i) => {
                if !passing.is_empty() {
                    let p = pattern(&passing, false);
                    arms.push(quote!(#p => {}));
                }
                let code = groups[i].1.arm(f.mode);
                quote!(_ => #code)
            }
            None if !passing.is_empty() => quote!(_ => {}),
            None => quote!(),
        };
        let code = Code::built_from(
            quote! {
                match #scrutinee {
                    #(#arms)*
                    #rest
                }
            },
            groups.iter().map(|(_, code, _)| code),
        )
        .declaring(Uses::BINDING)
        .using(Uses::V);
        if all_end {
            code.ending()
        } else {
            code
        }
    }

    /// The code of the checks of a run that apply to one variant, each where it applies.
    pub(super) fn arm(&self, a: &ArmCx<'_, '_>, checks: &[(Check, When)]) -> Code {
        let f = a.f;
        let mut out = Code::default();
        // Short-circuit code also finds several required names in one pass: a lookup by
        // name costs more than a step of the loop on the objects schemas describe.
        let required: usize = checks
            .iter()
            .map(|(c, _)| match &c.kind {
                CheckKind::Required(names) => names.len(),
                _ => 0,
            })
            .sum();
        // `unevaluatedProperties` joins the pass where the node absorbed everything that
        // evaluates properties (see `Absorption::unevaluated`).
        let in_loop = |kind: &CheckKind| {
            in_object_pass(kind)
                || (f.absorbed.unevaluated && matches!(kind, CheckKind::UnevaluatedProperties(_)))
        };
        let object_loop = a.kind == Kind::Object
            && (checks.iter().any(|(c, _)| in_loop(&c.kind))
                || (f.mode == Mode::Check && required >= REQUIRED_IN_LOOP));
        let mut loop_done = false;
        for (check, when) in checks {
            if out.ends() && f.mode == Mode::Check {
                break;
            }
            // (Error-collecting code reports a long list on its own: `Gen::name_list`.)
            let fused = in_loop(&check.kind)
                || matches!(&check.kind, CheckKind::Required(names) if !reported_apart(f, names));
            if object_loop && fused {
                if !loop_done {
                    loop_done = true;
                    out.push(self.object_loop(a, checks));
                }
                out.push(self.applied(a, check));
                continue;
            }
            // (A check that applies under a condition does not end the arm.)
            out.push(when.guard(self.typed(a, check)));
        }
        out
    }

    /// One type-dependent check within the arm of `a.kind`.
    pub(super) fn typed(&self, a: &ArmCx<'_, '_>, check: &Check) -> Code {
        let f = a.f;
        let kind = a.kind;
        // A failure where `cond` holds, reading the arm's binding.
        let fail_if = |cond: TokenStream| Code::if_then(cond, self.fail_check(f, check)).binding();
        match (&check.kind, kind) {
            (CheckKind::Type(ts), _) => match kind.type_test(*ts) {
                TypeTest::Pass => Code::default(),
                TypeTest::Fail => self.fail_check(f, check),
                TypeTest::IfInteger => Code::if_then(
                    quote!(!__rt::json::is_integer(num)),
                    self.fail_check(f, check),
                )
                .binding(),
            },
            // (`-0` read from bytes is an integer: its text has no fraction.)
            (CheckKind::IntegerLiteral(_), Kind::Number) => Code::if_then(
                quote!(__rt::json::is_integral_float(num) && !v.written_integral()),
                self.fail_check(f, check),
            )
            .binding()
            .using(Uses::V),
            (CheckKind::ContentBase64, Kind::String) => {
                fail_if(quote!(!__rt::content::is_base64(text)))
            }
            (CheckKind::ContentJson { base64 }, Kind::String) => {
                fail_if(quote!(!__rt::content::is_json(text, #base64)))
            }
            (CheckKind::Const(value), _) => self.enum_test(a, check, std::slice::from_ref(value)),
            (CheckKind::Enum(values), _) => self.enum_test(a, check, values),
            (CheckKind::MultipleOf(d), Kind::Number) => {
                let divisor = value::divisor_tokens(*d);
                fail_if(quote!(!__rt::json::is_multiple_of(num, #divisor)))
            }
            (CheckKind::Minimum(limit), Kind::Number) => {
                self.compare(a, check, limit, quote!(is_lt))
            }
            (CheckKind::Maximum(limit), Kind::Number) => {
                self.compare(a, check, limit, quote!(is_gt))
            }
            (CheckKind::ExclusiveMinimum(limit), Kind::Number) => {
                self.compare(a, check, limit, quote!(is_le))
            }
            (CheckKind::ExclusiveMaximum(limit), Kind::Number) => {
                self.compare(a, check, limit, quote!(is_ge))
            }
            (CheckKind::MinLength(n), Kind::String) => {
                if *n == 0 {
                    return Code::default();
                }
                fail_if(quote!(!__rt::min_length(text, #n)))
            }
            (CheckKind::MaxLength(n), Kind::String) => fail_if(quote!(!__rt::max_length(text, #n))),
            (CheckKind::Pattern(id), Kind::String) => {
                if self.program.regexes[id.0].compiled.is_none() {
                    return Code::default();
                }
                let test = self.regex_test(f.mode, *id, quote!(text));
                fail_if(quote!(!#test)).using(test.uses)
            }
            (CheckKind::Format(name), Kind::String) => {
                if !self.formats.contains_key(name)
                    && schemac_runtime::format::lookup(name).is_none()
                {
                    // Neither custom nor built in: passes, as in the interpreter.
                    return Code::default();
                }
                let rt = self.rt;
                let path = match self.formats.get(name) {
                    Some(path) => quote!(#path),
                    None => {
                        let ident = format_ident!("{}", format_fn_name(name));
                        quote!(#rt::format::#ident)
                    }
                };
                fail_if(quote!(!#path(text)))
            }
            (CheckKind::MinItems(n), Kind::Array) => {
                if *n == 0 {
                    return Code::default();
                }
                fail_if(quote!((arr.len() as u64) < #n))
            }
            (CheckKind::MaxItems(n), Kind::Array) => {
                if *n == u64::MAX {
                    return Code::default();
                }
                fail_if(quote!(arr.len() as u64 > #n))
            }
            (CheckKind::UniqueItems, Kind::Array) => {
                let st = state(f.mode);
                Code::if_then(
                    quote!(!#st.all_unique(arr.iter())?),
                    self.fail_check(f, check),
                )
                .using(Uses::CX | Uses::BINDING)
            }
            (CheckKind::PrefixItems(edges), Kind::Array) => self.prefix_items(a, check, edges),
            (CheckKind::Items { schema, skip }, Kind::Array) => self.items(a, check, schema, *skip),
            (CheckKind::Contains { schema, min, max }, Kind::Array) => {
                self.contains(a, check, schema, *min, *max)
            }
            (CheckKind::UnevaluatedItems(edge), Kind::Array) => {
                self.unevaluated_items(a, check, edge)
            }
            (CheckKind::MinProperties(n), Kind::Object) => {
                if *n == 0 {
                    return Code::default();
                }
                fail_if(quote!((obj.len() as u64) < #n))
            }
            (CheckKind::MaxProperties(n), Kind::Object) => {
                if *n == u64::MAX {
                    return Code::default();
                }
                fail_if(quote!(obj.len() as u64 > #n))
            }
            (CheckKind::Required(names), Kind::Object) => self.required(a, check, names),
            (CheckKind::DependentRequired(deps), Kind::Object) => {
                self.dependent_required(a, check, deps)
            }
            (CheckKind::DependentSchemas(deps), Kind::Object) => self.dependent_schemas(a, deps),
            (CheckKind::UnevaluatedProperties(edge), Kind::Object) => {
                self.unevaluated_properties(a, check, edge)
            }
            (
                CheckKind::Properties(_)
                | CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::PropertyNames(_),
                Kind::Object,
            ) => {
                // Always fused into `object_loop`.
                Code::default()
            }
            // A check on a kind it does not read passes. (`type`, `const` and `enum`, decided
            // on every kind above, are named here too.)
            #[allow(unreachable_patterns)]
            (dispatched_kind!(), _) => Code::default(),
            // `Gen::in_place` writes them.
            (undispatched_kind!(), _) => {
                debug_assert!(!check.kind.is_dispatchable());
                Code::default()
            }
        }
    }
}

/// Name of the runtime's function for a built-in format (`date-time` → `date_time`).
fn format_fn_name(name: &str) -> String {
    crate::names::module_name(name).unwrap_or_else(|| "_".to_string())
}
