//! Fuzz target `san`: see `caissa_fuzz::fuzz_checks::check_san`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| caissa_fuzz::fuzz_checks::check_san(data));
