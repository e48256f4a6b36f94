//! Helpers that read or reshape generated tokens: the shape of an arm's body, one `if` of
//! nested ones, and whether code breaks to the node's label or names an identifier.

use super::Mode;
use proc_macro2::TokenStream;
use quote::quote;

/// The body of a `match` arm that runs `code` (statements), with its comma: on the error
/// path, a lone call of the error-collecting state's (which gives `()` or, `?` applied,
/// `()`) or assignment is the arm's expression (`_ => cx.fail(0),`); else a block.
pub(super) fn arm_body(mode: Mode, code: &TokenStream) -> TokenStream {
    if mode == Mode::Errors {
        if let Ok(block) = syn::parse2::<syn::Block>(quote!({ #code })) {
            if let [syn::Stmt::Expr(expr, Some(_))] = block.stmts.as_slice() {
                let call = match expr {
                    syn::Expr::Try(t) => &*t.expr,
                    other => other,
                };
                let unit = match call {
                    syn::Expr::MethodCall(m) => {
                        matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident("cx"))
                    }
                    syn::Expr::Assign(_) => true,
                    _ => false,
                };
                if unit {
                    return quote!(#expr,);
                }
            }
        }
    }
    quote!({ #code })
}

/// `(condition, body)` when `code` is exactly one `if` without `else` whose condition is
/// not an `if let`.
pub(super) fn split_single_if(code: &TokenStream) -> Option<(TokenStream, TokenStream)> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = code.clone().into_iter().collect();
    let (first, rest) = tokens.split_first()?;
    if !matches!(first, TokenTree::Ident(i) if i == "if") {
        return None;
    }
    if matches!(rest.first(), Some(TokenTree::Ident(i)) if i == "let") {
        return None;
    }
    let (last, cond) = rest.split_last()?;
    let TokenTree::Group(body) = last else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace || cond.is_empty() {
        return None;
    }
    // A brace group in the condition may only be the operand of `!` (a child evaluated
    // in a block, see `Gen::child`).
    let negated = |i: usize| matches!(i.checked_sub(1).map(|j| &cond[j]), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let cond_ok = cond.iter().enumerate().all(|(i, t)| match t {
        TokenTree::Group(g) => g.delimiter() != Delimiter::Brace || negated(i),
        TokenTree::Ident(i) => i != "if" && i != "else",
        TokenTree::Punct(p) => p.as_char() != ';',
        TokenTree::Literal(_) => true,
    });
    if !cond_ok {
        return None;
    }
    Some((cond.iter().cloned().collect(), body.stream()))
}

/// Whether a condition has a top-level `||` (and needs parentheses after `&&`).
pub(super) fn has_top_level_or(cond: &TokenStream) -> bool {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = cond.clone().into_iter().collect();
    tokens.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '|' && a.spacing() == Spacing::Joint && b.as_char() == '|')
    })
}

/// `if cond { body }`, merged into one condition when `body` is itself a lone `if`.
pub(super) fn guarded_if(cond: TokenStream, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    match split_single_if(&body) {
        Some((inner, inner_body)) => {
            let inner = if has_top_level_or(&inner) {
                quote!((#inner))
            } else {
                inner
            };
            guarded_if(quote!(#cond && #inner), inner_body)
        }
        None => quote!(if #cond { #body }),
    }
}

/// Whether `tokens` hold a `break 'n`.
pub(super) fn breaks_to_label(tokens: &TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let mut previous_quote = false;
    for tree in tokens.clone() {
        match &tree {
            TokenTree::Group(g) => {
                if breaks_to_label(&g.stream()) {
                    return true;
                }
                previous_quote = false;
            }
            TokenTree::Punct(p) => previous_quote = p.as_char() == '\'',
            TokenTree::Ident(i) => {
                if previous_quote && i == "n" {
                    return true;
                }
                previous_quote = false;
            }
            TokenTree::Literal(_) => previous_quote = false,
        }
    }
    false
}

/// Whether `tokens` use the identifier `name`.
pub(super) fn uses_ident(tokens: &TokenStream, name: &str) -> bool {
    use proc_macro2::TokenTree;
    tokens.clone().into_iter().any(|tree| match &tree {
        TokenTree::Group(g) => uses_ident(&g.stream(), name),
        TokenTree::Ident(i) => i == name,
        _ => false,
    })
}

/// `body` without its final statement when that is `exit` (the node's failure), and
/// whether it was.
pub(super) fn strip_final_exit(body: TokenStream, exit: &TokenStream) -> (TokenStream, bool) {
    let mut tokens: Vec<proc_macro2::TokenTree> = body.into_iter().collect();
    let exit: Vec<String> = exit.clone().into_iter().map(|t| t.to_string()).collect();
    let tail = tokens.len().saturating_sub(exit.len());
    let stripped = tokens[tail..]
        .iter()
        .map(|t| t.to_string())
        .eq(exit.iter().cloned());
    if stripped {
        tokens.truncate(tail);
    }
    (tokens.into_iter().collect(), stripped)
}
