//! [`Setup`]: everything a FEN says, unvalidated.

use core::num::NonZeroU32;

use crate::{Board, CastlingRights, Color, Square};

/// A position as written down, before anyone has checked that it makes sense.
///
/// Fields are public and compared field by field. Parsers (FEN, EPD, PGN `[FEN]` tags) produce a
/// `Setup`; the move generator's validating constructor turns one into a `Position`, naming every
/// problem it finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling rights, by rook file.
    pub castling_rights: CastlingRights,
    /// The en passant target square (the square a pawn that just moved two squares passed over),
    /// as written: it may or may not allow a capture.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (the fifty-move counter).
    pub halfmoves: u32,
    /// The number of the full move about to be played, starting at 1.
    pub fullmoves: NonZeroU32,
}

impl Setup {
    /// The standard starting position.
    #[must_use]
    pub const fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling_rights: CastlingRights::STANDARD,
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// An empty board, white to move, no rights, counters at their start.
    #[must_use]
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rights: CastlingRights::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// The Chess960 starting position with Scharnagl number `number` (0 to 959), with all four
    /// castling rights; `None` for a larger number.
    #[must_use]
    pub fn chess960(number: u32) -> Option<Setup> {
        let board = Board::chess960(number)?;
        let mut castling_rights = CastlingRights::NONE;
        let king = board.king_of(Color::White)?;
        for rook in board.by_piece(crate::Role::Rook.of(Color::White)) {
            let side = crate::CastlingSide::from_files(king.file(), rook.file())?;
            for color in Color::ALL {
                castling_rights.set(color, side, Some(rook.file()));
            }
        }
        Some(Setup {
            board,
            castling_rights,
            ..Setup::standard()
        })
    }

    /// The setup mirrored top to bottom with colours exchanged: the same position seen from the
    /// other side (white's pieces become black's, and the other side is to move).
    #[must_use]
    pub fn flip_colors(&self) -> Setup {
        let mut castling_rights = CastlingRights::NONE;
        for (color, side, file) in self.castling_rights.iter() {
            castling_rights.set(!color, side, Some(file));
        }
        Setup {
            board: self.board.flip_colors(),
            turn: !self.turn,
            castling_rights,
            ep_square: self.ep_square.map(Square::flip_vertical),
            ..*self
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::standard()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingSide, File};

    #[test]
    fn chess960_setup_names_rook_files() {
        let setup = Setup::chess960(0).unwrap();
        assert_eq!(
            setup
                .castling_rights
                .rook(Color::Black, CastlingSide::KingSide),
            Some(File::H)
        );
        assert_eq!(
            setup
                .castling_rights
                .rook(Color::White, CastlingSide::QueenSide),
            Some(File::F)
        );
        assert_eq!(Setup::chess960(518), Some(Setup::standard()));
        assert_eq!(Setup::chess960(1000), None);
    }

    #[test]
    fn flipping_twice_is_identity() {
        let mut setup = Setup::chess960(100).unwrap();
        setup.ep_square = Some(Square::D3);
        setup
            .castling_rights
            .set(Color::White, CastlingSide::KingSide, None);
        let flipped = setup.flip_colors();
        assert_eq!(flipped.turn, Color::Black);
        assert_eq!(flipped.ep_square, Some(Square::D6));
        assert!(
            !flipped
                .castling_rights
                .has(Color::Black, CastlingSide::KingSide)
        );
        assert_eq!(flipped.flip_colors(), setup);
    }
}
