//! Fuzz target `perft_suite`: see `caissa_testsuite::fuzz_checks::perft_suite`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::perft_suite::check(data));
