//! Position patterns: some men on given squares, the other squares anything, for finding the
//! games that reach a kind of position (a piece placement, a pawn structure) rather than one
//! exact position.
//!
//! A pattern is written as the first field of a FEN (`8/8/8/3pP3/8/8/8/8`: a white pawn on e5
//! beside a black one on d5), optionally followed by the side to move (`w` or `b`). A position
//! matches when every man of the pattern stands on its square, and, if the pattern names one,
//! the same side is to move; the empty squares of the pattern say nothing.

use core::str::FromStr;

use caissa_board::{Board, Color, FenField, ParseFenError, ParseFenErrorKind, Role, Setup};
use caissa_movegen::Position;

/// Men that must stand on their squares, and maybe the side to move: see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    board: Board,
    turn: Option<Color>,
}

impl Pattern {
    /// Whether `pos` has every man of the pattern on its square (and the side to move, if the
    /// pattern names it).
    ///
    /// ```
    /// use caissa_movegen::Position;
    /// use caissa_movegen::uci::UciMove;
    /// use caissa_pgntools::pattern::Pattern;
    ///
    /// let e4: Pattern = "8/8/8/8/4P3/8/8/8".parse()?;
    /// assert!(!e4.matches(&Position::standard()));
    /// let mut pos = Position::standard();
    /// pos.play_unchecked("e2e4".parse::<UciMove>()?.to_move(&pos)?);
    /// assert!(e4.matches(&pos));
    /// assert!(!"8/8/8/8/4P3/8/8/8 w".parse::<Pattern>()?.matches(&pos));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn matches(&self, pos: &Position) -> bool {
        self.turn.is_none_or(|turn| turn == pos.turn())
            && Color::ALL
                .into_iter()
                .flat_map(|color| Role::ALL.map(|role| role.of(color)))
                .all(|piece| {
                    let want = self.board.by_piece(piece);
                    pos.board().by_piece(piece) & want == want
                })
    }
}

impl FromStr for Pattern {
    type Err = ParseFenError;

    /// Reads the placement and the optional side to move (any further field is refused as
    /// FEN would refuse it: a pattern has no castling or move counters).
    fn from_str(text: &str) -> Result<Pattern, ParseFenError> {
        let setup = Setup::from_ascii(text.as_bytes())?;
        let mut fields = text.split_ascii_whitespace();
        let named_turn = fields.nth(1).is_some();
        if let Some(extra) = fields.next() {
            let byte = extra.as_ptr() as usize - text.as_ptr() as usize;
            return Err(ParseFenError::new(
                FenField::Castling,
                byte,
                ParseFenErrorKind::TrailingText,
            ));
        }
        Ok(Pattern {
            board: setup.board,
            turn: named_turn.then_some(setup.turn),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_asks_for_its_men_only() {
        let pos = |fen: &str| -> Position {
            Position::from_setup(fen.parse().unwrap(), caissa_movegen::CastlingMode::Standard)
                .unwrap()
        };
        let structure: Pattern = "8/pp6/8/8/8/8/PP6/8".parse().unwrap();
        assert!(structure.matches(&Position::standard()));
        let moved = pos("rnbqkbnr/1ppppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
        assert!(!structure.matches(&moved));
        // A man of the other colour or role on the square does not do.
        let knight: Pattern = "8/8/8/8/8/8/8/1N6".parse().unwrap();
        assert!(knight.matches(&Position::standard()));
        assert!(
            !"8/8/8/8/8/8/8/1n6"
                .parse::<Pattern>()
                .unwrap()
                .matches(&Position::standard())
        );
        assert!(
            !"8/8/8/8/8/8/8/1B6"
                .parse::<Pattern>()
                .unwrap()
                .matches(&Position::standard())
        );
        assert!(
            !"8/8/8/8/8/8/8/8 b"
                .parse::<Pattern>()
                .unwrap()
                .matches(&moved)
        );
        assert!(
            "8/8/8/8/8/8/8/8"
                .parse::<Pattern>()
                .unwrap()
                .matches(&moved)
        );
        // Errors say where.
        assert!("8/8/8/8/8/8/8/9".parse::<Pattern>().is_err());
        let extra = "8/8/8/8/8/8/8/8 w KQ".parse::<Pattern>().unwrap_err();
        assert_eq!(
            (extra.byte, extra.kind),
            (18, ParseFenErrorKind::TrailingText)
        );
    }
}
