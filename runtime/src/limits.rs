//! Run-time limits: the evaluation budget and the evaluation depth bounds.
//!
//! Both backends count alike: one unit of budget per subschema (IR node) evaluation, one
//! more per 64 instance locations recorded in an evaluated-location set
//! (`unevaluatedProperties` / `unevaluatedItems` bookkeeping), and one per 16 steps of
//! regex work, at least one per match ([`crate::regex::STEPS_PER_UNIT`]: a step is an
//! input byte for a fast path or the DFA, a thread step for the Pike VM).
//!
//! Depth is counted three ways, at the points the plan chooses (out-of-line subschemas,
//! through which every cycle of the schema passes, and steps into a child instance
//! towards one of them):
//!
//! - [`Limits::max_depth`]: how deep into the instance evaluation goes — a deep but
//!   legitimate instance (a schema checked against its meta-schema) gets a verdict as long
//!   as it is no deeper than this;
//! - [`Limits::max_in_place`]: how many evaluations of subschemas on a cycle of the schema
//!   nest without a step into the instance — a reference cycle that makes no progress
//!   (`{"$ref": "#"}`) stops here, after a few levels;
//! - [`Limits::max_nesting`]: how many subschema evaluations nest in all — the stack
//!   guard, so that no input can overflow the stack (the defaults fit a 2 MiB thread
//!   stack in both backends, optimized or not; tested at opt-level 0). It is counted on
//!   entering an out-of-line subschema, by the stack its region may use: 4 units per
//!   subschema evaluation plus 1 per edge to a child subschema, along the longest chain
//!   of subschemas evaluated inside the region; and the stack used is measured there
//!   too, against the same bound in bytes ([`Limits::NESTING_UNIT_BYTES`] per unit), so
//!   that an unoptimized build, whose frames are several times larger, stops before its
//!   stack overflows. The count is the same in both backends; the measure differs by
//!   build, so a validation that nests deeply may end `incomplete` in a debug build and
//!   with a verdict in a release build, never with an overflow.
//!
//! A third limit bounds what a report holds: [`Limits::max_errors`] errors are kept, the
//! rest only counted (see [`ErrorList`](crate::error::ErrorList)).
//!
//! What one validation spent of its limits is its [`Usage`]
//! ([`Report::usage`](crate::Report::usage),
//! [`Validate::check_with_usage`](crate::Validate::check_with_usage)): the units charged
//! and (feature `deepest-counts`) the deepest each depth count went, the figures to fit
//! limits to a workload by.

use crate::error::IncompleteReason;

/// The limits one validation runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Units of work one validation may spend. Default: [`Limits::DEFAULT_BUDGET`].
    pub budget: u64,
    /// How deeply evaluation may step into the instance (array items, property values,
    /// property names) towards a subschema that may recur. Default:
    /// [`Limits::DEFAULT_MAX_DEPTH`].
    pub max_depth: u32,
    /// How many evaluations of subschemas on a cycle of the schema may nest without a step
    /// into the instance (reference cycles that make no progress). Default:
    /// [`Limits::DEFAULT_MAX_IN_PLACE`].
    pub max_in_place: u32,
    /// How much nested subschema evaluation the stack may hold: the stack guard, in units
    /// of [`Limits::NESTING_UNIT_BYTES`] (4 per subschema evaluation, 1 per edge to a
    /// child subschema; see the module documentation), counted and also measured
    /// ([`Budget::enter_region`]). Default: [`Limits::DEFAULT_MAX_NESTING`], which fits a
    /// 2 MiB thread stack in optimized and unoptimized builds; raise it only with a stack
    /// to match.
    pub max_nesting: u32,
    /// How many errors a [`Report`](crate::Report) holds: past it errors are only counted
    /// ([`Report::errors_omitted`](crate::Report::errors_omitted)). The cut keeps the
    /// first errors in evaluation order. Default: [`Limits::DEFAULT_MAX_ERRORS`].
    pub max_errors: usize,
}

impl Limits {
    /// Default budget: ten million subschema evaluations.
    pub const DEFAULT_BUDGET: u64 = 10_000_000;
    /// Default instance depth bound: 512 levels.
    pub const DEFAULT_MAX_DEPTH: u32 = 512;
    /// Default bound on nesting without progress: 32 evaluations of subschemas on a cycle
    /// at one instance location.
    pub const DEFAULT_MAX_IN_PLACE: u32 = 32;
    /// Default stack guard: 8192 units (about 2,000 nested subschema evaluations of
    /// the size of a meta-schema's; see [`Limits::max_nesting`]).
    pub const DEFAULT_MAX_NESTING: u32 = 8192;

    /// [`Budget::enter_region`] also measures the stack from 1/32 of
    /// [`Limits::max_nesting`] on. Below it the stack used is at most 1/32 of the bound
    /// times how much larger frames are than the units count — 2 to 20 times in an
    /// unoptimized build (the depth tests at opt-level 0), so inside the bound — and the
    /// common, shallow validation pays for no measure. A program that cannot nest past it
    /// needs no depth counted at all (schemac's `Plan::depth_free`).
    pub const MEASURED_FROM: u32 = 32;

    /// The nesting up to which the stack guard counts without measuring:
    /// [`Limits::max_nesting`] divided by [`Limits::MEASURED_FROM`].
    pub const fn unmeasured_nesting(&self) -> u32 {
        self.max_nesting / Limits::MEASURED_FROM
    }
    /// The stack one unit of [`Limits::max_nesting`] stands for, in bytes: the default
    /// bound is 1.6 MB of stack measured (see [`Budget::enter_region`]), which leaves
    /// room on a 2 MiB thread stack for the caller's frames.
    pub const NESTING_UNIT_BYTES: usize = 200;
    /// Default error bound: a report holds at most 100 errors.
    pub const DEFAULT_MAX_ERRORS: usize = 100;
    /// Units added to the budget per byte of input where the input's size is known (the
    /// interpreter's `*_json` entry points, the CLI): a validation of `n` bytes may spend
    /// [`Limits::budget`] + `n` × this ([`Limits::for_input`]), so an honest large document
    /// gets a verdict while work stays linear in the input.
    pub const BUDGET_PER_INPUT_BYTE: u64 = 1;
    /// The defaults, usable in `const` contexts.
    pub const DEFAULT: Limits = Limits {
        budget: Limits::DEFAULT_BUDGET,
        max_depth: Limits::DEFAULT_MAX_DEPTH,
        max_in_place: Limits::DEFAULT_MAX_IN_PLACE,
        max_nesting: Limits::DEFAULT_MAX_NESTING,
        max_errors: Limits::DEFAULT_MAX_ERRORS,
    };
}

impl Limits {
    /// These limits for an input of `bytes` bytes: the budget grown by
    /// [`Limits::BUDGET_PER_INPUT_BYTE`] units per byte (saturating), the rest as they
    /// are.
    pub fn for_input(&self, bytes: usize) -> Limits {
        let grown = (bytes as u64).saturating_mul(Limits::BUDGET_PER_INPUT_BYTE);
        Limits {
            budget: self.budget.saturating_add(grown),
            ..*self
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// What one validation spent of its [`Limits`]: the budget units charged and, with the
/// runtime's `deepest-counts` feature, the deepest each depth count went (each at most its
/// bound; at a bound the validation stopped; without the feature they are 0, as keeping
/// them costs a comparison per step). Both backends are meant to spend alike, so a
/// validator's usage is the same whichever runs it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Budget units charged (all of [`Limits::budget`] when it ran out).
    pub units: u64,
    /// The deepest step into the instance ([`Limits::max_depth`]).
    pub depth: u32,
    /// The most evaluations on a cycle of the schema nested in place
    /// ([`Limits::max_in_place`]).
    pub in_place: u32,
    /// The most nesting held ([`Limits::max_nesting`]).
    pub nesting: u32,
}

/// The running account of one validation: budget left and the three depths.
#[derive(Debug, Clone)]
pub struct Budget {
    remaining: u64,
    depth: u32,
    in_place: u32,
    nesting: u32,
    /// The stack's address where the validation started ([`Budget::measured_from_here`];
    /// 0: the stack is not measured).
    stack_base: usize,
    limits: DepthLimits,
    /// The deepest each depth count went so far (`units` unused: see [`Budget::usage`]).
    deepest: Usage,
}

/// The budget and depth bounds of [`Limits`].
#[derive(Debug, Clone, Copy)]
struct DepthLimits {
    budget: u64,
    depth: u32,
    in_place: u32,
    nesting: u32,
    /// The stack a validation may use, in bytes: `nesting` units of
    /// [`Limits::NESTING_UNIT_BYTES`].
    stack_bytes: usize,
    /// The nesting from which the stack is also measured: 1/[`Limits::MEASURED_FROM`] of
    /// `nesting`.
    measured_from: u32,
}

/// The address of the stack in the caller's frame: a local's address (the stack grows
/// down on every platform Rust supports but a few; where it grows up, nothing measured
/// ever exceeds a bound and the counted units alone guard the stack).
#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    core::hint::black_box(&marker) as *const u8 as usize
}

impl Budget {
    /// A fresh account for one validation.
    pub const fn new(limits: &Limits) -> Budget {
        Budget {
            remaining: limits.budget,
            depth: 0,
            in_place: 0,
            nesting: 0,
            stack_base: 0,
            limits: DepthLimits {
                budget: limits.budget,
                depth: limits.max_depth,
                in_place: limits.max_in_place,
                nesting: limits.max_nesting,
                stack_bytes: (limits.max_nesting as usize)
                    .saturating_mul(Limits::NESTING_UNIT_BYTES),
                measured_from: limits.unmeasured_nesting(),
            },
            deepest: Usage {
                units: 0,
                depth: 0,
                in_place: 0,
                nesting: 0,
            },
        }
    }

    /// This account with the stack measured from the caller's frame on (see
    /// [`Budget::enter_region`]): both backends start every validation so. An account
    /// made by [`Budget::new`] alone measures nothing; its count alone guards the stack.
    #[inline(always)]
    pub fn measured_from_here(mut self) -> Budget {
        self.stack_base = stack_address();
        self
    }

    /// Charges `cost` units for a region of node evaluations (an out-of-line node and the
    /// inline nodes it evaluates at most once) and enters it: `levels` more units of
    /// nesting (the stack its region may use).
    ///
    /// The stack is guarded twice: by the units counted, which both backends count alike,
    /// and, from 1/32 of [`Limits::max_nesting`] on, by the stack measured since the
    /// validation started ([`Budget::measured_from_here`]), against
    /// [`Limits::max_nesting`] × [`Limits::NESTING_UNIT_BYTES`] bytes. Optimized builds
    /// use less stack per unit than that, so the count decides; unoptimized ones (a debug
    /// build's interpreter and runtime) use several times more, and the measure stops them
    /// before the stack overflows.
    /// Pair every successful call with [`Budget::leave`].
    #[inline]
    pub fn enter_region(&mut self, cost: u64, levels: u32) -> Result<(), IncompleteReason> {
        self.charge(cost)?;
        let nesting = self.nesting.saturating_add(levels);
        if nesting > self.limits.measured_from && self.too_deep(nesting) {
            return Err(IncompleteReason::DepthExceeded);
        }
        self.nesting = nesting;
        if cfg!(feature = "deepest-counts") {
            self.deepest.nesting = self.deepest.nesting.max(nesting);
        }
        Ok(())
    }

    /// Whether nesting `nesting` units deep, or the stack used so far, is past the stack
    /// guard's bound ([`Budget::enter_region`]).
    #[inline(never)]
    fn too_deep(&self, nesting: u32) -> bool {
        nesting > self.limits.nesting
            || self.stack_base.saturating_sub(stack_address()) > self.limits.stack_bytes
    }

    /// Leaves a region entered with [`Budget::enter_region`] (the same `levels`).
    #[inline]
    pub fn leave(&mut self, levels: u32) {
        self.nesting -= levels;
    }

    /// [`Budget::enter_region`] for a node on a cycle of the schema: also one more level
    /// in place (without a step into the instance). Pair every successful call with
    /// [`Budget::leave_cycle`].
    #[inline]
    pub fn enter_cycle(&mut self, cost: u64, levels: u32) -> Result<(), IncompleteReason> {
        if self.in_place >= self.limits.in_place {
            self.charge(cost)?;
            return Err(IncompleteReason::DepthExceeded);
        }
        self.enter_region(cost, levels)?;
        self.in_place += 1;
        if cfg!(feature = "deepest-counts") {
            self.deepest.in_place = self.deepest.in_place.max(self.in_place);
        }
        Ok(())
    }

    /// Leaves a region entered with [`Budget::enter_cycle`] (the same `levels`).
    #[inline]
    pub fn leave_cycle(&mut self, levels: u32) {
        self.nesting -= levels;
        self.in_place -= 1;
    }

    /// Steps into a child instance (one level deeper in the instance, nothing nested in
    /// place there yet); returns what [`Budget::step_out`] restores.
    #[inline]
    pub fn step_in(&mut self) -> Result<u32, IncompleteReason> {
        if self.depth >= self.limits.depth {
            return Err(IncompleteReason::DepthExceeded);
        }
        self.depth += 1;
        if cfg!(feature = "deepest-counts") {
            self.deepest.depth = self.deepest.depth.max(self.depth);
        }
        Ok(core::mem::replace(&mut self.in_place, 0))
    }

    /// Steps back out of a child instance entered with [`Budget::step_in`].
    #[inline]
    pub fn step_out(&mut self, in_place: u32) {
        self.depth -= 1;
        self.in_place = in_place;
    }
    /// Charges for `locations` instance locations recorded in an evaluated-location set:
    /// one unit per 64 (rounded up).
    #[inline]
    pub fn charge_locations(&mut self, locations: usize) -> Result<(), IncompleteReason> {
        self.charge((locations as u64).div_ceil(64))
    }

    /// Charges `units` of work: node evaluations in bulk (a loop's elements times its
    /// per-element cost), or regex work (see [`crate::regex::STEPS_PER_UNIT`]). Past
    /// the budget, nothing is left and the validation stops.
    #[inline]
    pub fn charge(&mut self, units: u64) -> Result<(), IncompleteReason> {
        if units > self.remaining {
            self.remaining = 0;
            return Err(IncompleteReason::BudgetExceeded);
        }
        self.remaining -= units;
        Ok(())
    }

    /// Units left.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// What was spent so far: the units charged and (feature `deepest-counts`) the deepest
    /// each depth count went.
    pub fn usage(&self) -> Usage {
        Usage {
            units: self.limits.budget - self.remaining,
            ..self.deepest
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(max_depth: u32, max_in_place: u32, max_nesting: u32) -> Budget {
        Budget::new(&Limits {
            max_depth,
            max_in_place,
            max_nesting,
            ..Limits::DEFAULT
        })
    }

    /// Enters a region per level, each level's frame holding `FRAME` bytes, until the
    /// budget stops it; the levels entered.
    fn nest_with_frames(b: &mut Budget, level: u32) -> u32 {
        const FRAME: usize = 1024;
        let frame = core::hint::black_box([level as u8; FRAME]);
        if b.enter_region(0, 1).is_err() {
            return level;
        }
        let deepest = nest_with_frames(b, level + 1);
        b.leave(1);
        core::hint::black_box(&frame);
        deepest
    }

    #[test]
    fn the_stack_measured_stops_frames_larger_than_the_units_count() {
        // 1,000 units count 1,000 levels of one unit; measured, they are 200,000 bytes:
        // about 195 levels of 1 KiB frames (fewer where the build adds to each frame).
        let levels = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| nest_with_frames(&mut budget(10, 10, 1_000).measured_from_here(), 0))
            .expect("spawn")
            .join()
            .expect("no stack overflow");
        let most = (1_000 * Limits::NESTING_UNIT_BYTES / 1024) as u32;
        assert!((most / 4..=most).contains(&levels), "{levels} levels");
        // Frames within the units: the count decides, exactly.
        let mut b = budget(10, 10, 1_000).measured_from_here();
        assert!((0..1_000).all(|_| b.enter_region(0, 1).is_ok()));
        assert_eq!(b.enter_region(0, 1), Err(IncompleteReason::DepthExceeded));
    }

    #[test]
    fn nesting_in_place_is_bounded_and_a_step_resets_it() {
        let mut b = budget(8, 2, 100);
        assert_eq!(b.enter_cycle(1, 1), Ok(()));
        assert_eq!(
            b.enter_region(1, 1),
            Ok(()),
            "not on a cycle: not counted in place"
        );
        assert_eq!(b.enter_cycle(1, 1), Ok(()));
        assert_eq!(b.enter_cycle(1, 1), Err(IncompleteReason::DepthExceeded));
        let saved = b.step_in().expect("depth 1 of 8");
        assert_eq!(saved, 2);
        assert_eq!(b.enter_cycle(1, 1), Ok(()));
        assert_eq!(b.enter_cycle(1, 1), Ok(()));
        assert_eq!(b.enter_cycle(1, 1), Err(IncompleteReason::DepthExceeded));
        b.leave_cycle(1);
        b.leave_cycle(1);
        b.step_out(saved);
        assert_eq!(b.enter_cycle(1, 1), Err(IncompleteReason::DepthExceeded));
        b.leave_cycle(1);
        assert_eq!(b.enter_cycle(1, 1), Ok(()));
        assert_eq!(b.remaining(), Limits::DEFAULT_BUDGET - 9);
    }

    #[test]
    fn usage_counts_units_and_the_deepest_of_each_count() {
        let mut b = budget(8, 4, 100);
        assert_eq!(b.usage(), Usage::default());
        b.enter_cycle(3, 5).expect("within the bounds");
        let saved = b.step_in().expect("depth 1 of 8");
        b.enter_cycle(1, 5).expect("within the bounds");
        b.enter_cycle(1, 5).expect("within the bounds");
        b.leave_cycle(5);
        b.leave_cycle(5);
        b.step_out(saved);
        b.leave_cycle(5);
        b.charge_locations(65).expect("two units");
        let usage = match cfg!(feature = "deepest-counts") {
            true => Usage {
                units: 7,
                depth: 1,
                in_place: 2,
                nesting: 15,
            },
            false => Usage {
                units: 7,
                ..Usage::default()
            },
        };
        assert_eq!(b.usage(), usage, "the deepest counts stay after leaving");
        assert_eq!(
            b.charge(Limits::DEFAULT_BUDGET),
            Err(IncompleteReason::BudgetExceeded)
        );
        assert_eq!(
            b.usage().units,
            Limits::DEFAULT_BUDGET,
            "all of it, once exceeded"
        );
    }

    #[test]
    fn instance_depth_and_total_nesting_are_bounded() {
        let mut b = budget(3, 100, 100);
        let saved: Vec<u32> = (0..3).map(|_| b.step_in().expect("within 3")).collect();
        assert_eq!(b.step_in(), Err(IncompleteReason::DepthExceeded));
        for s in saved.into_iter().rev() {
            b.step_out(s);
        }
        assert!(b.step_in().is_ok());

        let mut b = budget(100, 2, 10);
        assert_eq!(b.enter_region(1, 11), Err(IncompleteReason::DepthExceeded));
        for _ in 0..5 {
            assert_eq!(b.enter_region(1, 2), Ok(()));
            b.leave(2);
            assert_eq!(b.enter_cycle(1, 2), Ok(()));
            b.step_in().expect("within 100");
        }
        assert_eq!(b.enter_region(1, 1), Err(IncompleteReason::DepthExceeded));
        assert_eq!(b.enter_cycle(1, 1), Err(IncompleteReason::DepthExceeded));
    }
}
