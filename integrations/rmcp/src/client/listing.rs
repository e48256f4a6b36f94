//! One listing of a server's tools, bounded as a whole: pages, tools and bytes are counted
//! as the pages arrive ([`ListLimits`]), then each tool is compiled — or reused from the
//! previous listing when its schemas did not change — and every entry of a name listed
//! more than once is refused.

use crate::tools::{ToolError, ToolValidator};
use rmcp::model::{JsonObject, Tool};
use schemac::{CompileError, CompileErrorKind, CompileErrors, Location, ValidatorOptions};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Bounds on one listing of a server's tools as a whole (each schema also has the
/// compiler's own limits). Over any of them the list is refused
/// ([`ClientError::ToolListTooLarge`](crate::ClientError::ToolListTooLarge)) and no tool of
/// the server can be called until its list changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListLimits {
    /// Pages (`tools/list` requests) one listing may take (default
    /// [`ListLimits::DEFAULT_MAX_PAGES`]): a server that always answers with a `nextCursor`
    /// is refused after this many.
    pub max_pages: usize,
    /// Tools in the whole list (default [`ListLimits::DEFAULT_MAX_TOOLS`]).
    pub max_tools: usize,
    /// Bytes of all the tool definitions, as JSON (default
    /// [`ListLimits::DEFAULT_MAX_BYTES`]). It bounds the compile work and the memory the
    /// list keeps, which grow with the size of the schemas.
    pub max_bytes: usize,
}

impl ListLimits {
    /// The default [`ListLimits::max_pages`]: 100.
    pub const DEFAULT_MAX_PAGES: usize = 100;
    /// The default [`ListLimits::max_tools`]: 1,000.
    pub const DEFAULT_MAX_TOOLS: usize = 1_000;
    /// The default [`ListLimits::max_bytes`]: 8 MiB.
    pub const DEFAULT_MAX_BYTES: usize = 8 << 20;
}

impl Default for ListLimits {
    fn default() -> Self {
        ListLimits {
            max_pages: ListLimits::DEFAULT_MAX_PAGES,
            max_tools: ListLimits::DEFAULT_MAX_TOOLS,
            max_bytes: ListLimits::DEFAULT_MAX_BYTES,
        }
    }
}

/// Which bound of [`ListLimits`] a tool list went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListBound {
    /// [`ListLimits::max_pages`].
    Pages,
    /// [`ListLimits::max_tools`].
    Tools,
    /// [`ListLimits::max_bytes`].
    Bytes,
}

/// A tool list over a bound of [`ListLimits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListTooLarge {
    /// The bound.
    pub bound: ListBound,
    /// Its value.
    pub limit: usize,
}

impl fmt::Display for ListTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, field) = match self.bound {
            ListBound::Pages => ("pages", "max_pages"),
            ListBound::Tools => ("tools", "max_tools"),
            ListBound::Bytes => ("bytes of tool definitions", "max_bytes"),
        };
        write!(
            f,
            "the server's tool list was refused: it has more than {} {what} \
             (ListLimits::{field}); no tool of it can be called until the list changes",
            self.limit
        )
    }
}

impl std::error::Error for ListTooLarge {}

/// A tool as the cache keeps it: its compiled validators or why it was refused, and the
/// schemas they came from, so that an unchanged tool is not compiled again.
#[derive(Debug, Clone)]
pub(crate) struct CachedTool {
    /// The schemas compiled (`None` for an entry refused for a reason of the list's, such
    /// as a duplicated name: never reused).
    schemas: Option<Schemas>,
    pub(crate) outcome: Result<ToolValidator, ToolError>,
}

#[derive(Debug, Clone)]
struct Schemas {
    input: Arc<JsonObject>,
    output: Option<Arc<JsonObject>>,
}

impl Schemas {
    fn of(tool: &Tool) -> Schemas {
        Schemas {
            input: tool.input_schema.clone(),
            output: tool.output_schema.clone(),
        }
    }

    /// Whether `tool` has exactly these schemas.
    fn same_as(&self, tool: &Tool) -> bool {
        let same = |a: &Arc<JsonObject>, b: &Arc<JsonObject>| Arc::ptr_eq(a, b) || a == b;
        same(&self.input, &tool.input_schema)
            && match (&self.output, &tool.output_schema) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Tools as listed: those that compiled, and those refused with their errors.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    /// The tools whose schemas compiled: these may be called.
    pub tools: Vec<Tool>,
    /// The tools refused, each with its errors: schemas that do not compile, and every
    /// entry of a name the server listed more than once.
    pub refused: Vec<ToolError>,
    /// How many tools' schemas this listing compiled.
    pub compiled: usize,
    /// How many tools kept the validators of the previous listing, their schemas
    /// unchanged.
    pub reused: usize,
}

/// The tools of one listing so far, counted against the limits.
#[derive(Debug)]
pub(crate) struct Listing {
    limits: ListLimits,
    pages: usize,
    bytes: usize,
    tools: Vec<Tool>,
}

impl Listing {
    pub(crate) fn new(limits: ListLimits) -> Listing {
        Listing {
            limits,
            pages: 0,
            bytes: 0,
            tools: Vec::new(),
        }
    }

    /// Adds a page of tools; `more` says the server offers another. `Err` when the list
    /// is over a bound, or would be with the next page.
    pub(crate) fn add_page(&mut self, tools: Vec<Tool>, more: bool) -> Result<(), ListTooLarge> {
        let over = |bound, limit| Err(ListTooLarge { bound, limit });
        self.pages += 1;
        self.bytes = tools
            .iter()
            .fold(self.bytes, |sum, t| sum.saturating_add(json_size(t)));
        self.tools.extend(tools);
        if self.tools.len() > self.limits.max_tools {
            return over(ListBound::Tools, self.limits.max_tools);
        }
        if self.bytes > self.limits.max_bytes {
            return over(ListBound::Bytes, self.limits.max_bytes);
        }
        if more && self.pages >= self.limits.max_pages {
            return over(ListBound::Pages, self.limits.max_pages);
        }
        Ok(())
    }

    /// Compiles the listed tools under `options`, reusing the `previous` outcome of a tool
    /// whose schemas did not change; every entry of a name listed more than once is
    /// refused. Gives the new cache and the list as reported.
    pub(crate) fn compile(
        self,
        previous: &BTreeMap<String, CachedTool>,
        options: &ValidatorOptions,
    ) -> (BTreeMap<String, CachedTool>, ToolList) {
        let mut entries: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, tool) in self.tools.iter().enumerate() {
            entries.entry(tool.name.as_ref()).or_default().push(i);
        }
        let mut cache = BTreeMap::new();
        let mut list = ToolList::default();
        for tool in &self.tools {
            let name = tool.name.as_ref();
            let cached = match entries[name].as_slice() {
                [_] => match previous.get(name) {
                    Some(kept) if kept.schemas.as_ref().is_some_and(|s| s.same_as(tool)) => {
                        list.reused += 1;
                        kept.clone()
                    }
                    _ => {
                        list.compiled += 1;
                        CachedTool {
                            schemas: Some(Schemas::of(tool)),
                            outcome: ToolValidator::compile(tool, options),
                        }
                    }
                },
                several => CachedTool {
                    schemas: None,
                    outcome: Err(duplicated(name, several)),
                },
            };
            match &cached.outcome {
                Ok(_) => list.tools.push(tool.clone()),
                Err(error) => list.refused.push(error.clone()),
            }
            cache.insert(name.to_string(), cached);
        }
        (cache, list)
    }
}

/// The error of each entry of a name listed at the positions `entries`.
fn duplicated(name: &str, entries: &[usize]) -> ToolError {
    let positions: Vec<String> = entries.iter().map(usize::to_string).collect();
    let error = CompileError::new(
        CompileErrorKind::InvalidDocument,
        Location {
            document: "tools/list".into(),
            pointer: format!("/tools/{}", entries[0]),
            keyword: Some("name".into()),
        },
        format!(
            "the name is listed {} times (entries {} of the list): every entry is refused, \
             since which of their schemas the server applies cannot be told",
            entries.len(),
            positions.join(", ")
        ),
    );
    ToolError {
        tool: name.to_string(),
        errors: CompileErrors(vec![error]),
    }
}

/// The size of `tool` as JSON, in bytes.
fn json_size(tool: &Tool) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail; a tool that does not serialize counts what it wrote.
    let _ = serde_json::to_writer(&mut count, tool);
    count.0
}
