//! Fuzz target `compile`: see [`schemac_tests::fuzzing::compile_schema`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::compile_schema(data));
