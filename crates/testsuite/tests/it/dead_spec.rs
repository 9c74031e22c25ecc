//! The dead-position vectors of rules-spec section 10.5 (M1–M11 material, D1–D12 positional):
//! per side, whether that side can still mate, and whether the position is dead.

use std::time::{Duration, Instant};

use caissa_board::Color;
use caissa_game::dead::{Budget, Winnability, can_win, can_win_with, is_dead};
use caissa_movegen::{CastlingMode, Position};
use caissa_notation::fen::Fen;
use caissa_testsuite::fuzz_checks::dead::assert_mating_line;

fn position(fen: &str) -> Position {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `class` is rules-spec's `WB`, `W-`, `-B` or `--`: which sides can mate.
fn check(id: &str, fen: &str, class: &str) {
    let pos = position(fen);
    let expected = [class.starts_with('W'), class.ends_with('B')];
    for (color, can) in Color::ALL.into_iter().zip(expected) {
        match can_win(&pos, color) {
            Winnability::Winnable(line) => {
                assert!(can, "{id}: {color:?} wrongly winnable in {fen}");
                assert_mating_line(&pos, color, &line, &id);
            }
            Winnability::Unwinnable => assert!(!can, "{id}: {color:?} wrongly unwinnable"),
            Winnability::Unknown => panic!("{id}: {color:?} unknown in {fen}"),
        }
    }
    assert_eq!(is_dead(&pos), class == "--", "{id}: dead");
}

#[test]
fn material_vectors() {
    // rules-spec 10.5, "White cannot win" / "Black cannot win" columns.
    for (id, fen, class) in [
        ("M1", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "--"),
        ("M2", "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", "--"),
        ("M3", "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", "--"),
        ("M4", "8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", "W-"),
        ("M5", "8/8/1b6/4k3/8/8/8/2B1K3 w - - 0 1", "--"),
        ("M6", "8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1", "WB"),
        ("M7", "8/8/1n6/4k3/8/8/8/1N2K3 w - - 0 1", "WB"),
        ("M8", "8/8/1q6/4k3/8/8/8/1N2K3 w - - 0 1", "-B"),
        ("M9", "8/8/1r6/4k3/8/8/8/1N2K3 w - - 0 1", "WB"),
        ("M10", "8/8/1p6/4k3/8/8/8/2B1K3 w - - 0 1", "WB"),
        // rules-spec gives M11 with White to move, but the b2 bishop checks the black king: the
        // position is illegal as written, so Black moves here.
        ("M11", "8/8/8/4k3/8/8/1B6/2B1K3 b - - 0 1", "--"),
    ] {
        check(id, fen, class);
    }
}

#[test]
fn positional_vectors() {
    for (id, fen, class) in [
        (
            "D1",
            "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
            "--",
        ),
        ("D2", "3k4/8/8/p2p2p1/P2P2P1/8/3K4/8 w - - 0 1", "--"),
        ("D3", "8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1", "--"),
        ("D4", "8/2k5/8/1p1p1p2/1P1P1P2/4B3/2K5/8 w - - 0 1", "WB"),
        ("D5", "8/2k5/8/1p1p1p1p/1P1P1P1P/4B3/2K5/8 w - - 0 1", "--"),
        (
            "D6",
            "7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - - 0 1",
            "W-",
        ),
        (
            "D7",
            "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1",
            "--",
        ),
        ("D8", "6k1/6P1/6K1/8/8/8/8/8 w - - 0 1", "W-"),
        ("D9", "2k5/3n4/8/8/8/8/8/2KB4 w - - 0 1", "WB"),
        ("D10", "8/8/8/8/8/1kB5/1B6/BKB5 w - - 0 1", "--"),
        ("D11", "8/8/8/8/2b5/1kB5/1B6/BKB5 w - - 0 1", "WB"),
        (
            "D12",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "WB",
        ),
    ] {
        check(id, fen, class);
    }
}

#[test]
fn a_mate_on_the_board_is_winnable_with_an_empty_line() {
    // Fool's mate: White is mated, Black has already won.
    let pos = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(
        can_win(&pos, Color::Black),
        Winnability::Winnable(Vec::new())
    );
    assert_eq!(can_win(&pos, Color::White), Winnability::Unwinnable);
}

/// A smaller budget is never slower than a larger one. Here the default budget's quick search
/// finds a line at once, and a budget of 100 nodes ran out in it; the reachability fixpoint
/// that followed, which the node count does not see, took two hundred times as long (0.57 ms
/// against 3 µs) until a spent budget stopped before it too.
#[test]
fn a_spent_budget_stops_before_uncounted_work() {
    let pos = position("k1b1b3/6p1/6p1/1pBpBpBp/1PbPbPbP/6P1/6P1/K1B1B3 w - - 0 1");
    let fastest = |budget: Budget| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(can_win_with(&pos, Color::White, budget));
                start.elapsed()
            })
            .min()
            .expect("five runs")
    };
    let (small, full) = (fastest(Budget { nodes: 100 }), fastest(Budget::DEFAULT));
    assert!(
        small <= full * 3 + Duration::from_micros(100),
        "100 nodes {small:?}, the default budget {full:?}"
    );
}

#[test]
fn a_tiny_budget_answers_unknown_not_unwinnable() {
    // A blocked position that needs more than the material rule and a few nodes: with no
    // budget the analysis may not conclude, and must not claim unwinnability.
    let pos = position("8/2k5/8/1p1p1p2/1P1P1P2/4B3/2K5/8 w - - 0 1");
    for color in Color::ALL {
        let verdict = can_win_with(&pos, color, Budget { nodes: 0 });
        assert_eq!(verdict, Winnability::Unknown, "{color:?}");
    }
}
