//! Fuzz target `dead`: dead-position verdicts for any legal setup of the [`position`](super::position)
//! byte format.

use core::fmt;

use caissa_board::Color;
use caissa_game::dead::{Budget, Winnability, can_win_with};
use caissa_movegen::{Move, Position};

use super::position::setup_from_bytes;

/// The node budget of [`check`]: small, so that the verdicts come from the proofs rather
/// than from deep searches, and each input is quick.
const DEAD_BUDGET: Budget = Budget { nodes: 1 << 12 };

/// Dead positions: for any legal setup ([`setup_from_bytes`], as [`position::check`](super::position::check) reads it),
/// `can_win` with a small budget answers for each colour without panicking; a winnable verdict's
/// line replays legally and ends with the other side checkmated; an unwinnable verdict never
/// comes for a side that can mate within two plies (mate in one, or after any reply of the side
/// to move).
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let (setup, mode) = setup_from_bytes(data);
    let Ok(pos) = Position::from_setup(setup, mode) else {
        return;
    };
    for color in Color::ALL {
        match can_win_with(&pos, color, DEAD_BUDGET) {
            Winnability::Winnable(line) => {
                assert_mating_line(&pos, color, &line, &format_args!("{setup:?}"));
            }
            Winnability::Unwinnable => {
                let mated_within_two_plies = if pos.turn() == color {
                    mates_in_one(&pos)
                } else {
                    let mut found = false;
                    pos.for_each_legal_move(|m| {
                        let mut after = pos;
                        after.play_unchecked(m);
                        found |= mates_in_one(&after);
                    });
                    found
                };
                assert!(
                    !mated_within_two_plies,
                    "{setup:?}: {color:?} called unable to win but mates within two plies"
                );
            }
            Winnability::Unknown => {}
        }
    }
}

/// Asserts that `line`, played from `pos`, is legal move by move and ends with `color`'s
/// opponent checkmated: what a winnable verdict of `can_win` promises. `context` names the case
/// in the panic message.
///
/// # Panics
///
/// When the line has an illegal move, or does not end in a mate by `color`.
pub fn assert_mating_line(pos: &Position, color: Color, line: &[Move], context: &dyn fmt::Display) {
    let mut end = *pos;
    for &m in line {
        end = end
            .play(m)
            .unwrap_or_else(|e| panic!("{context}: illegal move in {line:?}: {e}"));
    }
    assert!(end.is_checkmate(), "{context}: {line:?} ends without mate");
    assert_eq!(
        end.turn(),
        !color,
        "{context}: {line:?} mates the wrong side"
    );
}

/// Whether the side to move has a move that checkmates.
fn mates_in_one(pos: &Position) -> bool {
    let mut found = false;
    pos.for_each_legal_move(|m| {
        let mut after = *pos;
        after.play_unchecked(m);
        found |= after.is_checkmate();
    });
    found
}
