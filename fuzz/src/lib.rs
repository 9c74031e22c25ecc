//! caissa's fuzz targets. The checks live in the testsuite crate (`fuzz_checks`), shared with the
//! corpus replay test `crates/testsuite/tests/fuzz_corpus.rs`, so every corpus file is also a
//! regression test under plain `cargo test`. The `arbiter` target's checks are here
//! (`arbiter_checks`) until the testsuite crate depends on the arbiter.

#![forbid(unsafe_code)]

#[path = "../../crates/testsuite/src/fuzz_checks.rs"]
pub mod fuzz_checks;

pub mod arbiter_checks;
