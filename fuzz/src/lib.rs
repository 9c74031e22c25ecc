//! caissa's fuzz targets. The checks live in the testsuite crate (`fuzz_checks`), shared with the
//! corpus replay test `crates/testsuite/tests/it/fuzz_corpus.rs`, so every corpus file is also a
//! regression test under plain `cargo test`; the `arbiter` target's checks are the testsuite's
//! `arbiter_checks`.

#![forbid(unsafe_code)]

#[path = "../../crates/testsuite/src/fuzz_checks.rs"]
pub mod fuzz_checks;

#[path = "../../crates/testsuite/src/arbiter_checks.rs"]
pub mod arbiter_checks;
