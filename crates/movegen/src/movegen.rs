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
//! A sink that looks for one move (whether there is any, the first that suits a caller) stops
//! the generator after the group that gave it; for the others that test is compiled away.

use core::cell::Cell;

use caissa_board::{Bitboard, CastlingSide, Color, File, Rank, Role, Square};

use crate::attacks;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Receives generated moves, group by group.
pub(crate) trait MoveSink {
    /// Whether the generator asks [`MoveSink::satisfied`] between groups, to stop early: `false`
    /// for the sinks that take every move, where the test is compiled away.
    const MAY_STOP: bool = false;
    /// Whether the sink needs no more moves (asked only when [`MoveSink::MAY_STOP`]).
    fn satisfied(&self) -> bool {
        false
    }
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

/// Tells whether there is a move, stopping at the first group that holds one (a count would take
/// a popcount a group: a dozen instructions in a portable build).
pub(crate) struct AnyMove(pub(crate) bool);

impl MoveSink for AnyMove {
    const MAY_STOP: bool = true;
    #[inline(always)]
    fn satisfied(&self) -> bool {
        self.0
    }
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _from_offset: i8) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 = true;
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

/// [`Expand`] that stops the generator once `found` holds a move (at the end of that group).
struct ExpandUntil<'a, F> {
    expand: Expand<F>,
    found: &'a Cell<Option<Move>>,
}

impl<F: FnMut(Move)> MoveSink for ExpandUntil<'_, F> {
    const MAY_STOP: bool = true;
    #[inline(always)]
    fn satisfied(&self) -> bool {
        self.found.get().is_some()
    }
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.expand.piece(from, targets);
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, from_offset: i8) {
        self.expand.pawns(targets, from_offset);
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.expand.special(m);
    }
}

impl Position {
    /// The squares the pawn of the side to move on `from` can move to by a legal move: its
    /// pushes and captures (a square on the last rank stands for the four promotions) and, when
    /// that capture is legal, the en passant square. Empty if no pawn of the side to move
    /// stands on `from`.
    ///
    /// The moves [`Position::for_each_legal_move_from`] gives for that square, as one bitboard
    /// and without the generator's set-up for every kind of piece: a search that tries one
    /// pawn's moves at a time asks this at nearly every node.
    #[must_use]
    pub fn pawn_targets(&self, from: Square) -> Bitboard {
        let us = self.turn;
        let board = &self.board;
        if !(board.pawns() & board.by_color(us)).contains(from) || self.checkers.more_than_one() {
            return Bitboard::EMPTY;
        }
        let mut targets = self.pawn_reach(from) & self.allowed_targets(from);
        if let Some(ep) = self.ep_square
            && attacks::pawn(us, from).contains(ep)
        {
            let mut legal = false;
            self.en_passant_moves_from(ep, Bitboard::from_square(from), &mut |_| legal = true);
            if legal {
                targets = targets.with(ep);
            }
        }
        targets
    }

    /// The squares the pawn of the side to move on `from` attacks with a man of the opponent
    /// on them, and those it can push to (one square, or two from its second rank), before
    /// pins and checks.
    #[inline]
    pub(crate) fn pawn_reach(&self, from: Square) -> Bitboard {
        let us = self.turn;
        let occupied = self.board.occupied();
        let push = Bitboard::from_square(from).forward(us) - occupied;
        let double =
            (push & Bitboard::from_rank(Rank::Third.relative_to(us))).forward(us) - occupied;
        push | double | (attacks::pawn(us, from) & self.board.by_color(!us))
    }

    /// Where the pins and checks of the side to move let its man on `from`, not its king, move
    /// (en passant aside): anywhere, or only along the line from its king when it is pinned;
    /// with one checker, only onto the checker or between it and the king; with two, nowhere.
    #[inline]
    pub(crate) fn allowed_targets(&self, from: Square) -> Bitboard {
        let king = self.king(self.turn);
        let mut allowed = match self.checkers.first() {
            None => Bitboard::FULL,
            Some(_) if self.checkers.more_than_one() => return Bitboard::EMPTY,
            Some(checker) => attacks::between(king, checker).with(checker),
        };
        if self.pinned.contains(from) {
            allowed &= attacks::line(king, from);
        }
        allowed
    }

    /// Calls `f` with every legal move.
    #[inline]
    pub fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        self.generate(Bitboard::FULL, Bitboard::FULL, &mut Expand(f));
    }

    /// Calls `f` with every pseudo-legal move: each man moving as it moves, whether or not
    /// that leaves its own king attacked (a pinned man's moves off its line, a king's steps
    /// into check, moves that ignore a check); pawns push, take, take en passant onto the
    /// [`Position::pseudo_legal_ep_square`] and promote to the four roles; castling only where
    /// it is legal, as python-chess's pseudo-legal moves have it. The legal moves are among
    /// them. Not used by the legal generator; no allocation.
    ///
    /// ```
    /// use caissa_movegen::fen::Fen;
    /// use caissa_movegen::{CastlingMode, Move, Square};
    ///
    /// // The knight on d2 is pinned: its six moves are pseudo-legal, not legal.
    /// let fen: Fen = "3rk3/8/8/8/8/8/3N4/3K4 w - - 0 1".parse()?;
    /// let pos = fen.into_position(CastlingMode::Standard)?;
    /// let mut moves = Vec::new();
    /// pos.for_each_pseudo_legal_move(|m| moves.push(m));
    /// assert!(moves.contains(&Move::normal(Square::D2, Square::B3)));
    /// assert!(moves.contains(&Move::normal(Square::D1, Square::E1)));
    /// assert_eq!((moves.len(), pos.legal_moves().len()), (10, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_pseudo_legal_move(&self, f: impl FnMut(Move)) {
        let mut sink = Expand(f);
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        for from in ours - board.pawns() {
            let targets = match board.role_at(from) {
                Some(Role::Knight) => attacks::knight(from),
                Some(Role::Bishop) => attacks::bishop(from, occupied),
                Some(Role::Rook) => attacks::rook(from, occupied),
                Some(Role::Queen) => attacks::queen(from, occupied),
                _ => attacks::king(from),
            };
            sink.piece(from, targets - ours);
        }
        let pawns = board.pawns() & ours;
        let empty = !occupied;
        let push: i8 = us.fold(-8, 8);
        let single = pawns.forward(us) & empty;
        let double =
            (single & Bitboard::from_rank(Rank::Third.relative_to(us))).forward(us) & empty;
        sink.pawns(single, push);
        sink.pawns(double, 2 * push);
        for from in pawns {
            for to in attacks::pawn(us, from) & board.by_color(!us) {
                sink.pawns(
                    Bitboard::from_square(to),
                    (from.index() as i32 - to.index() as i32) as i8,
                );
            }
        }
        if let Some(ep) = self.pseudo_legal_ep_square() {
            for from in attacks::pawn(!us, ep) & pawns {
                sink.special(Move::en_passant(from, ep));
            }
        }
        for side in CastlingSide::ALL {
            if let Some(m) = self.castling_move(side) {
                sink.special(m);
            }
        }
    }

    /// Calls `f` with every legal move of the pieces standing on `from`.
    #[inline]
    pub fn for_each_legal_move_from(&self, from: Bitboard, f: impl FnMut(Move)) {
        self.generate(from, Bitboard::FULL, &mut Expand(f));
    }

    /// The first legal move of the pieces standing on `from`, in the order of
    /// [`Position::for_each_legal_move_from`], that `accept` takes. The generator stops once a
    /// piece has given it: cheaper than going through every move when the first suit.
    ///
    /// ```
    /// use caissa_movegen::{Bitboard, Move, Position, Square};
    ///
    /// let pos = Position::standard();
    /// let knights = Bitboard::from_square(Square::B1) | Bitboard::from_square(Square::G1);
    /// let to_the_right = pos.find_legal_move_from(knights, |m| m.to().file() > m.from().file());
    /// assert_eq!(to_the_right, Some(Move::normal(Square::B1, Square::C3)));
    /// assert_eq!(pos.find_legal_move_from(knights, |m| m.to() == Square::E2), None);
    /// ```
    #[inline]
    pub fn find_legal_move_from(
        &self,
        from: Bitboard,
        mut accept: impl FnMut(Move) -> bool,
    ) -> Option<Move> {
        let found = Cell::new(None);
        let offer = |m| {
            if found.get().is_none() && accept(m) {
                found.set(Some(m));
            }
        };
        let mut sink = ExpandUntil {
            expand: Expand(offer),
            found: &found,
        };
        self.generate(from, Bitboard::FULL, &mut sink);
        found.get()
    }

    /// Calls `f` with every legal move of the pieces standing on `from` whose [`Move::to`] is in
    /// `to` (for castling, `to` is the rook's square). Cheaper than filtering all moves: the
    /// generator never builds the others.
    #[inline]
    pub fn for_each_legal_move_between(&self, from: Bitboard, to: Bitboard, f: impl FnMut(Move)) {
        self.generate(from, to, &mut Expand(f));
    }

    /// Calls `f` with every legal capture: en passant included, castling (a king "taking" its
    /// own rook) not.
    #[inline]
    pub fn for_each_capture(&self, mut f: impl FnMut(Move)) {
        // The en passant square is empty: as a target it would let any piece "capture" there.
        let victims = self.board.by_color(!self.turn);
        self.generate(Bitboard::FULL, victims, &mut Expand(&mut f));
        if let Some(ep) = self.ep_square {
            self.en_passant_moves(ep, &mut f);
        }
    }

    /// The legal captures (see [`Position::for_each_capture`]).
    ///
    /// ```
    /// use caissa_movegen::{Move, Position, Square};
    ///
    /// // Black just played d7d5: exd6 en passant is one of the two captures.
    /// let pos: Position = "4k3/8/8/2pPp3/8/8/8/4K3 w - e6 0 1".parse()?;
    /// assert_eq!(pos.capture_moves().as_slice(), [Move::en_passant(Square::D5, Square::E6)]);
    /// # Ok::<(), caissa_movegen::ParsePositionError>(())
    /// ```
    #[must_use]
    pub fn capture_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_capture(|m| list.push(m));
        list
    }

    /// The number of legal moves, counted without listing them (perft at depth 1).
    #[doc(alias = "perft")]
    #[inline(always)]
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(Bitboard::FULL, Bitboard::FULL, &mut counter);
        counter.0
    }

    /// Generates the legal moves of the pieces on `from_mask` to squares of `to_mask` into
    /// `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: MoveSink>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let board = &self.board;
        let ours = board.by_color(us);
        let occupied = board.occupied();
        let king = self.king(us);

        // Squares the opponent's pawns, knights and king attack, whatever the occupancy.
        let leaper_danger = if from_mask.contains(king) {
            self.leaper_attacks(!us)
        } else {
            Bitboard::EMPTY
        };
        if from_mask.contains(king) {
            let mut targets = Bitboard::EMPTY;
            let without_king = occupied.without(king);
            for to in (attacks::king(king) & to_mask) - ours - leaper_danger {
                if !self.slider_attacks(to, without_king) {
                    targets = targets.with(to);
                }
            }
            sink.piece(king, targets);
            if S::MAY_STOP && sink.satisfied() {
                return;
            }
        }

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let target_mask = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        } & to_mask;
        let movable = ours & from_mask;
        let pinned = self.pinned;

        for from in board.knights() & (movable - pinned) {
            sink.piece(from, attacks::knight(from) & target_mask);
            if S::MAY_STOP && sink.satisfied() {
                return;
            }
        }
        for from in board.diagonal_sliders() & movable {
            let mut targets = attacks::bishop(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(from, targets);
            if S::MAY_STOP && sink.satisfied() {
                return;
            }
        }
        for from in board.straight_sliders() & movable {
            let mut targets = attacks::rook(from, occupied) & target_mask;
            if pinned.contains(from) {
                targets &= attacks::line(king, from);
            }
            sink.piece(from, targets);
            if S::MAY_STOP && sink.satisfied() {
                return;
            }
        }

        let pawns = board.pawns() & movable;
        if pawns.any() {
            self.generate_pawn_moves(pawns, king, target_mask, sink);
            if S::MAY_STOP && sink.satisfied() {
                return;
            }
        }
        if let Some(ep) = self.ep_square
            && to_mask.contains(ep)
            && !(attacks::pawn(!us, ep) & pawns).is_empty()
        {
            self.en_passant_moves_from(ep, pawns, &mut |m| sink.special(m));
        }
        if checkers.is_empty() && from_mask.contains(king) && self.castling_rights.has_any(us) {
            for side in CastlingSide::ALL {
                if let Some(m) = self.castling_move_avoiding(side, king, leaper_danger)
                    && to_mask.contains(m.to())
                {
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
        let not_a = !Bitboard::from_file(File::A);
        let not_h = !Bitboard::from_file(File::H);

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

    /// The squares `color`'s pawns, knights and king attack.
    #[inline(always)]
    fn leaper_attacks(&self, color: Color) -> Bitboard {
        let board = &self.board;
        let theirs = board.by_color(color);
        let pawns = (board.pawns() & theirs).forward(color);
        let not_a = !Bitboard::from_file(File::A);
        let not_h = !Bitboard::from_file(File::H);
        let mut danger = Bitboard(((pawns & not_h).0 << 1) | ((pawns & not_a).0 >> 1));
        for knight in board.knights() & theirs {
            danger |= attacks::knight(knight);
        }
        if let Some(king) = (board.kings() & theirs).first() {
            danger |= attacks::king(king);
        }
        danger
    }

    /// Whether an opposing rook, bishop or queen attacks `sq` through `occupied`.
    #[inline(always)]
    fn slider_attacks(&self, sq: Square, occupied: Bitboard) -> bool {
        let board = &self.board;
        let theirs = board.by_color(!self.turn);
        (attacks::bishop(sq, occupied) & board.diagonal_sliders() & theirs).any()
            || (attacks::rook(sq, occupied) & board.straight_sliders() & theirs).any()
    }

    /// The legal castling move on `side`, if the side to move holds the right and may castle
    /// now. Cheaper than asking the move generator: only the squares castling needs are
    /// looked at.
    ///
    /// ```
    /// use caissa_board::CastlingSide;
    /// use caissa_movegen::Position;
    ///
    /// let pos = Position::standard();
    /// assert_eq!(pos.castling_move(CastlingSide::KingSide), None);
    /// ```
    #[must_use]
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        if self.checkers.any() {
            return None;
        }
        let king = self.king(self.turn);
        self.castling_move_avoiding(side, king, self.leaper_attacks(!self.turn))
    }

    /// The castling move on `side` when not in check, if the side to move holds the right and
    /// may castle now. `leaper_danger` is what the opponent's pawns, knights and king attack.
    #[inline(always)]
    fn castling_move_avoiding(
        &self,
        side: CastlingSide,
        king: Square,
        leaper_danger: Bitboard,
    ) -> Option<Move> {
        let us = self.turn;
        let rook_file = self.castling_rights.rook(us, side)?;
        let paths = &CASTLING_PATHS[side as usize][king.file().index()][rook_file.index()];
        let rank_shift = us.fold(0, 56);
        let must_be_empty = Bitboard(paths.must_be_empty << rank_shift);
        let king_path = Bitboard(paths.king_path << rank_shift);
        let occupied = self.board.occupied();
        if occupied.intersects(must_be_empty) || king_path.intersects(leaper_danger) {
            return None;
        }
        let rook = Square::from_coords(rook_file, king.rank());
        let lifted = occupied.without(king).without(rook);
        king_path
            .into_iter()
            .all(|sq| !self.slider_attacks(sq, lifted))
            .then(|| Move::castle(king, rook))
    }
}

/// The squares castling needs, on the first rank, for a king and a rook on given files.
#[derive(Clone, Copy)]
struct CastlingPaths {
    /// Squares that must be empty, apart from the king and the rook themselves.
    must_be_empty: u64,
    /// Squares the king crosses or lands on, which must not be attacked.
    king_path: u64,
}

/// The first-rank squares from file `a` to file `b`, both included.
const fn span(a: usize, b: usize) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    ((1u64 << (high + 1)) - 1) & !((1u64 << low) - 1)
}

const fn castling_paths() -> [[[CastlingPaths; 8]; 8]; 2] {
    const NONE: CastlingPaths = CastlingPaths {
        must_be_empty: 0,
        king_path: 0,
    };
    let mut table = [[[NONE; 8]; 8]; 2];
    let mut side = 0;
    while side < 2 {
        let (king_to, rook_to) = if side == 0 { (6, 5) } else { (2, 3) };
        let mut king = 0;
        while king < 8 {
            let mut rook = 0;
            while rook < 8 {
                let castlers = 1u64 << king | 1u64 << rook;
                table[side][king][rook] = CastlingPaths {
                    must_be_empty: (span(king, king_to) | span(rook, rook_to)) & !castlers,
                    king_path: span(king, king_to) & !(1u64 << king) | 1u64 << king_to,
                };
                rook += 1;
            }
            king += 1;
        }
        side += 1;
    }
    table
}

/// Castling squares by side (king side first), king file and rook file.
static CASTLING_PATHS: [[[CastlingPaths; 8]; 8]; 2] = castling_paths();

#[cfg(test)]
mod tests {
    use crate::testing::test_positions;
    use crate::{Move, Position, Square};

    /// The legal moves are the pseudo-legal moves that `is_legal` takes, and pseudo-legal
    /// moves are listed once each; in check or with pins there are more of them.
    #[test]
    fn legal_moves_are_the_legal_pseudo_legal_moves() {
        let mut more = 0;
        for pos in test_positions() {
            let mut pseudo = Vec::new();
            pos.for_each_pseudo_legal_move(|m| pseudo.push(m));
            let mut sorted = pseudo.clone();
            sorted.sort_by_key(|m| m.to_u16());
            sorted.dedup();
            assert_eq!(sorted.len(), pseudo.len(), "{pos}");
            let legal: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|&m| pos.is_legal(m))
                .collect();
            let mut expected = pos.legal_moves().as_slice().to_vec();
            expected.sort_by_key(|m| m.to_u16());
            let mut got = legal;
            got.sort_by_key(|m| m.to_u16());
            assert_eq!(got, expected, "{pos}");
            more += usize::from(pseudo.len() > expected.len());
        }
        assert!(more > 100, "{more}");
    }

    #[test]
    fn captures_are_the_legal_moves_that_capture() {
        let mut en_passant = 0;
        for pos in test_positions() {
            let mut expected = pos.legal_moves();
            expected.retain(|m| pos.is_capture(m));
            assert_eq!(pos.capture_moves(), expected, "{pos}");
            en_passant += expected.iter().filter(|m| m.is_en_passant()).count();
        }
        assert!(en_passant > 0, "the walk meets en passant captures");
        // The capture of the pawn that gives check, en passant.
        let pos: Position = "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1".parse().unwrap();
        assert!(
            pos.capture_moves()
                .contains(&Move::en_passant(Square::E4, Square::D3))
        );
    }

    #[test]
    fn find_legal_move_from_is_the_first_the_generator_gives() {
        let tests: [fn(&Position, Move) -> bool; 5] = [
            |_, _| true,
            |_, _| false,
            |pos, m| pos.is_capture(m),
            |_, m| m.is_promotion() || m.is_castle() || m.is_en_passant(),
            |_, m| m.to().file() == m.from().file(),
        ];
        let mut found = 0;
        for pos in test_positions() {
            let ours = pos.board().by_color(pos.turn());
            for men in [ours, ours & pos.board().pawns(), ours - pos.board().pawns()] {
                for test in tests {
                    let mut all = Vec::new();
                    pos.for_each_legal_move_from(men, |m| all.push(m));
                    let first = all.into_iter().find(|&m| test(&pos, m));
                    assert_eq!(pos.find_legal_move_from(men, |m| test(&pos, m)), first);
                    found += usize::from(first.is_some());
                }
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn has_legal_moves_is_whether_any_is_counted() {
        for pos in test_positions() {
            let children = pos.legal_moves().into_iter().map(|m| pos.play(m).unwrap());
            for child in children.chain([pos]) {
                assert_eq!(
                    child.has_legal_moves(),
                    child.count_legal_moves() > 0,
                    "{child}"
                );
            }
        }
        // Checkmate and stalemate.
        for fen in [
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            assert!(pos.is_checkmate() || pos.is_stalemate(), "{fen}");
            assert!(!pos.has_legal_moves(), "{fen}");
        }
        // The only moves a king's steps; the only move an en passant capture.
        for fen in [
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            "8/8/8/8/3Pp3/4N1K1/5Q2/7k b - d3 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            assert!(pos.has_legal_moves(), "{fen}");
        }
    }

    #[test]
    fn gives_check_is_whether_the_reply_is_in_check() {
        for pos in test_positions() {
            for m in pos.legal_moves() {
                assert_eq!(pos.gives_check(m), pos.play(m).unwrap().is_check());
            }
        }
        let pos = Position::standard();
        assert!(!pos.gives_check(Move::normal(Square::E2, Square::E5)));
        assert!(!pos.gives_check(Move::normal(Square::E4, Square::E5)));
    }
}
