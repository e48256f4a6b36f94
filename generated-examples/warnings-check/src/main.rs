//! `warnings-check`: uses one item of one module of each generated file and leaves
//! everything else unused (`SCHEMA`, `LIMITS`, `TOOLS`, whole modules). Under
//! `#![deny(warnings)]`, this builds only when the generated code carries what it needs to
//! be included in a private module and used in part.
#![deny(warnings)]

mod validators {
    schemac_runtime::include_validators!();
}

mod check_only {
    schemac_runtime::include_validators!("check_only.rs");
}

mod evaluating {
    schemac_runtime::include_validators!("evaluate.rs");
}

use serde_json::{json, Value};

/// Whether `arguments` are `get_weather` arguments, by each generated file's validators.
fn accept(arguments: &Value) -> [bool; 3] {
    use schemac_runtime::Validate;
    [
        validators::get_weather_input::is_valid(arguments),
        check_only::get_weather_input::check(arguments) == schemac_runtime::Verdict::Valid,
        evaluating::get_weather_input::Validator
            .validate(arguments)
            .is_valid(),
    ]
}

fn main() {
    let arguments = json!({"location": "Lisbon", "days": 3});
    println!("get_weather {arguments}: {:?}", accept(&arguments));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_file_gives_the_same_verdicts() {
        assert_eq!(accept(&json!({"location": "Lisbon"})), [true; 3]);
        assert_eq!(accept(&json!({"location": ""})), [false; 3]);
    }
}
