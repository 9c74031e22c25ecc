//! Writes the seed corpus of the `position` target, `fuzz/corpus/position/`, in the byte format
//! of `fuzz_checks::position::setup_from_bytes`: positions from the perft suites and hand-made setups, legal
//! and not, each followed by a few bytes of walk.
//!
//! Run with `cargo run --example seed_position_corpus` inside `fuzz/`.

use std::path::{Path, PathBuf};

use caissa_testsuite::fuzz_checks::position::setup_to_bytes;
use caissa_movegen::CastlingMode;
use caissa_notation::fen::Fen;

/// Hand-made setups: names, FENs and the mode to read them in.
const SETUPS: [(&str, &str, CastlingMode); 14] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "ep-legal",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        CastlingMode::Standard,
    ),
    (
        "ep-pinned-on-rank",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
        CastlingMode::Standard,
    ),
    (
        "ep-checking-pawn",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        CastlingMode::Standard,
    ),
    (
        "ep-invalid",
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        CastlingMode::Standard,
    ),
    (
        "promotions",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "castling-through-check",
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "chess960-king-b",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        CastlingMode::Chess960,
    ),
    (
        "chess960-rook-next-to-king",
        "3rkr2/8/8/8/8/8/8/3RKR2 w FDfd - 0 1",
        CastlingMode::Chess960,
    ),
    (
        "chess960-castling-in-standard-mode",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "double-check",
        "4k3/8/5N2/8/8/8/8/K3R3 b - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "triple-check",
        "4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "no-kings",
        "8/8/8/8/8/8/8/8 w KQkq e3 0 1",
        CastlingMode::Standard,
    ),
    (
        "counters-max",
        "4k3/8/8/8/8/8/8/4K3 w - - 254 254",
        CastlingMode::Standard,
    ),
];

/// Perft suites and how many of their first positions to take.
const SUITES: [(&str, usize, CastlingMode); 4] = [
    ("standard.epd", 8, CastlingMode::Standard),
    ("random-d4.epd", 6, CastlingMode::Standard),
    ("chess960-random-d4.epd", 6, CastlingMode::Chess960),
    ("chess960-starts-d5.epd", 2, CastlingMode::Chess960),
];

/// Bytes after the setup: two bogus moves (a castle and an en passant capture from squares that
/// look plausible) and then a walk.
const TAIL: [u8; 8] = [4 | 0x80, 7, 36 | 0x40, 43, 3, 1, 4, 1];

fn write(dir: &Path, name: &str, fen: &str, mode: CastlingMode) {
    let setup = fen
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_setup();
    let mut bytes = setup_to_bytes(&setup, mode).to_vec();
    bytes.extend_from_slice(&TAIL);
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("corpus/position");
    std::fs::create_dir_all(&dir).expect("creating the corpus folder");
    for (name, fen, mode) in SETUPS {
        write(&dir, name, fen, mode);
    }
    for (suite, count, mode) in SUITES {
        let path = root.join("../data/perft").join(suite);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fens = text
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .filter_map(|line| line.split(';').next());
        for (i, fen) in fens.take(count).enumerate() {
            let name = format!("{}-{}", suite.trim_end_matches(".epd"), i + 1);
            write(&dir, &name, fen, mode);
        }
    }
}
