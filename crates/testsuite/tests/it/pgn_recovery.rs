//! Recovery: a good game, broken games of every kind, and a good game after them. Every problem
//! is reported at the right line and column, and no good game is lost.

use caissa_notation::pgn::{GameTreeBuilder, Reader, Recorder, Replayer};

const FILE: &str = r#"[Event "good 1"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "illegal move"]

1. e4 e5 2. Ke3 Nc6 *

[Event "ambiguous move"]
[FEN "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"]

1. Nd2 *

[Event "bad FEN"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "unterminated comment"]

1. d4 { this comment
never ends 1... d5

[Event "unterminated variation"]

1. d4 d5 (1... Nf6 2. c4

[Event "illegal move, then a syntax error"]

1. d4 d5 (1... Nf6 2. c4
2. c4 *

[Event "garbage"]

1. c4 ~~~ e5 *

[Event "bad tag
[Site "x"]

1. c4 *

[Event "good 2"]

1. Nf3 d5 (1... Nf6 2. g3) 2. g3 { [%clk 0:01:00] } 1/2-1/2
"#;

/// What the replayer says of each game: `ok N` (moves) or `L:C: message`.
fn replayed() -> Vec<String> {
    let mut reader = Reader::new(FILE.as_bytes());
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut Replayer::new()) {
        out.push(match game {
            Ok(stats) => format!("ok {}", stats.moves),
            Err(error) => error.to_string(),
        });
    }
    out
}

#[test]
fn pgn_recovery_reports_every_problem_and_keeps_every_good_game() {
    assert_eq!(
        replayed(),
        [
            "ok 7",
            "8:13: illegal move Ke3: no legal move matches",
            "13:4: ambiguous move Nd2: it could be b1d2, f1d2",
            "16:1: in the FEN tag: illegal position: white has no king; black has no king",
            "22:7: unterminated comment",
            "27:10: unterminated variation",
            // The replayer stops at the first problem in reading order.
            "32:4: illegal move c4: no legal move matches",
            "36:7: unexpected character '~'",
            "38:8: malformed tag pair: unterminated tag value",
            "ok 5",
        ]
    );
}

#[test]
fn pgn_recovery_is_the_same_for_every_visitor() {
    // The recorder (for parallel replay) finds the same games and, once replayed, the same
    // problems: for a malformed game, an illegal move before the syntax error comes first.
    let mut reader = Reader::new(FILE.as_bytes());
    let mut recorder = Recorder::new();
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut recorder) {
        out.push(match game {
            Ok(game) => match game.replay() {
                Ok(stats) => format!("ok {}", stats.moves),
                Err(error) => error.to_string(),
            },
            Err(syntax) => match recorder.take_malformed().map(|g| g.replay()) {
                Some(Err(error)) => error.to_string(),
                _ => syntax.to_string(),
            },
        });
    }
    assert_eq!(out, replayed());

    // The tree builder sees the same games (it does not replay moves).
    let mut reader = Reader::new(FILE.as_bytes());
    let mut events = Vec::new();
    while let Some(game) = reader.read_game(&mut GameTreeBuilder) {
        events.push(match game {
            Ok(game) => game.tags.get("Event").unwrap_or_default().to_owned(),
            Err(error) => format!("{}:{}", error.line(), error.column()),
        });
    }
    assert_eq!(
        events,
        [
            "good 1",
            "illegal move",
            "ambiguous move",
            "bad FEN",
            "22:7",
            "27:10",
            "32:7",
            "36:7",
            "38:8",
            "good 2"
        ]
    );
}
