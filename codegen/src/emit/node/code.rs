//! The emitter's model of the statements it generates: what a caller needs to know of a
//! piece of code to place it — whether it is one `if` (to become a guard or to merge with
//! an enclosing condition), whether it fails the node somewhere or ends by failing it,
//! which of the names bound only where read it reads ([`Uses`]) — kept as data while the
//! code is built, and rendered to tokens once it is placed.

use super::Mode;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

/// Names that generated code binds only where they are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Uses(u8);

impl Uses {
    /// The contents of the variant a dispatch arm matched (`obj`, `arr`, `text`, `num`,
    /// `b`): the arm's pattern binds them.
    pub(super) const BINDING: Uses = Uses(1);
    /// `x`: the value of the entry or item at hand.
    pub(super) const X: Uses = Uses(1 << 1);
    /// `i`: its index.
    pub(super) const I: Uses = Uses(1 << 2);
    /// `k`: the entry's key.
    pub(super) const K: Uses = Uses(1 << 3);
    /// `v`: the function's instance.
    pub(super) const V: Uses = Uses(1 << 5);
    /// `ev`: the function's evaluated-location set.
    pub(super) const EV: Uses = Uses(1 << 6);
    /// `cx`: the function's state.
    pub(super) const CX: Uses = Uses(1 << 7);

    /// Whether every name of `other` is read.
    pub(super) fn contains(self, other: Uses) -> bool {
        self.0 & other.0 == other.0
    }

    /// These names but `names`.
    pub(super) fn without(self, names: Uses) -> Uses {
        Uses(self.0 & !names.0)
    }
}

impl std::ops::BitOr for Uses {
    type Output = Uses;
    fn bitor(self, other: Uses) -> Uses {
        Uses(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Uses {
    fn bitor_assign(&mut self, other: Uses) {
        self.0 |= other.0;
    }
}

/// A generated expression, with the names it reads.
#[derive(Clone)]
pub(super) struct Expr {
    pub(super) tokens: TokenStream,
    pub(super) uses: Uses,
    /// It is a method call of the error-collecting state's (`cx.child(..)`): `?` applied,
    /// a [`Code::unit`].
    pub(super) state_call: bool,
}

impl Expr {
    /// The expression `tokens`, reading `uses`.
    pub(super) fn new(tokens: TokenStream, uses: Uses) -> Expr {
        Expr {
            tokens,
            uses,
            state_call: false,
        }
    }

    /// The statement `expr?;`, for the error path (where its result is `()`).
    pub(super) fn tried(&self) -> Code {
        let expr = &self.tokens;
        let code = if self.state_call {
            Code::unit(quote!(#expr?))
        } else {
            Code::stmt(quote!(#expr?;))
        };
        code.using(self.uses)
    }
}

impl ToTokens for Expr {
    fn to_tokens(&self, out: &mut TokenStream) {
        self.tokens.to_tokens(out);
    }
}

/// A generated condition: a `bool` expression, and whether it is a disjunction at its
/// top level (`a || b`), which needs parentheses as an operand of `&&`.
#[derive(Clone)]
pub(super) struct Cond {
    tokens: TokenStream,
    disjunction: bool,
}

impl Cond {
    /// Whether one of `tests` holds: `a || b || ..` (`false` for none).
    pub(super) fn any(tests: &[TokenStream]) -> Cond {
        match tests {
            [] => Cond::from(quote!(false)),
            [test] => Cond::from(test.clone()),
            _ => Cond {
                tokens: quote!(#(#tests)||*),
                disjunction: true,
            },
        }
    }

    /// `self && other`.
    pub(super) fn and(&self, other: &Cond) -> Cond {
        let [a, b] = [self, other].map(Cond::operand);
        Cond::from(quote!(#a && #b))
    }

    /// The condition as an operand of `&&`.
    fn operand(&self) -> TokenStream {
        let tokens = &self.tokens;
        if self.disjunction {
            quote!((#tokens))
        } else {
            tokens.clone()
        }
    }
}

/// A condition that is no disjunction (a name, a call, a comparison, a negation, a
/// conjunction), as every condition but [`Cond::any`]'s is.
impl From<TokenStream> for Cond {
    fn from(tokens: TokenStream) -> Cond {
        Cond {
            tokens,
            disjunction: false,
        }
    }
}

impl ToTokens for Cond {
    fn to_tokens(&self, out: &mut TokenStream) {
        self.tokens.to_tokens(out);
    }
}

/// Statements of generated code, with what they are.
#[derive(Clone, Default)]
pub(super) struct Code {
    stmts: Vec<Stmt>,
    /// The names the statements read.
    uses: Uses,
}

/// One statement of [`Code`].
#[derive(Clone)]
enum Stmt {
    /// `if cond { then }`, without `else`.
    If(Cond, Code),
    /// The node's failure in short-circuit code: its exit (`return Ok(false);`, or
    /// `break 'n false;` where the function has work to do after its body).
    Exit(TokenStream),
    /// A lone expression of type `()` run for its effect (a call of the error-collecting
    /// state's, an assignment): `expr;`.
    Unit(TokenStream),
    /// Any other statements: `exits` when they hold the node's exit, `ends` when every
    /// path through them takes it (nothing after them runs).
    Other {
        tokens: TokenStream,
        exits: bool,
        ends: bool,
    },
}

impl Stmt {
    /// Whether the statement holds the node's exit.
    fn exits(&self) -> bool {
        match self {
            Stmt::If(_, then) => then.exits(),
            Stmt::Exit(_) => true,
            Stmt::Unit(_) => false,
            Stmt::Other { exits, .. } => *exits,
        }
    }

    /// The statement's tokens.
    fn render(&self, out: &mut TokenStream) {
        match self {
            Stmt::If(cond, then) => {
                let then = then.render();
                out.extend(quote!(if #cond { #then }));
            }
            Stmt::Unit(expr) => out.extend(quote!(#expr;)),
            Stmt::Exit(tokens) | Stmt::Other { tokens, .. } => out.extend(tokens.clone()),
        }
    }
}

impl Code {
    /// Statements that do not fail the node, reading nothing until marked
    /// ([`Code::using`]); nothing when `tokens` is empty.
    pub(super) fn stmt(tokens: TokenStream) -> Code {
        Code::other(tokens, false, false)
    }

    /// The statement `expr;`, where `expr` is of type `()` and run for its effect (a call
    /// of the error-collecting state's, an assignment): a `match` arm on the error path
    /// is that expression.
    pub(super) fn unit(expr: TokenStream) -> Code {
        Code {
            stmts: vec![Stmt::Unit(expr)],
            uses: Uses::default(),
        }
    }

    /// The node's exit (`tokens`): short-circuit code's failure.
    pub(super) fn exit(tokens: TokenStream) -> Code {
        Code {
            stmts: vec![Stmt::Exit(tokens)],
            uses: Uses::default(),
        }
    }

    /// Opaque statements, holding the node's exit where `exits`, ending by it where `ends`.
    fn other(tokens: TokenStream, exits: bool, ends: bool) -> Code {
        let stmts = if tokens.is_empty() {
            Vec::new()
        } else {
            vec![Stmt::Other {
                tokens,
                exits,
                ends,
            }]
        };
        Code {
            stmts,
            uses: Uses::default(),
        }
    }

    /// `if cond { then }`, as written (nothing when `then` is empty).
    pub(super) fn if_then(cond: impl Into<Cond>, then: Code) -> Code {
        if then.is_empty() {
            return Code::default();
        }
        let uses = then.uses;
        Code {
            stmts: vec![Stmt::If(cond.into(), then)],
            uses,
        }
    }

    /// `then` run where `cond` holds: one `if`, whose condition takes in `then`'s where
    /// that is itself a lone `if` (nothing when `then` is empty).
    pub(super) fn when(cond: impl Into<Cond>, then: Code) -> Code {
        let cond = cond.into();
        match then.single_if() {
            Some((inner, body)) => Code::when(cond.and(inner), body.clone()).using(then.uses),
            None => Code::if_then(cond, then),
        }
    }

    /// Code made of `parts` by `build` (a loop or a block around them): it holds the
    /// node's exit where a part does, and reads what they read.
    pub(super) fn around<const N: usize>(
        parts: [Code; N],
        build: impl FnOnce([TokenStream; N]) -> TokenStream,
    ) -> Code {
        let uses = parts.iter().fold(Uses::default(), |uses, p| uses | p.uses);
        Code::built_from(build(parts.each_ref().map(Code::render)), &parts).using(uses)
    }

    /// Statements `tokens` that the caller built from `parts` (a `match` whose arms are
    /// `parts`): they hold the node's exit where a part does, and read what they read.
    pub(super) fn built_from<'c>(
        tokens: TokenStream,
        parts: impl IntoIterator<Item = &'c Code>,
    ) -> Code {
        let (mut exits, mut uses) = (false, Uses::default());
        for part in parts {
            exits |= part.exits();
            uses |= part.uses;
        }
        Code::other(tokens, exits, false).using(uses)
    }

    /// `self`, where the construct around its parts binds `names` (a loop's `x`, a
    /// dispatch arm's contents): read no more from outside.
    pub(super) fn declaring(mut self, names: Uses) -> Code {
        self.uses = self.uses.without(names);
        self
    }

    /// `self`, known to end by failing the node on every path (a `match` whose every arm
    /// does).
    pub(super) fn ending(self) -> Code {
        let uses = self.uses;
        let exits = self.exits();
        Code::other(self.render(), exits, true).using(uses)
    }

    /// `self`, marked as reading `uses` (where it has statements).
    pub(super) fn using(mut self, uses: Uses) -> Code {
        if !self.is_empty() {
            self.uses |= uses;
        }
        self
    }

    /// `self`, marked as reading the arm's binding (where it has statements).
    pub(super) fn binding(self) -> Code {
        self.using(Uses::BINDING)
    }

    /// `self` then `next`.
    pub(super) fn then(mut self, next: Code) -> Code {
        self.push(next);
        self
    }

    /// Appends `next`.
    pub(super) fn push(&mut self, next: Code) {
        self.stmts.extend(next.stmts);
        self.uses |= next.uses;
    }

    /// Whether there are no statements.
    pub(super) fn is_empty(&self) -> bool {
        self.stmts.is_empty()
    }

    /// Whether the statements read the arm's binding.
    pub(super) fn binds(&self) -> bool {
        self.uses.contains(Uses::BINDING)
    }

    /// The names the statements read.
    pub(super) fn uses(&self) -> Uses {
        self.uses
    }

    /// Whether the statements hold the node's exit.
    pub(super) fn exits(&self) -> bool {
        self.stmts.iter().any(Stmt::exits)
    }

    /// Whether the statements end by failing the node on every path.
    pub(super) fn ends(&self) -> bool {
        matches!(
            self.stmts.last(),
            Some(Stmt::Exit(_) | Stmt::Other { ends: true, .. })
        )
    }

    /// `(cond, then)` when the code is one `if`.
    pub(super) fn single_if(&self) -> Option<(&Cond, &Code)> {
        match self.stmts.as_slice() {
            [Stmt::If(cond, then)] => Some((cond, then)),
            _ => None,
        }
    }

    /// Removes the final statement when it is the node's exit; whether it was.
    pub(super) fn pop_exit(&mut self) -> bool {
        let last = matches!(self.stmts.last(), Some(Stmt::Exit(_)));
        if last {
            self.stmts.pop();
        }
        last
    }

    /// The body of a `match` arm that runs the statements, with its comma: on the error
    /// path, a lone [`Code::unit`] is the arm's expression (`_ => cx.fail(0),`); else a
    /// block.
    pub(super) fn arm(&self, mode: Mode) -> TokenStream {
        match self.stmts.as_slice() {
            [Stmt::Unit(expr)] if mode == Mode::Errors => quote!(#expr,),
            _ => {
                let code = self.render();
                quote!({ #code })
            }
        }
    }

    /// The tokens of the statements.
    pub(super) fn render(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for stmt in &self.stmts {
            stmt.render(&mut out);
        }
        out
    }
}

impl FromIterator<Code> for Code {
    fn from_iter<I: IntoIterator<Item = Code>>(parts: I) -> Code {
        let mut code = Code::default();
        for part in parts {
            code.push(part);
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(code: &Code) -> String {
        code.render().to_string()
    }

    #[test]
    fn a_condition_around_a_lone_if_takes_in_its_condition() {
        let fail = Code::exit(quote!(return Ok(false);));
        let inner = Code::if_then(Cond::any(&[quote!(a), quote!(b)]), fail);
        let code = Code::when(quote!(holds0), inner);
        assert_eq!(
            text(&code),
            quote!(if holds0 && (a || b) {
                return Ok(false);
            })
            .to_string()
        );
        assert!(code.single_if().is_some() && code.exits() && !code.ends());
        // Around several statements, the condition stays its own `if`.
        let two = Code::stmt(quote!(n += 1;)).then(Code::if_then(
            quote!(c),
            Code::exit(quote!(return Ok(false);)),
        ));
        let code = Code::when(quote!(holds0), two);
        assert_eq!(
            text(&code),
            quote!(if holds0 {
                n += 1;
                if c {
                    return Ok(false);
                }
            })
            .to_string()
        );
        assert!(Code::when(quote!(holds0), Code::default()).is_empty());
    }

    #[test]
    fn a_final_exit_is_told_from_one_inside_a_loop() {
        let exit = || Code::exit(quote!(break 'n false;));
        let in_loop = Code::around(
            [Code::if_then(quote!(!ok(x)), exit())],
            |[body]| quote!(for x in arr.iter() { #body }),
        );
        assert!(in_loop.exits() && !in_loop.ends());
        let mut code = in_loop.then(exit());
        assert!(code.ends());
        assert!(code.pop_exit());
        assert!(!code.ends() && code.exits());
        assert!(!code.pop_exit());
        let matched = Code::built_from(quote!(match v { _ => break 'n false; }), [&exit()]);
        assert!(matched.clone().ending().ends() && !matched.ends());
    }

    #[test]
    fn only_code_with_statements_reads_the_binding() {
        assert!(!Code::default().binding().binds());
        let test = Code::if_then(quote!(text.is_empty()), Code::stmt(quote!(cx.fail(0);)));
        let code = Code::stmt(quote!(let n = 1;)).then(test.binding());
        assert!(code.binds());
        assert!(Code::when(quote!(holds0), code).binds());
    }

    #[test]
    fn a_loop_declares_the_names_its_body_reads() {
        let body = Code::if_then(quote!(!c1(x, cx)?), Code::exit(quote!(return Ok(false);)))
            .using(Uses::X | Uses::K);
        assert!(body.uses().contains(Uses::X | Uses::K) && !body.uses().contains(Uses::I));
        let tokens = body.render();
        let key_loop = Code::built_from(quote!(for (k, x) in obj { #tokens }), [&body]);
        assert!(key_loop.uses().contains(Uses::K));
        let key_loop = key_loop.declaring(Uses::X | Uses::I | Uses::K);
        assert_eq!(key_loop.uses(), Uses::default());
        assert!(key_loop.exits());
        // An empty piece reads nothing, whatever it is told.
        assert_eq!(Code::default().using(Uses::K).uses(), Uses::default());
    }
}
