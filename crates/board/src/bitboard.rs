//! [`Bitboard`]: a set of squares packed into 64 bits.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::{Color, File, Rank, Square};

/// A set of squares: bit `i` is the square with index `i` (`a1` is bit 0, `h8` bit 63).
///
/// Set operations are `const fn`s and the usual operators (`|`, `&`, `^`, `!`, and `-` for
/// difference). Iterating yields squares from `a1` towards `h8`. `{:?}` draws the board as an
/// 8x8 grid, the eighth rank first.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// The first and eighth ranks.
    pub const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
    /// The four corner squares.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding only `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u8)
    }

    /// All squares of `file`.
    #[inline]
    #[must_use]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// All squares of `rank`.
    #[inline]
    #[must_use]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u8))
    }

    /// `color`'s back rank.
    #[inline]
    #[must_use]
    pub const fn back_rank(color: Color) -> Bitboard {
        Bitboard::from_rank(Rank::back_rank(color))
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// How many squares the set holds.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one square.
    #[inline]
    #[must_use]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u8) != 0
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u8)
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u8))
    }

    /// The set with `sq` added if it was absent and removed if it was present.
    #[inline]
    #[must_use]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq as u8)
    }

    /// The union.
    #[inline]
    #[must_use]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// The intersection.
    #[inline]
    #[must_use]
    pub const fn intersect(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The squares of `self` that are not in `other`.
    #[inline]
    #[must_use]
    pub const fn difference(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The squares in exactly one of the two sets.
    #[inline]
    #[must_use]
    pub const fn symmetric_difference(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ other.0)
    }

    /// The complement.
    #[inline]
    #[must_use]
    pub const fn complement(self) -> Bitboard {
        Bitboard(!self.0)
    }

    /// Whether the sets share a square.
    #[inline]
    #[must_use]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every square of `self` is in `other`.
    #[inline]
    #[must_use]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The square nearest `a1`, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_wrapping(self.0.trailing_zeros()))
        }
    }

    /// The square nearest `h8`, if any.
    #[inline]
    #[must_use]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_wrapping(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of the set, or `None` if it holds zero or several.
    #[inline]
    #[must_use]
    pub const fn single_square(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// The set moved `n` ranks up the board (towards the eighth rank); squares pushed off vanish.
    #[inline]
    #[must_use]
    pub const fn shift_up(self, n: u32) -> Bitboard {
        Bitboard(self.0 << (8 * n))
    }

    /// The set moved `n` ranks down the board (towards the first rank).
    #[inline]
    #[must_use]
    pub const fn shift_down(self, n: u32) -> Bitboard {
        Bitboard(self.0 >> (8 * n))
    }

    /// The set moved one rank forward as `color` moves: up for white, down for black.
    #[inline]
    #[must_use]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.shift_up(1),
            Color::Black => self.shift_down(1),
        }
    }

    /// The set mirrored top to bottom.
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Every subset of `self`, the empty set first (the carry-rippler enumeration).
    pub fn subsets(self) -> impl Iterator<Item = Bitboard> {
        let mask = self.0;
        let mut next = Some(0u64);
        core::iter::from_fn(move || {
            let current = next?;
            let following = current.wrapping_sub(mask) & mask;
            next = if following == 0 {
                None
            } else {
                Some(following)
            };
            Some(Bitboard(current))
        })
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl From<File> for Bitboard {
    fn from(file: File) -> Bitboard {
        Bitboard::from_file(file)
    }
}

impl From<Rank> for Bitboard {
    fn from(rank: Rank) -> Bitboard {
        Bitboard::from_rank(rank)
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    };
}

binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<T: Into<Bitboard>> Sub<T> for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: T) -> Bitboard {
        self.difference(rhs.into())
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        self.complement()
    }
}

/// Iterates over the squares of a [`Bitboard`], from `a1` towards `h8`.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new_wrapping(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new_wrapping(63 - self.0.leading_zeros());
        self.0 ^= 1 << sq as u8;
        Some(sq)
    }
}

impl ExactSizeIterator for Squares {}
impl core::iter::FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            writeln!(f, "Bitboard({:#018x})", self.0)?;
        }
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let mark = if self.contains(Square::from_coords(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                f.write_str(if file == File::A { "" } else { " " })?;
                write!(f, "{mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Bitboard::from_square(Square::A1) | Square::B2;
        let b = Bitboard::from(Square::B2) | Square::C3;
        assert_eq!((a & b).single_square(), Some(Square::B2));
        assert_eq!((a | b).count(), 3);
        assert_eq!((a - b).single_square(), Some(Square::A1));
        assert_eq!((a ^ b).count(), 2);
        assert!(a.more_than_one());
        assert!(!Bitboard::from(Square::H8).more_than_one());
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(Bitboard::FULL.last(), Some(Square::H8));
        assert!(Bitboard::from_file(File::C).contains(Square::C7));
        assert!(Bitboard::from_rank(Rank::Third).contains(Square::H3));
        assert_eq!(Bitboard::LIGHT_SQUARES.count(), 32);
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
        assert_eq!(
            Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES,
            Bitboard::FULL
        );
        assert_eq!(
            Bitboard::from(Square::E2).forward(Color::White),
            Bitboard::from(Square::E3)
        );
        assert_eq!(
            Bitboard::from(Square::E7).forward(Color::Black),
            Bitboard::from(Square::E6)
        );
        assert_eq!(
            Bitboard::from(Square::A2).flip_vertical(),
            Bitboard::from(Square::A7)
        );
    }

    #[test]
    fn iterates_in_order_and_enumerates_subsets() {
        let bb: Bitboard = [Square::H8, Square::A1, Square::D4].into_iter().collect();
        assert_eq!(
            bb.into_iter().collect::<Vec<_>>(),
            [Square::A1, Square::D4, Square::H8]
        );
        assert_eq!(bb.into_iter().len(), 3);
        assert_eq!(bb.into_iter().next_back(), Some(Square::H8));
        assert_eq!(bb.subsets().count(), 8);
        assert!(bb.subsets().all(|s| s.is_subset(bb)));
        assert_eq!(Bitboard::EMPTY.subsets().count(), 1);
    }

    #[test]
    fn debug_draws_a_grid() {
        let drawn = format!("{:#?}", Bitboard::from(Square::A8) | Square::H1);
        assert_eq!(drawn.lines().next(), Some("X . . . . . . ."));
        assert_eq!(drawn.lines().nth(7), Some(". . . . . . . X"));
    }
}
