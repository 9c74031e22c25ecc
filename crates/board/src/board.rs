//! [`Board`]: where the pieces stand, and nothing else.

use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// A piece placement: which piece stands on which square.
///
/// A board knows nothing of legality: it may hold any number of kings, pawns on the back ranks,
/// or no pieces at all. [`Setup`](crate::Setup) adds the rest of a position's state and the
/// move generator's `Position` validates the whole.
///
/// Internally one bitboard per role and one per colour; every query is a few bit operations.
/// They are arrays indexed by [`Role::index`] and [`Color::index`] rather than named fields, so
/// that reaching the bitboard of a role known only at run time is an indexed load, not a jump
/// table (a make-move's role changes from move to move, and such jumps are mispredicted).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// The board with no pieces.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The standard starting placement.
    #[must_use]
    pub const fn standard() -> Board {
        Board {
            // Pawns, knights, bishops, rooks, queens, kings.
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            // White, black.
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// The Chess960 starting placement with Scharnagl number `number` (0 to 959; 518 is the
    /// standard placement), or `None` for a larger number.
    #[must_use]
    pub fn chess960(number: u32) -> Option<Board> {
        if number >= 960 {
            return None;
        }
        let mut back_rank: [Option<Role>; 8] = [None; 8];
        let mut n = number;
        // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
        back_rank[(n % 4 * 2 + 1) as usize] = Some(Role::Bishop);
        n /= 4;
        back_rank[(n % 4 * 2) as usize] = Some(Role::Bishop);
        n /= 4;
        let mut place_on_nth_free = |nth: u32, role: Role| {
            let file = (0..8)
                .filter(|&f| back_rank[f].is_none())
                .nth(nth as usize)
                .expect("a Scharnagl number leaves enough free files");
            back_rank[file] = Some(role);
        };
        place_on_nth_free(n % 6, Role::Queen);
        n /= 6;
        // The ten ways to place two knights on the five free files, in Scharnagl's order.
        const KNIGHTS: [(u32, u32); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (first, second) = KNIGHTS[n as usize];
        place_on_nth_free(second, Role::Knight);
        place_on_nth_free(first, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place_on_nth_free(0, role);
        }
        let mut board = Board::empty();
        for (file, role) in File::ALL.into_iter().zip(back_rank) {
            let role = role.expect("every file is filled");
            for color in Color::ALL {
                let rank = Rank::back_rank(color);
                board.set_piece_at(Square::from_coords(file, rank), role.of(color));
                let pawn_rank = Rank::Second.relative_to(color);
                board.set_piece_at(Square::from_coords(file, pawn_rank), Role::Pawn.of(color));
            }
        }
        Some(board)
    }

    /// All occupied squares.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        self.by_color[0].union(self.by_color[1])
    }

    /// The squares holding `color`'s pieces.
    #[inline]
    #[must_use]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares holding pieces of `role`, of either colour.
    #[inline]
    #[must_use]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares holding `piece`.
    #[inline]
    #[must_use]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role)
            .intersect(self.by_color(piece.color))
    }

    /// Pawns of both colours.
    #[inline]
    #[must_use]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn.index()]
    }

    /// Knights of both colours.
    #[inline]
    #[must_use]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight.index()]
    }

    /// Bishops of both colours.
    #[inline]
    #[must_use]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()]
    }

    /// Rooks of both colours.
    #[inline]
    #[must_use]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook.index()]
    }

    /// Queens of both colours.
    #[inline]
    #[must_use]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen.index()]
    }

    /// Kings of both colours.
    #[inline]
    #[must_use]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[Role::King.index()]
    }

    /// Bishops and queens: the pieces that move diagonally.
    #[inline]
    #[must_use]
    pub const fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()].union(self.by_role[Role::Queen.index()])
    }

    /// Rooks and queens: the pieces that move along ranks and files.
    #[inline]
    #[must_use]
    pub const fn straight_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook.index()].union(self.by_role[Role::Queen.index()])
    }

    /// `color`'s king, if it has exactly one.
    #[inline]
    #[must_use]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        self.by_role[Role::King.index()]
            .intersect(self.by_color(color))
            .single_square()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[Color::White.index()].contains(sq) {
            Some(Color::White)
        } else if self.by_color[Color::Black.index()].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            None
        } else if self.by_role[Role::Pawn.index()].contains(sq) {
            Some(Role::Pawn)
        } else if self.by_role[Role::Knight.index()].contains(sq) {
            Some(Role::Knight)
        } else if self.by_role[Role::Bishop.index()].contains(sq) {
            Some(Role::Bishop)
        } else if self.by_role[Role::Rook.index()].contains(sq) {
            Some(Role::Rook)
        } else if self.by_role[Role::Queen.index()].contains(sq) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        match (self.color_at(sq), self.role_at(sq)) {
            (Some(color), Some(role)) => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// Removes whatever stands on `sq` and returns it.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle_piece(piece, sq);
        Some(piece)
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.toggle_piece(piece, sq);
    }

    /// Adds `piece` on `sq` if absent, removes it if present. The caller must know which: toggling
    /// a piece onto a square that holds another piece leaves the board inconsistent. This is the
    /// fast path that make-move uses.
    #[inline]
    pub fn toggle_piece(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bit;
        self.by_color[piece.color.index()] ^= bit;
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bits = Bitboard::from_square(from) | to;
        self.by_role[piece.role.index()] ^= bits;
        self.by_color[piece.color.index()] ^= bits;
    }

    /// Every piece with its square, from `a1` towards `h8`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(|sq| self.piece_at(sq).map(|piece| (sq, piece)))
    }

    /// How many pieces of `piece` stand on the board.
    #[must_use]
    pub const fn count(&self, piece: Piece) -> u32 {
        self.by_piece(piece).count()
    }

    /// The board mirrored top to bottom with colours exchanged: white's pieces become black's.
    #[must_use]
    pub fn flip_colors(&self) -> Board {
        let mut flipped = Board::empty();
        for (sq, piece) in self.pieces() {
            flipped.set_piece_at(
                sq.flip_vertical(),
                Piece {
                    color: !piece.color,
                    role: piece.role,
                },
            );
        }
        flipped
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::standard()
    }
}

impl core::fmt::Debug for Board {
    /// Draws the board, the eighth rank first, `.` for an empty square.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                let mark = self.piece_at(sq).map_or('.', Piece::char);
                let gap = if file == File::H { "\n" } else { " " };
                write!(f, "{mark}{gap}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_the_pieces_where_expected() {
        let board = Board::standard();
        assert_eq!(
            board.piece_at(Square::E1),
            Some(Role::King.of(Color::White))
        );
        assert_eq!(
            board.piece_at(Square::D8),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(board.piece_at(Square::E4), None);
        assert_eq!(board.occupied().count(), 32);
        assert_eq!(board.king_of(Color::Black), Some(Square::E8));
        assert_eq!(board.count(Role::Pawn.of(Color::White)), 8);
        assert_eq!(board.flip_colors(), board);
    }

    #[test]
    fn set_and_remove_pieces() {
        let mut board = Board::empty();
        board.set_piece_at(Square::E4, Role::Knight.of(Color::White));
        board.set_piece_at(Square::E4, Role::Rook.of(Color::Black));
        assert_eq!(
            board.piece_at(Square::E4),
            Some(Role::Rook.of(Color::Black))
        );
        assert_eq!(board.occupied().count(), 1);
        assert_eq!(
            board.remove_piece_at(Square::E4),
            Some(Role::Rook.of(Color::Black))
        );
        assert_eq!(board, Board::empty());
        board.set_piece_at(Square::A1, Role::King.of(Color::White));
        board.move_piece(Role::King.of(Color::White), Square::A1, Square::B2);
        assert_eq!(board.king_of(Color::White), Some(Square::B2));
    }

    #[test]
    fn chess960_numbering_follows_scharnagl() {
        assert_eq!(Board::chess960(518), Some(Board::standard()));
        let back_rank = |n: u32| -> String {
            let board = Board::chess960(n).unwrap();
            File::ALL
                .into_iter()
                .map(|f| {
                    board
                        .piece_at(Square::from_coords(f, Rank::First))
                        .unwrap()
                        .char()
                })
                .collect()
        };
        assert_eq!(back_rank(0), "BBQNNRKR");
        assert_eq!(back_rank(959), "RKRNNQBB");
        assert_eq!(Board::chess960(960), None);
        let distinct: std::collections::HashSet<String> = (0..960).map(back_rank).collect();
        assert_eq!(distinct.len(), 960);
    }
}
