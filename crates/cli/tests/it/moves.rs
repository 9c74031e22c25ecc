//! `caissa moves`, and castling in Chess960 through `moves` and `perft`.

use crate::{CHESS960, START, assert_sorted, caissa};

#[test]
fn chess960_castling_is_king_takes_rook() {
    let run = caissa(&["moves", "--fen", CHESS960, "--chess960"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let moves = run.lines();
    assert!(moves.contains(&"b1a1"), "O-O-O: {moves:?}");
    assert!(moves.contains(&"b1e1"), "O-O: {moves:?}");
    assert!(!moves.contains(&"b1g1"), "{moves:?}");
    assert_sorted(&moves);

    let run = caissa(&[
        "perft",
        "--fen",
        CHESS960,
        "--depth",
        "1",
        "--divide",
        "--chess960",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.lines();
    assert!(
        lines.contains(&"b1a1 1") && lines.contains(&"b1e1 1"),
        "{lines:?}"
    );
    assert_eq!(
        lines.last(),
        Some(&format!("nodes {}", moves.len()).as_str())
    );

    // The standard start in Chess960 mode is the same position with the same counts.
    let run = caissa(&["perft", "--depth", "3", "--chess960"]);
    assert_eq!(run.lines(), ["nodes 8902"]);
}

#[test]
fn chess960_castling_needs_the_flag() {
    let run = caissa(&["moves", "--fen", CHESS960]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("illegal position"), "{}", run.stderr);
}

#[test]
fn moves_of_the_start_position() {
    let run = caissa(&["moves", "--fen", START]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let moves = run.lines();
    assert_eq!(moves.len(), 20);
    assert_eq!(moves.first(), Some(&"a2a3"));
    assert!(moves.contains(&"g1f3"));
    assert_sorted(&moves);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn moves_of_a_checkmate_are_none() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let run = caissa(&["moves", "--fen", mate]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
}
