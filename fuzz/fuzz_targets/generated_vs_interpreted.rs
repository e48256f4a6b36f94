//! Fuzz target `generated_vs_interpreted`: see [`schemac_tests::fuzzing::generated_vs_interpreted`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::generated_vs_interpreted(data));
