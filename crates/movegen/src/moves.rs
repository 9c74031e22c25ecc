//! [`Move`]: a compact, `Copy` move, and [`MoveList`].

use core::fmt;
use core::ops::{Deref, DerefMut};

use caissa_board::{CastlingSide, Role, Square};

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

    /// Whether this is a promotion.
    #[inline(always)]
    #[must_use]
    pub const fn is_promotion(self) -> bool {
        self.kind() > PROMOTION_BASE
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

/// Written as the constructor that builds the move (`Move::normal(g1, f3)`,
/// `Move::castle(e1, h1)`), so that it is not mistaken for UCI text, whose castling convention
/// depends on the position.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (self.from(), self.to());
        if let Some(role) = self.promotion_role() {
            write!(f, "Move::promotion({from}, {to}, {})", role.name())
        } else if self.is_castle() {
            write!(f, "Move::castle({from}, {to})")
        } else if self.is_en_passant() {
            write!(f, "Move::en_passant({from}, {to})")
        } else {
            write!(f, "Move::normal({from}, {to})")
        }
    }
}

/// The room in a [`MoveList`]: more than any position has (the most known is 218).
const CAPACITY: usize = 256;

/// The moves of a position, on the stack: room for 256, more than any position has (the most
/// known is 218), so it never allocates. It derefs to a slice of [`Move`]s, so every slice
/// method (`len`, `iter`, `contains`, `sort`, indexing...) works on it.
///
/// ```
/// use caissa_movegen::{Move, Position, Square};
///
/// let moves = Position::standard().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.contains(&Move::normal(Square::E2, Square::E4)));
/// let knight_moves = moves.iter().filter(|m| m.from() == Square::G1).count();
/// assert_eq!(knight_moves, 2);
/// for m in moves {
///     assert!(Position::standard().is_legal(m));
/// }
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: u16,
}

impl MoveList {
    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::normal(Square::A1, Square::A1); CAPACITY],
            len: 0,
        }
    }

    /// Appends `m`.
    ///
    /// # Panics
    ///
    /// If the list already holds 256 moves, which no position's moves fill; see
    /// [`MoveList::try_push`].
    #[inline]
    pub fn push(&mut self, m: Move) {
        assert!(self.try_push(m).is_ok(), "a MoveList holds 256 moves");
    }

    /// Appends `m`, or gives it back if the list already holds 256 moves.
    ///
    /// # Errors
    ///
    /// `Err(m)` when the list is full.
    #[inline]
    pub fn try_push(&mut self, m: Move) -> Result<(), Move> {
        let slot = self.moves.get_mut(usize::from(self.len)).ok_or(m)?;
        *slot = m;
        self.len += 1;
        Ok(())
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len() {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Removes consecutive repeated moves (every repeat, once the list is sorted).
    pub fn dedup(&mut self) {
        let mut kept = 0;
        for i in 0..self.len() {
            if kept == 0 || self.moves[kept - 1] != self.moves[i] {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to its first `len` moves (nothing happens if it is shorter).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.len = len as u16;
        }
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }

    /// The moves as a mutable slice.
    #[inline]
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..usize::from(self.len)]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl core::hash::Hash for MoveList {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl AsRef<[Move]> for MoveList {
    fn as_ref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Appends the moves.
///
/// # Panics
///
/// Past 256 moves, as [`MoveList::push`].
impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        for m in moves {
            self.push(m);
        }
    }
}

/// Collects the moves.
///
/// # Panics
///
/// Past 256 moves, as [`MoveList::push`].
impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(moves: I) -> MoveList {
        let mut list = MoveList::new();
        list.extend(moves);
        list
    }
}

/// The moves of a [`MoveList`], by value.
#[derive(Clone)]
pub struct MoveListIntoIter {
    list: MoveList,
    front: usize,
}

impl fmt::Debug for MoveListIntoIter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MoveListIntoIter")
            .field(&&self.list[self.front..])
            .finish()
    }
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = *self.list.get(self.front)?;
        self.front += 1;
        Some(m)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.front;
        (left, Some(left))
    }
}

impl DoubleEndedIterator for MoveListIntoIter {
    #[inline]
    fn next_back(&mut self) -> Option<Move> {
        if self.front == self.list.len() {
            return None;
        }
        let m = self.list.last().copied();
        self.list.len -= 1;
        m
    }
}

impl ExactSizeIterator for MoveListIntoIter {}
impl core::iter::FusedIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    #[inline]
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            front: 0,
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    #[inline]
    fn into_iter(self) -> core::slice::Iter<'a, Move> {
        self.as_slice().iter()
    }
}

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
        assert_eq!(format!("{m:?}"), "Move::promotion(b7, a8, knight)");
        for role in Role::PROMOTIONS {
            assert_eq!(
                Move::promotion(Square::H2, Square::H1, role).promotion_role(),
                Some(role)
            );
        }
        let castle = Move::castle(Square::E1, Square::H1);
        assert_eq!(format!("{castle:?}"), "Move::castle(e1, h1)");
        assert_eq!(
            format!("{:?}", Move::en_passant(Square::E5, Square::D6)),
            "Move::en_passant(e5, d6)"
        );
        assert_eq!(
            format!("{:?}", Move::normal(Square::G1, Square::F3)),
            "Move::normal(g1, f3)"
        );
        assert_eq!(castle.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!(castle.king_to(), Square::G1);
        assert_eq!(Move::castle(Square::E8, Square::A8).king_to(), Square::C8);
        let ep = Move::en_passant(Square::E5, Square::D6);
        assert!(ep.is_en_passant() && ep.promotion_role().is_none());
        assert_eq!(Move::normal(Square::G1, Square::F3).king_to(), Square::F3);
        assert_eq!(Move::normal(Square::A1, Square::A2).castling_side(), None);
    }

    #[test]
    fn move_lists_behave_like_slices() {
        let a = Move::normal(Square::A2, Square::A3);
        let b = Move::normal(Square::B2, Square::B3);
        let mut list: MoveList = [b, a, b, a].into_iter().collect();
        list.sort();
        list.dedup();
        assert_eq!(list.as_slice(), [a, b]);
        list.retain(|m| m != a);
        assert_eq!(list.as_slice(), [b]);
        let mut full = MoveList::new();
        for _ in 0..256 {
            full.push(a);
        }
        assert_eq!(full.try_push(b), Err(b));
        let mut iter = full.into_iter();
        assert_eq!(iter.len(), 256);
        assert_eq!((iter.next(), iter.next_back()), (Some(a), Some(a)));
        assert_eq!(iter.count(), 254);
        list.truncate(5);
        assert_eq!(list.len(), 1);
        list.clear();
        assert!(list.is_empty());
        assert_eq!(format!("{list:?}"), "[]");
    }

    #[test]
    #[should_panic(expected = "pawns promote")]
    fn promotion_to_a_king_is_refused() {
        let _ = Move::promotion(Square::A7, Square::A8, Role::King);
    }
}
