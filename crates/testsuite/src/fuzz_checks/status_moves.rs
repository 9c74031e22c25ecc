//! Fuzz target `status_moves`: a move list as `caissa status --moves` reads it
//! ([`caissa_cli::move_list`]), played from the start position and, after a newline, from a
//! setup of the [`position`](super::position) byte format.

use caissa_cli::move_list::{MoveProblem, play_moves};
use caissa_game::Game;
use caissa_movegen::Position;
use caissa_notation::san::SanPlus;
use caissa_notation::uci::UciMove;

use super::position::setup_from_bytes;

/// How many bytes of move list are played at most, so that each input stays quick.
const MAX_MOVES_BYTES: usize = 512;

/// Plays `moves` from `start` and checks what came of it: a list that plays has as many plies
/// as words; an error names the word it stopped at (its number and text) with the moves before
/// it played, and "game over" only once the game has ended; what was played, written as UCI
/// and as SAN, plays again to the same position.
fn check_from(start: Position, moves: &str) {
    let words: Vec<&str> = moves.split_whitespace().collect();
    let mut game = Game::new(start);
    match play_moves(&mut game, moves) {
        Ok(()) => assert_eq!(game.ply(), words.len(), "{moves:?}"),
        Err(error) => {
            assert!(
                (1..=words.len()).contains(&error.number),
                "{moves:?}: {error}"
            );
            assert_eq!(error.text, words[error.number - 1], "{moves:?}: {error}");
            assert_eq!(game.ply(), error.number - 1, "{moves:?}: {error}");
            if let MoveProblem::GameOver(outcome) = error.problem {
                assert_eq!(game.outcome(), Some(outcome), "{moves:?}: {error}");
            }
        }
    }
    let mut uci = Vec::new();
    let mut san = Vec::new();
    for (ply, &m) in game.moves().iter().enumerate() {
        let before = game.position_at(ply).expect("a played ply");
        uci.push(UciMove::from_move(before, m).to_string());
        san.push(SanPlus::from_move(before, m).to_string());
    }
    for written in [uci.join(" "), san.join(" ")] {
        let mut again = Game::new(start);
        play_moves(&mut again, &written)
            .unwrap_or_else(|e| panic!("{moves:?} written {written:?}: {e}"));
        assert_eq!(
            again.position(),
            game.position(),
            "{moves:?} written {written:?}"
        );
    }
}

/// `caissa status --moves`: any text (the input's first line, when it is UTF-8) plays from the
/// start position and from the setup the bytes after the newline give (when legal) without
/// panicking, and what comes of it is what `check_from` expects.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let (line, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let Ok(moves) = core::str::from_utf8(&line[..line.len().min(MAX_MOVES_BYTES)]) else {
        return;
    };
    check_from(Position::default(), moves);
    if let Some(bytes) = rest {
        let (setup, mode) = setup_from_bytes(bytes);
        if let Ok(pos) = Position::from_setup(setup, mode) {
            check_from(pos, moves);
        }
    }
}
