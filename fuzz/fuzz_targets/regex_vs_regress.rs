//! Fuzz target `regex_vs_regress`: see [`schemac_tests::fuzzing::regex_vs_regress`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| schemac_tests::fuzzing::regex_vs_regress(data));
