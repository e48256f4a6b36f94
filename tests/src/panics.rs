//! Catching panics quietly, with their message and location.
//!
//! Tests here run code that must not panic, and count a panic as a failure to report,
//! not as noise on stderr. [`catch`] runs a closure under `catch_unwind` while a panic
//! hook records the message and location for the current thread only; panics outside
//! [`catch`] still reach the default hook.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// `Some` while the current thread is inside [`catch`]: the last panic seen there.
    static CAPTURE: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

static INSTALL: Once = Once::new();

fn install_hook() {
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let captured = CAPTURE.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let message = payload_message(info.payload());
                        *slot = Some(match info.location() {
                            Some(at) => format!("{message} (at {at})"),
                            None => message,
                        });
                        true
                    }
                    None => false,
                }
            });
            if !captured {
                default(info);
            }
        }));
    });
}

/// The text of a panic payload (`&str` or `String`), else a placeholder.
pub fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Runs `f`; a panic becomes `Err("panicked: MESSAGE (at FILE:LINE:COL)")`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    CAPTURE.with(|c| *c.borrow_mut() = Some(None));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let seen = CAPTURE.with(|c| c.borrow_mut().take()).flatten();
    result.map_err(|payload| {
        format!(
            "panicked: {}",
            seen.unwrap_or_else(|| payload_message(payload.as_ref()))
        )
    })
}
