//! Fuzz target `status_moves`: see `caissa_testsuite::fuzz_checks::status_moves`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::status_moves::check(data));
