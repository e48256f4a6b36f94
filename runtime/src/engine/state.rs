//! The state of one validation: the budget (units, depth) and the dynamic scope, and the
//! results node functions return.

use crate::error::{IncompleteReason, Verdict};
use crate::instance::Instance;
use crate::limits::{Budget, Limits, Usage};
use alloc::borrow::Cow;
use alloc::vec::Vec;
use serde_json::Number;

#[cfg(doc)]
use super::Errors;

/// The whole validation stopped (budget or depth exhausted, unresolved reference
/// reached); the reason is kept in the [`State`]. A zero-sized error keeps [`Res`] one
/// byte, returned in a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop;

/// What a node function returns: `Ok(valid)`, or `Err(Stop)` when the whole validation
/// stops.
pub type Res = Result<bool, Stop>;

/// What an error-collecting node function returns: `Ok(())` when it ran to its end, or
/// `Err(Stop)` when the whole validation stops. Whether the node was valid is whether it
/// added errors ([`Errors::mark`]), which [`Errors::valid`] reads off where it matters.
pub type Done = Result<(), Stop>;

/// The state of one short-circuit validation: the budget and (when the schema needs it)
/// the dynamic scope.
#[derive(Debug)]
pub struct State {
    budget: Budget,
    scope: Vec<u32>,
    stop: Stopped,
}

/// Why a [`State`] stopped, kept without drop glue (so a `State` costs nothing to drop but
/// its scope) and turned into an [`IncompleteReason`] at the end.
#[derive(Debug, Clone, Copy)]
enum Stopped {
    /// Still running, or stopped by the budget.
    Budget,
    /// A depth bound.
    Depth,
    /// An unresolved reference, with its URI.
    Unresolved(&'static str),
}

impl Stopped {
    /// Why a budgeted step stopped the validation.
    #[cold]
    #[inline(never)]
    fn of(reason: IncompleteReason) -> Stopped {
        match reason {
            IncompleteReason::DepthExceeded => Stopped::Depth,
            // A budgeted step stops for the budget or a depth bound, nothing else.
            _ => Stopped::Budget,
        }
    }
}

impl State {
    /// A fresh state under `limits`, the stack measured from the caller's frame on
    /// ([`Budget::measured_from_here`]).
    #[inline(always)]
    pub fn new(limits: &Limits) -> State {
        State {
            budget: Budget::new(limits).measured_from_here(),
            scope: Vec::new(),
            stop: Stopped::Budget,
        }
    }

    /// Charges `cost` units for an out-of-line node and the inline nodes it evaluates at
    /// most once, and enters it: `levels` levels of nesting ([`Budget::enter_region`]).
    #[inline(always)]
    pub fn enter_region(&mut self, cost: u64, levels: u32) -> Result<(), Stop> {
        let entered = self.budget.enter_region(cost, levels);
        self.kept(entered)
    }

    /// Steps into a child instance ([`Budget::step_in`]); give the result back to
    /// [`State::step_out`].
    #[inline(always)]
    pub fn step_in(&mut self) -> Result<u32, Stop> {
        let saved = self.budget.step_in();
        self.kept(saved)
    }

    /// Steps back out of a child instance.
    #[inline(always)]
    pub fn step_out(&mut self, saved: u32) {
        self.budget.step_out(saved)
    }

    /// Evaluates a subschema with `eval` on a child instance, one step into the instance
    /// ([`State::step_in`] before, [`State::step_out`] after). Generated code passes a
    /// closure of its own for each call, so that each is inlined where it is made.
    #[inline]
    pub fn stepping(&mut self, eval: impl FnOnce(&mut State) -> Res) -> Res {
        let saved = self.step_in()?;
        let valid = eval(self);
        self.step_out(saved);
        valid
    }

    /// [`State::enter_region`] for a node on a cycle of the schema
    /// ([`Budget::enter_cycle`]); leave it with [`State::leave_cycle`].
    #[inline(always)]
    pub fn enter_cycle(&mut self, cost: u64, levels: u32) -> Result<(), Stop> {
        let entered = self.budget.enter_cycle(cost, levels);
        self.kept(entered)
    }

    /// Leaves a node entered with [`State::enter_cycle`].
    #[inline(always)]
    pub fn leave_cycle(&mut self, levels: u32) {
        self.budget.leave_cycle(levels)
    }

    /// Charges a loop in bulk: `elements` times `per_element` units.
    #[inline(always)]
    pub fn spend(&mut self, elements: usize, per_element: u64) -> Result<(), Stop> {
        let charged = self
            .budget
            .charge((elements as u64).saturating_mul(per_element));
        self.kept(charged)
    }

    /// Charges `units` for work done inline whose cost the compiler knows (an `enum`
    /// table's strings compared by a `match`, [`crate::lookup::Members::str_units`]), or
    /// for entering a region where no depth bound can be reached (nothing to count but
    /// the budget).
    #[inline(always)]
    pub fn spend_units(&mut self, units: u64) -> Result<(), Stop> {
        self.spend(1, units)
    }

    /// The result of a budgeted step, its reason kept when it stops the validation.
    // The state is written here, not in the cold function: a state whose address never
    // leaves the validator (everything inlined) can then live in registers.
    #[inline(always)]
    fn kept<T>(&mut self, result: Result<T, IncompleteReason>) -> Result<T, Stop> {
        result.map_err(|reason| {
            self.stop = Stopped::of(reason);
            Stop
        })
    }

    /// Runs `step` on the budget (work that charges it as it goes: a regex's automata, a
    /// lookup table), its reason kept when it stops the validation.
    #[inline(always)]
    pub fn budgeted<T>(
        &mut self,
        step: impl FnOnce(&mut Budget) -> Result<T, IncompleteReason>,
    ) -> Result<T, Stop> {
        let result = step(&mut self.budget);
        self.kept(result)
    }

    /// The budget as it stands.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Leaves a node entered with [`State::enter_region`] (the same `levels`).
    #[inline(always)]
    pub fn leave(&mut self, levels: u32) {
        self.budget.leave(levels)
    }

    /// Charges for `n` locations recorded by `unevaluatedProperties` / `unevaluatedItems`.
    #[inline]
    pub fn charge(&mut self, n: usize) -> Result<(), Stop> {
        let charged = self.budget.charge_locations(n);
        self.kept(charged)
    }

    /// Whether `regex` matches anywhere in `text`, its work charged to the budget
    /// ([`crate::regex::Regex::is_match_budgeted`]); `Err(Stop)` when the budget runs out.
    #[inline]
    pub fn is_match(&mut self, regex: &crate::regex::Regex<'_>, text: &str) -> Res {
        let found = regex.is_match_budgeted(text, &mut self.budget);
        self.kept(found)
    }

    /// [`State::is_match`] for a regex with a fast path: inlined with its fast path
    /// ([`crate::regex::Regex::is_match_inlined`]), which the compiler specializes to the
    /// `static` regex generated code passes.
    #[inline(always)]
    pub fn is_match_fast(&mut self, regex: &crate::regex::Regex<'_>, text: &str) -> Res {
        let found = regex.is_match_inlined(text, &mut self.budget);
        self.kept(found)
    }

    /// The patterns of `set` that may match `key` (ascending indices into the list the set
    /// was built from), the lookup charged to the budget
    /// ([`crate::regex::PrefixSet::candidates_budgeted`]).
    #[inline]
    pub fn candidates<'a>(
        &mut self,
        set: &crate::regex::PrefixSet<'a>,
        key: &str,
    ) -> Result<crate::regex::Candidates<'a>, Stop> {
        let candidates = set.candidates_budgeted(key, &mut self.budget);
        self.kept(candidates)
    }

    /// Whether `text` is a string member of a large `enum`'s table, the lookup charged to
    /// the budget ([`crate::lookup::Members::is_str_member_budgeted`]).
    #[inline]
    pub fn is_str_member<S: AsRef<str>>(
        &mut self,
        members: &crate::lookup::Members<'_, S>,
        text: &str,
    ) -> Res {
        let found = members.is_str_member_budgeted(text, &mut self.budget);
        self.kept(found)
    }

    /// Whether `n` is a number member of a large `enum`'s table, compared exactly, the
    /// lookup charged to the budget ([`crate::lookup::Members::is_number_member_budgeted`]).
    #[inline]
    pub fn is_number_member<S>(
        &mut self,
        members: &crate::lookup::Members<'_, S>,
        n: &Number,
    ) -> Res {
        let found = members.is_number_member_budgeted(n, &mut self.budget);
        self.kept(found)
    }

    /// Whether `value` (an array or an object) equals a member of a large `enum` or a large
    /// `const`, found by its hash and compared by `equal` (member index, value) only with
    /// the members of its hash, the work charged to the budget
    /// ([`crate::lookup::Composites::find`]).
    #[inline]
    pub fn is_composite_member<'v, I: Instance<'v>>(
        &mut self,
        members: &crate::lookup::Composites<'_>,
        value: I,
        equal: impl FnMut(usize, I) -> bool,
    ) -> Res {
        let found = members.find(value, &mut self.budget, equal);
        self.kept(found)
    }

    /// Whether the items of `items` are distinct (`uniqueItems`), the work charged to the
    /// budget ([`crate::json::all_unique`]).
    #[inline]
    pub fn all_unique<'a, I: Instance<'a>>(
        &mut self,
        items: impl IntoIterator<Item = I, IntoIter: ExactSizeIterator + Clone>,
    ) -> Res {
        let unique = crate::json::all_unique(items.into_iter(), &mut self.budget);
        self.kept(unique)
    }

    /// Enters resource `r` in the dynamic scope; `true` when it was pushed (it differed
    /// from the innermost one), to be given back to [`State::pop_scope`].
    #[inline]
    pub fn push_scope(&mut self, r: u32) -> bool {
        if self.scope.last() == Some(&r) {
            false
        } else {
            self.scope.push(r);
            true
        }
    }

    /// Leaves a resource entered by [`State::push_scope`].
    #[inline]
    pub fn pop_scope(&mut self, pushed: bool) {
        if pushed {
            self.scope.pop();
        }
    }

    /// Reports that evaluation reached a reference to a document that was not available at
    /// compile time: always `Err`, which aborts the validation.
    #[cold]
    pub fn unresolved(&mut self, uri: &'static str) -> Result<(), Stop> {
        self.stop = Stopped::Unresolved(uri);
        Err(Stop)
    }

    /// The outermost resource in the dynamic scope for which `declares` holds.
    pub fn outermost(&self, declares: impl Fn(u32) -> bool) -> Option<u32> {
        self.scope.iter().copied().find(|&r| declares(r))
    }

    /// What the validation spent so far ([`Budget::usage`]).
    pub fn usage(&self) -> Usage {
        self.budget.usage()
    }

    /// The verdict of a short-circuit validation whose root returned `result`, and what
    /// it spent.
    pub fn verdict_and_usage(self, result: Res) -> (Verdict, Usage) {
        let usage = self.usage();
        (self.verdict(result), usage)
    }

    /// The verdict of a short-circuit validation whose root returned `result`.
    pub fn verdict(self, result: Res) -> Verdict {
        match result {
            Ok(true) => Verdict::Valid,
            Ok(false) => Verdict::Invalid,
            Err(Stop) => Verdict::Incomplete(self.reason()),
        }
    }

    /// Why the validation stopped (once a step returned `Err(Stop)`).
    pub fn reason(&self) -> IncompleteReason {
        match self.stop {
            Stopped::Budget => IncompleteReason::BudgetExceeded,
            Stopped::Depth => IncompleteReason::DepthExceeded,
            Stopped::Unresolved(uri) => IncompleteReason::UnresolvedRef(Cow::Borrowed(uri)),
        }
    }
}
