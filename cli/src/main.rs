//! The `schemac` command line (issue #2 fills this).

fn main() {}
