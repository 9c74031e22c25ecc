//! Fuzz target `epd`: see `caissa_testsuite::fuzz_checks::epd`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::epd::check(data));
