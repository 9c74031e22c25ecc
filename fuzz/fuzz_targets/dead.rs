//! Fuzz target `dead`: see `caissa_testsuite::fuzz_checks::dead`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::dead::check(data));
