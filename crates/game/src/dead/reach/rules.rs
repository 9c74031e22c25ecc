//! The rules of the reachability fixpoint (see the parent module) that reason about mating
//! lines only.
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

use caissa_board::{Bitboard, Color, Piece, Rank, Role, Square};
use caissa_movegen::attacks;

use super::{Reach, piece_attacks, promotion_rank};

impl Reach {
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
    pub(super) fn stalemating(&self, us: Color, from: Square, targets: Bitboard) -> Bitboard {
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
    pub(super) fn mating_the_winner(
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
    pub(super) fn lost_next_to_king(
        &self,
        piece: Piece,
        from: Square,
        targets: Bitboard,
    ) -> Bitboard {
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
    pub(super) fn always_attacked(
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
    pub(super) fn men_attacks_with(&self, color: Color, extra: Square) -> Bitboard {
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
    pub(super) fn may_discover_check(&self, from: Square, region: Bitboard) -> bool {
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
}

/// The square beyond `from` opposite `next` (a neighbour of `from`), if on the board.
fn mirror(from: Square, next: Square) -> Option<Square> {
    let df = from.file().index() as i32 - next.file().index() as i32;
    let dr = from.rank().index() as i32 - next.rank().index() as i32;
    from.offset(df, dr)
}
