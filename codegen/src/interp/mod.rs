//! The interpreter backend: evaluates an IR [`Program`] directly.

use crate::ir::Program;
use schemac_runtime::{Report, Validate, Verdict};
use serde_json::Value;

/// A validator that interprets a compiled [`Program`].
pub struct Interpreter {
    program: Program,
}

impl Interpreter {
    /// An interpreter for `program`, under the program's limits.
    pub fn new(program: Program) -> Interpreter {
        Interpreter { program }
    }

    /// The program interpreted.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

impl Validate for Interpreter {
    fn check(&self, instance: &Value) -> Verdict {
        let _ = instance;
        todo!("interpreter: issue #2")
    }

    fn validate(&self, instance: &Value) -> Report {
        let _ = instance;
        todo!("interpreter: issue #2")
    }
}
