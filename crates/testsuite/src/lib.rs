//! Shared helpers for caissa's cross-layer tests: locating the shared test data and reading
//! perft suites. The tests themselves live in `tests/`.

#![forbid(unsafe_code)]
