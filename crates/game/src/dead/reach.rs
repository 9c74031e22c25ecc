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
//! Four rules reason about mating lines only, which is all the verdict needs. Take a mating
//! line and its first move, if any, that the fixpoint does not generate: the position before it
//! is consistent with the analysis (every man within its reach, steady men in place, men never
//! captured on the board), the move is legal, so only one of these rules can have removed it,
//! and each shows that no mate of the loser can follow it:
//!
//! - when the winner has a single man besides the king, the loser never captures it (the winner
//!   would be left with a lone king);
//! - a king move after which the other side has no move at all (its men stuck where they are,
//!   its king boxed in by our king, its own steady men and squares our never-captured men
//!   always attack) is no part of a mating line: the winner would be stalemated, or the loser
//!   stalemated by a move that cannot uncover a check. This check looks at the next move
//!   directly rather than at the reach sets (which describe mating lines only, so using them
//!   for the move right after a move that leaves them would be circular), and treats the kings
//!   as no obstacles, as the moving king has left its squares;
//! - **the loser mates the winner**: the winner's king never moves (its reach is its square), no
//!   pawn of the winner can promote, and a move of the loser (not a double push, a promotion, or
//!   a pawn capture onto the square where it might take en passant) checks it, directly or by
//!   uncovering a steady slider, with every square that is ever occupied (and the target) as an
//!   obstacle. After that move, whatever the rest of the position, the winner has no reply, so
//!   the game ends with the winner mated: every square next to the king holds a steady man of
//!   the winner or is attacked by the moved man or, from every square of its reach, by another
//!   man of the loser that is never captured (so the king can neither step nor take); and no man
//!   of the winner, from any square of its reach, with only the steady men (less the square
//!   left, plus the target) as obstacles, attacks the checking man's square or, for a slider,
//!   can move to a square between it and the king (pawns: their captures and pushes);
//! - **the winner's last man is taken**: the winner has a single man besides the king and the
//!   loser's king never moves; a move of that man (not a promotion) to a square next to the
//!   loser's king that checks it, when some reply takes it (the king, if the winner's king never
//!   stands next to that square, or a man of the loser that always attacks it: the winner has
//!   no other man to pin it) and every other square next to the loser's king holds a steady man
//!   of the loser or is attacked by the checking man or, wherever it stands, by the winner's
//!   king. The check comes from next to the king, so it cannot be blocked: every reply takes
//!   the man, and a lone king never mates.
//!
//! The last two use the reach sets only for the position before the move, and look at the
//! position after it directly, with obstacles that are a subset (for the winner's replies) or a
//! superset (for the loser's attacks) of the squares occupied then.
//!
//! **Case splits.** When the plain analysis leaves room for a mate, the men it first found both
//! steady and capturable are split on, one at a time (and both together when there are two):
//! *kept* (never captured on its square before it moves: a steady man stays steady)
//! or *frozen* (never moves; it may be captured where it stands). Every line is in one of the
//! two for each man, so a verdict proved for every combination holds for all lines. In a case
//! where a man is frozen, the mate is checked without it: a mating line that still has it on
//! its square at the end never captured it, so it belongs to the case where that man is kept
//! instead (which is also checked).
//!
//! **The verdict.** A mate of the loser's king on `m` needs `m` in the king's reach, a checking
//! man of the winner able to attack `m` from somewhere in its reach, and every square next to
//! `m` that the king could otherwise step to (in its reach, never attacked by a man of the
//! winner) either blocked by a distinct man of the loser that can reach it, or covered by the
//! winner's king standing on a square of its reach not next to `m`. If no `m` passes, the
//! winner cannot mate.

use caissa_board::{Bitboard, Board, Color, Piece, Rank, Role, Square};
use caissa_movegen::{Position, attacks};

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

    /// King moves of `us` from `from` (among `targets`) that no mating line contains because
    /// they leave the other side without a move (or with only moves after which the winner
    /// cannot mate). This must not lean on the goal-directed facts about the *next* move (that
    /// would be circular), so it checks that move directly, with facts that hold in every
    /// position of a line consistent with the analysis so far, our king aside:
    ///
    /// - the other side's men stand where they started and have no targets ([`Reach::stuck`]);
    /// - wherever its king stands (its reach, not next to our king's target), every square
    ///   next to it is next to our king's target, holds a steady man of its own, or is attacked
    ///   by one of our men that is never captured (with our king's target as an obstacle).
    ///
    /// A loser's move of that kind leaves the winner without a useful move, so the line cannot
    /// go on to mate. A winner's move leaves the loser without a move too, and that is no mate
    /// when the move cannot discover a check.
    fn stalemating(&self, us: Color, from: Square, targets: Bitboard) -> Bitboard {
        let board = &self.board;
        let them = !us;
        if !self.stuck[them.index()] {
            return Bitboard::EMPTY;
        }
        let their_king = board.king_of(them).expect("a king");
        let region = self.reach[their_king.index()];
        let walls = self.steady & board.by_color(them);
        let boxed = |to: Square, covered: Bitboard| {
            let near = attacks::king(to).with(to);
            (region - near)
                .into_iter()
                .all(|stand| (attacks::king(stand) - near - walls - covered).is_empty())
        };
        targets
            .into_iter()
            .filter(|&to| {
                boxed(to, self.men_attacks[us.index()])
                    && boxed(to, self.men_attacks_with(us, to))
                    && (us != self.winner || {
                        // The loser's king stands next to neither king.
                        let stands = region - attacks::king(from) - attacks::king(to);
                        !self.may_discover_check(from, stands)
                    })
            })
            .collect()
    }

    /// Moves of the loser's man from `origin`, now on `from`, to squares among `targets`, that
    /// checkmate the winner (see the module docs): the winner's king never moves, the move
    /// checks it, and whatever the rest of the position, the winner can neither step aside,
    /// nor take the checking man, nor block its line.
    fn mating_the_winner(
        &self,
        origin: Square,
        piece: Piece,
        from: Square,
        targets: Bitboard,
    ) -> Bitboard {
        let board = &self.board;
        let winner = self.winner;
        let king = board.king_of(winner).expect("a king");
        if targets.is_empty() || self.reach[king.index()] != Bitboard::from_square(king) {
            return Bitboard::EMPTY;
        }
        let men = board.by_color(winner) - board.kings();
        if (men & board.pawns())
            .into_iter()
            .any(|sq| self.reach[sq.index()].intersects(promotion_rank(winner)))
        {
            return Bitboard::EMPTY;
        }
        let loser = !winner;
        let sliders = board.by_color(loser)
            & (board.diagonal_sliders() | board.straight_sliders())
            & self.steady;
        let mut mating = Bitboard::EMPTY;
        for to in targets {
            if piece.role == Role::Pawn {
                let double = from.rank().index().abs_diff(to.rank().index()) == 2;
                let landing = Rank::Sixth.relative_to(loser);
                if double || to.rank() == Rank::Eighth.relative_to(loser) || to.rank() == landing {
                    // A double push (en passant) or a promotion (any piece), or maybe an en
                    // passant capture (a square emptied): not judged.
                    continue;
                }
            }
            // Every square occupied after the move lies in `occupied`.
            let occupied = (self.everywhere | to).without(from);
            let mut checkers = Bitboard::EMPTY;
            if piece.role != Role::King && piece_attacks(piece, to, occupied).contains(king) {
                checkers |= to;
            }
            for slider in sliders.without(origin) {
                if attacks::between(slider, king).contains(from)
                    && piece_attacks(self.piece(slider), slider, occupied).contains(king)
                {
                    checkers |= slider;
                }
            }
            if checkers.is_empty() {
                continue;
            }
            // Squares occupied after the move, whatever the rest of the position.
            let standing = (self.steady - from) | to;
            let escapes = (attacks::king(king) - (self.steady & men).without(to))
                .into_iter()
                .any(|next| {
                    let by_mover = next != to && piece_attacks(piece, to, occupied).contains(next);
                    !(by_mover || self.always_attacked(loser, next, occupied, origin))
                });
            if escapes {
                continue;
            }
            let answered = |checker: Square| {
                let role = if checker == to {
                    piece.role
                } else {
                    self.piece(checker).role
                };
                let blocks = match role {
                    Role::Knight | Role::Pawn => Bitboard::EMPTY,
                    _ => attacks::between(checker, king),
                };
                men.into_iter().any(|man| {
                    let piece = self.piece(man);
                    self.reach[man.index()].into_iter().any(|at| {
                        let (takes, goes) = if piece.role == Role::Pawn {
                            let one = Bitboard::from_square(at).forward(winner);
                            let two = if at.rank() == Rank::Second.relative_to(winner) {
                                one.forward(winner)
                            } else {
                                Bitboard::EMPTY
                            };
                            (attacks::pawn(winner, at), one | two)
                        } else {
                            let hits = piece_attacks(piece, at, standing);
                            (hits, hits)
                        };
                        takes.contains(checker) || goes.intersects(blocks)
                    })
                })
            };
            if !checkers.into_iter().all(answered) {
                mating |= to;
            }
        }
        mating
    }

    /// Moves of the winner's single man, now on `from`, to squares among `targets` where it
    /// checks the loser's king from next to it and must be taken: the loser's king never moves,
    /// some reply takes the man (the king, when the winner's king never stands next to the
    /// target, or a man that always attacks it), and every other square next to the loser's king
    /// holds a steady man of its own or is attacked by the checking man or, wherever it stands,
    /// by the winner's king. Every reply takes the man and leaves the winner a lone king.
    fn lost_next_to_king(&self, piece: Piece, from: Square, targets: Bitboard) -> Bitboard {
        let board = &self.board;
        let loser = !self.winner;
        let their_king = board.king_of(loser).expect("a king");
        let our_king = board.king_of(self.winner).expect("a king");
        let near = attacks::king(their_king) & targets;
        if near.is_empty() || self.reach[their_king.index()] != Bitboard::from_square(their_king) {
            return Bitboard::EMPTY;
        }
        let mut guarded = Bitboard::EMPTY;
        let mut always = Bitboard::FULL;
        for at in self.reach[our_king.index()] {
            guarded |= attacks::king(at);
            always &= attacks::king(at);
        }
        let walls = self.steady & board.by_color(loser);
        near.into_iter()
            .filter(|&to| {
                if piece.role == Role::Pawn && promotion_rank(self.winner).contains(to) {
                    return false;
                }
                let occupied = (self.everywhere | to).without(from);
                // Some reply takes: the king if the winner's king never guards the square,
                // else another man that always attacks it (no pin can stop it: the winner has
                // no other man).
                let takeable =
                    !guarded.contains(to) || self.always_attacked(loser, to, occupied, their_king);
                if !takeable {
                    return false;
                }
                let hits = piece_attacks(piece, to, occupied);
                hits.contains(their_king)
                    && (attacks::king(their_king).without(to) - walls - always - hits).is_empty()
            })
            .collect()
    }

    /// Whether `color`'s men that are never captured, other than the one from `except`,
    /// attack `target` from every square they may stand on, with `occupied` as obstacles.
    fn always_attacked(
        &self,
        color: Color,
        target: Square,
        occupied: Bitboard,
        except: Square,
    ) -> bool {
        (self.board.by_color(color) - self.capturable)
            .without(except)
            .into_iter()
            .any(|sq| {
                let piece = self.piece(sq);
                self.reach[sq.index()]
                    .into_iter()
                    .all(|at| piece_attacks(piece, at, occupied).contains(target))
            })
    }

    /// The squares `color`'s men (kings aside) that are never captured attack in every
    /// position, with `extra` as one more obstacle.
    fn men_attacks_with(&self, color: Color, extra: Square) -> Bitboard {
        let board = &self.board;
        let mut attacked = Bitboard::EMPTY;
        for sq in (board.by_color(color) - board.kings()) - self.capturable {
            let piece = self.piece(sq);
            let obstacles = self.obstacles(piece).with(extra);
            let mut always = Bitboard::FULL;
            for at in self.reach[sq.index()] {
                always &= piece_attacks(piece, at, obstacles);
                if always.is_empty() {
                    break;
                }
            }
            attacked |= always;
        }
        attacked
    }

    /// Whether the winner's king leaving `from` might uncover a check to the loser's king
    /// standing somewhere in `region`: some line through `from`, up to steady men, holds a
    /// square of `region` on one side and a square that a winner's man moving along such
    /// lines (or a pawn that may promote) may reach on the other.
    fn may_discover_check(&self, from: Square, region: Bitboard) -> bool {
        let board = &self.board;
        let men = board.by_color(self.winner);
        let promoting = (men & board.pawns())
            .into_iter()
            .filter(|sq| self.reach[sq.index()].intersects(promotion_rank(self.winner)));
        let mut diagonal = Bitboard::EMPTY;
        let mut straight = Bitboard::EMPTY;
        for sq in (men & (board.diagonal_sliders() | board.straight_sliders())).into_iter() {
            let reach = self.reach[sq.index()];
            if board.diagonal_sliders().contains(sq) {
                diagonal |= reach;
            }
            if board.straight_sliders().contains(sq) {
                straight |= reach;
            }
        }
        for sq in promoting {
            diagonal |= self.reach[sq.index()];
            straight |= self.reach[sq.index()];
        }
        // Each half-line from `from`, up to the first steady man: a check is uncovered along
        // a line with the loser's king on one side and a line mover on the other.
        let open = attacks::queen(from, self.steady) - self.steady;
        let half = |next: Square| -> Bitboard {
            (open & attacks::line(from, next))
                .into_iter()
                .filter(|&sq| sq == next || attacks::between(from, sq).contains(next))
                .collect()
        };
        attacks::king(from).into_iter().any(|next| {
            let movers = if next.file() == from.file() || next.rank() == from.rank() {
                straight
            } else {
                diagonal
            };
            let Some(back) = mirror(from, next) else {
                return false;
            };
            half(next).intersects(region) && half(back).intersects(movers)
        })
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

    /// Whether the analysis leaves room for a mate of the loser (see the module docs); `false`
    /// proves that the winner cannot mate.
    pub(super) fn loser_could_be_mated(&self) -> bool {
        let board = &self.board;
        let winner = self.winner;
        let loser_king = board.king_of(!winner).expect("a king");
        let winner_king = board.king_of(winner).expect("a king");
        let region = self.reach[loser_king.index()];
        // Frozen men are gone by the time of the mate: a line that mates with one of them still
        // on its square never captured it, so it is also a line of the case where it is kept.
        let men = board.occupied() - board.kings() - self.case.frozen;
        let steady = self.steady - self.case.frozen;
        // Squares a man of the winner might attack at some time.
        let mut hit = Bitboard::EMPTY;
        for sq in men & board.by_color(winner) {
            let piece = self.piece(sq);
            let reach = self.reach[sq.index()];
            if piece.role == Role::Pawn && reach.intersects(promotion_rank(winner)) {
                hit = Bitboard::FULL;
                break;
            }
            for at in reach {
                hit |= piece_attacks(piece, at, steady);
            }
        }
        let king_squares = self.reach[winner_king.index()];
        let blockers: Vec<Bitboard> = (men & board.by_color(!winner))
            .into_iter()
            .map(|sq| self.reach[sq.index()])
            .collect();
        for mate in region & hit {
            let escapes = attacks::king(mate) & (region - hit);
            if escapes.is_empty() {
                return true;
            }
            if can_block(escapes, &blockers) {
                return true;
            }
            let stands = king_squares - attacks::king(mate) - mate;
            for stand in stands {
                let left = escapes - attacks::king(stand);
                if left.is_empty() || can_block(left, &blockers) {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether distinct blockers (each given by the squares it may reach) can stand on every
/// square of `squares`.
fn can_block(squares: Bitboard, blockers: &[Bitboard]) -> bool {
    fn assign(squares: Bitboard, blockers: &[Bitboard], used: u64) -> bool {
        let Some(sq) = squares.first() else {
            return true;
        };
        let rest = squares.without(sq);
        blockers.iter().enumerate().any(|(i, reach)| {
            used & (1 << i) == 0 && reach.contains(sq) && assign(rest, blockers, used | (1 << i))
        })
    }
    squares.count() as usize <= blockers.len() && assign(squares, blockers, 0)
}

/// The square beyond `from` opposite `next` (a neighbour of `from`), if on the board.
fn mirror(from: Square, next: Square) -> Option<Square> {
    let df = from.file().index() as i32 - next.file().index() as i32;
    let dr = from.rank().index() as i32 - next.rank().index() as i32;
    from.offset(df, dr)
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

/// Whether the analysis proves that `winner` cannot mate in `pos`.
///
/// When the plain analysis leaves room for a mate, it splits on the fate of the first men it
/// found both steady and capturable (one at a time, and both together when there are two):
/// never taken in place before moving, or never moving (see the module docs).
pub(super) fn statically_unwinnable(pos: &Position, winner: Color) -> bool {
    let Some(plain) = Reach::new(pos, winner) else {
        return false;
    };
    if !plain.loser_could_be_mated() {
        return true;
    }
    let Some(split) = plain.split else {
        return false;
    };
    let mated = |case: Case| {
        Reach::assuming(pos, winner, case).is_none_or(|analysis| analysis.loser_could_be_mated())
    };
    for sq in split {
        let one = Bitboard::from_square(sq);
        if !mated(Case {
            kept: one,
            frozen: Bitboard::EMPTY,
        }) && !mated(Case {
            kept: Bitboard::EMPTY,
            frozen: one,
        }) {
            return true;
        }
    }
    if let (Some(first), Some(second)) = (split.first(), split.last())
        && split.count() == 2
    {
        let (a, b) = (Bitboard::from_square(first), Bitboard::from_square(second));
        return [
            Case {
                kept: split,
                frozen: Bitboard::EMPTY,
            },
            Case { kept: a, frozen: b },
            Case { kept: b, frozen: a },
            Case {
                kept: Bitboard::EMPTY,
                frozen: split,
            },
        ]
        .into_iter()
        .all(|case| !mated(case));
    }
    false
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
