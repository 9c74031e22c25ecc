//! [`Position::moves_to`]: the legal moves of one kind of piece onto one square, which is what
//! a move named by its piece and destination stands for (SAN's `Nf3`, `exd5`, `Rad1`).
//!
//! Reading SAN asks it for the move a text names; writing SAN asks it which other pieces of the
//! same kind could go to the same square, to name the origin only as far as needed. Both happen
//! at every move of every game read or written, so the query avoids the move generator where it
//! can:
//!
//! 1. the pieces that could reach the destination come from attack tables seen from the
//!    destination (for bishops, rooks and queens their lines on an empty board, one load each);
//! 2. when one piece is left and its move is legal for plain reasons (see
//!    [`Position::unhindered_move`]), the move is built directly;
//! 3. when several sliders are left and only one of them attacks the destination through the
//!    pieces in between (doubled rooks, say), that one is tried the same way;
//! 4. otherwise the generator decides, restricted to those pieces and that square.
//!
//! Castling is not a move onto a square here (its [`Move::to`] is the rook's square):
//! [`Position::castling_move`] answers for it.

use core::fmt;

use caissa_board::{Bitboard, Color, Rank, Role, Square};

use crate::attacks;
use crate::moves::Move;
use crate::position::Position;

/// What [`Position::moves_to`] found: no legal move, one, or several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovesTo {
    /// No legal move matches.
    None,
    /// Exactly one legal move matches.
    One(Move),
    /// Two or more legal moves match.
    Ambiguous(Candidates),
}

/// Two or more legal moves of one kind of piece onto one square, in the move generator's order.
///
/// There are at most eight: a square is reached in one move by at most eight knights, or eight
/// queens (one on each line through it), four rooks or bishops, two pawns.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates {
    moves: [Move; Candidates::CAPACITY],
    len: u8,
}

impl Candidates {
    const CAPACITY: usize = 8;

    const fn new() -> Candidates {
        Candidates {
            moves: [Move::normal(Square::A1, Square::A1); Candidates::CAPACITY],
            len: 0,
        }
    }

    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(usize::from(self.len)) {
            *slot = m;
            self.len += 1;
        }
    }

    /// The moves, in the move generator's order.
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl fmt::Display for Candidates {
    /// Each move as its origin, destination and promotion letter (`b1d2`, `e7f8q`), separated
    /// by commas.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}{}", m.from(), m.to())?;
            if let Some(role) = m.promotion_role() {
                write!(f, "{}", role.char())?;
            }
        }
        Ok(())
    }
}

impl Position {
    /// The legal moves of the side to move's pieces of `role` standing on `from` whose
    /// destination is `to`, promoting to `promotion` (`None`: not a promotion). Castling is
    /// not among them (see [`Position::castling_move`]); en passant is, onto its square.
    ///
    /// This is the question a SAN asks (`Nbd7`: a knight on the `b` file to `d7`), answered
    /// without the move generator in nearly every position of a game (see the module docs).
    ///
    /// # Examples
    ///
    /// ```
    /// use caissa_board::{Bitboard, File, Role, Square};
    /// use caissa_movegen::{Move, MovesTo, Position};
    ///
    /// let pos = Position::standard();
    /// let knight = pos.moves_to(Role::Knight, Bitboard::FULL, Square::F3, None);
    /// assert_eq!(knight, MovesTo::One(Move::normal(Square::G1, Square::F3)));
    /// // The pawn on the e file: a push, not a capture.
    /// let pawn = pos.moves_to(Role::Pawn, Bitboard::from_file(File::E), Square::E4, None);
    /// assert_eq!(pawn, MovesTo::One(Move::normal(Square::E2, Square::E4)));
    /// assert_eq!(pos.moves_to(Role::Bishop, Bitboard::FULL, Square::E3, None), MovesTo::None);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn moves_to(
        &self,
        role: Role,
        from: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> MovesTo {
        let pieces = self.reaching(role, to) & from;
        if let Some(square) = pieces.single_square()
            && let Some(m) = self.unhindered_move(role, square, to, promotion)
        {
            return MovesTo::One(m);
        }
        self.moves_to_by_attacks_or_generator(role, pieces, to, promotion)
    }

    /// [`Position::moves_to`] once the shortcut for a single piece does not settle it: the one
    /// slider of several that attacks `to` through the pieces in between, else the generator.
    /// `pieces` are those of `from` that [`Position::reaching`] gave.
    #[inline(never)]
    fn moves_to_by_attacks_or_generator(
        &self,
        role: Role,
        pieces: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> MovesTo {
        if pieces.more_than_one() && role != Role::Pawn {
            // Every move of a piece onto `to` is an attack on it (a pawn's push is not).
            let attackers = self.attackers_to(to, self.turn, self.board.occupied()) & pieces;
            if let Some(square) = attackers.single_square()
                && let Some(m) = self.unhindered_move(role, square, to, promotion)
            {
                return MovesTo::One(m);
            }
        }
        let mut found = Candidates::new();
        self.for_each_legal_move_between(pieces, to.into(), |m| {
            // Castling onto a rook on `to` is not a move of `role` to `to`.
            if !m.is_castle() && m.promotion_role() == promotion {
                found.push(m);
            }
        });
        match found.as_slice() {
            [] => MovesTo::None,
            [m] => MovesTo::One(*m),
            _ => MovesTo::Ambiguous(found),
        }
    }

    /// The squares of the side to move's pieces of `role` that might move to `to` in one move
    /// by their way of moving: pawns that push to it (two squares only from their second rank)
    /// or take on it ([`PAWN_SOURCES`]), and
    /// bishops, rooks and queens on a line to it, even if something stands between.
    #[inline(always)]
    fn reaching(&self, role: Role, to: Square) -> Bitboard {
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_piece(role.of(us));
        match role {
            Role::Pawn => PAWN_SOURCES[us.index()][to.index()] & ours,
            Role::King => attacks::king(to) & ours,
            _ => {
                // The other pieces without a branch on the role, which a game makes hard to
                // predict: every way of reaching `to`, each kept for the pieces that move that
                // way, then only `role`'s. Sliders by their lines on an empty board, which is
                // cheaper than their attacks.
                let knights = attacks::knight(to) & board.knights();
                let diagonal = attacks::bishop_rays(to) & board.diagonal_sliders();
                let straight = attacks::rook_rays(to) & board.straight_sliders();
                (knights | diagonal | straight) & ours
            }
        }
    }

    /// The move of the `role` on `from` to `to` (a square that `from` reaches by
    /// [`Position::reaching`]), when it is legal for plain reasons, which covers nearly every
    /// move of a game:
    ///
    /// - the destination does not hold one of our pieces;
    /// - the king steps to a square that no enemy piece attacks once the king has left its own;
    /// - another piece is not pinned or stays on the line of its pin, and in check it takes the
    ///   checker or blocks its line;
    /// - nothing stands between a bishop, rook or queen and the destination;
    /// - a pawn pushes onto an empty square (crossing an empty one from its second rank, for a
    ///   double push) or takes an enemy piece, and promotes exactly when it reaches the last
    ///   rank.
    ///
    /// `None` means only that the shortcut does not apply (en passant, a pinned piece leaving
    /// its line, double check, a blocked slider, an illegal move): the generator decides.
    #[inline(always)]
    fn unhindered_move(
        &self,
        role: Role,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<Move> {
        let us = self.turn;
        let board = &self.board;
        let occupied = board.occupied();
        if board.by_color(us).contains(to) {
            return None;
        }
        if role == Role::King {
            let safe = self
                .attackers_to(to, !us, occupied.without(from))
                .is_empty();
            return (safe && promotion.is_none()).then_some(Move::normal(from, to));
        }
        if self.pinned.contains(from) && !attacks::aligned(self.king(us), from, to) {
            return None;
        }
        if let Some(checker) = self.checkers.first() {
            let blocks = attacks::between(self.king(us), checker).with(checker);
            if self.checkers.more_than_one() || !blocks.contains(to) {
                return None;
            }
        }
        if role != Role::Pawn {
            // `reaching` does not look at what stands between a slider and `to`.
            let clear = !attacks::between(from, to).intersects(occupied);
            return (clear && promotion.is_none()).then_some(Move::normal(from, to));
        }
        let free = if from.file() == to.file() {
            // `reaching` gives the square behind `to`, and the one behind that for a double push
            // onto the fourth rank.
            let crossed = Bitboard::from_square(to).forward(!us);
            let double = !crossed.contains(from);
            !(occupied.contains(to) || double && occupied.intersects(crossed))
        } else {
            board.by_color(!us).contains(to)
        };
        let last_rank = to.rank() == Rank::back_rank(!us);
        match promotion {
            None if free && !last_rank => Some(Move::normal(from, to)),
            Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                if free && last_rank =>
            {
                Some(Move::promotion(from, to, role))
            }
            _ => None,
        }
    }
}

/// By colour and destination, the squares from which a pawn of that colour may move there in
/// one move, on an empty board: one square behind, two behind for a double push onto its fourth
/// rank, and diagonally behind for a capture. One load instead of a test of the written origin's
/// file and two shifts by colour.
static PAWN_SOURCES: [[Bitboard; 64]; 2] = [pawn_sources(Color::White), pawn_sources(Color::Black)];

const fn pawn_sources(color: Color) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    // The rank a pawn of `color` moves from, seen from the rank it moves to.
    let back: i32 = match color {
        Color::White => -1,
        Color::Black => 1,
    };
    let mut to = 0;
    while to < 64 {
        let (file, rank) = ((to % 8) as i32, (to / 8) as i32);
        let from_rank = rank + back;
        let mut sources = 0_u64;
        // Pawns stand on the second to seventh ranks.
        if from_rank >= 1 && from_rank <= 6 {
            let row = from_rank * 8;
            sources |= 1 << (row + file);
            if file > 0 {
                sources |= 1 << (row + file - 1);
            }
            if file < 7 {
                sources |= 1 << (row + file + 1);
            }
        }
        let fourth_rank = match color {
            Color::White => 3,
            Color::Black => 4,
        };
        if rank == fourth_rank {
            sources |= 1 << ((rank + 2 * back) * 8 + file);
        }
        table[to] = Bitboard(sources);
        to += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::test_positions;

    #[test]
    fn pawn_sources_are_pushes_double_pushes_and_captures() {
        let white = |to: Square| PAWN_SOURCES[Color::White.index()][to.index()];
        let black = |to: Square| PAWN_SOURCES[Color::Black.index()][to.index()];
        let squares = |list: &[Square]| list.iter().fold(Bitboard::EMPTY, |b, &sq| b.with(sq));
        use Square::*;
        assert_eq!(white(E4), squares(&[D3, E3, F3, E2]));
        assert_eq!(white(E3), squares(&[D2, E2, F2]));
        assert_eq!(white(A8), squares(&[A7, B7]));
        assert_eq!(white(H5), squares(&[G4, H4]));
        assert_eq!(white(E2), Bitboard::EMPTY);
        assert_eq!(black(E5), squares(&[D6, E6, F6, E7]));
        assert_eq!(black(H1), squares(&[G2, H2]));
        assert_eq!(black(C7), Bitboard::EMPTY);
        for color in Color::ALL {
            for to in Square::ALL {
                let table = PAWN_SOURCES[color.index()][to.index()];
                assert!(
                    attacks::pawn(!color, to) - Bitboard::BACK_RANKS - table == Bitboard::EMPTY
                );
            }
        }
    }

    #[test]
    fn unhindered_moves_are_the_generators_and_most_moves() {
        let (mut shortcuts, mut legal) = (0, 0);
        for pos in test_positions() {
            pos.for_each_legal_move(|m| {
                if m.is_castle() {
                    return;
                }
                legal += 1;
                let role = pos.moving_role(m);
                assert!(pos.reaching(role, m.to()).contains(m.from()), "{m:?}");
                if let Some(found) = pos.unhindered_move(role, m.from(), m.to(), m.promotion_role())
                {
                    assert_eq!(found, m);
                    shortcuts += 1;
                }
            });
            // The shortcut never builds an illegal move.
            for from in pos.board().by_color(pos.turn()) {
                let role = pos.board().role_at(from).expect("a piece");
                for to in Square::ALL {
                    if !pos.reaching(role, to).contains(from) {
                        continue;
                    }
                    for promotion in [None, Some(Role::Queen), Some(Role::King)] {
                        if let Some(m) = pos.unhindered_move(role, from, to, promotion) {
                            assert!(pos.is_legal(m), "{m:?} in {pos:?}");
                        }
                    }
                }
            }
        }
        // The shortcut covers most legal moves: it is worth having.
        assert!(shortcuts * 10 > legal * 8, "{shortcuts} of {legal}");
    }
}
