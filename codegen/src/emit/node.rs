//! One IR node → two Rust functions (short-circuit `cN`, error-collecting `eN`).
//!
//! Takes a [`Program`]; gives the token streams of every reachable node's functions and
//! the `static` regex tables they use.

use super::value;
use crate::ir::{Check, CheckKind, Collect, Edge, Node, NodeId, Program, RegexId};
use crate::plan::lookup::{self, EnumTable};
use crate::plan::{Discriminator, Plan};
use crate::regex::PatternSet;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::error::TypeSet;
use serde_json::{Number, Value};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

/// Which of the two functions of a node is being generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Mode {
    /// Short-circuit: returns at the first failure, collects no errors.
    Check,
    /// Collects every error.
    Errors,
}

/// The name of node `id`'s function in `mode`.
pub(super) fn fn_name(id: NodeId, mode: Mode) -> proc_macro2::Ident {
    match mode {
        Mode::Check => format_ident!("c{}", id.0),
        Mode::Errors => format_ident!("e{}", id.0),
    }
}

fn regex_name(id: RegexId) -> proc_macro2::Ident {
    format_ident!("RE{}", id.0)
}

/// The generator for one program.
pub(super) struct Gen<'a> {
    plan: &'a Plan,
    program: &'a Program,
    rt: &'a TokenStream,
    formats: &'a BTreeMap<String, syn::Path>,
    /// Whether the error-collecting functions are generated.
    validate: bool,
    /// Whether they also collect annotations when the state asks (`evaluate`).
    evaluate: bool,
    /// Functions called by the bodies generated so far and not yet collected.
    called: RefCell<Vec<(Mode, NodeId)>>,
    /// Regexes referenced by generated code.
    used_regexes: RefCell<BTreeSet<RegexId>>,
    /// Lookup tables referenced by generated code (`enum` member tables, pattern
    /// prefilters), by their initializer's text: name and `static` item, in first-use order.
    tables: RefCell<BTreeMap<String, (proc_macro2::Ident, TokenStream)>>,
    /// The child sites of the error path ([`schemac_runtime::__private::Site`]): the
    /// `SITES` table.
    sites: RefCell<Listed>,
    /// The error sites of the error path ([`schemac_runtime::__private::Fault`]): the
    /// `FAULTS` table.
    faults: RefCell<Listed>,
    /// Whether generated code names [`schemac_runtime::__private::At`] (imported then).
    uses_at: Cell<bool>,
}

/// From this many `required` names on, short-circuit code tests them in a pass over the
/// object (see [`Gen::arm`]) rather than by a lookup each.
const REQUIRED_IN_LOOP: usize = 3;

/// The entries of a `static` table that generated code names by index: each distinct
/// initializer once, in first-use order.
#[derive(Default)]
struct Listed {
    entries: Vec<TokenStream>,
    index: BTreeMap<String, usize>,
}

impl Listed {
    /// The index of `entry`, added if it is new, as a literal.
    fn add(&mut self, entry: TokenStream) -> Literal {
        let next = self.index.len();
        let n = *self.index.entry(entry.to_string()).or_insert(next);
        if n == next {
            self.entries.push(entry);
        }
        Literal::usize_unsuffixed(n)
    }

    /// The `static` table `name` of element type `ty`, with its doc comment (nothing when
    /// it is empty).
    fn table(&self, name: &str, ty: &str, doc: &str) -> TokenStream {
        if self.entries.is_empty() {
            return quote!();
        }
        let (name, ty) = (format_ident!("{}", name), format_ident!("{}", ty));
        let n = Literal::usize_unsuffixed(self.entries.len());
        let entries = &self.entries;
        quote! {
            #[doc = #doc]
            static #name: [#ty; #n] = [#(#entries),*];
        }
    }
}

/// A generated function, before [`Gen::functions`] knows its callers.
struct Function {
    /// Its doc comment (the node's location).
    doc: String,
    /// It is meant to be inlined into its callers (a short-circuit function of an inline
    /// node).
    inline: bool,
    /// The `fn` item, without attributes.
    item: TokenStream,
}

/// Per-function state: what the body ended up using.
struct Fun<'a> {
    id: NodeId,
    node: &'a Node,
    mode: Mode,
    /// The statement that fails the node in short-circuit mode: `return Ok(false);`, or
    /// `break 'n false;` where the function has work to do after its body (leaving its
    /// region or its dynamic scope).
    exit: TokenStream,
    /// The instance parameter `v` is used.
    uses_v: Cell<bool>,
    /// The evaluated-location parameter `ev` is used.
    uses_ev: Cell<bool>,
    /// In-place children whose checks join the node's own ([`Gen::absorbed`]).
    absorbed: Vec<NodeId>,
}

/// Where a child's instance is, relative to the current one.
enum Inst {
    /// The same instance (in-place applicators).
    Same,
    /// `propertyNames`: the key as a string instance, located at the object.
    KeyAsValue,
    /// The value of object entry `k` (bound as `x`).
    Key,
    /// The value of object entry `k` (bound as `x`) as `properties` entry `name`: the
    /// keyword location is derived from `k`, so that entries alike but for their names
    /// share their code.
    Property(String),
    /// The value of property `name`, looked up by name rather than met in the pass over
    /// the object (a deferred property): by the call itself on the error path, else bound
    /// as `x`.
    Named(String),
    /// Array item `i` (bound as `x`), at a literal index.
    Index(usize),
    /// Array item `i` (bound as `x`), index bound as `i`.
    IndexVar,
}

/// The branches of an `anyOf` / `oneOf` as emitted: with a discriminator, `tag` binds the
/// instance's [`schemac_runtime::json::Tag`] and each branch's guard (`matches!(tag, ..)
/// &&`, empty where every tag is admitted) comes before its call.
struct Branches<'e> {
    edges: &'e [Edge],
    tag: TokenStream,
    guards: Vec<TokenStream>,
}

/// What a child call passes for the child's evaluated-location set.
enum EvArg {
    /// A fresh set whose contents are dropped.
    Throwaway,
    /// The fresh set bound to `sub`.
    Sub,
    /// The node's own set `ev`: in short-circuit evaluation, a child whose failure fails
    /// the node records straight into it (a failed node's set is always dropped) unless
    /// the child reads its set ([`Gen::reads_evaluated`]).
    Parent,
}

impl<'a> Gen<'a> {
    pub(super) fn new(
        plan: &'a Plan,
        rt: &'a TokenStream,
        formats: &'a BTreeMap<String, syn::Path>,
        validate: bool,
        evaluate: bool,
    ) -> Gen<'a> {
        Gen {
            plan,
            validate,
            evaluate,
            program: &plan.program,
            rt,
            formats,
            called: RefCell::new(Vec::new()),
            used_regexes: RefCell::new(BTreeSet::new()),
            tables: RefCell::new(BTreeMap::new()),
            sites: RefCell::default(),
            faults: RefCell::default(),
            uses_at: Cell::new(false),
        }
    }

    /// Every reachable node's functions, then the regex statics they use.
    pub(super) fn functions(&self) -> TokenStream {
        // Generate from the roots, following the calls each body makes: exactly the
        // functions that are called, so none is dead. Emitted in (mode, id) order.
        let root = self.callee(self.program.root, Mode::Check);
        let mut bodies: BTreeMap<(Mode, NodeId), Function> = BTreeMap::new();
        let mut work = vec![(Mode::Check, root)];
        if self.validate {
            work.push((Mode::Errors, self.program.root));
        }
        // Call sites of each short-circuit function in short-circuit code (the entry
        // points call the root's).
        let mut check_calls: BTreeMap<NodeId, usize> = BTreeMap::from([(root, 1)]);
        while let Some(key) = work.pop() {
            if bodies.contains_key(&key) {
                continue;
            }
            let function = self.function(key.1, key.0);
            bodies.insert(key, function);
            let called = std::mem::take(&mut *self.called.borrow_mut());
            if key.0 == Mode::Check {
                for (_, callee) in &called {
                    *check_calls.entry(*callee).or_default() += 1;
                }
            }
            work.extend(called);
        }
        let checked: BTreeSet<NodeId> = bodies
            .keys()
            .filter(|(mode, _)| *mode == Mode::Check)
            .map(|(_, id)| *id)
            .collect();
        let mut out = TokenStream::new();
        for ((mode, id), function) in bodies {
            let Function { doc, inline, item } = function;
            // `eN` is located where `cN` is, which says so when there is one.
            let doc =
                (mode == Mode::Check || !checked.contains(&id)).then(|| quote!(#[doc = #doc]));
            // An inline short-circuit function called from one place in short-circuit
            // code is inlined there in optimized builds, as it would be without the error
            // path's own call to it (a second caller LLVM counts against inlining). Not
            // in debug builds: at opt-level 0 the caller's frame would get a slot for
            // every local of every function inlined into it, which the stack guard does
            // not count (and there the hint `inline` changes nothing). The same for the
            // root when only the entry points call it: inlined there, its prologue goes and
            // its first budget charge folds with the fresh state's constants.
            let hint = match (inline, mode, check_calls.get(&id)) {
                (false, Mode::Check, Some(1)) if id == root => {
                    quote!(#[cfg_attr(not(debug_assertions), inline(always))])
                }
                (false, ..) => quote!(),
                (true, Mode::Check, Some(1)) if self.plan.node(id).steps => quote!(#[inline]),
                (true, Mode::Check, Some(1)) => {
                    quote!(#[cfg_attr(not(debug_assertions), inline(always))])
                }
                (true, ..) => quote!(#[inline]),
            };
            out.extend(quote! {
                #doc
                #hint
                #item
            });
        }
        let rt = self.rt;
        for &id in self.used_regexes.borrow().iter() {
            let name = regex_name(id);
            let entry = &self.program.regexes[id.0];
            let doc = doc_text(&entry.source);
            let expr = match &entry.compiled {
                Some(compiled) => regex_tokens(compiled, rt),
                None => continue,
            };
            let ty = regex_type(rt);
            out.extend(quote! {
                #[doc = #doc]
                static #name: #ty = #expr;
            });
        }
        let mut tables: Vec<(proc_macro2::Ident, TokenStream)> =
            self.tables.borrow().values().cloned().collect();
        tables.sort_by_key(|(name, _)| table_number(name));
        out.extend(tables.into_iter().map(|(_, item)| item));
        out.extend(self.sites.borrow().table(
            "SITES",
            "Site",
            " Where each child subschema is, as the error-collecting function that evaluates\n \
             it sees it (keyword path, own absolute location, step), by index.",
        ));
        out.extend(self.faults.borrow().table(
            "FAULTS",
            "Fault",
            " The error sites of the error-collecting functions (keyword, what it asserted), by\n \
             index.",
        ));
        out
    }

    /// `uri` as a function's doc comment shows it: from its `#` on where it is in the root
    /// schema's document (the module's doc comment names that document), else whole.
    fn relative_location<'u>(&self, uri: &'u str) -> &'u str {
        uri.strip_prefix(root_document(self.program))
            .filter(|fragment| fragment.starts_with('#'))
            .unwrap_or(uri)
    }

    /// The `use` items the functions generated so far need beside the module's own.
    pub(super) fn imports(&self) -> TokenStream {
        // In the order rustfmt sorts them.
        let sites = !self.sites.borrow().entries.is_empty();
        let faults = !self.faults.borrow().entries.is_empty();
        let names: Vec<TokenStream> = [
            (self.uses_at.get(), quote!(At)),
            (self.validate, quote!(Done)),
            (self.validate, quote!(Errors)),
            (faults, quote!(Fault)),
            (sites, quote!(Site)),
        ]
        .into_iter()
        .filter_map(|(used, name)| used.then_some(name))
        .collect();
        match names.as_slice() {
            [] => quote!(),
            [name] => quote!(use __rt::#name;),
            _ => quote!(use __rt::{#(#names),*};),
        }
    }

    /// The arguments naming the module's tables that `Errors::new` takes: `SITES` and
    /// `FAULTS`, or empty slices for those it has not.
    pub(super) fn tables_args(&self) -> TokenStream {
        let arg = |listed: &RefCell<Listed>, name: &str| {
            let name = format_ident!("{}", name);
            if listed.borrow().entries.is_empty() {
                quote!(&[])
            } else {
                quote!(&#name)
            }
        };
        let (sites, faults) = (arg(&self.sites, "SITES"), arg(&self.faults, "FAULTS"));
        quote!(#sites, #faults)
    }

    /// The index of the site `Site(path, base, steps)` in the `SITES` table.
    fn site(&self, path: &str, base: TokenStream, steps: bool) -> Literal {
        self.sites
            .borrow_mut()
            .add(quote!(Site(#path, #base, #steps)))
    }

    /// The name of a `static` lookup table of type `ty` initialized by `expr` (`prefix`
    /// and a number), declared once however often it is used.
    fn table(
        &self,
        prefix: &str,
        doc: &str,
        ty: TokenStream,
        expr: TokenStream,
    ) -> proc_macro2::Ident {
        let key = format!("{prefix}{expr}");
        let mut tables = self.tables.borrow_mut();
        let next = tables.len();
        let (name, _) = tables.entry(key).or_insert_with(|| {
            let name = format_ident!("{}{}", prefix, next);
            let item = quote! {
                #[doc = #doc]
                static #name: #ty = #expr;
            };
            (name, item)
        });
        name.clone()
    }

    /// The `static` member table of a large `enum`.
    fn enum_table(&self, table: &EnumTable) -> proc_macro2::Ident {
        let rt = self.rt;
        self.table(
            "EN",
            " The sorted members of a large `enum`, looked up by binary search.",
            quote!(#rt::lookup::Members<'static>),
            table.to_tokens(rt),
        )
    }

    /// The `static` holding an absolute location a child's errors start from (a `$ref`
    /// target's): one per location, however many references lead there.
    fn base_uri(&self, uri: &str) -> proc_macro2::Ident {
        self.table(
            "URI",
            " A reference target's absolute location.",
            quote!(&str),
            quote!(#uri),
        )
    }

    /// The `static` prefilter of a list of patterns.
    fn pattern_set(&self, set: &PatternSet) -> proc_macro2::Ident {
        let rt = self.rt;
        self.table(
            "PS",
            " The literal starts of a list of patterns: which may match a key.",
            quote!(#rt::regex::PrefixSet<'static>),
            set.to_tokens(rt),
        )
    }

    /// Whether regex `id` matches `text`, as a `bool` expression (`?` applied): by its fast
    /// path inlined at the call where that decides every input (specialized there to the
    /// pattern), else by the runtime's shared search.
    fn regex_test(&self, mode: Mode, id: RegexId, text: TokenStream) -> TokenStream {
        self.used_regexes.borrow_mut().insert(id);
        let re = regex_name(id);
        let st = state(mode);
        // The fast path inlined with the pattern's constants (a search out of line where
        // it leaves the answer open).
        let fast = self.program.regexes[id.0]
            .compiled
            .as_ref()
            .is_some_and(|c| c.has_fast_path());
        if fast {
            quote!(#st.is_match_fast(&#re, #text)?)
        } else {
            quote!(#st.is_match(&#re, #text)?)
        }
    }

    /// Code that tries `patterns` on the key `k` in order, running each one's `body` when it
    /// matches (an empty body skips the pattern): one `if` each, or, for a list with a
    /// prefilter, a loop over the candidates the prefilter leaves.
    fn try_patterns(&self, f: &Fun<'_>, patterns: &[(RegexId, TokenStream)]) -> TokenStream {
        let st = state(f.mode);
        let mut arms = Vec::new();
        for (index, (id, body)) in patterns.iter().enumerate() {
            if body.is_empty() || self.program.regexes[id.0].compiled.is_none() {
                continue;
            }
            let index = Literal::u32_unsuffixed(index as u32);
            arms.push((index, self.regex_test(f.mode, *id, quote!(k)), body));
        }
        let set = lookup::pattern_set(self.program, patterns.iter().map(|(id, _)| *id));
        match set {
            None => arms
                .into_iter()
                .map(|(_, test, body)| guarded_if(test, body.clone()))
                .collect(),
            Some(_) if arms.is_empty() => quote!(),
            Some(set) => {
                let name = self.pattern_set(&set);
                let body = match arms.as_slice() {
                    [(index, test, body)] => quote!(if p == #index && #test { #body }),
                    _ => {
                        let arms = arms.iter().map(|(index, test, body)| {
                            let body = arm_body(f.mode, body);
                            quote!(#index if #test => #body)
                        });
                        quote!(match p { #(#arms)* _ => {} })
                    }
                };
                quote!(for p in #st.candidates(&#name, k)? { #body })
            }
        }
    }

    /// The name of the function a call to `target` in `mode` goes to, recorded as called.
    fn call_name(&self, target: NodeId, mode: Mode) -> proc_macro2::Ident {
        let callee = self.callee(target, mode);
        self.called.borrow_mut().push((mode, callee));
        fn_name(callee, mode)
    }

    /// The node whose function a call in `mode` goes to: in short-circuit mode, the
    /// shared representative of `id`'s class.
    pub(super) fn callee(&self, id: NodeId, mode: Mode) -> NodeId {
        match mode {
            Mode::Check => self.plan.node(id).canonical,
            Mode::Errors => self.plan.error_representative(id),
        }
    }

    /// Whether node `id` reads its evaluated-location set (`unevaluated*`): it must start
    /// from an empty one, not from its parent's.
    fn reads_evaluated(&self, id: NodeId) -> bool {
        self.program.node(id).checks.iter().any(|c| {
            matches!(
                c.kind,
                CheckKind::UnevaluatedProperties(_) | CheckKind::UnevaluatedItems(_)
            )
        })
    }

    fn collects(&self, id: NodeId) -> bool {
        let c: Collect = self.program.node(id).collect;
        c.properties || c.items
    }

    /// The function of node `id` in `mode`.
    fn function(&self, id: NodeId, mode: Mode) -> Function {
        let node = self.program.node(id);
        let plan = self.plan.node(id);
        // An out-of-line node enters a region and leaves it after its body, unless depth
        // is not counted: then it only charges the budget.
        let region = plan.out_of_line && !self.plan.depth_free;
        let exit = if region || self.program.uses_dynamic_scope {
            quote!(break 'n false;)
        } else {
            quote!(return Ok(false);)
        };
        let f = Fun {
            id,
            node,
            mode,
            exit,
            uses_v: Cell::new(false),
            uses_ev: Cell::new(false),
            absorbed: self.absorbed(id, mode),
        };
        let (mut body, terminal) = self.checks(&f, &node.checks);
        let mut tail = quote!(true);
        let mut always_false = false;
        if terminal && mode == Mode::Check {
            // The last statement fails the node unconditionally: make it the value.
            body = strip_final_exit(body, &f.exit);
            tail = quote!(false);
            if !breaks_to_label(&body) {
                always_false = true;
            }
        }
        let breaks = breaks_to_label(&body);
        let own = self.own_annotations(&f);
        let name = fn_name(id, mode);
        let doc = doc_text(self.relative_location(&node.uri));
        let (state_ty, result_ty) = match mode {
            Mode::Check => (quote!(__rt::State), quote!(__rt::Res)),
            Mode::Errors => (quote!(Errors), quote!(Done)),
        };
        let st = state(mode);
        let v = if f.uses_v.get() {
            quote!(v)
        } else {
            quote!(_v)
        };
        let ev_param = if self.collects(id) {
            if f.uses_ev.get() {
                quote!(, ev: &mut __rt::Eval)
            } else {
                quote!(, _ev: &mut __rt::Eval)
            }
        } else {
            quote!()
        };
        let (scope_in, scope_out) = if self.program.uses_dynamic_scope {
            let r = node.resource.0 as u32;
            (
                quote!(let pushed = #st.push_scope(#r);),
                quote!(#st.pop_scope(pushed);),
            )
        } else {
            (quote!(), quote!())
        };
        let (cost, levels) = (plan.entry_cost, plan.height);
        let (enter, leave) = if plan.recursive {
            (
                quote!(#st.enter_cycle(#cost, #levels)?;),
                quote!(#st.leave_cycle(#levels);),
            )
        } else if region {
            (
                quote!(#st.enter_region(#cost, #levels)?;),
                quote!(#st.leave(#levels);),
            )
        } else if plan.out_of_line {
            (quote!(#st.spend_units(#cost)?;), quote!())
        } else {
            (quote!(), quote!())
        };
        let inner = match mode {
            Mode::Check if always_false => quote! {
                #enter
                #scope_in
                #body
                #scope_out
                #leave
                Ok(false)
            },
            Mode::Check if body.is_empty() => quote! {
                #enter
                #scope_in
                #scope_out
                #leave
                Ok(true)
            },
            Mode::Check if breaks => quote! {
                #enter
                #scope_in
                let ok = 'n: {
                    #body
                    #tail
                };
                #scope_out
                #leave
                Ok(ok)
            },
            Mode::Check => quote! {
                #enter
                #scope_in
                #body
                #scope_out
                #leave
                Ok(true)
            },
            // An error-collecting function's validity is whether it added errors, which
            // its caller reads off where it matters (`Errors::valid`): it returns `Ok(())`.
            Mode::Errors if body.is_empty() => {
                let annotate =
                    own.map(|own| quote!(cx.annotate(true, cx.annotation_mark(), v, #own);));
                quote! {
                    #enter
                    #scope_in
                    #annotate
                    #scope_out
                    #leave
                    Ok(())
                }
            }
            Mode::Errors if self.evaluate => {
                let own = own.unwrap_or_else(|| quote!(&[]));
                quote! {
                    #enter
                    #scope_in
                    let start = cx.mark();
                    let given = cx.annotation_mark();
                    #body
                    #scope_out
                    #leave
                    cx.annotate(cx.mark() == start, given, v, #own);
                    Ok(())
                }
            }
            Mode::Errors => quote! {
                #enter
                #scope_in
                #body
                #scope_out
                #leave
                Ok(())
            },
        };
        let cx = if uses_ident(&inner, "cx") {
            quote!(cx)
        } else {
            quote!(_cx)
        };
        Function {
            doc,
            inline: !plan.out_of_line && mode == Mode::Check,
            item: quote! {
                fn #name(#v: &Value, #cx: &mut #state_ty #ev_param) -> #result_ty {
                    #inner
                }
            },
        }
    }

    /// In short-circuit code, the in-place children of node `id` (`allOf` members, `$ref`
    /// targets) whose checks join the node's own, so that one pass over an object does
    /// the work of several: each child has `properties` or `required`, and its other
    /// checks are of those that join a run (see [`joins_a_run`]); the node neither
    /// records evaluated locations nor has `patternProperties` / `additionalProperties` of
    /// its own (whose keys are the node's own names). An inline child costs nothing to absorb; an out-of-line one (not
    /// recursive, in a program that counts no depth) is copied, so it is absorbed only
    /// where its pass merges with another. The verdict is the same, found in another
    /// order; the budget is the same, an out-of-line child's entry cost charged where
    /// its call was.
    fn absorbed(&self, id: NodeId, mode: Mode) -> Vec<NodeId> {
        let node = self.program.node(id);
        if mode != Mode::Check
            || node.collect.properties
            || node.collect.items
            || self.program.uses_dynamic_scope
            || node.checks.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::PatternProperties(_) | CheckKind::AdditionalProperties { .. }
                )
            })
        {
            return Vec::new();
        }
        let object_checks = |checks: &[Check]| {
            checks
                .iter()
                .any(|c| matches!(c.kind, CheckKind::Properties(_) | CheckKind::Required(_)))
        };
        let candidates: Vec<NodeId> = node
            .checks
            .iter()
            .flat_map(|c| match &c.kind {
                CheckKind::Ref(edge) => std::slice::from_ref(edge),
                CheckKind::AllOf(edges) => edges.as_slice(),
                _ => &[],
            })
            .map(|e| e.target)
            .filter(|&t| {
                let plan = self.plan.node(t);
                let checks = &self.program.node(t).checks;
                t != id
                    && plan.constant.is_none()
                    && !plan.recursive
                    && (!plan.out_of_line || self.plan.depth_free)
                    && object_checks(checks)
                    && checks.iter().all(|c| joins_a_run(&c.kind))
            })
            .collect();
        // An out-of-line child is copied only where its pass merges with another.
        let passes = usize::from(object_checks(&node.checks)) + candidates.len();
        candidates
            .into_iter()
            .filter(|&t| !self.plan.node(t).out_of_line || passes > 1)
            .collect()
    }

    /// The node's annotations as the runtime's list (`&[(token, absolute, JSON, strings
    /// only)]`), in an error-collecting function of generated code that evaluates; `None`
    /// when there is nothing to give.
    fn own_annotations(&self, f: &Fun<'_>) -> Option<TokenStream> {
        if !self.evaluate || f.mode != Mode::Errors {
            return None;
        }
        if f.node.annotations.is_empty() && f.node.checks.is_empty() {
            return None;
        }
        f.uses_v.set(true);
        let entries = f.node.annotations.iter().map(|a| {
            let token = crate::load::uri::escape_token(&a.keyword);
            let json = a.value.to_string();
            let strings_only = a.strings_only;
            quote!((#token, #json, #strings_only))
        });
        Some(quote!(&[#(#entries),*]))
    }

    /// The checks of a node, in IR order: runs of type-dependent checks become one `match`
    /// on the value's variant; in-place applicators run between them.
    fn checks(&self, f: &Fun<'_>, checks: &[Check]) -> (TokenStream, bool) {
        let mut out = TokenStream::new();
        // The absorbed children's checks join the first run (before everything when there
        // is none).
        let mut joining: Vec<Check> = f
            .absorbed
            .iter()
            .flat_map(|&t| self.program.node(t).checks.iter().cloned())
            .collect();
        if !joining.is_empty() && !checks.first().is_some_and(|c| dispatchable(&c.kind)) {
            let (code, terminal) = self.dispatch(f, &std::mem::take(&mut joining));
            out.extend(code);
            if terminal {
                return (out, true);
            }
        }
        let mut i = 0;
        while i < checks.len() {
            if dispatchable(&checks[i].kind) {
                let start = i;
                while i < checks.len() && dispatchable(&checks[i].kind) {
                    i += 1;
                }
                let (code, terminal) = if joining.is_empty() {
                    self.dispatch(f, &checks[start..i])
                } else {
                    let run: Vec<Check> = checks[start..i]
                        .iter()
                        .cloned()
                        .chain(std::mem::take(&mut joining))
                        .collect();
                    self.dispatch(f, &run)
                };
                out.extend(code);
                if terminal {
                    return (out, true);
                }
            } else {
                let (code, terminal) = self.in_place(f, i, &checks[i]);
                out.extend(code);
                i += 1;
                if terminal {
                    return (out, true);
                }
            }
        }
        (out, false)
    }

    /// Code that fails the node: its `exit` (check) or records the error of kind `kind` (a
    /// constant expression) at its error site in the `FAULTS` table (errors).
    fn fail(&self, f: &Fun<'_>, check: &Check, kind: TokenStream) -> TokenStream {
        match f.mode {
            Mode::Check => f.exit.clone(),
            Mode::Errors => {
                let keyword = &check.keyword;
                let n = self.faults.borrow_mut().add(quote!(Fault(#keyword, #kind)));
                quote!(cx.fail(#n);)
            }
        }
    }

    /// Code for a failed child whose errors are passed up: the node's `exit` (check) or
    /// nothing (errors: the child recorded them).
    fn fail_silent(&self, f: &Fun<'_>) -> TokenStream {
        match f.mode {
            Mode::Check => f.exit.clone(),
            Mode::Errors => quote!(),
        }
    }

    /// The evaluated-location argument of a call to `target` (none when it records none).
    fn ev_arg(&self, target: NodeId, ev: &EvArg) -> TokenStream {
        match (self.collects(target), ev) {
            (false, _) => quote!(),
            (true, EvArg::Sub) => quote!(, &mut sub),
            (true, EvArg::Parent) => quote!(, ev),
            (true, EvArg::Throwaway) => quote!(, &mut __rt::Eval::new()),
        }
    }

    /// An expression evaluating `edge`'s target on the instance `inst`: of type `Res`
    /// (check), or `Done` (errors: see [`Gen::validity`]).
    fn child(
        &self,
        f: &Fun<'_>,
        edge: &Edge,
        target: NodeId,
        inst: &Inst,
        ev: &EvArg,
    ) -> TokenStream {
        let name = self.call_name(target, f.mode);
        let value = match inst {
            Inst::Same => {
                f.uses_v.set(true);
                quote!(v)
            }
            Inst::KeyAsValue => quote!(__rt::key_value(&mut name, k)),
            Inst::Key | Inst::Property(_) | Inst::Named(_) | Inst::Index(_) | Inst::IndexVar => {
                quote!(x)
            }
        };
        let ev_arg = self.ev_arg(target, ev);
        let call = quote!(#name(#value, cx #ev_arg));
        // A child instance that may recur is a step into the instance (see `crate::plan`).
        let steps =
            !matches!(inst, Inst::Same) && self.plan.node(target).steps && !self.plan.depth_free;
        match f.mode {
            Mode::Check if steps => quote!(cx.stepping(|cx| #call)),
            Mode::Check => call,
            Mode::Errors => {
                let mut path = edge.path.as_str();
                // Located as a `properties` entry (`At::Property`).
                let mut entry = false;
                let at = match inst {
                    Inst::Same => quote!(At::Here),
                    Inst::KeyAsValue => quote!(At::Name),
                    Inst::Key => quote!(At::Key(k)),
                    Inst::Property(name) | Inst::Named(name) => {
                        let key = match inst {
                            Inst::Named(_) => quote!(#name),
                            _ => quote!(k),
                        };
                        let named = format!("/properties/{}", crate::load::uri::escape_token(name));
                        match path.strip_prefix(named.as_str()) {
                            Some(rest) => {
                                path = rest;
                                entry = true;
                                quote!(At::Property(#key))
                            }
                            None => quote!(At::Key(#key)),
                        }
                    }
                    Inst::Index(i) => {
                        let i = Literal::usize_unsuffixed(*i);
                        quote!(At::Index(#i))
                    }
                    Inst::IndexVar => quote!(At::Index(i)),
                };
                // A child that is not where its parent's location leads (a `$ref` target,
                // a `$dynamicRef`'s) has its own absolute location set.
                let base = if target == edge.target
                    && crate::plan::extends_location(self.program, f.node, edge)
                {
                    quote!(None)
                } else {
                    let uri = self.base_uri(&self.program.node(target).uri);
                    quote!(Some(#uri))
                };
                // The callee itself where it takes only the instance and the state, so
                // that the call stays on one line.
                let eval = if ev_arg.is_empty() {
                    quote!(#name)
                } else {
                    quote!(|x, cx| #name(x, cx #ev_arg))
                };
                let site = self.site(path, base, steps);
                if !matches!(inst, Inst::Named(_) if entry) {
                    self.uses_at.set(true);
                }
                match inst {
                    Inst::Named(name) if entry => quote!(cx.property(obj, #name, #site, #eval)),
                    Inst::Named(name) => quote!(match obj.get(#name) {
                        Some(x) => cx.child(#site, #at, x, #eval),
                        None => Ok(()),
                    }),
                    _ => quote!(cx.child(#site, #at, #value, #eval)),
                }
            }
        }
    }

    /// A `Res` expression of whether the child evaluated by `call` (an expression from
    /// [`Gen::child`]) is valid: the call itself (check), or what it adds (errors).
    fn validity(&self, f: &Fun<'_>, call: TokenStream) -> TokenStream {
        match f.mode {
            Mode::Check => call,
            Mode::Errors => quote!(cx.valid(|cx| #call)),
        }
    }

    /// An in-place child whose errors pass up and whose annotations count when it is
    /// valid (`$ref`, `allOf`, `then`, `dependentSchemas`); failing fails the node.
    fn in_place_child(&self, f: &Fun<'_>, edge: &Edge, target: NodeId) -> TokenStream {
        if self.plan.node(target).constant == Some(true) {
            return quote!();
        }
        let merge = self.node_collects(f) && self.collects(target);
        if merge && f.mode == Mode::Check && !self.reads_evaluated(target) {
            f.uses_ev.set(true);
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Parent);
            let fail = self.fail_silent(f);
            return quote!(if !#call? { #fail });
        }
        if merge {
            f.uses_ev.set(true);
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Sub);
            let fail = self.fail_silent(f);
            let otherwise = if fail.is_empty() {
                quote!()
            } else {
                quote!(else { #fail })
            };
            let valid = self.validity(f, call);
            quote! {{
                let mut sub = __rt::Eval::new();
                let valid = #valid?;
                if valid { ev.merge(&sub); } #otherwise
            }}
        } else {
            let call = self.child(f, edge, target, &Inst::Same, &EvArg::Throwaway);
            match f.mode {
                Mode::Check => {
                    let fail = self.fail_silent(f);
                    quote!(if !#call? { #fail })
                }
                Mode::Errors => quote!(#call?;),
            }
        }
    }

    /// An `allOf` member or a `$ref` target: evaluated in place, unless the node absorbed
    /// it ([`Gen::absorbed`]) — then only an out-of-line one's entry cost is charged here.
    fn member(&self, f: &Fun<'_>, edge: &Edge) -> TokenStream {
        if !f.absorbed.contains(&edge.target) {
            return self.in_place_child(f, edge, edge.target);
        }
        let plan = self.plan.node(edge.target);
        let cost = plan.entry_cost;
        match plan.out_of_line {
            true => quote!(cx.spend_units(#cost)?;),
            false => quote!(),
        }
    }

    /// The bulk budget charge before a loop over `count` elements that applies `targets`
    /// to each (see [`Plan::loop_cost`]); nothing when they all charge on their own.
    fn loop_charge(&self, f: &Fun<'_>, count: TokenStream, targets: &[NodeId]) -> TokenStream {
        let per_element = self.plan.loop_cost(targets);
        if per_element == 0 {
            return quote!();
        }
        let st = state(f.mode);
        quote!(#st.spend(#count, #per_element)?;)
    }

    fn node_collects(&self, f: &Fun<'_>) -> bool {
        f.node.collect.properties || f.node.collect.items
    }

    /// Code of check `index` of the node (not a dispatched one); `true` when nothing
    /// after it can run.
    fn in_place(&self, f: &Fun<'_>, index: usize, check: &Check) -> (TokenStream, bool) {
        match &check.kind {
            CheckKind::False => match f.mode {
                Mode::Check => (f.exit.clone(), true),
                Mode::Errors => (quote!(cx.error_here();), false),
            },
            CheckKind::Unresolved { uri } => {
                let st = state(f.mode);
                (quote!(#st.unresolved(#uri)?;), false)
            }
            CheckKind::Ref(edge) => (self.member(f, edge), false),
            CheckKind::AllOf(edges) => {
                let parts: Vec<_> = edges.iter().map(|e| self.member(f, e)).collect();
                (quote!(#(#parts)*), false)
            }
            CheckKind::DynamicRef { fallback, anchor } => match anchor {
                None => (self.in_place_child(f, fallback, fallback.target), false),
                Some(name) => (self.dynamic_ref(f, fallback, name), false),
            },
            CheckKind::AnyOf(edges) | CheckKind::OneOf(edges) => {
                let branches = self.branches(f, edges, self.plan.discriminator(f.id, index));
                let code = match check.kind {
                    CheckKind::AnyOf(_) => self.any_of(f, check, &branches),
                    _ => self.one_of(f, check, &branches),
                };
                (code, false)
            }
            CheckKind::Not(edge) => {
                let call = self.silent_call(f, edge, &Inst::Same, &EvArg::Throwaway);
                let fail = self.fail(f, check, quote!(__rt::ErrorKind::Not));
                (quote!(if #call? { #fail }), false)
            }
            CheckKind::IfThenElse {
                condition,
                then,
                otherwise,
            } => (
                self.if_then_else(f, condition, then.as_ref(), otherwise.as_ref()),
                false,
            ),
            other => unreachable_kind(other),
        }
    }

    fn dynamic_ref(&self, f: &Fun<'_>, fallback: &Edge, name: &str) -> TokenStream {
        let targets = self.program.dynamic_targets(name);
        let st = state(f.mode);
        let merge_any = self.node_collects(f);
        // Short-circuit evaluation records straight into the node's set (see `EvArg::Parent`).
        let direct = f.mode == Mode::Check
            && !self.reads_evaluated(fallback.target)
            && !targets.iter().any(|(_, t)| self.reads_evaluated(*t));
        let call_for = |target: NodeId| -> TokenStream {
            let ev = match (merge_any && self.collects(target), direct) {
                (false, _) => EvArg::Throwaway,
                (true, true) => {
                    f.uses_ev.set(true);
                    EvArg::Parent
                }
                (true, false) => EvArg::Sub,
            };
            self.child(f, fallback, target, &Inst::Same, &ev)
        };
        let ids: Vec<u32> = targets.iter().map(|(r, _)| *r as u32).collect();
        let ids_pattern = id_pattern(&ids);
        let arms: Vec<TokenStream> = targets
            .iter()
            .map(|(r, t)| {
                let r = *r as u32;
                let call = call_for(*t);
                quote!(Some(#r) => #call,)
            })
            .collect();
        let fallback_call = call_for(fallback.target);
        let merge = !direct
            && merge_any
            && (self.collects(fallback.target) || targets.iter().any(|(_, t)| self.collects(*t)));
        let sub = if merge {
            f.uses_ev.set(true);
            quote!(let mut sub = __rt::Eval::new();)
        } else {
            quote!()
        };
        let on_valid = if merge {
            quote!(ev.merge(&sub);)
        } else {
            quote!()
        };
        let fail = self.fail_silent(f);
        let on_invalid = if fail.is_empty() {
            quote!()
        } else {
            quote!(else { #fail })
        };
        let call = quote! {
            match #st.outermost(|r| matches!(r, #ids_pattern)) {
                #(#arms)*
                _ => #fallback_call,
            }
        };
        let valid = self.validity(f, call);
        quote! {{
            #sub
            let valid = #valid?;
            if valid { #on_valid } #on_invalid
        }}
    }

    /// An expression of type `Res` evaluating `edge`'s target in short-circuit mode on
    /// `inst` (the current value, or item `i` bound as `x`), as the children whose errors
    /// are dropped (`anyOf`, `oneOf`, `not`, `if`, `contains`) always are — except in an
    /// evaluation, where the error-collecting function runs silently, for annotations.
    fn silent_call(&self, f: &Fun<'_>, edge: &Edge, inst: &Inst, ev: &EvArg) -> TokenStream {
        let value = match inst {
            Inst::Same => {
                f.uses_v.set(true);
                quote!(v)
            }
            _ => quote!(x),
        };
        let name = self.call_name(edge.target, Mode::Check);
        let ev_arg = self.ev_arg(edge.target, ev);
        match f.mode {
            Mode::Check => quote!(#name(#value, cx #ev_arg)),
            Mode::Errors if self.evaluate => {
                let annotating = self.child(f, edge, edge.target, inst, ev);
                quote! {
                    (if cx.annotating() {
                        cx.silently(|cx| #annotating)
                    } else {
                        #name(#value, &mut cx.state #ev_arg)
                    })
                }
            }
            Mode::Errors => quote!(#name(#value, &mut cx.state #ev_arg)),
        }
    }

    /// The branches of an `anyOf` / `oneOf`, with the tests of its discriminator.
    fn branches<'e>(
        &self,
        f: &Fun<'_>,
        edges: &'e [Edge],
        discriminator: Option<&Discriminator>,
    ) -> Branches<'e> {
        let type_guards = edges.iter().map(|e| self.type_guard(f, e.target));
        let Some(d) = discriminator else {
            return Branches {
                edges,
                tag: quote!(),
                guards: type_guards.collect(),
            };
        };
        f.uses_v.set(true);
        let property = &d.property;
        let tag = quote!(let tag = __rt::Tag::of(v, #property););
        let guards = d
            .branches
            .iter()
            .zip(type_guards)
            .map(|(admits, type_guard)| {
                if admits.admits_all() {
                    return type_guard;
                }
                let mut tags = vec![quote!(__rt::Tag::NotObject)];
                if !admits.required {
                    tags.push(quote!(__rt::Tag::Absent));
                }
                match &admits.values {
                    None => tags.push(quote!(__rt::Tag::Str(_) | __rt::Tag::Other)),
                    Some(values) if values.is_empty() => {}
                    Some(values) => tags.push(quote!(__rt::Tag::Str(#(#values)|*))),
                }
                quote!(matches!(tag, #(#tags)|*) && #type_guard)
            })
            .collect();
        Branches { edges, tag, guards }
    }

    /// A test of the instance's variant before a branch that fails at once on the other
    /// variants (an inline node whose first check is `type`), so that no call is made where
    /// it could only fail. An inline node charges nothing before that check: the budget is
    /// spent as if the call were made. Empty where there is nothing to test.
    fn type_guard(&self, f: &Fun<'_>, target: NodeId) -> TokenStream {
        if self.evaluate && f.mode == Mode::Errors {
            return quote!();
        }
        let callee = self.callee(target, Mode::Check);
        let plan = self.plan.node(callee);
        if plan.out_of_line || plan.recursive {
            return quote!();
        }
        let Some(CheckKind::Type(ts)) = self.program.node(callee).checks.first().map(|c| &c.kind)
        else {
            return quote!();
        };
        let admitted: Vec<TokenStream> = Variant::ALL
            .iter()
            .filter(|v| !matches!(v.type_test(*ts), TypeTest::Fail))
            .map(|v| v.pattern(false))
            .collect();
        if admitted.is_empty() || admitted.len() == Variant::ALL.len() {
            return quote!();
        }
        f.uses_v.set(true);
        quote!(matches!(v, #(#admitted)|*) &&)
    }

    fn any_of(&self, f: &Fun<'_>, check: &Check, branches: &Branches<'_>) -> TokenStream {
        let Branches { edges, tag, guards } = branches;
        let fail = self.fail(f, check, quote!(__rt::ErrorKind::AnyOf));
        if !self.node_collects(f) {
            let calls: Vec<_> = edges
                .iter()
                .zip(guards)
                .map(|(e, guard)| {
                    let c = self.silent_call(f, e, &Inst::Same, &EvArg::Throwaway);
                    quote!(#guard #c?)
                })
                .collect();
            if self.evaluate && f.mode == Mode::Errors {
                // An evaluation runs every branch: each valid one annotates.
                return quote! {{
                    #tag
                    let every = cx.annotating();
                    let mut any = false;
                    #(if (every || !any) && #calls { any = true; })*
                    if !any { #fail }
                }};
            }
            let test = quote!(if !(#(#calls)||*) { #fail });
            return if tag.is_empty() {
                test
            } else {
                quote!({ #tag #test })
            };
        }
        // A collecting node evaluates every branch: each valid one contributes annotations.
        let parts: Vec<_> = edges
            .iter()
            .zip(guards)
            .map(|(e, guard)| {
                if self.collects(e.target) {
                    f.uses_ev.set(true);
                    let call = self.silent_call(f, e, &Inst::Same, &EvArg::Sub);
                    quote! {{
                        let mut sub = __rt::Eval::new();
                        if #guard #call? { any = true; ev.merge(&sub); }
                    }}
                } else {
                    let call = self.silent_call(f, e, &Inst::Same, &EvArg::Throwaway);
                    quote!(if #guard #call? { any = true; })
                }
            })
            .collect();
        quote! {{
            #tag
            let mut any = false;
            #(#parts)*
            if !any { #fail }
        }}
    }

    fn one_of(&self, f: &Fun<'_>, check: &Check, branches: &Branches<'_>) -> TokenStream {
        let Branches { edges, tag, guards } = branches;
        let errors = f.mode == Mode::Errors;
        let collecting = self.node_collects(f);
        // Reporting counts every match; a collecting node lets every valid branch
        // contribute; otherwise a second match decides.
        let every = errors || collecting;
        // The error's kind holds the count: not a constant error site.
        let fail = match f.mode {
            Mode::Check => f.exit.clone(),
            Mode::Errors => {
                let keyword = &check.keyword;
                quote!(cx.error(#keyword, __rt::ErrorKind::OneOf { matched });)
            }
        };
        let parts: Vec<_> = edges
            .iter()
            .zip(guards)
            .enumerate()
            .map(|(idx, (e, guard))| {
                let merge = collecting && self.collects(e.target);
                let call = self.silent_call(
                    f,
                    e,
                    &Inst::Same,
                    if merge {
                        &EvArg::Sub
                    } else {
                        &EvArg::Throwaway
                    },
                );
                let too_many = if idx > 0 && !every {
                    quote!(if matched > 1 { #fail })
                } else {
                    quote!()
                };
                if merge {
                    f.uses_ev.set(true);
                    quote! {{
                        let mut sub = __rt::Eval::new();
                        if #guard #call? {
                            matched += 1;
                            ev.merge(&sub);
                        }
                    }}
                } else {
                    quote! {
                        if #guard #call? {
                            matched += 1;
                            #too_many
                        }
                    }
                }
            })
            .collect();
        quote! {{
            #tag
            let mut matched: u64 = 0;
            #(#parts)*
            if matched != 1 { #fail }
        }}
    }

    fn if_then_else(
        &self,
        f: &Fun<'_>,
        condition: &Edge,
        then: Option<&Edge>,
        otherwise: Option<&Edge>,
    ) -> TokenStream {
        let collecting = self.node_collects(f);
        let merge_cond = collecting && self.collects(condition.target);
        let call = self.silent_call(
            f,
            condition,
            &Inst::Same,
            if merge_cond {
                &EvArg::Sub
            } else {
                &EvArg::Throwaway
            },
        );
        let cond = quote!(let holds = #call?;);
        let (sub, merge) = if merge_cond {
            f.uses_ev.set(true);
            (
                quote!(let mut sub = __rt::Eval::new();),
                quote!(ev.merge(&sub);),
            )
        } else {
            (quote!(), quote!())
        };
        let branch = |edge: Option<&Edge>| {
            edge.map(|e| self.in_place_child(f, e, e.target))
                .filter(|code| !code.is_empty())
        };
        let (then_code, else_code) = (branch(then), branch(otherwise));
        let same = then_code.as_ref().map(ToString::to_string)
            == else_code.as_ref().map(ToString::to_string);
        let branches = match (merge_cond, then_code, else_code) {
            // `then` and `else` run the same code (identical subschemas): no test.
            (false, Some(t), Some(_)) if same => quote!(let _ = holds; #t),
            (false, None, None) => quote!(let _ = holds;),
            (false, Some(t), None) => guarded_if(quote!(holds), t),
            (false, None, Some(e)) => guarded_if(quote!(!holds), e),
            (_, t, e) => {
                let t = t.unwrap_or_default();
                let e = e.map(|e| quote!(else { #e })).unwrap_or_default();
                quote!(if holds { #merge #t } #e)
            }
        };
        quote! {{
            #sub
            #cond
            #branches
        }}
    }

    /// A run of type-dependent checks as one dispatch on the value's variant; `true` when
    /// every variant fails unconditionally (check mode), so nothing after it can run.
    fn dispatch(&self, f: &Fun<'_>, checks: &[Check]) -> (TokenStream, bool) {
        let mut arms: Vec<(Variant, TokenStream, bool, bool)> = Vec::new();
        for variant in Variant::ALL {
            let a = ArmCx {
                f,
                variant,
                uses_binding: Cell::new(false),
                terminal: Cell::new(false),
            };
            let code = self.arm(&a, checks);
            arms.push((variant, code, a.uses_binding.get(), a.terminal.get()));
        }
        let all_terminal = arms.iter().all(|(_, _, _, t)| *t);
        // Group arms whose code is identical and binds nothing.
        let mut groups: Vec<(Vec<Variant>, TokenStream, bool)> = Vec::new();
        for (variant, code, binds, _) in arms {
            if code.is_empty() {
                continue;
            }
            if !binds {
                let key = code.to_string();
                if let Some(g) = groups
                    .iter_mut()
                    .find(|(_, c, b, ..)| !*b && c.to_string() == key)
                {
                    g.0.push(variant);
                    continue;
                }
            }
            groups.push((vec![variant], code, binds));
        }
        let covered: usize = groups.iter().map(|g| g.0.len()).sum();
        if groups.is_empty() {
            return (quote!(), false);
        }
        if groups.len() == 1 && covered == Variant::ALL.len() && !groups[0].2 {
            // The same code for every variant: no dispatch needed.
            let code = &groups[0].1;
            return (quote!(#code), all_terminal);
        }
        let pattern = |vs: &[Variant], binds: bool| -> TokenStream {
            let ps: Vec<_> = vs.iter().map(|v| v.pattern(binds)).collect();
            quote!(#(#ps)|*)
        };
        f.uses_v.set(true);
        if groups.len() == 1 && covered < Variant::ALL.len() {
            let (vs, code, binds) = &groups[0];
            let p = pattern(vs, *binds);
            let code = if *binds {
                quote!(if let #p = v { #code })
            } else {
                quote!(if matches!(v, #p) { #code })
            };
            return (code, false);
        }
        let has_rest = covered < Variant::ALL.len();
        // When every variant has code, the largest group of several variants that binds
        // nothing (usually the wrong types' failure) is the last arm, as `_`.
        let fallback = groups
            .iter()
            .enumerate()
            .filter(|(_, (vs, _, binds))| !has_rest && !binds && vs.len() > 1)
            .max_by_key(|(i, (vs, ..))| (vs.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        let arms: Vec<_> = groups
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != fallback)
            .map(|(_, (vs, code, binds))| {
                let p = pattern(vs, *binds);
                match split_single_if(code) {
                    // With an empty fallback arm, a lone `if` is the arm's guard.
                    Some((cond, body)) if has_rest => {
                        let body = arm_body(f.mode, &body);
                        quote!(#p if #cond => #body)
                    }
                    _ => {
                        let code = arm_body(f.mode, code);
                        quote!(#p => #code)
                    }
                }
            })
            .collect();
        let rest = match fallback {
            Some(i) => {
                let code = &groups[i].1;
                let code = arm_body(f.mode, code);
                quote!(_ => #code)
            }
            None if has_rest => quote!(_ => {}),
            None => quote!(),
        };
        (
            quote! {
                match v {
                    #(#arms)*
                    #rest
                }
            },
            all_terminal,
        )
    }

    /// The code of the checks of a run that apply to one variant.
    fn arm(&self, a: &ArmCx<'_, '_>, checks: &[Check]) -> TokenStream {
        let f = a.f;
        let mut out = TokenStream::new();
        // Short-circuit code also finds several required names in one pass: a lookup by
        // name costs more than a step of the loop on the objects schemas describe.
        let required: usize = checks
            .iter()
            .map(|c| match &c.kind {
                CheckKind::Required(names) => names.len(),
                _ => 0,
            })
            .sum();
        let object_loop = a.variant == Variant::Object
            && (checks.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::Properties(_)
                        | CheckKind::PatternProperties(_)
                        | CheckKind::AdditionalProperties { .. }
                        | CheckKind::PropertyNames(_)
                )
            }) || (f.mode == Mode::Check && required >= REQUIRED_IN_LOOP));
        let mut loop_done = false;
        for check in checks {
            if a.terminal.get() && f.mode == Mode::Check {
                break;
            }
            let fused = matches!(
                check.kind,
                CheckKind::Properties(_)
                    | CheckKind::PatternProperties(_)
                    | CheckKind::AdditionalProperties { .. }
                    | CheckKind::PropertyNames(_)
                    | CheckKind::Required(_)
            );
            if object_loop && fused {
                if !loop_done {
                    loop_done = true;
                    out.extend(self.object_loop(a, checks));
                }
                out.extend(self.applied(a, check));
                continue;
            }
            out.extend(self.typed(a, check));
        }
        out
    }

    /// One type-dependent check within the arm of `a.variant`.
    fn typed(&self, a: &ArmCx<'_, '_>, check: &Check) -> TokenStream {
        let f = a.f;
        let variant = a.variant;
        let fail = |kind: TokenStream| self.fail(f, check, kind);
        // An unconditional failure.
        let always = |kind: TokenStream| {
            if f.mode == Mode::Check {
                a.terminal.set(true);
            }
            self.fail(f, check, kind)
        };
        match (&check.kind, variant) {
            (CheckKind::Type(ts), _) => {
                let kind = type_kind(*ts);
                match variant.type_test(*ts) {
                    TypeTest::Pass => quote!(),
                    TypeTest::Fail => always(kind),
                    TypeTest::IfInteger => {
                        a.uses_binding.set(true);
                        let fail = fail(kind);
                        quote!(if !__rt::json::is_integer(num) { #fail })
                    }
                }
            }
            (CheckKind::IntegerLiteral(ts), Variant::Number) => {
                a.uses_binding.set(true);
                let fail = fail(type_kind(*ts));
                quote!(if __rt::json::is_integral_float(num) { #fail })
            }
            (CheckKind::ContentBase64, Variant::String) => {
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::ContentEncoding {
                    encoding: __rt::Cow::Borrowed("base64")
                }));
                quote!(if !__rt::content::is_base64(text) { #fail })
            }
            (CheckKind::ContentJson { base64 }, Variant::String) => {
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::ContentMediaType {
                    media_type: __rt::Cow::Borrowed("application/json")
                }));
                quote!(if !__rt::content::is_json(text, #base64) { #fail })
            }
            (CheckKind::Const(value), _) => self.enum_test(
                a,
                check,
                std::slice::from_ref(value),
                quote!(__rt::ErrorKind::Const),
            ),
            (CheckKind::Enum(values), _) => {
                self.enum_test(a, check, values, quote!(__rt::ErrorKind::Enum))
            }
            (CheckKind::MultipleOf(d), Variant::Number) => {
                a.uses_binding.set(true);
                let lit = f64_tokens(*d);
                let fail = fail(quote!(__rt::ErrorKind::MultipleOf { divisor: #lit }));
                quote!(if !__rt::json::is_multiple_of(num, #lit) { #fail })
            }
            (CheckKind::Minimum(limit), Variant::Number) => {
                self.compare(a, check, limit, quote!(is_lt), quote!(Minimum))
            }
            (CheckKind::Maximum(limit), Variant::Number) => {
                self.compare(a, check, limit, quote!(is_gt), quote!(Maximum))
            }
            (CheckKind::ExclusiveMinimum(limit), Variant::Number) => {
                self.compare(a, check, limit, quote!(is_le), quote!(ExclusiveMinimum))
            }
            (CheckKind::ExclusiveMaximum(limit), Variant::Number) => {
                self.compare(a, check, limit, quote!(is_ge), quote!(ExclusiveMaximum))
            }
            (CheckKind::MinLength(n), Variant::String) => {
                if *n == 0 {
                    return quote!();
                }
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MinLength { limit: #n }));
                quote!(if !__rt::min_length(text, #n) { #fail })
            }
            (CheckKind::MaxLength(n), Variant::String) => {
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MaxLength { limit: #n }));
                quote!(if !__rt::max_length(text, #n) { #fail })
            }
            (CheckKind::Pattern(id), Variant::String) => {
                let entry = &self.program.regexes[id.0];
                if entry.compiled.is_none() {
                    return quote!();
                }
                a.uses_binding.set(true);
                let source = &entry.source;
                let fail = fail(quote!(__rt::ErrorKind::Pattern {
                    pattern: __rt::Cow::Borrowed(#source)
                }));
                let test = self.regex_test(f.mode, *id, quote!(text));
                quote!(if !#test { #fail })
            }
            (CheckKind::Format(name), Variant::String) => {
                if !self.formats.contains_key(name)
                    && schemac_runtime::format::lookup(name).is_none()
                {
                    // Neither custom nor built in: passes, as in the interpreter.
                    return quote!();
                }
                a.uses_binding.set(true);
                let rt = self.rt;
                let path = match self.formats.get(name) {
                    Some(path) => quote!(#path),
                    None => {
                        let ident = format_ident!("{}", format_fn_name(name));
                        quote!(#rt::format::#ident)
                    }
                };
                let fail = fail(quote!(__rt::ErrorKind::Format {
                    format: __rt::Cow::Borrowed(#name)
                }));
                quote!(if !#path(text) { #fail })
            }
            (CheckKind::MinItems(n), Variant::Array) => {
                if *n == 0 {
                    return quote!();
                }
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MinItems { limit: #n }));
                quote!(if (arr.len() as u64) < #n { #fail })
            }
            (CheckKind::MaxItems(n), Variant::Array) => {
                if *n == u64::MAX {
                    return quote!();
                }
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MaxItems { limit: #n }));
                quote!(if arr.len() as u64 > #n { #fail })
            }
            (CheckKind::UniqueItems, Variant::Array) => {
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::UniqueItems));
                quote!(if !__rt::json::all_unique(arr) { #fail })
            }
            (CheckKind::PrefixItems(edges), Variant::Array) => {
                a.uses_binding.set(true);
                let mark = self.node_collects(f) && f.node.collect.items;
                let parts: Vec<_> = edges
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let call = self.child(f, e, e.target, &Inst::Index(i), &EvArg::Throwaway);
                        let fail = self.fail_silent(f);
                        let get = if i == 0 {
                            quote!(arr.first())
                        } else {
                            let idx = Literal::usize_unsuffixed(i);
                            quote!(arr.get(#idx))
                        };
                        match f.mode {
                            Mode::Check => quote! {
                                if let Some(x) = #get {
                                    if !#call? { #fail }
                                }
                            },
                            Mode::Errors => quote! {
                                if let Some(x) = #get {
                                    #call?;
                                }
                            },
                        }
                    })
                    .collect();
                let mark_code = if mark {
                    f.uses_ev.set(true);
                    let n = Literal::usize_unsuffixed(edges.len());
                    quote!(ev.items.set_range(0, arr.len().min(#n));)
                } else {
                    quote!()
                };
                let applied = self.applied(a, check);
                quote!(#(#parts)* #mark_code #applied)
            }
            (CheckKind::Items { schema, skip }, Variant::Array) => {
                a.uses_binding.set(true);
                let mark = f.node.collect.items;
                let call = self.child(f, schema, schema.target, &Inst::IndexVar, &EvArg::Throwaway);
                let fail = self.fail_silent(f);
                let (iter, index) = match (*skip, f.mode) {
                    (0, Mode::Check) => (quote!(arr.iter()), quote!(x)),
                    (0, Mode::Errors) => (quote!(arr.iter().enumerate()), quote!((i, x))),
                    (n, Mode::Check) => {
                        let n = Literal::usize_unsuffixed(n);
                        (quote!(arr.iter().skip(#n)), quote!(x))
                    }
                    (n, Mode::Errors) => {
                        let n = Literal::usize_unsuffixed(n);
                        (quote!(arr.iter().enumerate().skip(#n)), quote!((i, x)))
                    }
                };
                let body = match f.mode {
                    Mode::Check => quote!(if !#call? { #fail }),
                    Mode::Errors => quote!(#call?;),
                };
                let mark_code = if mark {
                    f.uses_ev.set(true);
                    quote!(ev.items.set_range(0, arr.len());)
                } else {
                    quote!()
                };
                let count = match *skip {
                    0 => quote!(arr.len()),
                    n => {
                        let n = Literal::usize_unsuffixed(n);
                        quote!(arr.len().saturating_sub(#n))
                    }
                };
                let charge = self.loop_charge(f, count, &[schema.target]);
                let applied = self.applied(a, check);
                quote! {
                    #charge
                    for #index in #iter { #body }
                    #mark_code
                    #applied
                }
            }
            (CheckKind::Contains { schema, min, max }, Variant::Array) => {
                self.contains(a, check, schema, *min, *max)
            }
            (CheckKind::UnevaluatedItems(edge), Variant::Array) => {
                a.uses_binding.set(true);
                f.uses_ev.set(true);
                let st = state(f.mode);
                let call = self.child(f, edge, edge.target, &Inst::IndexVar, &EvArg::Throwaway);
                let body = match f.mode {
                    Mode::Check => {
                        let fail = self.fail_silent(f);
                        quote!(if !ev.items.get(i) && !#call? { #fail })
                    }
                    Mode::Errors => quote!(if !ev.items.get(i) { #call?; }),
                };
                let charge = self.loop_charge(f, quote!(arr.len()), &[edge.target]);
                // Its annotation: whether it applies to an item.
                let (applies, applied) = if self.annotates(f, check) {
                    let give = self.give(check, quote!(Value::Bool(true)));
                    (
                        quote!(let applies = cx.annotating() && (0..arr.len()).any(|i| !ev.items.get(i));),
                        quote!(if applies && cx.mark() == start { #give }),
                    )
                } else {
                    (quote!(), quote!())
                };
                quote! {
                    #st.charge(arr.len())?;
                    #charge
                    #applies
                    for (i, x) in arr.iter().enumerate() {
                        #body
                    }
                    ev.items.set_range(0, arr.len());
                    #applied
                }
            }
            (CheckKind::MinProperties(n), Variant::Object) => {
                if *n == 0 {
                    return quote!();
                }
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MinProperties { limit: #n }));
                quote!(if (obj.len() as u64) < #n { #fail })
            }
            (CheckKind::MaxProperties(n), Variant::Object) => {
                if *n == u64::MAX {
                    return quote!();
                }
                a.uses_binding.set(true);
                let fail = fail(quote!(__rt::ErrorKind::MaxProperties { limit: #n }));
                quote!(if obj.len() as u64 > #n { #fail })
            }
            (CheckKind::Required(names), Variant::Object) => {
                if names.is_empty() {
                    return quote!();
                }
                a.uses_binding.set(true);
                let parts: Vec<_> = names
                    .iter()
                    .map(|name| {
                        let fail = fail(quote!(__rt::ErrorKind::Required {
                            property: __rt::Cow::Borrowed(#name)
                        }));
                        quote!(if !obj.contains_key(#name) { #fail })
                    })
                    .collect();
                quote!(#(#parts)*)
            }
            (CheckKind::DependentRequired(deps), Variant::Object) => {
                if deps.iter().all(|(_, r)| r.is_empty()) {
                    return quote!();
                }
                a.uses_binding.set(true);
                let parts: Vec<_> = deps
                    .iter()
                    .filter(|(_, r)| !r.is_empty())
                    .map(|(property, required)| {
                        let inner: Vec<_> = required
                            .iter()
                            .map(|missing| {
                                let fail = fail(quote!(__rt::ErrorKind::DependentRequired {
                                    property: __rt::Cow::Borrowed(#property),
                                    missing: __rt::Cow::Borrowed(#missing)
                                }));
                                quote!(if !obj.contains_key(#missing) { #fail })
                            })
                            .collect();
                        guarded_if(quote!(obj.contains_key(#property)), quote!(#(#inner)*))
                    })
                    .collect();
                quote!(#(#parts)*)
            }
            (CheckKind::DependentSchemas(deps), Variant::Object) => {
                if deps.is_empty() {
                    return quote!();
                }
                a.uses_binding.set(true);
                let parts: Vec<_> = deps
                    .iter()
                    .map(|(property, edge)| {
                        let child = self.in_place_child(f, edge, edge.target);
                        guarded_if(quote!(obj.contains_key(#property)), child)
                    })
                    .collect();
                quote!(#(#parts)*)
            }
            (CheckKind::UnevaluatedProperties(edge), Variant::Object) => {
                a.uses_binding.set(true);
                f.uses_ev.set(true);
                let st = state(f.mode);
                let call = self.child(f, edge, edge.target, &Inst::Key, &EvArg::Throwaway);
                let (header, body) = match f.mode {
                    Mode::Check => {
                        let fail = self.fail_silent(f);
                        (
                            quote!(for (i, x) in obj.values().enumerate()),
                            quote!(if !ev.props.get(i) && !#call? { #fail }),
                        )
                    }
                    Mode::Errors => (
                        quote!(for (i, (k, x)) in obj.iter().enumerate()),
                        quote!(if !ev.props.get(i) { #call?; }),
                    ),
                };
                let charge = self.loop_charge(f, quote!(obj.len()), &[edge.target]);
                // Its annotation: the names it applies to.
                let (applies, applied) = if self.annotates(f, check) {
                    let give = self.give(check, quote!(value));
                    (
                        quote! {
                            let applies = if cx.annotating() {
                                Some(__rt::applied_names(obj, |i, _| Ok(!ev.props.get(i)))?)
                            } else {
                                None
                            };
                        },
                        quote!(if let (Some(value), true) = (applies, cx.mark() == start) { #give }),
                    )
                } else {
                    (quote!(), quote!())
                };
                quote! {
                    #st.charge(obj.len())?;
                    #charge
                    #applies
                    #header {
                        #body
                    }
                    ev.props.set_range(0, obj.len());
                    #applied
                }
            }
            (
                CheckKind::Properties(_)
                | CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::PropertyNames(_),
                Variant::Object,
            ) => {
                // Always fused into `object_loop`.
                quote!()
            }
            _ => quote!(),
        }
    }

    fn compare(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        limit: &Number,
        test: TokenStream,
        kind: TokenStream,
    ) -> TokenStream {
        a.uses_binding.set(true);
        let cmp = number_cmp(quote!(num), limit);
        let as_f64 = f64_tokens(limit.as_f64().unwrap_or(f64::NAN));
        let fail = self.fail(
            a.f,
            check,
            quote!(__rt::ErrorKind::#kind { limit: #as_f64 }),
        );
        quote!(if #cmp.#test() { #fail })
    }

    /// `const` / `enum`: the values of the arm's variant, compared without allocating.
    fn enum_test(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        values: &[Value],
        kind: TokenStream,
    ) -> TokenStream {
        let f = a.f;
        let of_variant: Vec<&Value> = values
            .iter()
            .filter(|v| Variant::of(v) == a.variant)
            .collect();
        if of_variant.is_empty() {
            if f.mode == Mode::Check {
                a.terminal.set(true);
            }
            return self.fail(f, check, kind);
        }
        let fail = self.fail(f, check, kind);
        let st = state(f.mode);
        match (a.variant, EnumTable::new(values)) {
            (Variant::String, Some(table)) if table.has_strings() && table.matches_inline() => {
                a.uses_binding.set(true);
                let units = table.str_units();
                let members = table.strings();
                return quote! {
                    #st.spend_units(#units)?;
                    if !matches!(text.as_str(), #(#members)|*) { #fail }
                };
            }
            (Variant::String, Some(table)) if table.has_strings() => {
                a.uses_binding.set(true);
                let name = self.enum_table(&table);
                return quote!(if !#st.is_str_member(&#name, text)? { #fail });
            }
            (Variant::Number, Some(table)) if table.has_numbers() => {
                a.uses_binding.set(true);
                let name = self.enum_table(&table);
                return quote!(if !#st.is_number_member(&#name, num)? { #fail });
            }
            _ => {}
        }
        match a.variant {
            Variant::Null => quote!(),
            Variant::Bool => {
                let t = of_variant.iter().any(|v| v.as_bool() == Some(true));
                let fa = of_variant.iter().any(|v| v.as_bool() == Some(false));
                match (t, fa) {
                    (true, true) => quote!(),
                    (true, false) => {
                        a.uses_binding.set(true);
                        quote!(if !*b { #fail })
                    }
                    _ => {
                        a.uses_binding.set(true);
                        quote!(if *b { #fail })
                    }
                }
            }
            Variant::String => {
                a.uses_binding.set(true);
                let mut strs: Vec<&str> = of_variant.iter().filter_map(|v| v.as_str()).collect();
                strs.dedup();
                if strs.len() == 1 {
                    let s = strs[0];
                    quote!(if text != #s { #fail })
                } else {
                    let mut sorted = strs.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    quote!(if !matches!(text.as_str(), #(#sorted)|*) { #fail })
                }
            }
            Variant::Number => {
                a.uses_binding.set(true);
                let tests: Vec<_> = of_variant
                    .iter()
                    .filter_map(|v| v.as_number())
                    .map(|n| {
                        let cmp = number_cmp(quote!(num), n);
                        quote!(#cmp.is_eq())
                    })
                    .collect();
                quote!(if !(#(#tests)||*) { #fail })
            }
            Variant::Array | Variant::Object => {
                f.uses_v.set(true);
                let tests: Vec<_> = of_variant
                    .iter()
                    .map(|val| value::equals(quote!(v), val, 0))
                    .collect();
                quote! {
                    let equal = #(#tests)||*;
                    if !equal { #fail }
                }
            }
        }
    }

    fn contains(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        schema: &Edge,
        min: u64,
        max: Option<u64>,
    ) -> TokenStream {
        let f = a.f;
        let mark = f.node.collect.items;
        a.uses_binding.set(true);
        let call = self.silent_call(f, schema, &Inst::IndexVar, &EvArg::Throwaway);
        let max_lit = match max {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        let fail = self.fail(
            f,
            check,
            quote!(__rt::ErrorKind::Contains { min: #min, max: #max_lit }),
        );
        // An evaluation locates each item (its annotations) and never stops early.
        let evaluates = self.evaluate && f.mode == Mode::Errors;
        let (iter, index) = if mark || evaluates {
            (quote!(arr.iter().enumerate()), quote!((i, x)))
        } else {
            (quote!(arr.iter()), quote!(x))
        };
        let mark_code = if mark {
            f.uses_ev.set(true);
            quote!(ev.items.set(i);)
        } else {
            quote!()
        };
        // Its annotation (2020-12): the indices that match.
        let (matched, record, applied) = if self.annotates(f, check) {
            let give = self.give(check, quote!(Value::from(matched)));
            (
                quote!(let mut matched = __rt::Indices::new();),
                quote!(if cx.annotating() {
                    matched.push(i);
                }),
                quote!(if cx.annotating() && cx.mark() == start { #give }),
            )
        } else {
            (quote!(), quote!(), quote!())
        };
        // `cond && ` when an evaluation must not stop early.
        let unless_evaluating = if evaluates {
            quote!(!cx.annotating() &&)
        } else {
            quote!()
        };
        let charge = self.loop_charge(f, quote!(arr.len()), &[schema.target]);
        if min == 0 && max.is_none() {
            // Cannot fail: evaluated for annotations (and the budget) only.
            let body = if mark {
                quote!(if #call? { #mark_code #record })
            } else if !record.is_empty() {
                quote!(if #call? { #record if !cx.annotating() { break; } })
            } else if evaluates {
                quote!(if #call? && !cx.annotating() { break; })
            } else {
                quote!(if #call? { break; })
            };
            return quote! {
                #charge
                #matched
                for #index in #iter {
                    #body
                }
                #applied
            };
        }
        // Without annotations to collect, stop as soon as the count decides.
        let early = if mark {
            quote!()
        } else {
            match max {
                None => quote!(if #unless_evaluating count >= #min { break; }),
                Some(m) => quote!(if #unless_evaluating count > #m { break; }),
            }
        };
        let verdict = match (min, max) {
            (0, Some(m)) => quote!(if count > #m { #fail }),
            (min, None) => quote!(if count < #min { #fail }),
            (min, Some(m)) => quote!(if !__rt::in_range(count, #min, #m) { #fail }),
        };
        quote! {{
            #charge
            #matched
            let mut count: u64 = 0;
            for #index in #iter {
                if #call? {
                    count += 1;
                    #mark_code
                    #record
                    #early
                }
            }
            #verdict
            #applied
        }}
    }

    /// Whether `check` gives an applicator annotation in this function: an evaluation's
    /// error-collecting function (see [`crate::ir`]'s "Applicator annotations").
    fn annotates(&self, f: &Fun<'_>, check: &Check) -> bool {
        self.evaluate && f.mode == Mode::Errors && check.annotates
    }

    /// Gives `check`'s applicator annotation `value` (an expression of type `Value`) at the
    /// current locations.
    fn give(&self, check: &Check, value: TokenStream) -> TokenStream {
        let keyword = &check.keyword;
        quote!(cx.annotate_applied(#keyword, #value);)
    }

    /// The applicator annotation of `check` that the instance decides (the object
    /// applicators, `prefixItems`, `items`), given after the check while the node is valid
    /// — `start` is the error mark the function began with — in an evaluation; nothing
    /// otherwise. Patterns are tried again, in order, as the interpreter does.
    fn applied(&self, a: &ArmCx<'_, '_>, check: &Check) -> TokenStream {
        let f = a.f;
        if !self.annotates(f, check) {
            return quote!();
        }
        a.uses_binding.set(true);
        let st = state(f.mode);
        // Whether a key is named, or matches a live pattern: each test, in order.
        let tests = |names: &[String], ids: &mut dyn Iterator<Item = RegexId>| {
            let names: BTreeSet<&str> = names.iter().map(String::as_str).collect();
            let named = (!names.is_empty()).then(|| quote!(matches!(k, #(#names)|*)));
            let tries = ids
                .filter(|id| self.program.regexes[id.0].compiled.is_some())
                .map(|id| self.regex_test(f.mode, id, quote!(k)));
            named.into_iter().chain(tries).collect::<Vec<_>>()
        };
        let any_of = |tests: Vec<TokenStream>| {
            if tests.is_empty() {
                quote!(false)
            } else {
                quote!(#(#tests)||*)
            }
        };
        let test = match &check.kind {
            CheckKind::Properties(entries) => {
                let names: Vec<String> = entries.iter().map(|(n, _)| n.clone()).collect();
                any_of(tests(&names, &mut std::iter::empty()))
            }
            CheckKind::PatternProperties(entries) => {
                let tries = tests(&[], &mut entries.iter().map(|(id, _)| *id));
                match tries.as_slice() {
                    // One pattern: its own result (`Ok(..?)` would be needless).
                    [_] => {
                        let id = entries
                            .iter()
                            .map(|(id, _)| *id)
                            .find(|id| self.program.regexes[id.0].compiled.is_some());
                        let re = id.map(regex_name);
                        let give = self.give(check, quote!(value));
                        return quote! {
                            if cx.annotating() && cx.mark() == start {
                                let value = __rt::applied_names(obj, |_, k| #st.is_match(&#re, k))?;
                                #give
                            }
                        };
                    }
                    _ => any_of(tries),
                }
            }
            CheckKind::AdditionalProperties {
                known, patterns, ..
            } => {
                let covered = tests(known, &mut patterns.iter().copied());
                if covered.is_empty() {
                    quote!(true)
                } else {
                    quote!(#(!#covered)&&*)
                }
            }
            CheckKind::PrefixItems(edges) => {
                let n = Literal::usize_unsuffixed(edges.len());
                let give = self.give(check, quote!(value));
                return quote! {
                    if cx.annotating() && cx.mark() == start {
                        if let Some(value) = __rt::prefix_items_value(arr.len(), #n) { #give }
                    }
                };
            }
            CheckKind::Items { skip, .. } => {
                let applies = match *skip {
                    0 => quote!(!arr.is_empty()),
                    n => {
                        let n = Literal::usize_unsuffixed(n);
                        quote!(arr.len() > #n)
                    }
                };
                let give = self.give(check, quote!(Value::Bool(true)));
                return quote! {
                    if #applies && cx.annotating() && cx.mark() == start { #give }
                };
            }
            _ => return quote!(),
        };
        let give = self.give(check, quote!(value));
        let k = if uses_ident(&test, "k") {
            quote!(k)
        } else {
            quote!(_)
        };
        quote! {
            if cx.annotating() && cx.mark() == start {
                let value = __rt::applied_names(obj, |_, #k| Ok(#test))?;
                #give
            }
        }
    }

    /// `properties`, `patternProperties`, `additionalProperties`, `propertyNames` and
    /// `required` of one run, in one pass over the object.
    fn object_loop(&self, a: &ArmCx<'_, '_>, checks: &[Check]) -> TokenStream {
        let f = a.f;
        a.uses_binding.set(true);
        let mark = f.node.collect.properties;
        let mut properties: Vec<(&String, &Edge)> = Vec::new();
        let mut patterns: Vec<(RegexId, &Edge)> = Vec::new();
        let mut additional: Option<(&Edge, &[String], &[RegexId])> = None;
        let mut names_edge: Option<&Edge> = None;
        let mut required: Vec<(&Check, &String)> = Vec::new();
        for check in checks {
            match &check.kind {
                CheckKind::Properties(ps) => properties.extend(ps.iter().map(|(n, e)| (n, e))),
                CheckKind::PatternProperties(ps) => {
                    patterns.extend(ps.iter().map(|(r, e)| (*r, e)))
                }
                CheckKind::AdditionalProperties {
                    schema,
                    known,
                    patterns,
                } => additional = Some((schema, known, patterns)),
                CheckKind::PropertyNames(e) => names_edge = Some(e),
                CheckKind::Required(rs) => {
                    for r in rs {
                        if !required.iter().any(|(_, n)| *n == r) {
                            required.push((check, r));
                        }
                    }
                }
                _ => {}
            }
        }
        if mark {
            f.uses_ev.set(true);
        }
        // Recursive or heavy properties run after the loop, by name (the plan's order),
        // unless the node records evaluated properties by position.
        let deferred: Vec<(&String, &Edge)> = if mark {
            Vec::new()
        } else {
            properties
                .iter()
                .copied()
                .filter(|(_, e)| self.plan.is_deferred(e.target))
                .collect()
        };
        properties.retain(|(_, e)| mark || !self.plan.is_deferred(e.target));
        // On the error path, a property that would be the pass's only work is looked up by
        // name too, before the others (as the pass would have run it): less code.
        let mut deferred = deferred;
        if f.mode == Mode::Errors
            && !mark
            && properties.len() == 1
            && required.is_empty()
            && additional.is_none()
            && patterns.is_empty()
            && names_edge.is_none()
        {
            deferred.insert(0, properties.remove(0));
        }
        // Every key pays for `additionalProperties` and `propertyNames`; a
        // `patternProperties` child is paid for when its pattern matches.
        let per_key: Vec<NodeId> = additional
            .map(|(e, _, _)| e.target)
            .into_iter()
            .chain(names_edge.map(|e| e.target))
            .collect();
        let charge = self.loop_charge(f, quote!(obj.len()), &per_key);
        let child_test = |edge: &Edge, inst: &Inst| -> TokenStream {
            match (self.plan.node(edge.target).constant, f.mode) {
                (Some(true), _) => return quote!(),
                (Some(false), Mode::Check) => return self.fail_silent(f),
                _ => {}
            }
            let call = self.child(f, edge, edge.target, inst, &EvArg::Throwaway);
            match f.mode {
                Mode::Check => {
                    let fail = self.fail_silent(f);
                    quote!(if !#call? { #fail })
                }
                Mode::Errors => quote!(#call?;),
            }
        };
        let mark_i = if mark {
            quote!(ev.props.set(i);)
        } else {
            quote!()
        };
        // `additionalProperties` skipping exactly the sibling patterns (the shape the front
        // end lowers to): the pass over the patterns records whether one matched, and
        // `additionalProperties` runs after it on keys neither named nor matched — each
        // pattern tried once per key, in the interpreter's order.
        let after_patterns = additional
            .filter(|(_, _, pats)| {
                !pats.is_empty() && pats.iter().eq(patterns.iter().map(|(id, _)| id))
            })
            .map(|(edge, _, _)| {
                let test = child_test(edge, &Inst::Key);
                quote!(#test #mark_i)
            })
            .filter(|code| !code.is_empty());
        let covered = if after_patterns.is_some() {
            quote!(covered = true;)
        } else {
            quote!()
        };
        // Otherwise, the additional-properties action for a key not named in `properties`.
        let additional_code =
            additional
                .filter(|_| after_patterns.is_none())
                .map(|(edge, _, pats)| {
                    let test = child_test(edge, &Inst::Key);
                    let live: Vec<RegexId> = pats
                        .iter()
                        .copied()
                        .filter(|id| self.program.regexes[id.0].compiled.is_some())
                        .collect();
                    if live.is_empty() {
                        quote!(#test #mark_i)
                    } else {
                        let matches: Vec<_> = live
                            .iter()
                            .map(|id| self.regex_test(f.mode, *id, quote!(k)))
                            .collect();
                        let none_match = if matches.len() == 1 {
                            let m = &matches[0];
                            quote!(!#m)
                        } else {
                            quote!(!(#(#matches)||*))
                        };
                        guarded_if(none_match, quote!(#test #mark_i))
                    }
                });
        let known: BTreeSet<&str> = additional
            .map(|(_, known, _)| known.iter().map(String::as_str).collect())
            .unwrap_or_default();
        // Per key name: what happens when the object has it.
        let mut arms: BTreeMap<&str, Vec<TokenStream>> = BTreeMap::new();
        let req_index: BTreeMap<&str, usize> = required
            .iter()
            .enumerate()
            .map(|(i, (_, n))| (n.as_str(), i))
            .collect();
        for (name, &i) in &req_index {
            let i = Literal::usize_unsuffixed(i);
            arms.entry(name).or_default().push(quote!(seen[#i] = true;));
        }
        for (name, edge) in &properties {
            let test = child_test(edge, &Inst::Property(name.to_string()));
            arms.entry(name.as_str())
                .or_default()
                .push(quote!(#test #mark_i));
        }
        for name in &known {
            arms.entry(name).or_default();
        }
        if after_patterns.is_some() {
            let named: BTreeSet<&str> = properties
                .iter()
                .map(|(n, _)| n.as_str())
                .chain(known.iter().copied())
                .collect();
            for name in named {
                arms.entry(name).or_default().push(covered.clone());
            }
        }
        // A loop that runs anyway picks up the deferred properties' values on its way, for
        // after it (a lookup by name costs more than that on small objects); so does a loop
        // run only for that, when it replaces two lookups or more.
        let loops = !arms.is_empty()
            || additional.is_some()
            || !patterns.is_empty()
            || names_edge.is_some();
        // (Not on the error path, which looks every one up: less code.)
        let captured =
            f.mode == Mode::Check && !deferred.is_empty() && (loops || deferred.len() > 1);
        if captured {
            for (j, (name, _)) in deferred.iter().enumerate() {
                let j = Literal::usize_unsuffixed(j);
                arms.entry(name.as_str())
                    .or_default()
                    .push(quote!(later[#j] = Some(x);));
            }
        }
        if let Some(code) = &additional_code {
            for (name, actions) in arms.iter_mut() {
                if !known.contains(name) && !properties.iter().any(|(n, _)| n.as_str() == *name) {
                    actions.push(code.clone());
                }
            }
        }
        let default = additional_code.clone().unwrap_or_default();
        // One name and nothing to do for other keys: the pass ends where it finds it.
        let mut sought: Option<&str> = None;
        let key_match = if arms.is_empty() {
            default
        } else if let (1, Some((name, actions)), true) =
            (arms.len(), arms.iter().next(), default.is_empty())
        {
            if patterns.is_empty() && names_edge.is_none() && f.mode == Mode::Check {
                sought = Some(name);
                quote!(#(#actions)*)
            } else {
                guarded_if(quote!(k == #name), quote!(#(#actions)*))
            }
        } else {
            let empty_default = default.is_empty();
            // Names with the same actions share one arm; with nothing to do by default,
            // names with nothing to do need no arm.
            let mut groups: Vec<(Vec<&str>, TokenStream)> = Vec::new();
            for (name, actions) in &arms {
                let code = quote!(#(#actions)*);
                if empty_default && code.is_empty() {
                    continue;
                }
                let key = code.to_string();
                match groups.iter_mut().find(|(_, c)| c.to_string() == key) {
                    Some((names, _)) => names.push(name),
                    None => groups.push((vec![name], code)),
                }
            }
            let arms: Vec<_> = groups
                .iter()
                .map(|(names, code)| match split_single_if(code) {
                    Some((cond, body)) if empty_default => {
                        let body = arm_body(f.mode, &body);
                        quote!(#(#names)|* if #cond => #body)
                    }
                    _ => {
                        let code = arm_body(f.mode, code);
                        quote!(#(#names)|* => #code)
                    }
                })
                .collect();
            let default_arm = arm_body(f.mode, &default);
            if arms.is_empty() {
                default
            } else if let ([(names, code)], true) = (groups.as_slice(), empty_default) {
                guarded_if(quote!(matches!(k.as_str(), #(#names)|*)), code.clone())
            } else {
                quote! {
                    match k.as_str() {
                        #(#arms)*
                        _ => #default_arm
                    }
                }
            }
        };
        let pattern_bodies: Vec<(RegexId, TokenStream)> = patterns
            .iter()
            .map(|(id, edge)| {
                let test = child_test(edge, &Inst::Key);
                let charge = self.loop_charge(f, quote!(1), &[edge.target]);
                (*id, quote!(#covered #charge #test #mark_i))
            })
            .collect();
        let pattern_code = self.try_patterns(f, &pattern_bodies);
        let (covered_decl, after_code) = match &after_patterns {
            Some(code) => (
                quote!(let mut covered = false;),
                guarded_if(quote!(!covered), code.clone()),
            ),
            None => (quote!(), quote!()),
        };
        let names_code = names_edge.map(|e| child_test(e, &Inst::KeyAsValue));
        let body = quote!(#covered_decl #key_match #pattern_code #after_code #names_code);
        let uses_x = uses_ident(&body, "x");
        let uses_i = uses_ident(&body, "i");
        let uses_k = uses_ident(&body, "k");
        let header = match (sought, uses_i, uses_k, uses_x) {
            (Some(name), ..) => {
                let i = if uses_i { quote!(i) } else { quote!(_) };
                let x = if uses_x { quote!(x) } else { quote!(_) };
                quote!(if let Some((#i, #x)) = __rt::find_entry(obj, #name))
            }
            (None, true, true, true) => quote!(for (i, (k, x)) in obj.iter().enumerate()),
            (None, true, true, false) => quote!(for (i, k) in obj.keys().enumerate()),
            (None, true, false, true) => quote!(for (i, x) in obj.values().enumerate()),
            (None, true, false, false) => quote!(for i in 0..obj.len()),
            (None, false, true, true) => quote!(for (k, x) in obj),
            (None, false, true, false) => quote!(for k in obj.keys()),
            (None, false, false, true) => quote!(for x in obj.values()),
            // The same action for every key (`additionalProperties: false` alone): once,
            // if there is a key.
            (None, false, false, false) => quote!(if !obj.is_empty()),
        };
        // Nothing to do per key (e.g. `properties` whose subschemas are all `true`): no loop.
        let key_loop = if body.is_empty() {
            quote!()
        } else {
            quote!(#header { #body })
        };
        let (seen_decl, required_check) = if required.is_empty() {
            (quote!(), quote!())
        } else {
            let n = Literal::usize_unsuffixed(required.len());
            let checks: Vec<_> = required
                .iter()
                .enumerate()
                .map(|(i, (check, name))| {
                    let i = Literal::usize_unsuffixed(i);
                    let fail = self.fail(
                        f,
                        check,
                        quote!(__rt::ErrorKind::Required {
                            property: __rt::Cow::Borrowed(#name)
                        }),
                    );
                    quote!(if !seen[#i] { #fail })
                })
                .collect();
            (quote!(let mut seen = [false; #n];), quote!(#(#checks)*))
        };
        let deferred_code: Vec<_> = deferred
            .iter()
            .enumerate()
            .map(|(j, (name, edge))| {
                let test = child_test(edge, &Inst::Named(name.to_string()));
                let value = if captured {
                    let j = Literal::usize_unsuffixed(j);
                    quote!(later[#j])
                } else {
                    quote!(obj.get(#name))
                };
                match f.mode {
                    Mode::Check => quote!(if let Some(x) = #value { #test }),
                    // The call looks the property up itself.
                    Mode::Errors => test,
                }
            })
            .collect();
        let later_decl = if captured {
            let n = Literal::usize_unsuffixed(deferred.len());
            quote!(let mut later: [Option<&Value>; #n] = [None; #n];)
        } else {
            quote!()
        };
        // `propertyNames` applies its subschema to each key as a string value, made in one
        // buffer for all keys.
        let name_decl = if uses_ident(&key_loop, "name") {
            quote!(let mut name = Value::String(String::new());)
        } else {
            quote!()
        };
        quote! {
            #charge
            #seen_decl
            #later_decl
            #name_decl
            #key_loop
            #required_check
            #(#deferred_code)*
        }
    }
}

/// The body of a `match` arm that runs `code` (statements), with its comma: on the error
/// path, a lone call of the error-collecting state's (which gives `()` or, `?` applied,
/// `()`) or assignment is the arm's expression (`_ => cx.fail(0),`); else a block.
fn arm_body(mode: Mode, code: &TokenStream) -> TokenStream {
    if mode == Mode::Errors {
        if let Ok(block) = syn::parse2::<syn::Block>(quote!({ #code })) {
            if let [syn::Stmt::Expr(expr, Some(_))] = block.stmts.as_slice() {
                let call = match expr {
                    syn::Expr::Try(t) => &*t.expr,
                    other => other,
                };
                let unit = match call {
                    syn::Expr::MethodCall(m) => {
                        matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident("cx"))
                    }
                    syn::Expr::Assign(_) => true,
                    _ => false,
                };
                if unit {
                    return quote!(#expr,);
                }
            }
        }
    }
    quote!({ #code })
}

/// Context of one arm of a dispatch.
struct ArmCx<'f, 'n> {
    f: &'f Fun<'n>,
    variant: Variant,
    uses_binding: Cell<bool>,
    terminal: Cell<bool>,
}

/// A `serde_json::Value` variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

enum TypeTest {
    Pass,
    Fail,
    IfInteger,
}

impl Variant {
    const ALL: [Variant; 6] = [
        Variant::Object,
        Variant::String,
        Variant::Number,
        Variant::Array,
        Variant::Bool,
        Variant::Null,
    ];

    fn of(v: &Value) -> Variant {
        match v {
            Value::Null => Variant::Null,
            Value::Bool(_) => Variant::Bool,
            Value::Number(_) => Variant::Number,
            Value::String(_) => Variant::String,
            Value::Array(_) => Variant::Array,
            Value::Object(_) => Variant::Object,
        }
    }

    fn pattern(self, binds: bool) -> TokenStream {
        match (self, binds) {
            (Variant::Null, _) => quote!(Value::Null),
            (Variant::Bool, true) => quote!(Value::Bool(b)),
            (Variant::Bool, false) => quote!(Value::Bool(_)),
            (Variant::Number, true) => quote!(Value::Number(num)),
            (Variant::Number, false) => quote!(Value::Number(_)),
            (Variant::String, true) => quote!(Value::String(text)),
            (Variant::String, false) => quote!(Value::String(_)),
            (Variant::Array, true) => quote!(Value::Array(arr)),
            (Variant::Array, false) => quote!(Value::Array(_)),
            (Variant::Object, true) => quote!(Value::Object(obj)),
            (Variant::Object, false) => quote!(Value::Object(_)),
        }
    }

    fn type_test(self, ts: TypeSet) -> TypeTest {
        let bit = match self {
            Variant::Null => TypeSet::NULL,
            Variant::Bool => TypeSet::BOOLEAN,
            Variant::String => TypeSet::STRING,
            Variant::Array => TypeSet::ARRAY,
            Variant::Object => TypeSet::OBJECT,
            Variant::Number => {
                return if ts.contains(TypeSet::NUMBER) {
                    TypeTest::Pass
                } else if ts.contains(TypeSet::INTEGER) {
                    TypeTest::IfInteger
                } else {
                    TypeTest::Fail
                }
            }
        };
        if ts.contains(bit) {
            TypeTest::Pass
        } else {
            TypeTest::Fail
        }
    }
}

/// Whether a check of an absorbed child ([`Gen::absorbed`]) may join a run of the node's
/// own: it depends on the instance's type, and it neither depends on the other names of its
/// node (`patternProperties`, `additionalProperties`), nor is one of the keywords the
/// object pass has one of (`propertyNames`), nor reads evaluated locations.
fn joins_a_run(kind: &CheckKind) -> bool {
    dispatchable(kind)
        && !matches!(
            kind,
            CheckKind::PatternProperties(_)
                | CheckKind::AdditionalProperties { .. }
                | CheckKind::PropertyNames(_)
                | CheckKind::UnevaluatedProperties(_)
                | CheckKind::UnevaluatedItems(_)
        )
}

/// Whether a check depends on the instance's JSON type (and so joins the dispatch).
fn dispatchable(kind: &CheckKind) -> bool {
    !matches!(
        kind,
        CheckKind::False
            | CheckKind::Unresolved { .. }
            | CheckKind::Ref(_)
            | CheckKind::DynamicRef { .. }
            | CheckKind::AllOf(_)
            | CheckKind::AnyOf(_)
            | CheckKind::OneOf(_)
            | CheckKind::Not(_)
            | CheckKind::IfThenElse { .. }
    )
}

fn unreachable_kind(kind: &CheckKind) -> (TokenStream, bool) {
    // `dispatchable` routes every other kind to `dispatch`.
    debug_assert!(dispatchable(kind));
    (TokenStream::new(), false)
}

/// A pattern matching exactly the sorted ids `ids`, consecutive runs as ranges.
fn id_pattern(ids: &[u32]) -> TokenStream {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        let (a, b) = (ids[i], ids[j]);
        parts.push(if a == b { quote!(#a) } else { quote!(#a..=#b) });
        i = j + 1;
    }
    quote!(#(#parts)|*)
}

/// `(condition, body)` when `code` is exactly one `if` without `else` whose condition is
/// not an `if let`.
fn split_single_if(code: &TokenStream) -> Option<(TokenStream, TokenStream)> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = code.clone().into_iter().collect();
    let (first, rest) = tokens.split_first()?;
    if !matches!(first, TokenTree::Ident(i) if i == "if") {
        return None;
    }
    if matches!(rest.first(), Some(TokenTree::Ident(i)) if i == "let") {
        return None;
    }
    let (last, cond) = rest.split_last()?;
    let TokenTree::Group(body) = last else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace || cond.is_empty() {
        return None;
    }
    // A brace group in the condition may only be the operand of `!` (a child evaluated
    // in a block, see `Gen::child`).
    let negated = |i: usize| matches!(i.checked_sub(1).map(|j| &cond[j]), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let cond_ok = cond.iter().enumerate().all(|(i, t)| match t {
        TokenTree::Group(g) => g.delimiter() != Delimiter::Brace || negated(i),
        TokenTree::Ident(i) => i != "if" && i != "else",
        TokenTree::Punct(p) => p.as_char() != ';',
        TokenTree::Literal(_) => true,
    });
    if !cond_ok {
        return None;
    }
    Some((cond.iter().cloned().collect(), body.stream()))
}

/// Whether a condition has a top-level `||` (and needs parentheses after `&&`).
fn has_top_level_or(cond: &TokenStream) -> bool {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = cond.clone().into_iter().collect();
    tokens.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '|' && a.spacing() == Spacing::Joint && b.as_char() == '|')
    })
}

/// `if cond { body }`, merged into one condition when `body` is itself a lone `if`.
fn guarded_if(cond: TokenStream, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    match split_single_if(&body) {
        Some((inner, inner_body)) => {
            let inner = if has_top_level_or(&inner) {
                quote!((#inner))
            } else {
                inner
            };
            guarded_if(quote!(#cond && #inner), inner_body)
        }
        None => quote!(if #cond { #body }),
    }
}

/// Whether `tokens` hold a `break 'n`.
fn breaks_to_label(tokens: &TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let mut previous_quote = false;
    for tree in tokens.clone() {
        match &tree {
            TokenTree::Group(g) => {
                if breaks_to_label(&g.stream()) {
                    return true;
                }
                previous_quote = false;
            }
            TokenTree::Punct(p) => previous_quote = p.as_char() == '\'',
            TokenTree::Ident(i) => {
                if previous_quote && i == "n" {
                    return true;
                }
                previous_quote = false;
            }
            TokenTree::Literal(_) => previous_quote = false,
        }
    }
    false
}

/// Whether `tokens` use the identifier `name`.
fn uses_ident(tokens: &TokenStream, name: &str) -> bool {
    use proc_macro2::TokenTree;
    tokens.clone().into_iter().any(|tree| match &tree {
        TokenTree::Group(g) => uses_ident(&g.stream(), name),
        TokenTree::Ident(i) => i == name,
        _ => false,
    })
}

/// `body` without its final statement when that is `exit` (the node's failure).
fn strip_final_exit(body: TokenStream, exit: &TokenStream) -> TokenStream {
    let mut tokens: Vec<proc_macro2::TokenTree> = body.into_iter().collect();
    let exit: Vec<String> = exit.clone().into_iter().map(|t| t.to_string()).collect();
    let tail = tokens.len().saturating_sub(exit.len());
    if tokens[tail..]
        .iter()
        .map(|t| t.to_string())
        .eq(exit.iter().cloned())
    {
        tokens.truncate(tail);
    }
    tokens.into_iter().collect()
}

/// The URI of the root schema's document (without a fragment).
pub(super) fn root_document(program: &Program) -> &str {
    let root = program.node(program.root).uri.as_str();
    root.split_once('#').map_or(root, |(document, _)| document)
}

/// A doc comment quoting `text` in backticks, with control characters (a bare CR is not
/// allowed in doc comments), backslashes and backticks escaped.
pub(super) fn doc_text(text: &str) -> String {
    let mut out = String::from(" `");
    for c in text.chars() {
        match c {
            '`' => out.push_str("\\`"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('`');
    out
}

/// The number in a lookup table's name (`EN12` → 12), for declaring them in first-use order.
fn table_number(name: &proc_macro2::Ident) -> usize {
    let name = name.to_string();
    name.trim_start_matches(char::is_alphabetic)
        .parse()
        .unwrap_or(usize::MAX)
}

/// The state expression that owns the budget and the dynamic scope.
fn state(mode: Mode) -> TokenStream {
    match mode {
        Mode::Check => quote!(cx),
        Mode::Errors => quote!(cx.state),
    }
}

/// The error kind of a failed `type` check allowing `ts`.
fn type_kind(ts: TypeSet) -> TokenStream {
    let bits = ts.0;
    quote!(__rt::type_error(#bits))
}

/// Name of the runtime's function for a built-in format (`date-time` → `date_time`).
pub(super) fn format_fn_name(name: &str) -> String {
    super::module_name(name).unwrap_or_else(|| "_".to_string())
}

/// A `core::cmp::Ordering` expression comparing the `&Number` `num` with `limit` exactly as
/// `json::compare_numbers` does.
pub(super) fn number_cmp(num: TokenStream, limit: &Number) -> TokenStream {
    if let Some(i) = limit.as_i64() {
        quote!(__rt::cmp_i64(#num, #i))
    } else if let Some(u) = limit.as_u64() {
        quote!(__rt::cmp_u64(#num, #u))
    } else {
        let x = f64_tokens(limit.as_f64().unwrap_or(f64::NAN));
        quote!(__rt::cmp_f64(#num, #x))
    }
}

/// An `f64` literal (or constant for non-finite values).
pub(super) fn f64_tokens(x: f64) -> TokenStream {
    if x.is_nan() {
        quote!(f64::NAN)
    } else if x == f64::INFINITY {
        quote!(f64::INFINITY)
    } else if x == f64::NEG_INFINITY {
        quote!(f64::NEG_INFINITY)
    } else {
        let lit = Literal::f64_suffixed(x);
        quote!(#lit)
    }
}

/// The tokens of a compiled regex's `static` initializer: the engine's tables as a
/// constant expression.
fn regex_tokens(compiled: &crate::regex::CompiledRegex, rt: &TokenStream) -> TokenStream {
    compiled.to_tokens(rt)
}

/// The type of a regex `static`.
fn regex_type(rt: &TokenStream) -> TokenStream {
    quote!(#rt::regex::Regex<'static>)
}
