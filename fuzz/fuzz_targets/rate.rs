//! Fuzz target `rate`: see `caissa_testsuite::fuzz_checks::rate`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::rate::check(data));
