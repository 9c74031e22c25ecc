//! [`Position`]: a validated position, its queries, and making moves.

use core::hash::{BuildHasherDefault, Hash, Hasher};
use core::num::NonZeroU32;

use caissa_board::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Setup, Square,
    zobrist,
};

use crate::attacks;
use crate::error::{IllegalMoveError, PositionError, SetupProblem};
use crate::moves::{Move, MoveList};

/// How castling rights are read and written: standard chess, or Chess960 (Fischer random).
///
/// Move generation is the same for both (castling is king-takes-rook internally); the mode
/// decides which castling rights a setup may hold (standard: king on the `e` file, rooks on `a`
/// and `h`) and how notation writes castling (`e1g1` or `e1h1`, `KQkq` or X-FEN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CastlingMode {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960: the king between its rooks anywhere on the back rank.
    Chess960,
}

/// A legal chess position: placement, side to move, castling rights, en passant, counters.
///
/// Built only by [`Position::from_setup`] (or [`Position::standard`]/[`Position::chess960`]),
/// which refuses setups that could not arise in a game, so every method may trust the position:
/// each side has one king, the side not to move is not in check, castling rights have their king
/// and rook in place.
///
/// Positions are small (`Copy`, about 100 bytes): make a move on a copy ("copy-make") rather than
/// undoing it.
///
/// **Equality and hashing** follow FIDE's "same position" (Article 9.2.2): the same side to move,
/// the same pieces on the same squares, the same castling rights, and the same en passant
/// possibility, where an en passant square counts only when a legal en passant capture exists.
/// Move counters do not count. [`Position::zobrist_hash`] follows the same rule.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling_rights: CastlingRights,
    pub(crate) mode: CastlingMode,
    /// Set after every double pawn push, whether or not a capture is possible.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to their king.
    pub(crate) pinned: Bitboard,
    /// Zobrist key without the en passant term (see `zobrist_hash`).
    pub(crate) key: u64,
}

/// What [`Position::from_setup_lenient`] dropped from a setup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Dropped {
    /// The castling rights dropped because their king or rook is not in place (or, in
    /// [`CastlingMode::Standard`], not on the standard files).
    pub castling_rights: CastlingRights,
    /// The en passant square dropped because no double push can have passed over it.
    pub ep_square: Option<Square>,
}

impl Dropped {
    /// Whether nothing was dropped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.castling_rights.is_empty() && self.ep_square.is_none()
    }

    /// Drops from `setup` the castling rights whose king or rook is not in place in `mode`
    /// and an en passant square that no double push can have passed over, as
    /// [`Position::from_setup_lenient`] does before validating; returns what was dropped.
    pub fn drop_from(setup: &mut Setup, mode: CastlingMode) -> Dropped {
        let mut dropped = Dropped::default();
        for (color, side, rook_file) in setup.castling_rights.iter() {
            if !castling_right_is_valid(&setup.board, color, side, rook_file, mode) {
                dropped.castling_rights.set(color, side, Some(rook_file));
            }
        }
        for (color, side, _) in dropped.castling_rights.iter() {
            setup.castling_rights.set(color, side, None);
        }
        if let Some(ep) = setup.ep_square
            && !ep_square_is_valid(&setup.board, setup.turn, ep)
        {
            dropped.ep_square = setup.ep_square.take();
        }
        dropped
    }
}

impl Position {
    /// The standard starting position.
    #[must_use]
    pub const fn standard() -> Position {
        // What `from_setup(Setup::standard(), CastlingMode::Standard)` builds (a test checks
        // it), written out: PGN readers ask for it at every game.
        Position {
            board: Board::standard(),
            turn: Color::White,
            castling_rights: CastlingRights::STANDARD,
            mode: CastlingMode::Standard,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            key: zobrist::STANDARD,
        }
    }

    /// The Chess960 starting position with Scharnagl number `number` (0 to 959), or `None` for a
    /// larger number.
    #[must_use]
    pub fn chess960(number: u32) -> Option<Position> {
        let setup = Setup::chess960(number)?;
        Position::from_setup(setup, CastlingMode::Chess960).ok()
    }

    /// Validates `setup` into a position.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] listing every problem found: a side without a king or with several,
    /// pawns on a back rank, castling rights whose king or rook is not in place (for
    /// [`CastlingMode::Standard`], also a king off the `e` file or a rook off `a`/`h`), an en
    /// passant square no double push can have passed over, the side not to move in check, and
    /// checks no legal move can have given.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let board = setup.board;
        let mut problems = PositionError::empty();
        let mut one_king_each = true;
        for color in Color::ALL {
            match board.by_piece(Role::King.of(color)).count() {
                1 => continue,
                0 => problems.push(SetupProblem::MissingKing(color)),
                n => problems.push(SetupProblem::TooManyKings(color, n as u8)),
            }
            one_king_each = false;
        }
        for sq in board.pawns() & Bitboard::BACK_RANKS {
            problems.push(SetupProblem::PawnOnBackRank(sq));
        }
        for (color, side, rook_file) in setup.castling_rights.iter() {
            if !castling_right_is_valid(&board, color, side, rook_file, mode) {
                problems.push(SetupProblem::InvalidCastlingRight {
                    color,
                    side,
                    rook_file,
                });
            }
        }
        let ep_square = setup
            .ep_square
            .filter(|&ep| ep_square_is_valid(&board, setup.turn, ep));
        if let Some(ep) = setup.ep_square
            && ep_square.is_none()
        {
            problems.push(SetupProblem::InvalidEnPassant(ep));
        }
        if !one_king_each {
            // The check tests need exactly one king a side; stop here.
            return Err(problems);
        }

        // The checks are judged whatever else is wrong, without an en passant square that is.
        let mut pos = Position {
            board,
            turn: setup.turn,
            castling_rights: setup.castling_rights,
            mode,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.get(),
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            key: 0,
        };
        pos.key = zobrist::board(&board)
            ^ zobrist::castling_rights(&setup.castling_rights)
            ^ setup.turn.fold(0, zobrist::black_to_move());
        pos.update_check_info();

        let them = !pos.turn;
        let their_king = pos.king(them);
        if pos
            .attackers_to(their_king, pos.turn, board.occupied())
            .any()
        {
            problems.push(SetupProblem::OppositeCheck);
        }
        if !pos.checkers_are_possible() {
            problems.push(SetupProblem::ImpossibleCheck);
        }
        if problems.problems().is_empty() {
            Ok(pos)
        } else {
            Err(problems)
        }
    }

    /// Validates `setup` into a position as [`Position::from_setup`] does, after dropping the
    /// castling rights whose king or rook is not in place and an en passant square that no
    /// double push can have passed over: what real PGN `[FEN]` tags and hand-written FENs need.
    /// Returns the position with what was dropped.
    ///
    /// ```
    /// use caissa_movegen::{CastlingMode, Color, CastlingSide, Position, Setup, Square};
    ///
    /// // White's king has left e1 but the FEN still says KQ; e3 has no pawn in front of it.
    /// let setup: Setup = "4k3/8/8/8/8/8/8/R4K1R w KQ e3 0 1".parse()?;
    /// assert!(Position::from_setup(setup, CastlingMode::Standard).is_err());
    /// let (pos, dropped) = Position::from_setup_lenient(setup, CastlingMode::Standard)?;
    /// assert!(pos.castling_rights().is_empty());
    /// assert!(dropped.castling_rights.has(Color::White, CastlingSide::KingSide));
    /// assert_eq!(dropped.ep_square, Some(Square::E3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`PositionError`] for the problems that remain (kings, pawns, checks).
    pub fn from_setup_lenient(
        mut setup: Setup,
        mode: CastlingMode,
    ) -> Result<(Position, Dropped), PositionError> {
        let dropped = Dropped::drop_from(&mut setup, mode);
        Position::from_setup(setup, mode).map(|pos| (pos, dropped))
    }

    /// Whether the checkers could have come from one legal move.
    fn checkers_are_possible(&self) -> bool {
        let king = self.king(self.turn);
        let checkers = self.checkers;
        if let Some(ep) = self.ep_square {
            let pushed = ep
                .offset(0, self.turn.fold(-1, 1))
                .expect("validated ep square");
            let origin = ep
                .offset(0, self.turn.fold(1, -1))
                .expect("validated ep square");
            // Before the double push (the pawn on its origin), the side to move now was not
            // to move, so it was not in check: not by a line the pawn now blocks either.
            let mut before = self.board;
            before.remove_piece_at(pushed);
            before.set_piece_at(origin, Role::Pawn.of(!self.turn));
            if attacks::attackers(&before, king, !self.turn, before.occupied()).any() {
                return false;
            }
            // The pushed pawn gives check, or the push uncovered a slider whose line to the
            // king passes the pawn's origin.
            let explained =
                |sq: Square| sq == pushed || attacks::between(king, sq).contains(origin);
            return match checkers.count() {
                0 => true,
                1 | 2 => checkers.into_iter().all(explained),
                _ => false,
            };
        }
        match checkers.count() {
            0 | 1 => true,
            2 => {
                let (a, b) = (checkers.first(), checkers.last());
                let (a, b) = (a.expect("two checkers"), b.expect("two checkers"));
                let steppers = self.board.pawns() | self.board.knights();
                // One move discovers at most one line; a pawn or knight check comes only from the
                // piece that moved, so two of them cannot both be new.
                !(attacks::aligned(king, a, b) || steppers.contains(a) && steppers.contains(b))
            }
            _ => false,
        }
    }

    /// The setup this position was built from, as it stands now (the en passant square is set
    /// after every double push, whether or not a capture is possible).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: NonZeroU32::new(self.fullmoves).unwrap_or(NonZeroU32::MIN),
        }
    }

    /// Where the pieces stand.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights still held (whether or not castling is possible right now).
    #[inline]
    #[must_use]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling_rights
    }

    /// Standard chess or Chess960 castling.
    #[inline]
    #[must_use]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The square a pawn just passed over with a double push, whether or not anyone can capture
    /// en passant there. See [`Position::legal_ep_square`].
    #[inline]
    #[must_use]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square, only if some legal move captures en passant.
    #[must_use]
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut any = false;
        self.en_passant_moves(ep, &mut |_| any = true);
        any.then_some(ep)
    }

    /// The square an en passant capture could land on, if a pawn of the side to move stands
    /// beside the pawn that just moved two squares (legal or not).
    #[must_use]
    pub fn pseudo_legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let our_pawns = self.board.by_piece(Role::Pawn.of(self.turn));
        attacks::pawn(!self.turn, ep)
            .intersects(our_pawns)
            .then_some(ep)
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the current full move (starts at 1, grows after black moves).
    #[inline]
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The square of `color`'s king.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Square {
        self.board
            .by_piece(Role::King.of(color))
            .first()
            .expect("a validated position has both kings")
    }

    /// The pieces giving check to the side to move.
    #[inline]
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The side to move's pieces that are pinned to their king (moving them off the line to the
    /// pinning piece would expose the king).
    #[inline]
    #[must_use]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// `color`'s pieces that attack `sq`, with `occupied` as the squares that block sliders.
    #[inline]
    #[must_use]
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        attacks::attackers(&self.board, sq, color, occupied)
    }

    /// Whether `color` attacks `sq` (with the real occupancy).
    #[must_use]
    pub fn is_attacked(&self, sq: Square, color: Color) -> bool {
        self.attackers_to(sq, color, self.board.occupied()).any()
    }

    /// The position mirrored top to bottom with the colours exchanged (White's men become
    /// Black's, the other side is to move): the same game for the other colour.
    ///
    /// # Errors
    ///
    /// [`PositionError`] if the mirrored setup is not a legal position.
    pub fn flip_colors(&self) -> Result<Position, PositionError> {
        Position::from_setup(self.to_setup().flip_colors(), self.mode)
    }

    /// The line, edge to edge, along which the man on `sq` is pinned to `color`'s king: a
    /// slider of the other colour stands on it beyond `sq`, with nothing but `sq` between it and
    /// the king (whatever stands on `sq`). `None` when nothing pins it, or `color` has no king.
    ///
    /// ```
    /// use caissa_movegen::{Bitboard, Color, File, Position, Square};
    ///
    /// let pos: Position = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1".parse()?;
    /// assert_eq!(pos.pin_line(Color::White, Square::E2), Some(Bitboard::from_file(File::E)));
    /// assert_eq!(pos.pin_line(Color::White, Square::D2), None);
    /// # Ok::<(), caissa_movegen::ParsePositionError>(())
    /// ```
    #[must_use]
    pub fn pin_line(&self, color: Color, sq: Square) -> Option<Bitboard> {
        let board = &self.board;
        let king = board.king_of(color)?;
        let line = attacks::line(king, sq);
        if sq == king || line.is_empty() {
            return None;
        }
        let sliders = if king.file() == sq.file() || king.rank() == sq.rank() {
            board.straight_sliders()
        } else {
            board.diagonal_sliders()
        };
        let occupied = board.occupied().with(sq);
        (line & sliders & board.by_color(!color))
            .into_iter()
            .any(|sniper| attacks::between(king, sniper) & occupied == Bitboard::from_square(sq))
            .then_some(line)
    }

    /// The role of the piece that `m` moves (the king, for castling).
    ///
    /// # Panics
    ///
    /// If `m`'s origin is empty, i.e. `m` does not belong to this position.
    #[inline]
    #[must_use]
    pub fn moving_role(&self, m: Move) -> Role {
        self.board
            .role_at(m.from())
            .expect("the move's origin holds a piece")
    }

    /// What `m` captures, if anything (a pawn for en passant; nothing for castling).
    #[must_use]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if m.is_en_passant() {
            Some(Role::Pawn)
        } else if m.is_castle() {
            None
        } else {
            self.board.role_at(m.to())
        }
    }

    /// Whether `m`, a move of this position, captures something: a man of the opponent stands
    /// on its target, or it takes en passant (castling, a king onto its own rook, never does).
    #[inline]
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.by_color(!self.turn).contains(m.to()) || m.is_en_passant()
    }

    /// Whether `m`, a move of this position, gives check. `false` for a move that is not legal
    /// here.
    ///
    /// ```
    /// use caissa_movegen::{Move, Position, Square};
    ///
    /// let pos: Position = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse()?;
    /// assert!(pos.gives_check(Move::normal(Square::A1, Square::A8)));
    /// assert!(!pos.gives_check(Move::normal(Square::A1, Square::A7)));
    /// // Castling can give check with the rook.
    /// let pos: Position = "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1".parse()?;
    /// assert!(pos.gives_check(Move::castle(Square::E1, Square::A1)));
    /// # Ok::<(), caissa_movegen::ParsePositionError>(())
    /// ```
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        if !self.is_legal(m) {
            return false;
        }
        let mut next = *self;
        next.play_unchecked(m);
        next.is_check()
    }

    /// Whether `m` captures or moves a pawn (and so resets the fifty-move counter).
    #[must_use]
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.captured_role(m).is_some() || self.moving_role(m) == Role::Pawn
    }

    /// The Zobrist key of the position in FIDE's "same position" sense: pieces, side to move,
    /// castling rights, and the en passant file only when a legal en passant capture exists.
    #[must_use]
    pub fn zobrist_hash(&self) -> u64 {
        match self.legal_ep_square() {
            Some(ep) => self.key ^ zobrist::en_passant(ep.file()),
            None => self.key,
        }
    }

    /// The key of this position in Polyglot opening books (see
    /// [`caissa_board::zobrist::polyglot`]): the en passant file counts when a pawn of the side
    /// to move stands beside the pawn that just moved two squares, legal capture or not, as the
    /// book format says.
    ///
    /// ```
    /// use caissa_movegen::Position;
    ///
    /// assert_eq!(Position::standard().polyglot_key(), 0x463b_9618_1691_fc9c);
    /// ```
    #[must_use]
    pub fn polyglot_key(&self) -> u64 {
        use zobrist::polyglot;
        let mut key = self
            .board
            .pieces()
            .fold(0, |key, (sq, piece)| key ^ polyglot::piece(piece, sq));
        for (color, side, _) in self.castling_rights.iter() {
            key ^= polyglot::castling(color, side);
        }
        if let Some(ep) = self.pseudo_legal_ep_square() {
            key ^= polyglot::en_passant(ep.file());
        }
        if self.turn == Color::White {
            key ^= polyglot::white_to_move();
        }
        key
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal_move(|m| list.push(m));
        list
    }

    /// Whether the side to move has at least one legal move.
    ///
    /// The men other than the king are asked first, one at a time, and the first that has a
    /// move answers; the king's steps, which need every square the opponent attacks, and
    /// castling only when none has.
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        let mut any = crate::movegen::AnyMove(false);
        let king = Bitboard::from_square(self.king(self.turn));
        self.generate(!king, Bitboard::FULL, &mut any);
        if !any.0 {
            self.generate(king, Bitboard::FULL, &mut any);
        }
        any.0
    }

    /// Whether the side to move is checkmated.
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether `m` is a legal move here.
    ///
    /// A plain move of a king (not castling), knight, bishop, rook or queen, or a pawn's push or
    /// capture short of the last rank, is judged from the attack tables and the checks and pins
    /// the position keeps (replaying a line of moves asks this for every move); the rest asks
    /// the generator for the moves between the two squares.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        let from = m.from();
        let ours = self.board.by_color(self.turn);
        if !ours.contains(from) {
            return false;
        }
        if let Some(legal) = self.is_legal_plain(m) {
            return legal;
        }
        self.is_legal_by_generator(m)
    }

    /// [`Position::is_legal`] for `m`, a move from a square of the side to move, when it is a
    /// plain move (no castling) of a king, knight, bishop, rook or queen or a pawn's move short
    /// of the last rank: the generator's rules for them, one move at a time. `None` for any
    /// other move.
    #[inline]
    fn is_legal_plain(&self, m: Move) -> Option<bool> {
        if m.is_promotion() || m.is_en_passant() || m.is_castle() {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let us = self.turn;
        let board = &self.board;
        let role = board.role_at(from)?;
        if role == Role::Pawn && Bitboard::BACK_RANKS.contains(to) {
            return None;
        }
        let occupied = board.occupied();
        let reaches = match role {
            Role::Pawn => self.pawn_reach(from),
            Role::Knight => attacks::knight(from),
            Role::Bishop => attacks::bishop(from, occupied),
            Role::Rook => attacks::rook(from, occupied),
            Role::Queen => attacks::bishop(from, occupied) | attacks::rook(from, occupied),
            // A king steps to a square of its reach that no man of the opponent's attacks
            // once the king has left its own square (a slider behind it still covers it).
            Role::King => {
                return Some(
                    (attacks::king(from) - board.by_color(us)).contains(to)
                        && self
                            .attackers_to(to, !us, occupied.without(from))
                            .is_empty(),
                );
            }
        };
        Some(((reaches - board.by_color(us)) & self.allowed_targets(from)).contains(to))
    }

    /// [`Position::is_legal`] by asking the generator for the moves between `m`'s squares.
    fn is_legal_by_generator(&self, m: Move) -> bool {
        let from = m.from();
        let mut found = false;
        self.for_each_legal_move_between(from.into(), m.to().into(), |candidate| {
            found |= candidate == m;
        });
        found
    }

    /// Plays `m` and returns the new position. `Position` is `Copy`, so the caller's own copy is
    /// untouched either way; on an illegal move nothing is played.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] if `m` is not a legal move in this position.
    pub fn play(mut self, m: Move) -> Result<Position, IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(IllegalMoveError { mv: m })
        }
    }

    /// Plays `m`, which must be legal: the fast path for move generators and search.
    ///
    /// # Panics
    ///
    /// May panic, or leave a position that breaks its invariants, if `m` is not legal here (for
    /// example a move from an empty square). Use [`Position::play`] for untrusted moves.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.play_unchecked_by(m, self.moving_role(m));
    }

    /// [`Position::play_unchecked`] for a caller that knows which piece moves (a SAN reader
    /// does): `role` must be the role on `m`'s origin (the king, for castling). Saves looking it
    /// up, which on a game's moves is a hard-to-predict chain of tests.
    ///
    /// # Panics
    ///
    /// May panic, or leave a position that breaks its invariants, if `m` is not legal here or
    /// `role` is not the moving piece's.
    #[inline(always)]
    pub fn play_unchecked_by(&mut self, m: Move, role: Role) {
        debug_assert_eq!(
            Some(role),
            self.board.role_at(m.from()),
            "{m:?} moves another role"
        );
        if m.is_normal() {
            self.play_normal(m, role);
        } else {
            self.play_special(m, role);
        }
    }

    /// [`Position::play_unchecked_by`] for a move that is not castling, en passant or a
    /// promotion: nearly every move, so its code is kept short. Which piece moves is hard to
    /// predict, so the steps that depend on it need no branch on it, or one that is nearly
    /// always taken the same way.
    #[inline(always)]
    fn play_normal(&mut self, m: Move, role: Role) {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let mover = role.of(us);
        let old_rights = self.begin_move();
        self.capture_on(to);
        self.board.move_piece(mover, from, to);
        self.key ^= zobrist::piece(mover, from) ^ zobrist::piece(mover, to);
        if role == Role::Pawn {
            self.halfmoves = 0;
            if from.index() ^ to.index() == 16 {
                self.ep_square = Square::new((from.index() + to.index()) as u32 / 2);
            }
        }
        self.lose_rights_by(role, from);
        self.end_move(old_rights);
    }

    /// [`Position::play_unchecked_by`] for castling, en passant and promotions, out of the way
    /// of the normal moves.
    #[inline(never)]
    fn play_special(&mut self, m: Move, role: Role) {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let mover = role.of(us);
        let old_rights = self.begin_move();
        if let Some(side) = m.castling_side() {
            let rank = from.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let rook = Role::Rook.of(us);
            self.board.toggle_piece(mover, from);
            self.board.toggle_piece(rook, to);
            self.board.toggle_piece(mover, king_to);
            self.board.toggle_piece(rook, rook_to);
            self.key ^= zobrist::piece(mover, from)
                ^ zobrist::piece(mover, king_to)
                ^ zobrist::piece(rook, to)
                ^ zobrist::piece(rook, rook_to);
            self.castling_rights.clear(us);
        } else {
            if m.is_en_passant() {
                let captured_sq = Square::from_coords(to.file(), from.rank());
                let pawn = Role::Pawn.of(!us);
                self.board.toggle_piece(pawn, captured_sq);
                self.key ^= zobrist::piece(pawn, captured_sq);
            } else {
                self.capture_on(to);
            }
            self.halfmoves = 0;
            // A pawn's move: en passant, or a promotion.
            let placed = m.promotion_role().unwrap_or(Role::Pawn).of(us);
            self.board.toggle_piece(mover, from);
            self.board.toggle_piece(placed, to);
            self.key ^= zobrist::piece(mover, from) ^ zobrist::piece(placed, to);
        }
        self.end_move(old_rights);
    }

    /// Takes the opponent's piece on `to`, if any.
    #[inline(always)]
    fn capture_on(&mut self, to: Square) {
        let them = !self.turn;
        if let Some(captured) = self.board.role_at(to) {
            let victim = captured.of(them);
            self.board.toggle_piece(victim, to);
            self.key ^= zobrist::piece(victim, to);
            self.halfmoves = 0;
            if captured == Role::Rook && to.rank() == Rank::back_rank(them) {
                self.castling_rights.clear_rook(them, to.file());
            }
        }
    }

    /// Drops the castling rights that a move of the side to move's `role` from `from` loses.
    #[inline(always)]
    fn lose_rights_by(&mut self, role: Role, from: Square) {
        let us = self.turn;
        if self.castling_rights.has_any(us) {
            if role == Role::King {
                self.castling_rights.clear(us);
            } else if role == Role::Rook && from.rank() == Rank::back_rank(us) {
                self.castling_rights.clear_rook(us, from.file());
            }
        }
    }

    /// What every move starts with: no en passant square, one more half-move. Returns the
    /// castling rights held before the move, for [`Position::end_move`].
    #[inline(always)]
    fn begin_move(&mut self) -> CastlingRights {
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.castling_rights
    }

    /// What every move ends with: the key of changed castling rights (`old_rights` were held
    /// before), the move number, the turn, and the new side's checkers and pins.
    #[inline(always)]
    fn end_move(&mut self, old_rights: CastlingRights) {
        let us = self.turn;
        if old_rights != self.castling_rights {
            self.key ^= zobrist::castling_rights(&old_rights)
                ^ zobrist::castling_rights(&self.castling_rights);
        }
        // One more after Black's move.
        self.fullmoves = self.fullmoves.saturating_add(us.index() as u32);
        self.turn = !us;
        self.key ^= zobrist::black_to_move();
        self.update_check_info();
    }

    /// Passes the turn without moving (a "null move", for engines; not a legal chess move).
    /// Returns `None` when the side to move is in check, where passing would leave the position
    /// illegal.
    #[must_use]
    pub fn pass(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = *self;
        next.ep_square = None;
        next.halfmoves = next.halfmoves.saturating_add(1);
        if next.turn == Color::Black {
            next.fullmoves = next.fullmoves.saturating_add(1);
        }
        next.turn = !next.turn;
        next.key ^= zobrist::black_to_move();
        next.update_check_info();
        Some(next)
    }

    /// Recomputes the checkers and pinned pieces of the side to move.
    #[inline(always)]
    fn update_check_info(&mut self) {
        let us = self.turn;
        let board = &self.board;
        let king = self.king(us);
        let occupied = board.occupied();
        let theirs = board.by_color(!us);
        // Knights and pawns check directly; a slider on a line to the king checks with nothing
        // between, and pins with exactly one piece between.
        let mut checkers = ((attacks::knight(king) & board.knights())
            | (attacks::pawn(us, king) & board.pawns()))
            & theirs;
        let snipers = ((attacks::rook_rays(king) & board.straight_sliders())
            | (attacks::bishop_rays(king) & board.diagonal_sliders()))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers = checkers.with(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & board.by_color(us);
    }
}

/// Whether `color`'s right to castle on `side` with the rook on `rook_file` has its king and rook
/// in place.
fn castling_right_is_valid(
    board: &Board,
    color: Color,
    side: CastlingSide,
    rook_file: File,
    mode: CastlingMode,
) -> bool {
    let back_rank = Bitboard::back_rank(color);
    let Some(king) = (board.by_piece(Role::King.of(color)) & back_rank).single_square() else {
        return false;
    };
    let rook = Square::from_coords(rook_file, Rank::back_rank(color));
    if board.piece_at(rook) != Some(Role::Rook.of(color))
        || CastlingSide::from_files(king.file(), rook_file) != Some(side)
    {
        return false;
    }
    match mode {
        CastlingMode::Standard => king.file() == File::E && rook_file == side.standard_rook_file(),
        CastlingMode::Chess960 => true,
    }
}

/// Whether a double push by the side not to move can just have passed over `ep`.
fn ep_square_is_valid(board: &Board, turn: Color, ep: Square) -> bool {
    if ep.rank() != Rank::Sixth.relative_to(turn) {
        return false;
    }
    let forward = turn.fold(1, -1);
    let (Some(origin), Some(pushed)) = (ep.offset(0, forward), ep.offset(0, -forward)) else {
        return false;
    };
    let occupied = board.occupied();
    !occupied.contains(ep)
        && !occupied.contains(origin)
        && board.piece_at(pushed)
            == Some(Piece {
                color: !turn,
                role: Role::Pawn,
            })
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling_rights == other.castling_rights
            && self.legal_ep_square() == other.legal_ep_square()
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.zobrist_hash());
    }
}

/// A [`Hasher`] for maps and sets of [`Position`]s: a position hashes as its Zobrist key
/// ([`Position::zobrist_hash`]), already well mixed, which this passes through instead of
/// hashing it again, as the standard maps' SipHash does (about 45 instructions a lookup).
///
/// ```
/// use std::collections::HashMap;
///
/// use caissa_movegen::{BuildZobristHasher, Position};
///
/// let mut seen: HashMap<Position, u32, BuildZobristHasher> = HashMap::default();
/// *seen.entry(Position::standard()).or_default() += 1;
/// assert_eq!(seen[&Position::standard()], 1);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Other data than a key (which `Position`'s `Hash` never writes), mixed byte by byte.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 ^= key;
    }
}

/// Makes [`ZobristHasher`]s: the third parameter of a `HashMap` or `HashSet` of positions.
pub type BuildZobristHasher = BuildHasherDefault<ZobristHasher>;

impl Default for Position {
    fn default() -> Position {
        Position::standard()
    }
}

#[cfg(test)]
mod tests {
    use crate::uci::UciMove;
    use crate::{Color, Move, Position, Role, Square};

    /// The attack-table judgement of plain moves agrees with the generator on every move of
    /// every kind from every square of the side to move, in positions with pins, checks,
    /// double checks, en passant and promotions, and kings in check from sliders (a step back
    /// along the checking line stays in check) or next to the other king; so do each pawn's
    /// targets.
    #[test]
    fn is_legal_agrees_with_the_generator() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/1q2Pp2/8/8/3B4/R3K2R w KQ f6 0 2",
            "3k4/8/8/8/1b6/8/3N4/r3K2n w - - 0 1",
            "4k3/8/8/8/8/8/4K3/4r3 w - - 0 1",
            "7k/8/8/8/3K4/8/1b6/8 w - - 0 1",
            "8/8/3k4/8/3K4/8/8/Q7 b - - 0 1",
        ];
        let mut positions = Vec::new();
        for fen in fens {
            let pos: Position = fen.parse().unwrap();
            positions.push(pos);
            for (i, m) in pos.legal_moves().into_iter().enumerate() {
                let child = pos.play(m).unwrap();
                positions.push(child);
                for n in child.legal_moves().into_iter().skip(i % 5).step_by(5) {
                    positions.push(child.play(n).unwrap());
                }
            }
        }
        for pos in positions {
            for from in pos.board().by_color(pos.turn()) {
                for to in Square::ALL {
                    let mut moves = vec![
                        Move::normal(from, to),
                        Move::en_passant(from, to),
                        Move::castle(from, to),
                    ];
                    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                        moves.push(Move::promotion(from, to, role));
                    }
                    for m in moves {
                        assert_eq!(
                            pos.is_legal(m),
                            pos.is_legal_by_generator(m),
                            "{m:?} in {pos:?}"
                        );
                    }
                }
                let mut targets = crate::Bitboard::EMPTY;
                pos.for_each_legal_move_from(from.into(), |m| targets = targets.with(m.to()));
                let pawn = pos.board().pawns().contains(from);
                assert_eq!(
                    pos.pawn_targets(from),
                    if pawn {
                        targets
                    } else {
                        crate::Bitboard::EMPTY
                    },
                    "{from:?} in {pos:?}"
                );
            }
        }
    }

    #[test]
    fn polyglot_keys_are_the_published_ones() {
        // The test positions of the Polyglot book format's description.
        let lines: [(&str, u64); 9] = [
            ("", 0x463b_9618_1691_fc9c),
            ("e2e4", 0x823c_9b50_fd11_4196),
            ("e2e4 d7d5", 0x0756_b944_61c5_0fb0),
            ("e2e4 d7d5 e4e5", 0x662f_afb9_65db_29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a4_8b5a_8e47_ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a_607c_a3f2_42c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fd_d303_c946_bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c81_23ea_7b06_7637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f_9b82_9b27_9560),
        ];
        for (line, key) in lines {
            let mut pos = Position::standard();
            for uci in line.split_whitespace() {
                let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                pos = pos.play(m).unwrap();
            }
            assert_eq!(pos.polyglot_key(), key, "after {line:?}");
        }
    }

    #[test]
    fn lenient_import_drops_only_what_is_impossible() {
        use crate::{CastlingMode, CastlingSide, Setup};
        let setup: Setup = "r3k2r/8/8/3pP3/8/8/8/R3K1R1 w KQkq d6 0 1".parse().unwrap();
        let (pos, dropped) = Position::from_setup_lenient(setup, CastlingMode::Standard).unwrap();
        // White's king-side rook is on g1, not h1: that right goes, the others stay.
        assert_eq!(dropped.castling_rights.iter().count(), 1);
        assert!(
            dropped
                .castling_rights
                .has(Color::White, CastlingSide::KingSide)
        );
        assert_eq!(pos.castling_rights().iter().count(), 3);
        assert_eq!(
            (dropped.ep_square, pos.ep_square()),
            (None, Some(Square::D6))
        );
        // In Chess960 the g1 rook is a fine castling rook for a `K`, which X-FEN reads as g.
        let (_, dropped) = Position::from_setup_lenient(setup, CastlingMode::Chess960).unwrap();
        assert!(dropped.is_empty());
        // What cannot be repaired is still an error.
        let no_king: Setup = "8/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(Position::from_setup_lenient(no_king, CastlingMode::Standard).is_err());
    }

    #[test]
    fn the_standard_position_is_the_validated_start() {
        use crate::{CastlingMode, Setup};
        let validated = Position::from_setup(Setup::standard(), CastlingMode::Standard).unwrap();
        assert_eq!(
            format!("{:?}", Position::standard()),
            format!("{validated:?}")
        );
    }

    #[test]
    fn capture_queries() {
        let pos: Position = "4k3/8/8/2pPp3/8/8/8/R3K3 w Q e6 0 1".parse().unwrap();
        assert!(pos.is_capture(Move::en_passant(Square::D5, Square::E6)));
        assert!(!pos.is_capture(Move::normal(Square::D5, Square::D6)));
        assert!(!pos.is_capture(Move::castle(Square::E1, Square::A1)));
        assert!(Move::promotion(Square::A7, Square::A8, Role::Queen).is_promotion());
        assert!(!Move::normal(Square::A7, Square::A8).is_promotion());
        assert_eq!(pos.turn(), Color::White);
    }
}
