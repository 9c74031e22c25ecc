//! Perft suites from `data/perft/`, to depths that keep the test run short. `cargo xtask perft`
//! runs every suite to its full depth.

use caissa_movegen::{CastlingMode, perft};
use caissa_notation::fen::Fen;
use caissa_testsuite::{PerftCase, parse_perft_suite, read_data};

/// Checks every case of `suite` whose count at a depth is at most `max_nodes`.
fn check_suite(suite: &str, mode: CastlingMode, max_nodes: u64) {
    let cases = parse_perft_suite(&read_data(suite));
    assert!(!cases.is_empty(), "{suite} is empty");
    let mut checked = 0;
    for PerftCase {
        fen, counts, line, ..
    } in &cases
    {
        let pos = fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"))
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"));
        for &(depth, expected) in counts.iter().filter(|(_, n)| *n <= max_nodes) {
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{suite}:{line}: {fen} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked >= cases.len(), "{suite}: too few depths checked");
}

#[test]
fn standard_positions() {
    check_suite("perft/standard.epd", CastlingMode::Standard, 20_000_000);
}

#[test]
fn random_positions_depth_4() {
    check_suite("perft/random-d4.epd", CastlingMode::Standard, 200_000);
}

#[test]
fn random_positions_depth_5() {
    check_suite("perft/random-d5.epd", CastlingMode::Standard, 2_000_000);
}

#[test]
fn chess960_start_positions() {
    check_suite(
        "perft/chess960-starts-d5.epd",
        CastlingMode::Chess960,
        300_000,
    );
}

#[test]
fn chess960_random_positions() {
    check_suite(
        "perft/chess960-random-d4.epd",
        CastlingMode::Chess960,
        300_000,
    );
}
