//! The move list of `caissa status --moves`: moves in SAN (`Nf3`, `O-O`, `e8=Q`) or UCI
//! (`g1f3`, `e1g1`) separated by blanks, played one after the other in a [`Game`]. A move
//! that is neither, that is not legal where it comes, or that comes after the game has ended
//! is an error naming the move's number and text.

use caissa::game::{Game, Outcome};
use caissa::movegen::{Move, Position};
use caissa::notation::san::{ParseSanError, SanError, SanPlus};
use caissa::notation::uci::{UciError, UciMove};

/// What is wrong with a move of a move list.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MoveProblem {
    /// Not SAN (nor UCI).
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// SAN that fits no legal move, or several.
    #[error(transparent)]
    San(#[from] SanError),
    /// UCI that is not a legal move.
    #[error(transparent)]
    Uci(#[from] UciError),
    /// The game had already ended.
    #[error("the game is already over: {0}")]
    GameOver(Outcome),
}

/// A move of a move list that cannot be played, with its place.
#[derive(Debug, thiserror::Error)]
#[error("move {number} ({text}): {problem}")]
pub struct MoveListError {
    /// The move's number in the list, from 1.
    pub number: usize,
    /// The move as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: MoveProblem,
}

/// Plays the moves of `moves` in `game`, one after the other.
///
/// # Errors
///
/// The first move that cannot be played; the moves before it stay played.
pub fn play_moves(game: &mut Game, moves: &str) -> Result<(), MoveListError> {
    for (i, text) in moves.split_whitespace().enumerate() {
        let error = |problem: MoveProblem| MoveListError {
            number: i + 1,
            text: text.to_owned(),
            problem,
        };
        if let Some(outcome) = game.outcome() {
            return Err(error(MoveProblem::GameOver(outcome)));
        }
        let m = parse_move(game.position(), text).map_err(error)?;
        game.play_unchecked(m);
    }
    Ok(())
}

/// A legal move of `pos` given in UCI (when the text has UCI's shape) or SAN.
///
/// # Errors
///
/// [`MoveProblem::Uci`] for UCI that is not legal, [`MoveProblem::Syntax`] for text that is
/// not SAN either, [`MoveProblem::San`] for SAN that names no legal move or several.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveProblem> {
    if let Ok(uci) = UciMove::from_ascii(text.as_bytes()) {
        return Ok(uci.to_move(pos)?);
    }
    Ok(SanPlus::from_ascii(text.as_bytes())?.san.to_move(pos)?)
}
