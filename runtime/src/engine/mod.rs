//! The evaluation core both backends share: the state of one validation
//! ([`State`]: budget, depth and dynamic scope), what a reporting validation collects
//! ([`Trail`]) and generated code's error-collecting state around it ([`Errors`]), the
//! evaluated-location sets of `unevaluated*` ([`Bits`], [`Eval`]), exact comparisons of
//! instance numbers with schema numbers, and the instance reads keywords share (object
//! lookups, string lengths). The interpreter uses it by these names; generated code
//! reaches it through the runtime's hidden facade module, with the items only generated
//! code needs (function pointer types, the version check).
//!
//! Not a stable API: it changes with the code generator.

mod errors;
mod evaluated;
mod numbers;
mod reading;
mod state;
#[cfg(test)]
mod tests;
mod trail;

pub use errors::{At, Errors, Fault, Site};
pub use evaluated::{Bits, Eval};
pub use numbers::{cmp_f64, cmp_i64, cmp_u64};
pub use reading::{applied_names, find_entry, get, in_range, max_length, min_length, Indices};
pub use state::{Done, Res, State, Stop};
pub use trail::{
    closest_candidates, push_token, Explanation, Location, Mark, OwnAnnotation, Refusal, Trail,
};
