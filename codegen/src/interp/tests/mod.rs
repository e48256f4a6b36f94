//! Interpreter tests over hand-built programs: every check kind, errors and their
//! locations, annotations into `unevaluated*`, the dynamic scope, budget and depth. This
//! file holds the program builder and the helpers; the tests are by family.

mod annotations;
mod applicators;
mod arrays;
mod assertions;
mod limits;
mod passes;

use super::Interpreter;
use crate::ir::analyse::analyse;
use crate::ir::{
    Check, CheckKind, Collect, Edge, Node, NodeId, Program, RegexEntry, RegexId, Resource,
    ResourceId,
};
use schemac_runtime::error::{ErrorKind, IncompleteReason, Matched, TypeSet};
use schemac_runtime::json::Divisor;
use schemac_runtime::{Limits, Validate, Verdict};
use serde_json::{json, Number, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

const BASE: &str = "https://example.com/s.json";

/// Builds programs node by node; node 0 is the root unless [`Builder::build_at`] says so.
struct Builder {
    program: Program,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            program: Program {
                nodes: Vec::new(),
                regexes: Vec::new(),
                resources: vec![Resource {
                    uri: BASE.into(),
                    dynamic_anchors: BTreeMap::new(),
                }],
                root: NodeId(0),
                limits: Limits::default(),
                uses_dynamic_scope: false,
                warnings: Vec::new(),
                defaults: None,
            },
        }
    }

    /// Adds a resource; returns its id.
    fn resource(&mut self, uri: &str) -> ResourceId {
        self.program.resources.push(Resource {
            uri: uri.into(),
            dynamic_anchors: BTreeMap::new(),
        });
        ResourceId(self.program.resources.len() - 1)
    }

    /// Reserves a node at `pointer` of resource 0 (checks set later with [`Builder::set`]).
    fn reserve(&mut self, pointer: &str) -> NodeId {
        self.reserve_in(ResourceId(0), pointer)
    }

    fn reserve_in(&mut self, resource: ResourceId, pointer: &str) -> NodeId {
        let uri = format!("{}#{pointer}", self.program.resources[resource.0].uri);
        self.program.nodes.push(Node {
            uri,
            resource,
            is_resource_root: pointer.is_empty(),
            checks: Vec::new(),
            collect: Collect::default(),
            annotations: Vec::new(),
            default: None,
        });
        NodeId(self.program.nodes.len() - 1)
    }

    fn set(&mut self, id: NodeId, checks: Vec<Check>) {
        self.program.nodes[id.0].checks = checks;
    }

    /// Adds a node at `pointer` of resource 0 with `checks`.
    fn add(&mut self, pointer: &str, checks: Vec<Check>) -> NodeId {
        let id = self.reserve(pointer);
        self.set(id, checks);
        id
    }

    /// Adds a regex entry (the matcher is not built yet: `None`, ignored).
    fn regex(&mut self, source: &str) -> RegexId {
        self.program.regexes.push(RegexEntry {
            source: source.into(),
            compiled: None,
        });
        RegexId(self.program.regexes.len() - 1)
    }

    fn build(self) -> Interpreter {
        self.build_at(NodeId(0))
    }

    fn build_at(mut self, root: NodeId) -> Interpreter {
        self.program.root = root;
        analyse(&mut self.program);
        Interpreter::new(self.program)
    }
}

fn check(keyword: &str, kind: CheckKind) -> Check {
    Check {
        keyword: keyword.to_string().into(),
        kind,
        annotates: false,
    }
}

fn edge(target: NodeId, path: &str) -> Edge {
    Edge {
        target,
        path: path.into(),
    }
}

fn num(v: Value) -> Number {
    match v {
        Value::Number(n) => n,
        _ => panic!("not a number"),
    }
}

/// One schema of one node.
fn single(keyword: &str, kind: CheckKind) -> Interpreter {
    let mut b = Builder::new();
    b.add("", vec![check(keyword, kind)]);
    b.build()
}

/// An error as a comparable tuple.
type Located = (String, String, String, ErrorKind);

/// Asserts both modes accept `instance`.
#[track_caller]
fn assert_valid(v: &Interpreter, instance: &Value) {
    assert_eq!(v.check(instance), Verdict::Valid, "check of {instance}");
    let report = v.validate(instance);
    assert_eq!(
        report.verdict,
        Verdict::Valid,
        "validate of {instance}: {report:?}"
    );
    assert!(report.errors.is_empty());
}

/// Asserts both modes reject `instance`; returns the errors, located.
#[track_caller]
fn errors(v: &Interpreter, instance: &Value) -> Vec<Located> {
    assert_eq!(v.check(instance), Verdict::Invalid, "check of {instance}");
    let report = v.validate(instance);
    assert_eq!(report.verdict, Verdict::Invalid, "validate of {instance}");
    assert!(!report.errors.is_empty());
    report
        .errors
        .into_iter()
        .map(|e| {
            (
                e.instance_location,
                e.keyword_location,
                e.absolute_keyword_location,
                e.kind,
            )
        })
        .collect()
}

/// An error at `instance` location, keyword location `keyword` (absolute: BASE#keyword).
fn at(instance: &str, keyword: &str, kind: ErrorKind) -> Located {
    (
        instance.into(),
        keyword.into(),
        format!("{BASE}#{keyword}"),
        kind,
    )
}

/// The error of a `oneOf` that the branches `indices` matched.
fn one_of(indices: &[u32]) -> ErrorKind {
    let mut matched = Matched::default();
    for &i in indices {
        matched.add(i);
    }
    ErrorKind::OneOf {
        matched,
        types: None,
    }
}

/// The error of a `false` subschema on a property its object does not allow, no allowed
/// names listed.
fn not_allowed(key: &str) -> ErrorKind {
    ErrorKind::PropertyNotAllowed {
        property: key.to_string().into(),
        allowed: "".into(),
        declared: false,
    }
}

/// Asserts that `check` decides `instance` as `validate` does under the least budget that
/// `validate` needs (some), and not under one unit less.
#[track_caller]
fn assert_check_charges_as_validate(program: &Program, instance: &Value) {
    let with = |budget| under_budget(program, budget);
    let needed = (0..1000)
        .find(|&budget| {
            !matches!(
                with(budget).validate(instance).verdict,
                Verdict::Incomplete(_)
            )
        })
        .expect("a budget suffices");
    assert!(needed > 0, "{instance}");
    let verdict = with(needed).validate(instance).verdict;
    assert_eq!(with(needed).check(instance), verdict, "{instance}");
    assert_eq!(
        with(needed - 1).check(instance),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded),
        "{instance}"
    );
}

/// An interpreter of `program` under the default limits but for its `budget`.
fn under_budget(program: &Program, budget: u64) -> Interpreter {
    Interpreter::new(program.clone()).with_limits(Limits {
        budget,
        ..Limits::DEFAULT
    })
}

/// The interpreter of `schema` under a budget of `budget` units.
fn compiled_with_budget(schema: &Value, budget: u64) -> Interpreter {
    let program = crate::check::Compiler::new(crate::options::Options::default())
        .compile(schema)
        .expect("compiles");
    let limits = Limits {
        budget,
        ..program.limits
    };
    Interpreter::new(program).with_limits(limits)
}

/// Checks that short-circuit evaluation of `schema` (its fast paths) spends what
/// `validate` (the general evaluation) does on `valid`, which both evaluate in full: the
/// same verdict under every budget up to the least that suffices, which is returned.
fn same_budget_as_validate(schema: &Value, valid: &Value) -> u64 {
    let need = (1..10_000)
        .find(|&b| compiled_with_budget(schema, b).check(valid) == Verdict::Valid)
        .expect("a budget that suffices");
    for budget in 1..=need {
        let v = compiled_with_budget(schema, budget);
        assert_eq!(v.check(valid), v.validate(valid).verdict, "budget {budget}");
    }
    assert_eq!(
        compiled_with_budget(schema, need - 1).check(valid),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    need
}
