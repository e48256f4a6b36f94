//! Run-time limits: the evaluation budget and the evaluation depth bound.
//!
//! Both backends count alike: one unit of budget per subschema (IR node) evaluation, one
//! more per 64 instance locations recorded in an evaluated-location set
//! (`unevaluatedProperties` / `unevaluatedItems` bookkeeping), and one per 16 steps of
//! regex work, at least one per match ([`crate::regex::STEPS_PER_UNIT`]: a step is an
//! input byte for a fast path or the DFA, a thread step for the Pike VM). Depth counts nested node
//! evaluations, which bounds both instance nesting and reference chains, so no input can
//! overflow the stack.
//!
//! A third limit bounds what a report holds: [`Limits::max_errors`] errors are kept, the
//! rest only counted (see [`ErrorList`](crate::error::ErrorList)).

use crate::error::IncompleteReason;

/// The limits one validation runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Units of work one validation may spend. Default: [`Limits::DEFAULT_BUDGET`].
    pub budget: u64,
    /// How deeply node evaluations may nest. Default: [`Limits::DEFAULT_MAX_DEPTH`].
    pub max_depth: u32,
    /// How many errors a [`Report`](crate::Report) holds: past it errors are only counted
    /// ([`Report::errors_omitted`](crate::Report::errors_omitted)). The cut keeps the
    /// first errors in evaluation order. Default: [`Limits::DEFAULT_MAX_ERRORS`].
    pub max_errors: usize,
}

impl Limits {
    /// Default budget: ten million subschema evaluations.
    pub const DEFAULT_BUDGET: u64 = 10_000_000;
    /// Default depth bound: 256 nested subschema evaluations.
    pub const DEFAULT_MAX_DEPTH: u32 = 256;
    /// Default error bound: a report holds at most 100 errors.
    pub const DEFAULT_MAX_ERRORS: usize = 100;
    /// The defaults, usable in `const` contexts.
    pub const DEFAULT: Limits = Limits {
        budget: Limits::DEFAULT_BUDGET,
        max_depth: Limits::DEFAULT_MAX_DEPTH,
        max_errors: Limits::DEFAULT_MAX_ERRORS,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// The running account of one validation: budget left and current depth.
#[derive(Debug, Clone)]
pub struct Budget {
    remaining: u64,
    depth: u32,
    max_depth: u32,
}

impl Budget {
    /// A fresh account for one validation.
    pub const fn new(limits: &Limits) -> Budget {
        Budget {
            remaining: limits.budget,
            depth: 0,
            max_depth: limits.max_depth,
        }
    }

    /// Charges one node evaluation and enters it (depth + 1).
    /// Pair every successful call with [`Budget::leave`].
    #[inline]
    pub fn enter(&mut self) -> Result<(), IncompleteReason> {
        self.enter_region(1)
    }

    /// Charges `cost` units for a region of node evaluations and enters it (depth + 1).
    /// Pair every successful call with [`Budget::leave`].
    #[inline]
    pub fn enter_region(&mut self, cost: u64) -> Result<(), IncompleteReason> {
        self.charge(cost)?;
        if self.depth >= self.max_depth {
            return Err(IncompleteReason::DepthExceeded);
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves a node entered with [`Budget::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
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
}
