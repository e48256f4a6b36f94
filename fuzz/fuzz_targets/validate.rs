//! Fuzz target `validate`: see [`schemac_tests::fuzzing::validate`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::validate(data));
