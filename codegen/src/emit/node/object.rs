//! The object keywords: the one pass over the object (`properties`, `patternProperties`,
//! `additionalProperties`, `propertyNames`, several `required` names), and `required` by
//! lookup, `dependentRequired`, `dependentSchemas`, `unevaluatedProperties`.

use super::call::{EvArg, Inst};
use super::code::{Code, Cond, Uses};
use super::dispatch::ArmCx;
use super::names::{match_names, NameArm};
use super::{reported_apart, state, Fun, Gen, Mode};
use crate::ir::kind::Kind;
use crate::ir::{Check, CheckKind, Edge, NodeId, RegexId};
use crate::plan::absorb::When;
use crate::plan::lookup::{self, NameList};
use crate::plan::messages::{self, Refusal};
use crate::plan::thresholds::SHARED_PATTERN_BODIES;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{quote, ToTokens};
use std::collections::{BTreeMap, BTreeSet};

/// A pattern of a prefiltered list with code to run on a key it matches.
struct PatternArm {
    /// Its place in the list: the prefilter's candidate number.
    index: usize,
    id: RegexId,
    /// Whether it matches `k`.
    test: super::code::Expr,
    /// The number of its body among the list's distinct ones.
    body: usize,
}

impl Gen<'_> {
    /// Code that tries `patterns` on the key `k` in order, running each one's body when it
    /// matches (`keyed`, by pattern; an empty body skips the pattern): one `if` each, or,
    /// for a list with a prefilter, a loop over the candidates the prefilter leaves, where
    /// patterns of one subschema may share `body` of it on an [`Inst::Matched`] key.
    fn try_patterns(
        &self,
        f: &Fun<'_>,
        patterns: &[(RegexId, &Edge)],
        keyed: &[Code],
        body: impl Fn(&Edge, &Inst) -> Code,
    ) -> Code {
        let compiled = |id: RegexId| self.program.regexes[id.0].compiled.is_some();
        let mut arms = Vec::new();
        // A pattern's body depends on its subschema alone but for its keyword location
        // (error-collecting code's site): numbered by subschema, in order of first use.
        let mut targets: Vec<&Edge> = Vec::new();
        let mut numbers: BTreeMap<NodeId, usize> = BTreeMap::new();
        for (index, (&(id, edge), keyed)) in patterns.iter().zip(keyed).enumerate() {
            if keyed.is_empty() || !compiled(id) {
                continue;
            }
            let body = *numbers.entry(edge.target).or_insert_with(|| {
                targets.push(edge);
                targets.len() - 1
            });
            // (The test reads `k`.)
            let mut test = self.regex_test(f.mode, id, quote!(k));
            test.uses |= Uses::K;
            arms.push(PatternArm {
                index,
                id,
                test,
                body,
            });
        }
        let set = lookup::pattern_set(self.program, patterns.iter().map(|(id, _)| *id));
        let Some(set) = set else {
            return arms
                .into_iter()
                .map(|arm| {
                    Code::when(arm.test.tokens, keyed[arm.index].clone()).using(arm.test.uses)
                })
                .collect();
        };
        if arms.is_empty() {
            return Code::default();
        }
        let name = self.pattern_set(&set);
        let (tokens, bodies) = if arms.len() - targets.len() >= SHARED_PATTERN_BODIES {
            let bodies: Vec<Code> = targets
                .iter()
                .map(|edge| body(edge, &Inst::Matched))
                .collect();
            (self.shared_bodies(f, patterns, &arms, &bodies), bodies)
        } else {
            let tokens = match arms.as_slice() {
                [arm] => {
                    let (index, test) = (Literal::usize_unsuffixed(arm.index), &arm.test);
                    let body = keyed[arm.index].render();
                    quote!(if p == #index && #test { #body })
                }
                _ => {
                    let arms = arms.iter().map(|arm| {
                        let (index, test) = (Literal::usize_unsuffixed(arm.index), &arm.test);
                        let body = keyed[arm.index].arm(f.mode);
                        quote!(#index if #test => #body)
                    });
                    quote!(match p { #(#arms)* _ => {} })
                }
            };
            let bodies = arms.iter().map(|arm| keyed[arm.index].clone()).collect();
            (tokens, bodies)
        };
        let st = state(f.mode);
        let tokens = quote!(for p in #st.candidates(&#name, k)? { #tokens });
        let tests = arms
            .iter()
            .fold(Uses::K | Uses::CX, |uses, arm| uses | arm.test.uses);
        Code::built_from(tokens, &bodies).using(tests)
    }

    /// The body of [`Gen::try_patterns`]' loop over the candidates `p` when patterns share
    /// bodies ([`SHARED_PATTERN_BODIES`]; `bodies` by number, [`PatternArm::body`], each
    /// run by some pattern): a `static` holds each pattern's regex, the number of its
    /// body where there are several and, in error-collecting code, its keyword
    /// location's site (`None` for a pattern without a body), and the loop runs the
    /// runtime's shared search on the candidate's regex, so that each body is written
    /// once however many patterns run it (issue 38: 5,000 patterns of one subschema were
    /// `match` arms alike but for the regex and the site).
    fn shared_bodies(
        &self,
        f: &Fun<'_>,
        patterns: &[(RegexId, &Edge)],
        arms: &[PatternArm],
        bodies: &[Code],
    ) -> TokenStream {
        let (rt, st) = (self.rt, state(f.mode));
        let numbered = bodies.len() > 1;
        let sited = f.mode == Mode::Errors;
        let mut entries = vec![quote!(None); patterns.len()];
        for arm in arms {
            let mut fields = vec![];
            let re = super::regex_name(arm.id);
            fields.push(quote!(&#re));
            if numbered {
                fields.push(Literal::usize_unsuffixed(arm.body).into_token_stream());
            }
            if sited {
                let site = self.matched_site(f, patterns[arm.index].1);
                fields.push(site.into_token_stream());
            }
            entries[arm.index] = match fields.as_slice() {
                [re] => quote!(Some(#re)),
                _ => quote!(Some((#(#fields),*))),
            };
        }
        let regex = quote!(&'static #rt::regex::Regex<'static>);
        let (mut types, mut binds) = (vec![regex], vec![quote!(re)]);
        if numbered {
            types.push(quote!(u32));
            binds.push(quote!(body));
        }
        if sited {
            types.push(quote!(usize));
            binds.push(quote!(site));
        }
        let (ty, bound) = match (types.as_slice(), binds.as_slice()) {
            ([ty], [bind]) => (ty.clone(), bind.clone()),
            _ => (quote!((#(#types),*)), quote!((#(#binds),*))),
        };
        let n = Literal::usize_unsuffixed(patterns.len());
        let table = self.table(
            "PR",
            " The regexes of a list of patterns, by index, with the code each one's match runs.",
            quote!([Option<#ty>; #n]),
            quote!([#(#entries),*]),
        );
        let run = match bodies {
            [body] => body.render(),
            _ => {
                let last = bodies.len() - 1;
                let runs = bodies.iter().enumerate().map(|(n, body)| {
                    let body = body.arm(f.mode);
                    if n == last {
                        quote!(_ => #body)
                    } else {
                        let n = Literal::usize_unsuffixed(n);
                        quote!(#n => #body)
                    }
                });
                quote!(match body { #(#runs)* })
            }
        };
        quote!(if let Some(#bound) = #table[p as usize] {
            if #st.is_match(re, k)? { #run }
        })
    }

    /// `properties`, `patternProperties`, `additionalProperties`, `propertyNames` and
    /// `required` of one run, in one pass over the object.
    pub(super) fn object_loop(&self, a: &ArmCx<'_, '_>, checks: &[(Check, When)]) -> Code {
        let f = a.f;
        let run = PassChecks::gather(checks, f);
        let mark = f.node.collect.properties && run.unevaluated.is_none();
        let (properties, deferred) = self.split_deferred(f, &run, mark);
        let charge = self.pass_charge(f, &run);
        let additional = self.additional_actions(f, &run, mark);
        let required = RequiredNames::new(&run.required);
        // Short-circuit code counts the required names it finds (an object's names are
        // distinct) against the number that apply; the error path marks each one's `seen`
        // slot (in first-use order), to say which is missing.
        let counting = f.mode == Mode::Check;
        let mut evaluated = run
            .unevaluated
            .map(|_| self.evaluated_names(f, &run.properties))
            .unwrap_or_default();
        let narrowed = narrowed_names(f, &run, (&properties, &deferred), &required, &evaluated);
        // Per key name: what happens when the object has it; per condition, the same for
        // the names looked for only where it holds.
        let mut arms: BTreeMap<&str, Vec<Code>> = BTreeMap::new();
        let mut conditional: BTreeMap<When, BTreeMap<&str, Vec<Code>>> = BTreeMap::new();
        for (name, &i) in &required.index {
            if let Some(&when) = narrowed.get(name) {
                let found = Code::stmt(quote!(found += 1;));
                conditional
                    .entry(when)
                    .or_default()
                    .entry(*name)
                    .or_default()
                    .push(found);
                continue;
            }
            let action = if counting {
                any_applies(&required.whens[name], Code::stmt(quote!(found += 1;)))
            } else {
                let i = Literal::usize_unsuffixed(i);
                Code::unit(quote!(seen[#i] = true))
            };
            arms.entry(name).or_default().push(action);
        }
        for (name, edge, when) in &properties {
            let action = self.applied_to_key(f, mark, edge, &Inst::Property(name.to_string()));
            if narrowed.contains_key(name.as_str()) {
                let actions = conditional.entry(*when).or_default();
                actions.entry(name.as_str()).or_default().push(action);
                continue;
            }
            arms.entry(name.as_str())
                .or_default()
                .push(when.guard(action));
        }
        for name in &additional.known {
            arms.entry(name).or_default();
        }
        if additional.after_patterns.is_some() {
            let named: BTreeSet<&str> = properties
                .iter()
                .map(|(n, ..)| n.as_str())
                .chain(additional.known.iter().copied())
                .collect();
            for name in named {
                arms.entry(name).or_default().push(covered());
            }
        }
        // A loop that runs anyway picks up the deferred properties' values on its way, for
        // after it (a lookup by name costs more than that on small objects); so does a loop
        // run only for that, when it replaces two lookups or more.
        let loops = !arms.is_empty()
            || !narrowed.is_empty()
            || run.additional.is_some()
            || !run.patterns.is_empty()
            || run.names.is_some();
        // (Not on the error path, which looks every one up: less code.)
        let captured =
            f.mode == Mode::Check && !deferred.is_empty() && (loops || deferred.len() > 1);
        if captured {
            for (j, (name, ..)) in deferred.iter().enumerate() {
                let j = Literal::usize_unsuffixed(j);
                arms.entry(name.as_str())
                    .or_default()
                    .push(Code::unit(quote!(later[#j] = Some(x))).using(Uses::X));
            }
        }
        if let Some(code) = &additional.code {
            for (name, actions) in arms.iter_mut() {
                let named = properties.iter().any(|(n, ..)| n.as_str() == *name);
                if !additional.known.contains(name) && !named {
                    actions.push(code.clone());
                }
            }
        }
        // `unevaluatedProperties` on a key no evaluating name covers, unless one of the
        // conditions under which it is evaluated holds.
        let unevaluated_code = run.unevaluated.map(|edge| {
            let refusal = messages::unevaluated_refusal(self.program, f.node, edge);
            self.refusing_key_child(f, edge, &Inst::Key, refusal)
        });
        let unevaluated_fails = run.unevaluated.is_some_and(|e| self.fails(f, e));
        if let Some(code) = &unevaluated_code {
            evaluated.retain(|name, _| !narrowed.contains_key(name));
            for (name, when) in &narrowed {
                conditional
                    .entry(*when)
                    .or_default()
                    .entry(*name)
                    .or_default();
            }
            add_unevaluated(&mut arms, &evaluated, code, unevaluated_fails);
        }
        // The default action fails the node whatever the key.
        let default_fails = match additional.code {
            Some(_) => additional.fails,
            None => unevaluated_fails,
        };
        let key_fails = arms.is_empty() && conditional.is_empty() && default_fails;
        let default = additional
            .code
            .clone()
            .or(unevaluated_code)
            .unwrap_or_default();
        let default = self.conditional_names(f, &conditional, default);
        // One name and nothing to do for other keys: the pass ends where it finds it.
        let seeks = run.patterns.is_empty() && run.names.is_none() && f.mode == Mode::Check;
        let (key_match, sought) = self.match_key(f, &arms, default, seeks);
        let body = if key_fails {
            // Any key fails the node: nothing after that (and no call made, so that every
            // function generated is called).
            key_match
        } else {
            let (covered_decl, rest) = self.after_names(f, &run, &additional, mark);
            covered_decl.then(key_match).then(rest)
        };
        let key_loop = key_loop(sought, body);
        let (seen_decl, required_check) = self.required_check(f, &required);
        let (later_decl, deferred_code) = self.deferred(f, &deferred, captured);
        // Every property is evaluated once `unevaluatedProperties` passed (for a caller
        // that reads the node's set).
        let evaluated_all = if run.unevaluated.is_some() && self.collects(f.id) {
            Code::stmt(quote!(ev.props.set_range(0, obj.len());)).using(Uses::EV)
        } else {
            Code::default()
        };
        charge
            .then(Code::stmt(quote!(#seen_decl #later_decl)))
            .then(key_loop)
            .then(required_check)
            .then(deferred_code)
            .then(evaluated_all)
            .binding()
    }

    /// The `_` arm of a short-circuit pass's `match` on the key where some names are looked
    /// for only under their condition (`conditional`, see [`narrowed_names`]): for each
    /// condition that holds, a `match` on its names, whose arms leave the block `'key`;
    /// then `default`, for a key none of them took.
    fn conditional_names(
        &self,
        f: &Fun<'_>,
        conditional: &BTreeMap<When, BTreeMap<&str, Vec<Code>>>,
        default: Code,
    ) -> Code {
        let mut block = Code::default();
        let mut breaks = false;
        for (i, (when, names)) in conditional.iter().enumerate() {
            // (After the last condition's names, nothing is left to skip.)
            let last = i + 1 == conditional.len() && default.is_empty();
            let arms: BTreeMap<&str, Vec<Code>> = names
                .iter()
                .map(|(name, actions)| {
                    let mut code: Code = actions.iter().cloned().collect();
                    if !last && !code.ends() {
                        code.push(Code::stmt(quote!(break 'key;)));
                        breaks = true;
                    }
                    (*name, vec![code])
                })
                .collect();
            let (lookup, _) = self.match_key(f, &arms, Code::default(), false);
            block.push(match when.test() {
                Some(test) => Code::when(test, lookup),
                None => lookup,
            });
        }
        block.push(default);
        if breaks {
            Code::around([block], |[block]| quote!('key: { #block }))
        } else {
            block
        }
    }

    /// What a pass charges before it starts: every key pays for `additionalProperties`
    /// and `propertyNames` (a `patternProperties` child is paid for when its pattern
    /// matches), and for an `unevaluatedProperties` decided in the pass what its own pass
    /// would charge, a unit per location and its subschema.
    fn pass_charge(&self, f: &Fun<'_>, run: &PassChecks<'_>) -> Code {
        let per_key: Vec<NodeId> = run
            .additional
            .map(|(e, _, _)| e.target)
            .into_iter()
            .chain(run.names.map(|e| e.target))
            .collect();
        let charge = self.loop_charge(f, quote!(obj.len()), &per_key);
        match run.unevaluated {
            None => charge,
            Some(edge) => {
                let st = state(f.mode);
                let subschema = self.loop_charge(f, quote!(obj.len()), &[edge.target]);
                charge
                    .then(Code::stmt(quote!(#st.charge(obj.len())?;)).using(Uses::CX))
                    .then(subschema)
            }
        }
    }

    /// What the pass does with a key after its name's actions — its patterns,
    /// `additionalProperties` after them, `propertyNames` — and the declaration before
    /// the key's actions of whether a pattern covered it.
    fn after_names(
        &self,
        f: &Fun<'_>,
        run: &PassChecks<'_>,
        additional: &Additional<'_>,
        mark: bool,
    ) -> (Code, Code) {
        let pattern_body = |edge: &Edge, inst: &Inst| {
            let charge = self.loop_charge(f, quote!(1), &[edge.target]);
            let action = self.applied_to_key(f, mark, edge, inst);
            // (A key that fails the node needs no mark of being covered.)
            let covered = match &additional.after_patterns {
                Some(_) if !self.fails(f, edge) => covered(),
                _ => Code::default(),
            };
            covered.then(charge).then(action)
        };
        let keyed: Vec<Code> = run
            .patterns
            .iter()
            .map(|(_, edge)| pattern_body(edge, &Inst::Key))
            .collect();
        let (covered_decl, after_patterns) = match &additional.after_patterns {
            Some(code) => (
                Code::stmt(quote!(let mut covered = false;)),
                Code::when(quote!(!covered), code.clone()),
            ),
            None => (Code::default(), Code::default()),
        };
        let names = run.names.map(|e| {
            self.names_on_key(f, e)
                .unwrap_or_else(|| self.key_child(f, e, &Inst::KeyAsInstance))
        });
        let rest = self
            .try_patterns(f, &run.patterns, &keyed, pattern_body)
            .then(after_patterns)
            .then(names.unwrap_or_default());
        (covered_decl, rest)
    }

    /// The deferred properties' evaluation after the pass, with the declaration of their
    /// values' slots before it where the pass `captured` them (else each is looked up).
    fn deferred(
        &self,
        f: &Fun<'_>,
        deferred: &[Property<'_>],
        captured: bool,
    ) -> (TokenStream, Code) {
        let code = deferred
            .iter()
            .enumerate()
            .map(|(j, (name, edge, when))| {
                let test = self.key_child(f, edge, &Inst::Named(name.to_string()));
                let value = if captured {
                    let j = Literal::usize_unsuffixed(j);
                    quote!(later[#j])
                } else {
                    quote!(obj.get(#name))
                };
                when.guard(match f.mode {
                    Mode::Check => {
                        Code::around([test], |[test]| quote!(if let Some(x) = #value { #test }))
                            .declaring(Uses::X)
                    }
                    // The call looks the property up itself.
                    Mode::Errors => test,
                })
            })
            .collect();
        let decl = if captured {
            let n = Literal::usize_unsuffixed(deferred.len());
            quote!(let mut later: [Option<V>; #n] = [None; #n];)
        } else {
            quote!()
        };
        (decl, code)
    }

    /// The pass's `properties` entries split into those the loop evaluates and those
    /// evaluated after it, by name: recursive or heavy ones (the plan's order), unless the
    /// node records evaluated properties by position. On the error path, a property that
    /// would be the pass's only work is looked up by name too, before the others (as the
    /// pass would have run it): less code.
    fn split_deferred<'c>(
        &self,
        f: &Fun<'_>,
        run: &PassChecks<'c>,
        mark: bool,
    ) -> (Vec<Property<'c>>, Vec<Property<'c>>) {
        let (mut properties, mut deferred): (Vec<_>, Vec<_>) = run
            .properties
            .iter()
            .partition(|(_, e, _)| mark || !self.plan.is_deferred(e.target));
        if f.mode == Mode::Errors
            && !mark
            && properties.len() == 1
            && run.required.is_empty()
            && run.additional.is_none()
            && run.patterns.is_empty()
            && run.names.is_none()
        {
            deferred.insert(0, properties.remove(0));
        }
        (properties, deferred)
    }

    /// Which names are evaluated in a pass deciding `unevaluatedProperties`, and when: by
    /// `properties` (the node's, its absorbed children's) and by the absorbed conditions
    /// where they hold.
    fn evaluated_names<'p>(
        &'p self,
        f: &'p Fun<'_>,
        properties: &[Property<'p>],
    ) -> BTreeMap<&'p str, Vec<When>> {
        let mut evaluated: BTreeMap<&str, Vec<When>> = BTreeMap::new();
        for (name, _, when) in properties {
            evaluated.entry(name.as_str()).or_default().push(*when);
        }
        for (n, condition) in f.absorbed.conditions.iter().enumerate() {
            for c in &self.program.node(condition.target).checks {
                if let CheckKind::Properties(ps) = &c.kind {
                    for (name, _) in ps {
                        evaluated.entry(name).or_default().push(When::Holds(n));
                    }
                }
            }
        }
        evaluated
    }

    /// The `propertyNames` subschema `edge` applied to the key `k` itself, in short-circuit
    /// code, where all it checks is read off a string (`minLength`, `pattern`, `format`,
    /// …): its dispatch's string arm inline, with `text` bound to the key. `None` where
    /// the subschema does more (a child, an entry charge, a dynamic scope to enter) or its
    /// string arm reads the value as a whole: the key is then passed to its function as a
    /// string instance of its own (`KeyStr`, [`Inst::KeyAsInstance`]).
    fn names_on_key(&self, f: &Fun<'_>, edge: &Edge) -> Option<Code> {
        let plan = self.plan.node(edge.target);
        let node = self.program.node(edge.target);
        if f.mode != Mode::Check
            || plan.out_of_line
            || plan.constant.is_some()
            || self.program.uses_dynamic_scope
            || !node.checks.iter().all(|c| c.kind.is_dispatchable())
        {
            return None;
        }
        let names = Fun {
            id: edge.target,
            node,
            mode: Mode::Check,
            exit: f.exit.clone(),
            absorbed: Default::default(),
        };
        let checks: Vec<(Check, When)> = node
            .checks
            .iter()
            .map(|c| (c.clone(), When::Always))
            .collect();
        let code = self.arm(
            &ArmCx {
                f: &names,
                kind: Kind::String,
            },
            &checks,
        );
        let uses = code.uses();
        if uses.contains(Uses::V) || uses.contains(Uses::X) {
            return None;
        }
        if !code.binds() {
            return Some(code);
        }
        let tokens = code.render();
        Some(
            // (Bound as a string arm binds it.)
            Code::built_from(
                quote!({ let text = &__rt::Cow::Borrowed(k); #tokens }),
                [&code],
            )
            .declaring(Uses::BINDING)
            .using(Uses::K),
        )
    }

    /// Applying `edge`'s subschema to a key's value (or its name, as `inst` says), as the
    /// pass does: nothing for `true`; short-circuit code's exit for `false`.
    fn key_child(&self, f: &Fun<'_>, edge: &Edge, inst: &Inst) -> Code {
        self.refusing_key_child(f, edge, inst, None)
    }

    /// [`Gen::key_child`] for `additionalProperties` / `unevaluatedProperties`, whose
    /// `false` subschema's error says that the property is not allowed where `refusal`
    /// gives the allowed names ([`messages::additional_refusal`]).
    fn refusing_key_child(
        &self,
        f: &Fun<'_>,
        edge: &Edge,
        inst: &Inst,
        refusal: Option<Refusal>,
    ) -> Code {
        match (self.plan.node(edge.target).constant, f.mode) {
            (Some(true), _) => return Code::default(),
            (Some(false), Mode::Check) => return self.fail_silent(f),
            _ => {}
        }
        let call = self.child(f, edge, edge.target, inst, &EvArg::Throwaway);
        let call = self.refusing(f, call, refusal);
        self.applied_child(f, &call)
    }

    /// Whether applying `edge`'s subschema fails the node outright (`false`, short-circuit
    /// code): then nothing follows its test.
    fn fails(&self, f: &Fun<'_>, edge: &Edge) -> bool {
        f.mode == Mode::Check && self.plan.node(edge.target).constant == Some(false)
    }

    /// The action for a key that `edge`'s subschema applies to: its test, then the key
    /// recorded as evaluated where the pass `mark`s keys by position.
    fn applied_to_key(&self, f: &Fun<'_>, mark: bool, edge: &Edge, inst: &Inst) -> Code {
        self.refusing_applied_to_key(f, mark, edge, inst, None)
    }

    /// [`Gen::applied_to_key`] with [`Gen::refusing_key_child`]'s `refusal`.
    fn refusing_applied_to_key(
        &self,
        f: &Fun<'_>,
        mark: bool,
        edge: &Edge,
        inst: &Inst,
        refusal: Option<Refusal>,
    ) -> Code {
        let test = self.refusing_key_child(f, edge, inst, refusal);
        if self.fails(f, edge) || !mark {
            test
        } else {
            test.then(Code::stmt(quote!(ev.props.set(i);)).using(Uses::I | Uses::EV))
        }
    }

    /// What the pass does with `additionalProperties`.
    fn additional_actions<'c>(
        &self,
        f: &Fun<'_>,
        run: &PassChecks<'c>,
        mark: bool,
    ) -> Additional<'c> {
        let Some((edge, known, pats)) = run.additional else {
            return Additional::default();
        };
        let refusal = messages::additional_refusal(self.program, edge, known, pats);
        let known = known.iter().map(String::as_str).collect();
        let action = self.refusing_applied_to_key(f, mark, edge, &Inst::Key, refusal);
        let skips_siblings =
            !pats.is_empty() && pats.iter().eq(run.patterns.iter().map(|(id, _)| id));
        if skips_siblings && !action.is_empty() {
            return Additional {
                known,
                after_patterns: Some(action),
                ..Additional::default()
            };
        }
        let live: Vec<RegexId> = pats
            .iter()
            .copied()
            .filter(|id| self.program.regexes[id.0].compiled.is_some())
            .collect();
        if live.is_empty() {
            return Additional {
                known,
                fails: self.fails(f, edge),
                code: Some(action),
                ..Additional::default()
            };
        }
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
        Additional {
            known,
            code: Some(Code::when(none_match, action).using(Uses::K | Uses::CX)),
            ..Additional::default()
        }
    }

    /// What the pass does with a key, by its name (`arms`; `default` for other names): a
    /// `match` with an arm per group of names with the same actions, or one test; with
    /// `seeks`, one name and nothing to do for the others is sought instead (the name,
    /// whose actions the result holds).
    fn match_key<'n>(
        &self,
        f: &Fun<'_>,
        arms: &BTreeMap<&'n str, Vec<Code>>,
        default: Code,
        seeks: bool,
    ) -> (Code, Option<&'n str>) {
        if arms.is_empty() {
            return (default, None);
        }
        if let (1, Some((&name, actions)), true) =
            (arms.len(), arms.iter().next(), default.is_empty())
        {
            let actions: Code = actions.iter().cloned().collect();
            return if seeks {
                (actions, Some(name))
            } else {
                (Code::when(quote!(k == #name), actions).using(Uses::K), None)
            };
        }
        let empty_default = default.is_empty();
        // Names with the same actions share one arm; with nothing to do by default, names
        // with nothing to do need no arm.
        let mut groups: Vec<(Vec<&str>, Code, String)> = Vec::new();
        for (name, actions) in arms {
            let code: Code = actions.iter().cloned().collect();
            if empty_default && code.is_empty() {
                continue;
            }
            let key = code.render().to_string();
            match groups.iter_mut().find(|(_, _, k)| *k == key) {
                Some((names, ..)) => names.push(name),
                None => groups.push((vec![name], code, key)),
            }
        }
        let name_arms: Vec<NameArm> = groups
            .iter()
            .map(|(names, code, _)| match code.single_if() {
                Some((cond, body)) if empty_default => NameArm {
                    names: names.clone(),
                    guard: Some(cond.clone()),
                    body: body.arm(f.mode),
                },
                _ => NameArm {
                    names: names.clone(),
                    guard: None,
                    body: code.arm(f.mode),
                },
            })
            .collect();
        let code = match (groups.as_slice(), empty_default) {
            ([], _) => default,
            // (One arm gains nothing from telling its names apart by a byte.)
            ([(names, code, _)], true) => {
                Code::when(quote!(matches!(k, #(#names)|*)), code.clone()).using(Uses::K)
            }
            _ => Code::built_from(
                match_names(&quote!(k), &name_arms, default.arm(f.mode)),
                groups.iter().map(|(_, code, _)| code).chain([&default]),
            )
            .using(Uses::K),
        };
        (code, None)
    }

    /// The declaration before the pass and the check after it of its `required` names:
    /// short-circuit code compares the count of names found with the number that apply
    /// (the unconditional ones, and each group required under the same conditions where
    /// one of them holds); the error path reports each name whose `seen` slot is unset.
    fn required_check(&self, f: &Fun<'_>, required: &RequiredNames<'_>) -> (TokenStream, Code) {
        if required.names.is_empty() {
            return (quote!(), Code::default());
        }
        if f.mode == Mode::Check {
            let mut groups: BTreeMap<&[When], usize> = BTreeMap::new();
            for whens in required.whens.values() {
                *groups.entry(whens.as_slice()).or_default() += 1;
            }
            let terms: Vec<TokenStream> = groups
                .iter()
                .map(|(whens, &count)| {
                    let n = Literal::usize_unsuffixed(count);
                    match any_holds(whens) {
                        None => quote!(#n),
                        Some(any) if count == 1 => quote!(usize::from(#any)),
                        Some(any) => quote!(usize::from(#any) * #n),
                    }
                })
                .collect();
            return (
                quote!(let mut found: usize = 0;),
                Code::if_then(quote!(found != #(#terms)+*), self.fail_silent(f)),
            );
        }
        let n = Literal::usize_unsuffixed(required.index.len());
        let checks: Code = required
            .names
            .iter()
            .map(|(check, name, when)| {
                let i = Literal::usize_unsuffixed(required.index[name.as_str()]);
                let fail = self.fail(
                    f,
                    check,
                    quote!(__rt::ErrorKind::Required {
                        property: __rt::Cow::Borrowed(#name)
                    }),
                );
                when.guard(Code::if_then(quote!(!seen[#i]), fail))
            })
            .collect();
        (quote!(let mut seen = [false; #n];), checks)
    }

    /// `required` by a lookup per name (from `REQUIRED_IN_LOOP` names on, the pass over the object finds them).
    pub(super) fn required(&self, a: &ArmCx<'_, '_>, check: &Check, names: &[String]) -> Code {
        let f = a.f;
        if let Some(list) = self.name_list(f, names) {
            let keyword = &check.keyword;
            return self.missing(
                list,
                quote!(#keyword, __rt::ErrorKind::Required {
                    property: __rt::Cow::Borrowed(*name)
                }),
            );
        }
        let fail = |kind: TokenStream| self.fail(f, check, kind);
        let parts: Code = names
            .iter()
            .map(|name| {
                let fail = fail(quote!(__rt::ErrorKind::Required {
                    property: __rt::Cow::Borrowed(#name)
                }));
                Code::if_then(quote!(!obj.contains_key(#name)), fail)
            })
            .collect();
        parts.binding()
    }

    /// `dependentRequired`: for each present property, the names it requires.
    pub(super) fn dependent_required(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        deps: &[(String, Vec<String>)],
    ) -> Code {
        let f = a.f;
        let fail = |kind: TokenStream| self.fail(f, check, kind);
        let parts: Code = deps
            .iter()
            .filter(|(_, r)| !r.is_empty())
            .map(|(property, required)| {
                if let Some(list) = self.name_list(f, required) {
                    let keyword = &check.keyword;
                    let missing = self.missing(
                        list,
                        quote!(#keyword, __rt::ErrorKind::DependentRequired {
                            property: __rt::Cow::Borrowed(#property),
                            missing: __rt::Cow::Borrowed(*name)
                        }),
                    );
                    return Code::when(quote!(obj.contains_key(#property)), missing);
                }
                let inner: Code = required
                    .iter()
                    .map(|missing| {
                        let fail = fail(quote!(__rt::ErrorKind::DependentRequired {
                            property: __rt::Cow::Borrowed(#property),
                            missing: __rt::Cow::Borrowed(#missing)
                        }));
                        Code::if_then(quote!(!obj.contains_key(#missing)), fail)
                    })
                    .collect();
                Code::when(quote!(obj.contains_key(#property)), inner)
            })
            .collect();
        parts.binding()
    }

    /// The [`NameList`] of `names` when error-collecting code reports them through
    /// `Errors::missing` (short-circuit code stops at the first missing name).
    pub(super) fn name_list(&self, f: &Fun<'_>, names: &[String]) -> Option<Ident> {
        let list = NameList::new(names).filter(|_| reported_apart(f, names))?;
        let rt = self.rt;
        let (in_order, sorted) = (&list.in_order, &list.sorted);
        Some(self.table(
            "NL",
            " Names an object must have, in order and sorted: the missing ones are counted at once past the error bound.",
            quote!(#rt::lookup::NameList<'static>),
            quote!(#rt::lookup::NameList::new(&[#(#in_order),*], &[#(#sorted),*])),
        ))
    }

    /// The errors of the names of `list` an object lacks (`Errors::missing`), each
    /// recorded by `Trail::error` with the arguments `error` (which read `name`).
    fn missing(&self, list: Ident, error: TokenStream) -> Code {
        Code::stmt(quote!(cx.missing(&__rt::ObjectKeys(v), #list, |t, name| t.error(#error))?;))
            .using(Uses::CX | Uses::V)
    }

    /// `dependentSchemas`: for each present property, its subschema on the object.
    pub(super) fn dependent_schemas(&self, a: &ArmCx<'_, '_>, deps: &[(String, Edge)]) -> Code {
        let f = a.f;
        let parts: Code = deps
            .iter()
            .map(|(property, edge)| {
                let child = self.in_place_child(f, edge, edge.target);
                Code::when(quote!(obj.contains_key(#property)), child)
            })
            .collect();
        parts.binding()
    }

    /// `unevaluatedProperties`: the entries no other keyword evaluated, against `edge`'s subschema.
    pub(super) fn unevaluated_properties(
        &self,
        a: &ArmCx<'_, '_>,
        check: &Check,
        edge: &Edge,
    ) -> Code {
        let f = a.f;
        let st = state(f.mode);
        let call = self.child(f, edge, edge.target, &Inst::Key, &EvArg::Throwaway);
        let refusal = messages::unevaluated_refusal(self.program, f.node, edge);
        let call = self.refusing(f, call, refusal);
        let (header, body) = match f.mode {
            Mode::Check => (
                quote!(for (i, x) in obj.values().enumerate()),
                Code::if_then(quote!(!ev.props.get(i) && !#call?), self.fail_silent(f)),
            ),
            Mode::Errors => (
                quote!(for (i, (k, x)) in obj.iter().enumerate()),
                Code::stmt(quote!(let k = k.as_ref(); if !ev.props.get(i) { #call?; })),
            ),
        };
        let body = body.using(call.uses);
        let charge = self.loop_charge(f, quote!(obj.len()), &[edge.target]);
        // Every property is evaluated then (for a caller that reads the node's set).
        let evaluated_all = self
            .collects(f.id)
            .then(|| quote!(ev.props.set_range(0, obj.len());));
        // Its annotation: the names it applies to.
        let (applies, applied) = if self.annotates(f, check) {
            let give = self.give(check, quote!(value));
            (
                quote! {
                    let applies = if cx.annotating() {
                        Some(__rt::applied_names(*obj, |i, _| Ok(!ev.props.get(i)))?)
                    } else {
                        None
                    };
                },
                quote!(if let (Some(value), true) = (applies, cx.mark() == start) { #give }),
            )
        } else {
            (quote!(), quote!())
        };
        Code::around([charge, body], |[charge, body]| {
            quote! {
                #st.charge(obj.len())?;
                #charge
                #applies
                #header {
                    #body
                }
                #evaluated_all
                #applied
            }
        })
        .using(Uses::EV | Uses::CX)
        .declaring(Uses::X | Uses::I | Uses::K)
        .binding()
    }
}

/// `whens` as the set of conditions of which one must hold: `[Always]` when one is
/// `Always` or when it has a condition and its negation, else sorted without repeats.
fn normalize_whens(whens: &mut Vec<When>) {
    let both = whens
        .iter()
        .any(|w| matches!(w, When::Holds(n) if whens.contains(&When::Fails(*n))));
    if both || whens.contains(&When::Always) {
        *whens = vec![When::Always];
    } else {
        whens.sort();
        whens.dedup();
    }
}

/// `code` run where one of `whens` applies.
fn any_applies(whens: &[When], code: Code) -> Code {
    match any_holds(whens) {
        None => code,
        Some(any) => Code::when(any, code),
    }
}

/// Whether one of `whens` applies, as a `bool` expression (`false` for none); `None` where
/// one always does.
fn any_holds(whens: &[When]) -> Option<Cond> {
    let tests: Vec<TokenStream> = whens.iter().map(|w| w.test()).collect::<Option<_>>()?;
    Some(Cond::any(&tests))
}

/// A `properties` entry of a pass: its name, its subschema's edge, when it applies.
type Property<'c> = (&'c String, &'c Edge, When);

/// A `required` name of a pass: its check, the name, when it applies.
type Required<'c> = (&'c Check, &'c String, When);

/// The checks of one object pass, gathered by keyword, each with when it applies (an
/// absorbed branch's, see [`When`]).
struct PassChecks<'c> {
    properties: Vec<Property<'c>>,
    patterns: Vec<(RegexId, &'c Edge)>,
    /// `additionalProperties`: its subschema, and the names and patterns it skips.
    additional: Option<(&'c Edge, &'c [String], &'c [RegexId])>,
    /// `propertyNames`.
    names: Option<&'c Edge>,
    /// The `required` names, without repeats under the same condition.
    required: Vec<Required<'c>>,
    /// An `unevaluatedProperties` decided in the pass (see `Absorption::unevaluated`):
    /// then every property is recorded after it, none by position.
    unevaluated: Option<&'c Edge>,
}

impl<'c> PassChecks<'c> {
    /// The pass's checks among `checks` for function `f`: `unevaluatedProperties` among
    /// them only where it absorbs it, `required` only where its names are not reported
    /// on their own ([`Gen::name_list`]).
    fn gather(checks: &'c [(Check, When)], f: &Fun<'_>) -> PassChecks<'c> {
        let absorbs_unevaluated = f.absorbed.unevaluated;
        let mut run = PassChecks {
            properties: Vec::new(),
            patterns: Vec::new(),
            additional: None,
            names: None,
            required: Vec::new(),
            unevaluated: None,
        };
        for (check, when) in checks {
            let when = *when;
            match &check.kind {
                CheckKind::Properties(ps) => {
                    run.properties.extend(ps.iter().map(|(n, e)| (n, e, when)))
                }
                CheckKind::PatternProperties(ps) => {
                    run.patterns.extend(ps.iter().map(|(r, e)| (*r, e)))
                }
                CheckKind::AdditionalProperties {
                    schema,
                    known,
                    patterns,
                } => run.additional = Some((schema, known, patterns)),
                CheckKind::PropertyNames(e) => run.names = Some(e),
                CheckKind::Required(rs) if !reported_apart(f, rs) => {
                    for r in rs {
                        if !run.required.iter().any(|&(_, n, w)| n == r && w == when) {
                            run.required.push((check, r, when));
                        }
                    }
                }
                CheckKind::UnevaluatedProperties(e) if absorbs_unevaluated => {
                    run.unevaluated.get_or_insert(e);
                }
                _ => {}
            }
        }
        run
    }
}

/// What a pass does with `additionalProperties`.
#[derive(Default)]
struct Additional<'c> {
    /// The names it skips.
    known: BTreeSet<&'c str>,
    /// Where it skips exactly the sibling patterns (the shape the front end lowers to):
    /// its action, run after them on keys neither named nor matched — each pattern tried
    /// once per key, in the interpreter's order.
    after_patterns: Option<Code>,
    /// Otherwise, its action on a key not named in `properties`.
    code: Option<Code>,
    /// That action fails the node whatever the key.
    fails: bool,
}

/// The `required` names of a pass, with each one's `seen` slot (in first-use order) and
/// when it applies.
struct RequiredNames<'r> {
    names: &'r [Required<'r>],
    index: BTreeMap<&'r str, usize>,
    whens: BTreeMap<&'r str, Vec<When>>,
}

impl<'r> RequiredNames<'r> {
    fn new(names: &'r [Required<'r>]) -> RequiredNames<'r> {
        let mut index = BTreeMap::new();
        let mut whens: BTreeMap<&str, Vec<When>> = BTreeMap::new();
        for (_, name, when) in names {
            let next = index.len();
            index.entry(name.as_str()).or_insert(next);
            whens.entry(name.as_str()).or_default().push(*when);
        }
        for whens in whens.values_mut() {
            normalize_whens(whens);
        }
        RequiredNames {
            names,
            index,
            whens,
        }
    }
}

/// Adds to the actions of each named key (`arms`) the `unevaluatedProperties` action
/// (`code`; `fails` when it fails the node whatever the key) where the key is not
/// evaluated: unless one of the conditions under which a name is `evaluated` holds.
fn add_unevaluated<'n>(
    arms: &mut BTreeMap<&'n str, Vec<Code>>,
    evaluated: &BTreeMap<&'n str, Vec<When>>,
    code: &Code,
    fails: bool,
) {
    for name in evaluated.keys() {
        arms.entry(name).or_default();
    }
    for (name, actions) in arms.iter_mut() {
        let mut whens = evaluated.get(name).cloned().unwrap_or_default();
        normalize_whens(&mut whens);
        let unless = match (any_holds(&whens), whens.as_slice()) {
            // Evaluated whatever the conditions' verdicts.
            (None, _) => continue,
            // Never evaluated (a name only `required`): with `false`, the key fails the
            // node, nothing else to do.
            (Some(_), []) => {
                if fails {
                    actions.clear();
                }
                actions.push(code.clone());
                continue;
            }
            (Some(_), [when]) => when.negated(),
            (Some(any), _) => quote!(!(#any)),
        };
        actions.push(Code::when(unless, code.clone()));
    }
}

/// The names a short-circuit pass looks for only where one condition holds, with it:
/// those whose `properties` entries and `required` apply under that condition alone and
/// (with `unevaluatedProperties`) which only it evaluates, so that where it does not
/// hold they are like any other key. None where another keyword acts on every key, and
/// none of the `deferred` properties (the pass picks up their values).
fn narrowed_names<'n>(
    f: &Fun<'_>,
    run: &PassChecks<'_>,
    (properties, deferred): (&[Property<'n>], &[Property<'_>]),
    required: &RequiredNames<'n>,
    evaluated: &BTreeMap<&'n str, Vec<When>>,
) -> BTreeMap<&'n str, When> {
    if f.mode != Mode::Check
        || run.additional.is_some()
        || !run.patterns.is_empty()
        || run.names.is_some()
    {
        return BTreeMap::new();
    }
    let mut whens: BTreeMap<&str, Vec<When>> = BTreeMap::new();
    for (name, _, when) in properties {
        whens.entry(name.as_str()).or_default().push(*when);
    }
    for (name, required) in &required.whens {
        whens.entry(name).or_default().extend(required);
    }
    for (name, evaluating) in evaluated {
        whens.entry(name).or_default().extend(evaluating);
    }
    whens
        .into_iter()
        .filter(|(name, _)| run.unevaluated.is_none() || evaluated.contains_key(name))
        .filter(|(name, _)| deferred.iter().all(|(d, ..)| d.as_str() != *name))
        .filter_map(|(name, whens)| match whens.split_first() {
            Some((&first, rest)) if first != When::Always && rest.iter().all(|w| *w == first) => {
                Some((name, first))
            }
            _ => None,
        })
        .collect()
}

/// `covered = true`: a key matched a pattern (see [`Additional::after_patterns`]).
fn covered() -> Code {
    Code::unit(quote!(covered = true))
}

/// The loop over the object's entries around `body`, binding what the body reads of
/// `i`, `k` and `x`: a lookup where one name is `sought`; the body once, if there is a
/// key, where it reads none (`additionalProperties: false` alone); nothing where there is
/// nothing to do per key (e.g. `properties` whose subschemas are all `true`).
fn key_loop(sought: Option<&str>, body: Code) -> Code {
    if body.is_empty() {
        return Code::default();
    }
    let reads = |name: Uses| body.uses().contains(name);
    let (uses_x, uses_i, uses_k) = (reads(Uses::X), reads(Uses::I), reads(Uses::K));
    let header = match (sought, uses_i, uses_k, uses_x) {
        (None, false, false, false) => return Code::if_then(quote!(!obj.is_empty()), body),
        (Some(name), ..) => {
            let i = if uses_i { quote!(i) } else { quote!(_) };
            let x = if uses_x { quote!(x) } else { quote!(_) };
            quote!(if let Some((#i, #x)) = __rt::find_entry(*obj, #name))
        }
        (None, true, true, true) => quote!(for (i, (k, x)) in obj.iter().enumerate()),
        (None, true, true, false) => quote!(for (i, k) in obj.keys().enumerate()),
        (None, true, false, true) => quote!(for (i, x) in obj.values().enumerate()),
        (None, true, false, false) => quote!(for i in 0..obj.len()),
        (None, false, true, true) => quote!(for (k, x) in obj.iter()),
        (None, false, true, false) => quote!(for k in obj.keys()),
        (None, false, false, true) => quote!(for x in obj.values()),
    };
    // A key as a `&str` (a map's `&String`, a document's unescaped `Cow`).
    let key = (uses_k && sought.is_none()).then(|| quote!(let k = k.as_ref();));
    let tokens = body.render();
    Code::built_from(quote!(#header { #key #tokens }), [&body])
        .declaring(Uses::X | Uses::I | Uses::K)
}
