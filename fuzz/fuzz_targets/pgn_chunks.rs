//! Fuzz target `pgn_chunks`: see `caissa_testsuite::fuzz_checks::pgn_chunks`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::pgn_chunks::check(data));
