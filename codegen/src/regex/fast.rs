//! Fast-path recognition on the syntax tree (the runtime side is
//! `schemac_runtime::regex::fast`).
//!
//! The pattern is read as a flat sequence (groups and nested sequences opened up, since
//! captures do not matter to a yes/no answer), with its leading `^` and trailing `$`
//! noted. What remains decides:
//!
//! - only literal characters: [`Fast::Literal`] (`abc`, `^abc`, `abc$`, `^abc$`, and the
//!   empty pattern);
//! - one class or character, repeated or not: [`Fast::ClassRun`] (`^[a-z0-9_-]+$`,
//!   `^[A-Za-z0-9_-]{1,64}$`, `\d{4}`);
//! - after a `^`, runs of ASCII classes or characters that a greedy scan decides
//!   (`^[a-z]+_[0-9]{1,4}$`, `^x-[a-z][a-z0-9-]*$`): [`Fast::AsciiRuns`];
//! - otherwise, after a `^`, literal characters then anything: [`Fast::Prefix`], a quick
//!   rejection before the automaton runs;
//! - otherwise, after a `^`, anything whose first code point is in a known set
//!   (`^[a-z]+_\d+$`, `^(get|put)_`): [`Fast::Leading`], a rejection by the first byte.

use schemac_runtime::regex::syntax::{Assertion, Class, Node};
use schemac_runtime::regex::AsciiRun;

use super::unicode::{item_ranges, negate, normalize, Ranges};

/// An owned fast path (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fast {
    /// The pattern is this literal, anchored as given.
    Literal {
        text: String,
        start: bool,
        end: bool,
    },
    /// The pattern starts with `^` and this (non-empty) literal.
    Prefix(String),
    /// The pattern starts with `^` and a code point of a set that is not every code point.
    Leading {
        /// ASCII members: bit `c % 64` of word `c / 64`.
        ascii: [u64; 2],
        /// Whether some member is outside ASCII (an input starting with one is left to
        /// the automaton).
        non_ascii: bool,
    },
    /// The pattern is `[set]{min,max}` (`max == u32::MAX`: unbounded), anchored as given.
    ClassRun {
        /// ASCII members: bit `c % 64` of word `c / 64`.
        ascii: [u64; 2],
        /// Members from `0x80` on, as flat inclusive pairs.
        ranges: Vec<u32>,
        min: u32,
        max: u32,
        start: bool,
        end: bool,
    },
    /// The pattern is `^`, a choice of literals (none a prefix of another; none when
    /// `head` is empty), these runs of ASCII sets, and `$` if `end`; every run of varying
    /// length is the last or is followed by a required run of a disjoint set, so a greedy
    /// scan decides.
    AsciiRuns {
        head: Choice,
        runs: Vec<AsciiRun>,
        end: bool,
    },
}

impl Fast {
    /// Whether the fast path decides every input ([`schemac_runtime::regex::FastPath::decide`]
    /// never leaves one to the automaton): a literal, a class run or ASCII runs.
    pub(crate) fn decides_every_input(&self) -> bool {
        match self {
            Fast::Literal { .. } | Fast::ClassRun { .. } | Fast::AsciiRuns { .. } => true,
            Fast::Prefix(_) | Fast::Leading { .. } => false,
        }
    }
}

/// The literals of [`Fast::AsciiRuns`], as the runtime's [`schemac_runtime::regex::Choice`]
/// holds them: one text, and where each literal ends in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) text: String,
    pub(crate) ends: Vec<u32>,
}

impl Choice {
    /// The choice of `literals`, in order.
    fn of<'t>(literals: impl IntoIterator<Item = &'t str>) -> Choice {
        let mut choice = Choice::default();
        for literal in literals {
            choice.text.push_str(literal);
            choice.ends.push(choice.text.len() as u32);
        }
        choice
    }

    /// Whether there is no literal.
    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl Fast {
    /// The literal that every match starts the input with, when there is one (not empty).
    pub(crate) fn anchored_prefix(&self) -> Option<String> {
        let prefix = match self {
            Fast::Literal {
                text, start: true, ..
            }
            | Fast::Prefix(text) => text.clone(),
            Fast::AsciiRuns { head, runs, .. } if head.is_empty() => runs
                .iter()
                .map_while(|run| {
                    let [lo, hi] = run.ascii();
                    let single = run.bounds() == (1, 1) && lo.count_ones() + hi.count_ones() == 1;
                    let code = if lo != 0 {
                        lo.trailing_zeros()
                    } else {
                        64 + hi.trailing_zeros()
                    };
                    single.then(|| char::from(code as u8))
                })
                .collect(),
            _ => String::new(),
        };
        (!prefix.is_empty()).then_some(prefix)
    }
}

/// The fast path of a parsed pattern (free of unsupported constructs), if it has one.
pub(crate) fn analyze(node: &Node) -> Option<Fast> {
    let mut seq = Vec::new();
    flatten(node, &mut seq);
    let mut items = &seq[..];
    let mut start = false;
    while let [Node::Assert(Assertion::Start), rest @ ..] = items {
        start = true;
        items = rest;
    }
    let mut end = false;
    while let [rest @ .., Node::Assert(Assertion::End)] = items {
        end = true;
        items = rest;
    }
    if let Some(text) = literal(items) {
        return Some(Fast::Literal { text, start, end });
    }
    if let [item] = items {
        if let Some(run) = class_run(item, start, end) {
            return Some(run);
        }
    }
    if !start {
        return None;
    }
    if let Some(runs) = ascii_runs(items, end) {
        return Some(runs);
    }
    let mut prefix = String::new();
    for item in items {
        match item {
            Node::Char(c) => match char::from_u32(*c) {
                Some(c) => prefix.push(c),
                None => break,
            },
            _ => break,
        }
    }
    if !prefix.is_empty() {
        return Some(Fast::Prefix(prefix));
    }
    let (&first, _) = items.split_first()?;
    let set = first_set(first)?;
    let (ascii, non_ascii) = split_ascii(&set);
    (ascii != [u64::MAX; 2] || !non_ascii).then_some(Fast::Leading { ascii, non_ascii })
}

/// The code points a match of `node` can start with, when it cannot match the empty
/// string and they are known without lookaround.
fn first_set(node: &Node) -> Option<Ranges> {
    match node {
        Node::Char(c) => Some(vec![(*c, *c)]),
        Node::Class(class) => class_set(class),
        Node::Group(n) => first_set(n),
        Node::Concat(items) => first_set(items.iter().find(|n| !matches!(n, Node::Empty))?),
        Node::Alt(branches) => {
            let mut all = Vec::new();
            for branch in branches {
                all.extend(first_set(branch)?);
            }
            Some(normalize(all))
        }
        Node::Repeat { node, min, .. } if *min >= 1 => first_set(node),
        _ => None,
    }
}

/// A set as an ASCII bitmap (bit `c % 64` of word `c / 64`) and whether it has members
/// from `0x80` on.
fn split_ascii(set: &Ranges) -> ([u64; 2], bool) {
    let mut ascii = [0u64; 2];
    for &(a, b) in set {
        for c in a..=b.min(0x7F) {
            ascii[(c / 64) as usize] |= 1 << (c % 64);
        }
    }
    (ascii, set.iter().any(|&(_, b)| b >= 0x80))
}

/// Appends the sequence `node` stands for, groups and nested sequences opened up and
/// empty nodes dropped.
fn flatten<'n>(node: &'n Node, out: &mut Vec<&'n Node>) {
    match node {
        Node::Empty => {}
        Node::Group(n) => flatten(n, out),
        Node::Concat(v) => v.iter().for_each(|n| flatten(n, out)),
        n => out.push(n),
    }
}

/// `items` as a string, when they are all literal characters (no lone surrogates).
fn literal(items: &[&Node]) -> Option<String> {
    items
        .iter()
        .map(|n| match n {
            Node::Char(c) => char::from_u32(*c),
            _ => None,
        })
        .collect()
}

/// `item` as `(set, min, max)` (`max == u32::MAX`: unbounded), when it is a class or
/// character, repeated or not.
fn run(item: &Node) -> Option<(Ranges, u32, u32)> {
    let (atom, min, max) = match item {
        Node::Repeat { node, min, max, .. } => (strip_groups(node), *min, max.unwrap_or(u32::MAX)),
        n => (n, 1, 1),
    };
    let set = match atom {
        Node::Char(c) => vec![(*c, *c)],
        Node::Class(class) => class_set(class)?,
        _ => return None,
    };
    Some((set, min, max))
}

/// `items` (after a `^`) as [`Fast::AsciiRuns`]: a choice of literals and any runs of
/// ASCII sets, or two or more runs, where each run of varying length is the last or is
/// followed by a required run of a disjoint set (then a match takes every run as long as
/// it goes; `^[a-z]+[a-z0-9]` and `^a*b?c` do not qualify).
fn ascii_runs(items: &[&Node], end: bool) -> Option<Fast> {
    let (head, items) = match items.split_first() {
        Some((Node::Alt(branches), rest)) => (literal_choice(branches)?, rest),
        _ => (Choice::default(), items),
    };
    if head.is_empty() && items.len() < 2 {
        return None;
    }
    let mut runs = Vec::with_capacity(items.len());
    for item in items {
        let (set, min, max) = run(item)?;
        let (ascii, non_ascii) = split_ascii(&set);
        if non_ascii || set.is_empty() {
            return None;
        }
        runs.push(AsciiRun::new(ascii, min, max));
    }
    let greedy = runs.windows(2).all(|pair| {
        let ((min, max), (next_min, _)) = (pair[0].bounds(), pair[1].bounds());
        let (set, next) = (pair[0].ascii(), pair[1].ascii());
        min == max || (next_min >= 1 && set[0] & next[0] == 0 && set[1] & next[1] == 0)
    });
    greedy.then_some(Fast::AsciiRuns { head, runs, end })
}

/// `branches` as the `head` of [`Fast::AsciiRuns`], when each is a non-empty literal and
/// none is a prefix of another (so at most one starts an input).
fn literal_choice(branches: &[Node]) -> Option<Choice> {
    let mut literals = Vec::with_capacity(branches.len());
    for branch in branches {
        let mut seq = Vec::new();
        flatten(branch, &mut seq);
        let text = literal(&seq)?;
        if text.is_empty() {
            return None;
        }
        literals.push(text);
    }
    let prefix_free = literals.iter().enumerate().all(|(i, a)| {
        literals
            .iter()
            .enumerate()
            .all(|(j, b)| i == j || !b.starts_with(a.as_str()))
    });
    prefix_free.then(|| Choice::of(literals.iter().map(String::as_str)))
}

/// `item` as a class run, when it is a class or character, repeated or not.
fn class_run(item: &Node, start: bool, end: bool) -> Option<Fast> {
    let (set, min, max) = run(item)?;
    let (ascii, _) = split_ascii(&set);
    let ranges = set
        .iter()
        .filter(|&&(_, b)| b >= 0x80)
        .flat_map(|&(a, b)| [a.max(0x80), b])
        .collect();
    Some(Fast::ClassRun {
        ascii,
        ranges,
        min,
        max,
        start,
        end,
    })
}

fn strip_groups(node: &Node) -> &Node {
    match node {
        Node::Group(n) => strip_groups(n),
        n => n,
    }
}

/// The code points of a class, as the NFA compiles it.
fn class_set(class: &Class) -> Option<Ranges> {
    let mut all = Vec::new();
    for item in &class.items {
        all.extend(item_ranges(item).ok()?);
    }
    let ranges = normalize(all);
    Some(if class.negated {
        negate(&ranges)
    } else {
        ranges
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac_runtime::regex::syntax::parse;

    fn fast(p: &str) -> Option<Fast> {
        analyze(&parse(p, 128).expect("valid"))
    }

    #[test]
    fn recognizes_the_shapes() {
        let lit = |t: &str, start, end| {
            Some(Fast::Literal {
                text: t.to_string(),
                start,
                end,
            })
        };
        assert_eq!(fast("abc"), lit("abc", false, false));
        assert_eq!(fast("^(?:ab)(c)$"), lit("abc", true, true));
        assert_eq!(fast("abc$"), lit("abc", false, true));
        assert_eq!(fast(""), lit("", false, false));
        assert_eq!(fast("^$"), lit("", true, true));
        assert_eq!(fast("^ab.[0-9]"), Some(Fast::Prefix("ab".into())));
        let prefix = |p| fast(p).and_then(|f| f.anchored_prefix());
        assert_eq!(prefix("^ab.[0-9]"), Some("ab".into()));
        assert_eq!(prefix("^ab[0-9]"), Some("ab".into()));
        assert_eq!(prefix("^abc$"), Some("abc".into()));
        assert_eq!(prefix("^a[bc]d"), Some("a".into()));
        assert_eq!(prefix("^a{2}b"), None);
        assert_eq!(prefix("^(a|b)c"), None);
        assert_eq!(prefix("abc"), None);
        assert_eq!(fast("ab[0-9]"), None);
        assert_eq!(fast("^a|b"), None);
        let leading = |members: &str, non_ascii| {
            let mut ascii = [0u64; 2];
            for b in members.bytes() {
                ascii[usize::from(b / 64)] |= 1 << (b % 64);
            }
            Some(Fast::Leading { ascii, non_ascii })
        };
        // A run of varying length followed by one that overlaps it, or by one that may
        // be empty: no greedy scan; a literal choice where one starts another: neither.
        assert_eq!(fast("^[a-c]+[c-d]"), leading("abc", false));
        assert_eq!(fast("^[a-c]+b?d"), leading("abc", false));
        assert_eq!(fast("^(a|ab)_"), leading("a", false));
        assert_eq!(fast("^[a-c]+é"), leading("abc", false));
        assert_eq!(fast("^(?:é|x)y*."), leading("x", true));
        // Nothing to reject: may match the empty string, or start anywhere.
        assert_eq!(fast("^[a-c]*."), None);
        assert_eq!(fast("^(a|)b"), None);
        assert_eq!(fast("^(?=a)ab*c"), None);
        assert_eq!(fast("^[^a]?[\\s\\S]x"), None);
        // A lone surrogate is no literal; inputs starting with ASCII cannot match.
        assert_eq!(
            fast("^\\uD800x"),
            Some(Fast::Leading {
                ascii: [0, 0],
                non_ascii: true
            })
        );
        match fast("^[a-z0-9_é-]{1,64}$") {
            Some(Fast::ClassRun {
                ascii,
                ranges,
                min: 1,
                max: 64,
                start: true,
                end: true,
            }) => {
                assert_eq!(ranges, vec![0xE9, 0xE9]);
                assert_eq!(ascii[0], (0x3FF << 48) | (1 << 45));
                assert_eq!(ascii[1], (0x3FF_FFFF << 33) | (1 << 31));
            }
            other => panic!("{other:?}"),
        }
        match fast("[^a]+") {
            Some(Fast::ClassRun {
                ranges,
                max,
                start: false,
                end: false,
                ..
            }) => {
                assert_eq!(ranges, vec![0x80, 0x10FFFF]);
                assert_eq!(max, u32::MAX);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            fast("^(?:a)*$"),
            Some(Fast::ClassRun { min: 0, .. })
        ));
        assert!(matches!(
            fast("\\d"),
            Some(Fast::ClassRun { min: 1, max: 1, .. })
        ));
        assert!(matches!(
            fast("^[a-z]+\\b"),
            Some(Fast::Leading {
                non_ascii: false,
                ..
            })
        ));
        assert_eq!(fast("(?=a)b"), None);
    }

    #[test]
    fn recognizes_ascii_runs() {
        let set = |members: &str| {
            let mut ascii = [0u64; 2];
            for b in members.bytes() {
                ascii[usize::from(b / 64)] |= 1 << (b % 64);
            }
            ascii
        };
        let digits = set("0123456789");
        let abc = set("abc");
        let runs = |head: &[&str], runs: Vec<AsciiRun>, end| {
            Some(Fast::AsciiRuns {
                head: Choice::of(head.iter().copied()),
                runs,
                end,
            })
        };
        assert_eq!(
            fast("^[a-c]+_\\d{1,4}$"),
            runs(
                &[],
                vec![
                    AsciiRun::new(abc, 1, u32::MAX),
                    AsciiRun::new(set("_"), 1, 1),
                    AsciiRun::new(digits, 1, 4),
                ],
                true
            )
        );
        // A run of fixed length may be followed by anything.
        assert_eq!(
            fast("^x[a-c][a-c0-9]*"),
            runs(
                &[],
                vec![
                    AsciiRun::new(set("x"), 1, 1),
                    AsciiRun::new(abc, 1, 1),
                    AsciiRun::new(set("abc0123456789"), 0, u32::MAX),
                ],
                false
            )
        );
        assert_eq!(
            fast("^(get|put|post)_[a-c]+$"),
            runs(
                &["get", "put", "post"],
                vec![
                    AsciiRun::new(set("_"), 1, 1),
                    AsciiRun::new(abc, 1, u32::MAX),
                ],
                true
            )
        );
        assert_eq!(fast("^(?:get|put)$"), runs(&["get", "put"], vec![], true));
        // The literals need not be ASCII.
        assert_eq!(
            fast("^(?:é|x)y*z"),
            runs(
                &["é", "x"],
                vec![
                    AsciiRun::new(set("y"), 0, u32::MAX),
                    AsciiRun::new(set("z"), 1, 1),
                ],
                false
            )
        );
        // Unanchored, or one run alone: other shapes.
        assert!(!matches!(fast("[a-c]+_"), Some(Fast::AsciiRuns { .. })));
        assert!(matches!(fast("^[a-c]+$"), Some(Fast::ClassRun { .. })));
    }
}
