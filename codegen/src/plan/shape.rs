//! A node's shape, the key [`super::share`] groups nodes by: its checks written as bytes
//! with their targets left out (and, when sharing verdicts, their keyword paths), every
//! text and list preceded by its length, so that no shape is a prefix of another's
//! reading and two shapes are equal exactly when the checks are.

use super::{extends_location, Sharing};
use crate::ir::{CheckKind, Edge, Node, Program};
use std::io::Write as _;

/// Writes one node's shape.
pub(super) struct Shape<'a> {
    program: &'a Program,
    node: &'a Node,
    sharing: Sharing,
    /// Where the shape's bytes are appended.
    out: &'a mut Vec<u8>,

    /// Where the node's edge targets are appended, in [`CheckKind::edges`] order.
    targets: &'a mut Vec<usize>,
}

impl<'a> Shape<'a> {
    /// Appends `node`'s shape to `out`, and the node's edge targets to `targets`, in
    /// [`CheckKind::edges`] order.
    pub fn append(
        program: &'a Program,
        node: &'a Node,
        sharing: Sharing,
        out: &'a mut Vec<u8>,
        targets: &'a mut Vec<usize>,
    ) {
        Shape {
            program,
            node,
            sharing,
            out,
            targets,
        }
        .node();
    }

    fn node(&mut self) {
        let node = self.node;
        let collect = &node.collect;
        // An annotated node is never constant (see `constant`): a class of its own.
        let flags = [
            collect.properties,
            collect.items,
            collect.given,
            node.annotations.is_empty(),
        ];
        self.out.extend(flags.map(u8::from));
        if self.program.uses_dynamic_scope {
            self.number(node.resource.0 as u64);
            self.out.push(u8::from(node.is_resource_root));
        }
        if self.sharing == Sharing::Errors {
            self.debug(&node.annotations);
        }
        self.number(node.checks.len() as u64);
        for check in &node.checks {
            if self.sharing == Sharing::Errors {
                self.out.push(u8::from(check.annotates));
            }
            self.check(&check.kind);
        }
    }

    /// One check: a tag, then its fields; a leaf check (no edges) as its `Debug` text.
    fn check(&mut self, kind: &CheckKind) {
        match kind {
            CheckKind::Ref(e) => self.tagged(1, [e]),
            CheckKind::Not(e) => self.tagged(2, [e]),
            CheckKind::PropertyNames(e) => self.tagged(3, [e]),
            CheckKind::UnevaluatedProperties(e) => self.tagged(4, [e]),
            CheckKind::UnevaluatedItems(e) => self.tagged(5, [e]),
            CheckKind::AllOf(es) => self.tagged(6, es),
            CheckKind::AnyOf(es) => self.tagged(7, es),
            CheckKind::OneOf(es) => self.tagged(8, es),
            CheckKind::PrefixItems(es) => self.tagged(9, es),
            CheckKind::DynamicRef { fallback, anchor } => {
                self.tagged(10, [fallback]);
                self.out.push(u8::from(anchor.is_some()));
                self.text(anchor.as_deref().unwrap_or_default());
            }
            CheckKind::IfThenElse {
                condition,
                then,
                otherwise,
            } => {
                self.out
                    .extend([11, u8::from(then.is_some()), u8::from(otherwise.is_some())]);
                self.edges([condition].into_iter().chain(then).chain(otherwise));
            }
            CheckKind::DependentSchemas(entries) | CheckKind::Properties(entries) => {
                let tag = if matches!(kind, CheckKind::Properties(_)) {
                    12
                } else {
                    13
                };
                self.out.push(tag);
                self.number(entries.len() as u64);
                for (name, _) in entries {
                    self.text(name);
                }
                self.edges(entries.iter().map(|(_, e)| e));
            }
            CheckKind::PatternProperties(entries) => {
                self.out.push(14);
                self.number(entries.len() as u64);
                for (id, _) in entries {
                    self.number(id.0 as u64);
                }
                self.edges(entries.iter().map(|(_, e)| e));
            }
            CheckKind::AdditionalProperties {
                schema,
                known,
                patterns,
            } => {
                self.tagged(15, [schema]);
                self.number(known.len() as u64);
                for name in known {
                    self.text(name);
                }
                self.number(patterns.len() as u64);
                for id in patterns {
                    self.number(id.0 as u64);
                }
            }
            CheckKind::Items { schema, skip } => {
                self.tagged(16, [schema]);
                self.number(*skip as u64);
            }
            CheckKind::Contains { schema, min, max } => {
                self.tagged(17, [schema]);
                self.number(*min);
                self.out.push(u8::from(max.is_some()));
                self.number(max.unwrap_or_default());
            }
            leaf => {
                debug_assert!(leaf.edges().next().is_none());
                self.out.push(0);
                self.debug(leaf);
            }
        }
    }

    /// A tag, then `edges`.
    fn tagged<'e>(&mut self, tag: u8, edges: impl IntoIterator<Item = &'e Edge>) {
        self.out.push(tag);
        self.edges(edges);
    }

    /// The number of `edges`, then each: nothing but its place in the targets when
    /// sharing verdicts; for errors its keyword path, and the child's location when it
    /// does not extend the node's.
    fn edges<'e>(&mut self, edges: impl IntoIterator<Item = &'e Edge>) {
        let (at, start) = (self.reserve(), self.targets.len());
        for edge in edges {
            self.targets.push(edge.target.0);
            if self.sharing == Sharing::Errors {
                self.text(&edge.path);
                let extends = extends_location(self.program, self.node, edge);
                self.out.push(u8::from(extends));
                if !extends {
                    self.text(&self.program.node(edge.target).uri);
                }
            }
        }
        self.fill(at, (self.targets.len() - start) as u64);
    }

    fn number(&mut self, n: u64) {
        self.out.extend(n.to_le_bytes());
    }

    fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.out.extend(text.as_bytes());
    }

    /// `value`'s `Debug` text, length-prefixed.
    fn debug(&mut self, value: &impl std::fmt::Debug) {
        let at = self.reserve();
        // (Writing into a `Vec` cannot fail.)
        let _ = write!(self.out, "{value:?}");
        self.fill(at, (self.out.len() - at - 8) as u64);
    }

    /// Room for a number known only after what follows it is written ([`Shape::fill`]).
    fn reserve(&mut self) -> usize {
        self.number(0);
        self.out.len() - 8
    }

    /// Writes `n` into the room [`Shape::reserve`] left at `at`.
    fn fill(&mut self, at: usize, n: u64) {
        self.out[at..at + 8].copy_from_slice(&n.to_le_bytes());
    }
}
