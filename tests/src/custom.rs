//! The custom keyword every set of the harness compiles ([`crate::suite::CUSTOM_KEYWORD`],
//! `x-length-divisible-by`: a string's length in characters, an array's items or an
//! object's properties must be a multiple of the keyword's value, a positive integer;
//! other instances pass), in both forms: the function generated code calls
//! ([`length_divisible_by`]) and the interpreter's factory ([`factory`]), one rule
//! ([`check`]). `tests/fixtures/custom_keywords.json` runs it through both backends.

use crate::suite::CUSTOM_KEYWORD;
use schemac::interp::{Interpreter, KeywordCheck};
use schemac::ir::Program;
use schemac_runtime::instance::{Constant, Instance};
use serde_json::Value;

/// The rule: `instance`'s length is a multiple of `divisor`.
pub fn check(divisor: u64, instance: &Value) -> Result<(), String> {
    let length = match instance {
        Value::String(s) => s.chars().count(),
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => return Ok(()),
    };
    if (length as u64).is_multiple_of(divisor) {
        Ok(())
    } else {
        Err(format!("length must be a multiple of {divisor}"))
    }
}

/// The keyword's value as the rule takes it: a positive integer.
fn divisor(value: Option<u64>) -> Result<u64, String> {
    value
        .filter(|&n| n > 0)
        .ok_or_else(|| "takes a positive integer".to_string())
}

/// What generated code calls (`EmitOptions::custom_keywords`).
pub fn length_divisible_by(value: &Constant<'_>, instance: &Value) -> Result<(), String> {
    check(divisor(value.as_u64())?, instance)
}

/// The interpreter's factory: the value checked once, then the rule.
pub fn factory(value: &Value) -> Result<KeywordCheck, String> {
    let divisor = divisor(value.as_u64())?;
    Ok(Box::new(move |instance: &Value| check(divisor, instance)))
}

/// The interpreter of `program` with the keyword bound (a value the factory refuses is
/// the error's text).
pub fn interpreter(program: Program) -> Result<Interpreter, String> {
    Interpreter::new(program)
        .with_keyword(CUSTOM_KEYWORD, factory)
        .map_err(|errors| format!("{errors:?}"))
}
