//! Generated code's error-collecting state: the [`State`] and the [`Trail`], with the
//! module's tables of child sites and error sites.

use super::{closest_candidates, Done, Mark, OwnAnnotation, Res, State, Stop, Trail};
use crate::error::{ErrorKind, IncompleteReason, Report, TypeSet};
use crate::instance::{Instance, ObjectView};
use crate::limits::Limits;
use crate::lookup::{Keys, NameList};
use crate::Evaluation;
use alloc::borrow::Cow;

/// Where a child subschema is evaluated, relative to its parent ([`Errors::child`]).
#[derive(Debug, Clone, Copy)]
pub enum At<'k> {
    /// On the same instance (an in-place applicator).
    Here,
    /// On the value of object entry `key`.
    Key(&'k str),
    /// On the value of object entry `key` as a `properties` entry: the keyword location
    /// moves by `/properties/<key>` (the key escaped) before the path given.
    Property(&'k str),
    /// On array item `index`.
    Index(usize),
    /// On an object key as a string (`propertyNames`): it has no instance location of
    /// its own, so what the child annotates there is dropped.
    Name,
}

/// Where a child subschema is, as its parent's error-collecting function sees it
/// ([`Errors::child`]): the keyword path from the parent to it (after `/properties/<key>`
/// for [`At::Property`]); its own absolute location when that does not extend its
/// parent's (a `$ref` target's); whether evaluating it is a step into the instance
/// ([`State::step_in`]). Generated code lists a module's sites in one `static` table,
/// which its error-collecting functions name by index.
#[derive(Debug, Clone, Copy)]
pub struct Site(pub &'static str, pub Option<&'static str>, pub bool);

/// An error site of generated code ([`Errors::fail`]): the keyword that fails there and
/// what it asserted (the location is the current one). Generated code lists a module's
/// error sites in one `static` table, which its error-collecting functions name by index.
#[derive(Debug, Clone)]
pub struct Fault(pub &'static str, pub ErrorKind);

/// The state of one validation that collects errors, as generated code's error-collecting
/// functions run on it: the [`State`], the module's site tables, and the [`Trail`].
#[derive(Debug)]
pub struct Errors {
    /// Budget and dynamic scope.
    pub state: State,
    /// The module's child sites and error sites ([`Errors::child`], [`Errors::fail`]).
    sites: &'static [Site],
    faults: &'static [Fault],
    /// The errors, annotations and units, and the locations.
    trail: Trail,
}

impl Errors {
    /// A fresh state under `limits` for a module whose child sites and error sites are
    /// `sites` and `faults`.
    #[inline(always)]
    pub fn new(limits: &Limits, sites: &'static [Site], faults: &'static [Fault]) -> Errors {
        Errors {
            state: State::new(limits),
            sites,
            faults,
            trail: Trail::new(limits),
        }
    }

    /// A fresh state as [`Errors::new`] gives that also collects annotations.
    #[inline(always)]
    pub fn evaluating(limits: &Limits, sites: &'static [Site], faults: &'static [Fault]) -> Errors {
        Errors {
            state: State::new(limits),
            sites,
            faults,
            trail: Trail::evaluating(limits),
        }
    }

    /// Evaluates a subschema whose errors are dropped (`anyOf`, `oneOf`, `not`, `if`,
    /// `contains`), for its annotations: gives whether it was valid (added no error); its
    /// errors are counted for that, then forgotten.
    #[inline]
    pub fn silently(&mut self, eval: impl FnOnce(&mut Errors) -> Done) -> Res {
        let muted = self.trail.mute();
        let result = self.valid(eval);
        self.trail.unmute(muted);
        result
    }

    /// Runs `eval` (an evaluation that collects errors) and gives whether it was valid:
    /// whether it added no error.
    #[inline]
    pub fn valid(&mut self, eval: impl FnOnce(&mut Errors) -> Done) -> Res {
        let start = self.trail.mark();
        eval(self)?;
        Ok(self.trail.mark() == start)
    }

    /// Records the error of error site `fault` (an index into the module's table) at the
    /// current locations.
    #[cold]
    pub fn fail(&mut self, fault: usize) {
        let Fault(keyword, kind) = &self.faults[fault];
        self.trail.error(keyword, kind.clone());
    }

    /// Records the error of a failed `type` check allowing the bits `expected` of a
    /// [`TypeSet`] on `instance` (whose JSON type the error names), at the current
    /// locations.
    #[cold]
    pub fn fail_type<'a, I: Instance<'a>>(&mut self, expected: u8, instance: I) {
        let kind = ErrorKind::Type {
            expected: TypeSet(expected),
            found: TypeSet::of(instance),
        };
        self.trail.error("type", kind);
    }

    /// Runs `eval`, the evaluation of a `false` subschema on a property its object does not
    /// allow ([`Trail::refuse`]); `allowed` lists the names the object allows, where the
    /// plan lists them, and `declared` says whether a subschema declares the property.
    #[inline]
    pub fn refusing(
        &mut self,
        allowed: &'static str,
        declared: bool,
        eval: impl FnOnce(&mut Errors) -> Done,
    ) -> Done {
        let saved = self.trail.refuse(Cow::Borrowed(allowed), declared);
        let result = eval(self);
        self.trail.end_refusal(saved);
        result
    }

    /// Evaluates the child subschema at `site` (an index into the module's table) with
    /// `eval` on `instance` (generated code passes the child's error function itself,
    /// `eN`): steps into the instance first when
    /// the site says so, moves the keyword location by the site's path and the instance
    /// location to `at`, sets the absolute location to the site's own when it has one, and
    /// restores all of it afterwards.
    // Not `inline(always)`: at opt-level 0 every call site would get its own slots for
    // these locals, and error functions with many children frames the stack guard does
    // not count. Optimized builds inline it all the same.
    #[inline]
    pub fn child<'v, I: Instance<'v>>(
        &mut self,
        site: usize,
        at: At<'_>,
        instance: I,
        eval: impl FnOnce(I, &mut Errors) -> Done,
    ) -> Done {
        let Site(path, base, steps) = self.sites[site];
        let step = if steps {
            Some(self.state.step_in()?)
        } else {
            None
        };
        let trail = &mut self.trail;
        let mark = matches!(at, At::Name).then(|| trail.annotation_mark());
        let saved = match at {
            At::Here | At::Name => trail.at(path),
            At::Key(key) => trail.at_key(path, key),
            At::Property(key) => trail.at_property(path, key),
            At::Index(index) => trail.at_index(path, index),
        };
        if let Some(base) = base {
            trail.rebase(base);
        }
        let result = eval(instance, self);
        self.trail.back(saved);
        if let Some(mark) = mark {
            self.trail.drop_annotations(mark);
        }
        if let Some(step) = step {
            self.state.step_out(step);
        }
        result
    }

    /// Evaluates the child at `site` (an index into the module's table) on the value of
    /// `obj`'s property `name`, when it has one, as [`Errors::child`] at [`At::Property`]
    /// does (a property looked up by name rather than met in a pass over the object).
    #[inline]
    pub fn property<'v, I: Instance<'v>>(
        &mut self,
        obj: impl ObjectView<'v, I>,
        name: &str,
        site: usize,
        eval: impl FnOnce(I, &mut Errors) -> Done,
    ) -> Done {
        match obj.get(name) {
            Some(x) => self.child(site, At::Property(name), x, eval),
            None => Ok(()),
        }
    }

    /// [`Trail::rebase`].
    #[inline]
    pub fn rebase(&mut self, absolute: &'static str) {
        self.trail.rebase(absolute);
    }

    /// [`Trail::missing`] (`required` or a `dependentRequired` entry with a [`NameList`]),
    /// each error made by `record` on the trail.
    #[inline(never)]
    pub fn missing(
        &mut self,
        object: &impl Keys,
        names: NameList<'static>,
        record: impl FnMut(&mut Trail, &'static &'static str),
    ) -> Done {
        let trail = &mut self.trail;
        self.state
            .budgeted(|budget| trail.missing(budget, object, names, record))
            .map(|_| ())
    }

    /// [`Trail::mark`].
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.mark()
    }

    /// Explains the failed `anyOf` / `oneOf` on `v` whose error was just recorded, when
    /// errors are reported ([`Trail::explains`]): `branches` gives each subschema's
    /// discriminator verdict and the JSON types it allows, `run` evaluates subschema `i`
    /// reporting; the errors of the closest candidate ([`closest_candidates`]) are kept,
    /// one level deeper ([`Trail::begin_explanation`]).
    #[cold]
    #[inline(never)]
    pub fn explain<'a, I: Instance<'a>>(
        &mut self,
        v: I,
        branches: &[(bool, TypeSet)],
        mut run: impl FnMut(usize, &mut Errors) -> Done,
    ) -> Done {
        if !self.trail.explains() {
            return Ok(());
        }
        let candidates = closest_candidates(
            branches
                .iter()
                .map(|(admitted, types)| (*admitted, types.matches(v))),
        );
        let mut explanation = self.trail.begin_explanation();
        let mut result = Ok(());
        for i in candidates {
            self.trail.begin_branch(&mut explanation);
            result = run(i, self);
            if result.is_err() {
                break;
            }
            self.trail.end_branch(&mut explanation);
        }
        self.trail.end_explanation(explanation);
        result
    }

    /// [`Trail::error`].
    #[cold]
    pub fn error(&mut self, keyword: &str, kind: ErrorKind) {
        self.trail.error(keyword, kind);
    }

    /// [`Trail::error_here`].
    #[cold]
    pub fn error_here(&mut self) {
        self.trail.error_here();
    }

    /// [`Trail::annotating`].
    #[inline]
    pub fn annotating(&self) -> bool {
        self.trail.annotating()
    }

    /// [`Trail::annotation_mark`].
    #[inline]
    pub fn annotation_mark(&self) -> Mark {
        self.trail.annotation_mark()
    }

    /// [`Trail::annotate`].
    pub fn annotate<'a, I: Instance<'a>>(
        &mut self,
        valid: bool,
        mark: Mark,
        v: I,
        own: &[OwnAnnotation],
    ) {
        self.trail.annotate(valid, mark, v, own);
    }

    /// [`Trail::annotate_applied`].
    #[cold]
    pub fn annotate_applied(&mut self, token: &str, value: serde_json::Value) {
        self.trail.annotate_applied(token, value);
    }

    /// The report of a validation whose root returned `result`.
    #[inline]
    pub fn finish(self, result: Done) -> Report {
        let stopped = self.stopped(result);
        let usage = self.state.usage();
        self.trail.into_report(stopped).with_usage(usage)
    }

    /// The evaluation of an instance whose root returned `result`.
    pub fn finish_evaluation(self, result: Done) -> Evaluation {
        let stopped = self.stopped(result);
        let usage = self.state.usage();
        let mut evaluation = self.trail.into_evaluation(stopped);
        evaluation.report.usage = usage;
        evaluation
    }

    /// Why an evaluation whose root returned `result` stopped, if it did.
    fn stopped(&self, result: Done) -> Option<IncompleteReason> {
        result.err().map(|Stop| self.state.reason())
    }
}
