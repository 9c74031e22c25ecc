//! The input readers of the `caissa` command, as a library so that they can be tested and
//! fuzzed on their own (`crates/testsuite/src/fuzz_checks/`): the perft suite format of `caissa
//! perft --suite` ([`perft_suite`]) and the move list of `caissa status --moves`
//! ([`move_list`]). The command itself is the binary (`src/main.rs`); this library is not a
//! stable API.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod move_list;
pub mod perft_suite;
