//! Fuzz target `arbitrate_json`: see `caissa_testsuite::fuzz_checks::arbitrate_json`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::arbitrate_json::check(data));
