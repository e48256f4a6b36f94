//! Helpers that read generated tokens: the shape of an arm's body, and whether a condition
//! needs parentheses after `&&`.

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

/// Whether a condition has a top-level `||` (and needs parentheses after `&&`).
pub(super) fn has_top_level_or(cond: &TokenStream) -> bool {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = cond.clone().into_iter().collect();
    tokens.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '|' && a.spacing() == Spacing::Joint && b.as_char() == '|')
    })
}
