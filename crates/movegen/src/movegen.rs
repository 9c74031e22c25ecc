//! Legal move generation.
//!
//! Moves are produced fully legal, without playing them: the generator knows the checkers and
//! the pinned pieces of the side to move (kept up to date by make-move) and restricts targets
//! accordingly.
//!
//! - Double check: only king moves.
//! - Single check: other pieces may only capture the checker or block its line (the check mask).
//! - A pinned piece moves only along the line between its king and the pinner.
//! - King moves are tested against enemy attacks with the king lifted off the board, so a king
//!   cannot step back along a checking slider's ray.
//! - En passant is tested by rebuilding the occupancy and asking whether a slider now sees the
//!   king; that covers the pawn pinned together with the captured pawn along a rank.
//! - Castling (standard and Chess960 alike) needs the squares between king and destination and
//!   between rook and destination empty (except for the two castling pieces), and every square
//!   the king stands on or crosses unattacked with both castling pieces lifted off the board.
//!
//! The generator reports moves to a [`MoveSink`] in groups: a piece with its target set, pawns
//! that all move by the same step, and single special moves. A counting sink only adds
//! popcounts, which makes bulk-counting perft cheap; other sinks expand the groups into moves.

use caissa_board::{Bitboard, CastlingSide, Color, Rank, Role, Square};

use crate::attacks;
use crate::moves::Move;
use crate::position::Position;

/// Receives generated moves, group by group.
pub(crate) trait MoveSink {
    /// The piece on `from` (not a pawn) may move to each of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// A pawn may move to each of `targets`, from the square `from_offset` away from it; a target
    /// on a back rank stands for the four promotions.
    fn pawns(&mut self, targets: Bitboard, from_offset: i8);
    /// One en passant or castling move.
    fn special(&mut self, m: Move);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub(crate) u64);

impl MoveSink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _from_offset: i8) {
        let promotions = targets & Bitboard::BACK_RANKS;
        self.0 += u64::from(targets.count() + 3 * promotions.count());
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Expands groups into single moves for a callback.
pub(crate) struct Expand<F>(pub(crate) F);

impl<F: FnMut(Move)> MoveSink for Expand<F> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            (self.0)(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, from_offset: i8) {
        for to in targets {
            let from = Square::new_wrapping((to.index() as i32 + i32::from(from_offset)) as u32);
            if Bitboard::BACK_RANKS.contains(to) {
                for role in Role::PROMOTIONS {
                    (self.0)(Move::promotion(from, to, role));
                }
            } else {
                (self.0)(Move::normal(from, to));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        (self.0)(m);
    }
}

impl Position {
    /// Calls `f` with every legal move.
    #[inline]
    pub fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        self.generate(Bitboard::FULL, &mut Expand(f));
    }

    /// Calls `f` with every legal move of the pieces standing on `from`.
    #[inline]
    pub fn for_each_legal_move_from(&self, from: Bitboard, f: impl FnMut(Move)) {
        self.generate(from, &mut Expand(f));
    }

    /// The number of legal moves, counted without listing them.
    #[inline(always)]
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(Bitboard::FULL, &mut counter);
        counter.0
    }

    /// Generates the legal moves of the pieces on `from_mask` into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(&self, from_mask: Bitboard, sink: &mut S) {
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        let king = self.king(us);

        if from_mask.contains(king) {
            let mut targets = Bitboard::EMPTY;
            let without_king = occupied.without(king);
            for to in attacks::king(king) - ours {
                if self.attackers_to(to, !us, without_king).is_empty() {
                    targets = targets.with(to);
                }
            }
            sink.piece(king, targets);
        }

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let target_mask = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        };
        let movable = ours & from_mask;
        let pinned = self.pinned;

        for from in board.knights() & (movable - pinned) {
            sink.piece(from, attacks::knight(from) & target_mask);
        }
        for from in board.diagonal_sliders() & movable {
            let mut targets = attacks::bishop(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(from, targets);
        }
        for from in board.straight_sliders() & movable {
            let mut targets = attacks::rook(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(from, targets);
        }

        let pawns = board.pawns() & movable;
        if pawns.any() {
            self.generate_pawn_moves(pawns, king, target_mask, sink);
        }
        if let Some(ep) = self.ep_square
            && !(attacks::pawn(!us, ep) & pawns).is_empty()
        {
            self.en_passant_moves_from(ep, pawns, &mut |m| sink.special(m));
        }
        if checkers.is_empty() && from_mask.contains(king) && self.castling_rights.has_any(us) {
            for side in CastlingSide::ALL {
                if let Some(m) = self.castling_move(side) {
                    sink.special(m);
                }
            }
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<S: MoveSink>(
        &self,
        pawns: Bitboard,
        king: Square,
        target_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let empty = !self.board.occupied();
        let theirs = self.board.by_color(!us);
        let third_rank = Bitboard::from_rank(Rank::Third.relative_to(us));
        // Offsets from a target back to its pawn.
        let (push, left, right): (i8, i8, i8) = match us {
            Color::White => (-8, -7, -9),
            Color::Black => (8, 9, 7),
        };
        let not_a = !Bitboard::from_file(caissa_board::File::A);
        let not_h = !Bitboard::from_file(caissa_board::File::H);

        let free = pawns - self.pinned;
        let single = free.forward(us) & empty;
        let double = (single & third_rank).forward(us) & empty;
        sink.pawns(single & target_mask, push);
        sink.pawns(double & target_mask, 2 * push);
        // "Left" captures go towards the a file, "right" towards the h file.
        let (towards_a, towards_h) = match us {
            Color::White => (
                Bitboard((free & not_a).0 << 7),
                Bitboard((free & not_h).0 << 9),
            ),
            Color::Black => (
                Bitboard((free & not_a).0 >> 9),
                Bitboard((free & not_h).0 >> 7),
            ),
        };
        sink.pawns(towards_a & theirs & target_mask, left);
        sink.pawns(towards_h & theirs & target_mask, right);

        for from in pawns & self.pinned {
            let allowed = attacks::line(king, from) & target_mask;
            let pawn = Bitboard::from_square(from);
            let single = pawn.forward(us) & empty;
            let double = (single & third_rank).forward(us) & empty;
            sink.pawns(single & allowed, push);
            sink.pawns(double & allowed, 2 * push);
            for to in attacks::pawn(us, from) & theirs & allowed {
                sink.pawns(
                    Bitboard::from_square(to),
                    (from.index() as i32 - to.index() as i32) as i8,
                );
            }
        }
    }

    /// Calls `f` with each legal en passant capture onto `ep`.
    pub(crate) fn en_passant_moves(&self, ep: Square, f: &mut impl FnMut(Move)) {
        let pawns = self.board.by_piece(Role::Pawn.of(self.turn));
        self.en_passant_moves_from(ep, pawns, f);
    }

    fn en_passant_moves_from(&self, ep: Square, pawns: Bitboard, f: &mut impl FnMut(Move)) {
        let us = self.turn;
        let king = self.king(us);
        let captured = Square::new_wrapping((ep.index() as i32 + us.fold(-8, 8)) as u32);
        if self.checkers.more_than_one() {
            return;
        }
        if let Some(checker) = self.checkers.first()
            && checker != captured
            && !attacks::between(king, checker).contains(ep)
        {
            return;
        }
        let board = &self.board;
        let their_straight = board.straight_sliders() & board.by_color(!us);
        let their_diagonal = board.diagonal_sliders() & board.by_color(!us);
        for from in attacks::pawn(!us, ep) & pawns {
            let occupied = (board.occupied() ^ from ^ captured) | ep;
            let exposed = (attacks::rook(king, occupied) & their_straight)
                | (attacks::bishop(king, occupied) & their_diagonal);
            if exposed.is_empty() {
                f(Move::en_passant(from, ep));
            }
        }
    }

    /// The castling move on `side`, if the side to move holds the right and may castle now.
    fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let us = self.turn;
        let rook_file = self.castling_rights.rook(us, side)?;
        let back_rank = Rank::back_rank(us);
        let king = self.king(us);
        let rook = Square::from_coords(rook_file, back_rank);
        let king_to = Square::from_coords(side.king_to_file(), back_rank);
        let rook_to = Square::from_coords(side.rook_to_file(), back_rank);
        let castlers = Bitboard::from_square(king) | rook;
        let king_path = attacks::between(king, king_to).with(king_to);
        let must_be_empty = (king_path | attacks::between(rook, rook_to).with(rook_to)) - castlers;
        let occupied = self.board.occupied();
        if occupied.intersects(must_be_empty) {
            return None;
        }
        let lifted = occupied - castlers;
        king_path
            .into_iter()
            .all(|sq| self.attackers_to(sq, !us, lifted).is_empty())
            .then(|| Move::castle(king, rook))
    }
}
