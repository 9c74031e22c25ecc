//! `caissa perft`: counts, divide, and perft suites.

use crate::{KIWIPETE, START, TempFile, assert_sorted, caissa};

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
            "positions 2 checked 4 failed 1 unreadable 0",
        ]
    );
    assert!(
        run.stderr
            .contains("error: 1 of 4 checks failed, 0 lines unreadable"),
        "{}",
        run.stderr
    );

    // --depth 1 leaves the wrong count unchecked.
    let run = caissa(&["perft", "--suite", suite.path(), "--depth", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), ["positions 2 checked 2 failed 0 unreadable 0"]);
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
    assert_eq!(lines[3], "positions 2 checked 2 failed 1 unreadable 2");
    assert!(
        run.stderr
            .contains("error: 1 of 2 checks failed, 2 lines unreadable"),
        "{}",
        run.stderr
    );
}

#[test]
fn suite_of_chess960_starts() {
    let suite = TempFile::new(
        "chess960.epd",
        "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - ;D1 21 ;D2 441 ;D3 10238\n",
    );
    let run = caissa(&["perft", "--suite", suite.path(), "--chess960"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), ["positions 1 checked 3 failed 0 unreadable 0"]);
}

#[test]
fn suite_file_missing() {
    let run = caissa(&["perft", "--suite", "/nonexistent/caissa-suite.epd"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn depths_past_the_limit_are_refused() {
    for depth in ["14", "100000", "4294967296"] {
        let run = caissa(&["perft", "--depth", depth]);
        assert_eq!(run.code, 2, "{depth}: {}", run.stderr);
        assert!(run.stderr.contains("--depth"), "{depth}: {}", run.stderr);
        assert_eq!(run.stdout, "");
    }
    let suite = TempFile::new("deep.epd", &format!("{START} ;D1 20 ;D100000 1\n"));
    let run = caissa(&["perft", "--suite", suite.path()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            "ERROR 1 depth 100000 is deeper than 13, the deepest perft counted",
            "positions 0 checked 0 failed 0 unreadable 1",
        ]
    );
}

/// The suite reader's hostile inputs: a bad byte, a `;` in quotes, counts that would check
/// nothing, a byte order mark; each problem on its own line, and the summaries agree.
#[test]
fn suite_lines_are_read_exactly_or_reported() {
    let mut text = format!("\u{feff}{START} ;id \"x;D1 5\" ;D1 20\r\n").into_bytes();
    text.extend(b"8/8/8 \xff ;D1 1\n");
    text.extend(format!("{START} ;d1 20\n{START} ;id \"no counts\"\n{START}\n").as_bytes());
    let suite = TempFile::new_bytes("hostile.epd", &text);
    let run = caissa(&["perft", "--suite", suite.path()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            "ERROR 2 not UTF-8 at byte 6",
            "ERROR 3 `d1 20`: a count is written with a capital D (`D<depth> <count>`)",
            "ERROR 4 no `D<depth> <count>` operation",
            "ERROR 5 no `D<depth> <count>` operation",
            "positions 1 checked 1 failed 0 unreadable 4",
        ]
    );
    assert!(
        run.stderr
            .contains("error: 0 of 1 checks failed, 4 lines unreadable"),
        "{}",
        run.stderr
    );
}
