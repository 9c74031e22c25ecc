//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of legal move sequences of length `depth` from `pos` (perft).
///
/// Leaves are bulk-counted: at depth 1 the moves are counted without being played. On x86-64
/// CPUs with `POPCNT` (found at run time; feature `std`) the whole count is compiled for that
/// instruction.
///
/// ```
/// use caissa_movegen::{Position, perft};
///
/// assert_eq!(perft(&Position::standard(), 3), 8_902);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    return crate::simd::count_leaves::<MoveTree>(pos, depth);
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    perft_portable(pos, depth)
}

/// The tree of legal moves, for `simd`'s leaf count.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
struct MoveTree;

#[cfg(all(target_arch = "x86_64", feature = "std"))]
impl crate::simd::Tree for MoveTree {
    type Node = Position;
    type Edge = Move;

    #[inline(always)]
    fn count_edges(pos: &Position) -> u64 {
        pos.count_legal_moves()
    }

    #[inline(always)]
    fn for_each_edge(pos: &Position, f: impl FnMut(Move)) {
        pos.for_each_legal_move(f);
    }

    #[inline(always)]
    fn follow(pos: &mut Position, m: Move) {
        // `play_unchecked` itself, forced inline: the caller is compiled with other target
        // features, and the compiler would otherwise call it.
        pos.play_unchecked_by(m, pos.moving_role(m));
    }
}

#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
fn perft_portable(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            pos.for_each_legal_move(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                nodes += perft_portable(&child, depth - 1);
            });
            nodes
        }
    }
}

/// Perft split by first move: each legal move with the perft of the position after it, at
/// `depth - 1`, in generation order, each counted when the iterator reaches it. Empty for
/// depth 0.
///
/// ```
/// use caissa_movegen::{Position, perft, perft_divide};
///
/// let pos = Position::standard();
/// let total: u64 = perft_divide(&pos, 3).map(|(_, nodes)| nodes).sum();
/// assert_eq!(total, perft(&pos, 3));
/// ```
pub fn perft_divide(pos: &Position, depth: u32) -> impl Iterator<Item = (Move, u64)> + '_ {
    let moves = if depth == 0 {
        MoveList::new()
    } else {
        pos.legal_moves()
    };
    moves.into_iter().map(move |m| {
        let mut child = *pos;
        child.play_unchecked(m);
        (m, perft(&child, depth - 1))
    })
}
