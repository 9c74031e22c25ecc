//! Tier 2 of the analysis (see the parent module): who cannot mate for lack of material (O(1),
//! popcounts only).
//!
//! The rules are those of rules-spec 10.2/10.3, per side, as lichess and python-chess apply them
//! on a flag fall. Each is a theorem about checkmate patterns that keeps holding in every later
//! position (material only shrinks, and no rule applies while a pawn could promote into what
//! the rule excludes), so the search also uses it to close lines.
//!
//! - **Lone king**: a king never gives check.
//! - **King and knight against king and queens (any number, none included)**: say the knight
//!   stands at `K + (1, 2)` from the mated king `K` (the other seven cases are symmetric). The
//!   squares `K + (0, 1)` and `K + (1, 1)` touch both; a queen on either would take the knight,
//!   the mating king cannot stand there, so both are empty and must be covered by the mating
//!   king, which forces it to `K + (0, 2)`. Then `K + (1, 0)`, on the board because the
//!   knight's file is, is covered by neither the king nor the knight: it must hold a queen,
//!   and that queen takes the knight through the empty `K + (1, 1)`. No pins exist to stop it.
//! - **King and bishops, every bishop on the board on one square colour, no knights and no
//!   pawns anywhere**: only a bishop can give check, and only one at a time (a bishop that
//!   leaves a line through the king can never land on the other line through it). With the
//!   checking diagonal leaving `K` towards `K + (1, 1)`, the orthogonal neighbours `K + (1, 0)`
//!   and `K + (0, 1)` are on the board and of the other colour: no bishop ever covers or stands
//!   on them, a rook or queen there could interpose on (or capture at) `K + (1, 1)` (nothing can
//!   pin it), so both must be empty and covered by the mating king, which would then stand
//!   next to the mated king.

use caissa_board::{Bitboard, Board, Color};

/// Whether `color` can never checkmate with the material on `board`, whatever the position.
#[inline]
pub(crate) fn insufficient(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let our_men = ours - board.kings();
    if our_men.is_empty() {
        return true;
    }
    if !our_men.more_than_one() && our_men.is_subset(board.knights()) {
        // King and knight: the opponent may have only queens.
        return (theirs - board.kings()).is_subset(board.queens());
    }
    if our_men.is_subset(board.bishops()) && (board.knights() | board.pawns()).is_empty() {
        let bishops = board.bishops();
        return bishops.is_subset(Bitboard::LIGHT_SQUARES)
            || bishops.is_subset(Bitboard::DARK_SQUARES);
    }
    false
}
