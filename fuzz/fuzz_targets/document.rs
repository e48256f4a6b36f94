//! Fuzz target `document`: see [`schemac_tests::fuzzing::document`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::document(data));
