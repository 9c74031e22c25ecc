//! Fuzz target `arbiter`: see `caissa_testsuite::fuzz_checks::arbiter`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::arbiter::check(data));
