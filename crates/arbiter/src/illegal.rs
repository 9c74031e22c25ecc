//! Written moves that are not legal (Article 7.5): what they are, which piece moved, and the
//! position they leave when one stands (A.5.2).
//!
//! The notation crate matches written moves against the *legal* moves; an illegal move still
//! moved some piece, which touch-move then binds (7.5.1: the replacement move is subject to
//! 4.3 and 4.7). The piece is found from the text: UCI names its square; for SAN, the only piece
//! of the written kind that could reach the destination on an empty board (pawns: the one
//! behind it, or diagonally behind for a capture), or else the only piece of that kind (a king
//! moving two squares). When that is not a single piece, the move is still illegal, only
//! without a piece to bind.

use core::num::NonZeroU32;

use caissa_board::{Bitboard, Color, Piece, Rank, Role, Square};
use caissa_movegen::{Move, Position, attacks};
use caissa_notation::san::{San, SanError, SanPlus, Suffix};
use caissa_notation::uci::UciMove;

use crate::events::MoveText;

/// A written move that is not a legal move of the position it was made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IllegalMove {
    /// The move as written.
    pub(crate) text: MoveText,
    /// The square of the piece that moved, when it can be told.
    pub(crate) from: Option<Square>,
    /// Where it went (`None` for castling and the null move).
    pub(crate) to: Option<Square>,
    /// The promotion piece written.
    pub(crate) promotion: Option<Role>,
}

/// What a written move is in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// A legal move.
    Legal(Move),
    /// A pawn move to the last rank without the new piece (7.5.2); legal with a queen.
    UnfinishedPromotion(Move),
    /// Not a legal move.
    Illegal(IllegalMove),
    /// SAN that fits several legal moves: the log does not say which was made.
    Ambiguous,
}

/// Reads `text` in `pos`.
pub(crate) fn read(pos: &Position, text: MoveText) -> Written {
    match text {
        MoveText::Uci(uci) => match uci.to_move(pos) {
            Ok(m) => Written::Legal(m),
            Err(_) => match uci {
                UciMove::Normal {
                    from,
                    to,
                    promotion,
                } => {
                    if promotion.is_none() {
                        let queen = UciMove::Normal {
                            from,
                            to,
                            promotion: Some(Role::Queen),
                        };
                        if let Ok(m) = queen.to_move(pos) {
                            return Written::UnfinishedPromotion(m);
                        }
                    }
                    Written::Illegal(IllegalMove {
                        text,
                        from: Some(from),
                        to: Some(to),
                        promotion,
                    })
                }
                UciMove::Null => Written::Illegal(IllegalMove {
                    text,
                    from: None,
                    to: None,
                    promotion: None,
                }),
            },
        },
        MoveText::San(san_plus) => match san_plus.san.to_move(pos) {
            Ok(m) => Written::Legal(m),
            Err(SanError::Ambiguous { .. }) => Written::Ambiguous,
            Err(_) => read_illegal_san(pos, text, san_plus.san),
        },
    }
}

fn read_illegal_san(pos: &Position, text: MoveText, san: San) -> Written {
    let us = pos.turn();
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if role == Role::Pawn && promotion.is_none() {
                let queen = San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion: Some(Role::Queen),
                };
                if let Ok(m) = queen.to_move(pos) {
                    return Written::UnfinishedPromotion(m);
                }
            }
            let mut written = pos.board().by_piece(role.of(us));
            if let Some(file) = file {
                written &= Bitboard::from_file(file);
            }
            if let Some(rank) = rank {
                written &= Bitboard::from_rank(rank);
            }
            let pawn_capture = capture || file.is_some_and(|f| f != to.file());
            let mut origins = reach(us, role, to, pawn_capture) & written;
            if origins.is_empty() && role != Role::Pawn {
                // No such piece could get there even on an empty board: if only one piece fits
                // the text (the king, say), that is the one moved.
                origins = written;
            }
            if role == Role::Pawn && !capture {
                // The nearer pawn behind the destination is the one that moved.
                let behind = to.offset(0, if us == Color::White { -1 } else { 1 });
                if let Some(sq) = behind.filter(|&sq| origins.contains(sq)) {
                    origins = sq.into();
                }
            }
            Written::Illegal(IllegalMove {
                text,
                from: origins.single_square(),
                to: Some(to),
                promotion,
            })
        }
        San::Castle(_) | San::Null => Written::Illegal(IllegalMove {
            text,
            from: matches!(san, San::Castle(_)).then(|| pos.king(us)),
            to: None,
            promotion: None,
        }),
    }
}

/// The squares from which a `role` of `color` could reach `to` on an empty board.
fn reach(color: Color, role: Role, to: Square, pawn_capture: bool) -> Bitboard {
    match role {
        Role::Pawn => {
            let back = if color == Color::White { -1 } else { 1 };
            if pawn_capture {
                // Squares diagonally behind: those a pawn of the other colour on `to` attacks.
                attacks::pawn(!color, to)
            } else {
                [to.offset(0, back), to.offset(0, 2 * back)]
                    .into_iter()
                    .flatten()
                    .filter(|sq| {
                        sq.rank() != Rank::back_rank(color)
                            && (sq.distance(to) == 1
                                || sq.rank() == Rank::Second.relative_to(color))
                    })
                    .fold(Bitboard::EMPTY, |bb, sq| bb.with(sq))
            }
        }
        Role::Knight => attacks::knight(to),
        Role::Bishop => attacks::bishop(to, Bitboard::EMPTY),
        Role::Rook => attacks::rook(to, Bitboard::EMPTY),
        Role::Queen => attacks::queen(to, Bitboard::EMPTY),
        Role::King => attacks::king(to),
    }
}

impl IllegalMove {
    /// The pieces the move touched, own piece first: the piece that moved and the one on its
    /// destination (7.5.1: the replacement move is subject to touch-move).
    pub(crate) fn touched(&self, pos: &Position) -> Vec<(Square, Piece)> {
        let board = pos.board();
        [self.from, self.to]
            .into_iter()
            .flatten()
            .filter_map(|sq| board.piece_at(sq).map(|p| (sq, p)))
            .filter(|&(sq, p)| (Some(sq) == self.from) == (p.color == pos.turn()))
            .collect()
    }

    /// The position if this move stood (A.5.2), and how the record writes it: `None` when the
    /// move cannot be put on the board or leaves a position the Laws cannot continue from (the
    /// mover's king left in check, a pawn on the last rank, ...).
    pub(crate) fn place(&self, pos: &Position) -> Option<(Position, SanPlus)> {
        let (from, to) = (self.from?, self.to?);
        let us = pos.turn();
        let mut setup = pos.to_setup();
        let piece = setup.board.piece_at(from).filter(|p| p.color == us)?;
        let target = setup.board.piece_at(to);
        if from == to || target.is_some_and(|p| p.color == us) {
            return None;
        }
        let last_rank = to.rank() == Rank::back_rank(!us);
        let role = match (piece.role, self.promotion) {
            (Role::Pawn, Some(role)) if last_rank && role != Role::King && role != Role::Pawn => {
                role
            }
            (role, None) if !(role == Role::Pawn && last_rank) => role,
            _ => return None,
        };
        setup.board.remove_piece_at(from);
        setup.board.set_piece_at(to, role.of(us));
        if piece.role == Role::King {
            setup.castling_rights.clear(us);
        } else if piece.role == Role::Rook && from.rank() == Rank::back_rank(us) {
            setup.castling_rights.clear_rook(us, from.file());
        }
        if target.is_some_and(|p| p.role == Role::Rook) && to.rank() == Rank::back_rank(!us) {
            setup.castling_rights.clear_rook(!us, to.file());
        }
        setup.ep_square = None;
        setup.halfmoves = if piece.role == Role::Pawn || target.is_some() {
            0
        } else {
            setup.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            setup.fullmoves = setup.fullmoves.checked_add(1).unwrap_or(NonZeroU32::MAX);
        }
        setup.turn = !us;
        let after = Position::from_setup(setup, pos.castling_mode()).ok()?;
        let san = match self.text {
            MoveText::San(san) => san.san,
            MoveText::Uci(_) => San::Normal {
                role: piece.role,
                file: Some(from.file()),
                rank: (piece.role != Role::Pawn).then_some(from.rank()),
                capture: target.is_some(),
                to,
                promotion: self.promotion,
            },
        };
        Some((
            after,
            SanPlus {
                san,
                suffix: Suffix::from_position(&after),
            },
        ))
    }
}
