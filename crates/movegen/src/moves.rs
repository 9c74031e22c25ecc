//! [`Move`]: a compact, `Copy` move, and [`MoveList`].

use core::fmt;

use caissa_board::{CastlingSide, Role, Square};
use smallvec::SmallVec;

/// A move in a particular position, in two bytes.
///
/// It holds the origin, the destination and the kind (normal, en passant, castling, or a
/// promotion with its role). The moving piece is not stored: it is whatever stands on
/// [`from`](Move::from) in the position the move belongs to.
///
/// Castling is encoded as **the king taking its own rook**: `from` is the king's square and `to`
/// the rook's, in standard chess as in Chess960. Notation converts that to `e1g1` or `O-O` as the
/// convention in use requires.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const KIND_SHIFT: u16 = 12;
const NORMAL: u16 = 0;
const EN_PASSANT: u16 = 1;
const CASTLE: u16 = 2;
/// Promotion kinds are `PROMOTION_BASE + role index` (knight 1 … queen 4).
const PROMOTION_BASE: u16 = 3;

impl Move {
    #[inline(always)]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | kind << KIND_SHIFT)
    }

    /// A move that is not a promotion, castling or en passant: a piece (or pawn) goes from `from`
    /// to `to`, capturing whatever stands there.
    #[inline(always)]
    #[must_use]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, NORMAL)
    }

    /// A pawn move to the last rank that promotes to `role`.
    ///
    /// # Panics
    ///
    /// If `role` is a pawn or a king.
    #[inline(always)]
    #[must_use]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        assert!(
            !matches!(role, Role::Pawn | Role::King),
            "pawns promote to a knight, bishop, rook or queen"
        );
        Move::pack(from, to, PROMOTION_BASE + role as u16)
    }

    /// An en passant capture by the pawn on `from` onto the empty square `to`.
    #[inline(always)]
    #[must_use]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, EN_PASSANT)
    }

    /// Castling, written as the king on `king` taking its own rook on `rook`.
    #[inline(always)]
    #[must_use]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, CASTLE)
    }

    /// Where the moving piece starts (for castling, the king's square).
    #[inline(always)]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::new_wrapping(self.0 as u32 & 63)
    }

    /// Where the moving piece goes (for castling, the rook's square; see [`Move::king_to`]).
    #[inline(always)]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::new_wrapping((self.0 >> 6) as u32 & 63)
    }

    #[inline(always)]
    const fn kind(self) -> u16 {
        self.0 >> KIND_SHIFT
    }

    /// Whether this is a plain move: not castling, en passant or a promotion.
    #[inline(always)]
    pub(crate) const fn is_normal(self) -> bool {
        self.kind() == NORMAL
    }

    /// The role a pawn promotes to, if this is a promotion.
    #[inline(always)]
    #[must_use]
    pub const fn promotion_role(self) -> Option<Role> {
        if self.kind() > PROMOTION_BASE {
            Role::from_index((self.kind() - PROMOTION_BASE) as usize)
        } else {
            None
        }
    }

    /// Whether this is an en passant capture.
    #[inline(always)]
    #[must_use]
    pub const fn is_en_passant(self) -> bool {
        self.kind() == EN_PASSANT
    }

    /// Whether this is castling.
    #[inline(always)]
    #[must_use]
    pub const fn is_castle(self) -> bool {
        self.kind() == CASTLE
    }

    /// Which way this castles, if it is castling.
    #[inline]
    #[must_use]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        if self.is_castle() {
            CastlingSide::from_files(self.from().file(), self.to().file())
        } else {
            None
        }
    }

    /// Where the king ends: for castling the `g` or `c` file square, otherwise [`Move::to`].
    #[inline]
    #[must_use]
    pub const fn king_to(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::from_coords(side.king_to_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The same move mirrored top to bottom (`e2e4` ↔ `e7e5`), of the same kind: the move of the
    /// position seen from the other side ([`Setup::flip_colors`](caissa_board::Setup::flip_colors)).
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Move {
        Move::pack(
            self.from().flip_vertical(),
            self.to().flip_vertical(),
            self.0 >> KIND_SHIFT,
        )
    }

    /// The two bytes: origin in bits 0–5, destination in bits 6–11, kind in bits 12–15.
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        self.0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        } else if self.is_castle() {
            f.write_str(" castle")?;
        } else if self.is_en_passant() {
            f.write_str(" e.p.")?;
        }
        Ok(())
    }
}

/// A list of moves on the stack: room for 256, more than any position has (the most known is
/// 218), so it never allocates.
pub type MoveList = SmallVec<[Move; 256]>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_keeps_the_kind() {
        for (m, flipped) in [
            (
                Move::normal(Square::E2, Square::E4),
                Move::normal(Square::E7, Square::E5),
            ),
            (
                Move::promotion(Square::B7, Square::A8, Role::Knight),
                Move::promotion(Square::B2, Square::A1, Role::Knight),
            ),
            (
                Move::en_passant(Square::D5, Square::E6),
                Move::en_passant(Square::D4, Square::E3),
            ),
            (
                Move::castle(Square::E1, Square::H1),
                Move::castle(Square::E8, Square::H8),
            ),
        ] {
            assert_eq!(m.flip_vertical(), flipped);
            assert_eq!(flipped.flip_vertical(), m);
        }
    }

    #[test]
    fn moves_pack_and_unpack() {
        let m = Move::promotion(Square::B7, Square::A8, Role::Knight);
        assert_eq!((m.from(), m.to()), (Square::B7, Square::A8));
        assert_eq!(m.promotion_role(), Some(Role::Knight));
        assert!(!m.is_castle() && !m.is_en_passant());
        assert_eq!(format!("{m:?}"), "b7a8n");
        for role in Role::PROMOTIONS {
            assert_eq!(
                Move::promotion(Square::H2, Square::H1, role).promotion_role(),
                Some(role)
            );
        }
        let castle = Move::castle(Square::E1, Square::H1);
        assert_eq!(castle.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!(castle.king_to(), Square::G1);
        assert_eq!(Move::castle(Square::E8, Square::A8).king_to(), Square::C8);
        let ep = Move::en_passant(Square::E5, Square::D6);
        assert!(ep.is_en_passant() && ep.promotion_role().is_none());
        assert_eq!(Move::normal(Square::G1, Square::F3).king_to(), Square::F3);
        assert_eq!(Move::normal(Square::A1, Square::A2).castling_side(), None);
    }

    #[test]
    #[should_panic(expected = "pawns promote")]
    fn promotion_to_a_king_is_refused() {
        let _ = Move::promotion(Square::A7, Square::A8, Role::King);
    }
}
