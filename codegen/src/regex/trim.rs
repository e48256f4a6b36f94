//! Trimming a pattern to what an unanchored search needs.
//!
//! `is_match` asks only whether some substring matches, so a counted repetition at either
//! free end of the pattern need only be matched its least number of times:
//!
//! - `X{m,n} R` (no `^` before it) matches somewhere exactly when `X{m} R` does: a match
//!   `X^k R` with `k ≥ m` contains the match `X^m R` that starts after its first `k - m`
//!   copies of `X` (each copy matches on its own; there are no backreferences, and
//!   assertions look at the input, not at where the match began);
//! - `R X{m,n}` (no `$` after it) matches exactly when `R X{m}` does (a prefix of the
//!   match).
//!
//! So `a{0,33332}b` is `b`, `.*foo.*` is the literal `foo`, `\d+px` is `\dpx`: the automata
//! and the fast paths see the smaller pattern. Each branch of a top-level alternation is
//! trimmed on its own (a search for `A|B` is a search for `A` or for `B`).

use schemac_runtime::regex::syntax::Node;

/// `node` trimmed for an unanchored search (see the module doc).
pub(crate) fn for_search(node: Node) -> Node {
    match node {
        Node::Alt(branches) => Node::Alt(branches.into_iter().map(for_search).collect()),
        Node::Group(inner) if matches!(*inner, Node::Alt(_)) => for_search(*inner),
        node => {
            let mut seq = Vec::new();
            flatten(node, &mut seq);
            trim_front(&mut seq);
            seq.reverse();
            trim_front(&mut seq);
            seq.reverse();
            match seq.len() {
                0 => Node::Empty,
                1 => seq.pop().unwrap_or(Node::Empty),
                _ => Node::Concat(seq),
            }
        }
    }
}

/// The sequence `node` stands for, with non-alternation groups and nested sequences opened
/// up (captures do not matter to a match / no-match answer).
fn flatten(node: Node, out: &mut Vec<Node>) {
    match node {
        Node::Empty => {}
        Node::Concat(v) => v.into_iter().for_each(|n| flatten(n, out)),
        Node::Group(inner) if !matches!(*inner, Node::Alt(_)) => flatten(*inner, out),
        n => out.push(n),
    }
}

/// Drops or shortens repetitions at the front of `seq` (used on the reversed sequence for
/// the back). Stops at the first item that is not a repetition, and at an anchor.
fn trim_front(seq: &mut Vec<Node>) {
    loop {
        match seq.first_mut() {
            Some(Node::Repeat { min: 0, .. }) => {
                seq.remove(0);
            }
            Some(Node::Repeat { min, max, .. }) => {
                *max = Some(*min);
                return;
            }
            // Anything else, an anchor (`^`, `$`, `\b`) included, ends the free end.
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::for_search;
    use schemac_runtime::regex::syntax::parse;

    fn trimmed(p: &str) -> String {
        format!("{:?}", for_search(parse(p, 128).expect("valid")))
    }

    fn same(a: &str, b: &str) {
        assert_eq!(
            trimmed(a),
            format!("{:?}", parse(b, 128).expect("valid")),
            "{a} vs {b}"
        );
    }

    #[test]
    fn free_ends_lose_their_optional_copies() {
        same("a{0,33332}b", "b");
        same("a{2,9}b", "a{2}b");
        same("a+b", "a{1}b");
        same("ba{2,}", "ba{2}");
        same("ba*", "b");
        same("a*", "");
        same("a*b*c", "c");
        same("^a*b", "^a*b");
        same("ba*$", "ba*$");
        same("(?:x*y)|z+", "y|z{1}");
        same("(x*y|z+)", "y|z{1}");
    }
}
