//! Touch-move (Article 4): what the player having the move has touched, released and chosen
//! this turn, and which moves that leaves them.
//!
//! [`Touches`] is the per-turn state of rules-spec section 2.2; [`Touches::obligation`] computes
//! the moves Article 4 allows (`None`: any legal move, 4.5):
//!
//! 1. The touches split into own pieces and the opponent's, each in the order touched.
//! 2. Only own pieces, king then a castling rook first (4.4.1): castling with that rook if
//!    legal; otherwise any king move, castling on the other side included (4.4.3); with no king
//!    move, any move.
//! 3. Only own pieces, a castling rook then the king first (4.4.2): no castling with that rook
//!    this move, and 4.3.1 applies to the pieces touched.
//! 4. Only own pieces (4.3.1): the first touched piece that has a legal move must move.
//! 5. Only the opponent's (4.3.2): the first touched piece that can be captured must be.
//! 6. Both (4.3.3): the first-touched opponent piece captured by the first-touched own piece if
//!    that is legal; otherwise the first touched piece, in the order touched, that can be moved
//!    (own) or captured (opponent's).
//! 7. A piece released on a square it can legally reach must have moved there (4.7); a king
//!    released on its castling square means castling when that is legal (4.7.2; otherwise the
//!    king, touched, must move: 4.3.1).
//! 8. A piece put on the promotion square is the promotion chosen (4.4.4).
//!
//! A touched square whose piece can neither move nor be taken binds nothing (4.5).

use caissa_board::{Color, Piece, Role, Square};
use caissa_game::Article;
use caissa_movegen::{Move, Position};

use crate::articles;

/// The moves Article 4 (or another rule) leaves a player, and the article that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    /// The moves allowed, legal moves of the position; never empty.
    pub moves: Vec<Move>,
    /// The article that restricts the choice.
    pub article: Article,
}

impl Obligation {
    /// An obligation to play one of `moves`, or `None` if there are none (then nothing binds).
    pub(crate) fn of(moves: Vec<Move>, article: Article) -> Option<Obligation> {
        (!moves.is_empty()).then_some(Obligation { moves, article })
    }

    /// Whether `m` satisfies the obligation.
    #[must_use]
    pub fn allows(&self, m: Move) -> bool {
        self.moves.contains(&m)
    }
}

/// What the player having the move has touched this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Touches {
    /// Pieces touched with intent, in order (a piece touched again keeps its first place).
    touched: Vec<(Square, Piece)>,
    /// A piece released on a square: `(from, to)` (4.7).
    released: Option<(Square, Square)>,
    /// A promotion piece placed on its square (4.4.4).
    promotion: Option<(Square, Role)>,
}

impl Touches {
    /// Records a deliberate touch of `piece` on `square`.
    pub(crate) fn touch(&mut self, square: Square, piece: Piece) {
        if !self.touched.iter().any(|&(sq, _)| sq == square) {
            self.touched.push((square, piece));
        }
    }

    /// The square of the own piece touched last, if any.
    pub(crate) fn last_own(&self, color: Color) -> Option<Square> {
        self.touched
            .iter()
            .rev()
            .find(|(_, piece)| piece.color == color)
            .map(|&(sq, _)| sq)
    }

    /// Records a piece released from `from` on `to` (a later release replaces an earlier one
    /// only if the earlier bound nothing: that is checked when the obligation is computed).
    pub(crate) fn release(&mut self, from: Square, to: Square, pos: &Position) {
        let binding = |(f, t): (Square, Square)| !destination_moves(pos, f, t).is_empty();
        if self.released.is_none_or(|earlier| !binding(earlier)) {
            self.released = Some((from, to));
        }
    }

    /// Records a promotion piece placed on `square` (the first choice stands, 4.4.4).
    pub(crate) fn promote(&mut self, square: Square, role: Role) {
        self.promotion.get_or_insert((square, role));
    }

    /// Whether the player has touched anything with intent this turn (4.8, 9.4).
    pub(crate) fn any(&self) -> bool {
        !self.touched.is_empty() || self.released.is_some() || self.promotion.is_some()
    }

    /// The moves Article 4 leaves the player having the move in `pos`, or `None` for any.
    pub(crate) fn obligation(&self, pos: &Position) -> Option<Obligation> {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mut result = self.touch_obligation(pos, &legal);
        if let Some((from, to)) = self.released {
            let moves = destination_moves(pos, from, to);
            if let Some(o) = Obligation::of(moves, articles::TOUCH_RELEASED) {
                result = Some(o);
            }
        }
        if let Some((square, role)) = self.promotion {
            let base = result.as_ref().map_or(&legal[..], |o| &o.moves[..]);
            let moves = base
                .iter()
                .copied()
                .filter(|m| m.to() == square && m.promotion_role() == Some(role))
                .collect();
            if let Some(o) = Obligation::of(moves, articles::TOUCH_PROMOTION) {
                result = Some(o);
            }
        }
        result
    }

    /// 4.3 and 4.4.1 to 4.4.3.
    fn touch_obligation(&self, pos: &Position, legal: &[Move]) -> Option<Obligation> {
        let us = pos.turn();
        let own: Vec<(Square, Piece)> = self
            .touched
            .iter()
            .copied()
            .filter(|(_, p)| p.color == us)
            .collect();
        let theirs: Vec<(Square, Piece)> = self
            .touched
            .iter()
            .copied()
            .filter(|(_, p)| p.color != us)
            .collect();
        let moves_of = |sq: Square, pool: &[Move]| -> Vec<Move> {
            pool.iter().copied().filter(|m| m.from() == sq).collect()
        };
        let captures_of = |sq: Square| -> Vec<Move> {
            legal
                .iter()
                .copied()
                .filter(|&m| captured_square(pos, m) == Some(sq))
                .collect()
        };
        if theirs.is_empty() && own.len() >= 2 {
            let ((a, pa), (b, pb)) = (own[0], own[1]);
            if pa.role == Role::King && is_castling_rook(pos, b, pb) {
                let castle = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() && m.to() == b)
                    .collect();
                return Obligation::of(castle, articles::TOUCH_CASTLING).or_else(|| {
                    Obligation::of(moves_of(a, legal), articles::TOUCH_CASTLING_ILLEGAL)
                });
            }
            if is_castling_rook(pos, a, pa) && pb.role == Role::King {
                let pool: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !(m.is_castle() && m.to() == a))
                    .collect();
                return own.iter().find_map(|&(sq, _)| {
                    Obligation::of(moves_of(sq, &pool), articles::TOUCH_ROOK_FIRST)
                });
            }
        }
        match (own.first(), theirs.first()) {
            (None, None) => None,
            (Some(_), None) => own
                .iter()
                .find_map(|&(sq, _)| Obligation::of(moves_of(sq, legal), articles::TOUCH_OWN)),
            (None, Some(_)) => theirs
                .iter()
                .find_map(|&(sq, _)| Obligation::of(captures_of(sq), articles::TOUCH_OPPONENT)),
            (Some(&(mine, _)), Some(&(target, _))) => {
                let direct = captures_of(target)
                    .into_iter()
                    .filter(|m| m.from() == mine)
                    .collect();
                Obligation::of(direct, articles::TOUCH_BOTH).or_else(|| {
                    self.touched.iter().find_map(|&(sq, piece)| {
                        let moves = if piece.color == us {
                            moves_of(sq, legal)
                        } else {
                            captures_of(sq)
                        };
                        Obligation::of(moves, articles::TOUCH_BOTH)
                    })
                })
            }
        }
    }
}

/// The square of the piece `m` captures, if it captures.
pub(crate) fn captured_square(pos: &Position, m: Move) -> Option<Square> {
    if m.is_castle() {
        None
    } else if m.is_en_passant() {
        Some(Square::from_coords(m.to().file(), m.from().rank()))
    } else {
        pos.board().piece_at(m.to()).map(|_| m.to())
    }
}

/// Whether `piece` on `square` is a rook its side may still castle with.
fn is_castling_rook(pos: &Position, square: Square, piece: Piece) -> bool {
    piece.role == Role::Rook
        && square.rank() == caissa_board::Rank::back_rank(piece.color)
        && pos
            .castling_rights()
            .iter()
            .any(|(color, _, file)| color == piece.color && file == square.file())
}

/// The legal moves taking the piece on `from` to `to` (a king's castling square counts as the
/// destination of castling).
fn destination_moves(pos: &Position, from: Square, to: Square) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.for_each_legal_move_from(from.into(), |m| {
        let lands = if m.is_castle() {
            m.king_to() == to
        } else {
            m.to() == to
        };
        if lands {
            moves.push(m);
        }
    });
    moves
}
