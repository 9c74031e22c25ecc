//! Runs the real `caissa` binary and checks its stdout contracts, stderr messages and exit
//! statuses.

use std::path::PathBuf;
use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A Chess960 setup (king b1, rooks a1 and e1) where both castlings are legal and the
/// standard spelling of O-O-O, `b1c1`, would be the same text as a plain king move.
const CHESS960: &str = "7k/8/8/8/8/8/8/RK2R3 w EA - 0 1";

/// What a run of `caissa` printed and returned.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

fn caissa(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .expect("the caissa binary runs");
    Run {
        code: output.status.code().expect("caissa exits normally"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Asserts `lines` are in ascending order of their text.
fn assert_sorted(lines: &[&str]) {
    assert!(lines.is_sorted(), "not sorted: {lines:?}");
}

/// A temporary file that is removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("caissa-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("the temp dir is writable");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn perft_start_depth_3() {
    let run = caissa(&["perft", "--depth", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), ["nodes 8902"]);
    assert!(run.stderr.starts_with("time "), "{}", run.stderr);
    assert!(run.stderr.contains("nps"), "{}", run.stderr);
}

#[test]
fn perft_given_fen_and_depth_0() {
    let run = caissa(&["perft", "--fen", KIWIPETE, "--depth", "3"]);
    assert_eq!(run.lines(), ["nodes 97862"]);
    let run = caissa(&["perft", "--fen", KIWIPETE, "--depth", "0", "--divide"]);
    assert_eq!(run.lines(), ["nodes 1"]);
}

#[test]
fn divide_start_depth_2() {
    let run = caissa(&["perft", "--depth", "2", "--divide"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.lines();
    let (last, moves) = lines.split_last().expect("output");
    assert_eq!(*last, "nodes 400");
    assert_eq!(moves.len(), 20);
    assert_eq!(moves[0], "a2a3 20");
    assert_eq!(moves[19], "h2h4 20");
    assert_sorted(moves);
    assert!(moves.iter().all(|line| line.ends_with(" 20")), "{moves:?}");
}

#[test]
fn divide_kiwipete_depth_1() {
    let run = caissa(&["perft", "--fen", KIWIPETE, "--depth", "1", "--divide"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.lines();
    let (last, moves) = lines.split_last().expect("output");
    assert_eq!(*last, "nodes 48");
    assert_eq!(moves.len(), 48);
    assert_sorted(moves);
    assert!(moves.contains(&"e1g1 1"), "{moves:?}");
    assert!(moves.contains(&"e1c1 1"), "{moves:?}");
}

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

#[test]
fn suite_reports_a_wrong_count() {
    let suite = TempFile::new(
        "wrong.epd",
        &format!(
            "# two positions\n{START} ;D1 20 ;D2 400 ;id \"start\"\n\n{KIWIPETE} ;D1 48 ;D2 2040\n"
        ),
    );
    let run = caissa(&["perft", "--suite", suite.path()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            format!("FAIL 4 depth 2 expected 2040 got 2039 {KIWIPETE}").as_str(),
            "positions 2 checked 4 failed 1",
        ]
    );
    assert!(
        run.stderr.contains("1 of 4 checks failed"),
        "{}",
        run.stderr
    );

    // --depth 1 leaves the wrong count unchecked.
    let run = caissa(&["perft", "--suite", suite.path(), "--depth", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), ["positions 2 checked 2 failed 0"]);
}

#[test]
fn suite_reports_unreadable_lines_in_file_order() {
    let suite = TempFile::new(
        "unreadable.epd",
        &format!("{START} ;D3 8902\nnot a fen ;D1 1\n{KIWIPETE} ;D1 48 ;Dx 3\n{KIWIPETE} ;D1 47\n"),
    );
    let run = caissa(&["perft", "--suite", suite.path()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("ERROR 2 invalid FEN:"), "{lines:?}");
    assert!(lines[0].contains("placement"), "{lines:?}");
    assert_eq!(
        lines[1],
        "ERROR 3 expected `D<depth> <count>`, found `Dx 3`"
    );
    assert_eq!(
        lines[2],
        format!("FAIL 4 depth 1 expected 47 got 48 {KIWIPETE}")
    );
    assert_eq!(lines[3], "positions 4 checked 2 failed 3");
}

#[test]
fn suite_of_chess960_starts() {
    let suite = TempFile::new(
        "chess960.epd",
        "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - ;D1 21 ;D2 441 ;D3 10238\n",
    );
    let run = caissa(&["perft", "--suite", suite.path(), "--chess960"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), ["positions 1 checked 3 failed 0"]);
}

#[test]
fn suite_file_missing() {
    let run = caissa(&["perft", "--suite", "/nonexistent/caissa-suite.epd"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn invalid_fen_names_the_field() {
    for (fen, field) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "placement",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "en passant",
        ),
    ] {
        for args in [["perft", "--fen", fen], ["moves", "--fen", fen]] {
            let run = caissa(&args);
            assert_eq!(run.code, 2, "{args:?}");
            assert!(run.stderr.contains(field), "{args:?}: {}", run.stderr);
            assert_eq!(run.stdout, "");
        }
    }
}

#[test]
fn illegal_position_is_bad_input() {
    let run = caissa(&["perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no king"), "{}", run.stderr);
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["frobnicate"][..],
        &[],
        &["perft", "--depth", "three"],
        &["perft", "--suite", "x.epd", "--divide"],
        &["moves"],
    ] {
        let run = caissa(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_input_of_every_subcommand_is_one_error_line_and_status_2() {
    let log = TempFile::new("bad-log.jsonl", "not json\n");
    let cases = [
        (
            vec!["status", "--moves", "e4 zz"],
            "error: move 2 (zz): invalid SAN: expected a piece letter",
        ),
        (
            vec!["status", "--moves", "f3 e5 g4 Qh4# a3"],
            "error: move 5 (a3): the game is already over: 0-1 (checkmate, 5.1.1)",
        ),
        (
            vec!["status", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "error: illegal position: ",
        ),
        (
            vec!["rate", "--rating", "1500", "--games", "x:1"],
            "error: --games: game 1 (x:1): expected opponent:score",
        ),
        (
            vec![
                "rate",
                "--club",
                "--points",
                "1",
                "--opponent",
                "2",
                "--result",
                "won",
            ],
            "error: --result: expected win, draw or loss",
        ),
        (
            vec!["arbitrate", log.path()],
            &format!("error: {}: line 1: malformed event", log.path()),
        ),
        (
            vec!["arbitrate", "/nonexistent/caissa-log.jsonl"],
            "error: cannot read /nonexistent/caissa-log.jsonl: ",
        ),
    ];
    for (args, message) in cases {
        let run = caissa(&args);
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.starts_with(message), "{args:?}: {}", run.stderr);
    }
}
