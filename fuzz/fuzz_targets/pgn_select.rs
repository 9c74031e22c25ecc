//! Fuzz target `pgn_select`: see `caissa_testsuite::fuzz_checks::pgn_select`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::pgn_select::check(data));
