//! The compiled program: a graph of nodes, one per reachable subschema, each a list of
//! checks. Produced by [`crate::check`], read by [`crate::interp`] and [`crate::emit`].
//!
//! Every reference is resolved to a [`NodeId`]; every pattern is compiled once into
//! [`Program::regexes`]. Every dialect lowers to the same checks: in draft-04/06/07 and
//! 2019-09 an `items` array becomes [`CheckKind::PrefixItems`], `additionalItems` becomes
//! [`CheckKind::Items`] with a `skip`, `dependencies` becomes
//! [`CheckKind::DependentRequired`] / [`CheckKind::DependentSchemas`], 2019-09's
//! `$recursiveRef` a [`CheckKind::DynamicRef`]; draft-04's boolean `exclusiveMaximum`
//! turns its sibling `maximum` into [`CheckKind::ExclusiveMaximum`] (likewise minimum).
//! Only two rules have check kinds of their own: draft-04's integers
//! ([`CheckKind::IntegerLiteral`]) and draft-07's asserted content
//! ([`CheckKind::ContentBase64`], [`CheckKind::ContentJson`]).
//!
//! Keyword locations: a node's errors are located at the evaluation path that reached it
//! plus the check's `keyword`; a child is reached through an [`Edge`] whose `path` is the
//! pointer suffix from the parent node (`/properties/name`, `/allOf/0`, `/$ref`).
//! Absolute keyword locations are [`Node::uri`] plus `/keyword`.
//!
//! Annotations (only lowered under [`crate::Options::annotations`]): a node that passes
//! gives its [`Node::annotations`] at its instance location, keyword location
//! `path + "/" + keyword`; an evaluation that fails drops every annotation it and its
//! children gave, and so do `not` and the subschemas of `contains` that do not match.
//!
//! Applicator annotations (checks with [`Check::annotates`] set, on an instance of the
//! type they apply to): each is given right after its check ran (the fused pass over an
//! object's properties counts as one run: its checks annotate after it, in check order),
//! after the annotations of its children and before the node's own [`Node::annotations`],
//! at the node's instance location, keyword location `path + "/" + keyword`:
//! - `properties`, `patternProperties`, `additionalProperties`, `unevaluatedProperties`:
//!   the array of the instance's property names the keyword applied its subschema to, in
//!   the object's order (possibly empty); the names of `patternProperties` and
//!   `additionalProperties` are found by trying the patterns again, in order, each match
//!   charged to the budget as during validation;
//! - `prefixItems` (2019-09: `items` as an array): the largest index it applied to, or
//!   `true` when it applied to every item; nothing on an empty array;
//! - `items` (2019-09: also `additionalItems`) and `unevaluatedItems`: `true` when they
//!   applied to an item, else nothing;
//! - `contains` (2020-12 only; 2019-09's gives none): the array of the indices whose item
//!   matched, ascending (empty when none did).
//!
//! # Evaluation semantics (both backends implement exactly this)
//!
//! - **Budget and depth.** Every node evaluation (boolean-schema nodes included) is paid
//!   for, and nesting is bounded, at the points [`crate::plan`] chooses: entering an
//!   out-of-line node calls [`schemac_runtime::Budget::enter_region`] and afterwards
//!   `leave`; applying a node that may recur to a child instance is wrapped in
//!   `step_in` / `step_out`. Each
//!   `unevaluatedProperties` / `unevaluatedItems` check that runs on an object / array
//!   additionally calls `charge_locations(len)` with the object's property count / the
//!   array's length. Running out, or reaching a [`CheckKind::Unresolved`] check, aborts the
//!   whole validation: the verdict is `Incomplete(reason)` unless errors were already
//!   collected (then `Invalid`).
//! - **Short-circuit mode** (`check` / `is_valid`) stops at the first failure. A node that
//!   must collect evaluated locations ([`Node::collect`]) evaluates every branch of
//!   `anyOf` (all valid branches contribute annotations) but may still stop on failure.
//! - **Errors** (`validate`) — every check runs, in order, and:
//!   - an assertion that fails gives one error at the current instance location, keyword
//!     location `path + "/" + keyword`, absolute keyword location `node.uri + "/" + keyword`
//!     (`required` and `dependentRequired`: one error per missing property);
//!   - [`CheckKind::False`] (keyword `""`) gives one `FalseSchema` error located at the
//!     node itself (keyword location `path`, absolute `node.uri`);
//!   - `$ref`, `$dynamicRef`, `allOf`, `properties`, `patternProperties`,
//!     `additionalProperties`, `prefixItems`, `items`, `dependentSchemas`, `then`/`else`,
//!     `unevaluatedProperties`, `unevaluatedItems` and `propertyNames` pass their
//!     children's errors up and add none of their own (children of `propertyNames` are
//!     located at the object's instance location, since a key has no location of its own);
//!   - `anyOf`, `oneOf`, `not` and `contains` give one error of their own at the keyword
//!     and drop their children's errors; `if` never reports its own errors.
//! - **Annotations** (only in nodes with `collect` set): a node's evaluated properties are
//!   the instance keys named by `properties`, matched by `patternProperties`, covered by
//!   `additionalProperties` and `unevaluatedProperties`, plus those of every *valid*
//!   in-place child (`$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `if` whenever it
//!   is valid — with or without a `then` —, `then` when `if` is valid, `else` when `if`
//!   fails, `dependentSchemas`; never `not`). Evaluated
//!   items likewise: indices below the `prefixItems` length, all from `items`,
//!   the indices matched by `contains`, all from `unevaluatedItems`. An invalid node
//!   contributes nothing.
//! - **Dynamic scope** (only when [`Program::uses_dynamic_scope`]): a stack of resources;
//!   entering a node whose resource differs from the top pushes it (popped on leaving).
//!   A `$dynamicRef` with an `anchor` takes the outermost resource on the stack that
//!   declares that `$dynamicAnchor`, else its `fallback`.

pub mod analyse;
pub mod defaults;
pub mod kind;

use crate::error::CompileWarning;
use crate::regex::CompiledRegex;
use kind::Kind;
use schemac_runtime::error::TypeSet;
use schemac_runtime::json::Divisor;
use schemac_runtime::Limits;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Index of a node in [`Program::nodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub usize);

/// Index of a pattern in [`Program::regexes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegexId(pub usize);

/// Index of a schema resource in [`Program::resources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub usize);

impl ResourceId {
    /// The number the runtime's dynamic scope knows the resource by
    /// ([`schemac_runtime::engine::State::push_scope`]).
    pub fn scope_key(self) -> u32 {
        self.0 as u32
    }
}

/// A compiled schema (and everything it references).
#[derive(Debug, Clone)]
pub struct Program {
    /// All nodes; a node's children always have ids in this vector.
    pub nodes: Vec<Node>,
    /// Every distinct pattern, compiled.
    pub regexes: Vec<RegexEntry>,
    /// Every schema resource (a `$id`, or a document root) that nodes belong to.
    pub resources: Vec<Resource>,
    /// The entry point.
    pub root: NodeId,
    /// Run-time limits the program validates under.
    pub limits: Limits,
    /// Whether any `$dynamicRef` may resolve dynamically, so evaluation must keep the
    /// dynamic scope (the stack of resources entered).
    pub uses_dynamic_scope: bool,
    /// Warnings raised while compiling.
    pub warnings: Vec<CompileWarning>,
    /// What `apply_defaults` inserts ([`defaults`]): planned only under
    /// [`crate::Options::defaults`], else `None`.
    pub defaults: Option<defaults::Defaults>,
}

impl Program {
    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// `(resource index, node)` for every resource declaring dynamic anchor `name`, in
    /// resource order: where a `$dynamicRef` to `name` may land.
    pub fn dynamic_targets(&self, name: &str) -> Vec<(usize, NodeId)> {
        self.resources
            .iter()
            .enumerate()
            .filter_map(|(r, res)| res.dynamic_anchors.get(name).map(|&t| (r, t)))
            .collect()
    }

    /// [`Program::dynamic_targets`] of every anchor name at once, in one pass over the
    /// resources: for analyses that visit many `$dynamicRef`s, each then costs a lookup
    /// rather than a scan of every resource.
    pub fn dynamic_targets_by_name(&self) -> BTreeMap<&str, Vec<(usize, NodeId)>> {
        let mut by_name: BTreeMap<&str, Vec<(usize, NodeId)>> = BTreeMap::new();
        for (r, resource) in self.resources.iter().enumerate() {
            for (name, &target) in &resource.dynamic_anchors {
                by_name.entry(name).or_default().push((r, target));
            }
        }
        by_name
    }
}

/// A schema resource: a subschema with `$id`, or a document root.
#[derive(Debug, Clone)]
pub struct Resource {
    /// Its absolute URI (no fragment).
    pub uri: String,
    /// `$dynamicAnchor`s declared in it, by name.
    pub dynamic_anchors: BTreeMap<String, NodeId>,
}

/// One pattern.
#[derive(Debug, Clone)]
pub struct RegexEntry {
    /// The ECMA-262 source text.
    pub source: String,
    /// The compiled matcher; `None` when the engine refused the pattern and the
    /// unsupported-regex policy says to ignore it.
    pub compiled: Option<CompiledRegex>,
}

/// One subschema: checks on one instance location.
#[derive(Debug, Clone)]
pub struct Node {
    /// Absolute URI of the subschema: its resource's URI plus a JSON-pointer fragment
    /// (`https://example.com/s.json#/properties/a`). Absolute keyword locations extend it.
    pub uri: String,
    /// The resource the subschema belongs to.
    pub resource: ResourceId,
    /// Whether this node is the root of its resource (entering it extends the dynamic scope).
    pub is_resource_root: bool,
    /// The checks, in evaluation order. `unevaluatedProperties` / `unevaluatedItems` come
    /// last, after every check that produces annotations.
    pub checks: Vec<Check>,
    /// Filled by [`analyse`]: which evaluated-location sets this node must produce.
    pub collect: Collect,
    /// The annotations the subschema gives when it passes, in schema order; lowered only
    /// under [`crate::Options::annotations`] (else empty, and nothing about the program
    /// changes).
    pub annotations: Vec<Annotation>,
    /// The subschema's `default`; lowered only under [`crate::Options::defaults`].
    pub default: Option<Box<Value>>,
}

/// An annotating keyword of a node (2020-12 §7.7): meta-data, `format`, content and
/// unknown keywords. Its value is the annotation; its keyword location is the node's
/// evaluation path plus `/keyword`, as for a check.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The keyword's name.
    pub keyword: String,
    /// The keyword's value.
    pub value: Value,
    /// Whether it annotates strings only (the content keywords).
    pub strings_only: bool,
}

/// Which evaluated-location sets a node must produce for an `unevaluated*` keyword that
/// can see it (its own, or one in a schema that applies it in place).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collect {
    /// Evaluated property names.
    pub properties: bool,
    /// Evaluated array indices.
    pub items: bool,
    /// The sets are given to a node that applies this one in place (one that collects);
    /// else only the node's own `unevaluated*` reads them.
    pub given: bool,
}

/// An edge to a child node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The child.
    pub target: NodeId,
    /// Keyword-location suffix from the parent node: `/properties/a~1b`, `/allOf/0`, `/$ref`.
    pub path: String,
}

/// One check of a node.
#[derive(Debug, Clone)]
pub struct Check {
    /// The keyword's name as it appears in the schema (`minimum`, `items`,
    /// `additionalItems`): the keyword location of its own errors is `/keyword`. (A
    /// dialect's keyword is the compiler's own text, a custom one a copy.)
    pub keyword: Cow<'static, str>,
    /// What it checks.
    pub kind: CheckKind,
    /// Whether the check gives its own annotation when its node passes (an applicator of
    /// 2020-12 §10.3 / §11 or 2019-09 §9.3 / §9.3.2.4; see "Applicator annotations" above):
    /// set only under [`crate::Options::annotations`], in 2019-09 and 2020-12 resources.
    pub annotates: bool,
}

/// What a check checks.
#[derive(Debug, Clone)]
pub enum CheckKind {
    /// The `false` schema: nothing is valid.
    False,
    /// `type`.
    Type(TypeSet),
    /// draft-04's rule for integers, beside the `type` check (keyword `type`, holding its
    /// set for the error): fails on a number held as an `f64` with no fractional part
    /// inside the i64/u64 range (`1.0`), which was written with a fraction or an exponent
    /// and so is not a draft-04 integer ([`schemac_runtime::json::is_integral_float`]).
    /// Lowered only when the set has `integer` and not `number`.
    IntegerLiteral(TypeSet),
    /// `const`.
    Const(Value),
    /// `enum`.
    Enum(Vec<Value>),
    /// `multipleOf` (a positive number, an integer exactly).
    MultipleOf(Divisor),
    /// `minimum`.
    Minimum(Number),
    /// `maximum`.
    Maximum(Number),
    /// `exclusiveMinimum` (the numeric form of draft-06 and later; draft-04's `minimum` with
    /// `exclusiveMinimum: true`).
    ExclusiveMinimum(Number),
    /// `exclusiveMaximum`.
    ExclusiveMaximum(Number),
    /// `minLength`, in code points.
    MinLength(u64),
    /// `maxLength`, in code points.
    MaxLength(u64),
    /// `pattern`: unanchored search. Skipped when the regex entry is `None` (ignored).
    Pattern(RegexId),
    /// `format`, asserted (only emitted when format assertion is on and the format is
    /// known or custom).
    Format(String),
    /// draft-07 `contentEncoding: base64`, asserted (option `assert_content`): a string
    /// must be base64 ([`schemac_runtime::content::is_base64`]).
    ContentBase64,
    /// draft-07 `contentMediaType: application/json`, asserted (option `assert_content`): a
    /// string — decoded first when `base64` (a sibling `contentEncoding: base64`) — must be
    /// JSON ([`schemac_runtime::content::is_json`]; one that does not decode passes here).
    ContentJson {
        /// Whether the string is base64-decoded first.
        base64: bool,
    },
    /// `minItems`.
    MinItems(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `minProperties`.
    MinProperties(u64),
    /// `maxProperties`.
    MaxProperties(u64),
    /// `required`.
    Required(Vec<String>),
    /// `dependentRequired` (draft-07: `dependencies` with an array).
    DependentRequired(Vec<(String, Vec<String>)>),
    /// `$ref` (draft-07: `$ref` alone, its siblings dropped).
    Ref(Edge),
    /// `$dynamicRef`. Resolves statically to `fallback`; when `anchor` is set (the static
    /// target declares a `$dynamicAnchor` of that name), the outermost resource in the
    /// dynamic scope that declares that dynamic anchor wins.
    DynamicRef {
        /// The statically resolved target.
        fallback: Edge,
        /// The dynamic anchor name, when the reference resolves dynamically.
        anchor: Option<String>,
    },
    /// A reference to a document that was not available (warn policy): reaching it makes
    /// the validation incomplete.
    Unresolved {
        /// The reference as written, resolved against its base.
        uri: String,
    },
    /// `allOf`.
    AllOf(Vec<Edge>),
    /// `anyOf`.
    AnyOf(Vec<Edge>),
    /// `oneOf`.
    OneOf(Vec<Edge>),
    /// `not`.
    Not(Edge),
    /// `if` / `then` / `else` (the check's keyword is `if`).
    IfThenElse {
        /// `if`.
        condition: Edge,
        /// `then`, if present.
        then: Option<Edge>,
        /// `else`, if present.
        otherwise: Option<Edge>,
    },
    /// `dependentSchemas` (draft-07: `dependencies` with a schema).
    DependentSchemas(Vec<(String, Edge)>),
    /// `properties`.
    Properties(Vec<(String, Edge)>),
    /// `patternProperties`.
    PatternProperties(Vec<(RegexId, Edge)>),
    /// `additionalProperties`: applies to every property not named in the sibling
    /// `properties` and not matched by a sibling `patternProperties` pattern.
    AdditionalProperties {
        /// The schema.
        schema: Edge,
        /// Sibling `properties` names.
        known: Vec<String>,
        /// Sibling `patternProperties` patterns.
        patterns: Vec<RegexId>,
    },
    /// `propertyNames`: the schema applies to each key, as a string instance. Errors are
    /// located at the object (the key is not an instance location of its own).
    PropertyNames(Edge),
    /// `prefixItems` (draft-07: `items` as an array).
    PrefixItems(Vec<Edge>),
    /// `items` applying to every item from index `skip` on (2020-12: `skip` is the
    /// `prefixItems` length; draft-07 `additionalItems`: the `items` array length;
    /// draft-07 `items` as a schema: 0).
    Items {
        /// The schema.
        schema: Edge,
        /// How many leading items it does not apply to.
        skip: usize,
    },
    /// `contains` with `minContains` (default 1) and `maxContains`.
    Contains {
        /// The schema.
        schema: Edge,
        /// `minContains`.
        min: u64,
        /// `maxContains`.
        max: Option<u64>,
    },
    /// `unevaluatedProperties`.
    UnevaluatedProperties(Edge),
    /// `unevaluatedItems`.
    UnevaluatedItems(Edge),
    /// A custom keyword ([`crate::Options::custom_keywords`]; the check's keyword is its
    /// name): the caller's function, given the keyword's value and the instance, decides.
    Custom(Box<CustomKeyword>),
}

/// One occurrence of a custom keyword in a program.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomKeyword {
    /// Its number among the program's custom keywords, in lowering order (from 0, each
    /// once): what a backend finds the occurrence's check by.
    pub id: usize,
    /// The keyword's value.
    pub value: Value,
    /// Where it is, for errors about its value.
    pub location: crate::error::Location,
}

/// The child edges of a [`CheckKind`], shared by [`CheckKind::edges`] and
/// [`CheckKind::edges_mut`] (`$iter` / `$opt` pick shared or mutable access).
macro_rules! child_edges {
    ($kind:expr, $iter:ident, $opt:ident) => {
        match $kind {
            CheckKind::Ref(e)
            | CheckKind::Not(e)
            | CheckKind::PropertyNames(e)
            | CheckKind::UnevaluatedProperties(e)
            | CheckKind::UnevaluatedItems(e) => Edges::Few([Some(e), None, None]),
            CheckKind::DynamicRef { fallback, .. } => Edges::Few([Some(fallback), None, None]),
            CheckKind::AllOf(es)
            | CheckKind::AnyOf(es)
            | CheckKind::OneOf(es)
            | CheckKind::PrefixItems(es) => Edges::List(es.$iter()),
            CheckKind::IfThenElse {
                condition,
                then,
                otherwise,
            } => Edges::Few([Some(condition), then.$opt(), otherwise.$opt()]),
            CheckKind::DependentSchemas(es) | CheckKind::Properties(es) => Edges::Named(es.$iter()),
            CheckKind::PatternProperties(es) => Edges::Patterns(es.$iter()),
            CheckKind::AdditionalProperties { schema, .. }
            | CheckKind::Items { schema, .. }
            | CheckKind::Contains { schema, .. } => Edges::Few([Some(schema), None, None]),
            // Every kind is named: a new one must say whether it has children.
            CheckKind::False
            | CheckKind::Type(_)
            | CheckKind::IntegerLiteral(_)
            | CheckKind::Const(_)
            | CheckKind::Enum(_)
            | CheckKind::MultipleOf(_)
            | CheckKind::Minimum(_)
            | CheckKind::Maximum(_)
            | CheckKind::ExclusiveMinimum(_)
            | CheckKind::ExclusiveMaximum(_)
            | CheckKind::MinLength(_)
            | CheckKind::MaxLength(_)
            | CheckKind::Pattern(_)
            | CheckKind::Format(_)
            | CheckKind::ContentBase64
            | CheckKind::ContentJson { .. }
            | CheckKind::MinItems(_)
            | CheckKind::MaxItems(_)
            | CheckKind::UniqueItems
            | CheckKind::MinProperties(_)
            | CheckKind::MaxProperties(_)
            | CheckKind::Required(_)
            | CheckKind::DependentRequired(_)
            | CheckKind::Unresolved { .. }
            | CheckKind::Custom(_) => Edges::Few([None, None, None]),
        }
    };
}

/// How a check applies its subschemas ([`CheckKind::applies`]): what the budget's
/// amounts, the check order and evaluated-location collection are worked out from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// It has no subschema: an assertion.
    Nothing,
    /// To the instance itself: its subschemas' evaluated locations count as the node's.
    InPlace,
    /// To one named property or one index each: at most once per evaluation.
    Once,
    /// To each element it selects (properties, items, keys): once per element.
    PerElement,
}

/// What is known of a check from its kind ([`CheckKind::facts`]), read by the plan and
/// both backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// How it applies its subschemas.
    pub applies: Applies,
    /// The one kind of instance it reads, every other kind passing it without charging
    /// anything — for the checks that have one and are not decided by their data alone
    /// (`type`, the bounds, the counts, `required`, `const`, `enum` and the item and
    /// property applicators are split by each backend with their data).
    pub only_reads: Option<Kind>,
    /// It takes constant time and no state whatever the instance: a type, a numeric
    /// bound, a count bound, a scalar `const`.
    pub constant_time: bool,
}

/// The child edges of a check, in order, without allocating: [`CheckKind::edges`]
/// (`R` = `&Edge`) and [`CheckKind::edges_mut`] (`R` = `&mut Edge`), over the check's
/// own edges (`Few`, in order, `None`s skipped) or its lists.
#[derive(Debug)]
enum Edges<R, L, N, P> {
    /// Up to three edges held by the check itself.
    Few([Option<R>; 3]),
    /// A list of subschemas (`allOf`, `prefixItems`, …).
    List(L),
    /// Named subschemas (`properties`, `dependentSchemas`).
    Named(N),
    /// Subschemas by pattern (`patternProperties`).
    Patterns(P),
}

/// The edge of a list entry, reached through `R` (`&Edge` or `&mut Edge`).
trait EntryEdge<R> {
    /// The entry's edge.
    fn edge(self) -> R;
}

impl<'a, K> EntryEdge<&'a Edge> for &'a (K, Edge) {
    fn edge(self) -> &'a Edge {
        &self.1
    }
}

impl<'a, K> EntryEdge<&'a mut Edge> for &'a mut (K, Edge) {
    fn edge(self) -> &'a mut Edge {
        &mut self.1
    }
}

impl<R, L, N, P> Iterator for Edges<R, L, N, P>
where
    L: Iterator<Item = R>,
    N: Iterator,
    N::Item: EntryEdge<R>,
    P: Iterator,
    P::Item: EntryEdge<R>,
{
    type Item = R;

    fn next(&mut self) -> Option<R> {
        match self {
            Edges::Few(few) => few.iter_mut().find_map(Option::take),
            Edges::List(list) => list.next(),
            Edges::Named(entries) => entries.next().map(EntryEdge::edge),
            Edges::Patterns(entries) => entries.next().map(EntryEdge::edge),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Edges::Few(few) => {
                let n = few.iter().filter(|e| e.is_some()).count();
                (n, Some(n))
            }
            Edges::List(list) => list.size_hint(),
            Edges::Named(entries) => entries.size_hint(),
            Edges::Patterns(entries) => entries.size_hint(),
        }
    }
}

impl CheckKind {
    /// The child edges of this check, in order.
    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        child_edges!(self, iter, as_ref)
    }

    /// The child edges of this check, in order, for rewriting.
    pub fn edges_mut(&mut self) -> impl Iterator<Item = &mut Edge> {
        child_edges!(self, iter_mut, as_mut)
    }

    /// Whether the check depends on the instance's JSON type: backends run such checks
    /// grouped by the type they read (generated code's dispatch on the value's variant).
    /// Not `false`, an unresolved reference, a custom keyword, nor an in-place applicator
    /// but `dependentSchemas` (which applies only to objects).
    pub fn is_dispatchable(&self) -> bool {
        match self {
            dispatched_kind!() => true,
            undispatched_kind!() => false,
        }
    }

    /// The subschemas a `$ref` or an `allOf` applies in place, every one of which must
    /// hold (in order); `None` for any other check.
    pub fn conjuncts(&self) -> Option<&[Edge]> {
        match self {
            CheckKind::Ref(edge) => Some(std::slice::from_ref(edge)),
            CheckKind::AllOf(edges) => Some(edges),
            _ => None,
        }
    }

    /// What is known of the check from its kind (and a `const`'s value): one row per
    /// kind, so that a new kind must say.
    pub fn facts(&self) -> Facts {
        use Applies::{InPlace, Nothing, Once, PerElement};
        use Kind::{Array, Number, Object, String};
        let (applies, only_reads, constant_time) = match self {
            CheckKind::False => (Nothing, None, false),
            CheckKind::Type(_) => (Nothing, None, true),
            CheckKind::IntegerLiteral(_) => (Nothing, Some(Number), true),
            CheckKind::Const(value) => (
                Nothing,
                None,
                !(value.is_array() || value.is_object() || value.is_string()),
            ),
            CheckKind::Enum(_) => (Nothing, None, false),
            CheckKind::MultipleOf(_) => (Nothing, Some(Number), true),
            CheckKind::Minimum(_) => (Nothing, None, true),
            CheckKind::Maximum(_) => (Nothing, None, true),
            CheckKind::ExclusiveMinimum(_) => (Nothing, None, true),
            CheckKind::ExclusiveMaximum(_) => (Nothing, None, true),
            CheckKind::MinLength(_) => (Nothing, None, false),
            CheckKind::MaxLength(_) => (Nothing, None, false),
            CheckKind::Pattern(_) => (Nothing, Some(String), false),
            CheckKind::Format(_) => (Nothing, Some(String), false),
            CheckKind::ContentBase64 => (Nothing, Some(String), false),
            CheckKind::ContentJson { .. } => (Nothing, Some(String), false),
            CheckKind::MinItems(_) => (Nothing, None, true),
            CheckKind::MaxItems(_) => (Nothing, None, true),
            CheckKind::UniqueItems => (Nothing, Some(Array), false),
            CheckKind::MinProperties(_) => (Nothing, Some(Object), true),
            CheckKind::MaxProperties(_) => (Nothing, Some(Object), true),
            CheckKind::Required(_) => (Nothing, None, false),
            CheckKind::DependentRequired(_) => (Nothing, Some(Object), false),
            CheckKind::Ref(_) => (InPlace, None, false),
            CheckKind::DynamicRef { .. } => (InPlace, None, false),
            CheckKind::Unresolved { .. } => (Nothing, None, false),
            CheckKind::AllOf(_) => (InPlace, None, false),
            CheckKind::AnyOf(_) => (InPlace, None, false),
            CheckKind::OneOf(_) => (InPlace, None, false),
            CheckKind::Not(_) => (InPlace, None, false),
            CheckKind::IfThenElse { .. } => (InPlace, None, false),
            CheckKind::DependentSchemas(_) => (InPlace, Some(Object), false),
            CheckKind::Properties(_) => (Once, None, false),
            CheckKind::PatternProperties(_) => (PerElement, None, false),
            CheckKind::AdditionalProperties { .. } => (PerElement, None, false),
            CheckKind::PropertyNames(_) => (PerElement, Some(Object), false),
            CheckKind::PrefixItems(_) => (Once, None, false),
            CheckKind::Items { .. } => (PerElement, None, false),
            CheckKind::Contains { .. } => (PerElement, Some(Array), false),
            CheckKind::UnevaluatedProperties(_) => (PerElement, None, false),
            CheckKind::UnevaluatedItems(_) => (PerElement, None, false),
            CheckKind::Custom(_) => (Nothing, None, false),
        };
        Facts {
            applies,
            only_reads,
            constant_time,
        }
    }

    /// How the check applies its subschemas ([`Facts::applies`]).
    pub fn applies(&self) -> Applies {
        self.facts().applies
    }

    /// Whether the check applies its children to the same instance location
    /// (so their evaluated locations count as the parent's).
    pub fn is_in_place(&self) -> bool {
        self.applies() == Applies::InPlace
    }
}

// The check kinds split two ways, each by a pair of patterns that together name every
// kind once: what a backend decides by one test ([`leaf_kind!`]) or by applying the
// check ([`applied_kind!`]), and whether generated code dispatches it by the instance's
// JSON type ([`dispatched_kind!`], [`undispatched_kind!`]). A `match` on a check's kind
// names the kinds one backend treats alike by them, so a new kind is asked for where it
// must be placed. They are built of three disjoint parts (and `false` and custom
// keywords, leaves that read any instance).

/// The leaves that read one JSON type (or say which it is).
macro_rules! typed_leaf_kind {
    () => {
        $crate::ir::CheckKind::Type(_)
            | $crate::ir::CheckKind::IntegerLiteral(_)
            | $crate::ir::CheckKind::Const(_)
            | $crate::ir::CheckKind::Enum(_)
            | $crate::ir::CheckKind::MultipleOf(_)
            | $crate::ir::CheckKind::Minimum(_)
            | $crate::ir::CheckKind::Maximum(_)
            | $crate::ir::CheckKind::ExclusiveMinimum(_)
            | $crate::ir::CheckKind::ExclusiveMaximum(_)
            | $crate::ir::CheckKind::MinLength(_)
            | $crate::ir::CheckKind::MaxLength(_)
            | $crate::ir::CheckKind::Pattern(_)
            | $crate::ir::CheckKind::Format(_)
            | $crate::ir::CheckKind::ContentBase64
            | $crate::ir::CheckKind::ContentJson { .. }
            | $crate::ir::CheckKind::MinItems(_)
            | $crate::ir::CheckKind::MaxItems(_)
            | $crate::ir::CheckKind::UniqueItems
            | $crate::ir::CheckKind::MinProperties(_)
            | $crate::ir::CheckKind::MaxProperties(_)
    };
}
pub(crate) use typed_leaf_kind;

/// The applicators and name checks that apply to an instance of any JSON type (and an
/// unresolved reference).
macro_rules! untyped_applied_kind {
    () => {
        $crate::ir::CheckKind::Unresolved { .. }
            | $crate::ir::CheckKind::Ref(_)
            | $crate::ir::CheckKind::DynamicRef { .. }
            | $crate::ir::CheckKind::AllOf(_)
            | $crate::ir::CheckKind::AnyOf(_)
            | $crate::ir::CheckKind::OneOf(_)
            | $crate::ir::CheckKind::Not(_)
            | $crate::ir::CheckKind::IfThenElse { .. }
    };
}
pub(crate) use untyped_applied_kind;

/// The applicators and name checks that apply to one JSON type (`dependentSchemas`
/// only to objects).
macro_rules! typed_applied_kind {
    () => {
        $crate::ir::CheckKind::Required(_)
            | $crate::ir::CheckKind::DependentRequired(_)
            | $crate::ir::CheckKind::DependentSchemas(_)
            | $crate::ir::CheckKind::Properties(_)
            | $crate::ir::CheckKind::PatternProperties(_)
            | $crate::ir::CheckKind::AdditionalProperties { .. }
            | $crate::ir::CheckKind::PropertyNames(_)
            | $crate::ir::CheckKind::PrefixItems(_)
            | $crate::ir::CheckKind::Items { .. }
            | $crate::ir::CheckKind::Contains { .. }
            | $crate::ir::CheckKind::UnevaluatedProperties(_)
            | $crate::ir::CheckKind::UnevaluatedItems(_)
    };
}
pub(crate) use typed_applied_kind;

/// A pattern of every [`CheckKind`] that reads only the instance (no subschema,
/// annotation, dynamic scope or list of names to report): the backends decide it by one
/// test and report its error as [`crate::plan::messages::failure`] says.
macro_rules! leaf_kind {
    () => {
        $crate::ir::CheckKind::False
            | $crate::ir::CheckKind::Custom(_)
            | $crate::ir::typed_leaf_kind!()
    };
}
pub(crate) use leaf_kind;

/// A pattern of every [`CheckKind`] that is not a [`leaf_kind!`]: applies subschemas,
/// reads annotations or the dynamic scope, or reports each missing name.
macro_rules! applied_kind {
    () => {
        $crate::ir::untyped_applied_kind!() | $crate::ir::typed_applied_kind!()
    };
}
pub(crate) use applied_kind;

/// A pattern of every [`CheckKind`] that [`CheckKind::is_dispatchable`].
macro_rules! dispatched_kind {
    () => {
        $crate::ir::typed_leaf_kind!() | $crate::ir::typed_applied_kind!()
    };
}
pub(crate) use dispatched_kind;

/// A pattern of every [`CheckKind`] that is not a [`dispatched_kind!`]: `false`, a custom
/// keyword, an unresolved reference and the in-place applicators but `dependentSchemas`,
/// which apply to an instance of any JSON type.
macro_rules! undispatched_kind {
    () => {
        $crate::ir::CheckKind::False
            | $crate::ir::CheckKind::Custom(_)
            | $crate::ir::untyped_applied_kind!()
    };
}
pub(crate) use undispatched_kind;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Compiler;
    use crate::options::Options;
    use serde_json::json;

    #[test]
    fn a_check_has_children_exactly_when_its_facts_say_it_applies_subschemas() {
        // Every applicator of 2020-12 and draft-07, each with at least one subschema;
        // every assertion beside them.
        let schemas = [
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {"d": {"type": "string"}, "e": {"$dynamicAnchor": "e"}},
                "$ref": "#/$defs/d", "$dynamicRef": "#e",
                "allOf": [{"minLength": 1}], "anyOf": [{"maxLength": 9}],
                "oneOf": [{"pattern": "^a"}], "not": {"format": "email"},
                "if": {"const": 1}, "then": {"enum": [1, 2]}, "else": {"multipleOf": 2},
                "dependentSchemas": {"a": {"minimum": 1}}, "dependentRequired": {"a": ["b"]},
                "properties": {"a": {"maximum": 1}}, "patternProperties": {"^b": {"exclusiveMinimum": 0}},
                "additionalProperties": {"exclusiveMaximum": 9}, "propertyNames": {"minLength": 1},
                "prefixItems": [{"minItems": 1}], "items": {"maxItems": 2},
                "contains": {"uniqueItems": true}, "minContains": 1,
                "unevaluatedProperties": {"minProperties": 1}, "unevaluatedItems": {"maxProperties": 1},
                "required": ["a"]
            }),
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "contentMediaType": "application/json", "contentEncoding": "base64",
                "items": [{"type": "integer"}], "additionalItems": false
            }),
        ];
        let mut seen = BTreeMap::new();
        for schema in schemas {
            let program = Compiler::new(Options::default())
                .compile(&schema)
                .expect("compiles");
            for node in &program.nodes {
                for check in &node.checks {
                    let has_children = check.kind.edges().next().is_some();
                    let applies = check.kind.applies() != Applies::Nothing;
                    assert_eq!(has_children, applies, "{check:?}");
                    // A leaf applies nothing; besides the applicators, only the checks
                    // that report names (or an unresolved reference) are not leaves.
                    let reports_names = matches!(
                        check.kind,
                        CheckKind::Required(_)
                            | CheckKind::DependentRequired(_)
                            | CheckKind::Unresolved { .. }
                    );
                    assert_eq!(
                        is_leaf(&check.kind),
                        !applies && !reports_names,
                        "{check:?}"
                    );
                    seen.insert(check.keyword.rsplit('/').next().map(String::from), applies);
                }
            }
        }
        // The schemas reached the applicators they are meant to.
        assert!(
            seen.values().filter(|applies| **applies).count() >= 18,
            "{seen:?}"
        );
    }

    /// Whether `kind` is a [`leaf_kind!`]. The `match` is the proof that it and
    /// [`applied_kind!`] name every kind once: the compiler refuses a kind named by
    /// neither, and the lint on unreachable patterns (denied in CI) one named by both.
    fn is_leaf(kind: &CheckKind) -> bool {
        match kind {
            leaf_kind!() => true,
            applied_kind!() => false,
        }
    }
}
