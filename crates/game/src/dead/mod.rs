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

mod material;
mod reach;
mod search;

use caissa_board::Color;
use caissa_movegen::{Move, Position};

use search::{Found, Search};

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

/// How much work [`can_win_with`] may do before answering [`Winnability::Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Moves tried by the searches, all tiers together.
    pub nodes: u64,
}

impl Budget {
    /// The budget of [`can_win`]: enough for every known hard position.
    pub const DEFAULT: Budget = Budget { nodes: 1 << 24 };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Whether `color` can checkmate its opponent by some sequence of legal moves, with the
/// default [`Budget`].
#[must_use]
pub fn can_win(pos: &Position, color: Color) -> Winnability {
    can_win_with(pos, color, Budget::DEFAULT)
}

/// Whether `color` can checkmate its opponent by some sequence of legal moves, trying at most
/// `budget.nodes` moves in its searches.
#[must_use]
pub fn can_win_with(pos: &Position, color: Color, budget: Budget) -> Winnability {
    if !pos.has_legal_moves() {
        return if pos.turn() != color && pos.is_check() {
            Winnability::Winnable(Vec::new())
        } else {
            Winnability::Unwinnable
        };
    }
    if material::insufficient(pos.board(), color) {
        return Winnability::Unwinnable;
    }
    let (start, forced, cycles) = search::play_forced(pos, 32);
    if cycles {
        return Winnability::Unwinnable;
    }
    if !start.has_legal_moves() {
        return if start.turn() != color && start.is_check() {
            Winnability::Winnable(forced)
        } else {
            Winnability::Unwinnable
        };
    }
    let with_prefix = |line: Vec<Move>| {
        let mut full = forced.clone();
        full.extend(line);
        Winnability::Winnable(full)
    };
    let mut search = Search::new(&start, color, budget.nodes);
    match search.deepen(&start, [1], Some(1000), false) {
        Found::Mate(line) => return with_prefix(line),
        Found::NoMate => return Winnability::Unwinnable,
        Found::Open => {}
    }
    let board = start.board();
    let majors = (board.queens() | board.rooks() | board.knights()).any();
    if !majors && reach::statically_unwinnable(&start, color) {
        return Winnability::Unwinnable;
    }
    match search.deepen(&start, 2..=128, Some(7000), true) {
        Found::Mate(line) => return with_prefix(line),
        Found::NoMate => return Winnability::Unwinnable,
        Found::Open => {}
    }
    if majors && reach::statically_unwinnable(&start, color) {
        return Winnability::Unwinnable;
    }
    let depth = if majors { 4 } else { 7 };
    if search::every_line_ends(&start, color, depth, &mut search.budget) {
        return Winnability::Unwinnable;
    }
    match search.deepen(&start, 2.., None, true) {
        Found::Mate(line) => with_prefix(line),
        Found::NoMate => Winnability::Unwinnable,
        Found::Open => Winnability::Unknown,
    }
}

/// Whether the position is dead: neither player can checkmate (FIDE 5.2.2).
#[must_use]
pub fn is_dead(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|color| can_win(pos, color) == Winnability::Unwinnable)
}
