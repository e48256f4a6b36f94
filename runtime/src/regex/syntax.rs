//! The ECMA-262 pattern parser: pattern text → [`Node`] tree.
//!
//! One parser serves both the run-time `format: "regex"` check ([`super::is_valid_syntax`])
//! and the compiler in `schemac`, which lowers the tree to automata. It reads the dialect
//! JSON Schema uses: u-mode (the pattern and the input are sequences of code points,
//! `\u{...}` escapes, surrogate pairs joined, `\p{...}` property escapes with ECMA-262's
//! exact names) plus these Annex B forms that real schemas use: a `{` that does not start
//! a quantifier, a lone `}` or `]`, a `-` next to `\d \s \w` or their negations inside a
//! class, read as a literal (`[\w-.]`; not beside `--`, which is set difference in v-mode),
//! and identity escapes of any character that is not ASCII alphanumeric. Inside a class,
//! `[`, `&&` and `--` are what u-mode reads: literals and a range, never v-mode set syntax.
//!
//! Constructs that are valid syntax but that a linear-time matcher cannot run
//! (backreferences, modifiers such as `(?i:x)`, legacy octal escapes) parse to
//! [`Node::Unsupported`], so a syntax check accepts them and a compiler can refuse them.
//!
//! The parser is recursive, bounded by a nesting limit given by the caller.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::names::{BINARY_PROPERTIES, GENERAL_CATEGORY_VALUES, SCRIPT_VALUES};

/// Why a pattern did not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Whether the pattern is invalid or only nested too deeply.
    pub kind: SyntaxErrorKind,
    /// What is wrong, in a few words.
    pub message: &'static str,
    /// Byte offset in the pattern where the problem was found.
    pub offset: usize,
}

/// The kind of a [`SyntaxError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// Not valid ECMA-262 syntax.
    Invalid,
    /// Groups (or classes) nested deeper than the limit given to [`parse`].
    TooDeep,
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string.
    Empty,
    /// One code point (may be a lone surrogate, which no Rust string contains).
    Char(u32),
    /// A set of code points: `.`, `[...]`, `\d`, `\p{...}` and so on.
    Class(Class),
    /// A zero-width assertion: `^`, `$`, `\b`, `\B`.
    Assert(Assertion),
    /// A sequence.
    Concat(Vec<Node>),
    /// An alternation.
    Alt(Vec<Node>),
    /// A group, capturing or not (captures do not matter to a match/no-match answer).
    Group(Box<Node>),
    /// A quantified node. `max: None` is unbounded.
    Repeat {
        /// The repeated node.
        node: Box<Node>,
        /// Least number of repetitions.
        min: u32,
        /// Most repetitions, `None` for unbounded.
        max: Option<u32>,
        /// `false` for the lazy forms (`*?` ...); irrelevant to whether a match exists.
        greedy: bool,
    },
    /// A lookaround: `(?=...)`, `(?!...)`, `(?<=...)`, `(?<!...)`.
    Look {
        /// `true` for lookbehind.
        behind: bool,
        /// `true` for the negative forms.
        negated: bool,
        /// The body.
        node: Box<Node>,
    },
    /// Valid syntax the linear-time matcher refuses.
    Unsupported {
        /// The construct, e.g. `backreference \1`.
        construct: &'static str,
        /// Byte offset in the pattern.
        offset: usize,
    },
}

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assertion {
    /// `^`: the start of the input.
    Start,
    /// `$`: the end of the input.
    End,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A character class: the union of its items, complemented when `negated`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// `[^...]`.
    pub negated: bool,
    /// The members.
    pub items: Vec<ClassItem>,
}

/// One member of a [`Class`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassItem {
    /// An inclusive range of code points (a single character is `Range(c, c)`).
    Range(u32, u32),
    /// `\d`, `\s`, `\w` and their negations.
    Perl(Perl, bool),
    /// `\p{...}` (`false`) or `\P{...}` (`true`).
    Property(Property, bool),
    /// `.`: every code point but the line terminators.
    Dot,
}

/// The class escapes `\d`, `\s`, `\w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perl {
    /// `\d`: `[0-9]`.
    Digit,
    /// `\s`: WhiteSpace and LineTerminator code points.
    Space,
    /// `\w`: `[A-Za-z0-9_]`.
    Word,
}

/// A Unicode property named by `\p{...}`, with canonical long names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    /// A General_Category value, e.g. `Uppercase_Letter`.
    GeneralCategory(&'static str),
    /// A Script value, e.g. `Greek`.
    Script(&'static str),
    /// A Script_Extensions value, e.g. `Greek`.
    ScriptExtensions(&'static str),
    /// A binary property, e.g. `Alphabetic`.
    Binary(&'static str),
}

/// Code points of `\s`: WhiteSpace and LineTerminator, as sorted inclusive ranges.
pub const SPACE_RANGES: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];

/// Code points of `\w` as sorted inclusive ranges.
pub const WORD_RANGES: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];

/// Code points `.` does not match (the line terminators), sorted.
pub const LINE_TERMINATORS: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

/// Whether `c` is a `\w` character (what `\b` looks at).
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Parses `pattern`; groups and lookarounds nested deeper than `max_depth` are
/// [`SyntaxErrorKind::TooDeep`].
pub fn parse(pattern: &str, max_depth: usize) -> Result<Node, SyntaxError> {
    let mut p = Parser {
        src: pattern,
        pos: 0,
        depth: 0,
        max_depth,
        groups: 0,
        names: Vec::new(),
        name_refs: Vec::new(),
        numbered_refs: Vec::new(),
    };
    let node = p.disjunction()?;
    if p.pos < p.src.len() {
        // Only an unmatched `)` stops a top-level disjunction early.
        return Err(p.err("unmatched ')'"));
    }
    for (name, offset) in &p.name_refs {
        if !p.names.iter().any(|n| n == name) {
            return Err(SyntaxError {
                kind: SyntaxErrorKind::Invalid,
                message: "\\k<name> names no group",
                offset: *offset,
            });
        }
    }
    let mut node = node;
    if !p.numbered_refs.is_empty() {
        fix_numbered_refs(&mut node, &p.numbered_refs, p.groups);
    }
    Ok(node)
}

/// `\N` parses provisionally as a backreference; once the group count is known, a number
/// past it is an Annex B legacy octal (or `\8` / `\9` identity) escape instead.
fn fix_numbered_refs(node: &mut Node, refs: &[(u32, usize)], groups: u32) {
    match node {
        Node::Unsupported { construct, offset }
            if *construct == NUMBERED_REF
                && refs.iter().any(|&(n, at)| at == *offset && n > groups) =>
        {
            *construct = "legacy octal escape (a \\N past the number of groups)";
        }
        Node::Concat(v) | Node::Alt(v) => v
            .iter_mut()
            .for_each(|n| fix_numbered_refs(n, refs, groups)),
        Node::Group(n) | Node::Repeat { node: n, .. } | Node::Look { node: n, .. } => {
            fix_numbered_refs(n, refs, groups)
        }
        _ => {}
    }
}

const NUMBERED_REF: &str = "backreference (\\1 ... \\9)";

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
    max_depth: usize,
    groups: u32,
    names: Vec<String>,
    name_refs: Vec<(String, usize)>,
    /// (number, offset of the backslash) of each `\N`.
    numbered_refs: Vec<(u32, usize)>,
}

impl<'a> Parser<'a> {
    fn err(&self, message: &'static str) -> SyntaxError {
        self.err_at(message, self.pos)
    }

    fn err_at(&self, message: &'static str, offset: usize) -> SyntaxError {
        SyntaxError {
            kind: SyntaxErrorKind::Invalid,
            message,
            offset,
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn enter(&mut self) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(SyntaxError {
                kind: SyntaxErrorKind::TooDeep,
                message: "groups nested too deeply",
                offset: self.pos,
            });
        }
        Ok(())
    }

    fn disjunction(&mut self) -> Result<Node, SyntaxError> {
        let mut alts = Vec::new();
        loop {
            alts.push(self.alternative()?);
            if !self.eat('|') {
                break;
            }
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, SyntaxError> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(terms),
        })
    }

    fn term(&mut self) -> Result<Node, SyntaxError> {
        let (atom, quantifiable) = self.atom()?;
        // A quantifier may follow.
        let Some((min, max, qlen)) = self.quantifier_at(self.pos) else {
            return Ok(atom);
        };
        if !quantifiable {
            // ECMA-262 u-mode: `Term :: Assertion | Atom Quantifier`, and lookarounds are
            // Assertions. Annex B's `QuantifiableAssertion` (`(?=a)*`, `(?!a)+`) exists only
            // without the u flag, so it is a syntax error here (as in regress with `u`).
            let message = if matches!(atom, Node::Look { .. }) {
                "nothing to repeat: a lookaround cannot be quantified in u-mode \
                 (Annex B allows a quantified lookahead only without the u flag)"
            } else {
                "nothing to repeat: an assertion cannot be quantified"
            };
            return Err(self.err(message));
        }
        self.pos += qlen;
        if let Some(m) = max {
            if m < min {
                return Err(self.err_at("numbers out of order in {} quantifier", self.pos - qlen));
            }
        }
        let greedy = !self.eat('?');
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// A quantifier at byte `at`: (min, max, length in bytes).
    fn quantifier_at(&self, at: usize) -> Option<(u32, Option<u32>, usize)> {
        let s = &self.src[at..];
        match s.as_bytes().first()? {
            b'*' => Some((0, None, 1)),
            b'+' => Some((1, None, 1)),
            b'?' => Some((0, Some(1), 1)),
            b'{' => braced_quantifier(s),
            _ => None,
        }
    }

    /// Parses one atom; the flag says whether it may be quantified.
    fn atom(&mut self) -> Result<(Node, bool), SyntaxError> {
        let at = self.pos;
        let Some(c) = self.bump() else {
            return Err(self.err("unexpected end of pattern"));
        };
        Ok(match c {
            '^' => (Node::Assert(Assertion::Start), false),
            '$' => (Node::Assert(Assertion::End), false),
            '.' => (
                Node::Class(Class {
                    negated: false,
                    items: alloc::vec![ClassItem::Dot],
                }),
                true,
            ),
            '*' | '+' | '?' => return Err(self.err_at("nothing to repeat", at)),
            '{' => {
                if braced_quantifier(&self.src[at..]).is_some() {
                    return Err(self.err_at("nothing to repeat", at));
                }
                (Node::Char('{' as u32), true) // Annex B
            }
            '}' | ']' => (Node::Char(c as u32), true), // Annex B
            '[' => (self.class()?, true),
            '(' => self.group(at)?,
            ')' => return Err(self.err_at("unmatched ')'", at)),
            '\\' => self.atom_escape(at)?,
            _ => (Node::Char(c as u32), true),
        })
    }

    fn group(&mut self, at: usize) -> Result<(Node, bool), SyntaxError> {
        self.enter()?;
        let result = self.group_body(at);
        self.depth -= 1;
        result
    }

    fn group_body(&mut self, at: usize) -> Result<(Node, bool), SyntaxError> {
        let mut look: Option<(bool, bool)> = None;
        let mut modifier = false;
        if self.eat('?') {
            let r = self.rest();
            if r.starts_with(':') {
                self.pos += 1;
            } else if r.starts_with('=') || r.starts_with('!') {
                look = Some((false, r.starts_with('!')));
                self.pos += 1;
            } else if r.starts_with("<=") || r.starts_with("<!") {
                look = Some((true, r.starts_with("<!")));
                self.pos += 2;
            } else if r.starts_with('<') {
                self.pos += 1;
                let name = self.group_name()?;
                if self.names.contains(&name) {
                    return Err(self.err_at("duplicate group name", at));
                }
                self.names.push(name);
                self.groups += 1;
            } else {
                self.modifiers()?;
                modifier = true;
            }
        } else {
            self.groups += 1;
        }
        let body = self.disjunction()?;
        if !self.eat(')') {
            return Err(self.err_at("unterminated group", at));
        }
        if modifier {
            return Ok((
                Node::Unsupported {
                    construct: "modifier group (?flags:...)",
                    offset: at,
                },
                true,
            ));
        }
        Ok(match look {
            Some((behind, negated)) => (
                Node::Look {
                    behind,
                    negated,
                    node: Box::new(body),
                },
                false,
            ),
            None => (Node::Group(Box::new(body)), true),
        })
    }

    /// `(?ims-ims:` — the ES2025 modifiers; anything else after `(?` is invalid.
    fn modifiers(&mut self) -> Result<(), SyntaxError> {
        let start = self.pos;
        let mut seen = [false; 3];
        let mut count = [0usize; 2];
        let mut side = 0;
        loop {
            let Some(c) = self.bump() else {
                return Err(self.err_at("invalid group", start));
            };
            let i = match c {
                'i' => 0,
                'm' => 1,
                's' => 2,
                '-' if side == 0 => {
                    side = 1;
                    continue;
                }
                ':' => break,
                _ => {
                    return Err(self.err_at(
                        "invalid group: (? must be followed by :, =, !, <= , <! or <name>",
                        start,
                    ))
                }
            };
            if seen[i] {
                return Err(self.err_at("repeated flag in modifier group", start));
            }
            seen[i] = true;
            count[side] += 1;
        }
        if count[0] + count[1] == 0 {
            return Err(self.err_at("modifier group without flags", start));
        }
        Ok(())
    }

    /// A group name after `<`, up to and including `>`.
    fn group_name(&mut self) -> Result<String, SyntaxError> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            let c = match self.bump() {
                None => return Err(self.err_at("unterminated group name", start)),
                Some('>') => break,
                Some('\\') => {
                    // \uXXXX / \u{...} escapes are allowed in names.
                    if !self.eat('u') {
                        return Err(self.err_at("invalid escape in group name", start));
                    }
                    let at = self.pos;
                    let v = self.unicode_escape_body()?;
                    char::from_u32(v).ok_or_else(|| self.err_at("invalid group name", at))?
                }
                Some(c) => c,
            };
            let ok = if name.is_empty() {
                c == '$' || c == '_' || c.is_alphabetic()
            } else {
                c == '$' || c == '_' || c == '\u{200C}' || c == '\u{200D}' || c.is_alphanumeric()
            };
            if !ok {
                return Err(self.err_at("invalid group name", start));
            }
            name.push(c);
        }
        if name.is_empty() {
            return Err(self.err_at("empty group name", start));
        }
        Ok(name)
    }

    /// After `\` outside a class.
    fn atom_escape(&mut self, at: usize) -> Result<(Node, bool), SyntaxError> {
        let Some(c) = self.peek() else {
            return Err(self.err_at("\\ at end of pattern", at));
        };
        match c {
            'b' => {
                self.pos += 1;
                return Ok((Node::Assert(Assertion::WordBoundary), false));
            }
            'B' => {
                self.pos += 1;
                return Ok((Node::Assert(Assertion::NotWordBoundary), false));
            }
            '1'..='9' => {
                let mut n: u32 = 0;
                while let Some(d) = self.peek().and_then(|d| d.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d);
                    self.pos += 1;
                }
                self.numbered_refs.push((n, at));
                return Ok((
                    Node::Unsupported {
                        construct: NUMBERED_REF,
                        offset: at,
                    },
                    true,
                ));
            }
            'k' => {
                self.pos += 1;
                if !self.eat('<') {
                    return Err(self.err_at("\\k must be followed by <name>", at));
                }
                let name = self.group_name()?;
                self.name_refs.push((name, at));
                return Ok((
                    Node::Unsupported {
                        construct: "named backreference \\k<name>",
                        offset: at,
                    },
                    true,
                ));
            }
            _ => {}
        }
        match self.class_or_char_escape(at, false)? {
            Escaped::Char(c) => Ok((Node::Char(c), true)),
            Escaped::Item(item) => Ok((
                Node::Class(Class {
                    negated: false,
                    items: alloc::vec![item],
                }),
                true,
            )),
            Escaped::Unsupported(construct) => Ok((
                Node::Unsupported {
                    construct,
                    offset: at,
                },
                true,
            )),
        }
    }

    /// A character escape or class escape after `\` (the `\` already consumed).
    fn class_or_char_escape(&mut self, at: usize, in_class: bool) -> Result<Escaped, SyntaxError> {
        let Some(c) = self.bump() else {
            return Err(self.err_at("\\ at end of pattern", at));
        };
        Ok(match c {
            'd' => Escaped::Item(ClassItem::Perl(Perl::Digit, false)),
            'D' => Escaped::Item(ClassItem::Perl(Perl::Digit, true)),
            's' => Escaped::Item(ClassItem::Perl(Perl::Space, false)),
            'S' => Escaped::Item(ClassItem::Perl(Perl::Space, true)),
            'w' => Escaped::Item(ClassItem::Perl(Perl::Word, false)),
            'W' => Escaped::Item(ClassItem::Perl(Perl::Word, true)),
            'p' | 'P' => Escaped::Item(ClassItem::Property(self.property(at)?, c == 'P')),
            't' => Escaped::Char(0x09),
            'n' => Escaped::Char(0x0A),
            'v' => Escaped::Char(0x0B),
            'f' => Escaped::Char(0x0C),
            'r' => Escaped::Char(0x0D),
            'b' if in_class => Escaped::Char(0x08),
            '-' if in_class => Escaped::Char('-' as u32),
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    Escaped::Char(l as u32 % 32)
                }
                _ => return Err(self.err_at("\\c must be followed by an ASCII letter", at)),
            },
            '0' => {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    while self.peek().is_some_and(|d| ('0'..='7').contains(&d)) {
                        self.pos += 1;
                    }
                    Escaped::Unsupported("legacy octal escape")
                } else {
                    Escaped::Char(0)
                }
            }
            '1'..='9' if in_class => {
                if ('1'..='7').contains(&c) {
                    while self.peek().is_some_and(|d| ('0'..='7').contains(&d)) {
                        self.pos += 1;
                    }
                    Escaped::Unsupported("legacy octal escape")
                } else {
                    return Err(self.err_at("invalid escape \\8 or \\9", at));
                }
            }
            'x' => {
                let h = self
                    .hex_digits(2)
                    .ok_or_else(|| self.err_at("\\x must be followed by two hex digits", at))?;
                Escaped::Char(h)
            }
            'u' => Escaped::Char(self.unicode_escape_body()?),
            c if c.is_ascii_alphanumeric() => {
                return Err(self.err_at("invalid escape of a letter or digit", at))
            }
            // Identity escapes: syntax characters and `/` in u-mode; Annex B allows any
            // other non-alphanumeric character.
            c => Escaped::Char(c as u32),
        })
    }

    /// `n` hex digits exactly; consumes them only on success.
    fn hex_digits(&mut self, n: usize) -> Option<u32> {
        let s = self.rest().as_bytes();
        if s.len() < n {
            return None;
        }
        let mut v = 0u32;
        for &b in &s[..n] {
            v = v * 16 + (b as char).to_digit(16)?;
        }
        self.pos += n;
        Some(v)
    }

    /// After `\u`: `HHHH` (joining a `\uHHHH\uHHHH` surrogate pair) or `{H...}`.
    fn unicode_escape_body(&mut self) -> Result<u32, SyntaxError> {
        let at = self.pos;
        if self.eat('{') {
            let mut v: u32 = 0;
            let mut digits = 0;
            while let Some(d) = self.peek().and_then(|d| d.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(d);
                digits += 1;
                self.pos += 1;
            }
            if digits == 0 || !self.eat('}') {
                return Err(self.err_at("invalid \\u{...} escape", at));
            }
            if v > 0x10FFFF {
                return Err(self.err_at("\\u{...} escape beyond U+10FFFF", at));
            }
            return Ok(v);
        }
        let hi = self
            .hex_digits(4)
            .ok_or_else(|| self.err_at("\\u must be followed by four hex digits or {...}", at))?;
        if (0xD800..0xDC00).contains(&hi) && self.rest().starts_with("\\u") {
            let save = self.pos;
            self.pos += 2;
            match self.hex_digits(4) {
                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                    return Ok(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                }
                _ => self.pos = save,
            }
        }
        Ok(hi)
    }

    /// After `\p` / `\P`: `{Name}` or `{Name=Value}` with ECMA-262's exact spellings.
    fn property(&mut self, at: usize) -> Result<Property, SyntaxError> {
        if !self.eat('{') {
            return Err(self.err_at("\\p must be followed by {name}", at));
        }
        let rest = self.rest();
        let Some(end) = rest.find('}') else {
            return Err(self.err_at("unterminated \\p{...}", at));
        };
        let body = &rest[..end];
        self.pos += end + 1;
        let lookup = |table: &[(&str, &'static str)], key: &str| -> Option<&'static str> {
            table
                .binary_search_by(|(k, _)| (*k).cmp(key))
                .ok()
                .map(|i| table[i].1)
        };
        let prop = if let Some((name, value)) = body.split_once('=') {
            match name {
                "General_Category" | "gc" => {
                    lookup(GENERAL_CATEGORY_VALUES, value).map(Property::GeneralCategory)
                }
                "Script" | "sc" => lookup(SCRIPT_VALUES, value).map(Property::Script),
                "Script_Extensions" | "scx" => {
                    lookup(SCRIPT_VALUES, value).map(Property::ScriptExtensions)
                }
                _ => None,
            }
        } else {
            lookup(GENERAL_CATEGORY_VALUES, body)
                .map(Property::GeneralCategory)
                .or_else(|| lookup(BINARY_PROPERTIES, body).map(Property::Binary))
        };
        prop.ok_or_else(|| self.err_at("unknown Unicode property name or value", at))
    }

    /// After `[`. u-mode class contents: `[`, `&&` and `--` are no set syntax there (that
    /// is v-mode, which no schema asks for): `[` and `&` are literals and a `-` between two
    /// atoms makes a range, so `[^[\]]` is every character but the brackets and `[!--]` is
    /// `!` to `-`.
    fn class(&mut self) -> Result<Node, SyntaxError> {
        let open = self.pos - 1;
        let negated = self.eat('^');
        let mut items = Vec::new();
        let mut unsupported = None;
        let mut push = |atom: ClassAtom, items: &mut Vec<ClassItem>| match atom {
            ClassAtom::Char(x) => items.push(ClassItem::Range(x, x)),
            ClassAtom::Item(i) => items.push(i),
            ClassAtom::Unsupported(c) => unsupported = Some(c),
        };
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err_at("unterminated character class", open));
            };
            if c == ']' {
                self.pos += 1;
                break;
            }
            let a_at = self.pos;
            let a = self.class_atom()?;
            // A range: a `-` followed by an atom (`[a-]` ends with a literal `-`).
            if self.peek() != Some('-') || self.peek_at(1).is_none_or(|c| c == ']') {
                push(a, &mut items);
                continue;
            }
            let dash_at = self.pos;
            self.pos += 1;
            let b_at = self.pos;
            let b = self.class_atom()?;
            match (a, b) {
                (ClassAtom::Char(x), ClassAtom::Char(y)) => {
                    if x > y {
                        return Err(self.err_at("range out of order in character class", a_at));
                    }
                    items.push(ClassItem::Range(x, y));
                }
                (a @ ClassAtom::Unsupported(_), b) | (a, b @ ClassAtom::Unsupported(_)) => {
                    push(a, &mut items);
                    push(b, &mut items);
                }
                (a, b) => {
                    // A class escape as a range end: a syntax error in u-mode. Annex B reads
                    // `[\w-.]` (`\d \s \w` and negations) with a literal `-`; not with
                    // `\p{…}`, nor beside `--` (`[\w--\d]` is set difference in v-mode).
                    let property =
                        |x: &ClassAtom| matches!(x, ClassAtom::Item(ClassItem::Property(..)));
                    if self.src[a_at..self.pos].contains("--") {
                        return Err(self.err_at(
                            "`--` beside a class escape: a class escape cannot end a range in \
                             u-mode (set difference is v-mode syntax); escape each hyphen as `\\-`",
                            dash_at,
                        ));
                    }
                    if property(&a) || property(&b) {
                        return Err(self.err_at(
                            "a property escape cannot be a range end (u-mode); write the hyphen as `\\-`",
                            if property(&a) { a_at } else { b_at },
                        ));
                    }
                    push(a, &mut items);
                    push(ClassAtom::Char('-' as u32), &mut items);
                    push(b, &mut items);
                }
            }
        }
        if let Some(construct) = unsupported {
            return Ok(Node::Unsupported {
                construct,
                offset: open,
            });
        }
        Ok(Node::Class(Class { negated, items }))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, SyntaxError> {
        let at = self.pos;
        let Some(c) = self.bump() else {
            return Err(self.err("unterminated character class"));
        };
        if c != '\\' {
            return Ok(ClassAtom::Char(c as u32));
        }
        Ok(match self.class_or_char_escape(at, true)? {
            Escaped::Char(c) => ClassAtom::Char(c),
            Escaped::Item(i) => ClassAtom::Item(i),
            Escaped::Unsupported(c) => ClassAtom::Unsupported(c),
        })
    }
}

enum Escaped {
    Char(u32),
    Item(ClassItem),
    Unsupported(&'static str),
}

enum ClassAtom {
    Char(u32),
    Item(ClassItem),
    Unsupported(&'static str),
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `s`: (min, max, length in bytes).
fn braced_quantifier(s: &str) -> Option<(u32, Option<u32>, usize)> {
    let b = s.as_bytes();
    let mut i = 1;
    let digits = |i: &mut usize| -> Option<u32> {
        let start = *i;
        let mut v: u32 = 0;
        while *i < b.len() && b[*i].is_ascii_digit() {
            v = v.saturating_mul(10).saturating_add(u32::from(b[*i] - b'0'));
            *i += 1;
        }
        (*i > start).then_some(v)
    };
    let min = digits(&mut i)?;
    let max = if b.get(i) == Some(&b',') {
        i += 1;
        if b.get(i) == Some(&b'}') {
            None
        } else {
            Some(digits(&mut i)?)
        }
    } else {
        Some(min)
    };
    (b.get(i) == Some(&b'}')).then_some((min, max, i + 1))
}

/// Every property `\p{...}` can name, once per canonical name (for checking the tables
/// against a Unicode database).
pub fn known_properties() -> impl Iterator<Item = Property> {
    let gc = GENERAL_CATEGORY_VALUES
        .iter()
        .map(|&(_, v)| Property::GeneralCategory(v));
    let sc = SCRIPT_VALUES.iter().map(|&(_, v)| Property::Script(v));
    let scx = SCRIPT_VALUES
        .iter()
        .map(|&(_, v)| Property::ScriptExtensions(v));
    let bin = BINARY_PROPERTIES.iter().map(|&(_, v)| Property::Binary(v));
    gc.chain(sc).chain(scx).chain(bin)
}
