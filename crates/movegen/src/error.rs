//! Why a [`Setup`](caissa_board::Setup) is not a legal position, and why a move cannot be played.

use core::fmt;

use caissa_board::{CastlingSide, Color, File, Square};

use crate::Move;

/// One thing wrong with a setup. A [`PositionError`] lists every one found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SetupProblem {
    /// The side has no king.
    MissingKing(Color),
    /// The side has more than one king (how many is given).
    TooManyKings(Color, u8),
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// The side that is not to move is in check: its opponent could take the king.
    OppositeCheck,
    /// The side to move is attacked in a way no legal last move could have produced (more than
    /// two checkers, two checkers on one line, two pawn or knight checkers, or a check that
    /// contradicts the en passant square), or, with an en passant square, was in check before
    /// the double push it names, at the other side's turn (whether or not it is in check now).
    ImpossibleCheck,
    /// The en passant square is not one a double pawn push just passed over (wrong rank, an
    /// occupied square, or no enemy pawn in front of it).
    InvalidEnPassant(Square),
    /// A castling right whose king or rook is not where the right needs it.
    InvalidCastlingRight {
        /// Whose right.
        color: Color,
        /// Which way it castles.
        side: CastlingSide,
        /// The rook file the right names.
        rook_file: File,
    },
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SetupProblem::MissingKing(color) => write!(f, "{color} has no king"),
            SetupProblem::TooManyKings(color, n) => write!(f, "{color} has {n} kings"),
            SetupProblem::PawnOnBackRank(sq) => write!(f, "pawn on the back rank at {sq}"),
            SetupProblem::OppositeCheck => f.write_str("the side not to move is in check"),
            SetupProblem::ImpossibleCheck => f.write_str(
                "the checks on the side to move fit no legal last move (with an en passant \
                 square, no legal double push over it)",
            ),
            SetupProblem::InvalidEnPassant(sq) => {
                write!(
                    f,
                    "no double pawn push can have passed over the en passant square {sq}"
                )
            }
            SetupProblem::InvalidCastlingRight {
                color,
                side,
                rook_file,
            } => write!(
                f,
                "{color} may not castle {} with a rook on the {rook_file} file: king or rook is not in place",
                side.san()
            ),
        }
    }
}

/// The most problems one setup can have: two for the kings or the two checks (judged only
/// when each side has one king), sixteen pawns on the back ranks, four castling rights and
/// the en passant square.
const MAX_PROBLEMS: usize = 2 + 16 + 4 + 1;

/// A setup that is not a legal position, with every problem found. It holds them in place,
/// without allocating.
#[derive(Clone, Copy, thiserror::Error)]
#[error("illegal position: {}", ProblemList(self.problems()))]
pub struct PositionError {
    problems: [SetupProblem; MAX_PROBLEMS],
    len: u8,
}

/// Problems separated by `; `.
struct ProblemList<'a>(&'a [SetupProblem]);

impl fmt::Display for ProblemList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl PositionError {
    /// No problem yet: the list that validation fills.
    pub(crate) const fn empty() -> PositionError {
        PositionError {
            problems: [SetupProblem::OppositeCheck; MAX_PROBLEMS],
            len: 0,
        }
    }

    /// Adds `problem`. Validation finds at most [`MAX_PROBLEMS`] (a debug build checks it); a
    /// release build would keep the first ones.
    pub(crate) fn push(&mut self, problem: SetupProblem) {
        debug_assert!(
            usize::from(self.len) < MAX_PROBLEMS,
            "more problems than a setup has"
        );
        if let Some(slot) = self.problems.get_mut(usize::from(self.len)) {
            *slot = problem;
            self.len += 1;
        }
    }

    /// Every problem found, in the order checked (kings, pawns, castling, en passant, checks).
    #[must_use]
    pub fn problems(&self) -> &[SetupProblem] {
        &self.problems[..usize::from(self.len)]
    }
}

impl fmt::Debug for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionError")
            .field("problems", &self.problems())
            .finish()
    }
}

impl PartialEq for PositionError {
    fn eq(&self, other: &PositionError) -> bool {
        self.problems() == other.problems()
    }
}

impl Eq for PositionError {}

impl core::hash::Hash for PositionError {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.problems().hash(state);
    }
}

/// The move is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?}")]
pub struct IllegalMoveError {
    /// The move that was refused.
    pub mv: Move,
}
