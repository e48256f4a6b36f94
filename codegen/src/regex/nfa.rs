//! AST → Thompson NFA, the program the Pike VM runs (and the DFA is built from).
//!
//! Built back to front in continuation-passing style: compiling a node takes the index of
//! what follows it and returns the node's entry. Counted repetitions are expanded (each copy
//! counts against the size limit, so `a{1000000000}` stops at the limit instead of running
//! away). Each lookaround body becomes its own sub-program — compiled backwards for a
//! lookahead, forwards for a lookbehind — numbered innermost first; the main program reads
//! its result as an assertion.

use std::collections::BTreeMap;

use schemac_runtime::regex::pikevm::{
    ASSERT_END, ASSERT_LOOK, ASSERT_NOT_WORD_BOUNDARY, ASSERT_START, ASSERT_WORD_BOUNDARY,
};
use schemac_runtime::regex::syntax::{Assertion, Class, Node};

use super::unicode::{item_ranges, negate, normalize, Ranges};
use super::RegexError;

/// One NFA instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inst {
    /// Consume this code point, then go to `.1`.
    Char(u32, u32),
    /// Consume a code point of class `.0`, then go to `.1`.
    Class(u32, u32),
    /// Fork.
    Split(u32, u32),
    /// Assertion `.0` (a runtime `ASSERT_*` code), then `.1`.
    Assert(u32, u32),
    /// Match.
    Match,
}

/// A compiled NFA with its sub-programs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Nfa {
    pub insts: Vec<Inst>,
    /// Distinct code-point sets, by class id.
    pub classes: Vec<Ranges>,
    /// Lookaround sub-programs: (entry, runs backwards).
    pub looks: Vec<(u32, bool)>,
    /// Entry of the main program.
    pub start: u32,
    /// Every match starts at offset 0.
    pub anchored: bool,
    /// Uses `\b` or `\B`.
    pub word_boundary: bool,
}

/// What the NFA builder needs.
struct Builder {
    nfa: Nfa,
    class_ids: BTreeMap<Ranges, u32>,
    /// Instructions plus repetition copies so far, against `limit`.
    cost: usize,
    limit: usize,
}

/// Compiles `node` (free of unsupported constructs) into an NFA of at most `limit`
/// instructions.
pub(crate) fn compile(node: &Node, limit: usize) -> Result<Nfa, RegexError> {
    let mut b = Builder {
        nfa: Nfa::default(),
        class_ids: BTreeMap::new(),
        cost: 0,
        limit,
    };
    let m = b.push(Inst::Match)?;
    let start = b.node(node, m, false)?;
    b.nfa.start = start;
    b.nfa.anchored = anchored(node);
    Ok(b.nfa)
}

/// Whether every path through `node` starts with `^`.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Assert(Assertion::Start) => true,
        Node::Concat(v) => v.first().is_some_and(anchored),
        Node::Alt(v) => v.iter().all(anchored),
        Node::Group(n) => anchored(n),
        _ => false,
    }
}

impl Builder {
    fn charge(&mut self, n: usize) -> Result<(), RegexError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(RegexError::TooLarge {
                message: format!(
                    "the program exceeds {} instructions (counted repetitions multiply their operand)",
                    self.limit
                ),
            });
        }
        Ok(())
    }

    fn push(&mut self, inst: Inst) -> Result<u32, RegexError> {
        self.charge(1)?;
        self.nfa.insts.push(inst);
        Ok((self.nfa.insts.len() - 1) as u32)
    }

    fn class_id(&mut self, ranges: Ranges) -> u32 {
        let next = self.nfa.classes.len() as u32;
        *self.class_ids.entry(ranges.clone()).or_insert_with(|| {
            self.nfa.classes.push(ranges);
            next
        })
    }

    fn class(&mut self, class: &Class, next: u32) -> Result<u32, RegexError> {
        let mut all = Vec::new();
        for item in &class.items {
            // A property without a table: valid syntax this build cannot match.
            all.extend(
                item_ranges(item).map_err(|construct| RegexError::Unsupported {
                    construct,
                    offset: 0,
                })?,
            );
        }
        let mut ranges = normalize(all);
        if class.negated {
            ranges = negate(&ranges);
        }
        if let [(a, b)] = ranges[..] {
            if a == b {
                return self.push(Inst::Char(a, next));
            }
        }
        let id = self.class_id(ranges);
        self.push(Inst::Class(id, next))
    }

    /// Compiles `node` followed by `next`; `reverse` builds it to be read backwards.
    fn node(&mut self, node: &Node, next: u32, reverse: bool) -> Result<u32, RegexError> {
        match node {
            Node::Empty => Ok(next),
            Node::Char(c) => self.push(Inst::Char(*c, next)),
            Node::Class(class) => self.class(class, next),
            Node::Assert(a) => {
                let code = match a {
                    Assertion::Start => ASSERT_START,
                    Assertion::End => ASSERT_END,
                    Assertion::WordBoundary => ASSERT_WORD_BOUNDARY,
                    Assertion::NotWordBoundary => ASSERT_NOT_WORD_BOUNDARY,
                };
                if matches!(a, Assertion::WordBoundary | Assertion::NotWordBoundary) {
                    self.nfa.word_boundary = true;
                }
                self.push(Inst::Assert(code, next))
            }
            Node::Concat(children) => {
                let mut next = next;
                if reverse {
                    for child in children {
                        next = self.node(child, next, reverse)?;
                    }
                } else {
                    for child in children.iter().rev() {
                        next = self.node(child, next, reverse)?;
                    }
                }
                Ok(next)
            }
            Node::Alt(children) => {
                let mut entries = Vec::with_capacity(children.len());
                for child in children {
                    entries.push(self.node(child, next, reverse)?);
                }
                let mut entry = entries.pop().unwrap_or(next);
                while let Some(e) = entries.pop() {
                    entry = self.push(Inst::Split(e, entry))?;
                }
                Ok(entry)
            }
            Node::Group(n) => self.node(n, next, reverse),
            Node::Repeat { node, min, max, .. } => {
                let mut entry = match max {
                    None => {
                        let l = self.push(Inst::Split(0, 0))?;
                        let body = self.node(node, l, reverse)?;
                        self.nfa.insts[l as usize] = Inst::Split(body, next);
                        l
                    }
                    Some(max) => {
                        let mut entry = next;
                        for _ in *min..*max {
                            self.charge(1)?;
                            let body = self.node(node, entry, reverse)?;
                            entry = self.push(Inst::Split(body, next))?;
                        }
                        entry
                    }
                };
                for _ in 0..*min {
                    self.charge(1)?;
                    entry = self.node(node, entry, reverse)?;
                }
                Ok(entry)
            }
            Node::Look {
                behind,
                negated,
                node,
            } => {
                let m = self.push(Inst::Match)?;
                // A lookahead is found by scanning backwards, a lookbehind forwards.
                let entry = self.node(node, m, !behind)?;
                let k = self.nfa.looks.len() as u32;
                self.nfa.looks.push((entry, !behind));
                let code = ASSERT_LOOK + 2 * k + u32::from(*negated);
                self.push(Inst::Assert(code, next))
            }
            Node::Unsupported { construct, offset } => Err(RegexError::Unsupported {
                construct: (*construct).to_string(),
                offset: *offset,
            }),
        }
    }
}

impl Nfa {
    /// The instructions as the runtime's op bytes and `[a, b]` argument words.
    pub(crate) fn encode(&self) -> (Vec<u8>, Vec<u32>) {
        use schemac_runtime::regex::pikevm::{OP_ASSERT, OP_CHAR, OP_CLASS, OP_MATCH, OP_SPLIT};
        let mut ops = Vec::with_capacity(self.insts.len());
        let mut args = Vec::with_capacity(self.insts.len() * 2);
        for inst in &self.insts {
            let (op, a, b) = match *inst {
                Inst::Char(c, n) => (OP_CHAR, c, n),
                Inst::Class(k, n) => (OP_CLASS, k, n),
                Inst::Split(a, b) => (OP_SPLIT, a, b),
                Inst::Assert(k, n) => (OP_ASSERT, k, n),
                Inst::Match => (OP_MATCH, 0, 0),
            };
            ops.push(op as u8);
            args.extend_from_slice(&[a, b]);
        }
        (ops, args)
    }

    /// The classes as the runtime's (offsets, flattened ranges).
    pub(crate) fn encode_classes(&self) -> (Vec<u32>, Vec<u32>) {
        let mut offsets = vec![0u32];
        let mut ranges = Vec::new();
        for class in &self.classes {
            for &(a, b) in class {
                ranges.push(a);
                ranges.push(b);
            }
            offsets.push((ranges.len() / 2) as u32);
        }
        (offsets, ranges)
    }
}
