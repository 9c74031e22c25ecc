//! Replays the fuzz corpora in `fuzz/corpus/<target>/` through the checks the fuzz targets run,
//! so every seed and every crash input found so far is a regression test under `cargo test`.
use std::path::PathBuf;

use caissa_movegen::{CastlingMode, Position};
use caissa_notation::fen::Fen;
use caissa_testsuite::fuzz_checks::{
    check_dead, check_epd, check_fen, check_pgn, check_position, check_san, check_uci,
    setup_from_bytes, setup_to_bytes,
};
use caissa_testsuite::{PerftCase, parse_perft_suite, read_data};

/// Runs `check` on every file of `fuzz/corpus/<target>/`, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    for path in files {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            eprintln!("corpus file {} fails", path.display());
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn fen_corpus() {
    replay("fen", check_fen);
}

#[test]
fn position_corpus() {
    replay("position", check_position);
}

#[test]
fn uci_corpus() {
    replay("uci", check_uci);
}

#[test]
fn san_corpus() {
    replay("san", check_san);
}

#[test]
fn epd_corpus() {
    replay("epd", check_epd);
}

#[test]
fn dead_corpus() {
    replay("dead", check_dead);
}

#[test]
fn arbiter_corpus() {
    replay("arbiter", caissa_testsuite::arbiter_checks::check_arbiter);
}

#[test]
fn pgn_corpus() {
    replay("pgn", check_pgn);
}

/// The positions of a perft suite (every `step`-th line), validated in `mode`.
fn suite_positions(suite: &str, mode: CastlingMode, step: usize) -> Vec<Position> {
    parse_perft_suite(&read_data(suite))
        .into_iter()
        .step_by(step)
        .map(|PerftCase { fen, line, .. }| {
            fen.parse::<Fen>()
                .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"))
                .into_position(mode)
                .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"))
        })
        .collect()
}

/// The position target's byte format expresses every position of the perft suites (counters
/// aside, which it clamps), and the checks pass on them.
#[test]
fn position_format_round_trips_perft_positions() {
    let positions = [
        suite_positions("perft/standard.epd", CastlingMode::Standard, 1),
        suite_positions("perft/random-d4.epd", CastlingMode::Standard, 200),
        suite_positions("perft/chess960-random-d4.epd", CastlingMode::Chess960, 50),
        suite_positions("perft/chess960-starts-d5.epd", CastlingMode::Chess960, 96),
    ];
    let mut checked = 0;
    for pos in positions.iter().flatten() {
        let setup = pos.to_setup();
        let bytes = setup_to_bytes(&setup, pos.castling_mode());
        assert_eq!(setup_from_bytes(&bytes), (setup, pos.castling_mode()));
        check_position(&bytes);
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} positions checked");
}
