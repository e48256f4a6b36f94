//! Unit tests of the format checks: spot cases beyond the suite, and a small fuzz run
//! showing that no input makes any checker panic.
