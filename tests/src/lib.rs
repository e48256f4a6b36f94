//! Shared helpers for schemac's conformance tests.
