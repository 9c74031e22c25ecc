//! The invariants the fuzz targets in `fuzz/` check, as plain functions of arbitrary bytes: one
//! module per target, named as the target (`fuzz/fuzz_targets/<target>.rs` calls
//! `fuzz_checks::<target>::check`).
//!
//! Both the fuzz targets (under `cargo fuzz`) and the corpus replay test
//! (`tests/it/fuzz_corpus.rs`, under plain `cargo test`) call these functions, through
//! [`TARGETS`], so a crash found by the fuzzer becomes a regression test by adding its input to
//! `fuzz/corpus/<target>/`.
//!
//! Each `check` function accepts any input and panics only when caissa breaks an invariant: a
//! parser panics, a round trip changes what was read, or two ways of asking the same question
//! disagree. What the modules share lives here: `assert_offset_inside` for parse errors and
//! the fixed positions that [`uci`] and [`san`] match moves against.
//!
//! A new target: a module here with `pub fn check(data: &[u8])`, a line in [`TARGETS`],
//! `fuzz/fuzz_targets/<target>.rs` with its `[[bin]]` in `fuzz/Cargo.toml`, and seeds in
//! `fuzz/corpus/<target>/`; the corpus test checks that the four agree.

use std::sync::LazyLock;

use caissa_movegen::{CastlingMode, Position};
use caissa_notation::fen::Fen;

pub mod arbiter;
pub mod arbitrate_json;
pub mod dead;
pub mod epd;
pub mod fen;
pub mod perft_suite;
pub mod pgn;
pub mod pgn_chunks;
pub mod pgn_commands;
pub mod pgn_select;
pub mod position;
pub mod rate;
pub mod san;
pub mod status_moves;
pub mod uci;
pub mod uci_protocol;

/// A target's check: panics when `data` breaks one of its invariants.
pub type Check = fn(data: &[u8]);

/// Every fuzz target, by name, with its check: what the corpus replay test runs each file of
/// `fuzz/corpus/<name>/` through.
pub const TARGETS: &[(&str, Check)] = &[
    ("arbiter", arbiter::check),
    ("arbitrate_json", arbitrate_json::check),
    ("dead", dead::check),
    ("epd", epd::check),
    ("fen", fen::check),
    ("perft_suite", perft_suite::check),
    ("pgn", pgn::check),
    ("pgn_chunks", pgn_chunks::check),
    ("pgn_commands", pgn_commands::check),
    ("pgn_select", pgn_select::check),
    ("position", position::check),
    ("rate", rate::check),
    ("san", san::check),
    ("status_moves", status_moves::check),
    ("uci", uci::check),
    ("uci_protocol", uci_protocol::check),
];

/// Asserts that a parse error's byte offset lies within (or just after) the input it was read
/// from.
fn assert_offset_inside(byte: usize, err: &dyn core::fmt::Display, input: &[u8]) {
    assert!(
        byte <= input.len(),
        "{err}: the offset is past the end of the {} bytes read",
        input.len()
    );
}

/// Reads `text`, which caissa wrote, back as a FEN.
fn reparse(text: &str) -> Fen {
    text.parse()
        .unwrap_or_else(|e| panic!("caissa wrote {text:?}, which it cannot read back: {e}"))
}

/// The positions [`uci::check`] and [`san::check`] match moves against: the start, kiwipete
/// (castling both ways, en passant, promotions one move away), a promotion-rich position,
/// Chess960 positions where the king's two-square step and king-takes-rook differ, and one where
/// four queens and pairs of knights share destinations (every kind of disambiguation).
static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            CastlingMode::Chess960,
        ),
        (
            "7k/8/1N3N2/2Q1Q3/8/2Q1Q3/1N3N2/K7 w - - 0 1",
            CastlingMode::Standard,
        ),
    ]
    .into_iter()
    .map(|(fen, mode)| {
        reparse(fen)
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    })
    .collect()
});
