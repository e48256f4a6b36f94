//! A node's shape, the key [`super::share`] groups nodes by: its checks written as bytes
//! with their targets left out (and, when sharing verdicts, their keyword paths), each
//! a tag and its fields, every text and list preceded by its length, so that no shape is
//! a prefix of another's reading and two shapes are equal exactly when the checks are
//! (JSON values included, numbers as they are held: `1` and `1.0` apart).

use super::{extends_location, Sharing};
use crate::ir::{CheckKind, Edge, Node, Program};
use schemac_runtime::json::Divisor;
use serde_json::{Number, Value};

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
            self.number(node.annotations.len() as u64);
            for annotation in &node.annotations {
                self.text(&annotation.keyword);
                self.value(&annotation.value);
                self.out.push(u8::from(annotation.strings_only));
            }
        }
        self.number(node.checks.len() as u64);
        for check in &node.checks {
            if self.sharing == Sharing::Errors {
                self.out.push(u8::from(check.annotates));
            }
            self.check(&check.kind);
        }
    }

    /// One check: a tag, then its fields.
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
            CheckKind::False => self.out.push(20),
            CheckKind::Type(types) => self.out.extend([21, types.0]),
            CheckKind::IntegerLiteral(types) => self.out.extend([22, types.0]),
            CheckKind::Const(value) => {
                self.out.push(23);
                self.value(value);
            }
            CheckKind::Enum(values) => {
                self.out.push(24);
                self.values(values);
            }
            CheckKind::MultipleOf(divisor) => match divisor {
                Divisor::Integer(n) => self.tagged_number(25, *n),
                Divisor::Float(f) => self.tagged_number(26, f.to_bits()),
            },
            CheckKind::Minimum(n) => self.bound(27, n),
            CheckKind::Maximum(n) => self.bound(28, n),
            CheckKind::ExclusiveMinimum(n) => self.bound(29, n),
            CheckKind::ExclusiveMaximum(n) => self.bound(30, n),
            CheckKind::MinLength(n) => self.tagged_number(31, *n),
            CheckKind::MaxLength(n) => self.tagged_number(32, *n),
            CheckKind::MinItems(n) => self.tagged_number(33, *n),
            CheckKind::MaxItems(n) => self.tagged_number(34, *n),
            CheckKind::MinProperties(n) => self.tagged_number(35, *n),
            CheckKind::MaxProperties(n) => self.tagged_number(36, *n),
            CheckKind::Pattern(id) => self.tagged_number(37, id.0 as u64),
            CheckKind::Format(name) => {
                self.out.push(38);
                self.text(name);
            }
            CheckKind::ContentBase64 => self.out.push(39),
            CheckKind::ContentJson { base64 } => self.out.extend([40, u8::from(*base64)]),
            CheckKind::UniqueItems => self.out.push(41),
            CheckKind::Required(names) => {
                self.out.push(42);
                self.texts(names);
            }
            CheckKind::DependentRequired(entries) => {
                self.tagged_number(43, entries.len() as u64);
                for (name, names) in entries {
                    self.text(name);
                    self.texts(names);
                }
            }
            CheckKind::Unresolved { uri } => {
                self.out.push(44);
                self.text(uri);
            }
            // Each occurrence has an id of its own: never shared.
            CheckKind::Custom(custom) => self.tagged_number(45, custom.id as u64),
        }
    }

    /// A tag, then a number.
    fn tagged_number(&mut self, tag: u8, n: u64) {
        self.out.push(tag);
        self.number(n);
    }

    /// A tag, then a JSON number as it is held: an unsigned or a negative integer, or a
    /// float (`1` and `1.0` apart).
    fn bound(&mut self, tag: u8, n: &Number) {
        self.out.push(tag);
        self.json_number(n);
    }

    fn json_number(&mut self, n: &Number) {
        if let Some(u) = n.as_u64() {
            self.tagged_number(0, u);
        } else if let Some(i) = n.as_i64() {
            self.tagged_number(1, i as u64);
        } else {
            self.tagged_number(2, n.as_f64().unwrap_or_default().to_bits());
        }
    }

    /// A JSON value: a tag per kind, then its content (members in the map's order).
    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.out.push(0),
            Value::Bool(b) => self.out.extend([1, u8::from(*b)]),
            Value::Number(n) => {
                self.out.push(2);
                self.json_number(n);
            }
            Value::String(text) => {
                self.out.push(3);
                self.text(text);
            }
            Value::Array(items) => {
                self.out.push(4);
                self.values(items);
            }
            Value::Object(members) => {
                self.tagged_number(5, members.len() as u64);
                for (name, member) in members {
                    self.text(name);
                    self.value(member);
                }
            }
        }
    }

    /// The number of `values`, then each.
    fn values(&mut self, values: &[Value]) {
        self.number(values.len() as u64);
        for value in values {
            self.value(value);
        }
    }

    /// The number of `texts`, then each.
    fn texts(&mut self, texts: &[String]) {
        self.number(texts.len() as u64);
        for text in texts {
            self.text(text);
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

    /// `n` in LEB128: seven bits a byte, low first, the last byte's top bit clear (so no
    /// number's bytes are a prefix of another's).
    fn number(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.out.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.out.push(n as u8);
    }

    fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.out.extend(text.as_bytes());
    }

    /// Room for a number known only after what follows it is written ([`Shape::fill`]).
    fn reserve(&mut self) -> usize {
        self.out.extend([0; 8]);
        self.out.len() - 8
    }

    /// Writes `n` into the room [`Shape::reserve`] left at `at` (eight bytes, fixed).
    fn fill(&mut self, at: usize, n: u64) {
        self.out[at..at + 8].copy_from_slice(&n.to_le_bytes());
    }
}
