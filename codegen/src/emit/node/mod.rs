//! One IR node → two Rust functions (short-circuit `cN`, error-collecting `eN`).
//!
//! Takes a [`Program`]; gives the token streams of every reachable node's functions and
//! the `static` regex tables they use.
//!
//! This module assembles a node's function ([`Gen::function`]) from its checks in plan
//! order ([`Gen::checks`]); by keyword family: [`dispatch`] (runs of type-dependent checks
//! as one `match`), [`assertion`], [`array`](mod@array), [`object`] (the pass over an object),
//! [`applicator`] (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`), [`call`] (how a
//! subschema is applied), [`annotation`]. Each builds [`Code`], the statements
//! as data (an `if`, the node's exit, other statements with what they hold), rendered to
//! tokens where it is placed.

mod annotation;
mod applicator;
mod array;
mod assertion;
mod call;
mod code;
mod dispatch;
mod names;
mod object;

use super::value;
use crate::ir::{Check, CheckKind, Edge, Node, NodeId, Program, RegexId};
use crate::plan::absorb::{Absorption, When};
use crate::plan::lookup::{self, EnumTable};
use crate::plan::messages::{self, Failure};
use crate::plan::Plan;
use crate::regex::PatternSet;
use code::{Code, Expr, Uses};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::error::misleads;
use schemac_runtime::error::TypeSet;
use serde_json::Value;
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

/// The function pointer type (generic over the instance) of a node function in `mode`,
/// `ev` when it records evaluated locations (see `schemac_runtime::__private::CheckFn`).
pub(super) fn pointer_type(mode: Mode, ev: bool) -> TokenStream {
    match (mode, ev) {
        (Mode::Check, false) => quote!(__rt::CheckFn),
        (Mode::Check, true) => quote!(__rt::CheckEvFn),
        (Mode::Errors, false) => quote!(__rt::ErrorsFn),
        (Mode::Errors, true) => quote!(__rt::ErrorsEvFn),
    }
}

/// The name of node `id`'s function in `mode`.
pub(super) fn fn_name(id: NodeId, mode: Mode) -> proc_macro2::Ident {
    match mode {
        Mode::Check => format_ident!("c{}", id.0),
        Mode::Errors => format_ident!("e{}", id.0),
    }
}

/// The name of regex `id`'s `static`.
fn regex_name(id: RegexId) -> proc_macro2::Ident {
    format_ident!("RE{}", id.0)
}

/// The generator for one program.
pub(super) struct Gen<'a> {
    plan: &'a Plan,
    program: &'a Program,
    rt: &'a TokenStream,
    formats: &'a BTreeMap<String, syn::Path>,
    /// The user's custom keywords: name → the function generated code calls.
    keywords: &'a BTreeMap<String, syn::Path>,
    /// Whether the error-collecting functions are generated.
    validate: bool,
    /// Whether they also collect annotations when the state asks (`evaluate`).
    evaluate: bool,
    /// Functions called by the bodies generated so far and not yet collected.
    called: RefCell<Vec<(Mode, NodeId)>>,
    /// Functions the body being generated calls through a runtime helper, which it names
    /// again as function pointers at its top ([`Gen::pointer_callee`]): (mode, callee,
    /// whether it records evaluated locations).
    pointers: RefCell<BTreeSet<(Mode, NodeId, bool)>>,
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
    /// In-place children whose checks join the node's own ([`Gen::absorbed`]).
    absorbed: Absorption,
}

/// One step of a node's checks as generated ([`Gen::steps`]).
enum Step {
    /// A run of type-dependent checks, each with when it applies: one dispatch.
    Run(Vec<(Check, When)>),
    /// The in-place check of this index.
    InPlace(usize),
}

impl<'a> Gen<'a> {
    /// A generator for `plan`, naming the runtime `rt`, with the user's custom formats
    /// and keywords.
    pub(super) fn new(
        plan: &'a Plan,
        rt: &'a TokenStream,
        (formats, keywords): (
            &'a BTreeMap<String, syn::Path>,
            &'a BTreeMap<String, syn::Path>,
        ),
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
            keywords,
            called: RefCell::new(Vec::new()),
            pointers: RefCell::default(),
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
                Some(compiled) => super::tables::regex(compiled, rt),
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
    pub(super) fn relative_location<'u>(&self, uri: &'u str) -> &'u str {
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

    /// The module's tables that `Errors::new` takes, as its `ErrorsRoot` names them:
    /// `&SITES` and `&FAULTS`, or empty slices for those it has not.
    pub(super) fn tables(&self) -> (TokenStream, TokenStream) {
        let table = |listed: &RefCell<Listed>, name: &str| {
            let name = format_ident!("{}", name);
            if listed.borrow().entries.is_empty() {
                quote!(&[])
            } else {
                quote!(&#name)
            }
        };
        (table(&self.sites, "SITES"), table(&self.faults, "FAULTS"))
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
            super::tables::enum_table(table, rt),
        )
    }

    /// The `static` hash table of the arrays and objects of a large `enum` or `const` (of
    /// members `values`), and the `static` array of those members it indexes.
    fn composites(&self, table: &EnumTable, values: &[Value]) -> [proc_macro2::Ident; 2] {
        let rt = self.rt;
        let (ty, members) = super::tables::composite_members(values, rt);
        [
            self.table(
                "EC",
                " The hashes of an `enum`'s arrays and objects, sorted: (hash, member, values).",
                quote!(#rt::lookup::Composites<'static>),
                super::tables::composites(table, rt),
            ),
            self.table(
                "EM",
                " An `enum`'s arrays and objects, as its hash table numbers them.",
                ty,
                members,
            ),
        ]
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
            super::tables::pattern_set(set, rt),
        )
    }

    /// Whether regex `id` matches `text`, as a `bool` expression (`?` applied): by its fast
    /// path inlined at the call where that decides every input (specialized there to the
    /// pattern), else by the runtime's shared search.
    fn regex_test(&self, mode: Mode, id: RegexId, text: TokenStream) -> Expr {
        self.used_regexes.borrow_mut().insert(id);
        let re = regex_name(id);
        let st = state(mode);
        // The fast path inlined with the pattern's constants (a search out of line where
        // it leaves the answer open).
        let fast = self.program.regexes[id.0]
            .compiled
            .as_ref()
            .is_some_and(|c| c.has_fast_path());
        let tokens = if fast {
            quote!(#st.is_match_fast(&#re, #text)?)
        } else {
            quote!(#st.is_match(&#re, #text)?)
        };
        Expr::new(tokens, Uses::CX)
    }

    /// The program generated.
    pub(super) fn program(&self) -> &Program {
        self.program
    }

    /// The `static` regex `id`, recorded as used (its tables are emitted with the
    /// functions); `None` for a pattern the engine refused and the program ignores.
    pub(super) fn regex_static(&self, id: RegexId) -> Option<proc_macro2::Ident> {
        self.program.regexes[id.0].compiled.as_ref()?;
        self.used_regexes.borrow_mut().insert(id);
        Some(regex_name(id))
    }

    /// The name of the function a call to `target` in `mode` goes to, recorded as called.
    fn call_name(&self, target: NodeId, mode: Mode) -> proc_macro2::Ident {
        let callee = self.callee(target, mode);
        self.called.borrow_mut().push((mode, callee));
        fn_name(callee, mode)
    }

    /// [`Gen::call_name`] for a call made inside a closure that a runtime helper runs
    /// (`cx.stepping(|cx| c7(x, cx))`, `cx.child(…, e7)`): the function is bound to a
    /// function pointer of the same name at the top of the calling function, which the
    /// closure then calls, so that no closure names the next function of a chain (see
    /// `schemac_runtime::__private::CheckFn`).
    fn pointer_callee(&self, target: NodeId, mode: Mode) -> proc_macro2::Ident {
        let callee = self.callee(target, mode);
        self.pointers
            .borrow_mut()
            .insert((mode, callee, self.collects(target)));
        self.call_name(target, mode)
    }

    /// The `let` statements binding the functions the body just generated calls through
    /// runtime helpers to function pointers ([`Gen::pointer_callee`]).
    fn function_pointers(&self) -> TokenStream {
        let pointers = std::mem::take(&mut *self.pointers.borrow_mut());
        let lets = pointers.into_iter().map(|(mode, callee, ev)| {
            let name = fn_name(callee, mode);
            let ty = pointer_type(mode, ev);
            quote!(let #name: #ty<V> = #name;)
        });
        quote!(#(#lets)*)
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

    /// Whether node `id` gives the evaluated locations it records to its caller (takes an
    /// `ev` parameter): a node that collects only for its own `unevaluated*` keeps its set
    /// to itself.
    fn collects(&self, id: NodeId) -> bool {
        self.program.node(id).collect.given
    }

    /// The function of node `id` in `mode`.
    fn function(&self, id: NodeId, mode: Mode) -> Function {
        let node = self.program.node(id);
        let plan = self.plan.node(id);
        // An out-of-line node enters a region and leaves it after its body, unless depth
        // is not counted: then it only charges the budget.
        let region = plan.out_of_line && !self.plan.depth_free;
        // The body's exits break to the label `'n` where the function has work to do after
        // it (else they return).
        let labelled = region || self.program.uses_dynamic_scope;
        let exit = if labelled {
            quote!(break 'n false;)
        } else {
            quote!(return Ok(false);)
        };
        let f = Fun {
            id,
            node,
            mode,
            exit,
            absorbed: self.absorbed(id, mode),
        };
        let mut body = self.checks(&f, &node.checks);
        let mut tail = quote!(true);
        let mut always_false = false;
        // The body never ends but by failing (its last statement is a `match` whose every
        // arm fails): nothing after it.
        let mut diverges = false;
        if body.ends() && mode == Mode::Check {
            // The last statement fails the node unconditionally: make it the value.
            if body.pop_exit() {
                tail = quote!(false);
                always_false = !(labelled && body.exits());
            } else {
                tail = quote!();
                diverges = true;
            }
        }
        let breaks = labelled && body.exits();
        let reads = body.uses();
        // A set of its own where the node collects for itself only.
        let own_set = (reads.contains(Uses::EV) && !self.collects(id))
            .then(|| quote!(let ev = &mut __rt::Eval::new();));
        let body = body.render();
        let pointers = self.function_pointers();
        let body = quote!(#pointers #own_set #body);
        let own = self.own_annotations(&f);
        // An evaluation gives the node's annotations with the instance and the state.
        let annotates = own.is_some();
        let name = fn_name(id, mode);
        let doc = doc_text(self.relative_location(&node.uri));
        let (state_ty, result_ty) = match mode {
            Mode::Check => (quote!(__rt::State), quote!(__rt::Res)),
            Mode::Errors => (quote!(Errors), quote!(Done)),
        };
        let st = state(mode);
        let v = if reads.contains(Uses::V) || annotates {
            quote!(v)
        } else {
            quote!(_v)
        };
        let ev_param = if self.collects(id) {
            if reads.contains(Uses::EV) {
                quote!(, ev: &mut __rt::Eval)
            } else {
                quote!(, _ev: &mut __rt::Eval)
            }
        } else {
            quote!()
        };
        let (scope_in, scope_out) = if self.program.uses_dynamic_scope {
            let r = node.resource.scope_key();
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
            Mode::Check if diverges && !breaks => quote! {
                #enter
                #scope_in
                #body
            },
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
        // The state is read by the body, by entering and leaving the node's region or
        // dynamic scope, and by annotations.
        let state_read = reads.contains(Uses::CX)
            || !(enter.is_empty() && leave.is_empty() && scope_in.is_empty())
            || annotates;
        let cx = if state_read { quote!(cx) } else { quote!(_cx) };
        Function {
            doc,
            inline: !plan.out_of_line && mode == Mode::Check,
            item: quote! {
                fn #name<'a, V: __rt::Instance<'a>>(#v: V, #cx: &mut #state_ty #ev_param) -> #result_ty {
                    #inner
                }
            },
        }
    }

    /// The checks of a node, in IR order: runs of type-dependent checks become one `match`
    /// on the value's variant; in-place applicators run between them. Short-circuit code
    /// stops after a step that ends by failing the node.
    fn checks(&self, f: &Fun<'_>, checks: &[Check]) -> Code {
        let mut out = Code::default();
        // The absorbed conditions first (see `Gen::absorbed`), then the steps.
        out.push(self.conditions(f));
        for step in self.steps(f, checks) {
            out.push(match step {
                Step::Run(run) => self.dispatch(f, &run),
                Step::InPlace(i) => self.in_place(f, i, &checks[i]),
            });
            if out.ends() && f.mode == Mode::Check {
                break;
            }
        }
        out
    }

    /// The order in which the node's checks are generated: the steps of absorbed checks
    /// (budget charges), then runs of type-dependent checks, the absorbed children's
    /// joining the first (a run of their own before everything when the node's first
    /// other check is in place), and in-place checks between them. Where
    /// `unevaluatedProperties` joins the pass, every type-dependent check is in one run,
    /// the in-place checks (which then only charge the budget or fail) after it.
    fn steps(&self, f: &Fun<'_>, checks: &[Check]) -> Vec<Step> {
        let own = |c: &Check| (c.clone(), When::Always);
        let mut joining = f.absorbed.checks.clone();
        let in_place = (0..checks.len()).filter(|&i| !checks[i].kind.is_dispatchable());
        if f.absorbed.unevaluated {
            let run = checks
                .iter()
                .filter(|c| c.kind.is_dispatchable())
                .map(own)
                .chain(joining)
                .collect();
            return std::iter::once(Step::Run(run))
                .chain(in_place.map(Step::InPlace))
                .collect();
        }
        // An absorbed check's step only charges the budget, if that: first, so that it
        // does not split the runs.
        let absorbed_away = |i: &usize| {
            let away = |e: &Edge| {
                f.absorbed.members.contains(&e.target)
                    || self.plan.node(e.target).constant == Some(true)
            };
            match &checks[*i].kind {
                CheckKind::Ref(edge) => away(edge),
                CheckKind::AllOf(edges) => edges.iter().all(away),
                CheckKind::IfThenElse { .. } => f.absorbed.ifs.contains(i),
                _ => false,
            }
        };
        let (away, rest): (Vec<usize>, Vec<usize>) = (0..checks.len()).partition(absorbed_away);
        let mut steps: Vec<Step> = away.into_iter().map(Step::InPlace).collect();
        if !joining.is_empty()
            && !rest
                .first()
                .is_some_and(|&i| checks[i].kind.is_dispatchable())
        {
            steps.push(Step::Run(std::mem::take(&mut joining)));
        }
        for group in rest
            .chunk_by(|&a, &b| checks[a].kind.is_dispatchable() == checks[b].kind.is_dispatchable())
        {
            if checks[group[0]].kind.is_dispatchable() {
                let run = group
                    .iter()
                    .map(|&i| own(&checks[i]))
                    .chain(std::mem::take(&mut joining))
                    .collect();
                steps.push(Step::Run(run));
            } else {
                steps.extend(group.iter().map(|&i| Step::InPlace(i)));
            }
        }
        steps
    }

    /// Code that fails the node: its `exit` (check) or records the error of kind `kind` (a
    /// constant expression) at its error site in the `FAULTS` table (errors).
    fn fail(&self, f: &Fun<'_>, check: &Check, kind: TokenStream) -> Code {
        match f.mode {
            Mode::Check => Code::exit(f.exit.clone()),
            Mode::Errors => {
                let keyword = &check.keyword;
                let n = self.faults.borrow_mut().add(quote!(Fault(#keyword, #kind)));
                Code::unit(quote!(cx.fail(#n))).using(Uses::CX)
            }
        }
    }

    /// Code that fails the node on a failed `check`: its `exit` (check) or the error
    /// [`messages::failure`] says it reports (errors; none for a check whose errors were
    /// reported where it was applied, or a custom keyword's, which `Gen::custom` reports).
    fn fail_check(&self, f: &Fun<'_>, check: &Check) -> Code {
        match messages::failure(self.program, &check.kind) {
            Failure::Reports(kind) => self.fail(f, check, value::error_kind(&kind)),
            Failure::Type(types) => self.fail_type(f, types),
            Failure::Custom(_) | Failure::Applied => self.fail_silent(f),
        }
    }

    /// Code that fails the node on a failed `type` check allowing `ts`: its `exit` (check)
    /// or the error, naming the JSON type of the instance `v` (errors).
    fn fail_type(&self, f: &Fun<'_>, ts: TypeSet) -> Code {
        match f.mode {
            Mode::Check => Code::exit(f.exit.clone()),
            Mode::Errors => {
                let bits = ts.0;
                Code::unit(quote!(cx.fail_type(#bits, v))).using(Uses::CX | Uses::V)
            }
        }
    }

    /// Code for a failed child whose errors are passed up: the node's `exit` (check) or
    /// nothing (errors: the child recorded them).
    fn fail_silent(&self, f: &Fun<'_>) -> Code {
        match f.mode {
            Mode::Check => Code::exit(f.exit.clone()),
            Mode::Errors => Code::default(),
        }
    }

    /// Whether the function's node records evaluated locations.
    fn node_collects(&self, f: &Fun<'_>) -> bool {
        f.node.collect.properties || f.node.collect.items
    }
}

/// Whether function `f` reports the names an object must have on their own, through
/// `Errors::missing` ([`Gen::name_list`]), rather than in the pass over the object: in
/// error-collecting code, a list with a [`lookup::NameList`].
fn reported_apart(f: &Fun<'_>, names: &[String]) -> bool {
    f.mode == Mode::Errors && names.len() >= lookup::NameList::MIN_NAMES
}

/// The URI of the root schema's document (without a fragment).
pub(super) fn root_document(program: &Program) -> &str {
    let root = program.node(program.root).uri.as_str();
    root.split_once('#').map_or(root, |(document, _)| document)
}

/// A doc comment quoting `text` in backticks ([`comment_text`]).
pub(super) fn doc_text(text: &str) -> String {
    format!(" `{}`", comment_text(text))
}

/// `text` as a comment of generated code may hold it, on one line and compiling: every
/// character that [`misleads`] (a bare CR ends a doc comment; rustc refuses bidirectional
/// controls in comments; a line separator breaks the line for readers) escaped as Rust
/// writes it (`\u{202e}`), and backslashes and backticks escaped so that the text reads
/// back unambiguously and cannot close a code span. Every text that reaches a comment of
/// generated code passes through here.
pub(super) fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '`' => out.push_str("\\`"),
            '\\' => out.push_str("\\\\"),
            c if misleads(c) => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
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

/// The type of a regex `static`.
fn regex_type(rt: &TokenStream) -> TokenStream {
    quote!(#rt::regex::Regex<'static>)
}
