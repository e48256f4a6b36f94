//! Whether a generated condition needs parentheses after `&&`.

use proc_macro2::TokenStream;

/// Whether a condition has a top-level `||` (and needs parentheses after `&&`).
pub(super) fn has_top_level_or(cond: &TokenStream) -> bool {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = cond.clone().into_iter().collect();
    tokens.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '|' && a.spacing() == Spacing::Joint && b.as_char() == '|')
    })
}
