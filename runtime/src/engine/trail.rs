//! What a reporting or annotating validation collects and where it is: errors (bounded,
//! counted past the bound), keyword and instance locations, annotations and units, and
//! the explanation of a failed `anyOf` / `oneOf` by its closest branch.

use crate::error::{
    ErrorKind, ErrorList, IncompleteReason, Muted, Position, Report, ValidationError,
};
use crate::limits::{Budget, Limits};
use crate::lookup::{Keys, NameList};
use crate::{json, Annotation, Evaluation, Unit};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

#[cfg(doc)]
use super::{Errors, State};
#[cfg(doc)]
use crate::error::TypeMismatch;

/// The keyword and instance locations to return to after a child's evaluation
/// ([`Trail::at`]).
#[derive(Debug, Clone, Copy)]
pub struct Location {
    keyword: usize,
    instance: usize,
    base: &'static str,
    base_mark: usize,
}

/// Appends `/` and `token` escaped as a JSON pointer token (`~` as `~0`, `/` as `~1`).
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// The last token of the JSON pointer `pointer`, unescaped (`~1` as `/`, `~0` as `~`).
fn last_token(pointer: &str) -> String {
    let token = pointer.rsplit('/').next().unwrap_or_default();
    token.replace("~1", "/").replace("~0", "~")
}

/// What a validation that reports or annotates collects, and where it is: the errors
/// found, the keyword location (evaluation path) and instance location of the node under
/// evaluation, and (`evaluate`) the annotations and units given. Generated code keeps one
/// in its [`Errors`]; an interpreter keeps one beside its own [`State`], and builds none
/// in a short-circuit evaluation.
#[derive(Debug)]
pub struct Trail {
    errors: ErrorList,
    keyword_path: String,
    instance: String,
    /// The absolute location of the node under evaluation is `base` followed by the
    /// keyword path from `base_mark` on ([`Trail::rebase`]): a child reached by a plain
    /// step extends its parent's location, so the error functions of structurally
    /// identical subschemas are one function whatever their locations. (An interpreter
    /// gives each node's location instead: [`Trail::error_of`].)
    base: &'static str,
    base_mark: usize,
    /// The annotations given so far by evaluations that passed or are under way
    /// (`evaluate`); `None` when they are not collected (`validate`).
    annotations: Option<Vec<Annotation>>,
    /// The subschema evaluations that ended so far (`evaluate`; see
    /// [`Evaluation::units`]).
    units: Vec<Unit>,
    /// While a `false` subschema is applied to a property its object does not allow
    /// ([`Trail::refuse`]): the names the object allows, for the error, and whether the
    /// property is one a subschema declares.
    refused: Option<(Cow<'static, str>, bool)>,
    /// The [`ValidationError::level`] of the errors recorded now: how many failed
    /// `anyOf` / `oneOf` they explain ([`Trail::begin_explanation`]).
    level: u32,
    /// While explaining: the most tokens in the instance location of an error recorded
    /// (unmuted) since the branch under evaluation began ([`Trail::begin_branch`]).
    deepest: usize,
}

/// A failed `anyOf` / `oneOf` explaining itself ([`Trail::begin_explanation`]): its
/// candidate subschemas are evaluated again, reporting, one after another, and the errors
/// of the closest are kept (schemac's `plan::explain` states the rule and
/// [`closest_candidates`] which subschemas are candidates).
#[derive(Debug)]
#[must_use]
pub struct Explanation {
    /// The level and the depth to restore.
    level: u32,
    deepest: usize,
    /// Where the annotations and units stood: those of the explanation are dropped (the
    /// subschemas explained failed, and their units are listed by the first evaluation).
    mark: Mark,
    /// Where the candidate under evaluation began, and how many errors had been counted.
    start: Position,
    counted: usize,
    /// The closest candidate so far: where its errors are, how deep the deepest reaches
    /// and how many there are.
    closest: Option<(Position, Position, usize, usize)>,
}

/// The subschemas of a failed `anyOf` / `oneOf` to evaluate again to explain it, in order,
/// from each subschema's `(admitted, typed)`: whether its discriminator admits the
/// instance (`true` without one) and whether it allows the instance's JSON type. Those
/// both admitted and typed; if there are none, those typed; none when no subschema allows
/// the instance's type (the applicator's error says so: [`TypeMismatch`]).
#[inline]
pub fn closest_candidates(branches: impl Iterator<Item = (bool, bool)> + Clone) -> Vec<usize> {
    let pick = |admitted_only: bool| -> Vec<usize> {
        (branches.clone().enumerate())
            .filter(|(_, (admitted, typed))| *typed && (*admitted || !admitted_only))
            .map(|(i, _)| i)
            .collect()
    };
    let admitted = pick(true);
    if admitted.is_empty() {
        pick(false)
    } else {
        admitted
    }
}

/// What [`Trail::refuse`] replaced, for [`Trail::end_refusal`].
#[derive(Debug)]
#[must_use]
pub struct Refusal(Option<(Cow<'static, str>, bool)>);

/// How many annotations and units had been given when a node began
/// ([`Trail::annotation_mark`]).
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    annotations: usize,
    units: usize,
}

/// `parts` joined, then `/` and `keyword` when given: a keyword location, or an absolute
/// one (a node's location in parts, [`Trail::node_location`]).
fn joined(parts: [&str; 2], keyword: Option<&str>) -> String {
    let mut joined =
        String::with_capacity(parts[0].len() + parts[1].len() + keyword.map_or(0, |k| k.len() + 1));
    joined.push_str(parts[0]);
    joined.push_str(parts[1]);
    if let Some(keyword) = keyword {
        joined.push('/');
        joined.push_str(keyword);
    }
    joined
}

/// The absolute location of the node under evaluation, in two parts: `node` when the
/// caller gives it (an interpreter, whose nodes know their locations), else `base` and
/// the keyword path since it (`relative`, see [`Trail::rebase`]).
fn node_location<'s>(node: Option<&'s str>, base: &'s str, relative: &'s str) -> [&'s str; 2] {
    match node {
        Some(node) => [node, ""],
        None => [base, relative],
    }
}

/// One annotating keyword of a node, as generated code lists it:
/// `(keyword as a pointer token, value as JSON text, strings only)`; its absolute
/// location is the node's followed by the token.
pub type OwnAnnotation = (&'static str, &'static str, bool);

impl Trail {
    /// An empty trail that keeps at most `limits.max_errors` errors and collects no
    /// annotations (`validate`).
    pub const fn new(limits: &Limits) -> Trail {
        Trail::with(limits, None)
    }

    /// An empty trail as [`Trail::new`] gives that also collects annotations (`evaluate`).
    pub const fn evaluating(limits: &Limits) -> Trail {
        Trail::with(limits, Some(Vec::new()))
    }

    const fn with(limits: &Limits, annotations: Option<Vec<Annotation>>) -> Trail {
        Trail {
            errors: ErrorList::new(limits.max_errors),
            keyword_path: String::new(),
            instance: String::new(),
            base: "",
            base_mark: 0,
            annotations,
            units: Vec::new(),
            refused: None,
            level: 0,
            deepest: 0,
        }
    }

    /// Whether a failed `anyOf` / `oneOf` explains itself now: its errors are reported
    /// (not muted) and the error list is not full.
    #[inline]
    pub fn explains(&self) -> bool {
        self.errors.builds()
    }

    /// Begins the explanation of the failed `anyOf` / `oneOf` whose error was just
    /// recorded: the errors recorded until [`Trail::end_explanation`] are one level
    /// deeper. Evaluate each candidate between [`Trail::begin_branch`] and
    /// [`Trail::end_branch`].
    pub fn begin_explanation(&mut self) -> Explanation {
        self.level += 1;
        Explanation {
            level: self.level - 1,
            deepest: self.deepest,
            mark: self.annotation_mark(),
            start: self.errors.position(),
            counted: self.errors.count(),
            closest: None,
        }
    }

    /// Begins the evaluation of a candidate subschema of `explanation`.
    pub fn begin_branch(&mut self, explanation: &mut Explanation) {
        explanation.start = self.errors.position();
        explanation.counted = self.errors.count();
        self.deepest = 0;
    }

    /// Ends the evaluation of a candidate: keeps its errors if it is the closest so far —
    /// its deepest error deeper in the instance than the closest's, or as deep with fewer
    /// errors — and drops the other's.
    pub fn end_branch(&mut self, explanation: &mut Explanation) {
        let end = self.errors.position();
        let count = self.errors.count() - explanation.counted;
        let start = explanation.start;
        match explanation.closest {
            Some((_, _, deepest, fewest))
                if self.deepest < deepest || (self.deepest == deepest && count >= fewest) =>
            {
                self.errors.drop_between(start, end);
            }
            Some((from, to, _, _)) => {
                self.errors.drop_between(from, to);
                explanation.closest = Some((from, self.errors.position(), self.deepest, count));
            }
            None => explanation.closest = Some((start, end, self.deepest, count)),
        }
    }

    /// Ends what [`Trail::begin_explanation`] began (also when the evaluation stopped).
    pub fn end_explanation(&mut self, explanation: Explanation) {
        self.level = explanation.level;
        let kept = explanation.closest.map_or(0, |(_, _, deepest, _)| deepest);
        self.deepest = explanation.deepest.max(kept);
        self.drop_annotations(explanation.mark);
    }

    /// Until [`Trail::end_refusal`], a `false` schema's error at the node under evaluation
    /// is [`ErrorKind::PropertyNotAllowed`], naming the last token of the instance location
    /// (the property), with `allowed` (the names the object allows, or empty) and
    /// `declared` (whether a subschema declares the property, which it refuses because
    /// that subschema failed): the `false` subschema of `additionalProperties` /
    /// `unevaluatedProperties` is applied.
    #[inline]
    pub fn refuse(&mut self, allowed: Cow<'static, str>, declared: bool) -> Refusal {
        Refusal(self.refused.replace((allowed, declared)))
    }

    /// Ends what [`Trail::refuse`] began.
    #[inline]
    pub fn end_refusal(&mut self, saved: Refusal) {
        self.refused = saved.0;
    }

    /// Sets the absolute location of the node about to be evaluated (the root, or a
    /// child whose location does not extend its parent's: a `$ref` target). [`Trail::back`]
    /// restores the parent's.
    #[inline]
    pub fn rebase(&mut self, absolute: &'static str) {
        self.base = absolute;
        self.base_mark = self.keyword_path.len();
    }

    /// The absolute location of the node under evaluation ([`node_location`]).
    fn node_location<'s>(&'s self, node: Option<&'s str>) -> [&'s str; 2] {
        node_location(node, self.base, &self.keyword_path[self.base_mark..])
    }

    /// Whether annotations are collected.
    #[inline]
    pub fn annotating(&self) -> bool {
        self.annotations.is_some()
    }

    /// How many annotations and units have been given: the mark a node's
    /// [`Trail::annotate`] drops back to when it fails.
    #[inline]
    pub fn annotation_mark(&self) -> Mark {
        Mark {
            annotations: self.annotations.as_ref().map_or(0, Vec::len),
            units: self.units.len(),
        }
    }

    /// Ends the evaluation of the current node on `v` (when annotating): lists it as a unit
    /// ([`Trail::end_unit_of`]); if it is `valid`, adds its `own` annotations at the
    /// current locations (those marked strings-only only on a string).
    pub fn annotate<'a, I: crate::instance::Instance<'a>>(
        &mut self,
        valid: bool,
        mark: Mark,
        v: I,
        own: &[OwnAnnotation],
    ) {
        if !self.end_unit(None, valid, mark) {
            return;
        }
        for &(token, json, strings_only) in own {
            if strings_only && v.kind() != crate::instance::Kind::String {
                continue;
            }
            let value = serde_json::from_str(json).unwrap_or(serde_json::Value::Null);
            self.give(None, token, value);
        }
    }

    /// Ends the evaluation of the node at absolute location `node` (when annotating): lists
    /// it as a unit; if it failed, drops every annotation given since `mark`, and the units
    /// too when its errors are dropped. Gives whether the node's own annotations are to
    /// be given ([`Trail::annotate_of`]): it is valid, and annotations are collected.
    pub fn end_unit_of(&mut self, node: &str, valid: bool, mark: Mark) -> bool {
        self.end_unit(Some(node), valid, mark)
    }

    /// [`Trail::end_unit_of`] for the node at `node`, the current node when `None`.
    fn end_unit(&mut self, node: Option<&str>, valid: bool, mark: Mark) -> bool {
        if self.annotations.is_none() {
            return false;
        }
        if !valid && self.errors.is_muted() {
            self.units.truncate(mark.units);
        }
        self.units.push(Unit {
            instance_location: self.instance.clone(),
            keyword_location: self.keyword_path.clone(),
            absolute_keyword_location: joined(self.node_location(node), None),
            valid,
        });
        if !valid {
            if let Some(list) = &mut self.annotations {
                list.truncate(mark.annotations);
            }
        }
        valid
    }

    /// Adds the annotation `value` of keyword `token` (a JSON pointer token) of the node at
    /// `node` (the current node when `None`) at the current locations, when annotating.
    fn give(&mut self, node: Option<&str>, token: &str, value: serde_json::Value) {
        let Trail {
            annotations: Some(list),
            keyword_path,
            instance,
            base,
            base_mark,
            ..
        } = self
        else {
            return;
        };
        let absolute = node_location(node, base, &keyword_path[*base_mark..]);
        list.push(Annotation {
            instance_location: instance.clone(),
            keyword_location: joined([keyword_path, ""], Some(token)),
            absolute_keyword_location: joined(absolute, Some(token)),
            value,
        });
    }

    /// Gives the annotation of the applicator keyword `token` at the current locations,
    /// when annotating: what it applied to ([`crate::annotation`]'s applicator values).
    /// Dropped with the rest if its node fails.
    #[cold]
    pub fn annotate_applied(&mut self, token: &str, value: serde_json::Value) {
        self.give(None, token, value);
    }

    /// Gives the annotation `value` of keyword `token` (a JSON pointer token) of the node at
    /// absolute location `node`, at the current locations, when annotating: a node's own
    /// annotation or an applicator's, as an interpreter gives them.
    #[cold]
    pub fn annotate_of(&mut self, node: &str, token: &str, value: serde_json::Value) {
        self.give(Some(node), token, value);
    }

    /// From now on, errors are counted but not kept ([`ErrorList::mute`]), and a node
    /// that fails drops its units ([`Trail::end_unit_of`]): the evaluation of a subschema
    /// whose errors are dropped begins.
    #[inline]
    pub fn mute(&mut self) -> Muted {
        self.errors.mute()
    }

    /// Ends what [`Trail::mute`] began.
    #[inline]
    pub fn unmute(&mut self, muted: Muted) {
        self.errors.unmute(muted);
    }

    /// Drops every annotation given since `mark` ([`Trail::annotation_mark`]): what
    /// `propertyNames`' subschema annotates on a key, which has no instance location.
    #[inline]
    pub fn drop_annotations(&mut self, mark: Mark) {
        if let Some(list) = &mut self.annotations {
            list.truncate(mark.annotations);
        }
        self.units.truncate(mark.units);
    }

    /// The evaluation of an instance that stopped for `stopped` (`None` when it ran to
    /// the end): the errors, annotations and units collected.
    pub fn into_evaluation(self, stopped: Option<IncompleteReason>) -> Evaluation {
        let annotations = self.annotations.unwrap_or_default();
        Evaluation::new(Report::new(self.errors, stopped), annotations).with_units(self.units)
    }

    /// How many errors have been found, those past [`Limits::max_errors`] included (a
    /// node is valid when it added none).
    #[inline]
    pub fn mark(&self) -> usize {
        self.errors.count()
    }

    /// Records an error of keyword `keyword` at the current locations.
    #[cold]
    pub fn error(&mut self, keyword: &str, kind: ErrorKind) {
        self.record(None, Some(keyword), kind);
    }

    /// Records a `false`-schema error located at the current node itself.
    #[cold]
    pub fn error_here(&mut self) {
        self.record(None, None, ErrorKind::FalseSchema);
    }

    /// Records an error of keyword `keyword` (of the node itself when `None`) of the node
    /// at absolute location `node`, at the current locations: as an interpreter records
    /// them.
    #[cold]
    pub fn error_of(&mut self, node: &str, keyword: Option<&str>, kind: ErrorKind) {
        self.record(Some(node), keyword, kind);
    }

    /// Records an error of keyword `keyword` (of the node itself when `None`) of the node
    /// at `node` (the current node when `None`), at the current locations. Its locations
    /// are built only when the error is kept.
    fn record(&mut self, node: Option<&str>, keyword: Option<&str>, kind: ErrorKind) {
        let Trail {
            errors,
            keyword_path,
            instance,
            base,
            base_mark,
            refused,
            level,
            deepest,
            ..
        } = self;
        if *level > 0 && !errors.is_muted() {
            *deepest = (*deepest).max(instance.matches('/').count());
        }
        let absolute = node_location(node, base, &keyword_path[*base_mark..]);
        errors.push_with(|| ValidationError {
            level: *level,
            instance_location: instance.clone(),
            keyword_location: joined([keyword_path, ""], keyword),
            absolute_keyword_location: joined(absolute, keyword),
            kind: match (kind, refused.as_ref()) {
                (ErrorKind::FalseSchema, Some((allowed, declared))) if keyword.is_none() => {
                    ErrorKind::PropertyNotAllowed {
                        property: Cow::Owned(last_token(instance)),
                        allowed: allowed.clone(),
                        declared: *declared,
                    }
                }
                (kind, _) => kind,
            },
        });
    }

    /// Records, by `record`, an error for each of `names` that `object` lacks, in order,
    /// while errors are built ([`ErrorList::builds`]); from the first that would not be,
    /// counts the missing names left at once ([`NameList::present`]: a lookup per key
    /// of the object or per name, whichever are fewer), so that errors past
    /// [`Limits::max_errors`] or in a subschema whose errors are dropped cost no work
    /// each. Every lookup is charged to `budget` ([`json::Meter`]). Gives whether no
    /// name was missing.
    pub fn missing<'n, S: AsRef<str>>(
        &mut self,
        budget: &mut Budget,
        object: &(impl Keys + ?Sized),
        names: NameList<'n, S>,
        mut record: impl FnMut(&mut Trail, &'n S),
    ) -> Result<bool, IncompleteReason> {
        let mut meter = json::Meter::new(budget);
        let mut recorded = 0u64;
        for name in names.in_order() {
            if !self.errors.builds() {
                let total = names.in_order().len() as u64;
                let missing = total - names.present(object, &mut meter)?;
                meter.finish()?;
                self.errors.count_unbuilt(missing - recorded);
                return Ok(missing == 0);
            }
            meter.add(1)?;
            if !object.has_key(name.as_ref()) {
                record(self, name);
                recorded += 1;
            }
        }
        meter.finish()?;
        Ok(recorded == 0)
    }

    /// Extends the keyword location by an edge's `path`; returns the mark for
    /// [`Trail::pop_keyword`].
    #[inline]
    pub fn push_keyword(&mut self, path: &str) -> usize {
        let mark = self.keyword_path.len();
        self.keyword_path.push_str(path);
        mark
    }

    /// Restores the keyword location saved by [`Trail::push_keyword`].
    #[inline]
    pub fn pop_keyword(&mut self, mark: usize) {
        self.keyword_path.truncate(mark);
    }

    /// Moves the keyword location to an in-place child reached through suffix `path`;
    /// give the result to [`Trail::back`] after the child's evaluation.
    #[inline]
    pub fn at(&mut self, path: &str) -> Location {
        Location {
            base: self.base,
            base_mark: self.base_mark,
            keyword: self.push_keyword(path),
            instance: self.instance.len(),
        }
    }

    /// Moves the locations to a child on the value of object entry `key`.
    #[inline]
    pub fn at_key(&mut self, path: &str, key: &str) -> Location {
        Location {
            base: self.base,
            base_mark: self.base_mark,
            keyword: self.push_keyword(path),
            instance: self.push_key(key),
        }
    }

    /// Moves the locations to a child on the value of object entry `key` as a
    /// `properties` entry: the keyword path by `/properties/<key>` (the key escaped), then
    /// `path`.
    #[inline]
    pub fn at_property(&mut self, path: &str, key: &str) -> Location {
        let saved = self.at_key("/properties", key);
        push_token(&mut self.keyword_path, key);
        self.keyword_path.push_str(path);
        saved
    }

    /// Moves the locations to a child on array item `index`.
    #[inline]
    pub fn at_index(&mut self, path: &str, index: usize) -> Location {
        Location {
            base: self.base,
            base_mark: self.base_mark,
            keyword: self.push_keyword(path),
            instance: self.push_index(index),
        }
    }

    /// Restores the locations saved by [`Trail::at`], [`Trail::at_key`] or
    /// [`Trail::at_index`].
    #[inline]
    pub fn back(&mut self, saved: Location) {
        self.pop_instance(saved.instance);
        self.pop_keyword(saved.keyword);
        self.base = saved.base;
        self.base_mark = saved.base_mark;
    }

    /// Extends the instance location by an object key (escaped as a JSON pointer token);
    /// returns the mark for [`Trail::pop_instance`].
    #[inline]
    pub fn push_key(&mut self, key: &str) -> usize {
        let mark = self.instance.len();
        push_token(&mut self.instance, key);
        mark
    }

    /// Extends the instance location by an array index.
    #[inline]
    pub fn push_index(&mut self, index: usize) -> usize {
        use core::fmt::Write;
        let mark = self.instance.len();
        let _ = write!(self.instance, "/{index}");
        mark
    }

    /// Restores the instance location saved by [`Trail::push_key`] / [`Trail::push_index`].
    #[inline]
    pub fn pop_instance(&mut self, mark: usize) {
        self.instance.truncate(mark);
    }

    /// The report of a validation that stopped for `stopped` (`None` when it ran to the
    /// end): the errors collected.
    #[inline]
    pub fn into_report(self, stopped: Option<IncompleteReason>) -> Report {
        Report::new(self.errors, stopped)
    }
}
