//! Lowering: each reachable subschema becomes one IR [`Node`], keyword by keyword, with
//! shapes checked, references resolved and patterns compiled on the way.
//!
//! Takes a loaded [`Index`] and the root's place; gives a [`Program`] or every error found.

use crate::dialect::keywords;
use crate::dialect::members::Members;
use crate::dialect::Dialect;
use crate::error::{CompileError, CompileErrorKind, CompileWarning, Location};
use crate::ir::{
    analyse, defaults, Annotation, Check, CheckKind, Collect, CustomKeyword, Edge, Node, NodeId,
    Program, RegexEntry, RegexId, Resource, ResourceId,
};
use crate::load::{uri, Index, LocateError, Place, SchemaInfo};
use crate::options::{Options, RefPolicy, UnsupportedRegexPolicy};
use crate::regex::{self, RegexError};
use schemac_runtime::error::{Escaped, TypeSet};
use schemac_runtime::json::Divisor;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// Lowers the schema at `root` and everything it reaches.
pub(crate) fn lower(
    index: Index<'_>,
    root: Place,
    options: &Options,
) -> Result<Program, Vec<CompileError>> {
    // Past the nesting limit the walk stopped; lowering the rest would cost time
    // quadratic in its depth for nothing but more errors.
    if index
        .errors
        .iter()
        .any(|e| e.kind == CompileErrorKind::SchemaTooDeep)
    {
        return Err(index.errors);
    }
    let mut lower = Lower {
        index,
        options,
        nodes: Vec::new(),
        memo: HashMap::new(),
        verbatim_base: None,
        queue: Vec::new(),
        regexes: Vec::new(),
        regex_memo: HashMap::new(),
        regex_size: 0,
        regex_dfa_work: options.regex.max_total_dfa_work,
        regex_size_exceeded: false,
        resources: Vec::new(),
        resource_memo: HashMap::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        misspelled: BTreeMap::new(),
        customs: 0,
    };
    let root = lower.node_for(root);
    lower.drain();
    lower.add_dynamic_anchors();
    lower.check_dynamic_targets();
    lower.summary_warnings();

    let mut errors = std::mem::take(&mut lower.index.errors);
    errors.append(&mut lower.errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut program = Program {
        nodes: lower.nodes,
        regexes: lower.regexes,
        resources: lower.resources,
        root,
        limits: options.limits,
        uses_dynamic_scope: false,
        warnings: lower.warnings,
        defaults: None,
    };
    analyse::analyse(&mut program);
    if options.defaults {
        program.defaults =
            Some(defaults::plan(&program, options.max_subschemas).map_err(|e| vec![e])?);
    }
    Ok(program)
}

/// A walked subschema's facts and value, as lowering takes them from the index.
type WalkedFacts<'a> = (SchemaInfo, &'a Value);

struct Lower<'a> {
    index: Index<'a>,
    options: &'a Options,
    nodes: Vec<Node>,
    /// The last base URI a reference resolved against, and whether it reads back as it is
    /// written (see [`Lower::resolve`]).
    verbatim_base: Option<(Rc<str>, bool)>,
    /// The nodes of subschemas the walk did not see, by place (the others' are kept with
    /// them in the index: see `node_for`).
    memo: HashMap<Place, NodeId>,
    /// The nodes to lower: place, node, and the subschema's facts and value when walked.
    queue: Vec<(Place, NodeId, Option<WalkedFacts<'a>>)>,
    regexes: Vec<RegexEntry>,
    regex_memo: HashMap<String, RegexId>,
    /// Total [`regex::CompiledRegex::size`] of the patterns so far.
    regex_size: usize,
    /// DFA-construction steps left for the remaining patterns.
    regex_dfa_work: usize,
    /// The total regex size crossed its limit (reported once; no pattern is compiled
    /// after that).
    regex_size_exceeded: bool,
    resources: Vec<Resource>,
    resource_memo: HashMap<Place, ResourceId>,
    errors: Vec<CompileError>,
    warnings: Vec<CompileWarning>,
    /// Custom keywords lowered so far (the next one's [`CustomKeyword::id`]).
    customs: usize,
    /// Unknown keywords that look like typos of known ones: name → (suggestion, the least
    /// location, how many subschemas have it). One warning per name.
    misspelled: BTreeMap<String, (&'static str, Location, usize)>,
}

impl Lower<'_> {
    /// The warnings that summarize repeated findings: one per misspelled keyword, and one
    /// for every `$schema` ignored in subschemas that are not resource roots.
    fn summary_warnings(&mut self) {
        let places = |n: usize| {
            if n == 1 {
                String::new()
            } else {
                format!(" ({n} subschemas have it; the first is shown)")
            }
        };
        for (name, (known, location, count)) in std::mem::take(&mut self.misspelled) {
            self.warnings.push(CompileWarning {
                location,
                message: format!(
                    "unknown keyword `{}` is ignored; did you mean `{known}`?{}",
                    Escaped(&name),
                    places(count)
                ),
            });
        }
        let ignored = std::mem::take(&mut self.index.ignored_schemas);
        if let Some(first) = ignored.first() {
            let what = match ignored.len() {
                1 => "a subschema that is not a resource root (no `$id`)".to_string(),
                n => format!(
                    "{n} subschemas that are not resource roots (no `$id`; the first is shown)"
                ),
            };
            self.warnings.push(CompileWarning {
                location: first.clone(),
                message: format!(
                    "`$schema` in {what} is ignored: it names the dialect already in force, \
                     and only a resource root may declare one"
                ),
            });
        }
    }

    /// Refuses a program whose run-time `$dynamicRef`s may land in more places than
    /// [`Options::max_dynamic_targets`] (see there), naming the reference that crosses it.
    fn check_dynamic_targets(&mut self) {
        let mut declaring: BTreeMap<&str, usize> = BTreeMap::new();
        for resource in &self.resources {
            for name in resource.dynamic_anchors.keys() {
                *declaring.entry(name).or_default() += 1;
            }
        }
        let mut total = 0usize;
        let crossing = self.nodes.iter().position(|node| {
            node.checks.iter().any(|check| match &check.kind {
                CheckKind::DynamicRef {
                    anchor: Some(name), ..
                } => {
                    let places = declaring.get(name.as_str()).copied().unwrap_or(0);
                    if places > 1 {
                        total = total.saturating_add(places);
                    }
                    total > self.options.max_dynamic_targets
                }
                _ => false,
            })
        });
        let Some(at) = crossing else {
            return;
        };
        let place = (self.memo.iter())
            .find(|(_, id)| id.0 == at)
            .map(|(p, _)| p)
            .or_else(|| self.index.place_of_node(NodeId(at)));
        let location = match place {
            Some(place) => self.index.location(place, Some("$dynamicRef")),
            None => Location::default(),
        };
        self.errors.push(CompileError::new(
            CompileErrorKind::TooManyDynamicTargets,
            location,
            format!(
                "the schema's $dynamicRefs may land in more than {} places (each counts \
                 the resources declaring its $dynamicAnchor; option max_dynamic_targets)",
                self.options.max_dynamic_targets
            ),
        ));
    }

    /// The node for the subschema at `place`, allocated (and queued) on first use: kept
    /// with the walked subschema in the index (one lookup), else in `memo` (a place the
    /// walk did not see, such as a reference into a non-schema value).
    fn node_for(&mut self, place: Place) -> NodeId {
        let id = NodeId(self.nodes.len());
        let walked = match self.index.walked_mut(&place) {
            Some(walked) => match walked.node {
                Some(known) => return known,
                None => {
                    walked.node = Some(id);
                    Some((walked.info.clone(), walked.value))
                }
            },
            None => match self.memo.entry(place.clone()) {
                Entry::Occupied(known) => return *known.get(),
                Entry::Vacant(slot) => {
                    slot.insert(id);
                    None
                }
            },
        };
        if self.nodes.len() == self.options.max_subschemas {
            let location = self.index.location(&place, None);
            self.errors.push(CompileError::new(
                CompileErrorKind::TooManySubschemas,
                location,
                format!(
                    "the schema has more than {} subschemas (option max_subschemas)",
                    self.options.max_subschemas
                ),
            ));
        }
        self.nodes.push(Node {
            uri: String::new(),
            resource: ResourceId(0),
            is_resource_root: false,
            checks: Vec::new(),
            collect: Collect::default(),
            annotations: Vec::new(),
            default: None,
        });
        if self.nodes.len() <= self.options.max_subschemas {
            self.queue.push((place, id, walked));
        }
        id
    }

    /// `reference` resolved against `base` ([`uri::resolve`]); a fragment alone is
    /// appended to a base that reads back as it is written (resolving `#` against it
    /// gives it and `#`), without parsing both again: most references are `#/…`.
    fn resolve(&mut self, base: &Rc<str>, reference: &str) -> String {
        if !reference.starts_with('#') {
            return uri::resolve(base, reference);
        }
        let verbatim = match &self.verbatim_base {
            Some((last, verbatim)) if Rc::ptr_eq(last, base) => *verbatim,
            _ => {
                let verbatim = uri::resolve(base, "#") == format!("{base}#");
                self.verbatim_base = Some((base.clone(), verbatim));
                verbatim
            }
        };
        if verbatim {
            let mut absolute = String::with_capacity(base.len() + reference.len());
            absolute.push_str(base);
            absolute.push_str(reference);
            absolute
        } else {
            uri::resolve(base, reference)
        }
    }

    fn drain(&mut self) {
        while let Some((place, id, walked)) = self.queue.pop() {
            self.lower_node(place, id, walked);
        }
    }

    /// Lowers every `$dynamicAnchor` subschema a dynamic reference may reach, in every
    /// resource the program enters, until no new node appears.
    fn add_dynamic_anchors(&mut self) {
        loop {
            let names: BTreeSet<String> = self
                .nodes
                .iter()
                .flat_map(|n| &n.checks)
                .filter_map(|c| match &c.kind {
                    CheckKind::DynamicRef {
                        anchor: Some(name), ..
                    } => Some(name.clone()),
                    _ => None,
                })
                .collect();
            let mut wanted = Vec::new();
            for ((_, name), anchor) in &self.index.anchors {
                if !anchor.dynamic || !names.contains(name) {
                    continue;
                }
                let info = self.index.info(&anchor.place);
                if let Some(rid) = self.resource_memo.get(&*info.resource) {
                    if !self.resources[rid.0].dynamic_anchors.contains_key(name) {
                        wanted.push((*rid, name.clone(), anchor.place.clone()));
                    }
                }
            }
            if wanted.is_empty() {
                return;
            }
            for (rid, name, place) in wanted {
                let id = self.node_for(place);
                self.resources[rid.0].dynamic_anchors.insert(name, id);
            }
            self.drain();
        }
    }

    fn resource(&mut self, root: &Place) -> ResourceId {
        if let Some(id) = self.resource_memo.get(root) {
            return *id;
        }
        let id = ResourceId(self.resources.len());
        let uri = self.index.info(root).base.to_string();
        self.resources.push(Resource {
            uri,
            dynamic_anchors: BTreeMap::new(),
        });
        self.resource_memo.insert(root.clone(), id);
        id
    }

    /// Lowers the subschema at `place` into node `id`; `walked`: its facts and value, when
    /// the walk saw it.
    fn lower_node(&mut self, place: Place, id: NodeId, walked: Option<WalkedFacts<'_>>) {
        crate::work::add(1);
        let (info, value) = match walked {
            Some((info, value)) => (info, Some(value)),
            None => self.index.schema_at(&place),
        };
        let resource = self.resource(&info.resource);
        let relative = place
            .pointer
            .strip_prefix(info.resource.pointer.as_str())
            .unwrap_or(&place.pointer);
        let base = &self.resources[resource.0].uri;
        let mut uri = String::with_capacity(base.len() + 1 + relative.len());
        uri.push_str(base);
        uri.push('#');
        uri::push_fragment(&mut uri, relative);
        // (draft-04/06/07: `$ref` overrides its siblings, `default` too.)
        let default = match value {
            Some(Value::Object(object))
                if self.options.defaults
                    && !(info.dialect.dialect.is_legacy() && object.contains_key("$ref")) =>
            {
                object.get("default").cloned().map(Box::new)
            }
            _ => None,
        };
        let (checks, annotations) = match value {
            Some(Value::Bool(true)) => (Vec::new(), Vec::new()),
            Some(Value::Bool(false)) => (
                vec![Check {
                    keyword: Cow::Borrowed(""),
                    kind: CheckKind::False,
                    annotates: false,
                }],
                Vec::new(),
            ),
            Some(Value::Object(object)) => Keywords {
                lower: self,
                place: &place,
                info: &info,
                checks: Vec::new(),
            }
            .lower(&Members::new(object)),
            _ => {
                let location = self.index.location(&place, None);
                self.errors.push(CompileError::new(
                    CompileErrorKind::InvalidKeyword,
                    location,
                    "a schema must be an object or a boolean",
                ));
                (Vec::new(), Vec::new())
            }
        };
        let node = &mut self.nodes[id.0];
        node.uri = uri;
        node.resource = resource;
        node.is_resource_root = place == *info.resource;
        node.checks = checks;
        node.annotations = annotations;
        node.default = default;
    }

    fn regex(&mut self, place: &Place, keyword: &str, source: &str) -> Option<RegexId> {
        if let Some(id) = self.regex_memo.get(source) {
            return Some(*id);
        }
        if self.regex_size_exceeded {
            return None;
        }
        let location = self.index.location(place, Some(keyword));
        let compiled =
            match regex::compile_with_work(source, &self.options.regex, &mut self.regex_dfa_work) {
                Ok(compiled) => {
                    let limit = self.options.regex.max_total_size;
                    self.regex_size = self.regex_size.saturating_add(compiled.size());
                    if self.regex_size > limit {
                        self.regex_size_exceeded = true;
                        self.errors.push(CompileError::new(
                            CompileErrorKind::RegexTooLarge,
                            location,
                            format!(
                                "pattern {source:?} ({} bytes compiled) brings the schema's \
                             compiled regexes to {} bytes, over the limit of {limit} \
                             (option regex.max_total_size); later patterns are not compiled",
                                compiled.size(),
                                self.regex_size
                            ),
                        ));
                        return None;
                    }
                    Some(compiled)
                }
                Err(RegexError::Unsupported { construct, .. })
                    if self.options.unsupported_regex == UnsupportedRegexPolicy::Ignore =>
                {
                    self.warnings.push(CompileWarning {
                        location,
                        message: format!(
                            "pattern {source:?} uses {construct}, which the linear-time engine \
                         refuses; it is ignored (unsupported-regex policy)"
                        ),
                    });
                    None
                }
                Err(error) => {
                    let kind = match error {
                        RegexError::Invalid { .. } => CompileErrorKind::InvalidRegex,
                        RegexError::Unsupported { .. } => CompileErrorKind::UnsupportedRegex,
                        RegexError::TooLarge { .. } => CompileErrorKind::RegexTooLarge,
                    };
                    let caret = error
                        .offset()
                        .map(|at| regex::caret(source, at))
                        .unwrap_or_default();
                    let mut compile_error = CompileError::new(
                        kind,
                        location,
                        format!("pattern {source:?}: {error}{caret}"),
                    );
                    compile_error.regex = Some(Box::new(error));
                    self.errors.push(compile_error);
                    return None;
                }
            };
        let id = RegexId(self.regexes.len());
        self.regexes.push(RegexEntry {
            source: source.to_string(),
            compiled,
        });
        self.regex_memo.insert(source.to_string(), id);
        Some(id)
    }
}

/// The lowering of one schema object's keywords.
struct Keywords<'l, 'a> {
    lower: &'l mut Lower<'a>,
    place: &'l Place,
    info: &'l SchemaInfo,
    checks: Vec<Check>,
}

impl Keywords<'_, '_> {
    /// The checks and (under [`Options::annotations`]) the annotations of `object`.
    fn lower(mut self, object: &Members<'_>) -> (Vec<Check>, Vec<Annotation>) {
        let dialect = self.info.dialect;
        let legacy = dialect.dialect.is_legacy();
        if legacy {
            if let Some(reference) = object.get("$ref") {
                // draft-04/06/07: `$ref` overrides every sibling keyword.
                self.reference("$ref", reference, false);
                return (self.checks, Vec::new());
            }
        }
        self.unknown_keywords(object);
        if let Some(reference) = object.get("$ref") {
            self.reference("$ref", reference, false);
        }
        match dialect.dialect {
            Dialect::Draft2020_12 => {
                if let Some(reference) = object.get("$dynamicRef") {
                    self.reference("$dynamicRef", reference, true);
                }
            }
            Dialect::Draft2019_09 => {
                if let Some(reference) = object.get("$recursiveRef") {
                    self.reference("$recursiveRef", reference, true);
                }
            }
            Dialect::Draft7 | Dialect::Draft6 | Dialect::Draft4 => {}
        }
        if dialect.vocab.validation {
            self.validation(object);
        }
        self.format(object);
        self.content(object);
        if dialect.vocab.applicator {
            self.applicators(object);
        }
        self.custom_keywords(object);
        if dialect.vocab.unevaluated && !legacy {
            if let Some(value) = object.get("unevaluatedProperties") {
                if let Some(edge) = self.schema("unevaluatedProperties", &[], value) {
                    self.push(
                        "unevaluatedProperties",
                        CheckKind::UnevaluatedProperties(edge),
                    );
                }
            }
            if let Some(value) = object.get("unevaluatedItems") {
                if let Some(edge) = self.schema("unevaluatedItems", &[], value) {
                    self.push("unevaluatedItems", CheckKind::UnevaluatedItems(edge));
                }
            }
        }
        let annotations = if self.lower.options.annotations {
            let mut found = annotations(dialect.dialect, object);
            // A custom keyword is a check, not an unknown keyword's annotation.
            found.retain(|a| !self.lower.options.custom_keywords.contains(&a.keyword));
            found
        } else {
            Vec::new()
        };
        (self.checks, annotations)
    }

    fn push(&mut self, keyword: impl Into<Cow<'static, str>>, kind: CheckKind) {
        let annotates = self.lower.options.annotations
            && applicator_annotates(self.info.dialect.dialect, &kind);
        self.checks.push(Check {
            keyword: keyword.into(),
            kind,
            annotates,
        });
    }

    /// Where an error at `path` (a keyword, then tokens inside its value) is reported:
    /// the pointer to the value, named by the keyword.
    fn keyword_location(&self, path: &[&str]) -> Location {
        let mut location = self.lower.index.location(&self.place.child(path), None);
        location.keyword = path.first().map(|k| k.to_string());
        location
    }

    fn error(&mut self, kind: CompileErrorKind, keyword: &str, message: String) {
        let location = self.keyword_location(&[keyword]);
        self.lower
            .errors
            .push(CompileError::new(kind, location, message));
    }

    fn invalid(&mut self, keyword: &str, message: &str) {
        self.error(
            CompileErrorKind::InvalidKeyword,
            keyword,
            format!("`{keyword}` {message}"),
        );
    }

    fn warn(&mut self, keyword: &str, message: String) {
        let location = self.keyword_location(&[keyword]);
        self.lower
            .warnings
            .push(CompileWarning { location, message });
    }

    /// The custom keywords of `object` ([`Options::custom_keywords`]), in the option's
    /// order; one that the dialect knows is an error.
    fn custom_keywords(&mut self, object: &Members<'_>) {
        let options = self.lower.options;
        let dialect = self.info.dialect.dialect;
        for name in &options.custom_keywords {
            let Some(value) = object.get(name) else {
                continue;
            };
            if keywords::is_known(dialect, name) {
                self.error(
                    CompileErrorKind::InvalidKeyword,
                    name,
                    format!(
                        "`{}` is a keyword of this schema's dialect: a custom keyword cannot \
                         replace it",
                        Escaped(name)
                    ),
                );
                continue;
            }
            let custom = CustomKeyword {
                id: self.lower.customs,
                value: value.clone(),
                location: self.keyword_location(&[name]),
            };
            self.lower.customs += 1;
            self.push(name.clone(), CheckKind::Custom(Box::new(custom)));
        }
    }

    fn unknown_keywords(&mut self, object: &Members<'_>) {
        let dialect = self.info.dialect.dialect;
        let custom = &self.lower.options.custom_keywords;
        for name in object.map().keys() {
            if keywords::is_known(dialect, name) || custom.contains(name) {
                continue;
            }
            if self.lower.options.strict {
                self.error(
                    CompileErrorKind::UnknownKeyword,
                    name,
                    format!(
                        "unknown keyword `{}` (strict mode refuses unknown keywords){}",
                        Escaped(name),
                        keywords::suggestion(dialect, name)
                            .map(|k| format!("; did you mean `{k}`?"))
                            .unwrap_or_default()
                    ),
                );
            } else if let Some(known) = keywords::suggestion(dialect, name) {
                // Nodes lower in no particular order: keep the least location, so the
                // warning is the same on every run.
                let location = self.keyword_location(&[name]);
                let entry = self.lower.misspelled.entry(name.clone()).or_insert((
                    known,
                    location.clone(),
                    0,
                ));
                entry.1 = entry.1.clone().min(location);
                entry.2 += 1;
            }
        }
    }

    /// An edge to the subschema `value` at `keyword` + `tokens`.
    fn schema(&mut self, keyword: &str, tokens: &[&str], value: &Value) -> Option<Edge> {
        // The keyword and its tokens, on the stack when there are few (always, today).
        let mut few = [""; 3];
        let many: Vec<&str>;
        let path: &[&str] = match few.get_mut(1..=tokens.len()) {
            Some(rest) => {
                rest.copy_from_slice(tokens);
                few[0] = keyword;
                &few[..=tokens.len()]
            }
            None => {
                many = [&[keyword][..], tokens].concat();
                &many
            }
        };
        if value.is_boolean()
            && self.info.dialect.dialect == Dialect::Draft4
            && !matches!(keyword, "additionalProperties" | "additionalItems")
        {
            let location = self.keyword_location(path);
            self.lower.errors.push(CompileError::new(
                CompileErrorKind::InvalidKeyword,
                location,
                format!(
                    "`{keyword}` must hold a schema object here: draft-04 has no boolean \
                     schemas (only `additionalProperties` and `additionalItems` take a boolean)"
                ),
            ));
            return None;
        }
        if !value.is_object() && !value.is_boolean() {
            let location = self.keyword_location(path);
            self.lower.errors.push(CompileError::new(
                CompileErrorKind::InvalidKeyword,
                location,
                format!("`{keyword}` must hold a schema here (an object or a boolean)"),
            ));
            return None;
        }
        let child = self.place.child(path);
        // The keyword-location suffix: the child's pointer past its parent's.
        let path = child.pointer[self.place.pointer.len()..].to_string();
        let target = self.lower.node_for(child);
        Some(Edge { target, path })
    }

    fn schema_list(&mut self, keyword: &str, value: &Value) -> Option<Vec<Edge>> {
        let Some(items) = value.as_array().filter(|a| !a.is_empty()) else {
            self.invalid(keyword, "must be a non-empty array of schemas");
            return None;
        };
        let mut edges = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            edges.push(self.schema(keyword, &[&i.to_string()], item)?);
        }
        Some(edges)
    }

    fn schema_map(&mut self, keyword: &str, value: &Value) -> Option<Vec<(String, Edge)>> {
        let Some(map) = value.as_object() else {
            self.invalid(keyword, "must be an object whose values are schemas");
            return None;
        };
        let mut edges = Vec::with_capacity(map.len());
        for (name, sub) in map {
            edges.push((name.clone(), self.schema(keyword, &[name], sub)?));
        }
        Some(edges)
    }

    fn count(&mut self, keyword: &str, value: &Value) -> Option<u64> {
        let count = match value {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
                    .map(|f| f as u64)
            }),
            _ => None,
        };
        if count.is_none() {
            self.invalid(keyword, "must be a non-negative integer");
        }
        count
    }

    fn number(&mut self, keyword: &str, value: &Value) -> Option<Number> {
        match value {
            Value::Number(n) => Some(n.clone()),
            _ => {
                self.invalid(keyword, "must be a number");
                None
            }
        }
    }

    fn strings(&mut self, keyword: &str, value: &Value) -> Option<Vec<String>> {
        let list = value.as_array().and_then(|items| {
            items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<String>>>()
        });
        if list.is_none() {
            self.invalid(keyword, "must be an array of strings");
        }
        list
    }

    fn reference(&mut self, keyword: &'static str, value: &Value, dynamic: bool) {
        let Some(reference) = value.as_str() else {
            self.invalid(keyword, "must be a string (a URI reference)");
            return;
        };
        let absolute = self.lower.resolve(&self.info.base, reference);
        match self.lower.index.locate(&absolute) {
            Ok(target) => {
                let edge = Edge {
                    target: self.lower.node_for(target),
                    path: format!("/{keyword}"),
                };
                if !dynamic {
                    self.push(keyword, CheckKind::Ref(edge));
                    return;
                }
                let (resource, fragment) = uri::split_fragment(&absolute);
                let name = if keyword == "$recursiveRef" {
                    ""
                } else {
                    fragment
                };
                let anchor = (!name.starts_with('/')
                    && (keyword == "$recursiveRef" || !name.is_empty())
                    && self.lower.index.is_dynamic_anchor(resource, name))
                .then(|| name.to_string());
                self.push(
                    keyword,
                    CheckKind::DynamicRef {
                        fallback: edge,
                        anchor,
                    },
                );
            }
            Err(LocateError::Remote) => match self.lower.options.ref_policy {
                RefPolicy::Error => self.error(
                    CompileErrorKind::RemoteRef,
                    keyword,
                    format!(
                        "reference {reference:?} resolves to {}, a document that is not \
                         registered; schemac never fetches (register it offline, or compile \
                         with the warn reference policy)",
                        Escaped(&absolute)
                    ),
                ),
                RefPolicy::Warn => {
                    self.warn(
                        keyword,
                        format!(
                            "reference {reference:?} resolves to {}, which is not \
                             registered; a validation that reaches it is incomplete",
                            Escaped(&absolute)
                        ),
                    );
                    self.push(keyword, CheckKind::Unresolved { uri: absolute });
                }
            },
            Err(LocateError::Missing(why)) => self.error(
                CompileErrorKind::UnresolvedRef,
                keyword,
                format!("reference {reference:?} cannot be resolved: {why}"),
            ),
        }
    }

    fn validation(&mut self, object: &Members<'_>) {
        let dialect = self.info.dialect.dialect;
        if let Some(value) = object.get("type") {
            self.type_keyword(value);
        }
        if dialect != Dialect::Draft4 {
            if let Some(value) = object.get("const") {
                self.push("const", CheckKind::Const(value.clone()));
            }
        }
        if let Some(value) = object.get("enum") {
            match value {
                Value::Array(items) => self.push("enum", CheckKind::Enum(items.clone())),
                _ => self.invalid("enum", "must be an array of values"),
            }
        }
        if let Some(value) = object.get("multipleOf") {
            match value.as_number().and_then(Divisor::of) {
                Some(divisor) => self.push("multipleOf", CheckKind::MultipleOf(divisor)),
                None => self.invalid("multipleOf", "must be a number greater than 0"),
            }
        }
        if dialect == Dialect::Draft4 {
            self.draft4_bounds(object);
        } else {
            self.bounds(object);
        }
        self.counts_and_strings(object);
        if !dialect.is_legacy() {
            if let Some(value) = object.get("dependentRequired") {
                self.dependent_required("dependentRequired", value);
            }
        }
    }

    /// `minimum`, `maximum`, and the numeric `exclusiveMinimum` / `exclusiveMaximum` of
    /// draft-06 and later.
    fn bounds(&mut self, object: &Members<'_>) {
        type Bound = fn(Number) -> CheckKind;
        let bounds: [(&str, Bound); 4] = [
            ("minimum", CheckKind::Minimum),
            ("maximum", CheckKind::Maximum),
            ("exclusiveMinimum", CheckKind::ExclusiveMinimum),
            ("exclusiveMaximum", CheckKind::ExclusiveMaximum),
        ];
        for (keyword, make) in bounds {
            if let Some(value) = object.get(keyword) {
                if let Some(n) = self.number(keyword, value) {
                    self.push(keyword, make(n));
                }
            }
        }
    }

    /// draft-04's bounds: `exclusiveMinimum` / `exclusiveMaximum` are booleans that make
    /// their sibling `minimum` / `maximum` exclusive (the check keeps the sibling's name, so
    /// its errors point at the bound's value). Alone, they assert nothing.
    fn draft4_bounds(&mut self, object: &Members<'_>) {
        type Bound = fn(Number) -> CheckKind;
        let pairs: [(&str, &str, Bound, Bound); 2] = [
            (
                "minimum",
                "exclusiveMinimum",
                CheckKind::Minimum,
                CheckKind::ExclusiveMinimum,
            ),
            (
                "maximum",
                "exclusiveMaximum",
                CheckKind::Maximum,
                CheckKind::ExclusiveMaximum,
            ),
        ];
        for (bound, flag, inclusive, exclusive) in pairs {
            let exclusive_on = match object.get(flag) {
                None | Some(Value::Bool(false)) => false,
                Some(Value::Bool(true)) => true,
                Some(_) => {
                    self.invalid(
                        flag,
                        "must be a boolean in draft-04 (it makes the sibling bound exclusive)",
                    );
                    false
                }
            };
            if let Some(value) = object.get(bound) {
                if let Some(n) = self.number(bound, value) {
                    let make = if exclusive_on { exclusive } else { inclusive };
                    self.push(bound, make(n));
                }
            }
        }
    }

    /// The count keywords, `pattern`, `uniqueItems` and `required`.
    fn counts_and_strings(&mut self, object: &Members<'_>) {
        type Count = fn(u64) -> CheckKind;
        let counts: [(&str, Count); 6] = [
            ("minLength", CheckKind::MinLength),
            ("maxLength", CheckKind::MaxLength),
            ("minItems", CheckKind::MinItems),
            ("maxItems", CheckKind::MaxItems),
            ("minProperties", CheckKind::MinProperties),
            ("maxProperties", CheckKind::MaxProperties),
        ];
        for (keyword, make) in counts {
            if let Some(value) = object.get(keyword) {
                if let Some(n) = self.count(keyword, value) {
                    self.push(keyword, make(n));
                }
            }
        }
        if let Some(value) = object.get("pattern") {
            match value.as_str() {
                Some(source) => {
                    let place = self.place.child(&["pattern"]);
                    if let Some(id) = self.lower.regex(&place, "pattern", source) {
                        if self.lower.regexes[id.0].compiled.is_some() {
                            self.push("pattern", CheckKind::Pattern(id));
                        }
                    }
                }
                None => self.invalid(
                    "pattern",
                    "must be a string (an ECMA-262 regular expression)",
                ),
            }
        }
        if let Some(value) = object.get("uniqueItems") {
            match value {
                Value::Bool(true) => self.push("uniqueItems", CheckKind::UniqueItems),
                Value::Bool(false) => {}
                _ => self.invalid("uniqueItems", "must be a boolean"),
            }
        }
        if let Some(value) = object.get("required") {
            if let Some(mut names) = self.strings("required", value) {
                dedup(&mut names);
                if !names.is_empty() {
                    self.push("required", CheckKind::Required(names));
                }
            }
        }
    }

    fn type_keyword(&mut self, value: &Value) {
        let names: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        let mut set = TypeSet::default();
        for name in names {
            match name.as_str().and_then(TypeSet::from_name) {
                Some(t) => set = set.union(t),
                None => {
                    self.invalid(
                        "type",
                        "must be a type name or an array of them: null, boolean, object, \
                         array, number, string, integer",
                    );
                    return;
                }
            }
        }
        self.push("type", CheckKind::Type(set));
        // draft-04: an integer is a number written without a fraction or exponent, so `1.0`
        // is not one; serde_json keeps the written form only as "held as an f64", which
        // also holds integers beyond the i64/u64 range (they stay integers).
        if self.info.dialect.dialect == Dialect::Draft4
            && set.contains(TypeSet::INTEGER)
            && !set.contains(TypeSet::NUMBER)
        {
            self.push("type", CheckKind::IntegerLiteral(set));
        }
    }

    fn dependent_required(&mut self, keyword: &'static str, value: &Value) {
        let Some(map) = value.as_object() else {
            self.invalid(
                keyword,
                "must be an object whose values are arrays of strings",
            );
            return;
        };
        let mut pairs = Vec::new();
        for (name, required) in map {
            if let Some(mut names) = self.strings(keyword, required) {
                dedup(&mut names);
                pairs.push((name.clone(), names));
            }
        }
        self.push(keyword, CheckKind::DependentRequired(pairs));
    }

    fn format(&mut self, object: &Members<'_>) {
        let Some(value) = object.get("format") else {
            return;
        };
        let Some(name) = value.as_str() else {
            self.invalid("format", "must be a string (a format name)");
            return;
        };
        let options = self.lower.options;
        if !(options.assert_format || self.info.dialect.vocab.format_assertion) {
            return;
        }
        let known = schemac_runtime::format::lookup(name).is_some()
            || options.custom_formats.iter().any(|f| f == name);
        if known {
            self.push("format", CheckKind::Format(name.to_string()));
        } else {
            self.warn("format", format!("unknown format {name:?} is not asserted"));
        }
    }

    /// draft-07's content keywords, asserted under the `assert_content` option (they are
    /// annotations otherwise, and in 2019-09 / 2020-12 always).
    fn content(&mut self, object: &Members<'_>) {
        if !self.lower.options.assert_content || self.info.dialect.dialect != Dialect::Draft7 {
            return;
        }
        let mut base64 = false;
        if let Some(value) = object.get("contentEncoding") {
            match value.as_str() {
                Some(name) if name.eq_ignore_ascii_case("base64") => {
                    base64 = true;
                    self.push("contentEncoding", CheckKind::ContentBase64);
                }
                Some(name) => self.warn(
                    "contentEncoding",
                    format!(
                        "content encoding {name:?} is not asserted (assert_content knows \
                         base64)"
                    ),
                ),
                None => self.invalid("contentEncoding", "must be a string (an encoding name)"),
            }
        }
        if let Some(value) = object.get("contentMediaType") {
            match value.as_str() {
                Some(media_type) => {
                    let essence = media_type.split(';').next().unwrap_or("").trim();
                    if essence.eq_ignore_ascii_case("application/json") {
                        self.push("contentMediaType", CheckKind::ContentJson { base64 });
                    } else {
                        self.warn(
                            "contentMediaType",
                            format!(
                                "media type {media_type:?} is not asserted (assert_content \
                                 knows application/json)"
                            ),
                        );
                    }
                }
                None => self.invalid("contentMediaType", "must be a string (a media type)"),
            }
        }
    }

    fn applicators(&mut self, object: &Members<'_>) {
        let dialect = self.info.dialect.dialect;
        for (keyword, make) in [
            ("allOf", CheckKind::AllOf as fn(Vec<Edge>) -> CheckKind),
            ("anyOf", CheckKind::AnyOf),
            ("oneOf", CheckKind::OneOf),
        ] {
            if let Some(value) = object.get(keyword) {
                if let Some(edges) = self.schema_list(keyword, value) {
                    self.push(keyword, make(edges));
                }
            }
        }
        if let Some(value) = object.get("not") {
            if let Some(edge) = self.schema("not", &[], value) {
                self.push("not", CheckKind::Not(edge));
            }
        }
        let since7 = !matches!(dialect, Dialect::Draft6 | Dialect::Draft4);
        if let Some(value) = object.get("if").filter(|_| since7) {
            if let Some(condition) = self.schema("if", &[], value) {
                let then = object.get("then").and_then(|v| self.schema("then", &[], v));
                let otherwise = object.get("else").and_then(|v| self.schema("else", &[], v));
                // Without `then`/`else`, `if` asserts nothing, but it may still contribute
                // annotations to `unevaluated*`; the backends skip it when they do not collect.
                self.push(
                    "if",
                    CheckKind::IfThenElse {
                        condition,
                        then,
                        otherwise,
                    },
                );
            }
        }
        if !dialect.is_legacy() {
            if let Some(value) = object.get("dependentSchemas") {
                if let Some(edges) = self.schema_map("dependentSchemas", value) {
                    self.push("dependentSchemas", CheckKind::DependentSchemas(edges));
                }
            }
        }
        if let Some(value) = object.get("dependencies") {
            self.dependencies(value);
        }
        self.object_applicators(object);
        self.array_applicators(object);
    }

    fn dependencies(&mut self, value: &Value) {
        let Some(map) = value.as_object() else {
            self.invalid(
                "dependencies",
                "must be an object whose values are schemas or arrays of strings",
            );
            return;
        };
        let mut required = Vec::new();
        let mut schemas = Vec::new();
        for (name, dependency) in map {
            if dependency.is_array() {
                if let Some(mut names) = self.strings("dependencies", dependency) {
                    dedup(&mut names);
                    required.push((name.clone(), names));
                }
            } else if let Some(edge) = self.schema("dependencies", &[name], dependency) {
                schemas.push((name.clone(), edge));
            }
        }
        if !required.is_empty() {
            self.push("dependencies", CheckKind::DependentRequired(required));
        }
        if !schemas.is_empty() {
            self.push("dependencies", CheckKind::DependentSchemas(schemas));
        }
    }

    fn object_applicators(&mut self, object: &Members<'_>) {
        let mut known = Vec::new();
        if let Some(value) = object.get("properties") {
            if let Some(edges) = self.schema_map("properties", value) {
                known = edges.iter().map(|(name, _)| name.clone()).collect();
                self.push("properties", CheckKind::Properties(edges));
            }
        }
        let mut patterns = Vec::new();
        if let Some(value) = object.get("patternProperties") {
            if let Some(edges) = self.schema_map("patternProperties", value) {
                let place = self.place.child(&["patternProperties"]);
                let mut compiled = Vec::new();
                for (source, edge) in edges {
                    if let Some(id) = self.lower.regex(&place, "patternProperties", &source) {
                        patterns.push(id);
                        compiled.push((id, edge));
                    }
                }
                self.push("patternProperties", CheckKind::PatternProperties(compiled));
            }
        }
        if let Some(value) = object.get("additionalProperties") {
            if let Some(schema) = self.schema("additionalProperties", &[], value) {
                self.push(
                    "additionalProperties",
                    CheckKind::AdditionalProperties {
                        schema,
                        known,
                        patterns,
                    },
                );
            }
        }
        let since6 = self.info.dialect.dialect != Dialect::Draft4;
        if let Some(value) = object.get("propertyNames").filter(|_| since6) {
            if let Some(edge) = self.schema("propertyNames", &[], value) {
                self.push("propertyNames", CheckKind::PropertyNames(edge));
            }
        }
    }

    fn array_applicators(&mut self, object: &Members<'_>) {
        let dialect = self.info.dialect.dialect;
        let mut prefix = 0;
        if dialect == Dialect::Draft2020_12 {
            if let Some(value) = object.get("prefixItems") {
                if let Some(edges) = self.schema_list("prefixItems", value) {
                    prefix = edges.len();
                    self.push("prefixItems", CheckKind::PrefixItems(edges));
                }
            }
            if let Some(value) = object.get("items") {
                if let Some(schema) = self.schema("items", &[], value) {
                    self.push(
                        "items",
                        CheckKind::Items {
                            schema,
                            skip: prefix,
                        },
                    );
                }
            }
        } else {
            match object.get("items") {
                Some(Value::Array(items)) => {
                    let mut edges = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        if let Some(edge) = self.schema("items", &[&i.to_string()], item) {
                            edges.push(edge);
                        }
                    }
                    let skip = edges.len();
                    if !edges.is_empty() {
                        self.push("items", CheckKind::PrefixItems(edges));
                    }
                    if let Some(value) = object.get("additionalItems") {
                        if let Some(schema) = self.schema("additionalItems", &[], value) {
                            self.push("additionalItems", CheckKind::Items { schema, skip });
                        }
                    }
                }
                Some(value) => {
                    if let Some(schema) = self.schema("items", &[], value) {
                        self.push("items", CheckKind::Items { schema, skip: 0 });
                    }
                }
                None => {}
            }
        }
        if let Some(value) = object
            .get("contains")
            .filter(|_| dialect != Dialect::Draft4)
        {
            if let Some(schema) = self.schema("contains", &[], value) {
                let mut min = 1;
                let mut max = None;
                if !dialect.is_legacy() && self.info.dialect.vocab.validation {
                    if let Some(v) = object.get("minContains") {
                        min = self.count("minContains", v).unwrap_or(1);
                    }
                    if let Some(v) = object.get("maxContains") {
                        max = self.count("maxContains", v);
                    }
                }
                self.push("contains", CheckKind::Contains { schema, min, max });
            }
        }
    }
}

/// Whether a check of `kind` gives an applicator annotation in `dialect` (see
/// [`Check::annotates`]): 2020-12 and 2019-09 only, `contains` in 2020-12 only.
fn applicator_annotates(dialect: Dialect, kind: &CheckKind) -> bool {
    match kind {
        CheckKind::Properties(_)
        | CheckKind::PatternProperties(_)
        | CheckKind::AdditionalProperties { .. }
        | CheckKind::UnevaluatedProperties(_)
        | CheckKind::PrefixItems(_)
        | CheckKind::Items { .. }
        | CheckKind::UnevaluatedItems(_) => {
            matches!(dialect, Dialect::Draft2020_12 | Dialect::Draft2019_09)
        }
        CheckKind::Contains { .. } => dialect == Dialect::Draft2020_12,
        _ => false,
    }
}

fn dedup(names: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
}

/// The annotating keywords of `object` in `dialect`, in schema order: meta-data, `format`,
/// content (`contentSchema` only beside `contentMediaType`) and unknown keywords.
fn annotations(dialect: Dialect, object: &Members<'_>) -> Vec<Annotation> {
    object
        .map()
        .iter()
        .filter(|(name, _)| {
            keywords::is_annotation(dialect, name)
                || (name.as_str() == "contentSchema"
                    && keywords::is_known(dialect, name)
                    && object.contains_key("contentMediaType"))
        })
        .map(|(name, value)| Annotation {
            keyword: name.clone(),
            value: value.clone(),
            strings_only: matches!(
                name.as_str(),
                "contentMediaType" | "contentEncoding" | "contentSchema"
            ),
        })
        .collect()
}
