//! One entry point for a move typed by a person or sent by a program: [`parse_move`] reads
//! SAN (`Nf3`, `exd5`, `O-O`, with check or annotation suffixes) or UCI (`g1f3`, `e7e8q`, castling
//! in either convention) in a position. It owns only the choice between the two readers;
//! [`crate::san`] and [`crate::uci`] do the reading.

use caissa_movegen::{Move, Position};

use crate::san::{ParseSanError, SanError, SanPlus};
use crate::uci::{UciError, UciMove};

/// Why a text is not a legal move in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveErrorKind {
    /// The text is neither SAN nor UCI; the SAN reader's complaint, with its byte.
    #[error("not a move in SAN or UCI ({0})")]
    Syntax(ParseSanError),
    /// The text is SAN, but no single legal move matches it.
    #[error(transparent)]
    San(SanError),
    /// The text is UCI, but not a legal move here.
    #[error(transparent)]
    Uci(UciError),
}

/// A text that [`parse_move`] could not read as a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind}")]
#[non_exhaustive]
pub struct ParseMoveError {
    /// What is wrong.
    pub kind: ParseMoveErrorKind,
}

impl From<ParseMoveErrorKind> for ParseMoveError {
    fn from(kind: ParseMoveErrorKind) -> ParseMoveError {
        ParseMoveError { kind }
    }
}

/// Reads `text` as a move in `pos`, written in SAN or in UCI.
///
/// A text with UCI syntax is tried as UCI first and as SAN if that fails; any other text is read
/// as (lenient) SAN.
///
/// ```
/// use caissa_notation::parse_move::parse_move;
/// use caissa_notation::{Move, Position, Square};
///
/// let pos = Position::standard();
/// let e4 = Move::normal(Square::E2, Square::E4);
/// assert_eq!(parse_move(&pos, "e4")?, e4);
/// assert_eq!(parse_move(&pos, "e2e4")?, e4);
/// assert!(parse_move(&pos, "e5").is_err());
/// assert!(parse_move(&pos, "hello").is_err());
/// # Ok::<(), caissa_notation::parse_move::ParseMoveError>(())
/// ```
///
/// # Errors
///
/// [`ParseMoveErrorKind::Syntax`] if the text is neither SAN nor UCI,
/// [`ParseMoveErrorKind::Uci`] if it is UCI for no legal move (and no SAN either),
/// [`ParseMoveErrorKind::San`] if it is SAN for no legal move or for several.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseMoveError> {
    let uci_error = match UciMove::from_ascii(text.as_bytes()) {
        Ok(uci) => match uci.to_move(pos) {
            Ok(m) => return Ok(m),
            Err(e) => Some(e),
        },
        Err(_) => None,
    };
    match SanPlus::from_ascii(text.as_bytes()) {
        Ok(san) => san.san.to_move(pos).map_err(|e| {
            uci_error
                .map_or(ParseMoveErrorKind::San(e), ParseMoveErrorKind::Uci)
                .into()
        }),
        Err(e) => Err(uci_error
            .map_or(ParseMoveErrorKind::Syntax(e), ParseMoveErrorKind::Uci)
            .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use caissa_board::Square;

    fn pos(fen: &str) -> Position {
        fen.parse().expect("test FEN")
    }

    #[test]
    fn san_and_uci_name_the_same_moves() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = Move::castle(Square::E1, Square::H1);
        for text in ["O-O", "0-0", "O-O+", "e1g1", "e1h1"] {
            assert_eq!(parse_move(&p, text), Ok(short), "{text}");
        }
        let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let queen = Move::promotion(Square::E7, Square::E8, caissa_board::Role::Queen);
        assert_eq!(parse_move(&p, "e8=Q"), Ok(queen));
        assert_eq!(parse_move(&p, "e7e8q"), Ok(queen));
    }

    #[test]
    fn errors_say_which_reader_refused() {
        let p = Position::standard();
        assert!(matches!(
            parse_move(&p, "e2e5").map_err(|e| e.kind),
            Err(ParseMoveErrorKind::Uci(UciError::Illegal(_)))
        ));
        assert!(matches!(
            parse_move(&p, "Nd2").map_err(|e| e.kind),
            Err(ParseMoveErrorKind::San(SanError::Illegal { .. }))
        ));
        assert!(matches!(
            parse_move(&p, "0000").map_err(|e| e.kind),
            Err(ParseMoveErrorKind::Uci(UciError::Null))
        ));
        assert!(matches!(
            parse_move(&p, "").map_err(|e| e.kind),
            Err(ParseMoveErrorKind::Syntax(_))
        ));
        let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert!(matches!(
            parse_move(&p, "Rd1").map_err(|e| e.kind),
            Err(ParseMoveErrorKind::San(SanError::Ambiguous { .. }))
        ));
    }
}
