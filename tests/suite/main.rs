//! The JSON Schema Test Suite through both backends (issue #2 fills this).

fn main() {}
