//! NFA → DFA by subset construction, then Moore minimization, over a code-point-class
//! alphabet.
//!
//! Only for programs without lookarounds or word boundaries. `^` is resolved by giving the
//! initial state its own closure (it never merges with a later state); `$` stays pending in
//! a state's NFA set and is resolved by a per-state "accepts at end of input" flag. The
//! search is unanchored: every state after the first also holds the restart closure. A state
//! whose set reaches a match is the absorbing match state, so the runner stops early.

use std::collections::{BTreeMap, VecDeque};

use schemac_runtime::regex::dfa::{DEAD, MATCH};
use schemac_runtime::regex::pikevm::{ASSERT_END, ASSERT_START};
use schemac_runtime::regex::words::encode;

use super::nfa::{Inst, Nfa};
use super::unicode::MAX_CP;

/// Owned DFA tables in the runtime's format (see `schemac_runtime::regex::dfa`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DfaTables {
    pub ascii: Box<[u8; 128]>,
    /// [`Words`](schemac_runtime::regex::Words) tables: (bytes, width).
    pub bounds: (Vec<u8>, u8),
    pub bound_classes: (Vec<u8>, u8),
    pub classes: u32,
    /// Premultiplied: each entry is the target state's row offset.
    pub trans: (Vec<u8>, u8),
    pub accept_end: Vec<u8>,
    pub start: u16,
}

impl DfaTables {
    /// Bytes of table data.
    pub fn size(&self) -> usize {
        self.ascii.len()
            + self.bounds.0.len()
            + self.bound_classes.0.len()
            + self.trans.0.len()
            + self.accept_end.len()
    }
}

/// The alphabet: code-point segments grouped into classes that no instruction tells apart.
struct Alphabet {
    /// (segment start, class) for every segment, sorted.
    segments: Vec<(u32, u16)>,
    /// A representative code point per class.
    reps: Vec<u32>,
}

fn alphabet(nfa: &Nfa) -> Alphabet {
    let mut sets: Vec<Vec<(u32, u32)>> = nfa.classes.clone();
    for inst in &nfa.insts {
        if let Inst::Char(c, _) = inst {
            sets.push(vec![(*c, *c)]);
        }
    }
    let mut cuts = vec![0u32, 0x80];
    for set in &sets {
        for &(a, b) in set {
            cuts.push(a);
            if b < MAX_CP {
                cuts.push(b + 1);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let contains = |set: &[(u32, u32)], c: u32| {
        set.binary_search_by(|&(a, b)| {
            if b < c {
                std::cmp::Ordering::Less
            } else if a > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
    };
    let mut by_signature: BTreeMap<Vec<u32>, u16> = BTreeMap::new();
    let mut segments = Vec::with_capacity(cuts.len());
    let mut reps = Vec::new();
    for &start in &cuts {
        let signature: Vec<u32> = sets
            .iter()
            .enumerate()
            .filter(|(_, s)| contains(s, start))
            .map(|(i, _)| i as u32)
            .collect();
        let next = by_signature.len() as u16;
        let class = *by_signature.entry(signature).or_insert_with(|| {
            reps.push(start);
            next
        });
        segments.push((start, class));
    }
    Alphabet { segments, reps }
}

/// Most steps Moore's refinement may take; past it the DFA is kept as constructed.
const MAX_REFINE_WORK: usize = 500_000;

/// Most transition-table entries (states × classes) a DFA may have.
const MAX_TABLE_ENTRIES: usize = 1 << 20;

/// Builds the DFA, minimized when that fits in the work left, or `None` when it has more
/// than `max_states` states or [`MAX_TABLE_ENTRIES`] entries, or its construction would
/// take more than `*work` steps (closure visits, instruction × class tests, refinement
/// steps): then the Pike VM runs. The steps taken are subtracted from `*work`.
pub(crate) fn build(nfa: &Nfa, max_states: usize, work_left: &mut usize) -> Option<DfaTables> {
    let budget = *work_left;
    let work = std::cell::Cell::new(0usize);
    let result = construct(nfa, max_states, budget, &work);
    *work_left = budget.saturating_sub(work.get());
    result
}

fn construct(
    nfa: &Nfa,
    max_states: usize,
    budget: usize,
    work: &std::cell::Cell<usize>,
) -> Option<DfaTables> {
    if !nfa.looks.is_empty() || nfa.word_boundary {
        return None;
    }
    let max_states = max_states.min(u16::MAX as usize);
    let max_explored = max_states;
    let alpha = alphabet(nfa);
    if alpha.reps.len() > u16::MAX as usize {
        return None;
    }
    let nclasses = alpha.reps.len();
    // Which classes each consuming instruction accepts (a table, kept within bounds).
    work.set(work.get() + nfa.insts.len().saturating_mul(nclasses));
    if work.get() > budget {
        return None;
    }
    let table: Vec<Vec<bool>> = nfa
        .insts
        .iter()
        .map(|inst| match *inst {
            Inst::Char(x, _) => alpha.reps.iter().map(|&c| c == x).collect(),
            Inst::Class(k, _) => {
                let set = &nfa.classes[k as usize];
                alpha
                    .reps
                    .iter()
                    .map(|&c| {
                        let i = set.partition_point(|&(a, _)| a <= c);
                        i > 0 && set[i - 1].1 >= c
                    })
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect();
    let accepts =
        |pc: u32, class: usize| -> bool { table[pc as usize].get(class).copied().unwrap_or(false) };

    // Visited marks stamped with a generation, so a closure costs what it visits.
    let seen = std::cell::RefCell::new((vec![0u32; nfa.insts.len()], 0u32));
    let first_visit = |pc: u32| -> bool {
        let mut guard = seen.borrow_mut();
        let (marks, gen) = &mut *guard;
        work.set(work.get() + 1);
        std::mem::replace(&mut marks[pc as usize], *gen) != *gen
    };
    let new_generation = || {
        let mut guard = seen.borrow_mut();
        guard.1 += 1;
    };
    // The instructions still to visit (one buffer for every walk below).
    let pending = std::cell::RefCell::new(Vec::<u32>::new());
    let closure = |seeds: &[u32], at_start: bool| -> (Vec<u32>, bool) {
        new_generation();
        let mut stack = pending.borrow_mut();
        stack.clear();
        stack.extend_from_slice(seeds);
        let mut kept = Vec::new();
        let mut matched = false;
        while let Some(pc) = stack.pop() {
            if !first_visit(pc) {
                continue;
            }
            match nfa.insts[pc as usize] {
                Inst::Char(..) | Inst::Class(..) => kept.push(pc),
                Inst::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                Inst::Assert(ASSERT_START, n) => {
                    if at_start {
                        stack.push(n);
                    }
                }
                Inst::Assert(ASSERT_END, _) => kept.push(pc),
                Inst::Assert(..) => {}
                Inst::Match => matched = true,
            }
        }
        kept.sort_unstable();
        (kept, matched)
    };
    // Whether a set accepts when the input ends here.
    let accepts_at_end = |set: &[u32], at_start: bool| -> bool {
        new_generation();
        let mut stack = pending.borrow_mut();
        stack.clear();
        stack.extend_from_slice(set);
        while let Some(pc) = stack.pop() {
            if !first_visit(pc) {
                continue;
            }
            match nfa.insts[pc as usize] {
                Inst::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                Inst::Assert(ASSERT_END, n) => stack.push(n),
                Inst::Assert(ASSERT_START, n) if at_start => stack.push(n),
                Inst::Match => return true,
                _ => {}
            }
        }
        false
    };

    let (restart, restart_matches) = closure(&[nfa.start], false);
    // States: 0 dead, 1 match, then discovered ones: (is initial, NFA set). A transition
    // never leads back to the initial state (only there does `^` hold), so the states it
    // leads to are found by their sets alone.
    let mut sets: Vec<(bool, Vec<u32>)> = vec![(false, Vec::new()), (false, Vec::new())];
    let mut ids: BTreeMap<Vec<u32>, u16> = BTreeMap::new();
    let mut queue = VecDeque::new();
    let (init_set, init_match) = closure(&[nfa.start], true);
    let start = if init_match {
        MATCH
    } else {
        sets.push((true, init_set));
        queue.push_back(2u16);
        2
    };
    let mut trans: Vec<u16> = vec![DEAD; nclasses * 2];
    trans[nclasses..].fill(MATCH);
    let mut by_targets: BTreeMap<Vec<u32>, u16> = BTreeMap::new();
    // The NFA states one class leads to from a state (reused).
    let mut targets: Vec<u32> = Vec::new();
    while let Some(s) = queue.pop_front() {
        // (Taken out while its transitions are found, and put back.)
        let set = std::mem::take(&mut sets[s as usize].1);
        work.set(work.get() + set.len() * nclasses);
        if work.get() > budget {
            return None;
        }
        let row_at = trans.len();
        trans.resize(row_at + nclasses, DEAD);
        for class in 0..nclasses {
            targets.clear();
            targets.extend(
                (set.iter().filter(|&&pc| accepts(pc, class))).filter_map(|&pc| {
                    match nfa.insts[pc as usize] {
                        Inst::Char(_, n) | Inst::Class(_, n) => Some(n),
                        _ => None,
                    }
                }),
            );
            targets.sort_unstable();
            targets.dedup();
            let next = if let Some(&id) = by_targets.get(&targets[..]) {
                id
            } else {
                let (mut closed, matched) = closure(&targets, false);
                let id = if matched || restart_matches {
                    MATCH
                } else {
                    closed.extend_from_slice(&restart);
                    closed.sort_unstable();
                    closed.dedup();
                    if closed.is_empty() {
                        DEAD
                    } else if let Some(&id) = ids.get(&closed) {
                        id
                    } else {
                        if sets.len() >= max_explored
                            || sets.len().saturating_mul(nclasses) > 4 * MAX_TABLE_ENTRIES
                        {
                            return None;
                        }
                        let id = sets.len() as u16;
                        sets.push((false, closed.clone()));
                        ids.insert(closed, id);
                        queue.push_back(id);
                        id
                    }
                };
                by_targets.insert(targets.clone(), id);
                id
            };
            trans[row_at + class] = next;
        }
        sets[s as usize].1 = set;
    }
    let accept_end: Vec<u8> = sets
        .iter()
        .enumerate()
        .map(|(i, (initial, set))| u8::from(i >= 2 && accepts_at_end(set, *initial)))
        .collect();
    // Refinement gets its own, smaller share: a chain of `n` states takes `n` rounds.
    let refine_budget = work.get().saturating_add(MAX_REFINE_WORK).min(budget);
    let (trans, accept_end, start) =
        match minimize(&trans, &accept_end, start, nclasses, refine_budget, work) {
            Some(min) => min,
            // Refinement would take too long: the DFA as constructed (correct, larger).
            None => (trans, accept_end, start),
        };

    let class_of = |c: u32| -> u16 {
        let i = alpha.segments.partition_point(|&(s, _)| s <= c);
        alpha.segments[i - 1].1
    };
    let mut ascii = Box::new([0u8; 128]);
    for (c, slot) in ascii.iter_mut().enumerate() {
        // Classes are numbered in code-point order, so ASCII's are below 129.
        *slot = u8::try_from(class_of(c as u32)).ok()?;
    }
    let states = accept_end.len();
    if states > max_states || states.saturating_mul(nclasses) > MAX_TABLE_ENTRIES {
        return None;
    }
    let trans: Vec<u32> = trans
        .into_iter()
        .map(|t| u32::from(t) * nclasses as u32)
        .collect();
    let mut bounds = Vec::new();
    let mut bound_classes: Vec<u32> = Vec::new();
    for &(s, class) in alpha.segments.iter().filter(|(s, _)| *s >= 0x80) {
        if bound_classes.last() != Some(&u32::from(class)) {
            bounds.push(s);
            bound_classes.push(u32::from(class));
        }
    }
    Some(DfaTables {
        ascii,
        bounds: encode(&bounds),
        bound_classes: encode(&bound_classes),
        classes: nclasses as u32,
        trans: encode(&trans),
        accept_end,
        start,
    })
}

/// Moore's partition refinement; keeps 0 dead and 1 match, numbers the rest in order of
/// first appearance (deterministic output).
fn minimize(
    trans: &[u16],
    accept_end: &[u8],
    start: u16,
    nclasses: usize,
    budget: usize,
    work: &std::cell::Cell<usize>,
) -> Option<(Vec<u16>, Vec<u8>, u16)> {
    let n = accept_end.len();
    let initial_block = |s: usize| -> u32 {
        match s {
            1 => 1,
            _ => 2 + u32::from(accept_end[s]),
        }
    };
    let mut block: Vec<u32> = (0..n).map(initial_block).collect();
    let mut count = 0;
    // Each state's key of a round (its block, then its successors' blocks), side by side.
    let width = nclasses + 1;
    let mut keys = vec![0u32; n * width];
    loop {
        // Each round costs a key per state; a long chain takes a round per state.
        work.set(work.get() + n * width);
        if work.get() > budget {
            return None;
        }
        for (s, key) in keys.chunks_exact_mut(width).enumerate() {
            key[0] = block[s];
            let row = &trans[s * nclasses..(s + 1) * nclasses];
            for (slot, &t) in key[1..].iter_mut().zip(row) {
                *slot = block[t as usize];
            }
        }
        let mut ids: BTreeMap<&[u32], u32> = BTreeMap::new();
        let mut next = Vec::with_capacity(n);
        for key in keys.chunks_exact(width) {
            let len = ids.len() as u32;
            next.push(*ids.entry(key).or_insert(len));
        }
        let new_count = ids.len();
        block = next;
        if new_count == count {
            break;
        }
        count = new_count;
    }
    // Renumber: the dead state's block → 0, the match state's → 1, others in order.
    let mut renum: BTreeMap<u32, u16> = BTreeMap::new();
    renum.insert(block[0], DEAD);
    renum.insert(block[1], MATCH);
    let mut order = vec![0usize, 1];
    for (s, &b) in block.iter().enumerate().skip(2) {
        if let std::collections::btree_map::Entry::Vacant(e) = renum.entry(b) {
            e.insert(order.len() as u16);
            order.push(s);
        }
    }
    let mut out_trans = Vec::with_capacity(order.len() * nclasses);
    let mut out_accept = Vec::with_capacity(order.len());
    for &s in &order {
        out_trans.extend(
            trans[s * nclasses..(s + 1) * nclasses]
                .iter()
                .map(|&t| renum[&block[t as usize]]),
        );
        out_accept.push(accept_end[s]);
    }
    Some((out_trans, out_accept, renum[&block[start as usize]]))
}
