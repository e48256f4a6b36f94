//! Reading an instance (a `&Value` or a document node, [`Instance`]): the text of its
//! strings and keys, its size, its keys. Shared by the evaluation (`context`, `apply`,
//! `object`, …) and the run-time indexes (`index`), below both.

use schemac_runtime::document::JsonStr;
use schemac_runtime::instance::Instance;

/// The text of a string or key `s` (a [`JsonStr`]) as a `&str`: itself when it holds no
/// escape (always, for a `&Value`), else decoded into `$owned` (a `String` the caller
/// declares) out of the hot path ([`unescape`]).
macro_rules! text_of {
    ($s:expr, $owned:ident) => {
        match $s.as_plain() {
            Some(text) => text,
            None => {
                $owned = super::access::unescape($s);
                $owned.as_str()
            }
        }
    };
}
pub(super) use text_of;

/// `s`, which holds an escape, decoded ([`text_of`]).
#[cold]
#[inline(never)]
pub(super) fn unescape(s: JsonStr<'_>) -> String {
    s.unescaped().into_owned()
}

/// The number of items or entries of an array or object instance (0 for anything else).
#[inline(always)]
pub(super) fn count<'a, I: Instance<'a>>(value: I) -> usize {
    value.len().unwrap_or(0)
}

/// Whether the object instance `object` has the key `name`.
#[inline(always)]
pub(super) fn has_key<'a, I: Instance<'a>>(object: I, name: &str) -> bool {
    object.get(name).is_some()
}
