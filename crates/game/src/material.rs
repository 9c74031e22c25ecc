//! Material: how many pieces of each kind each side has, and their conventional values.
//!
//! Information for users (displays, statistics, engines); the Laws never count material. Whether a
//! side can still checkmate is a different question, answered by [`crate::dead`].

use core::fmt;

use caissa_board::{Board, ByColor, ByRole, Color, Role};

/// The number of pieces of each kind on each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Material {
    /// The counts, by side and role.
    pub counts: ByColor<ByRole<u8>>,
}

impl Material {
    /// Counts the pieces on `board`.
    #[must_use]
    pub fn of(board: &Board) -> Material {
        Material {
            counts: ByColor::new_with(|color| {
                ByRole::new_with(|role| {
                    u8::try_from(board.count(role.of(color))).expect("at most 64 pieces")
                })
            }),
        }
    }

    /// How many `role`s `color` has.
    #[must_use]
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color][role]
    }

    /// How many pieces `color` has, the king included.
    #[must_use]
    pub fn pieces(&self, color: Color) -> u32 {
        self.counts[color].iter().map(|(_, &n)| u32::from(n)).sum()
    }

    /// `color`'s material in the conventional points ([`Role::value`]: pawn 1, knight 3, bishop
    /// 3, rook 5, queen 9; the king counts 0).
    #[must_use]
    pub fn points(&self, color: Color) -> u32 {
        self.counts[color]
            .iter()
            .map(|(role, &n)| role.value() * u32::from(n))
            .sum()
    }

    /// White's points minus Black's: positive when White is ahead.
    #[must_use]
    pub fn balance(&self) -> i32 {
        let points = |color| i32::try_from(self.points(color)).expect("at most 64 pieces of 9");
        points(Color::White) - points(Color::Black)
    }
}

impl fmt::Display for Material {
    /// Pieces from the strongest, white then black, as letters: `KQRRBNPPPPPPPP v kqrrbbnnpppppppp`
    /// (using the board's piece letters), then the points: `(39 v 39)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, color) in Color::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str(" v ")?;
            }
            for role in Role::ALL.into_iter().rev() {
                for _ in 0..self.count(color, role) {
                    write!(f, "{}", role.of(color).char())?;
                }
            }
        }
        write!(
            f,
            " ({} v {})",
            self.points(Color::White),
            self.points(Color::Black)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_standard_start() {
        let material = Material::of(&Board::standard());
        for color in Color::ALL {
            assert_eq!(material.count(color, Role::Pawn), 8);
            assert_eq!(material.count(color, Role::Queen), 1);
            assert_eq!(material.pieces(color), 16);
            assert_eq!(material.points(color), 39);
        }
        assert_eq!(material.balance(), 0);
        assert_eq!(
            material.to_string(),
            "KQRRBBNNPPPPPPPP v kqrrbbnnpppppppp (39 v 39)"
        );
    }

    #[test]
    fn balance_follows_captures() {
        let mut board = Board::standard();
        board.remove_piece_at(caissa_board::Square::D8);
        board.remove_piece_at(caissa_board::Square::A1);
        let material = Material::of(&board);
        assert_eq!(material.points(Color::White), 34);
        assert_eq!(material.points(Color::Black), 30);
        assert_eq!(material.balance(), 4);
        assert_eq!(material.count(Color::Black, Role::Queen), 0);
    }
}
