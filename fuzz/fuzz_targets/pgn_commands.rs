//! Fuzz target `pgn_commands`: see `caissa_testsuite::fuzz_checks::pgn_commands`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::pgn_commands::check(data));
