//! Loading: documents, the offline registry, resources, anchors and base URIs.
//!
//! Takes the root schema and the [`Registry`]; gives an `Index`: every schema resource
//! (`$id`, or a document's retrieval URI) and anchor by absolute URI, and for every
//! subschema its base URI, resource and dialect. Nothing is ever fetched: a reference can
//! only reach the compiled document and documents added to the registry, which are
//! loaded the first time a reference names them.

pub mod uri;

use crate::dialect::members::Members;
use crate::dialect::Dialect;
use crate::dialect::{self, keywords, DialectInfo};
use crate::error::{CompileError, CompileErrorKind, Location};
use crate::ir::NodeId;
use crate::options::Options;
use schemac_runtime::error::Escaped;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// The base URI of a root document that declares no `$id`.
pub const DEFAULT_BASE_URI: &str = "https://schemac.invalid/root.json";

/// Offline documents that references may reach, by absolute URI (without fragment).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    documents: BTreeMap<String, Value>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Registers `value` under `uri`: an absolute URI without a (non-empty) fragment.
    pub fn add(&mut self, uri: &str, value: Value) -> Result<(), CompileError> {
        let (base, fragment) = uri::split_fragment(uri);
        if !fragment.is_empty() || !uri::has_scheme(base) {
            return Err(CompileError::new(
                CompileErrorKind::InvalidIdentifier,
                Location {
                    document: uri.to_string(),
                    ..Location::default()
                },
                "a registered document needs an absolute URI without a fragment",
            ));
        }
        self.documents.insert(base.to_string(), value);
        Ok(())
    }

    /// The document registered under `uri`, if any.
    pub fn get(&self, uri: &str) -> Option<&Value> {
        self.documents.get(uri)
    }

    /// All registered documents, by URI.
    pub fn documents(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.documents.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// A position in a loaded document: the document's index and a JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Place {
    pub doc: usize,
    pub pointer: String,
}

impl Place {
    /// The place of `self`'s child reached through the (unescaped) tokens.
    pub fn child(&self, tokens: &[&str]) -> Place {
        let length = tokens.iter().map(|t| t.len() + 1).sum::<usize>();
        let mut pointer = String::with_capacity(self.pointer.len() + length);
        pointer.push_str(&self.pointer);
        for t in tokens {
            pointer.push('/');
            uri::push_token(&mut pointer, t);
        }
        Place {
            doc: self.doc,
            pointer,
        }
    }
}

/// A walked subschema, as the index keeps it.
#[derive(Debug)]
pub(crate) struct Walked<'a> {
    /// What the walk learned about it.
    pub info: SchemaInfo,
    /// Its value.
    pub value: &'a Value,
    /// The node lowering made of it, once it has.
    pub node: Option<NodeId>,
}

/// What the walk learned about one subschema.
#[derive(Debug, Clone)]
pub(crate) struct SchemaInfo {
    /// The base URI `$ref`s in this subschema resolve against.
    pub base: Rc<str>,
    /// The root of the resource the subschema belongs to.
    pub resource: Rc<Place>,
    /// The dialect in force.
    pub dialect: DialectInfo,
}

/// One loaded document.
#[derive(Debug)]
pub(crate) struct Document<'a> {
    /// How errors name it: the file name for the root, else the URI.
    pub name: String,
    /// The JSON.
    pub value: &'a Value,
}

/// An anchor (`$anchor`, `$dynamicAnchor`, draft-07 `$id: "#name"`).
#[derive(Debug, Clone)]
pub(crate) struct Anchor {
    pub place: Place,
    pub dynamic: bool,
}

/// Why a reference could not be located.
#[derive(Debug)]
pub(crate) enum LocateError {
    /// The document is not loaded and not in the registry.
    Remote,
    /// The document is known but the fragment names nothing in it.
    Missing(String),
}

/// Resources, anchors and subschema facts of every loaded document.
pub(crate) struct Index<'a> {
    registry: &'a Registry,
    options: &'a Options,
    pub docs: Vec<Document<'a>>,
    /// Resource URI (no fragment) → the place of its root.
    pub resources: BTreeMap<String, Place>,
    /// (resource URI, anchor name) → anchor.
    pub anchors: BTreeMap<(String, String), Anchor>,
    /// Every walked subschema: its facts, its value (so that lowering finds it without
    /// resolving its pointer again) and the node lowering made of it.
    infos: HashMap<Place, Walked<'a>>,
    /// Errors found while walking documents.
    pub errors: Vec<CompileError>,
    /// Where `$schema` appears in a subschema that is not a resource root, naming the
    /// dialect already in force (ignored; lowering reports them in one warning).
    pub ignored_schemas: Vec<Location>,
}

impl<'a> Index<'a> {
    /// An index with no documents loaded yet.
    pub fn new(registry: &'a Registry, options: &'a Options) -> Index<'a> {
        Index {
            registry,
            options,
            docs: Vec::new(),
            resources: BTreeMap::new(),
            anchors: BTreeMap::new(),
            infos: HashMap::new(),
            errors: Vec::new(),
            ignored_schemas: Vec::new(),
        }
    }

    /// Loads the root schema under [`DEFAULT_BASE_URI`]; `name` names it in errors.
    pub fn load_root(&mut self, name: &str, value: &'a Value) -> Place {
        self.load(name.to_string(), DEFAULT_BASE_URI.to_string(), value)
    }

    fn load(&mut self, name: String, base: String, value: &'a Value) -> Place {
        let doc = self.docs.len();
        self.docs.push(Document { name, value });
        let place = Place {
            doc,
            pointer: String::new(),
        };
        self.resources.insert(base.clone(), place.clone());
        let dialect = DialectInfo::standard(self.options.default_dialect);
        let mut walker = Walk {
            index: self,
            doc,
            records: Vec::new(),
        };
        let (base, resource) = (Rc::from(base), Rc::new(place.clone()));
        walker.schema(value, place.clone(), &base, &resource, dialect, 0, true);
        let records = walker.records;
        self.infos.reserve(records.len());
        self.infos.extend(records);
        place
    }

    /// The document a place is in.
    pub fn value_at(&self, place: &Place) -> Option<&'a Value> {
        match self.infos.get(place) {
            Some(walked) => Some(walked.value),
            None => self.docs.get(place.doc)?.value.pointer(&place.pointer),
        }
    }

    /// A location for errors.
    pub fn location(&self, place: &Place, keyword: Option<&str>) -> Location {
        Location {
            document: self.docs[place.doc].name.clone(),
            pointer: place.pointer.clone(),
            keyword: keyword.map(str::to_string),
        }
    }

    /// The facts of the subschema at `place` ([`Index::info`]) and its value
    /// ([`Index::value_at`]), with one lookup when the walk saw it.
    pub fn schema_at(&self, place: &Place) -> (SchemaInfo, Option<&'a Value>) {
        match self.infos.get(place) {
            Some(walked) => (walked.info.clone(), Some(walked.value)),
            None => (self.info(place), self.value_at(place)),
        }
    }

    /// The walked subschema at `place`, if the walk saw one there.
    pub fn walked_mut(&mut self, place: &Place) -> Option<&mut Walked<'a>> {
        self.infos.get_mut(place)
    }

    /// The place of the walked subschema lowered to node `id`, if there is one.
    pub fn place_of_node(&self, id: NodeId) -> Option<&Place> {
        (self.infos.iter())
            .find(|(_, walked)| walked.node == Some(id))
            .map(|(place, _)| place)
    }

    /// The facts of the subschema at `place`: its own when the walk saw it, else those
    /// of its nearest walked ancestor (a reference may point anywhere in a document).
    pub fn info(&self, place: &Place) -> SchemaInfo {
        if let Some(walked) = self.infos.get(place) {
            return walked.info.clone();
        }
        let mut pointer = place.pointer.as_str();
        while let Some(i) = pointer.rfind('/') {
            pointer = &pointer[..i];
            let ancestor = Place {
                doc: place.doc,
                pointer: pointer.to_string(),
            };
            if let Some(walked) = self.infos.get(&ancestor) {
                return walked.info.clone();
            }
        }
        SchemaInfo {
            base: Rc::from(DEFAULT_BASE_URI),
            resource: Rc::new(Place {
                doc: place.doc,
                pointer: String::new(),
            }),
            dialect: DialectInfo::standard(self.options.default_dialect),
        }
    }

    /// Finds the subschema an absolute URI (with optional fragment) names, loading a
    /// registered document on first use.
    pub fn locate(&mut self, absolute: &str) -> Result<Place, LocateError> {
        let (resource, fragment) = uri::split_fragment(absolute);
        let root = match self.resources.get(resource) {
            Some(root) => root.clone(),
            None => {
                let registry = self.registry;
                let Some(value) = registry.get(resource) else {
                    return Err(LocateError::Remote);
                };
                self.load(resource.to_string(), resource.to_string(), value)
            }
        };
        if fragment.is_empty() {
            return Ok(root);
        }
        let decoded = uri::percent_decode(fragment)
            .ok_or_else(|| LocateError::Missing(format!("malformed fragment {fragment:?}")))?;
        if decoded.starts_with('/') {
            if !uri::is_pointer(&decoded) {
                return Err(LocateError::Missing(format!(
                    "malformed JSON pointer {decoded:?}"
                )));
            }
            // (A well-formed pointer's tokens, unescaped and escaped again, are its text.)
            let place = Place {
                doc: root.doc,
                pointer: root.pointer + &decoded,
            };
            if self.value_at(&place).is_none() {
                return Err(LocateError::Missing(format!(
                    "{} has nothing at {}",
                    Escaped(resource),
                    Escaped(&decoded)
                )));
            }
            return Ok(place);
        }
        match self
            .anchors
            .get(&(resource.to_string(), decoded.to_string()))
        {
            Some(anchor) => Ok(anchor.place.clone()),
            None => Err(LocateError::Missing(format!(
                "{} declares no anchor {decoded:?}",
                Escaped(resource)
            ))),
        }
    }

    /// Whether `name` is a `$dynamicAnchor` of the resource `resource`.
    pub fn is_dynamic_anchor(&self, resource: &str, name: &str) -> bool {
        self.anchors
            .get(&(resource.to_string(), name.to_string()))
            .is_some_and(|a| a.dynamic)
    }
}

/// How a keyword's value holds subschemas.
#[derive(Clone, Copy)]
enum Holds {
    /// One subschema (`items` too, when it is not an array).
    One,
    /// An array of subschemas (`items` too, when it is one).
    Array,
    /// An object of subschemas (`dependencies`: those entries that are not arrays of
    /// names).
    Map,
}

/// How the value of `keyword`, a keyword of the dialect in force, holds subschemas, if
/// it does.
fn holds(keyword: &str, value: &Value) -> Option<Holds> {
    Some(match keyword {
        "additionalProperties"
        | "propertyNames"
        | "additionalItems"
        | "contains"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Holds::One,
        "items" if !value.is_array() => Holds::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" | "items" => Holds::Array,
        "$defs" | "definitions" | "properties" | "patternProperties" | "dependentSchemas"
        | "dependencies" => Holds::Map,
        _ => return None,
    })
}

/// Whether `name` is a valid `$anchor` / `$dynamicAnchor` (an XML NCName-like token).
fn is_anchor_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The recursive walk over one document.
struct Walk<'i, 'a> {
    index: &'i mut Index<'a>,
    doc: usize,
    /// What the walk learned, by place: put in the index's map once it is over, so that
    /// the map is sized once instead of growing (and hashing everything again) as it fills.
    records: Vec<(Place, Walked<'a>)>,
}

impl<'a> Walk<'_, 'a> {
    fn error(&mut self, kind: CompileErrorKind, place: &Place, keyword: &str, message: String) {
        let location = self.index.location(place, Some(keyword));
        self.index
            .errors
            .push(CompileError::new(kind, location, message));
    }

    #[allow(clippy::too_many_arguments)]
    fn schema(
        &mut self,
        value: &'a Value,
        place: Place,
        base: &Rc<str>,
        resource: &Rc<Place>,
        dialect: DialectInfo,
        depth: usize,
        document_root: bool,
    ) {
        crate::work::add(1);
        if depth > self.index.options.max_schema_depth {
            self.error(
                CompileErrorKind::SchemaTooDeep,
                &place,
                "",
                format!(
                    "subschemas nest deeper than the limit of {} (option max_schema_depth)",
                    self.index.options.max_schema_depth
                ),
            );
            return;
        }
        let Value::Object(object) = value else {
            self.record(place, value, base, resource, dialect);
            return;
        };
        let object = Members::new(object);

        // `$schema` first: it decides how the other keywords read. A subschema is a resource
        // root when it has an identifier: the keyword of the dialect in force (`$id`, or
        // draft-04's `id`) or, when it declares another dialect, that dialect's.
        let parent = dialect;
        let declared = object.get("$schema").and_then(Value::as_str).map(|uri| {
            let (registry, options) = (self.index.registry, self.index.options);
            let allowed = (
                &options.allowed_dialects[..],
                options.dialect_rule.as_deref(),
            );
            dialect::detect(uri, |uri| registry.get(uri), allowed)
        });
        let has_id = |d: Dialect| {
            object
                .get(d.id_keyword())
                .and_then(Value::as_str)
                .is_some_and(|id| !(d.is_legacy() && id.starts_with('#')))
        };
        let declares_id =
            has_id(parent.dialect) || matches!(&declared, Some(Ok(d)) if has_id(d.dialect));
        let mut dialect = dialect;
        match (object.get("$schema"), declared) {
            (None, _) => {}
            (Some(_), Some(Ok(d))) if document_root || declares_id => dialect = d,
            (Some(_), Some(Err(message))) if document_root || declares_id => self.error(
                CompileErrorKind::UnsupportedDialect,
                &place,
                "$schema",
                message,
            ),
            // Not a resource root: harmless when it names the dialect in force (collected
            // into one warning), an error when it names another.
            (Some(_), Some(Ok(d))) if d == parent => {
                let location = self.index.location(&place, Some("$schema"));
                self.index.ignored_schemas.push(location);
            }
            (Some(schema), Some(_)) => self.error(
                CompileErrorKind::MisplacedSchema,
                &place,
                "$schema",
                format!(
                    "`$schema` {:?} names another dialect than the one in force ({}), but this \
                     subschema is not the root of a schema resource (a document root or a \
                     subschema with `{}`), where a dialect may change",
                    schema.as_str().unwrap_or_default(),
                    parent.dialect.uri(),
                    parent.dialect.id_keyword()
                ),
            ),
            (Some(_), None) => self.error(
                CompileErrorKind::InvalidKeyword,
                &place,
                "$schema",
                "`$schema` must be a string (a meta-schema URI)".to_string(),
            ),
        }

        let legacy = dialect.dialect.is_legacy();
        let id_keyword = dialect.dialect.id_keyword();
        // draft-04/06/07: `$ref` overrides its siblings, `$id` included, for the subschema
        // itself; descendants still see the `$id`.
        let own_base = base.clone();
        let mut base = base.clone();
        let mut resource = resource.clone();
        if let Some(id) = object.get(id_keyword) {
            match id.as_str() {
                Some(id) if legacy && id.starts_with('#') => {
                    self.anchor(&place, &base, &id[1..], false, id_keyword)
                }
                Some(id) => {
                    let resolved = uri::resolve(&base, id);
                    let (uri_part, fragment) = uri::split_fragment(&resolved);
                    if !fragment.is_empty() && !legacy {
                        self.error(
                            CompileErrorKind::InvalidIdentifier,
                            &place,
                            id_keyword,
                            format!(
                                "`{id_keyword}` {id:?} has a fragment; use `$anchor` to name a \
                                 subschema"
                            ),
                        );
                    }
                    base = Rc::from(uri_part);
                    resource = Rc::new(place.clone());
                    match self.index.resources.get(&*base) {
                        // Two subschemas of one document with one identifier: a `$ref`
                        // to it would pick one silently.
                        Some(first) if first.doc == place.doc && *first != place => {
                            let message = format!(
                                "`{id_keyword}` {id:?} identifies {}, which the subschema \
                                 at {} already declares; an identifier may name one resource",
                                Escaped(&base),
                                Escaped(&format!("#{}", first.pointer))
                            );
                            self.error(
                                CompileErrorKind::InvalidIdentifier,
                                &place,
                                id_keyword,
                                message,
                            )
                        }
                        Some(_) => {}
                        None => {
                            self.index.resources.insert(base.to_string(), place.clone());
                        }
                    }
                    if legacy && !fragment.is_empty() {
                        self.anchor(&place, &base, fragment, false, id_keyword);
                    }
                }
                None => self.error(
                    CompileErrorKind::InvalidKeyword,
                    &place,
                    id_keyword,
                    format!("`{id_keyword}` must be a string (a URI reference)"),
                ),
            }
        }
        if document_root {
            resource = Rc::new(place.clone());
        }
        if !legacy {
            for (keyword, dynamic) in [("$anchor", false), ("$dynamicAnchor", true)] {
                if dialect.dialect == Dialect::Draft2019_09 && dynamic {
                    continue;
                }
                if let Some(anchor) = object.get(keyword) {
                    match anchor.as_str() {
                        Some(name) if is_anchor_name(name) => {
                            self.anchor(&place, &base, name, dynamic, keyword)
                        }
                        _ => self.error(
                            CompileErrorKind::InvalidIdentifier,
                            &place,
                            keyword,
                            format!(
                                "`{keyword}` must be a name: a letter or `_`, then letters, \
                                 digits, `-`, `_` or `.`"
                            ),
                        ),
                    }
                }
            }
            if dialect.dialect == Dialect::Draft2019_09
                && object.get("$recursiveAnchor") == Some(&Value::Bool(true))
            {
                self.anchor(&place, &base, "", true, "$recursiveAnchor");
            }
        }
        let ref_base = if legacy && object.contains_key("$ref") {
            own_base
        } else {
            base.clone()
        };
        // (The children first, so that the place moves into the record.)
        self.children(&object, &place, &base, &resource, dialect, depth);
        self.record(place, value, &ref_base, &resource, dialect);
    }

    fn children(
        &mut self,
        object: &Members<'a>,
        place: &Place,
        base: &Rc<str>,
        resource: &Rc<Place>,
        dialect: DialectInfo,
        depth: usize,
    ) {
        for (keyword, value) in object.map() {
            let keyword = keyword.as_str();
            // Only the dialect's own keywords hold subschemas (draft-07's `$defs` is an
            // unknown keyword, its value no schema).
            let Some(holds) = holds(keyword, value) else {
                continue;
            };
            if !keywords::is_known(dialect.dialect, keyword) {
                continue;
            }
            match (holds, value) {
                (Holds::One, _) => self.schema(
                    value,
                    place.child(&[keyword]),
                    base,
                    resource,
                    dialect,
                    depth + 1,
                    false,
                ),
                (Holds::Array, Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        let i = i.to_string();
                        self.schema(
                            item,
                            place.child(&[keyword, &i]),
                            base,
                            resource,
                            dialect,
                            depth + 1,
                            false,
                        );
                    }
                }
                (Holds::Map, Value::Object(map)) => {
                    for (name, sub) in map {
                        if keyword == "dependencies" && sub.is_array() {
                            continue;
                        }
                        self.schema(
                            sub,
                            place.child(&[keyword, name]),
                            base,
                            resource,
                            dialect,
                            depth + 1,
                            false,
                        );
                    }
                }
                _ => {}
            }
        }
    }

    fn record(
        &mut self,
        place: Place,
        value: &'a Value,
        base: &Rc<str>,
        resource: &Rc<Place>,
        dialect: DialectInfo,
    ) {
        debug_assert_eq!(place.doc, self.doc);
        let info = SchemaInfo {
            base: base.clone(),
            resource: resource.clone(),
            dialect,
        };
        let walked = Walked {
            info,
            value,
            node: None,
        };
        self.records.push((place, walked));
    }

    fn anchor(&mut self, place: &Place, base: &str, name: &str, dynamic: bool, keyword: &str) {
        let key = (base.to_string(), name.to_string());
        if let Some(existing) = self.index.anchors.get(&key) {
            if existing.place != *place {
                self.error(
                    CompileErrorKind::InvalidIdentifier,
                    place,
                    keyword,
                    format!(
                        "anchor {name:?} is defined twice in resource {}",
                        Escaped(base)
                    ),
                );
            }
            // A `$dynamicAnchor` also serves as a plain anchor; keep the dynamic flag.
            if dynamic {
                self.index.anchors.insert(
                    key,
                    Anchor {
                        place: place.clone(),
                        dynamic,
                    },
                );
            }
            return;
        }
        self.index.anchors.insert(
            key,
            Anchor {
                place: place.clone(),
                dynamic,
            },
        );
    }
}
