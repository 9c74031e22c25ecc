//! The errors of SAN: [`ParseSanError`] when a text is not SAN, [`SanError`] when a SAN does not
//! fit the position, and [`StrictSanError`] when the strict reader refuses a text.

use core::fmt;

use super::{Candidates, Leniency, San, SanPlus};

/// What is wrong with a text that is not SAN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSanErrorKind {
    /// The text is empty.
    Empty,
    /// The text does not start like a move: a piece letter, a file, castling or a null move.
    ExpectedMove,
    /// A destination square was expected here.
    ExpectedSquare,
    /// Castling that is not `O-O` or `O-O-O` (or the same with zeros).
    BadCastling,
    /// A pawn capture without the pawn's file (`xd5`).
    PawnCaptureWithoutFile,
    /// A pawn move naming the pawn's rank but not its file (`P4e4`): a pawn's origin is named
    /// by its file, or by its square (`e3e4`). Written without the `P`, such a move would not
    /// read as SAN.
    PawnRankWithoutFile,
    /// A promotion piece (`Q`, `R`, `B` or `N`) was expected here.
    ExpectedPromotion,
    /// A pawn move to the last rank without a promotion piece.
    MissingPromotion,
    /// A promotion on a move that cannot promote (a piece, or a pawn not reaching the last rank).
    UnexpectedPromotion,
    /// Text after the move, its suffix and its annotation glyph.
    TrailingText,
}

impl fmt::Display for ParseSanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseSanErrorKind::Empty => "empty move",
            ParseSanErrorKind::ExpectedMove => {
                "expected a piece letter (K, Q, R, B, N), a file, castling or a null move"
            }
            ParseSanErrorKind::ExpectedSquare => "expected a square such as e4",
            ParseSanErrorKind::BadCastling => "castling is written O-O or O-O-O",
            ParseSanErrorKind::PawnCaptureWithoutFile => {
                "a pawn capture names the pawn's file, as in exd5"
            }
            ParseSanErrorKind::PawnRankWithoutFile => {
                "a pawn's origin is named by its file or its square, as in e3e4, not by its rank"
            }
            ParseSanErrorKind::ExpectedPromotion => "expected a promotion piece Q, R, B or N",
            ParseSanErrorKind::MissingPromotion => {
                "a pawn reaching the last rank promotes: add =Q, =R, =B or =N"
            }
            ParseSanErrorKind::UnexpectedPromotion => "only a pawn reaching the last rank promotes",
            ParseSanErrorKind::TrailingText => "unexpected text after the move",
        })
    }
}

/// The text is not SAN: what is wrong, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid SAN: {kind} at byte {byte}")]
#[non_exhaustive]
pub struct ParseSanError {
    /// Byte offset of the problem in the text.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseSanErrorKind,
}

/// A SAN that does not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// No legal move matches.
    #[error("illegal move {san}: no legal move matches")]
    Illegal {
        /// The move as read.
        san: San,
    },
    /// Several legal moves match.
    #[error("ambiguous move {san}: it could be {candidates}")]
    Ambiguous {
        /// The move as read.
        san: San,
        /// The legal moves it could stand for.
        candidates: Candidates,
    },
    /// The null move (`--` or `Z0`) is not a legal move.
    #[error("a null move is not a legal move")]
    Null,
}

/// Why [`San::parse_strict`] refused a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum StrictSanError {
    /// The text is not SAN.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// The text is SAN but no single legal move matches.
    #[error(transparent)]
    Meaning(#[from] SanError),
    /// The text names a legal move, but not in the one spelling strict SAN allows.
    #[error("not strict SAN at byte {byte}: {reason}; the move is written {expected}")]
    NotStrict {
        /// Byte offset of the first thing written differently.
        byte: usize,
        /// What is written differently.
        reason: Leniency,
        /// The strict spelling of the move.
        expected: SanPlus,
    },
}
