//! build.rs integration for schemac (issue #4 fills this crate).
