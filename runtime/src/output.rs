//! The 2020-12 output formats (§12.4) as JSON values: [`Format::Flag`],
//! [`Format::Basic`], [`Format::Detailed`] and [`Format::Verbose`], built from a [`Report`]
//! and the annotations of an [`Evaluation`].
//!
//! Every output but `flag` is an output unit: `valid`, `keywordLocation` and
//! `instanceLocation` (`""` at the root), with the failed assertions under `errors` (each
//! with its `error` message) or, for a valid instance, the annotations under `annotations`
//! (each with its `annotation` value). `basic` lists them flat; `detailed` and `verbose`
//! nest them in one unit per subschema on their evaluation paths, `detailed` collapsing a
//! unit with a single child into that child. `detailed` holds the subschemas on the way
//! to a failed assertion or an annotation; `verbose`, built by [`evaluation`] from an
//! [`Evaluation`]'s [`units`](Evaluation::units), holds every subschema evaluated (those
//! that passed without annotating too, and those that failed inside a subschema whose
//! errors are dropped, with an `error` saying so).
//!
//! Extra members, which the 2020-12 output schema allows: an incomplete verdict is
//! `"valid": false` with `"incomplete"` holding the reason (and `"error"` saying it), so
//! that no consumer can mistake it for a pass; errors that the
//! [`max_errors`](crate::Limits::max_errors) bound left out are counted in
//! `"errorsOmitted"`.

use crate::annotation::{Annotation, Evaluation, Unit};
use crate::error::{Report, ValidationError, Verdict};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Value};

/// One of the 2020-12 output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `{"valid": bool}` only.
    Flag,
    /// The root unit with a flat list of units.
    Basic,
    /// Units nested by subschema, single-child units collapsed.
    Detailed,
    /// Units nested by subschema, every subschema evaluated listed (see [`evaluation`]).
    Verbose,
}

impl Format {
    /// Every format, in the specification's order.
    pub const ALL: [Format; 4] = [
        Format::Flag,
        Format::Basic,
        Format::Detailed,
        Format::Verbose,
    ];

    /// The format's name: `flag`, `basic`, `detailed` or `verbose`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Flag => "flag",
            Format::Basic => "basic",
            Format::Detailed => "detailed",
            Format::Verbose => "verbose",
        }
    }

    /// The format named `name` ([`Format::name`]).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The output of `report` (and, when it is valid, of `annotations`) in `format`; `verbose`
/// lists only the subschemas on the way to an error or an annotation (see [`evaluation`]).
pub fn output(format: Format, report: &Report, annotations: &[Annotation]) -> Value {
    units_output(format, report, annotations, &[])
}

/// The output of `evaluation` in `format`: [`output`], with `verbose` listing every
/// subschema evaluation of [`Evaluation::units`].
pub fn evaluation(format: Format, evaluation: &Evaluation) -> Value {
    let units = match format {
        Format::Verbose => evaluation.units.as_slice(),
        _ => &[],
    };
    units_output(format, &evaluation.report, &evaluation.annotations, units)
}

/// [`output`] with the subschema evaluations `evaluated` in the tree.
fn units_output(
    format: Format,
    report: &Report,
    annotations: &[Annotation],
    evaluated: &[Unit],
) -> Value {
    if format == Format::Flag {
        return flag(report);
    }
    let mut root = root_unit(report);
    let collapse = format == Format::Detailed;
    let (key, list): (_, Vec<Value>) = if report.is_valid() {
        let leaves = annotations.iter().map(Leaf::annotation);
        let list = match format {
            Format::Basic => leaves.map(|leaf| leaf.unit).collect(),
            _ => Tree::of(evaluated, leaves.collect(), collapse).render_children(collapse),
        };
        ("annotations", list)
    } else {
        let list = match format {
            Format::Basic => report.errors.iter().map(|e| Leaf::error(e).unit).collect(),
            _ => Tree::of(evaluated, nested(&report.errors), collapse).render_children(collapse),
        };
        ("errors", list)
    };
    if !list.is_empty() {
        root.insert(key.into(), Value::Array(list));
    }
    Value::Object(root)
}

/// The `flag` format: `{"valid": bool}` (plus `"incomplete"` when the check did not finish).
pub fn flag(report: &Report) -> Value {
    let mut out = Map::new();
    out.insert("valid".into(), Value::Bool(report.is_valid()));
    if let Verdict::Incomplete(reason) = &report.verdict {
        out.insert("incomplete".into(), Value::String(reason.to_string()));
    }
    Value::Object(out)
}

/// The `basic` format of a report without annotations:
/// [`output`]`(Format::Basic, report, &[])`.
pub fn basic(report: &Report) -> Value {
    output(Format::Basic, report, &[])
}

/// The root unit without its list: `valid`, the root's locations and the extra members.
fn root_unit(report: &Report) -> Map<String, Value> {
    let mut out = match flag(report) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    out.insert("keywordLocation".into(), "".into());
    out.insert("instanceLocation".into(), "".into());
    if let Verdict::Incomplete(reason) = &report.verdict {
        out.insert(
            "error".into(),
            format!("the check did not finish: {reason}").into(),
        );
    } else if !report.is_valid() && report.errors.is_empty() {
        out.insert(
            "error".into(),
            format!(
                "{} error(s) found, none listed (max_errors)",
                report.errors_omitted
            )
            .into(),
        );
    }
    if report.errors_omitted > 0 {
        out.insert("errorsOmitted".into(), Value::from(report.errors_omitted));
    }
    out
}

/// A failed assertion or an annotation: its unit and where it is; for the error of a
/// failed `anyOf` / `oneOf`, the errors that explain it ([`ValidationError::level`]).
struct Leaf {
    unit: Value,
    keyword_location: String,
    instance_location: String,
    absolute_keyword_location: String,
    causes: Vec<Leaf>,
}

/// The leaves of `errors`, each error followed by deeper ones holding them as its causes.
fn nested(errors: &[ValidationError]) -> Vec<Leaf> {
    let mut out = Vec::new();
    let mut rest = errors;
    while let Some((first, tail)) = rest.split_first() {
        let causes = tail.iter().take_while(|e| e.level > first.level).count();
        let mut leaf = Leaf::error(first);
        leaf.causes = nested(&tail[..causes]);
        out.push(leaf);
        rest = &tail[causes..];
    }
    out
}

impl Leaf {
    fn new(
        valid: bool,
        keyword_location: &str,
        absolute_keyword_location: &str,
        instance_location: &str,
        (key, value): (&str, Value),
    ) -> Leaf {
        let mut unit = Map::new();
        unit.insert("valid".into(), Value::Bool(valid));
        unit.insert("keywordLocation".into(), keyword_location.into());
        unit.insert(
            "absoluteKeywordLocation".into(),
            absolute_keyword_location.into(),
        );
        unit.insert("instanceLocation".into(), instance_location.into());
        unit.insert(key.into(), value);
        Leaf {
            unit: Value::Object(unit),
            keyword_location: keyword_location.into(),
            instance_location: instance_location.into(),
            absolute_keyword_location: absolute_keyword_location.into(),
            causes: Vec::new(),
        }
    }

    fn error(e: &ValidationError) -> Leaf {
        Leaf::new(
            false,
            &e.keyword_location,
            &e.absolute_keyword_location,
            &e.instance_location,
            ("error", e.kind.to_string().into()),
        )
    }

    fn annotation(a: &Annotation) -> Leaf {
        Leaf::new(
            true,
            &a.keyword_location,
            &a.absolute_keyword_location,
            &a.instance_location,
            ("annotation", a.value.clone()),
        )
    }
}

/// The unit of one subschema evaluation in `detailed` / `verbose`: the leaves located
/// directly in it and the units of the subschemas it applied.
#[derive(Default)]
struct Tree {
    keyword_location: String,
    instance_location: String,
    /// Known when a leaf's absolute location extends it by the leaf's keyword path.
    absolute_keyword_location: Option<String>,
    /// Whether the units in it are errors (else annotations); when the subschema's
    /// evaluation is listed as a unit, whether it failed.
    failed: bool,
    /// Whether the subschema's evaluation is listed as a unit.
    evaluated: bool,
    leaves: Vec<Value>,
    children: Vec<Tree>,
    /// `children` by (keyword location, instance location).
    index: BTreeMap<(String, String), usize>,
}

impl Tree {
    /// The root's tree of the subschema evaluations `units` (the root's own left out),
    /// then of `leaves`; the causes of a leaf are listed in its unit, as the units `collapse`
    /// (`detailed`) or not (`verbose`) render them.
    fn of(units: &[Unit], leaves: Vec<Leaf>, collapse: bool) -> Tree {
        let mut root = Tree::default();
        for unit in units {
            root.insert_unit(unit);
        }
        for leaf in leaves {
            root.insert(leaf, 0, collapse);
        }
        root
    }

    /// Inserts `leaf` on its path past the first `below` keyword tokens (those of the
    /// tree's own location).
    fn insert(&mut self, mut leaf: Leaf, below: usize, collapse: bool) {
        let failed = leaf.unit["valid"] == Value::Bool(false);
        let keyword: Vec<&str> = tokens(&leaf.keyword_location).collect();
        let instance: Vec<&str> = tokens(&leaf.instance_location).collect();
        let mut steps = subschema_steps(&keyword, instance.len());
        steps.retain(|&(k, _)| k > below);
        let absolute =
            |k: usize| strip_keyword_path(&leaf.absolute_keyword_location, &keyword[k..]);
        if !leaf.causes.is_empty() {
            // The explanation of a failed `anyOf` / `oneOf`: its units under the error's.
            let mut causes = Tree {
                keyword_location: leaf.keyword_location.clone(),
                instance_location: leaf.instance_location.clone(),
                failed: true,
                ..Tree::default()
            };
            for cause in core::mem::take(&mut leaf.causes) {
                causes.insert(cause, keyword.len(), collapse);
            }
            if let Value::Object(unit) = &mut leaf.unit {
                let list = causes.render_children(collapse);
                unit.insert("errors".into(), Value::Array(list));
            }
        }
        self.walk(&keyword, &instance, &steps, &absolute, failed)
            .leaves
            .push(leaf.unit);
    }

    /// Marks the subschema `unit` evaluated (nothing for the root, or for a location that
    /// is not a subschema's).
    fn insert_unit(&mut self, unit: &Unit) {
        let mut keyword: Vec<&str> = tokens(&unit.keyword_location).collect();
        let instance: Vec<&str> = tokens(&unit.instance_location).collect();
        let len = keyword.len();
        // The steps to a keyword inside the subschema end at the subschema.
        keyword.push("");
        let steps = subschema_steps(&keyword, instance.len());
        if steps.last() != Some(&(len, instance.len())) {
            return;
        }
        let tree = self.walk(&keyword, &instance, &steps, &|_| None, !unit.valid);
        tree.evaluated = true;
        tree.failed = !unit.valid;
        tree.absolute_keyword_location = Some(unit.absolute_keyword_location.clone());
    }

    /// The tree at the end of `steps` (of `keyword` and `instance` tokens), made on the
    /// way where missing: each with the absolute location `absolute` gives for its keyword
    /// token count, and `failed`.
    fn walk(
        &mut self,
        keyword: &[&str],
        instance: &[&str],
        steps: &[(usize, usize)],
        absolute: &dyn Fn(usize) -> Option<String>,
        failed: bool,
    ) -> &mut Tree {
        let mut tree = self;
        for &(k, i) in steps {
            let at = (join(&keyword[..k]), join(&instance[..i]));
            let next = match tree.index.get(&at) {
                Some(&n) => n,
                None => {
                    tree.index.insert(at.clone(), tree.children.len());
                    tree.children.push(Tree {
                        keyword_location: at.0,
                        instance_location: at.1,
                        absolute_keyword_location: absolute(k),
                        failed,
                        ..Tree::default()
                    });
                    tree.children.len() - 1
                }
            };
            tree = &mut tree.children[next];
        }
        tree
    }

    /// The units listed in this one: its leaves, then its children's units (a child
    /// replaced by its own list when `collapse` and it holds one unit, or when it crosses a
    /// reference without a known absolute location, which the output schema requires).
    fn render_children(self, collapse: bool) -> Vec<Value> {
        let mut list = self.leaves;
        for child in self.children {
            list.extend(child.render(collapse));
        }
        list
    }

    fn render(self, collapse: bool) -> Vec<Value> {
        let crosses_reference = ["/$ref", "/$dynamicRef", "/$recursiveRef"]
            .iter()
            .any(|r| self.keyword_location.contains(r));
        let (failed, evaluated) = (self.failed, self.evaluated);
        let keyword_location = self.keyword_location.clone();
        let instance_location = self.instance_location.clone();
        let absolute = self.absolute_keyword_location.clone();
        let list = self.render_children(collapse);
        if (collapse && list.len() == 1) || (absolute.is_none() && crosses_reference) {
            return list;
        }
        let mut unit = Map::new();
        unit.insert("valid".into(), Value::Bool(!failed));
        unit.insert("keywordLocation".into(), keyword_location.into());
        if let Some(absolute) = absolute {
            unit.insert("absoluteKeywordLocation".into(), absolute.into());
        }
        unit.insert("instanceLocation".into(), instance_location.into());
        let key = if failed { "errors" } else { "annotations" };
        if !list.is_empty() || !evaluated {
            unit.insert(key.into(), Value::Array(list));
        } else if failed {
            // A subschema whose errors were dropped (`anyOf`, `not`, ...).
            unit.insert(
                "error".into(),
                "not valid (its errors are not reported here; a failed `anyOf` / `oneOf` \
                 lists those of its closest subschema under its own error)"
                    .into(),
            );
        }
        alloc::vec![Value::Object(unit)]
    }
}

/// The (escaped) tokens of a JSON pointer.
fn tokens(pointer: &str) -> impl Iterator<Item = &str> {
    pointer.split('/').skip(1)
}

fn join(tokens: &[&str]) -> String {
    let mut out = String::new();
    for token in tokens {
        out.push('/');
        out.push_str(token);
    }
    out
}

/// `absolute` without the keyword path `suffix` at the end of its fragment: the absolute
/// location of the subschema `suffix` was reached from, when no `$id` intervened.
fn strip_keyword_path(absolute: &str, suffix: &[&str]) -> Option<String> {
    let tail = join(suffix);
    let rest = absolute.strip_suffix(tail.as_str())?;
    rest.contains('#').then(|| rest.to_string())
}

/// The subschema evaluations along a keyword location, outermost first, each as the number
/// of keyword tokens and of instance tokens that locate it; the root and the location
/// itself are not listed. A step reads the applicator keywords of every dialect: `$ref`
/// and the other in-place ones keep the instance location, `properties` and the other
/// property and item applicators go one instance token down.
fn subschema_steps(keyword: &[&str], instance_len: usize) -> Vec<(usize, usize)> {
    let is_index = |t: Option<&&str>| {
        t.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut steps = Vec::new();
    let (mut k, mut i) = (0, 0);
    while let Some(&token) = keyword.get(k) {
        let (skip, down) = match token {
            "$ref" | "$dynamicRef" | "$recursiveRef" | "not" | "if" | "then" | "else"
            | "propertyNames" | "contentSchema" => (1, 0),
            "additionalProperties"
            | "unevaluatedProperties"
            | "additionalItems"
            | "unevaluatedItems"
            | "contains" => (1, 1),
            "items" if is_index(keyword.get(k + 1)) => (2, 1),
            "items" => (1, 1),
            "prefixItems" | "properties" | "patternProperties" => (2, 1),
            "allOf" | "anyOf" | "oneOf" | "dependentSchemas" | "dependencies" => (2, 0),
            _ => break,
        };
        k += skip;
        i = (i + down).min(instance_len);
        if k >= keyword.len() {
            break;
        }
        steps.push((k, i));
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorKind, ValidationError};
    use alloc::vec;
    use serde_json::json;

    fn error(instance: &str, keyword: &str, absolute: &str) -> ValidationError {
        ValidationError {
            instance_location: instance.into(),
            keyword_location: keyword.into(),
            absolute_keyword_location: absolute.into(),
            kind: ErrorKind::UniqueItems,
            level: 0,
        }
    }

    fn invalid(errors: Vec<ValidationError>) -> Report {
        Report {
            verdict: Verdict::Invalid,
            errors,
            errors_omitted: 0,
            usage: Default::default(),
        }
    }

    #[test]
    fn format_names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("list"), None);
    }

    #[test]
    fn basic_is_a_root_unit_with_a_flat_list() {
        let report = invalid(vec![error(
            "/a",
            "/properties/a/const",
            "https://x/s#/properties/a/const",
        )]);
        let out = output(Format::Basic, &report, &[]);
        assert_eq!(out["valid"], false);
        assert_eq!(out["keywordLocation"], "");
        assert_eq!(out["instanceLocation"], "");
        assert_eq!(out["errors"][0]["valid"], false);
        assert_eq!(out["errors"][0]["keywordLocation"], "/properties/a/const");
        assert_eq!(out["errors"][0]["instanceLocation"], "/a");
        assert!(out["errors"][0]["error"].is_string());
        assert_eq!(out, basic(&report));
    }

    #[test]
    fn a_valid_instance_lists_its_annotations_and_no_errors() {
        let report = Report {
            verdict: Verdict::Valid,
            errors: vec![],
            errors_omitted: 0,
            usage: Default::default(),
        };
        let title = Annotation {
            instance_location: "/a".into(),
            keyword_location: "/properties/a/title".into(),
            absolute_keyword_location: "https://x/s#/properties/a/title".into(),
            value: json!("A"),
        };
        assert_eq!(title.keyword(), "title");
        let out = output(Format::Basic, &report, core::slice::from_ref(&title));
        assert_eq!(out["annotations"][0]["annotation"], "A");
        assert_eq!(out["annotations"][0]["valid"], true);
        assert!(out.get("errors").is_none());
        let verbose = output(Format::Verbose, &report, &[title]);
        let unit = &verbose["annotations"][0];
        assert_eq!(unit["keywordLocation"], "/properties/a");
        assert_eq!(unit["absoluteKeywordLocation"], "https://x/s#/properties/a");
        assert_eq!(unit["instanceLocation"], "/a");
        assert_eq!(unit["annotations"][0]["annotation"], "A");
    }

    #[test]
    fn detailed_nests_by_subschema_and_collapses_single_children() {
        let report = invalid(vec![
            error(
                "/a/0",
                "/properties/a/items/const",
                "https://x/s#/properties/a/items/const",
            ),
            error(
                "/a/1",
                "/properties/a/items/const",
                "https://x/s#/properties/a/items/const",
            ),
            error("/b", "/properties/b/$ref/const", "https://x/t#/const"),
        ]);
        let detailed = output(Format::Detailed, &report, &[]);
        let errors = detailed["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 2, "{detailed}");
        // `/properties/a` holds the two items' units (each collapsed to its error).
        assert_eq!(errors[0]["keywordLocation"], "/properties/a");
        assert_eq!(errors[0]["instanceLocation"], "/a");
        assert_eq!(errors[0]["valid"], false);
        let items = errors[0]["errors"].as_array().unwrap();
        assert_eq!(items[1]["keywordLocation"], "/properties/a/items/const");
        assert_eq!(items[1]["instanceLocation"], "/a/1");
        // `/properties/b` had one unit: collapsed.
        assert_eq!(errors[1]["keywordLocation"], "/properties/b/$ref/const");

        let verbose = output(Format::Verbose, &report, &[]);
        let b = &verbose["errors"][1];
        assert_eq!(b["keywordLocation"], "/properties/b");
        assert!(b.get("absoluteKeywordLocation").is_none(), "{b}");
        let target = &b["errors"][0];
        assert_eq!(target["keywordLocation"], "/properties/b/$ref");
        assert_eq!(target["absoluteKeywordLocation"], "https://x/t#");
        assert_eq!(
            target["errors"][0]["keywordLocation"],
            "/properties/b/$ref/const"
        );
    }

    #[test]
    fn the_errors_explaining_an_applicator_nest_in_its_unit() {
        let mut cause = error(
            "/a/b",
            "/properties/a/oneOf/1/properties/b/const",
            "https://x/s#/properties/a/oneOf/1/properties/b/const",
        );
        cause.level = 1;
        let report = invalid(vec![
            error(
                "/a",
                "/properties/a/oneOf",
                "https://x/s#/properties/a/oneOf",
            ),
            cause,
            error(
                "/c",
                "/properties/c/const",
                "https://x/s#/properties/c/const",
            ),
        ]);
        assert_eq!(
            output(Format::Basic, &report, &[])["errors"]
                .as_array()
                .map(Vec::len),
            Some(3)
        );
        let detailed = output(Format::Detailed, &report, &[]);
        let errors = detailed["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 2, "{detailed}");
        let one_of = &errors[0];
        assert_eq!(one_of["keywordLocation"], "/properties/a/oneOf");
        assert!(one_of["error"].is_string());
        // The branch's units collapse into the error.
        let causes = one_of["errors"].as_array().unwrap();
        assert_eq!(causes.len(), 1, "{detailed}");
        assert_eq!(
            causes[0]["keywordLocation"],
            "/properties/a/oneOf/1/properties/b/const"
        );
        assert_eq!(errors[1]["keywordLocation"], "/properties/c/const");
        let verbose = output(Format::Verbose, &report, &[]);
        let one_of = &verbose["errors"][0]["errors"][0];
        assert_eq!(
            one_of["keywordLocation"], "/properties/a/oneOf",
            "{verbose}"
        );
        let branch = &one_of["errors"][0];
        assert_eq!(branch["keywordLocation"], "/properties/a/oneOf/1");
        assert_eq!(
            branch["absoluteKeywordLocation"],
            "https://x/s#/properties/a/oneOf/1"
        );
        assert_eq!(branch["instanceLocation"], "/a");
        assert_eq!(
            branch["errors"][0]["errors"][0]["keywordLocation"],
            "/properties/a/oneOf/1/properties/b/const",
            "{verbose}"
        );
    }

    fn unit(instance: &str, keyword: &str, absolute: &str, valid: bool) -> Unit {
        Unit {
            instance_location: instance.into(),
            keyword_location: keyword.into(),
            absolute_keyword_location: absolute.into(),
            valid,
        }
    }

    #[test]
    fn verbose_lists_every_evaluated_subschema() {
        // {properties: {a: {type: integer}, b: {title: B}}, anyOf: [{type: string},
        // {minimum: 0}]} on {"a": 1, "b": 2}.
        let title = Annotation {
            instance_location: "/b".into(),
            keyword_location: "/properties/b/title".into(),
            absolute_keyword_location: "https://x/s#/properties/b/title".into(),
            value: json!("B"),
        };
        let ev = Evaluation::new(
            Report {
                verdict: Verdict::Valid,
                errors: vec![],
                errors_omitted: 0,
                usage: Default::default(),
            },
            vec![title],
        )
        .with_units(vec![
            unit("/a", "/properties/a", "https://x/s#/properties/a", true),
            unit("/b", "/properties/b", "https://x/s#/properties/b", true),
            unit("", "/anyOf/0", "https://x/s#/anyOf/0", false),
            unit("", "/anyOf/1", "https://x/s#/anyOf/1", true),
            unit("", "", "https://x/s#", true),
        ]);
        let verbose = evaluation(Format::Verbose, &ev);
        let units = verbose["annotations"].as_array().unwrap();
        let at: Vec<_> = units
            .iter()
            .map(|u| (u["keywordLocation"].as_str().unwrap(), u["valid"].clone()))
            .collect();
        assert_eq!(
            at,
            vec![
                ("/properties/a", json!(true)),
                ("/properties/b", json!(true)),
                ("/anyOf/0", json!(false)),
                ("/anyOf/1", json!(true)),
            ],
            "{verbose}"
        );
        // A valid unit without annotations has no list; a failed one whose errors were
        // dropped says so; every unit has its absolute location.
        assert!(units[0].get("annotations").is_none(), "{verbose}");
        assert_eq!(units[1]["annotations"][0]["annotation"], "B");
        assert!(units[2]["error"].is_string() && units[2].get("errors").is_none());
        assert!(units
            .iter()
            .all(|u| u["absoluteKeywordLocation"].is_string()));
        // The other formats do not list the units.
        let detailed = evaluation(Format::Detailed, &ev);
        assert_eq!(detailed["annotations"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            evaluation(Format::Basic, &ev),
            output(Format::Basic, &ev.report, &ev.annotations)
        );
    }

    #[test]
    fn incomplete_and_omitted_say_so_in_every_unit_format() {
        let stopped = Report {
            verdict: Verdict::Incomplete(crate::IncompleteReason::BudgetExceeded),
            errors: vec![],
            errors_omitted: 0,
            usage: Default::default(),
        };
        let omitted = Report {
            verdict: Verdict::Invalid,
            errors: vec![],
            errors_omitted: 3,
            usage: Default::default(),
        };
        for format in [Format::Basic, Format::Detailed, Format::Verbose] {
            let out = output(format, &stopped, &[]);
            assert_eq!(out["valid"], false);
            assert!(out["error"].is_string() && out["incomplete"].is_string());
            let out = output(format, &omitted, &[]);
            assert_eq!(out["errorsOmitted"], 3);
            assert!(out["error"].is_string());
        }
        assert_eq!(output(Format::Flag, &stopped, &[])["valid"], false);
    }
}
