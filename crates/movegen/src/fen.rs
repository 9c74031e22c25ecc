//! [`Fen`]: FEN text and legal positions, both ways.
//!
//! FEN is the text form of a [`Setup`], read and written by `caissa-board` (see
//! [`caissa_board::fen`] for the syntax and what is accepted). This module joins it to
//! [`Position`]: [`Fen::into_position`] validates the text's setup, [`Fen::from_position`] writes a
//! position with the en passant square that [`EnPassantMode`] chooses, and
//! [`Position`]'s `Display` writes its FEN directly.
//!
//! ```
//! use caissa_movegen::fen::{EnPassantMode, Fen};
//! use caissa_movegen::{CastlingMode, Position};
//!
//! let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
//! let pos = fen.into_position(CastlingMode::Standard)?;
//! assert_eq!(pos.legal_moves().len(), 26);
//! assert_eq!(Fen::from_position(&pos, EnPassantMode::Legal), fen);
//! assert_eq!(pos.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

use caissa_board::{ParseFenError, Setup};

use crate::{CastlingMode, Position, PositionError};

/// A FEN's six fields, read into a [`Setup`]. Compare, print, or validate it.
///
/// `Setup` itself reads and writes FEN (`FromStr`, `Display`); `Fen` adds the link to
/// [`Position`] and the choice of castling notation when writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Fen(pub Setup);

/// Which en passant square [`Fen::from_position`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum EnPassantMode {
    /// Only when a legal en passant capture exists (the default): the rule of FIDE's "same
    /// position" and of the FEN standard's current practice.
    #[default]
    Legal,
    /// When a pawn of the side to move stands beside the pawn that just moved two squares,
    /// legal or not.
    PseudoLegal,
    /// After every double push (the original FEN definition).
    Always,
}

impl Fen {
    /// Reads a FEN from bytes, as [`Setup::from_ascii`] does.
    ///
    /// # Errors
    ///
    /// [`ParseFenError`] naming the field, the byte offset and what was wrong.
    #[doc(alias = "from_fen")]
    pub fn from_ascii(bytes: &[u8]) -> Result<Fen, ParseFenError> {
        Setup::from_ascii(bytes).map(Fen)
    }

    /// The FEN of `pos`, writing the en passant square as `mode` says.
    #[must_use]
    pub fn from_position(pos: &Position, mode: EnPassantMode) -> Fen {
        let mut setup = pos.to_setup();
        setup.ep_square = match mode {
            EnPassantMode::Legal => pos.legal_ep_square(),
            EnPassantMode::PseudoLegal => pos.pseudo_legal_ep_square(),
            EnPassantMode::Always => pos.ep_square(),
        };
        Fen(setup)
    }

    /// The setup this FEN describes.
    #[must_use]
    pub fn into_setup(self) -> Setup {
        self.0
    }

    /// Validates the setup into a legal position.
    ///
    /// # Errors
    ///
    /// [`PositionError`] listing every problem, as [`Position::from_setup`] does.
    pub fn into_position(self, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup(self.0, mode)
    }

    /// Validates the setup into a legal position in standard castling or, where its castling
    /// rights fit only Chess960 (Shredder-FEN, or X-FEN letters of inner rooks), in Chess960's:
    /// for a FEN that does not say which game it is from.
    ///
    /// # Errors
    ///
    /// The standard reading's [`PositionError`] when neither reading is legal.
    pub fn into_position_either(self) -> Result<Position, PositionError> {
        Position::from_setup(self.0, CastlingMode::Standard).or_else(|standard| {
            Position::from_setup(self.0, CastlingMode::Chess960).map_err(|_| standard)
        })
    }

    /// Validates the setup into a legal position after dropping impossible castling rights and
    /// en passant squares, and says what was dropped (see [`Position::from_setup_lenient`]).
    ///
    /// # Errors
    ///
    /// [`PositionError`] for the problems that remain.
    pub fn into_position_lenient(
        self,
        mode: CastlingMode,
    ) -> Result<(Position, crate::Dropped), PositionError> {
        Position::from_setup_lenient(self.0, mode)
    }

    /// A `Display` that writes Shredder-FEN castling (rook files, `HAha`) instead of X-FEN.
    #[must_use]
    pub fn shredder(&self) -> impl fmt::Display + '_ {
        self.0.shredder_fen()
    }

    /// Appends the FEN to `out` (X-FEN castling).
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn append_to(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.0.write_to(out);
    }
}

/// The FEN with X-FEN castling (plain `KQkq` in standard positions).
impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::from_ascii(s.as_bytes())
    }
}

impl From<Setup> for Fen {
    fn from(setup: Setup) -> Fen {
        Fen(setup)
    }
}

impl From<Fen> for Setup {
    fn from(fen: Fen) -> Setup {
        fen.0
    }
}

/// The FEN, with the en passant square only where a legal capture exists
/// ([`EnPassantMode::Legal`]) and X-FEN castling.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Fen::from_position(self, EnPassantMode::Legal).fmt(f)
    }
}

/// A FEN that could not be read into a [`Position`]: bad text, or a setup that is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// The text is not a FEN.
    #[error(transparent)]
    Fen(#[from] ParseFenError),
    /// The FEN describes no legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Reads a FEN into a position: in [`CastlingMode::Standard`] when its castling rights are
/// standard ones, otherwise in [`CastlingMode::Chess960`] (so a Chess960 position whose rights
/// all look standard reads as a standard position; use [`Position::from_setup`] to choose).
impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let setup = Setup::from_ascii(s.as_bytes())?;
        Position::from_setup(setup, CastlingMode::Standard).or_else(|error| {
            let only_castling = error
                .problems()
                .iter()
                .all(|p| matches!(p, crate::SetupProblem::InvalidCastlingRight { .. }));
            if only_castling {
                Ok(Position::from_setup(setup, CastlingMode::Chess960)?)
            } else {
                Err(error.into())
            }
        })
    }
}
