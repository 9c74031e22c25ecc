//! Fuzz target `uci_protocol`: see `caissa_testsuite::fuzz_checks::uci_protocol`.

#![no_main]

use caissa_testsuite::fuzz_checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_checks::uci_protocol::check(data));
