//! Bad input and bad usage: one error line on stderr and the documented exit status.

use crate::{TempFile, caissa};

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
            "error: --games: game 1 (x:1): expected an opponent rating",
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
            "error: --result: \"won\": expected a score",
        ),
        (
            vec!["arbitrate", log.path()],
            &format!("error: {}: line 1: malformed event", log.path()),
        ),
        (
            vec!["arbitrate", "/nonexistent/caissa-log.jsonl"],
            "error: cannot read /nonexistent/caissa-log.jsonl: ",
        ),
        (
            vec!["pgn", "stats", "/nonexistent/caissa.pgn"],
            "error: cannot read /nonexistent/caissa.pgn: ",
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

/// Thread counts past what a machine can use are refused, not tried, by every command that
/// takes them (they used to panic or spend memory on idle threads).
#[test]
fn pgn_check_refuses_absurd_thread_counts() {
    let file = TempFile::new("threads.pgn", "1. e4 e5 *\n\n[Event \"b\"]\n1. d4 *\n");
    let path = file.0.to_str().expect("a UTF-8 temp path");
    for command in ["check", "select", "split"] {
        for threads in ["0", "257", "30000", "18446744073709551615"] {
            let run = caissa(&["pgn", command, "--threads", threads, path]);
            assert_eq!(run.code, 2, "{command} {threads}");
            assert!(
                run.stderr.contains("--threads"),
                "{command} {threads}: {}",
                run.stderr
            );
            assert_eq!(run.stdout, "");
        }
    }
    let run = caissa(&["pgn", "check", "--threads", "256", path]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "games 2 moves 3 errors 0\n")
    );
}

/// `pgn fmt` writes what it cannot keep as read (bytes that are not UTF-8, NUL bytes) and
/// warns of each at its own place: the tag's line, the comment's `{` or `;`, whether the comment
/// is read on the fast path (on its line) or the general one (over lines).
#[test]
fn pgn_fmt_warns_of_changed_text_at_its_place() {
    let file = TempFile::new_bytes(
        "warnings.pgn",
        b"[Event \"b\xffad\"]\n[Site \"nul\x00\"]\n\n\
          1. e4 {caf\xe9} e5 ; line\x00 comment\n2. Nf3 {fine} 2... Nc6 {a\n\xff} *\n",
    );
    let run = caissa(&["pgn", "fmt", file.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("{ caf\u{fffd} }"), "{}", run.stdout);
    assert!(run.stdout.contains("{ line\0 comment }"), "{}", run.stdout);
    let path = file.path();
    let expected = [
        "1:1: warning: tag value is not UTF-8: written with U+FFFD for the bad bytes",
        "2:1: warning: tag value holds a NUL byte: written as it is",
        "4:7: warning: comment is not UTF-8: written with U+FFFD for the bad bytes",
        "4:17: warning: comment holds a NUL byte: written as it is",
        "5:24: warning: comment is not UTF-8: written with U+FFFD for the bad bytes",
    ]
    .map(|line| format!("{path}:{line}"));
    assert_eq!(run.stderr.lines().collect::<Vec<_>>(), expected);
}
