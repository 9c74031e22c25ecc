//! UCI move text, the text form of a [`Move`]: `e2e4`, `e7e8q`, `0000`.
//!
//! Castling has two conventions, both read and written here:
//!
//! - **standard**: the king moves two squares (`e1g1`), as UCI engines expect in standard chess;
//! - **king takes rook** (`e1h1`), as Chess960 requires (`UCI_Chess960`).
//!
//! [`Position`]s in [`CastlingMode::Chess960`] write king-takes-rook; standard positions write
//! the two-square form. When reading, both forms are accepted in either mode where they are
//! unambiguous (in Chess960, a king's two-square step is castling only if no ordinary king move
//! has that destination).
//!
//! The null move `0000` is written [`UciMove::Null`]; it is never a legal move, but engines and
//! analysis files use it to pass.
//!
//! ```
//! use caissa_movegen::uci::UciMove;
//! use caissa_movegen::{CastlingMode, Move, Position, Square};
//!
//! let pos = Position::standard();
//! let m = "g1f3".parse::<UciMove>()?.to_move(&pos)?;
//! assert_eq!(m, Move::normal(Square::G1, Square::F3));
//! assert_eq!(UciMove::from_move(&pos, m).to_string(), "g1f3");
//!
//! // Castling, in the position's convention or the other one.
//! let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
//! let castle = "e1g1".parse::<UciMove>()?.to_move(&pos)?;
//! assert!(castle.is_castle());
//! assert_eq!("e1h1".parse::<UciMove>()?.to_move(&pos)?, castle);
//! assert_eq!(UciMove::from_move_in_mode(castle, CastlingMode::Chess960).to_string(), "e1h1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

use caissa_board::{Role, Square};

use crate::{CastlingMode, Move, Position};

/// A move as UCI writes it, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another, with an optional promotion role.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// The promotion role, for pawn moves to the last rank.
        promotion: Option<Role>,
    },
    /// `0000`: the null move.
    #[doc(alias = "null_move")]
    Null,
}

/// What was wrong in a UCI move's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseUciErrorKind {
    /// A square name such as `e2` was expected here (or the text ended).
    ExpectedSquare,
    /// Only a promotion letter (`q`, `r`, `b` or `n`) may follow the two squares.
    ExpectedPromotion,
    /// Text after the move.
    TrailingText,
}

impl fmt::Display for ParseUciErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseUciErrorKind::ExpectedSquare => "expected a square such as e2",
            ParseUciErrorKind::ExpectedPromotion => "expected a promotion letter q, r, b or n",
            ParseUciErrorKind::TrailingText => "unexpected text after the move",
        })
    }
}

/// The text is not UCI move syntax: what was wrong, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid UCI move: {kind} at byte {byte}")]
#[non_exhaustive]
pub struct ParseUciError {
    /// Byte offset of the problem.
    pub byte: usize,
    /// What was wrong.
    pub kind: ParseUciErrorKind,
}

impl ParseUciError {
    /// The error `kind` at `byte`.
    #[must_use]
    pub const fn new(byte: usize, kind: ParseUciErrorKind) -> ParseUciError {
        ParseUciError { byte, kind }
    }
}

/// A UCI move that does not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum UciError {
    /// No legal move goes from the origin to the destination (with that promotion).
    #[error("illegal UCI move {0}")]
    Illegal(UciMove),
    /// `0000` was given where a real move is needed.
    #[error("the null move 0000 is not a legal move")]
    Null,
}

impl UciMove {
    /// Appends the move's text (what [`Display`](fmt::Display) writes) to `out`, without the
    /// formatting machinery: writers of whole games call it once a move.
    ///
    /// ```
    /// use caissa_movegen::uci::UciMove;
    ///
    /// let mut line = String::new();
    /// for text in ["e2e4", "e7e8q", "0000"] {
    ///     text.parse::<UciMove>()?.append_to(&mut line);
    /// }
    /// assert_eq!(line, "e2e4e7e8q0000");
    /// # Ok::<(), caissa_movegen::uci::ParseUciError>(())
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn append_to(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write(out);
    }

    fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match *self {
            UciMove::Null => out.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                out.write_str(from.name())?;
                out.write_str(to.name())?;
                match promotion {
                    Some(role) => out.write_char(role.char()),
                    None => Ok(()),
                }
            }
        }
    }

    /// Parses UCI syntax: two squares and an optional promotion letter (`q`, `r`, `b`, `n`; an
    /// uppercase letter is accepted too), or `0000`.
    ///
    /// # Errors
    ///
    /// [`ParseUciError`] with the byte where the text stops being UCI.
    pub fn from_ascii(text: &[u8]) -> Result<UciMove, ParseUciError> {
        if text == b"0000" {
            return Ok(UciMove::Null);
        }
        let square = |at: usize| {
            text.get(at..at + 2)
                .and_then(|name| Square::from_ascii(name).ok())
                .ok_or(ParseUciError::new(at, ParseUciErrorKind::ExpectedSquare))
        };
        let from = square(0)?;
        let to = square(2)?;
        let promotion = match text.get(4) {
            None => None,
            Some(&c) => match Role::from_char(char::from(c)) {
                Some(role) if Role::PROMOTIONS.contains(&role) => Some(role),
                _ => {
                    return Err(ParseUciError::new(4, ParseUciErrorKind::ExpectedPromotion));
                }
            },
        };
        if text.len() > 5 {
            return Err(ParseUciError::new(5, ParseUciErrorKind::TrailingText));
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }

    /// The UCI form of `m`, a move of `pos`, in the castling convention of `pos`'s mode.
    #[must_use]
    pub fn from_move(pos: &Position, m: Move) -> UciMove {
        UciMove::from_move_in_mode(m, pos.castling_mode())
    }

    /// The UCI form of `m` with castling written as `mode` says: standard chess writes the
    /// king's two-square step, Chess960 the king taking its rook.
    #[must_use]
    pub fn from_move_in_mode(m: Move, mode: CastlingMode) -> UciMove {
        let to = match mode {
            CastlingMode::Standard => m.king_to(),
            CastlingMode::Chess960 => m.to(),
        };
        UciMove::Normal {
            from: m.from(),
            to,
            promotion: m.promotion_role(),
        }
    }

    /// The legal move of `pos` this UCI move stands for.
    ///
    /// # Errors
    ///
    /// [`UciError::Illegal`] if no legal move matches, [`UciError::Null`] for `0000`.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = *self
        else {
            return Err(UciError::Null);
        };
        let mut exact = None;
        let mut castle_two_squares = None;
        pos.for_each_legal_move_from(from.into(), |m| {
            if m.promotion_role() != promotion {
                return;
            }
            if m.to() == to && (!m.is_castle() || pos.castling_mode() == CastlingMode::Chess960) {
                exact = Some(m);
            } else if m.is_castle() && m.king_to() == to {
                castle_two_squares = Some(m);
            } else if m.is_castle() && m.to() == to {
                // King takes rook written in a standard game: accept it.
                castle_two_squares = castle_two_squares.or(Some(m));
            }
        });
        exact.or(castle_two_squares).ok_or(UciError::Illegal(*self))
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl FromStr for UciMove {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str, mode: CastlingMode) -> Position {
        Position::from_setup(fen.parse().unwrap(), mode).unwrap()
    }

    #[test]
    fn parses_and_writes() {
        for text in ["e2e4", "e7e8q", "0000", "a1h8"] {
            assert_eq!(text.parse::<UciMove>().unwrap().to_string(), text);
        }
        assert_eq!("e7e8Q".parse::<UciMove>().unwrap().to_string(), "e7e8q");
        let error = |text: &str| {
            let e = text.parse::<UciMove>().unwrap_err();
            (e.byte, e.kind)
        };
        assert_eq!(error("e2"), (2, ParseUciErrorKind::ExpectedSquare));
        assert_eq!(error("e2e4k"), (4, ParseUciErrorKind::ExpectedPromotion));
        assert_eq!(error("e2e4qq"), (5, ParseUciErrorKind::TrailingText));
        assert_eq!(error("z2e4"), (0, ParseUciErrorKind::ExpectedSquare));
        assert_eq!(error(""), (0, ParseUciErrorKind::ExpectedSquare));
        assert_eq!(
            "e2e4k".parse::<UciMove>().unwrap_err().to_string(),
            "invalid UCI move: expected a promotion letter q, r, b or n at byte 4"
        );
    }

    #[test]
    fn castling_in_both_conventions() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let standard = position(fen, CastlingMode::Standard);
        let two_squares: UciMove = "e1g1".parse().unwrap();
        let takes_rook: UciMove = "e1h1".parse().unwrap();
        let m = two_squares.to_move(&standard).unwrap();
        assert!(m.is_castle());
        assert_eq!(takes_rook.to_move(&standard), Ok(m));
        assert_eq!(UciMove::from_move(&standard, m).to_string(), "e1g1");

        let chess960 = position(fen, CastlingMode::Chess960);
        assert_eq!(UciMove::from_move(&chess960, m).to_string(), "e1h1");
        assert_eq!(takes_rook.to_move(&chess960), Ok(m));
        assert_eq!(two_squares.to_move(&chess960), Ok(m));
    }

    #[test]
    fn chess960_king_step_is_not_castling_when_a_plain_move_exists() {
        // King f1, rook h1: f1h1 castles (the king lands on g1), f1g1 is an ordinary step.
        let pos = position("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960);
        let step = "f1g1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert!(!step.is_castle());
        let castle = "f1h1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert!(castle.is_castle());
    }

    #[test]
    fn illegal_and_null_moves_are_errors() {
        let pos = Position::standard();
        let m: UciMove = "e2e5".parse().unwrap();
        assert_eq!(m.to_move(&pos), Err(UciError::Illegal(m)));
        assert_eq!(UciMove::Null.to_move(&pos), Err(UciError::Null));
        let promo: UciMove = "e2e4q".parse().unwrap();
        assert!(promo.to_move(&pos).is_err());
    }
}
