//! `apply_defaults` in the interpreter: the program's [`Defaults`] walked over a
//! `serde_json::Value`, as generated code's `apply_defaults` renders them (the rule is
//! [`crate::ir::defaults`]'s).

use crate::ir::defaults::{Defaults, StepId};
use crate::ir::Program;
use serde_json::Value;

/// Runs step `id` on `value` at instance depth `depth`, going no deeper than
/// `max_depth`; `false` when it stopped there.
pub(super) fn apply(
    program: &Program,
    defaults: &Defaults,
    id: StepId,
    value: &mut Value,
    depth: u32,
    max_depth: u32,
) -> bool {
    let step = defaults.step(id);
    if step.descends() && depth >= max_depth {
        return false;
    }
    let matches = |re: crate::ir::RegexId, key: &str| {
        program.regexes[re.0]
            .compiled
            .as_ref()
            .is_some_and(|c| c.is_match(key))
    };
    let mut complete = true;
    let mut go = |id: StepId, value: &mut Value| {
        complete &= apply(program, defaults, id, value, depth + 1, max_depth);
    };
    match value {
        Value::Object(object) => {
            for (name, default) in &step.insert {
                if !object.contains_key(name) {
                    object.insert(name.clone(), default.clone());
                }
            }
            for (key, value) in object.iter_mut() {
                for (_, id) in step.properties.iter().filter(|(name, _)| name == key) {
                    go(*id, value);
                }
                for (_, id) in step.patterns.iter().filter(|(re, _)| matches(*re, key)) {
                    go(*id, value);
                }
                for additional in &step.additional {
                    if !additional.known.contains(key)
                        && !additional.patterns.iter().any(|re| matches(*re, key))
                    {
                        go(additional.step, value);
                    }
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                for (_, id) in step.prefix_items.iter().filter(|(i, _)| *i == index) {
                    go(*id, item);
                }
                for (_, id) in step.items.iter().filter(|(skip, _)| index >= *skip) {
                    go(*id, item);
                }
            }
        }
        _ => {}
    }
    complete
}
