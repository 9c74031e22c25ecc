//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::moves::Move;
use crate::position::Position;

/// The number of legal move sequences of length `depth` from `pos` (perft).
///
/// Leaves are bulk-counted: at depth 1 the moves are counted without being played.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        return crate::simd::perft_popcnt(pos, depth);
    }
    perft_portable(pos, depth)
}

macro_rules! perft_body {
    ($recurse:ident, $pos:ident, $depth:ident) => {
        match $depth {
            0 => 1,
            1 => $pos.count_legal_moves(),
            _ => {
                let mut nodes = 0;
                $pos.for_each_legal_move(|m| {
                    let mut child = *$pos;
                    child.play_unchecked(m);
                    nodes += $recurse(&child, $depth - 1);
                });
                nodes
            }
        }
    };
}
pub(crate) use perft_body;

fn perft_portable(pos: &Position, depth: u32) -> u64 {
    perft_body!(perft_portable, pos, depth)
}

/// Perft split by first move: each legal move with the perft of the position after it, at
/// `depth - 1`, in generation order. Empty for depth 0.
#[must_use]
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
