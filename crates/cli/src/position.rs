//! Reading positions and writing moves, as every subcommand does it.

use caissa::Position;
use caissa::movegen::{CastlingMode, Move, PositionError};
use caissa::notation::fen::{Fen, ParseFenError};
use caissa::notation::uci::UciMove;
use clap::Args;

/// The FEN of the standard starting position.
pub(crate) const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The `--chess960` flag: which castling rules positions follow.
#[derive(Clone, Copy, Debug, Args)]
pub(crate) struct VariantArgs {
    /// Read castling as Chess960 (X-FEN or Shredder-FEN) and write castling moves as the king
    /// taking its rook (e1h1).
    #[arg(long)]
    chess960: bool,
}

impl VariantArgs {
    /// The castling mode the flag selects.
    pub(crate) fn mode(self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

/// A FEN that does not give a legal position.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FenError {
    /// The text is not FEN.
    #[error(transparent)]
    Syntax(#[from] ParseFenError),
    /// The FEN is not a legal position.
    #[error(transparent)]
    Illegal(#[from] PositionError),
}

/// Parses `fen` and validates it as a position with `mode`'s castling rules.
///
/// # Errors
///
/// [`FenError::Syntax`] if the text is not FEN (naming the field and byte),
/// [`FenError::Illegal`] if it is not a legal position (naming every problem).
pub(crate) fn read_position(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    let fen: Fen = fen.parse()?;
    Ok(fen.into_position(mode)?)
}

/// `fen` as a position in standard castling, or in Chess960's where only that fits (see
/// [`Fen::into_position_either`]): for a FEN given without `--chess960`.
pub(crate) fn read_position_either(fen: &str) -> Result<Position, FenError> {
    Ok(fen.parse::<Fen>()?.into_position_either()?)
}

/// `m`, a legal move of `pos`, in UCI notation with `pos`'s castling convention.
pub(crate) fn uci(pos: &Position, m: Move) -> String {
    UciMove::from_move(pos, m).to_string()
}
