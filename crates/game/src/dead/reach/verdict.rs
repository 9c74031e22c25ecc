//! The verdict of the reachability analysis (see the parent module): can the loser be mated
//! anywhere, with the case splits around it.
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

use caissa_board::{Bitboard, Color, Role};
use caissa_movegen::{Position, attacks};

use super::{Case, Reach, piece_attacks, promotion_rank};

impl Reach {
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

/// Whether the analysis proves that `winner` cannot mate in `pos`.
///
/// When the plain analysis leaves room for a mate, it splits on the fate of the first men it
/// found both steady and capturable (one at a time, and both together when there are two):
/// never taken in place before moving, or never moving (see the module docs).
pub(in crate::dead) fn statically_unwinnable(pos: &Position, winner: Color) -> bool {
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
