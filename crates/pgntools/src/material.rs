//! Material signatures: `KQ vs KR`, the pieces of each side, for finding games that reach an
//! ending.
//!
//! A signature names every piece of one side, then of the other, by letter (`K`, `Q`, `R`, `B`,
//! `N`, `P`; a letter repeated for each piece: `KRR`), the sides parted by `vs` or `v`. A
//! position has the signature when one side has exactly the first set and the other exactly
//! the second, whichever colour each is.

use caissa_board::{Board, Color, Piece, Role};

/// The pieces of each side of a signature, counted by role ([`Role::ALL`]'s order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    sides: [[u8; 6]; 2],
}

/// A text that is not a material signature: what, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at byte {byte} of the material signature: {kind}")]
pub struct ParseMaterialError {
    /// The byte offset of the problem.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseMaterialErrorKind,
}

/// What is wrong with a material signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMaterialErrorKind {
    /// Not two sides parted by `vs` or `v`.
    #[error("expected two sides parted by `vs`, like `KQ vs KR`")]
    Sides,
    /// A character that is not a piece letter.
    #[error("expected a piece letter (K, Q, R, B, N, P)")]
    Letter,
    /// A side without exactly one king.
    #[error("each side has one king")]
    King,
}

impl core::str::FromStr for Material {
    type Err = ParseMaterialError;

    fn from_str(text: &str) -> Result<Material, ParseMaterialError> {
        let error = |byte, kind| ParseMaterialError { byte, kind };
        let words: Vec<(usize, &str)> = text
            .split_ascii_whitespace()
            .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
            .collect();
        let (first, second) = match words[..] {
            [first, (_, "vs" | "v"), second] => (first, second),
            _ => return Err(error(0, ParseMaterialErrorKind::Sides)),
        };
        let mut sides = [[0_u8; 6]; 2];
        for (side, (start, word)) in sides.iter_mut().zip([first, second]) {
            for (i, c) in word.char_indices() {
                let role = Role::from_char(c)
                    .filter(|_| c.is_ascii_uppercase())
                    .ok_or_else(|| error(start + i, ParseMaterialErrorKind::Letter))?;
                side[role as usize] = side[role as usize].saturating_add(1);
            }
            if side[Role::King as usize] != 1 {
                return Err(error(start, ParseMaterialErrorKind::King));
            }
        }
        Ok(Material { sides })
    }
}

impl Material {
    /// Whether `board` has this material, one side the first set and the other the second.
    #[must_use]
    pub fn matches(&self, board: &Board) -> bool {
        let count = |color| {
            Role::ALL
                .map(|role| u8::try_from(board.count(Piece { color, role })).unwrap_or(u8::MAX))
        };
        let (white, black) = (count(Color::White), count(Color::Black));
        [white, black] == self.sides || [black, white] == self.sides
    }
}

#[cfg(test)]
mod tests {
    use caissa_board::Setup;

    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse::<Setup>().expect("a FEN").board
    }

    #[test]
    fn either_colour_has_either_side() {
        let material: Material = "KQ vs KR".parse().expect("a signature");
        assert!(material.matches(&board("4k3/8/8/8/8/8/3r4/Q3K3 w - - 0 1")));
        assert!(material.matches(&board("4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1")));
        assert!(!material.matches(&board("4k3/8/8/8/8/8/3r4/Q2QK3 w - - 0 1")));
        assert!(!material.matches(&Board::standard()));
        let rooks: Material = "KRRP v K".parse().expect("a signature");
        assert!(rooks.matches(&board("4k3/8/8/8/8/8/P7/RR2K3 w - - 0 1")));
    }

    #[test]
    fn errors_say_where() {
        let kind = |text: &str| text.parse::<Material>().map_err(|e| (e.byte, e.kind));
        assert_eq!(kind("KQ KR"), Err((0, ParseMaterialErrorKind::Sides)));
        assert_eq!(kind("KQ vs KX"), Err((7, ParseMaterialErrorKind::Letter)));
        assert_eq!(kind("KQ vs kr"), Err((6, ParseMaterialErrorKind::Letter)));
        assert_eq!(kind("Q vs KR"), Err((0, ParseMaterialErrorKind::King)));
    }
}
