//! The interpreter backend: evaluates an IR [`Program`] directly, following the
//! evaluation semantics documented in [`crate::ir`] exactly (the Rust backend implements
//! the same rules; a differential test compares the two).
//!
//! Takes a [`Program`] (lowered and analysed by [`crate::check`]) and gives a validator
//! implementing [`schemac_runtime::Validate`]:
//!
//! - [`Validate::check`] short-circuits and returns a [`Verdict`]. It allocates nothing on
//!   the success path unless a node collects evaluated locations (`unevaluated*`) or the
//!   program uses the dynamic scope (`$dynamicRef`): the runtime's `State`, which
//!   generated code runs on too, lives on the stack and locations are never built.
//! - [`Validate::validate`] runs every check and returns a [`Report`] with every error,
//!   located by instance location, keyword location and absolute keyword location.
//!
//! Every evaluation function is generic over the instance it reads
//! ([`schemac_runtime::instance::Instance`], monomorphized): a `&Value` ([`Validate::check`]
//! and the rest), or a node of a [`Document`] read from bytes ([`Validate::check_json`],
//! [`Validate::validate_json`], [`Validate::check_json_with_usage`],
//! [`Evaluate::evaluate_json`]), validated in place under the budget grown with the input
//! ([`Limits::for_input`]). Both give the same verdicts, errors and units, apart from
//! draft-04's `-0`, an integer only from bytes (a `Value` holds it as `-0.0`), and from the
//! order of keys: a document's objects are read in document order.
//!
//! Every out-of-line node evaluation goes through [`Budget::enter_region`] and every
//! evaluation of a child instance that may recur through [`Budget::step_in`] (see
//! [`crate::plan`]), which bound the work ([`Limits::budget`]), the instance depth
//! ([`Limits::max_depth`]), nesting without progress into the instance
//! ([`Limits::max_in_place`]) and nesting in all ([`Limits::max_nesting`]). The
//! interpreter recurses once per nested node evaluation, and inline nodes nest only a
//! bounded number of levels between two out-of-line ones, so `max_nesting` is also its
//! stack bound: the defaults fit a 2 MiB thread stack (tested); raise `max_nesting` only
//! with a stack to match. When no evaluation can reach a depth bound
//! ([`crate::plan::Plan::depth_free`], under limits no lower than the program's), an
//! out-of-line node only charges the budget and no evaluation is a step, as in generated
//! code.
//!
//! The files, as `emit/node/` is laid out: `context.rs` (a validation's state, the
//! instance, the charges), `apply.rs` (entering a node, running its checks and its
//! short-circuit steps, applying subschemas), the keyword families `assertions.rs`,
//! `object.rs`, `array.rs` and `applicators.rs` (each keyword's collecting and
//! short-circuit forms side by side), `annotations.rs` (evaluated-location sets),
//! `index.rs` (run-time name indexes) and `plan/` (the interpreter's own plan of each
//! node: `mod.rs`, `steps.rs`, `object.rs`).
//!
//! Before evaluation the interpreter plans each node once (`plan/`), beside the shared
//! plan's decisions it copies per node: the object applicators `properties`,
//! `patternProperties` and `additionalProperties` of a node are fused into one pass over
//! the instance's properties (run where the first of them stands), each pattern tested
//! once per key; an instance key is found among the `properties` names by its length and
//! its first and last eight bytes (a scan for a few names, a hash bucket for many), and so
//! are the names of a `required` (up to 64), in one pass over a small object; large
//! `enum`s get the member tables and long pattern lists the prefilters that
//! [`crate::plan::lookup`] decides, as in generated code. Each node's plan also copies the
//! shared plan's region decisions (out of line, entry cost, loop cost, steps), so that a
//! node evaluation reads one record. In short-circuit mode an inline node without checks
//! is not evaluated, one whose only check is `type` is a type test, an `items` or
//! `prefixItems` over such schemas tests the items without applying them, a node whose
//! checks evaluate no node (`type`, `minItems`, `maxItems`, `required`, `minLength`,
//! `maxLength`, `const`, an `enum` without member tables, the numeric bounds, such an
//! `items` or `prefixItems`) runs them from a list planned with their data (as an `items`
//! loop over it does, for every item in one call, running an inner `items` decided at
//! once on each array item without the list's dispatch), and any other node that collects
//! nothing (in a program without a dynamic scope) runs a list of steps planned from its
//! checks, without the error, annotation and location work of `validate`: those checks
//! with their data, each `$ref` and `allOf` member as an application of its target (none
//! for an always valid one), `items` and `prefixItems` by their targets, the object
//! applicators as one pass (the step holds copies of the names, index, patterns and
//! prefilters it reads, and, with `patternProperties` beside `properties`, what the
//! patterns do at each name: the patterns that match it and the units their tests
//! charge, so that a key found among the names runs no pattern; a `required` whose names are all `properties` names, before such
//! a pass without `patternProperties` with only steps that read the object between them,
//! is folded into it: on an object of at most 16 keys one lookup of each key finds both
//! the names present and the entry the pass applies), `anyOf`, `oneOf`, `not` and `if` as
//! applications of their targets, a check that reads only the instance directly, and
//! every other check through the general evaluation. Steps are split by the instance's
//! kind, and where a node applies an inline node in place (which short-circuit evaluation
//! neither enters nor charges) the target's steps for that kind stand in its place (up to
//! 64 steps a lane), ending the lane where the target's fails; an inline target whose
//! steps for the kind are none is decided there (valid, or not where its lane fails):
//! such an `anyOf` / `oneOf` branch is left out when invalid (one branch left is applied
//! in place, none fails), an `anyOf` ends at a valid one, and a `not` or an `if`
//! condition so decided resolves at once; a node left with only checks that evaluate no
//! node runs them as above. `check` enters the usual root (out of line, counting no
//! depth) itself: its entry cost charged, then its steps.
//!
//! Nodes that collect evaluated properties for an `unevaluatedProperties` record them by
//! position in `validate`; short-circuit evaluation records by name (ids in one table
//! of the program's `properties` names) what `properties` evaluates: a node whose
//! evaluated properties are its `properties` names and those of its `$ref` and `allOf`
//! targets of the same kind runs as a quick node and records those names when valid
//! (looking its names up in the object when its only step is a `properties` over
//! schemas that charge nothing, as an `if {properties: {kind: {const: ...}}}` is), and
//! `unevaluatedProperties` looks each key's name up. There a node records straight into
//! the set it is given (its failure fails the node that gave it; the subschemas whose
//! failure does not, the `if` condition and the `anyOf` / `oneOf` branches, get a set
//! of their own unless they record only when valid), and an inline `$ref` / `allOf` target that would only be entered to
//! run its checks on that set has them run in its parent's loop instead.
//!
//! # Where evaluation stops early
//!
//! These choices change how much budget a validation spends (never a verdict or an error
//! under a budget that suffices); the Rust backend should make the same ones so that the
//! two also agree when the budget runs out:
//!
//! - subschemas whose errors are dropped (`anyOf`, `oneOf`, `not`, `contains`, the `if`
//!   condition) are evaluated in short-circuit mode, in `validate` too;
//! - `anyOf` stops at the first valid branch unless the node collects locations;
//!   `oneOf` stops at the second valid branch in short-circuit mode (in `validate` it
//!   evaluates every branch, for the error's `matched` count and the annotations);
//! - `contains` stops once the count decides (`minContains` reached without a
//!   `maxContains`, or `maxContains` exceeded) unless the node collects evaluated items;
//! - `properties` alone (no `patternProperties` / `additionalProperties`, no collection)
//!   iterates the instance's keys as generated code does, but looks its names up in the
//!   instance instead when the instance has more than four keys per name
//!   ([`crate::plan::thresholds::KEYS_PER_NAME`]); a deferred
//!   entry runs with the value the pass found when it is the only one, several are looked
//!   up by name.

mod access;
mod annotations;
mod applicators;
mod apply;
mod array;
mod assertions;
mod context;
mod defaults;
mod index;
mod object;
mod plan;
#[cfg(test)]
mod tests;

use crate::ir::Program;
use schemac_runtime::document::{compact, Document, SyntaxError};
use schemac_runtime::engine::Stop;
use schemac_runtime::instance::Instance;
#[cfg(doc)]
use schemac_runtime::Budget;
use schemac_runtime::{Evaluate, Evaluation, Limits, Report, Usage, Validate, Verdict};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// A custom format check supplied with [`Interpreter::with_format`].
type FormatCheck = Box<dyn Fn(&str) -> bool + Send + Sync + 'static>;

/// A custom keyword's check for one occurrence, made by its factory from the keyword's
/// value ([`Interpreter::with_keyword`]): given the instance, `Ok`, or a message saying
/// what to change (it becomes the error's message).
pub type KeywordCheck = Box<dyn Fn(&Value) -> Result<(), String> + Send + Sync + 'static>;

/// A validator that interprets a compiled [`Program`].
///
/// ```
/// use schemac::interp::Interpreter;
/// use schemac::ir::{Check, CheckKind, Collect, Node, Program, Resource, NodeId, ResourceId};
/// use schemac_runtime::{error::TypeSet, Limits, Validate};
///
/// let program = Program {
///     nodes: vec![Node {
///         uri: "https://example.com/s.json#".into(),
///         resource: ResourceId(0),
///         is_resource_root: true,
///         checks: vec![Check {
///             keyword: "type".into(),
///             kind: CheckKind::Type(TypeSet::STRING),
///             annotates: false,
///         }],
///         collect: Collect::default(),
///         annotations: vec![],
///         default: None,
///     }],
///     regexes: vec![],
///     resources: vec![Resource { uri: "https://example.com/s.json".into(), dynamic_anchors: Default::default() }],
///     root: NodeId(0),
///     limits: Limits::default(),
///     uses_dynamic_scope: false,
///     warnings: vec![],
///     defaults: None,
/// };
/// let validator = Interpreter::new(program);
/// assert!(validator.is_valid(&serde_json::json!("text")));
/// let report = validator.validate(&serde_json::json!(3));
/// assert_eq!(report.errors[0].keyword_location, "/type");
/// ```
pub struct Interpreter {
    /// The program as planned: what both backends follow: order, budget charge points, deferred properties.
    shared: crate::plan::Plan,
    plans: Vec<plan::NodePlan>,
    limits: Limits,
    formats: BTreeMap<String, FormatCheck>,
    /// The check of each custom keyword occurrence, by [`crate::ir::CustomKeyword::id`]
    /// (`None`: no factory was given for its keyword; the check fails, saying so).
    keywords: Vec<Option<KeywordCheck>>,
}

impl Interpreter {
    /// An interpreter for `program`, under the program's limits.
    ///
    /// The program must have been analysed ([`crate::ir::analyse::analyse`], which the
    /// compiler runs): the `collect` flags decide where evaluated locations are tracked.
    pub fn new(program: Program) -> Interpreter {
        let shared = crate::plan::Plan::new(program);
        let plans = plan::plan(&shared);
        let limits = shared.program.limits;
        Interpreter {
            shared,
            plans,
            limits,
            formats: BTreeMap::new(),
            keywords: Vec::new(),
        }
    }

    /// The same interpreter under other run-time limits (default: the program's
    /// [`Program::limits`]). Depth is not counted when no evaluation can reach the depth
    /// bounds ([`crate::plan::Plan::depth_free`] under the program's limits, and these are
    /// no lower).
    pub fn with_limits(mut self, limits: Limits) -> Interpreter {
        let planned = &self.shared.program.limits;
        let free = self.shared.depth_free
            && limits.max_nesting >= planned.max_nesting
            && limits.max_depth >= planned.max_depth;
        plan::count_depth(&mut self.plans, &self.shared, free);
        self.limits = limits;
        self
    }

    /// Adds a custom format check. An asserted `format` looks the name up here first, then
    /// in [`schemac_runtime::format::lookup`]; a name neither knows passes. Replaces an
    /// earlier check of the same name.
    pub fn with_format(
        mut self,
        name: &str,
        check: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Interpreter {
        self.formats.insert(name.to_string(), Box::new(check));
        self
    }

    /// Gives the custom keyword `name` ([`crate::Options::custom_keywords`]) its checks:
    /// `factory` makes one from each occurrence's value, once, here; its `Err` (the value
    /// is not one the keyword takes) is an `InvalidKeyword` error at the keyword, every
    /// such error returned together. A custom keyword given no factory fails every
    /// instance, with a message saying so. Each check is called once per evaluation of
    /// its subschema (charged to the budget: [`crate::plan`]), and again to word its error
    /// when it fails in `validate`.
    pub fn with_keyword(
        mut self,
        name: &str,
        factory: impl Fn(&Value) -> Result<KeywordCheck, String>,
    ) -> Result<Interpreter, Vec<crate::error::CompileError>> {
        let errors = self.bind_keyword(name, factory);
        if errors.is_empty() {
            Ok(self)
        } else {
            Err(errors)
        }
    }

    /// [`Interpreter::with_keyword`] in place: the errors of the occurrences `factory`
    /// refused (the others are bound).
    pub(crate) fn bind_keyword(
        &mut self,
        name: &str,
        factory: impl Fn(&Value) -> Result<KeywordCheck, String>,
    ) -> Vec<crate::error::CompileError> {
        let mut errors = Vec::new();
        for node in &self.shared.program.nodes {
            for check in &node.checks {
                let crate::ir::CheckKind::Custom(custom) = &check.kind else {
                    continue;
                };
                if check.keyword != name {
                    continue;
                }
                match factory(&custom.value) {
                    Ok(made) => {
                        if self.keywords.len() <= custom.id {
                            self.keywords.resize_with(custom.id + 1, || None);
                        }
                        self.keywords[custom.id] = Some(made);
                    }
                    Err(why) => errors.push(crate::error::CompileError::new(
                        crate::error::CompileErrorKind::InvalidKeyword,
                        custom.location.clone(),
                        format!("custom keyword `{name}`: {why}"),
                    )),
                }
            }
        }
        errors
    }

    /// Inserts into `instance` the `default` of every missing property whose subschema
    /// applies for certain (the rule: [`crate::ir::defaults`]), going as deep as
    /// validation may ([`Limits::max_depth`]); `false` when it stopped there. The program
    /// must be compiled with [`crate::Options::defaults`], else nothing is inserted. Meant
    /// for an instance already validated: it does not validate, and a default is inserted
    /// as the schema gives it.
    ///
    /// ```
    /// let schema = serde_json::json!({
    ///     "properties": {"units": {"enum": ["metric", "imperial"], "default": "metric"}}
    /// });
    /// let validator = schemac::options().defaults(true).build(&schema).unwrap();
    /// let mut call = serde_json::json!({"city": "Oslo"});
    /// assert!(validator.apply_defaults(&mut call));
    /// assert_eq!(call, serde_json::json!({"city": "Oslo", "units": "metric"}));
    /// ```
    pub fn apply_defaults(&self, instance: &mut Value) -> bool {
        let program = &self.shared.program;
        match program.defaults.as_ref() {
            Some(planned) => match planned.root() {
                Some(root) => {
                    defaults::apply(program, planned, root, instance, 0, self.limits.max_depth)
                }
                None => true,
            },
            None => true,
        }
    }

    /// The program interpreted.
    pub fn program(&self) -> &Program {
        &self.shared.program
    }

    /// The limits validations run under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

impl fmt::Debug for Interpreter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interpreter")
            .field("nodes", &self.shared.program.nodes.len())
            .field("limits", &self.limits)
            .field("custom_formats", &self.formats.keys().collect::<Vec<_>>())
            .field("custom_keywords", &self.keywords.len())
            .finish()
    }
}

impl Validate for Interpreter {
    fn check(&self, instance: &Value) -> Verdict {
        self.check_with(&self.limits, instance, |_| ()).0
    }

    fn validate(&self, instance: &Value) -> Report {
        self.validate_instance(instance, &self.limits)
    }

    fn check_with_usage(&self, instance: &Value) -> (Verdict, Usage) {
        self.check_with(&self.limits, instance, context::Ctx::usage)
    }

    /// Reads `input` into a [`Document`] and checks its root in place, under the budget
    /// grown with the input ([`Limits::for_input`]).
    fn check_json(&self, input: &[u8]) -> Result<Verdict, SyntaxError> {
        Document::read_then(input, &self.limits, |root, limits| {
            self.check_with(limits, root, |_| ()).0
        })
    }

    /// Reads `input` into a [`Document`] and validates its root in place, under the budget
    /// grown with the input ([`Limits::for_input`]).
    fn validate_json(&self, input: &[u8]) -> Result<Report, SyntaxError> {
        Document::read_then(input, &self.limits, |root, limits| {
            self.validate_instance(root, limits)
        })
    }

    fn check_json_with_usage(&self, input: &[u8]) -> Result<(Verdict, Usage), SyntaxError> {
        Document::read_then(input, &self.limits, |root, limits| {
            self.check_with(limits, root, context::Ctx::usage)
        })
    }

    fn apply_defaults(&self, instance: &mut Value) -> bool {
        Interpreter::apply_defaults(self, instance)
    }
}

impl Evaluate for Interpreter {
    /// Validates and collects the annotations of the subschemas that passed: those the
    /// program holds, which it does when compiled with [`crate::Options::annotations`].
    fn evaluate(&self, instance: &Value) -> Evaluation {
        self.evaluate_instance(instance, &self.limits)
    }

    /// [`Evaluate::evaluate`] on a [`Document`] read from `input`, in place, under the
    /// budget grown with the input ([`Limits::for_input`]).
    fn evaluate_json(&self, input: &[u8]) -> Result<Evaluation, SyntaxError> {
        Document::read_then(input, &self.limits, |root, limits| {
            self.evaluate_instance(root, limits)
        })
    }
}

impl Interpreter {
    /// [`Validate::validate`] on an instance in any form the runtime reads ([`Instance`]:
    /// a `&Value`, or a node of a document read from bytes — the tape's
    /// [`Document`], or [`compact::Document`]
    /// when memory matters more than time), under `limits` (for a document,
    /// [`Limits::for_input`] of its size is what the `*_json` methods use).
    ///
    /// Generic, so compiled in the caller's crate at its optimization level: unoptimized,
    /// the evaluation's stack frames are larger and the stack guard stops deep evaluations
    /// sooner (an incomplete verdict, never an overflow). The `*_json` and
    /// `*_json_compact` methods are compiled here.
    pub fn validate_instance<'a, I: Instance<'a>>(&self, instance: I, limits: &Limits) -> Report {
        self.report(context::Ctx::reporting(limits), instance)
            .report
    }

    /// [`Evaluate::evaluate`] on an instance in any form the runtime reads, as
    /// [`Interpreter::validate_instance`].
    pub fn evaluate_instance<'a, I: Instance<'a>>(
        &self,
        instance: I,
        limits: &Limits,
    ) -> Evaluation {
        self.report(context::Ctx::annotating(limits), instance)
    }

    /// [`Validate::validate_json`] with `input` read into the compact form
    /// ([`compact::Document`]: 8 bytes per array and per object where the tape takes 12
    /// per value and per key; strings, numbers and keys read again from the text, which
    /// is slower): for large inputs where memory is what is sized. The same report.
    pub fn validate_json_compact(&self, input: &[u8]) -> Result<Report, SyntaxError> {
        compact::Document::read_then(input, &self.limits, |root, limits| {
            self.validate_instance(root, limits)
        })
    }

    /// [`Evaluate::evaluate_json`] with `input` read into the compact form, as
    /// [`Interpreter::validate_json_compact`].
    pub fn evaluate_json_compact(&self, input: &[u8]) -> Result<Evaluation, SyntaxError> {
        compact::Document::read_then(input, &self.limits, |root, limits| {
            self.evaluate_instance(root, limits)
        })
    }

    /// Checks `instance` (short-circuit) under `limits`, and reads `also` off the finished
    /// context.
    #[inline(always)]
    fn check_with<'a, I: Instance<'a>, T>(
        &self,
        limits: &Limits,
        instance: I,
        also: impl FnOnce(&context::Ctx) -> T,
    ) -> (Verdict, T) {
        let mut cx = context::Ctx::checking(limits);
        let verdict = match self.check_root(&mut cx, instance) {
            Ok(true) => Verdict::Valid,
            Ok(false) => Verdict::Invalid,
            Err(Stop) => Verdict::Incomplete(cx.take_stop_reason()),
        };
        let also = also(&cx);
        cx.release();
        (verdict, also)
    }

    /// Runs `cx` (reporting errors) on `instance`: the report, and the annotations and
    /// units given when `cx` collects them.
    fn report<'a, I: Instance<'a>>(&self, mut cx: context::Ctx, instance: I) -> Evaluation {
        let outcome = self.eval_root(&mut cx, instance);
        let evaluation = cx.finish(outcome);
        debug_assert!(
            !(evaluation.report.is_valid() && outcome == Ok(false)),
            "a failure without an error"
        );
        evaluation
    }
}
