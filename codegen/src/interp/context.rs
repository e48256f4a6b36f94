//! The state of one validation as the interpreter runs it ([`Ctx`]), the instance it
//! evaluates a node against ([`Inst`]), and the charges every keyword makes through it
//! (a loop's elements, a pattern's work).
//!
//! One [`Ctx`] holds a validation's state, in the runtime's types that generated code
//! runs on: its [`State`] (the budget, the dynamic scope when the program uses it, why it
//! stopped) and, only while reporting or annotating, its [`Trail`] (the errors, the
//! instance and keyword locations, the annotations and units); whether errors are
//! reported, and a pool of evaluated-location sets (only used by nodes that collect).

use super::access::text_of;
use super::annotations::Annotations;
use crate::ir::kind::Kind;
use crate::ir::{Node, Program, RegexId};
use crate::plan::lookup::NameList;
use crate::regex::PatternSet;
use schemac_runtime::engine::{push_token, Mark, Res, State, Stop, Trail};
use schemac_runtime::error::{
    ErrorKind, ErrorList, IncompleteReason, Report, TypeMismatch, TypeSet,
};
use schemac_runtime::instance::Instance;
use schemac_runtime::lookup::ObjectKeys;
use schemac_runtime::regex::Candidates;
use schemac_runtime::{json, Evaluation, Limits, Usage};
use serde_json::{Number, Value};
use std::borrow::Cow;

/// The state of one validation.
pub(super) struct Ctx {
    /// The budget, the dynamic scope and why the evaluation stopped, as generated code
    /// keeps them.
    pub(super) state: State,
    /// What validate and evaluate mode collect, as generated code's `validate` collects
    /// it; `None` in short-circuit mode (`check`), which then neither builds nor drops
    /// any of it. The interpreter gives the absolute location of each error, annotation
    /// and unit (its nodes know theirs, [`Node::uri`]): it never rebases.
    pub(super) trail: Option<Box<Trail>>,
    /// What few validations need ([`Spare`]), made when first needed: a validation that
    /// needs none of it builds and drops one pointer.
    pub(super) spare: Option<Box<Spare>>,
    /// Whether errors are collected (validate mode, and not inside a dropped subtree,
    /// where the error list is muted too).
    pub(super) report: bool,
    /// Whether annotations are collected ([`Trail::annotating`], read on hot paths:
    /// evaluate mode, dropped subtrees included, where a valid branch of `anyOf`
    /// annotates).
    pub(super) annotate: bool,
}

/// Drops the boxed parts of a [`Ctx`] ([`Ctx::release`]), out of the hot path.
#[cold]
#[inline(never)]
fn drop_boxed(trail: Option<Box<Trail>>, spare: Option<Box<Spare>>) {
    drop((trail, spare));
}

/// The parts of a validation's [`Ctx`] that few validations use.
#[derive(Default)]
pub(super) struct Spare {
    /// The URI of the unresolved reference the evaluation stopped at: the program's, not
    /// `'static` as the [`State`] keeps it for generated code.
    unresolved: Option<String>,
    /// The annotation of the applicator check under evaluation when the check itself
    /// finds it (`contains`, `unevaluated*`; annotating only). A field, not a local of
    /// the check loop: a `Value` there would be dropped on every check of every node.
    applied: Option<Value>,
    /// Evaluated-location sets given back, for reuse.
    pool: Vec<Annotations>,
}

impl Ctx {
    /// A short-circuit validation (`check`): no errors, annotations or locations.
    pub(super) fn checking(limits: &Limits) -> Ctx {
        Ctx {
            state: State::new(limits),
            trail: None,
            spare: None,
            report: false,
            annotate: false,
        }
    }

    /// A validation in validate mode, which keeps at most `max_errors` errors (and counts
    /// the rest).
    pub(super) fn reporting(limits: &Limits) -> Ctx {
        Ctx::collecting(limits, Trail::new(limits))
    }

    /// A validation in evaluate mode: validate mode collecting annotations too.
    pub(super) fn annotating(limits: &Limits) -> Ctx {
        Ctx::collecting(limits, Trail::evaluating(limits))
    }

    /// A validation that reports its errors (and annotations, when `trail` collects them)
    /// into `trail`.
    pub(super) fn collecting(limits: &Limits, trail: Trail) -> Ctx {
        Ctx {
            report: true,
            annotate: trail.annotating(),
            trail: Some(Box::new(trail)),
            ..Ctx::checking(limits)
        }
    }

    /// The trail, while the locations are maintained (reporting or annotating).
    #[inline]
    pub(super) fn located(&mut self) -> Option<&mut Trail> {
        if self.locates() {
            self.trail.as_deref_mut()
        } else {
            None
        }
    }

    /// Where a node's annotations and units begin ([`Trail::annotation_mark`]), when
    /// annotating.
    pub(super) fn annotation_mark(&self) -> Option<Mark> {
        match &self.trail {
            Some(trail) if self.annotate => Some(trail.annotation_mark()),
            _ => None,
        }
    }

    /// Whether the instance and keyword locations are maintained.
    pub(super) fn locates(&self) -> bool {
        self.report || self.annotate
    }

    /// Ends the evaluation of `node` on `inst` (annotating), which was `valid`, begun at
    /// `mark`: lists it as a unit and gives its annotations ([`Trail::end_unit_of`]).
    /// Not a node on a key (`propertyNames`), which has no instance location (nor has any
    /// node it applies in place), nor a node without keywords, which generated code does
    /// not evaluate (and which gives nothing).
    pub(super) fn end_unit<'a, I: Instance<'a>>(
        &mut self,
        node: &Node,
        inst: Inst<'_, I>,
        valid: bool,
        mark: Mark,
    ) {
        let Inst::Value(value) = inst else {
            return;
        };
        if node.checks.is_empty() && node.annotations.is_empty() {
            return;
        }
        let Some(trail) = self.trail.as_deref_mut() else {
            return;
        };
        if !trail.end_unit_of(&node.uri, valid, mark) {
            return;
        }
        for annotation in &node.annotations {
            if annotation.strings_only && value.as_str().is_none() {
                continue;
            }
            self.annotate(node, &annotation.keyword, annotation.value.clone());
        }
    }

    /// Adds the annotation `value` of `node`'s keyword `keyword` at the current locations.
    #[cold]
    pub(super) fn annotate(&mut self, node: &Node, keyword: &str, value: Value) {
        let mut token = String::new();
        push_token(&mut token, keyword);
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.annotate_of(&node.uri, &token[1..], value);
        }
    }

    /// Why the evaluation stopped (once it returned `Err(Stop)`).
    pub(super) fn take_stop_reason(&mut self) -> IncompleteReason {
        match self
            .spare
            .as_mut()
            .and_then(|spare| spare.unresolved.take())
        {
            Some(uri) => IncompleteReason::UnresolvedRef(Cow::Owned(uri)),
            None => self.state.reason(),
        }
    }

    /// Ends a short-circuit validation: what it made is dropped — inline, and only the
    /// state's scope when nothing was boxed (the usual `check`, which then pays two tests
    /// instead of a call to `Ctx`'s general drop).
    #[inline(always)]
    pub(super) fn release(self) {
        let Ctx {
            state,
            trail,
            spare,
            ..
        } = self;
        drop(state);
        if trail.is_some() || spare.is_some() {
            drop_boxed(trail, spare);
        }
    }

    /// The evaluation whose root returned `outcome`: the errors reported (and, when it
    /// stopped, why), the annotations and units collected.
    pub(super) fn finish(mut self, outcome: Res) -> Evaluation {
        let stopped = outcome.is_err().then(|| self.take_stop_reason());
        let usage = self.usage();
        let mut evaluation = match self.trail {
            Some(trail) => trail.into_evaluation(stopped),
            None => Evaluation::new(Report::new(ErrorList::default(), stopped), Vec::new()),
        };
        evaluation.report.usage = usage;
        evaluation
    }

    /// What the validation spent so far ([`State::usage`]).
    pub(super) fn usage(&self) -> Usage {
        self.state.usage()
    }

    /// The spare parts, made now if they were not.
    pub(super) fn spare(&mut self) -> &mut Spare {
        self.spare.get_or_insert_with(Box::default)
    }

    /// Sets the annotation of the applicator check under evaluation ([`Spare::applied`]).
    pub(super) fn set_applied(&mut self, found: Option<Value>) {
        match (found, &mut self.spare) {
            (None, None) => {}
            (None, Some(spare)) => spare.applied = None,
            (Some(found), _) => self.spare().applied = Some(found),
        }
    }

    /// Takes the annotation of the applicator check just evaluated ([`Spare::applied`]).
    pub(super) fn take_applied(&mut self) -> Option<Value> {
        self.spare.as_mut().and_then(|spare| spare.applied.take())
    }

    /// Stops the evaluation at a reference to a document that was not available.
    #[cold]
    pub(super) fn unresolved(&mut self, uri: &str) -> Res {
        self.spare().unresolved = Some(uri.to_owned());
        Err(Stop)
    }

    /// Whether `regex` matches anywhere in `text`, its work charged to the budget
    /// ([`schemac_runtime::regex::Regex::is_match_budgeted`]): the fast path here, the
    /// automata out of line, so that a pattern its fast path decides costs a small frame.
    #[inline]
    pub(super) fn is_match(&mut self, regex: &crate::regex::CompiledRegex, text: &str) -> Res {
        let Some(answer) = regex.fast_view().and_then(|fast| fast.decide(text)) else {
            return self.is_match_automaton(regex, text);
        };
        // Charged as `FastPath::decide_budgeted` charges (this way the charge's `Result`
        // is not carried through an `Option`: 1% of w4's instructions).
        self.state
            .spend_units(schemac_runtime::regex::units(text.len() as u64))?;
        Ok(answer)
    }

    /// [`Ctx::is_match`] past the fast path: the DFA or the Pike VM, as
    /// [`schemac_runtime::regex::Regex::is_match_budgeted`] runs them (only the view of
    /// the one that runs is built).
    #[inline(never)]
    pub(super) fn is_match_automaton(
        &mut self,
        regex: &crate::regex::CompiledRegex,
        text: &str,
    ) -> Res {
        self.state.budgeted(|budget| match regex.dfa_view() {
            Some(dfa) => dfa.is_match_budgeted(text, budget),
            None => regex.program_view().is_match_budgeted(text, budget),
        })
    }

    /// The indices of the patterns of a list that its prefilter leaves for `key` (the
    /// lookup charged to the budget), ascending.
    pub(super) fn candidates<'p>(
        &mut self,
        set: &'p PatternSet,
        key: &str,
    ) -> Result<Candidates<'p>, Stop> {
        self.state.budgeted(|budget| set.candidates(key, budget))
    }

    pub(super) fn take_annotations(&mut self) -> Annotations {
        (self.spare.as_mut())
            .and_then(|spare| spare.pool.pop())
            .unwrap_or_default()
    }

    pub(super) fn give_annotations(&mut self, mut annotations: Annotations) {
        annotations.clear();
        self.spare().pool.push(annotations);
    }

    /// The names of `list` that `object` lacks, reported by `record` ([`Trail::missing`]):
    /// whether none is. Only while reporting.
    #[cold]
    pub(super) fn missing<'a, I: Instance<'a>>(
        &mut self,
        object: I,
        list: &NameList,
        record: impl FnMut(&mut Trail, &String),
    ) -> Res {
        let Some(trail) = self.trail.as_deref_mut() else {
            return Ok(true);
        };
        let keys = ObjectKeys(object);
        self.state
            .budgeted(|budget| trail.missing(budget, &keys, list.as_runtime(), record))
    }

    /// Reports an error of `node`'s check `keyword` (a node-level error when `keyword`
    /// is empty) at the current locations, when reporting.
    pub(super) fn error(&mut self, node: &Node, keyword: &str, kind: ErrorKind) {
        if let (true, Some(trail)) = (self.report, self.trail.as_deref_mut()) {
            let keyword = Some(keyword).filter(|k| !k.is_empty());
            trail.error_of(&node.uri, keyword, kind);
        }
    }
}

/// The instance a node is evaluated against: a JSON value (an [`Instance`]: a `&Value`, a
/// document node), or an object key (`propertyNames`), which behaves as a string and is
/// never allocated as one (a `&Value`'s map's own `String`, or a document's text). The key
/// is held by a reference to its `&str`, so that for a `&Value` an instance is a tag and
/// one pointer, passed in two registers: a `&str` held directly gives the enum a niche
/// layout that is passed through memory on every call (callgrind: 8% more instructions
/// on w2_tree).
#[derive(Clone, Copy)]
pub(super) enum Inst<'k, I> {
    Value(I),
    Key(&'k &'k str),
}

impl<'a, I: Instance<'a>> Inst<'_, I> {
    /// `f` of the string, if the instance is one (a key is), unescaped.
    #[inline(always)]
    pub(super) fn with_str<R>(self, f: impl FnOnce(&str) -> R) -> Option<R> {
        match self {
            Inst::Value(v) => {
                let s = v.as_str()?;
                let owned;
                Some(f(text_of!(s, owned)))
            }
            Inst::Key(k) => Some(f(k)),
        }
    }

    /// The instance's JSON type, for a message ([`TypeSet::of`]; a key is a string).
    pub(super) fn json_type(self) -> TypeSet {
        match self {
            Inst::Value(v) => TypeSet::of(v),
            Inst::Key(_) => TypeSet::STRING,
        }
    }

    /// The mismatch of the instance's JSON type with the types `expected`, or `None` when
    /// one of them is its type ([`TypeMismatch::of`]; a key is a string).
    pub(super) fn mismatch(self, expected: TypeSet) -> Option<TypeMismatch> {
        (!self.has_type(expected)).then(|| TypeMismatch {
            expected,
            found: self.json_type(),
        })
    }

    /// The instance's kind (a key is a string).
    #[inline(always)]
    pub(super) fn kind(self) -> Kind {
        match self {
            Inst::Value(v) => Kind::of(v),
            Inst::Key(_) => Kind::String,
        }
    }

    /// Whether the instance has one of `types` (a key is a string).
    #[inline(always)]
    pub(super) fn has_type(self, types: TypeSet) -> bool {
        match self {
            Inst::Value(v) => has_type(types, v),
            Inst::Key(_) => types.contains(TypeSet::STRING),
        }
    }

    /// The number, if the instance is one.
    #[inline(always)]
    pub(super) fn as_number(self) -> Option<Number> {
        match self {
            Inst::Value(v) => v.as_number(),
            Inst::Key(_) => None,
        }
    }

    /// Whether the instance is a number written with neither a fraction nor an exponent
    /// (`-0`); `false` for anything else, and for any `&Value`, which does not keep the
    /// number's text ([`Instance::number_text`]).
    pub(super) fn written_integral(self) -> bool {
        match self {
            Inst::Value(v) => v.written_integral(),
            Inst::Key(_) => false,
        }
    }

    /// The instance, if it is an array.
    #[inline(always)]
    pub(super) fn as_array(self) -> Option<I> {
        match self {
            Inst::Value(v) if Kind::of(v) == Kind::Array => Some(v),
            _ => None,
        }
    }

    /// The instance, if it is an object.
    #[inline(always)]
    pub(super) fn as_object(self) -> Option<I> {
        match self {
            Inst::Value(v) if Kind::of(v) == Kind::Object => Some(v),
            _ => None,
        }
    }

    /// JSON equality with `other`; strings (the usual `const` / `enum` case) compared
    /// directly.
    #[inline]
    pub(super) fn equals(self, other: &Value) -> bool {
        match (self, other) {
            (Inst::Value(v), Value::String(t)) => v.as_str().is_some_and(|s| s.eq_str(t)),
            (Inst::Value(v), _) => Kind::of(v) != Kind::String && json::equal(v, other),
            (Inst::Key(k), Value::String(t)) => *k == t,
            (Inst::Key(_), _) => false,
        }
    }

    /// Whether the instance equals one of `values` ([`Inst::equals`]).
    pub(super) fn equals_any(self, values: &[Value]) -> bool {
        values.iter().any(|v| self.equals(v))
    }
}

/// Runs `f` with errors dropped (short-circuit mode; the trail muted, as generated code's
/// `Errors::silently` mutes it, so that what fails there drops its units).
#[inline]
pub(super) fn silently(cx: &mut Ctx, f: impl FnOnce(&mut Ctx) -> Res) -> Res {
    let muted = match cx.trail.as_deref_mut() {
        Some(trail) if cx.report => trail.mute(),
        _ => return f(cx),
    };
    cx.report = false;
    let result = f(cx);
    cx.report = true;
    if let Some(trail) = cx.trail.as_deref_mut() {
        trail.unmute(muted);
    }
    result
}

/// Whether the pattern `id` of `program` matches `key`, its work charged to the budget,
/// and then `loop_cost()` (the loop cost of the schema it applies there, read only on a
/// match): whether `patternProperties` applies its schema at `key`.
#[inline(always)]
pub(super) fn pattern_applies(
    cx: &mut Ctx,
    program: &Program,
    (id, loop_cost): (RegexId, impl FnOnce() -> u64),
    key: &str,
) -> Res {
    if !pattern_matches(cx, program, id, key)? {
        return Ok(false);
    }
    charge_elements(cx, 1, loop_cost())?;
    Ok(true)
}

/// Whether the pattern `id` of `program` matches `key` (an ignored pattern matches
/// nothing), its work charged to the budget.
#[inline(always)]
pub(super) fn pattern_matches(cx: &mut Ctx, program: &Program, id: RegexId, key: &str) -> Res {
    match program.regexes.get(id.0).and_then(|e| e.compiled.as_ref()) {
        Some(regex) => cx.is_match(regex, key),
        None => Ok(false),
    }
}

/// Charges a loop of `elements` elements costing `per_element` each (nothing when free).
#[inline(always)]
pub(super) fn charge_elements(cx: &mut Ctx, elements: usize, per_element: u64) -> Result<(), Stop> {
    if per_element == 0 {
        return Ok(());
    }
    cx.state.spend(elements, per_element)
}

/// The items of an array instance from index `skip` on (for a `&Value`, a slice iterator
/// advanced once).
#[inline(always)]
pub(super) fn items_from<'a, I: Instance<'a>>(array: I, skip: usize) -> I::Items {
    let mut items = array.items();
    if skip > 0 {
        items.nth(skip - 1);
    }
    items
}

/// Whether `value` has one of `types` ([`TypeSet::matches`]): the kind's bit tested
/// inline, and `integer` for a number that `types` does not take as a number (the
/// runtime asked only for one not held as an integer).
#[inline(always)]
pub(super) fn has_type<'a, I: Instance<'a>>(types: TypeSet, value: I) -> bool {
    let integer = |n: Number| n.is_i64() || n.is_u64() || json::is_integer(&n);
    types.0 & Kind::of(value).type_bit().0 != 0
        || (types.contains(TypeSet::INTEGER) && value.as_number().is_some_and(integer))
}
