//! The cross-layer tests of caissa, in one binary (as ripgrep's are): each module is one area,
//! and what they share lives in the `caissa_testsuite` library.

mod dead_soundness;
mod dead_spec;
mod dead_vectors;
mod differential_shakmaty;
mod epd_read_write;
mod fen_errors;
mod fuzz_corpus;
mod game_differential;
mod game_properties;
mod game_rules;
mod no_alloc;
mod perft_suites;
mod pgn_hostile;
mod pgn_parallel;
mod pgn_reader;
mod pgn_recovery;
mod pgn_roundtrip;
mod pgn_samples;
mod position_api;
mod position_errors;
mod san_shakmaty;
mod san_vectors;
