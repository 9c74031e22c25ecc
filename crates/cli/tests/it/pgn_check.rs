//! `caissa pgn check`: what a strict reading counts as errors, a lenient one reads with a
//! warning at its line and column.

use crate::{LENIENT, TempFile, caissa, lenient_warnings};

#[test]
fn lenient_counts_as_good_what_strict_counts_as_an_error() {
    let file = TempFile::new("check-lenient.pgn", LENIENT);
    let path = file.path();
    let strict = caissa(&["pgn", "check", path]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert_eq!(
        strict.lines(),
        [
            format!("{path}:3:27: invalid SAN \"e\""),
            "games 2 moves 7 errors 1".to_owned(),
        ]
    );
    assert_eq!(strict.stderr, "error: 1 of 2 checks failed\n");
    for threads in ["1", "2"] {
        let lenient = caissa(&["pgn", "check", "--lenient", "--threads", threads, path]);
        assert_eq!(lenient.code, 0, "{}", lenient.stderr);
        assert_eq!(lenient.lines(), ["games 2 moves 8 errors 0"]);
        assert_eq!(
            lenient.stderr.lines().collect::<Vec<_>>(),
            lenient_warnings(path)
        );
    }
}

/// A game with a problem is reported as such, without warnings of what was read past before.
#[test]
fn lenient_gives_no_warnings_for_a_game_with_a_problem() {
    let file = TempFile::new("check-lenient-bad.pgn", "1. d4 e.p. Ke3 1/2\n");
    let path = file.path();
    let run = caissa(&["pgn", "check", "--lenient", path]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            format!("{path}:1:12: illegal move Ke3: no legal move matches"),
            "games 1 moves 1 errors 1".to_owned(),
        ]
    );
    assert_eq!(run.stderr, "error: 1 of 1 checks failed\n");
}
