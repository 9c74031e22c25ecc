//! Fuzz target `arbiter`: see `caissa_fuzz::arbiter_checks::check_arbiter`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| caissa_fuzz::arbiter_checks::check_arbiter(data));
