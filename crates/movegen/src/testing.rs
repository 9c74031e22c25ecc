//! Shared helpers of the unit tests.

use crate::Position;

/// Positions of pseudo-random games from the standard start and from Chess960 starts.
pub(crate) fn test_positions() -> Vec<Position> {
    let mut starts = vec![Position::standard()];
    starts.extend((0..960).step_by(97).filter_map(Position::chess960));
    let mut positions = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    for start in starts {
        for _ in 0..30 {
            let mut pos = start;
            for _ in 0..80 {
                positions.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
    positions
}
