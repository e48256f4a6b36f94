//! The object keywords: the one pass over the object (`properties`, `patternProperties`,
//! `additionalProperties`, `propertyNames`, several `required` names), and `required` by
//! lookup, `dependentRequired`, `dependentSchemas`, `unevaluatedProperties`.

use super::call::{EvArg, Inst, When};
use super::code::{Code, Cond, Uses};
use super::dispatch::ArmCx;
use super::names::{match_names, NameArm};
use super::{state, Fun, Gen, Mode};
use crate::ir::{Check, CheckKind, Edge, NodeId, RegexId};
use crate::plan::lookup;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};

impl Gen<'_> {
    /// Code that tries `patterns` on the key `k` in order, running each one's `body` when it
    /// matches (an empty body skips the pattern): one `if` each, or, for a list with a
    /// prefilter, a loop over the candidates the prefilter leaves.
    fn try_patterns(&self, f: &Fun<'_>, patterns: &[(RegexId, Code)]) -> Code {
        let st = state(f.mode);
        let mut arms = Vec::new();
        for (index, (id, body)) in patterns.iter().enumerate() {
            if body.is_empty() || self.program.regexes[id.0].compiled.is_none() {
                continue;
            }
            let index = Literal::u32_unsuffixed(index as u32);
            // (The test reads `k`.)
            let mut test = self.regex_test(f.mode, *id, quote!(k));
            test.uses |= Uses::K;
            arms.push((index, test, body));
        }
        let set = lookup::pattern_set(self.program, patterns.iter().map(|(id, _)| *id));
        match set {
            None => arms
                .into_iter()
                .map(|(_, test, body)| Code::when(test.tokens, body.clone()).using(test.uses))
                .collect(),
            Some(_) if arms.is_empty() => Code::default(),
            Some(set) => {
                let name = self.pattern_set(&set);
                let tokens = match arms.as_slice() {
                    [(index, test, body)] => {
                        let body = body.render();
                        quote!(if p == #index && #test { #body })
                    }
                    _ => {
                        let arms = arms.iter().map(|(index, test, body)| {
                            let body = body.arm(f.mode);
                            quote!(#index if #test => #body)
                        });
                        quote!(match p { #(#arms)* _ => {} })
                    }
                };
                let tokens = quote!(for p in #st.candidates(&#name, k)? { #tokens });
                let tests = arms
                    .iter()
                    .fold(Uses::K | Uses::CX, |uses, (_, test, _)| uses | test.uses);
                Code::built_from(tokens, arms.iter().map(|(_, _, body)| *body)).using(tests)
            }
        }
    }

    /// `properties`, `patternProperties`, `additionalProperties`, `propertyNames` and
    /// `required` of one run, in one pass over the object.
    pub(super) fn object_loop(&self, a: &ArmCx<'_, '_>, checks: &[(Check, When)]) -> Code {
        let f = a.f;
        // An `unevaluatedProperties` decided in the pass (see `Absorption::unevaluated`):
        // then every property is recorded after it, none by position.
        let unevaluated = checks.iter().find_map(|(c, _)| match &c.kind {
            CheckKind::UnevaluatedProperties(e) if f.absorbed.unevaluated => Some(e),
            _ => None,
        });
        let mark = f.node.collect.properties && unevaluated.is_none();
        // Each with when it applies (an absorbed branch's, see `When`).
        let mut properties: Vec<(&String, &Edge, When)> = Vec::new();
        let mut patterns: Vec<(RegexId, &Edge)> = Vec::new();
        let mut additional: Option<(&Edge, &[String], &[RegexId])> = None;
        let mut names_edge: Option<&Edge> = None;
        let mut required: Vec<(&Check, &String, When)> = Vec::new();
        for (check, when) in checks {
            let when = *when;
            match &check.kind {
                CheckKind::Properties(ps) => {
                    properties.extend(ps.iter().map(|(n, e)| (n, e, when)))
                }
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
                        if !required.iter().any(|&(_, n, w)| n == r && w == when) {
                            required.push((check, r, when));
                        }
                    }
                }
                _ => {}
            }
        }
        // Which names are evaluated, and when: by `properties` (the node's, its absorbed
        // children's) and by the absorbed conditions where they hold.
        let mut evaluated: BTreeMap<&str, Vec<When>> = BTreeMap::new();
        if unevaluated.is_some() {
            for (name, _, when) in &properties {
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
        }
        // Recursive or heavy properties run after the loop, by name (the plan's order),
        // unless the node records evaluated properties by position.
        let deferred: Vec<(&String, &Edge, When)> = if mark {
            Vec::new()
        } else {
            properties
                .iter()
                .copied()
                .filter(|(_, e, _)| self.plan.is_deferred(e.target))
                .collect()
        };
        properties.retain(|(_, e, _)| mark || !self.plan.is_deferred(e.target));
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
        let mut charge = self.loop_charge(f, quote!(obj.len()), &per_key);
        if let Some(edge) = unevaluated {
            // What the separate pass would charge: a unit per location, and its subschema.
            let st = state(f.mode);
            let subschema = self.loop_charge(f, quote!(obj.len()), &[edge.target]);
            charge = charge
                .then(Code::stmt(quote!(#st.charge(obj.len())?;)).using(Uses::CX))
                .then(subschema);
        }
        let child_test = |edge: &Edge, inst: &Inst| -> Code {
            match (self.plan.node(edge.target).constant, f.mode) {
                (Some(true), _) => return Code::default(),
                (Some(false), Mode::Check) => return self.fail_silent(f),
                _ => {}
            }
            let call = self.child(f, edge, edge.target, inst, &EvArg::Throwaway);
            self.applied_child(f, &call)
        };
        let mark_i = if mark {
            Code::stmt(quote!(ev.props.set(i);)).using(Uses::I | Uses::EV)
        } else {
            Code::default()
        };
        // Whether applying `edge`'s subschema fails the node outright (`false`, short-circuit
        // code): then nothing follows its test.
        let fails = |edge: &Edge| {
            f.mode == Mode::Check && self.plan.node(edge.target).constant == Some(false)
        };
        let unevaluated_fails = unevaluated.is_some_and(fails);
        // The action for a key that `edge`'s subschema applies to: its test, then the key
        // recorded as evaluated.
        let applied_to_key = |edge: &Edge, inst: &Inst| -> Code {
            let test = child_test(edge, inst);
            if fails(edge) || !mark {
                test
            } else {
                test.then(mark_i.clone())
            }
        };
        // `additionalProperties` skipping exactly the sibling patterns (the shape the front
        // end lowers to): the pass over the patterns records whether one matched, and
        // `additionalProperties` runs after it on keys neither named nor matched — each
        // pattern tried once per key, in the interpreter's order.
        let after_patterns = additional
            .filter(|(_, _, pats)| {
                !pats.is_empty() && pats.iter().eq(patterns.iter().map(|(id, _)| id))
            })
            .map(|(edge, _, _)| applied_to_key(edge, &Inst::Key))
            .filter(|code| !code.is_empty());
        let covered = if after_patterns.is_some() {
            Code::unit(quote!(covered = true))
        } else {
            Code::default()
        };
        // Otherwise, the additional-properties action for a key not named in `properties`
        // (`additional_fails` when it fails the node whatever the key).
        let mut additional_fails = false;
        let additional_code =
            additional
                .filter(|_| after_patterns.is_none())
                .map(|(edge, _, pats)| {
                    let action = applied_to_key(edge, &Inst::Key);
                    let live: Vec<RegexId> = pats
                        .iter()
                        .copied()
                        .filter(|id| self.program.regexes[id.0].compiled.is_some())
                        .collect();
                    if live.is_empty() {
                        additional_fails = fails(edge);
                        action
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
                        Code::when(none_match, action).using(Uses::K | Uses::CX)
                    }
                });
        let known: BTreeSet<&str> = additional
            .map(|(_, known, _)| known.iter().map(String::as_str).collect())
            .unwrap_or_default();
        // Per key name: what happens when the object has it.
        let mut arms: BTreeMap<&str, Vec<Code>> = BTreeMap::new();
        // Short-circuit code counts the required names it finds (an object's names are
        // distinct) against the number that apply; the error path marks each one's `seen`
        // slot (in first-use order), to say which is missing.
        let counting = f.mode == Mode::Check;
        let mut req_index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut req_whens: BTreeMap<&str, Vec<When>> = BTreeMap::new();
        for (_, name, when) in &required {
            let next = req_index.len();
            req_index.entry(name.as_str()).or_insert(next);
            req_whens.entry(name.as_str()).or_default().push(*when);
        }
        for whens in req_whens.values_mut() {
            normalize_whens(whens);
        }
        for (name, &i) in &req_index {
            let action = if counting {
                any_applies(&req_whens[name], Code::stmt(quote!(found += 1;)))
            } else {
                let i = Literal::usize_unsuffixed(i);
                Code::unit(quote!(seen[#i] = true))
            };
            arms.entry(name).or_default().push(action);
        }
        for (name, edge, when) in &properties {
            let action = applied_to_key(edge, &Inst::Property(name.to_string()));
            arms.entry(name.as_str())
                .or_default()
                .push(when.guard(action));
        }
        for name in &known {
            arms.entry(name).or_default();
        }
        if after_patterns.is_some() {
            let named: BTreeSet<&str> = properties
                .iter()
                .map(|(n, ..)| n.as_str())
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
            for (j, (name, ..)) in deferred.iter().enumerate() {
                let j = Literal::usize_unsuffixed(j);
                arms.entry(name.as_str())
                    .or_default()
                    .push(Code::unit(quote!(later[#j] = Some(x))).using(Uses::X));
            }
        }
        if let Some(code) = &additional_code {
            for (name, actions) in arms.iter_mut() {
                if !known.contains(name) && !properties.iter().any(|(n, ..)| n.as_str() == *name) {
                    actions.push(code.clone());
                }
            }
        }
        // `unevaluatedProperties` on a key no evaluating name covers, unless one of the
        // conditions under which it is evaluated holds.
        let unevaluated_code = unevaluated.map(|edge| child_test(edge, &Inst::Key));
        if let Some(code) = &unevaluated_code {
            for name in evaluated.keys() {
                arms.entry(name).or_default();
            }
            for (name, actions) in arms.iter_mut() {
                let mut whens = evaluated.get(name).cloned().unwrap_or_default();
                normalize_whens(&mut whens);
                let unless = match (any_holds(&whens), whens.as_slice()) {
                    // Evaluated whatever the conditions' verdicts.
                    (None, _) => continue,
                    // Never evaluated (a name only `required`): with `false`, the key
                    // fails the node, nothing else to do.
                    (Some(_), []) => {
                        if unevaluated_fails {
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
        let default = additional_code
            .clone()
            .or(unevaluated_code)
            .unwrap_or_default();
        // One name and nothing to do for other keys: the pass ends where it finds it.
        let mut sought: Option<&str> = None;
        // The default action fails the node whatever the key.
        let default_fails = match additional_code {
            Some(_) => additional_fails,
            None => unevaluated_fails,
        };
        let key_fails = arms.is_empty() && default_fails;
        let key_match = if arms.is_empty() {
            default
        } else if let (1, Some((name, actions)), true) =
            (arms.len(), arms.iter().next(), default.is_empty())
        {
            let actions: Code = actions.iter().cloned().collect();
            if patterns.is_empty() && names_edge.is_none() && f.mode == Mode::Check {
                sought = Some(name);
                actions
            } else {
                Code::when(quote!(k == #name), actions).using(Uses::K)
            }
        } else {
            let empty_default = default.is_empty();
            // Names with the same actions share one arm; with nothing to do by default,
            // names with nothing to do need no arm.
            let mut groups: Vec<(Vec<&str>, Code, String)> = Vec::new();
            for (name, actions) in &arms {
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
            let arms: Vec<NameArm> = groups
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
            match (groups.as_slice(), empty_default) {
                ([], _) => default,
                // (One arm gains nothing from telling its names apart by a byte.)
                ([(names, code, _)], true) => {
                    Code::when(quote!(matches!(k.as_str(), #(#names)|*)), code.clone())
                        .using(Uses::K)
                }
                _ => Code::built_from(
                    match_names(&quote!(k), &arms, default.arm(f.mode)),
                    groups.iter().map(|(_, code, _)| code).chain([&default]),
                )
                .using(Uses::K),
            }
        };
        let (covered_decl, after_code) = match &after_patterns {
            Some(code) => (
                quote!(let mut covered = false;),
                Code::when(quote!(!covered), code.clone()),
            ),
            None => (quote!(), Code::default()),
        };
        let body = if key_fails {
            // Any key fails the node: nothing after that (and no call made, so that every
            // function generated is called).
            key_match
        } else {
            let pattern_bodies: Vec<(RegexId, Code)> = patterns
                .iter()
                .map(|(id, edge)| {
                    let charge = self.loop_charge(f, quote!(1), &[edge.target]);
                    let action = applied_to_key(edge, &Inst::Key);
                    // (A key that fails the node needs no mark of being covered.)
                    let covered = if fails(edge) {
                        Code::default()
                    } else {
                        covered.clone()
                    };
                    (*id, covered.then(charge).then(action))
                })
                .collect();
            let pattern_code = self.try_patterns(f, &pattern_bodies);
            let names_code = names_edge.map(|e| child_test(e, &Inst::KeyAsValue));
            Code::stmt(covered_decl)
                .then(key_match)
                .then(pattern_code)
                .then(after_code)
                .then(names_code.unwrap_or_default())
        };
        let body_tokens = body.render();
        let reads = |name: Uses| body.uses().contains(name);
        let (uses_x, uses_i, uses_k) = (reads(Uses::X), reads(Uses::I), reads(Uses::K));
        let header = match (sought, uses_i, uses_k, uses_x) {
            // The same action for every key (`additionalProperties: false` alone): once,
            // if there is a key.
            (None, false, false, false) => None,
            (Some(name), ..) => {
                let i = if uses_i { quote!(i) } else { quote!(_) };
                let x = if uses_x { quote!(x) } else { quote!(_) };
                Some(quote!(if let Some((#i, #x)) = __rt::find_entry(obj, #name)))
            }
            (None, true, true, true) => Some(quote!(for (i, (k, x)) in obj.iter().enumerate())),
            (None, true, true, false) => Some(quote!(for (i, k) in obj.keys().enumerate())),
            (None, true, false, true) => Some(quote!(for (i, x) in obj.values().enumerate())),
            (None, true, false, false) => Some(quote!(for i in 0..obj.len())),
            (None, false, true, true) => Some(quote!(for (k, x) in obj)),
            (None, false, true, false) => Some(quote!(for k in obj.keys())),
            (None, false, false, true) => Some(quote!(for x in obj.values())),
        };
        // Nothing to do per key (e.g. `properties` whose subschemas are all `true`): no loop.
        let key_loop = match header {
            _ if body.is_empty() => Code::default(),
            Some(header) => Code::built_from(quote!(#header { #body_tokens }), [&body])
                .declaring(Uses::X | Uses::I | Uses::K),
            None => Code::if_then(quote!(!obj.is_empty()), body),
        };
        let (seen_decl, required_check) = if required.is_empty() {
            (quote!(), Code::default())
        } else if counting {
            // How many names apply: the unconditional ones, and each group required under
            // the same conditions where one of them holds.
            let mut groups: BTreeMap<&[When], usize> = BTreeMap::new();
            for whens in req_whens.values() {
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
            (
                quote!(let mut found: usize = 0;),
                Code::if_then(quote!(found != #(#terms)+*), self.fail_silent(f)),
            )
        } else {
            let n = Literal::usize_unsuffixed(req_index.len());
            let checks: Code = required
                .iter()
                .map(|(check, name, when)| {
                    let i = Literal::usize_unsuffixed(req_index[name.as_str()]);
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
        };
        let deferred_code: Code = deferred
            .iter()
            .enumerate()
            .map(|(j, (name, edge, when))| {
                let test = child_test(edge, &Inst::Named(name.to_string()));
                let value = if captured {
                    let j = Literal::usize_unsuffixed(j);
                    quote!(later[#j])
                } else {
                    quote!(__rt::get(obj, #name))
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
        let later_decl = if captured {
            let n = Literal::usize_unsuffixed(deferred.len());
            quote!(let mut later: [Option<&Value>; #n] = [None; #n];)
        } else {
            quote!()
        };
        // `propertyNames` applies its subschema to each key as a string value, made in one
        // buffer for all keys.
        let name_decl = if key_loop.uses().contains(Uses::NAME) {
            quote!(let mut name = Value::String(String::new());)
        } else {
            quote!()
        };
        // Every property is evaluated once `unevaluatedProperties` passed (for a caller
        // that reads the node's set).
        let evaluated_all = if unevaluated.is_some() && self.collects(f.id) {
            Code::stmt(quote!(ev.props.set_range(0, obj.len());)).using(Uses::EV)
        } else {
            Code::default()
        };
        charge
            .then(Code::stmt(quote!(#seen_decl #later_decl #name_decl)))
            .then(key_loop)
            .then(required_check)
            .then(deferred_code)
            .then(evaluated_all)
            .binding()
    }

    /// `required` by a lookup per name (from `REQUIRED_IN_LOOP` names on, the pass over the object finds them).
    pub(super) fn required(&self, a: &ArmCx<'_, '_>, check: &Check, names: &[String]) -> Code {
        let f = a.f;
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
        let (header, body) = match f.mode {
            Mode::Check => (
                quote!(for (i, x) in obj.values().enumerate()),
                Code::if_then(quote!(!ev.props.get(i) && !#call?), self.fail_silent(f)),
            ),
            Mode::Errors => (
                quote!(for (i, (k, x)) in obj.iter().enumerate()),
                Code::stmt(quote!(if !ev.props.get(i) { #call?; })),
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
