//! Fuzz target `regex`: see [`schemac_tests::fuzzing::regex`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::regex(data));
