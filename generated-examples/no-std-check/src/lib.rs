//! A `#![no_std]` + `alloc` crate using validators that schemac generated at build time:
//! if this builds on its own, the runtime and the generated code need no `std`.
#![no_std]
#![deny(warnings)]

extern crate alloc;

/// The generated validators, one module per schema in `schemas/`.
pub mod validators {
    schemac_runtime::include_validators!();
}

/// The same validators built check-only (`Builder::validate(false)`): `is_valid` and
/// `check`, no error-collecting code.
pub mod check_only {
    schemac_runtime::include_validators!("check_only.rs");
}

use alloc::vec::Vec;
use serde_json::Value;

/// Whether `arguments` are valid `set_led` arguments.
pub fn accept(arguments: &Value) -> bool {
    validators::set_led::is_valid(arguments)
}

/// Every error for `arguments`, as `(instance location, keyword location)`.
pub fn errors(arguments: &Value) -> Vec<(alloc::string::String, alloc::string::String)> {
    validators::set_led::validate(arguments)
        .errors
        .into_iter()
        .map(|e| (e.instance_location, e.keyword_location))
        .collect()
}

/// Whether the JSON text `bytes` holds valid `set_led` arguments; `None` when it is not
/// JSON. The generated validators read the text in place (no `Value` is built), under
/// `#![no_std]` + `alloc` too; the check-only module has the byte entry points as well.
pub fn accept_json(bytes: &[u8]) -> Option<bool> {
    let verdict = validators::set_led::check_json(bytes).ok()?;
    Some(verdict == schemac_runtime::Verdict::Valid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn check_only_validators_agree() {
        use schemac_runtime::Check;
        for arguments in [
            json!({"led": "led7", "color": "red", "brightness": 0.25}),
            json!({"led": "LED7", "color": "red"}),
            json!({"led": "led7", "color": "red", "blink": true}),
        ] {
            assert_eq!(
                check_only::set_led::is_valid(&arguments),
                accept(&arguments)
            );
            assert_eq!(
                check_only::set_led::Validator.check(&arguments),
                validators::set_led::check(&arguments)
            );
        }
    }

    #[test]
    fn json_text_is_read_without_std() {
        assert_eq!(
            accept_json(br#"{"led": "led7", "color": "red", "brightness": 0.25}"#),
            Some(true)
        );
        assert_eq!(
            accept_json(br#"{"led": "LED7", "color": "red"}"#),
            Some(false)
        );
        assert_eq!(accept_json(br#"{"led": "led7", "color": "red",}"#), None);
        for text in [
            &br#"{"led": "led7", "color": "red", "brightness": 0.25}"#[..],
            br#"{"led": "LED7", "color": "red"}"#,
            br#"{"led": "led7", "color": "red",}"#,
        ] {
            assert_eq!(
                check_only::set_led::is_valid_json(text),
                accept_json(text) == Some(true)
            );
        }
    }

    #[test]
    fn generated_validators_run_without_std() {
        assert!(accept(
            &json!({"led": "led7", "color": "red", "brightness": 0.25})
        ));
        assert!(accept(
            &json!({"led": "led1", "color": "off", "pattern": [{"on_ms": 5, "off_ms": 0}]})
        ));
        assert!(!accept(&json!({"led": "LED7", "color": "red"})));
        assert!(!accept(&json!({"led": "led7", "color": "pink"})));
        assert!(!accept(
            &json!({"led": "led7", "color": "red", "brightness": 0.255})
        ));
        assert!(!accept(
            &json!({"led": "led7", "color": "red", "until": "tomorrow"})
        ));
        assert!(!accept(
            &json!({"led": "led7", "color": "red", "blink": true})
        ));
        assert_eq!(
            errors(&json!({"led": "led7", "color": "red", "blink": true})),
            [("/blink".into(), "/unevaluatedProperties".into())]
        );
    }
}
