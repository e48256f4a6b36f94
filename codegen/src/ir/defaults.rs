//! Defaults: what `apply_defaults` inserts into an instance, planned once from a lowered
//! [`Program`] (compiled with [`crate::Options::defaults`]) and rendered by both backends
//! (the interpreter's `Interpreter::apply_defaults`, generated code's `apply_defaults`).
//!
//! # The rule
//!
//! At an object, a property that is missing gets the `default` of the subschema that
//! `properties` gives it, where that subschema applies for certain: in the schema at the
//! object's place and in everything that schema applies to the same place unconditionally
//! (`$ref`, a `$dynamicRef` that resolves statically, `allOf`, and so on through them),
//! never through `anyOf`, `oneOf`, `not`, `if` / `then` / `else` or `dependentSchemas`,
//! whose subschemas may not apply (ajv's `useDefaults` rule). A property subschema without
//! a `default` of its own takes the first one of what it applies unconditionally (a
//! `properties: {"units": {"$ref": "#/$defs/units"}}` takes the definition's). When
//! several subschemas give the same property a default, the first in schema order wins
//! (the schema's own `properties` before its `$ref`'s, then `allOf`'s in order).
//!
//! Then the walk goes on into the object's values — a missing property's inserted default
//! included — with every subschema that applies to each (`properties`, the matching
//! `patternProperties`, `additionalProperties`, through the same unconditional
//! applications), and into an array's items (`prefixItems` and `items`). Nothing else
//! changes: an array is never lengthened, a value never replaced, the root never given its
//! own `default`.
//!
//! The walk goes as deep as validation may ([`schemac_runtime::Limits::max_depth`]) and
//! says whether it stopped there. Its work is the instance's size times the subschemas
//! that apply at each place; it is not charged to a budget (each place's subschemas are
//! listed at compile time, below a bound).

use super::{CheckKind, NodeId, Program, RegexId};
use crate::error::{CompileError, CompileErrorKind, Location};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Index of a step in [`Defaults::steps`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepId(pub usize);

/// The defaults of a program: one step per schema place the walk can reach that inserts
/// something there or below. Empty when the schema gives no default the walk can reach.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Defaults {
    /// The steps; the root's is the first.
    pub steps: Vec<DefaultsStep>,
}

impl Defaults {
    /// The step applied to the instance's root, if any.
    pub fn root(&self) -> Option<StepId> {
        (!self.steps.is_empty()).then_some(StepId(0))
    }

    /// The step with id `id`.
    pub fn step(&self, id: StepId) -> &DefaultsStep {
        &self.steps[id.0]
    }
}

/// What the walk does at one place of the instance (every item of every list is a step
/// that inserts something, here or below).
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultsStep {
    /// The subschema whose place this is (the walk applies it and what it applies
    /// unconditionally).
    pub schema: NodeId,
    /// At an object: each property to insert when it is missing, with its value, in
    /// schema order.
    pub insert: Vec<(String, Value)>,
    /// At an object: the step for the value of each property name (a name may have
    /// several, in schema order).
    pub properties: Vec<(String, StepId)>,
    /// At an object: the step for the value of each key a pattern matches.
    pub patterns: Vec<(RegexId, StepId)>,
    /// At an object: the steps of `additionalProperties`, each for the keys its
    /// `properties` names and patterns leave.
    pub additional: Vec<Additional>,
    /// At an array: the step for the item at each index (`prefixItems`).
    pub prefix_items: Vec<(usize, StepId)>,
    /// At an array: the step for every item from an index on (`items`).
    pub items: Vec<(usize, StepId)>,
}

impl DefaultsStep {
    /// Whether the step reads an object.
    pub fn reads_objects(&self) -> bool {
        !(self.insert.is_empty()
            && self.properties.is_empty()
            && self.patterns.is_empty()
            && self.additional.is_empty())
    }

    /// Whether the step reads an array.
    pub fn reads_arrays(&self) -> bool {
        !(self.prefix_items.is_empty() && self.items.is_empty())
    }

    /// Whether the step goes on into the values of an object.
    pub fn enters_values(&self) -> bool {
        !(self.properties.is_empty() && self.patterns.is_empty() && self.additional.is_empty())
    }

    /// Whether the step goes on into the values of an object or the items of an array.
    pub fn descends(&self) -> bool {
        self.reads_arrays() || self.enters_values()
    }
}

/// One `additionalProperties` of a step: the keys its schema's `properties` and
/// `patternProperties` leave get `step`.
#[derive(Debug, Clone, PartialEq)]
pub struct Additional {
    /// The sibling `properties` names.
    pub known: Vec<String>,
    /// The sibling `patternProperties` patterns.
    pub patterns: Vec<RegexId>,
    /// The step for the values it applies to.
    pub step: StepId,
}

/// The steps planned beyond which [`plan`] refuses, per subschema of the program: what
/// the walk lists at each place is a subschema applied there, and a schema can make the
/// places many times its subschemas (a chain whose every link applies the rest in place).
const PLACES_PER_SUBSCHEMA: usize = 16;

/// Plans the defaults of `program` (see the module documentation). More listed
/// applications than 16 per allowed subschema (`PLACES_PER_SUBSCHEMA`) is
/// `TooManySubschemas`.
pub fn plan(program: &Program, max_subschemas: usize) -> Result<Defaults, CompileError> {
    let mut planner = Planner {
        program,
        closures: HashMap::new(),
        budget: max_subschemas.saturating_mul(PLACES_PER_SUBSCHEMA),
        exceeded: false,
    };
    // Raw steps, one per node the walk reaches, in the order first reached.
    let mut order: Vec<NodeId> = vec![program.root];
    let mut index: HashMap<NodeId, usize> = HashMap::from([(program.root, 0)]);
    let mut raw: Vec<Raw> = Vec::new();
    while raw.len() < order.len() {
        let node = order[raw.len()];
        let step = planner.raw_step(node);
        if planner.exceeded {
            return Err(too_many(program, max_subschemas));
        }
        for target in step.targets() {
            index.entry(target).or_insert_with(|| {
                order.push(target);
                order.len() - 1
            });
        }
        raw.push(step);
    }
    // A step matters when it inserts, or one it leads to does.
    let mut matters: Vec<bool> = raw.iter().map(|s| !s.insert.is_empty()).collect();
    let mut leads_to: Vec<Vec<usize>> = vec![Vec::new(); raw.len()];
    for (i, step) in raw.iter().enumerate() {
        for target in step.targets() {
            leads_to[index[&target]].push(i);
        }
    }
    let mut work: Vec<usize> = (0..raw.len()).filter(|&i| matters[i]).collect();
    while let Some(i) = work.pop() {
        for &from in &leads_to[i] {
            if !matters[from] {
                matters[from] = true;
                work.push(from);
            }
        }
    }
    crate::work::add(raw.len());
    if !matters[0] {
        return Ok(Defaults::default());
    }
    let mut ids: BTreeMap<usize, StepId> = BTreeMap::new();
    for (i, _) in matters.iter().enumerate().filter(|(_, m)| **m) {
        let next = StepId(ids.len());
        ids.insert(i, next);
    }
    let id = |node: NodeId| ids.get(&index[&node]).copied();
    let steps = raw
        .into_iter()
        .enumerate()
        .filter(|(i, _)| matters[*i])
        .map(|(_, step)| step.resolve(&id))
        .collect();
    Ok(Defaults { steps })
}

/// The `TooManySubschemas` error of a schema whose defaults would list too much.
fn too_many(program: &Program, max_subschemas: usize) -> CompileError {
    CompileError::new(
        CompileErrorKind::TooManySubschemas,
        Location {
            keyword: Some("default".to_string()),
            ..Location::default()
        },
        format!(
            "applying defaults would list more than {} subschema applications \
             ({PLACES_PER_SUBSCHEMA} per allowed subschema, option max_subschemas); \
             the schema applies the same subschemas in place at many places \
             (root {})",
            max_subschemas.saturating_mul(PLACES_PER_SUBSCHEMA),
            program.node(program.root).uri
        ),
    )
}

/// A step before the steps that do nothing are left out: its descents name nodes.
struct Raw {
    schema: NodeId,
    insert: Vec<(String, Value)>,
    properties: Vec<(String, NodeId)>,
    patterns: Vec<(RegexId, NodeId)>,
    additional: Vec<(Vec<String>, Vec<RegexId>, NodeId)>,
    prefix_items: Vec<(usize, NodeId)>,
    items: Vec<(usize, NodeId)>,
}

impl Raw {
    /// The nodes the step goes on to, in order.
    fn targets(&self) -> impl Iterator<Item = NodeId> + '_ {
        let properties = self.properties.iter().map(|(_, t)| *t);
        let patterns = self.patterns.iter().map(|(_, t)| *t);
        let additional = self.additional.iter().map(|(_, _, t)| *t);
        let prefix = self.prefix_items.iter().map(|(_, t)| *t);
        let items = self.items.iter().map(|(_, t)| *t);
        properties
            .chain(patterns)
            .chain(additional)
            .chain(prefix)
            .chain(items)
    }

    /// The step with its descents renumbered by `id`; those to steps that do nothing
    /// (`None`) left out.
    fn resolve(self, id: &impl Fn(NodeId) -> Option<StepId>) -> DefaultsStep {
        DefaultsStep {
            schema: self.schema,
            insert: self.insert,
            properties: keep(self.properties, id),
            patterns: keep(self.patterns, id),
            additional: self
                .additional
                .into_iter()
                .filter_map(|(known, patterns, t)| {
                    id(t).map(|step| Additional {
                        known,
                        patterns,
                        step,
                    })
                })
                .collect(),
            prefix_items: keep(self.prefix_items, id),
            items: keep(self.items, id),
        }
    }
}

/// `pairs` with each node renumbered by `id`, those without a step left out.
fn keep<K>(pairs: Vec<(K, NodeId)>, id: &impl Fn(NodeId) -> Option<StepId>) -> Vec<(K, StepId)> {
    pairs
        .into_iter()
        .filter_map(|(k, t)| id(t).map(|s| (k, s)))
        .collect()
}

struct Planner<'p> {
    program: &'p Program,
    /// Each node's unconditional in-place closure, once computed.
    closures: HashMap<NodeId, Vec<NodeId>>,
    /// Closure members left to list before the plan is refused.
    budget: usize,
    exceeded: bool,
}

impl Planner<'_> {
    /// `id` and every node it applies to its own instance unconditionally, in schema
    /// order (pre-order, each once).
    fn closure(&mut self, id: NodeId) -> Vec<NodeId> {
        // Past the budget the plan is refused: the step being listed is dropped, so the
        // closures it would still ask for need not be walked.
        if self.exceeded {
            return Vec::new();
        }
        if let Some(found) = self.closures.get(&id) {
            return found.clone();
        }
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            out.push(n);
            let children = self.program.node(n).checks.iter().rev().flat_map(|c| {
                let unconditional: Vec<NodeId> = match &c.kind {
                    CheckKind::Ref(e) => vec![e.target],
                    CheckKind::DynamicRef {
                        fallback,
                        anchor: None,
                    } => vec![fallback.target],
                    CheckKind::AllOf(es) => es.iter().map(|e| e.target).collect(),
                    _ => Vec::new(),
                };
                unconditional.into_iter().rev()
            });
            stack.extend(children);
        }
        crate::work::add(out.len());
        match self.budget.checked_sub(out.len()) {
            Some(left) => self.budget = left,
            None => self.exceeded = true,
        }
        self.closures.insert(id, out.clone());
        out
    }

    /// The default a property whose subschema is `id` takes when missing.
    fn default_of(&mut self, id: NodeId) -> Option<Value> {
        self.closure(id)
            .into_iter()
            .find_map(|n| self.program.node(n).default.as_deref().cloned())
    }

    /// The step of the instance place where `id` applies.
    fn raw_step(&mut self, id: NodeId) -> Raw {
        let mut step = Raw {
            schema: id,
            insert: Vec::new(),
            properties: Vec::new(),
            patterns: Vec::new(),
            additional: Vec::new(),
            prefix_items: Vec::new(),
            items: Vec::new(),
        };
        let mut inserted = BTreeSet::new();
        for member in self.closure(id) {
            for check in &self.program.node(member).checks {
                match &check.kind {
                    CheckKind::Properties(entries) => {
                        for (name, edge) in entries {
                            if !inserted.contains(name) {
                                if let Some(value) = self.default_of(edge.target) {
                                    inserted.insert(name.clone());
                                    step.insert.push((name.clone(), value));
                                }
                            }
                            step.properties.push((name.clone(), edge.target));
                        }
                    }
                    CheckKind::PatternProperties(entries) => step
                        .patterns
                        .extend(entries.iter().map(|(re, e)| (*re, e.target))),
                    CheckKind::AdditionalProperties {
                        schema,
                        known,
                        patterns,
                    } => step
                        .additional
                        .push((known.clone(), patterns.clone(), schema.target)),
                    CheckKind::PrefixItems(edges) => step
                        .prefix_items
                        .extend(edges.iter().enumerate().map(|(i, e)| (i, e.target))),
                    CheckKind::Items { schema, skip } => step.items.push((*skip, schema.target)),
                    _ => {}
                }
            }
        }
        step
    }
}
