//! Fuzz target `dead`: see `caissa_fuzz::fuzz_checks::check_dead`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| caissa_fuzz::fuzz_checks::check_dead(data));
