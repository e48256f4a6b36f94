//! ECMA-262 regular expressions compiled for linear-time matching.
//!
//! Takes a pattern's text; gives a [`CompiledRegex`]: flat tables that
//! `schemac_runtime::regex` executes, owned here (the interpreter borrows them through
//! [`CompiledRegex::as_runtime`]) or emitted as `static` data ([`crate::emit::tables::regex`]).
//!
//! The stages, one module each:
//!
//! 1. parse — `schemac_runtime::regex::syntax` (shared with the run-time `format: "regex"`
//!    check) gives the AST; constructs the linear-time engine refuses become
//!    [`RegexError::Unsupported`];
//! 2. `unicode` — class items to code-point sets (Unicode properties from regex-syntax's
//!    tables);
//! 3. `nfa` — a Thompson NFA, the Pike VM's program, with each lookaround a sub-program
//!    evaluated as a position oracle;
//! 4. `dfa` — where there is no lookaround or `\b` and the state count stays within
//!    [`RegexOptions::max_dfa_states`], a minimized DFA over code-point classes; a
//!    schema's pattern gets none when its fast path decides every input
//!    ([`compile_with_work`]).
//!
//! Fast paths (`fast`) are recognized on the syntax tree: a literal, bare or anchored;
//! a single class run (`^[a-z0-9_-]+$`); anchored runs of ASCII classes that a greedy scan
//! decides (`^[a-z]+_[0-9]{1,4}$`, `^(get|put)_[a-z]+$`); an anchored literal prefix
//! (`^abc…`); a set of first code points (`^[a-z].*x`).

mod dfa;
mod fast;
mod nfa;
mod set;
mod trim;
mod unicode;

use std::fmt;

/// The fast paths, for the tables the emitter writes.
#[cfg(feature = "emit")]
pub(crate) use fast::Fast;
pub use set::PatternSet;

use schemac_runtime::regex::syntax::{self, Node, SyntaxErrorKind};
use schemac_runtime::regex::words::encode;
use schemac_runtime::regex::{Choice, ClassRun, Dfa, FastPath, Program, Regex, Words};

/// Groups nested deeper than this are [`RegexError::TooLarge`].
pub const MAX_GROUP_DEPTH: usize = 128;

/// Limits for regex compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexOptions {
    /// Largest program, in NFA instructions (a counted repetition multiplies its operand).
    pub max_program_size: usize,
    /// Most DFA states (after minimization) before falling back to the Pike VM.
    pub max_dfa_states: usize,
    /// Largest total [`CompiledRegex::size`] of the distinct patterns of one compiled
    /// program, in bytes of tables (what generated code holds as `static` data); the
    /// pattern that crosses it is a `RegexTooLarge` error. Default:
    /// [`RegexOptions::DEFAULT_MAX_TOTAL_SIZE`].
    pub max_total_size: usize,
    /// Most steps one pattern's DFA construction may take (closure visits, instruction ×
    /// class tests, minimization); past it the pattern runs on the Pike VM.
    pub max_dfa_work: usize,
    /// Most DFA-construction steps over all the patterns of one compiled program; past it
    /// the remaining patterns run on the Pike VM (so that many patterns cannot multiply
    /// the compile time).
    pub max_total_dfa_work: usize,
}

impl RegexOptions {
    /// Default [`RegexOptions::max_total_size`]: 4 MiB.
    pub const DEFAULT_MAX_TOTAL_SIZE: usize = 4 << 20;
}

impl Default for RegexOptions {
    fn default() -> Self {
        RegexOptions {
            max_program_size: 100_000,
            max_dfa_states: 10_000,
            max_total_size: RegexOptions::DEFAULT_MAX_TOTAL_SIZE,
            max_dfa_work: 2_000_000,
            max_total_dfa_work: 20_000_000,
        }
    }
}

/// Why a pattern did not compile. More reasons may be added: match with a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegexError {
    /// Not valid ECMA-262 syntax.
    Invalid {
        /// What is wrong.
        message: String,
        /// Offset (in bytes of the pattern) where it was found.
        offset: usize,
    },
    /// A construct the linear-time engine refuses (backreference, modifier, legacy octal).
    Unsupported {
        /// The construct, e.g. `backreference \1`.
        construct: String,
        /// Offset (in bytes of the pattern).
        offset: usize,
    },
    /// Over the program size limit, or groups nested deeper than 128.
    TooLarge {
        /// What is too large.
        message: String,
    },
}

impl RegexError {
    /// The byte offset in the pattern the error points at, when it has one.
    pub fn offset(&self) -> Option<usize> {
        match self {
            RegexError::Invalid { offset, .. } | RegexError::Unsupported { offset, .. } => {
                Some(*offset)
            }
            RegexError::TooLarge { .. } => None,
        }
    }
}

/// Two lines to append to a message about `pattern`: the pattern as a quoted, escaped
/// string and a caret under the character at byte `offset`:
///
/// ```text
///
///     "[\\p{L}--\\p{Lu}]"
///              ^
/// ```
pub fn caret(pattern: &str, offset: usize) -> String {
    let offset = (0..=offset.min(pattern.len()))
        .rev()
        .find(|&i| pattern.is_char_boundary(i))
        .unwrap_or(0);
    let quoted = format!("{pattern:?}");
    // The width of the quote and the escaped text before the offset.
    let before = format!("{:?}", &pattern[..offset]).chars().count() - 1;
    format!("\n    {quoted}\n    {}^", " ".repeat(before))
}

impl std::error::Error for RegexError {}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegexError::Invalid { message, offset } => {
                write!(
                    f,
                    "invalid regular expression at offset {offset}: {message}"
                )
            }
            RegexError::Unsupported { construct, offset } => {
                write!(f, "unsupported construct at offset {offset}: {construct}")?;
                if construct.starts_with("Unicode property") {
                    // The construct says why (no Unicode table for it).
                    Ok(())
                } else {
                    f.write_str(" (schemac matches in linear time)")
                }
            }
            RegexError::TooLarge { message } => {
                write!(f, "regular expression too large: {message}")
            }
        }
    }
}

/// A compiled pattern: unanchored search semantics (`b` matches `abc`).
#[derive(Debug, Clone)]
pub struct CompiledRegex {
    source: String,
    pub(crate) fast: Option<fast::Fast>,
    /// The Pike VM's op bytes.
    pub(crate) ops: Vec<u8>,
    /// [`Words`] tables as (bytes, width).
    pub(crate) args: (Vec<u8>, u8),
    /// Number of NFA instructions.
    program_size: usize,
    pub(crate) class_offsets: (Vec<u8>, u8),
    pub(crate) ranges: (Vec<u8>, u8),
    pub(crate) looks: Vec<u32>,
    pub(crate) start: u32,
    pub(crate) anchored: bool,
    pub(crate) dfa: Option<dfa::DfaTables>,
}

impl CompiledRegex {
    /// The pattern's source text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> bool {
        self.as_runtime().is_match(haystack)
    }

    /// The runtime executor over this regex's tables (what generated code runs too).
    #[inline]
    pub fn as_runtime(&self) -> Regex<'_> {
        Regex::new(self.fast_view(), self.program_view(), self.dfa_view())
    }

    /// The runtime's view of the Pike VM program alone.
    #[inline]
    pub fn program_view(&self) -> Program<'_> {
        Program::new(
            &self.ops,
            words(&self.args),
            words(&self.class_offsets),
            words(&self.ranges),
            &self.looks,
            self.start,
            self.anchored,
        )
    }

    /// The runtime's view of the DFA alone, when there is one.
    #[inline]
    pub fn dfa_view(&self) -> Option<Dfa<'_>> {
        self.dfa.as_ref().map(|d| {
            Dfa::new(
                &d.ascii,
                words(&d.bounds),
                words(&d.bound_classes),
                d.classes,
                words(&d.trans),
                &d.accept_end,
                d.start,
            )
        })
    }

    /// The runtime's view of the fast path alone ([`Regex::is_match_budgeted`] tries it
    /// first), cheaper to build than the whole [`CompiledRegex::as_runtime`].
    #[inline]
    pub fn fast_view(&self) -> Option<FastPath<'_>> {
        self.fast.as_ref().map(|f| match f {
            fast::Fast::Literal { text, start, end } => FastPath::Literal {
                text,
                start: *start,
                end: *end,
            },
            fast::Fast::Prefix(text) => FastPath::Prefix(text),
            fast::Fast::Leading { ascii, non_ascii } => FastPath::Leading {
                ascii: *ascii,
                non_ascii: *non_ascii,
            },
            fast::Fast::ClassRun {
                ascii,
                ranges,
                min,
                max,
                start,
                end,
            } => FastPath::ClassRun(ClassRun::new(*ascii, ranges, *min, *max, *start, *end)),
            fast::Fast::AsciiRuns { head, runs, end } => FastPath::AsciiRuns {
                head: Choice::new(&head.text, &head.ends),
                runs,
                end: *end,
            },
        })
    }

    /// The fast path's kind, when there is one: `"literal"`, `"prefix"`, `"leading"`,
    /// `"class run"` or `"ascii runs"`.
    pub fn fast_path(&self) -> Option<&'static str> {
        self.fast.as_ref().map(|f| match f {
            fast::Fast::Literal { .. } => "literal",
            fast::Fast::Prefix(_) => "prefix",
            fast::Fast::Leading { .. } => "leading",
            fast::Fast::ClassRun { .. } => "class run",
            fast::Fast::AsciiRuns { .. } => "ascii runs",
        })
    }

    /// Whether the pattern has a fast path: a literal, a class run or ASCII runs decide
    /// every input by themselves, a prefix or a leading set rules out the inputs that do
    /// not start with it.
    pub fn has_fast_path(&self) -> bool {
        self.fast.is_some()
    }

    /// Whether a DFA was built (else the Pike VM runs, unless a fast path decides).
    pub fn has_dfa(&self) -> bool {
        self.dfa.is_some()
    }

    /// Number of NFA instructions (Pike VM program, lookaround sub-programs included).
    pub fn program_size(&self) -> usize {
        self.program_size
    }

    /// The compiled size: bytes of all its tables (program, classes, DFA, fast path), what
    /// generated code holds as `static` data. [`RegexOptions::max_total_size`] bounds
    /// their sum over a schema.
    pub fn size(&self) -> usize {
        let fast = match &self.fast {
            None => 0,
            Some(fast::Fast::Literal { text, .. }) | Some(fast::Fast::Prefix(text)) => text.len(),
            Some(fast::Fast::ClassRun { ranges, .. }) => 16 + 4 * ranges.len(),
            Some(fast::Fast::Leading { .. }) => 17,
            Some(fast::Fast::AsciiRuns { head, runs, .. }) => {
                head.text.len() + 4 * head.ends.len() + 24 * runs.len() + 1
            }
        };
        fast + self.ops.len()
            + self.args.0.len()
            + self.class_offsets.0.len()
            + self.ranges.0.len()
            + 4 * self.looks.len()
            + self.dfa.as_ref().map_or(0, |d| d.size())
    }

    /// Number of DFA states (dead and match states included), if there is a DFA.
    pub fn dfa_states(&self) -> Option<usize> {
        self.dfa.as_ref().map(|d| d.accept_end.len())
    }
}

/// Compiles an ECMA-262 pattern (u-mode plus the Annex B forms schemac accepts), with
/// every engine's tables: the DFA too when it can be built, even where the fast path
/// decides every input (to compare the engines).
pub fn compile(pattern: &str, options: &RegexOptions) -> Result<CompiledRegex, RegexError> {
    let mut work = options.max_dfa_work;
    build(pattern, options, &mut work, Tables::All)
}

/// [`compile`], its DFA construction taking at most `*dfa_work` steps (and at most
/// [`RegexOptions::max_dfa_work`]); the steps taken are subtracted. A program compiles
/// its patterns through this with one counter starting at
/// [`RegexOptions::max_total_dfa_work`]. A pattern whose fast path decides every input
/// gets no DFA: neither backend would ever run it.
pub fn compile_with_work(
    pattern: &str,
    options: &RegexOptions,
    dfa_work: &mut usize,
) -> Result<CompiledRegex, RegexError> {
    build(pattern, options, dfa_work, Tables::Used)
}

/// Which tables [`build`] makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tables {
    /// Every engine's.
    All,
    /// Those matching can use: no DFA behind a fast path that decides every input.
    Used,
}

fn build(
    pattern: &str,
    options: &RegexOptions,
    dfa_work: &mut usize,
    tables: Tables,
) -> Result<CompiledRegex, RegexError> {
    let ast = syntax::parse(pattern, MAX_GROUP_DEPTH).map_err(|e| match e.kind {
        SyntaxErrorKind::Invalid => RegexError::Invalid {
            message: e.message.to_string(),
            offset: e.offset,
        },
        SyntaxErrorKind::TooDeep => RegexError::TooLarge {
            message: format!(
                "groups nested deeper than {MAX_GROUP_DEPTH} (at offset {})",
                e.offset
            ),
        },
    })?;
    if let Some((construct, offset)) = first_unsupported(&ast) {
        return Err(RegexError::Unsupported {
            construct: construct.to_string(),
            offset,
        });
    }
    let ast = trim::for_search(ast);
    let nfa = nfa::compile(&ast, options.max_program_size).map_err(|e| match e {
        RegexError::Unsupported { construct, .. } => RegexError::Unsupported {
            offset: property_offset(pattern),
            construct,
        },
        e => e,
    })?;
    let (ops, args) = nfa.encode();
    let (class_offsets, ranges) = nfa.encode_classes();
    let (class_offsets, ranges) = (encode(&class_offsets), encode(&ranges));
    let looks = nfa
        .looks
        .iter()
        .flat_map(|&(entry, reverse)| [entry, u32::from(reverse)])
        .collect();
    let fast = fast::analyze(&ast);
    let dfa =
        if tables == Tables::Used && fast.as_ref().is_some_and(fast::Fast::decides_every_input) {
            None
        } else {
            let mut work = options.max_dfa_work.min(*dfa_work);
            let allowed = work;
            let dfa = dfa::build(&nfa, options.max_dfa_states, &mut work);
            *dfa_work -= allowed - work;
            dfa
        };
    Ok(CompiledRegex {
        source: pattern.to_string(),
        fast,
        ops,
        args: encode(&args),
        program_size: nfa.insts.len(),
        class_offsets,
        ranges,
        looks,
        start: nfa.start,
        anchored: nfa.anchored,
        dfa,
    })
}

/// The runtime's view of an owned (bytes, width) table.
fn words((bytes, width): &(Vec<u8>, u8)) -> Words<'_> {
    Words::new(bytes, *width)
}

/// Where the first `\p{...}` / `\P{...}` without a Unicode table is (the only refusal the
/// NFA stage makes), or 0.
fn property_offset(pattern: &str) -> usize {
    let mut from = 0;
    while let Some(i) = pattern[from..].find(['p', 'P']).map(|i| i + from) {
        from = i + 1;
        if i == 0 || !pattern[..i].ends_with('\\') || !pattern[i + 1..].starts_with('{') {
            continue;
        }
        let Some(len) = pattern[i..].find('}') else {
            break;
        };
        let escape = &pattern[i - 1..=i + len];
        let fails = match syntax::parse(escape, 1) {
            Ok(Node::Class(class)) => class
                .items
                .iter()
                .any(|it| unicode::item_ranges(it).is_err()),
            _ => false,
        };
        if fails {
            return i - 1;
        }
    }
    0
}

/// The first construct the engine refuses, in pattern order.
fn first_unsupported(node: &Node) -> Option<(&'static str, usize)> {
    match node {
        Node::Unsupported { construct, offset } => Some((construct, *offset)),
        Node::Concat(v) | Node::Alt(v) => v.iter().find_map(first_unsupported),
        Node::Group(n) | Node::Repeat { node: n, .. } | Node::Look { node: n, .. } => {
            first_unsupported(n)
        }
        _ => None,
    }
}
