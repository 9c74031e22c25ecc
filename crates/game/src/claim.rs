//! Draw claims (Articles 9.2 and 9.3): what a claim rests on, and why a claim cannot be made.

use core::fmt;

use caissa_movegen::{IllegalMoveError, Move};
use smallvec::SmallVec;

use crate::outcome::{Article, GameResult, Outcome, Reason};

/// A correct draw claim: the player having the move may ask for a draw on this ground.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// What the claim rests on.
    pub ground: Ground,
    /// The claimant's written move (9.2.1.1, 9.3.1), or `None` for a claim about the position
    /// on the board (9.2.1.2, 9.3.2).
    pub intended: Option<Move>,
    /// The article the claim invokes.
    pub article: Article,
}

impl Claim {
    /// [`Reason::ThreefoldRepetition`] or [`Reason::FiftyMoves`].
    #[must_use]
    pub fn reason(&self) -> Reason {
        match self.ground {
            Ground::Repetition { .. } => Reason::ThreefoldRepetition,
            Ground::FiftyMoves { .. } => Reason::FiftyMoves,
        }
    }

    /// The draw the arbiter declares when upholding the claim.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason: self.reason(),
            article: self.article,
        }
    }
}

/// The facts a claim rests on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ground {
    /// The same position (9.2.2) stood at these plies (0 = the start), in order; the last is the
    /// current ply, or for a written move the ply that move makes. At least three.
    Repetition {
        /// The plies, in increasing order.
        plies: SmallVec<[usize; 4]>,
    },
    /// This many half-moves without a pawn move or a capture, counting the written move if any.
    /// At least 100.
    FiftyMoves {
        /// The half-move count.
        halfmoves: u32,
    },
}

/// The draw claims open to the player having the move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Claims {
    /// A threefold repetition claim (9.2), if correct.
    pub threefold: Option<Claim>,
    /// A fifty-move claim (9.3), if correct.
    pub fifty_moves: Option<Claim>,
}

impl Claims {
    /// Whether no claim is possible.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.threefold.is_none() && self.fifty_moves.is_none()
    }

    /// The correct claims, threefold repetition first.
    pub fn iter(&self) -> impl Iterator<Item = &Claim> {
        self.threefold.iter().chain(&self.fifty_moves)
    }

    /// A stable word for scripts: `none`, `threefold`, `fifty` or `both`.
    #[must_use]
    pub fn summary(&self) -> &'static str {
        match (&self.threefold, &self.fifty_moves) {
            (None, None) => "none",
            (Some(_), None) => "threefold",
            (None, Some(_)) => "fifty",
            (Some(_), Some(_)) => "both",
        }
    }
}

impl fmt::Display for Claims {
    /// [`Claims::summary`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.summary())
    }
}

/// Why no claim can be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClaimError {
    /// The game is already over: nobody has the move.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The written move is not legal in the current position.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMoveError),
}
