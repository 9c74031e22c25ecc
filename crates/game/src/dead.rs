//! Dead positions and unwinnability (FIDE 5.2.2, and "cannot win" in 6.9, 5.1.2 and 7.5.5).
//!
//! A position is **dead** when neither player can checkmate the other by any series of legal
//! moves; a player **cannot win** when no series of legal moves lets that player checkmate.
//! [`can_win`] answers per player, [`is_dead`] for both.
//!
//! The analysis has tiers, cheapest first; each is sound (it never calls a winnable position
//! unwinnable):
//!
//! 1. Material: a player with only a king cannot win; a player with a king and one knight or one
//!    bishop cannot win unless the opponent has something that could block its own king.
//!
//! Anything the tiers cannot decide is [`Winnability::Unknown`].

use caissa_board::{Bitboard, Color, Role};
use caissa_movegen::{Move, Position};

/// Whether a player can still checkmate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Winnability {
    /// The player can checkmate; the moves (both sides', from the position) of one mating line.
    Winnable(Vec<Move>),
    /// No sequence of legal moves lets the player checkmate.
    Unwinnable,
    /// The analysis ran out of budget before deciding.
    Unknown,
}

/// Whether `color` can checkmate its opponent by some sequence of legal moves.
#[must_use]
pub fn can_win(pos: &Position, color: Color) -> Winnability {
    if insufficient_material(pos, color) {
        Winnability::Unwinnable
    } else {
        Winnability::Unknown
    }
}

/// Whether the position is dead: neither player can checkmate (FIDE 5.2.2).
#[must_use]
pub fn is_dead(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|color| can_win(pos, color) == Winnability::Unwinnable)
}

/// The material rule: `color` cannot mate with a lone king, nor with king and one minor piece
/// against a lone king.
fn insufficient_material(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let our_men = ours - board.kings();
    if our_men.is_empty() {
        return true;
    }
    let minor = board.knights() | board.bishops();
    !our_men.more_than_one()
        && our_men.is_subset(minor)
        && (theirs - board.kings()) == Bitboard::EMPTY
        && board.role_at(our_men.first().expect("one man")) != Some(Role::Pawn)
}
