//! Tier 5 of the analysis (see the parent module): semi-static reachability, for blocked
//! positions.
//!
//! For every man on the board the analysis computes an over-approximation of the squares it
//! could ever stand on, `reach`, together with facts that hold in every later position:
//!
//! - `steady`: men that never move and are never captured (their squares stay occupied);
//! - `capturable`: men that might be captured (an over-approximation);
//! - `attacked`: squares one side attacks in every later position, with the squares its king
//!   stands on (the other king never stands there either);
//! - `sacrificable`: squares where a side's men (kings aside) might stand, so where the other
//!   side's pawns might capture.
//!
//! They are computed together as a fixpoint, starting from "every man stays where it is, and
//! is steady" and growing the reach sets (and shrinking the steady set) until nothing changes.
//! A man on `x` in its reach may go to:
//!
//! - knight, bishop, rook, queen: its moves from `x` with only steady men as obstacles;
//! - king: its moves less the squares the other side always attacks;
//! - pawn: pushes not blocked by steady men, captures onto `sacrificable` squares of the other
//!   side, and anywhere once it can reach its last rank (promotion);
//!
//! never onto a steady man of its own or a steady king, and never past a man that is never
//! captured and always stands on the way (its reach lies in the squares between, the square
//! the mover leaves, or the target square if it is of the same side, a king, or the move is a
//! pawn push). A pawn that never leaves its file never passes a pawn ahead of it on that file
//! that never leaves it either and is never captured. A castling the rights allow adds the
//! king's and the rook's castled squares, unless a steady man (other than those two) stands on
//! a square either passes or lands on, or the other side always attacks a square the king
//! stands on or passes: then it can never be played.
//!
//! **Why the result is sound.** At the fixpoint, take any line of legal moves that ends in a
//! mate by the winner; by induction on its moves every man stays within its reach and steady
//! men stay in place: a legal move's obstacles include every steady man (still in place), so
//! the move is among those generated; a king's target is not attacked after its move, so it is
//! not in `attacked` (attacks there are computed from men never captured, from every square in
//! their reach, with every square that is ever occupied as an obstacle, hence an
//! under-approximation; a bishop's diagonal may run through squares that only bishops of its
//! side ever stand on, since such a bishop attacks further along it itself); a capture puts the
//! capturer on a square in the victim's reach (a pawn only on its capture squares), which marks
//! the victim capturable; an obstacle that is never captured is, by induction, somewhere in its
//! reach, hence on the way. En passant captures are covered because a double push also makes
//! the skipped square reachable (when the current position has an en passant capture, the
//! analysis does not run).
//!
//! The rules that remove moves reasoning about mating lines only are in `rules`; the verdict
//! drawn from the fixpoint, with its case splits, in `verdict`.

mod rules;
mod verdict;

use caissa_board::{Bitboard, Board, Color, Piece, Rank, Role, Square};
use caissa_movegen::{Position, attacks};

pub(super) use verdict::statically_unwinnable;

/// The fixpoint of the reachability analysis for one intended winner.
#[derive(Clone, Debug)]
pub(super) struct Reach {
    board: Board,
    winner: Color,
    /// Whether the winner has exactly one man besides the king.
    winner_single: bool,
    /// Squares each man (by its square now) might ever stand on.
    reach: [Bitboard; 64],
    /// Squares where each pawn (by its square now) might capture: a pawn takes only there.
    strikes: [Bitboard; 64],
    /// Men (by square) that never move nor get captured.
    pub(super) steady: Bitboard,
    /// Men (by square) that might be captured.
    capturable: Bitboard,
    /// Squares each side attacks in every later position.
    attacked: [Bitboard; 2],
    /// Squares where each side's men other than the king might stand.
    sacrificable: [Bitboard; 2],
    /// Men never captured whose reach is small enough to lie on a single move's way.
    confined: Vec<Confined>,
    /// Squares that some man may stand on at some time.
    everywhere: Bitboard,
    /// Squares that only each side's bishops ever stand on.
    bishop_only: [Bitboard; 2],
    /// The part of `attacked` due to men other than the king.
    men_attacks: [Bitboard; 2],
    /// Whether each side's men (kings aside) never move: they stay where they are and have
    /// no targets at all.
    stuck: [bool; 2],
    /// The lines analysed.
    case: Case,
    /// The first men found both steady and capturable while saturating: a case split on
    /// their fate may decide what the plain analysis does not.
    split: Option<Bitboard>,
    /// The castlings the rights allow, until they are found possible (then their squares
    /// join the reach sets).
    castlings: [Option<Castling>; 4],
}

/// A castling: the king and the rook, and where they go.
#[derive(Clone, Copy, Debug)]
struct Castling {
    king: Square,
    rook: Square,
    king_to: Square,
    rook_to: Square,
}

/// A class of lines, for case splits: for each man in `kept`, lines in which it is never
/// captured on its square before it moves; for each man in `frozen`, lines in which it never
/// moves (it may be captured where it stands). Every line is, for a given man, in one of the
/// two, so a verdict that holds in both holds for all lines.
#[derive(Clone, Copy, Debug, Default)]
struct Case {
    kept: Bitboard,
    frozen: Bitboard,
}

/// A man that is never captured and has few squares to go to.
#[derive(Clone, Copy, Debug)]
struct Confined {
    square: Square,
    reach: Bitboard,
    color: Color,
    king: bool,
}

impl Reach {
    /// Runs the analysis of `pos` for `winner`, or `None` when it does not apply (an en passant
    /// capture is possible now).
    pub(super) fn new(pos: &Position, winner: Color) -> Option<Reach> {
        Reach::assuming(pos, winner, Case::default())
    }

    /// Runs the analysis for the mating lines of one [`Case`] only.
    fn assuming(pos: &Position, winner: Color, case: Case) -> Option<Reach> {
        if pos.legal_ep_square().is_some() {
            return None;
        }
        let board = *pos.board();
        let mut reach = [Bitboard::EMPTY; 64];
        for sq in board.occupied() {
            reach[sq.index()] = Bitboard::from_square(sq);
        }
        let mut castlings = [None; 4];
        for (slot, (color, side, rook_file)) in
            castlings.iter_mut().zip(pos.castling_rights().iter())
        {
            let rank = Rank::back_rank(color);
            *slot = Some(Castling {
                king: pos.king(color),
                rook: Square::from_coords(rook_file, rank),
                king_to: Square::from_coords(side.king_to_file(), rank),
                rook_to: Square::from_coords(side.rook_to_file(), rank),
            });
        }
        let mut analysis = Reach {
            board,
            winner,
            winner_single: !(board.by_color(winner) - board.kings()).more_than_one(),
            reach,
            strikes: [Bitboard::EMPTY; 64],
            steady: board.occupied(),
            capturable: Bitboard::EMPTY,
            attacked: [Bitboard::EMPTY; 2],
            sacrificable: [Bitboard::EMPTY; 2],
            confined: Vec::new(),
            everywhere: Bitboard::FULL,
            bishop_only: [Bitboard::EMPTY; 2],
            men_attacks: [Bitboard::EMPTY; 2],
            stuck: [false; 2],
            case,
            split: None,
            castlings,
        };
        analysis.derive();
        analysis.saturate();
        Some(analysis)
    }

    fn piece(&self, sq: Square) -> Piece {
        self.board.piece_at(sq).expect("an analysed man")
    }

    fn saturate(&mut self) {
        loop {
            let mut changed = self.castle();
            for sq in self.board.occupied() {
                let piece = self.piece(sq);
                let old = self.reach[sq.index()];
                let mut new = old;
                for from in old {
                    new |= self.targets(sq, piece, from, new);
                }
                if piece.role == Role::Pawn {
                    let mut strikes = self.strikes[sq.index()];
                    if new.intersects(promotion_rank(piece.color)) {
                        // Promoted, it may go (and capture) anywhere.
                        let own = self.board.by_color(piece.color);
                        new |= !(self.steady & (own | self.board.kings()));
                        strikes = new;
                    } else {
                        for from in new {
                            strikes |= self.pawn_captures(piece.color, from);
                        }
                    }
                    if strikes != self.strikes[sq.index()] {
                        self.strikes[sq.index()] = strikes;
                        changed = true;
                    }
                }
                if new != old {
                    self.reach[sq.index()] = new;
                    changed = true;
                }
            }
            if !(self.derive() || changed) {
                break;
            }
        }
    }

    /// Adds the castlings that may happen to the reach sets; returns whether any did. A castling
    /// never happens while a steady man (other than the king and the rook) stands on a square
    /// the king or the rook passes or lands on, nor while the other side always attacks a square
    /// the king stands on or passes.
    fn castle(&mut self) -> bool {
        let mut changed = false;
        for slot in &mut self.castlings {
            let Some(castling) = *slot else { continue };
            let color = self.board.color_at(castling.king).expect("a king");
            let path = attacks::between(castling.king, castling.king_to).with(castling.king_to);
            let squares = (path
                | attacks::between(castling.king, castling.rook)
                | attacks::between(castling.rook, castling.rook_to).with(castling.rook_to))
            .without(castling.king)
            .without(castling.rook);
            if (self.steady & squares).any()
                || self.attacked[(!color).index()].intersects(path.with(castling.king))
            {
                continue;
            }
            self.reach[castling.king.index()] |= castling.king_to;
            self.reach[castling.rook.index()] |= castling.rook_to;
            *slot = None;
            changed = true;
        }
        changed
    }

    /// The squares where a pawn of `us` on `from` might capture.
    fn pawn_captures(&self, us: Color, from: Square) -> Bitboard {
        if us != self.winner && self.winner_single {
            return Bitboard::EMPTY;
        }
        (attacks::pawn(us, from) & self.sacrificable[(!us).index()])
            - (self.case.kept & self.steady)
    }

    /// Where the man that started on `origin` may go from `from`, beyond `known`.
    fn targets(&self, origin: Square, piece: Piece, from: Square, known: Bitboard) -> Bitboard {
        self.targets_among(origin, piece, from, known, Bitboard::EMPTY)
    }

    /// [`Reach::targets`], not counting the men on `ignored` as obstacles.
    fn targets_among(
        &self,
        origin: Square,
        piece: Piece,
        from: Square,
        known: Bitboard,
        ignored: Bitboard,
    ) -> Bitboard {
        let us = piece.color;
        if self.case.frozen.contains(origin) {
            return Bitboard::EMPTY;
        }
        let steady = self.steady - ignored;
        let mut pushes = Bitboard::EMPTY;
        let mut targets = match piece.role {
            Role::King => attacks::king(from) - self.attacked[(!us).index()],
            Role::Knight => attacks::knight(from),
            Role::Bishop => attacks::bishop(from, steady),
            Role::Rook => attacks::rook(from, steady),
            Role::Queen => attacks::queen(from, steady),
            Role::Pawn => {
                let one = Bitboard::from_square(from).forward(us) - steady;
                pushes = one;
                if from.rank() == Rank::Second.relative_to(us) {
                    pushes |= one.forward(us) - steady;
                }
                pushes | self.pawn_captures(us, from)
            }
        };
        targets = targets - (steady & (self.board.by_color(us) | self.board.kings()));
        // A kept man still in place is not taken there.
        targets = targets - (self.case.kept & self.steady);
        targets = targets - known;
        if piece.role == Role::King {
            targets = targets - self.stalemating(us, from, targets);
        }
        if piece.role == Role::Pawn {
            targets = targets - self.past_file_blockers(origin, us, pushes & targets);
        }
        if ignored.is_empty() {
            if us != self.winner {
                targets = targets - self.mating_the_winner(origin, piece, from, targets);
            } else if self.winner_single {
                targets = targets - self.lost_next_to_king(piece, from, targets);
            }
        }
        for to in targets {
            let push = pushes.contains(to);
            let way = if piece.role != Role::Pawn || push {
                attacks::between(from, to)
            } else {
                Bitboard::EMPTY
            };
            let here = Bitboard::from_square(to);
            // A man that is never captured and always stands on the way (or on the target, if
            // it cannot be taken there: a man of ours, a king, or anything before a push). It
            // cannot stand on `from` when the mover does, so `from` counts as on the way.
            let way = way.with(from);
            let blocked = self.confined.iter().any(|man| {
                man.square != origin && !ignored.contains(man.square) && {
                    let zone = if push || man.king || man.color == us {
                        way | here
                    } else {
                        way
                    };
                    man.reach.is_subset(zone)
                }
            });
            if blocked {
                targets = targets.without(to);
            }
        }
        targets
    }

    /// Pushes (among `pushes`) of the pawn from `origin` that would take it past a pawn ahead
    /// of it on its file. While neither pawn leaves the file (both reach sets lie in it) and
    /// the one ahead is never captured, their order on the file never changes, so the pusher
    /// can stand on a square only if the pawn ahead may stand further on.
    fn past_file_blockers(&self, origin: Square, us: Color, pushes: Bitboard) -> Bitboard {
        let file = Bitboard::from_file(origin.file());
        if pushes.is_empty() || !self.reach[origin.index()].is_subset(file) {
            return Bitboard::EMPTY;
        }
        let ahead_of = |sq: Square| -> Bitboard {
            let rank = sq.rank().index() as u32;
            let above = Bitboard(!0u64 << (8 * rank) << 8);
            let below = Bitboard((1u64 << (8 * rank)) - 1);
            file & if us == Color::White { above } else { below }
        };
        let mut blocked = Bitboard::EMPTY;
        for pawn in (self.board.pawns() & file & ahead_of(origin)) - self.capturable {
            let reach = self.reach[pawn.index()];
            if reach.is_subset(file) {
                for to in pushes {
                    if !reach.intersects(ahead_of(to)) {
                        blocked |= to;
                    }
                }
            }
        }
        blocked
    }

    /// Recomputes the derived facts from the reach sets; returns whether any changed.
    fn derive(&mut self) -> bool {
        let board = self.board;
        let men = board.occupied() - board.kings();
        let mut capturable = Bitboard::EMPTY;
        for victim in men {
            let color = board.color_at(victim).expect("a man");
            let spared = color == self.winner && self.winner_single;
            let hunters = if spared {
                Bitboard::EMPTY
            } else {
                board.by_color(!color)
            };
            let hunted = |hunter: Square| {
                let takes = if board.pawns().contains(hunter) {
                    self.strikes[hunter.index()]
                } else {
                    self.reach[hunter.index()]
                };
                takes.intersects(self.reach[victim.index()])
            };
            if hunters.into_iter().any(hunted) {
                capturable |= victim;
            }
        }
        let mut steady = Bitboard::EMPTY;
        let mut everywhere = Bitboard::EMPTY;
        let mut sacrificable = [Bitboard::EMPTY; 2];
        // Squares only the bishops of one side ever stand on, and the squares others may.
        let mut bishop_only = [Bitboard::EMPTY; 2];
        let mut not_bishop = [Bitboard::EMPTY; 2];
        for sq in board.occupied() {
            let reach = self.reach[sq.index()];
            everywhere |= reach;
            let color = board.color_at(sq).expect("a man");
            if board.bishops().contains(sq) {
                bishop_only[color.index()] |= reach;
            } else {
                not_bishop[color.index()] |= reach;
            }
            if reach == Bitboard::from_square(sq) && !capturable.contains(sq) {
                steady |= sq;
            }
            if men.contains(sq) {
                sacrificable[color.index()] |= reach;
            }
        }
        for color in Color::ALL {
            bishop_only[color.index()] = bishop_only[color.index()]
                - not_bishop[0]
                - not_bishop[1]
                - bishop_only[(!color).index()];
        }
        self.everywhere = everywhere;
        self.bishop_only = bishop_only;
        let mut attacked = [Bitboard::EMPTY; 2];
        let mut men_attacks = [Bitboard::EMPTY; 2];
        for sq in board.occupied() - capturable {
            let piece = self.piece(sq);
            let obstacles = self.obstacles(piece);
            let mut always = Bitboard::FULL;
            for at in self.reach[sq.index()] {
                let mut hits = piece_attacks(piece, at, obstacles);
                if piece.role == Role::King {
                    // The other king never stands on the king's square either.
                    hits |= at;
                }
                always &= hits;
                if always.is_empty() {
                    break;
                }
            }
            attacked[piece.color.index()] |= always;
            if piece.role != Role::King {
                men_attacks[piece.color.index()] |= always;
            }
        }
        self.confined.clear();
        for square in board.occupied() - capturable {
            let reach = self.reach[square.index()];
            if reach.count() <= 7 {
                let piece = self.piece(square);
                self.confined.push(Confined {
                    square,
                    reach,
                    color: piece.color,
                    king: piece.role == Role::King,
                });
            }
        }
        // Men found both steady and capturable, gathered until a pawn may promote.
        let fresh = capturable & self.steady;
        let promoting = board.pawns().into_iter().any(|sq| {
            let color = board.color_at(sq).expect("a man");
            self.reach[sq.index()].intersects(promotion_rank(color))
        });
        if fresh.any() && (self.split.is_none() || !promoting) {
            self.split = Some(self.split.unwrap_or_default() | fresh);
        }
        let changed = capturable != self.capturable
            || steady != self.steady
            || attacked != self.attacked
            || sacrificable != self.sacrificable;
        self.capturable = capturable;
        self.steady = steady;
        self.attacked = attacked;
        self.men_attacks = men_attacks;
        self.sacrificable = sacrificable;
        let mut stuck = [false; 2];
        for color in Color::ALL {
            stuck[color.index()] = (board.by_color(color) - board.kings())
                .into_iter()
                .all(|sq| {
                    let here = Bitboard::from_square(sq);
                    // The other king may have left its squares: it is no obstacle here.
                    self.reach[sq.index()] == here
                        && self
                            .targets_among(sq, self.piece(sq), sq, here, board.kings())
                            .is_empty()
                });
        }
        let changed = changed || stuck != self.stuck;
        self.stuck = stuck;
        changed
    }

    /// The obstacles for `piece`'s attacks that hold in every position: every square that is
    /// ever occupied, except that for a bishop, squares only bishops of its side stand on (such a
    /// bishop attacks along the diagonal itself).
    fn obstacles(&self, piece: Piece) -> Bitboard {
        if piece.role == Role::Bishop {
            self.everywhere - self.bishop_only[piece.color.index()]
        } else {
            self.everywhere
        }
    }
}

/// The last rank of `color`'s pawns.
fn promotion_rank(color: Color) -> Bitboard {
    Bitboard::from_rank(Rank::Eighth.relative_to(color))
}

/// The squares `piece` on `sq` attacks with `occupied` blocking sliders.
fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => attacks::pawn(piece.color, sq),
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occupied),
        Role::Rook => attacks::rook(sq, occupied),
        Role::Queen => attacks::queen(sq, occupied),
        Role::King => attacks::king(sq),
    }
}

#[cfg(test)]
mod tests {
    use caissa_board::{CastlingSide, File, Setup};
    use caissa_movegen::CastlingMode;

    use super::*;

    /// The position with a FEN's placement, side to move and castling rights.
    fn position(placement: &str, turn: Color, rights: &[(Color, CastlingSide, File)]) -> Position {
        let mut setup = Setup::empty();
        for (row, rank) in placement.split('/').zip((0..8u32).rev()) {
            let mut file = 0;
            for c in row.chars() {
                if let Some(skip) = c.to_digit(10) {
                    file += skip;
                } else {
                    let sq = Square::new(rank * 8 + file).expect("on the board");
                    setup
                        .board
                        .set_piece_at(sq, Piece::from_char(c).expect("a piece"));
                    file += 1;
                }
            }
        }
        setup.turn = turn;
        for &(color, side, file) in rights {
            setup.castling_rights.set(color, side, Some(file));
        }
        Position::from_setup(setup, CastlingMode::Standard).expect("a legal position")
    }

    #[test]
    fn a_check_that_mates_the_winner_is_no_part_of_a_mating_line() {
        // Vector 2110: b7-b6 (or d7-d6) would mate the white king on c5, which never moves.
        let pos = position(
            "6k1/1ppp1p2/2b2Pp1/1pKp1pP1/1P1P1P2/8/8/B1B1B1B1",
            Color::Black,
            &[],
        );
        let mut analysis = Reach::new(&pos, Color::White).expect("no en passant");
        assert_eq!(
            analysis.reach[Square::C5.index()],
            Bitboard::from_square(Square::C5)
        );
        assert_eq!(
            analysis.reach[Square::B7.index()],
            Bitboard::from_square(Square::B7)
        );
        let pawn = Piece::from_char('p').expect("a pawn");
        let push = Bitboard::from_square(Square::B6);
        assert_eq!(
            analysis.mating_the_winner(Square::B7, pawn, Square::B7, push),
            push
        );
        assert!(statically_unwinnable(&pos, Color::White));
        // Had the king a square to step to (d4 empty), or a bishop that could stand on a7 and
        // take on b6, the check would not mate.
        let mut escape = analysis.clone();
        escape.steady = escape.steady.without(Square::D4);
        assert!(
            escape
                .mating_the_winner(Square::B7, pawn, Square::B7, push)
                .is_empty()
        );
        analysis.reach[Square::A1.index()] |= Square::A7;
        assert!(
            analysis
                .mating_the_winner(Square::B7, pawn, Square::B7, push)
                .is_empty()
        );
    }

    #[test]
    fn the_winners_last_man_checking_next_to_the_king_must_be_taken() {
        // Vector 2068: Qxc2+ is met by Nxc2 (the king on c1 guards c2, the knight takes), and
        // no other reply exists: the black king never moves.
        let pos = position("6Q1/8/4n3/8/ppp5/qkp3b1/rnp5/n1K5", Color::Black, &[]);
        let mut analysis = Reach::new(&pos, Color::White).expect("no en passant");
        assert!(!analysis.reach[Square::G8.index()].contains(Square::C2));
        let queen = Piece::from_char('Q').expect("a queen");
        let target = Bitboard::from_square(Square::C2);
        assert_eq!(
            analysis.lost_next_to_king(queen, Square::D1, target),
            target
        );
        assert!(statically_unwinnable(&pos, Color::White));
        // Without a man that surely takes (the knight might be gone), Qxc2 could be mate.
        analysis.capturable |= Square::A1;
        assert!(
            analysis
                .lost_next_to_king(queen, Square::D1, target)
                .is_empty()
        );
    }

    #[test]
    fn castling_needs_its_squares_free_of_steady_men() {
        // Vector 1415: the knight on g1 never moves, so White never castles and the king and
        // the rook stay where they are.
        let rights = [(Color::White, CastlingSide::KingSide, File::H)];
        let pos = position(
            "2k5/8/8/8/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR",
            Color::White,
            &rights,
        );
        let analysis = Reach::new(&pos, Color::White).expect("no en passant");
        for man in [Square::E1, Square::H1, Square::G1] {
            assert_eq!(
                analysis.reach[man.index()],
                Bitboard::from_square(man),
                "{man}"
            );
        }
        assert!(statically_unwinnable(&pos, Color::White));
        assert!(statically_unwinnable(&pos, Color::Black));
    }
}
