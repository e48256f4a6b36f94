//! [`PatternSet`]: the prefilter over a list of patterns (the runtime side is
//! `schemac_runtime::regex::PrefixSet`).

use schemac_runtime::error::IncompleteReason;
use schemac_runtime::regex::{Candidates, PrefixSet};
use schemac_runtime::Budget;

use super::{fast::Fast, CompiledRegex};

/// Which of a list of patterns can match a key, from the literal each must start with:
/// `^x-` can only match keys starting `x-`. Patterns without such a literal are always
/// candidates; ignored patterns (`None`) never are.
#[derive(Debug, Clone, Default)]
pub struct PatternSet {
    pub(crate) text: String,
    pub(crate) bounds: Vec<u32>,
    pub(crate) offsets: Vec<u32>,
    pub(crate) patterns: Vec<u32>,
    pub(crate) lengths: Vec<u32>,
    pub(crate) always: Vec<u32>,
}

impl PatternSet {
    /// From this many patterns on, a backend looks a key up in the set first (below it,
    /// trying each pattern costs about as much). Both backends use this threshold, so
    /// that they charge the budget alike.
    pub const MIN_PATTERNS: usize = 8;

    /// The set over `regexes`, numbered in order from 0.
    pub fn new<'r, R: Into<Option<&'r CompiledRegex>>>(
        regexes: impl IntoIterator<Item = R>,
    ) -> PatternSet {
        let mut literals: Vec<(String, u32)> = Vec::new();
        let mut always = Vec::new();
        for (i, r) in regexes.into_iter().enumerate() {
            let Some(r) = r.into() else { continue };
            match r.fast.as_ref().and_then(Fast::anchored_prefix) {
                Some(literal) => literals.push((literal, i as u32)),
                None => always.push(i as u32),
            }
        }
        literals.sort();
        let mut set = PatternSet {
            always,
            bounds: vec![0],
            offsets: vec![0],
            ..PatternSet::default()
        };
        for (k, (literal, i)) in literals.iter().enumerate() {
            if k == 0 || literals[k - 1].0 != *literal {
                if k > 0 {
                    set.offsets.push(set.patterns.len() as u32);
                }
                set.text.push_str(literal);
                set.bounds.push(set.text.len() as u32);
                set.lengths.push(literal.len() as u32);
            }
            set.patterns.push(*i);
        }
        if !literals.is_empty() {
            set.offsets.push(set.patterns.len() as u32);
        }
        set.lengths.sort_unstable();
        set.lengths.dedup();
        set
    }

    /// The runtime's view of the tables.
    pub fn as_runtime(&self) -> PrefixSet<'_> {
        PrefixSet::new(
            &self.text,
            &self.bounds,
            &self.offsets,
            &self.patterns,
            &self.lengths,
            &self.always,
        )
    }

    /// Number of patterns tried on every key (those without a literal start).
    pub fn always_tried(&self) -> usize {
        self.always.len()
    }

    /// The patterns that may match `key`, ascending, the lookup charged to `budget`.
    pub fn candidates(
        &self,
        key: &str,
        budget: &mut Budget,
    ) -> Result<Candidates<'_>, IncompleteReason> {
        self.as_runtime().candidates_budgeted(key, budget)
    }
}
