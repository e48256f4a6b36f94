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
//! - otherwise, after a `^`, literal characters then anything: [`Fast::Prefix`], a quick
//!   rejection before the automaton runs;
//! - otherwise, after a `^`, anything whose first code point is in a known set
//!   (`^[a-z]+_\d+$`, `^(get|put)_`): [`Fast::Leading`], a rejection by the first byte.

use schemac_runtime::regex::syntax::{Assertion, Class, Node};

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

/// `item` as a class run, when it is a class or character, repeated or not.
fn class_run(item: &Node, start: bool, end: bool) -> Option<Fast> {
    let (atom, min, max) = match item {
        Node::Repeat { node, min, max, .. } => (strip_groups(node), *min, max.unwrap_or(u32::MAX)),
        n => (n, 1, 1),
    };
    let set = match atom {
        Node::Char(c) => vec![(*c, *c)],
        Node::Class(class) => class_set(class)?,
        _ => return None,
    };
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
        assert_eq!(fast("^ab[0-9]"), Some(Fast::Prefix("ab".into())));
        assert_eq!(fast("ab[0-9]"), None);
        assert_eq!(fast("^a|b"), None);
        let leading = |members: &str, non_ascii| {
            let mut ascii = [0u64; 2];
            for b in members.bytes() {
                ascii[usize::from(b / 64)] |= 1 << (b % 64);
            }
            Some(Fast::Leading { ascii, non_ascii })
        };
        assert_eq!(
            fast("^(get|put|post|delete)_[a-z]+$"),
            leading("dgp", false)
        );
        assert_eq!(fast("^[a-c]+_\\d{1,4}$"), leading("abc", false));
        assert_eq!(fast("^(?:é|x)y*z"), leading("x", true));
        // Nothing to reject: may match the empty string, or start anywhere.
        assert_eq!(fast("^[a-c]*_"), None);
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
}
