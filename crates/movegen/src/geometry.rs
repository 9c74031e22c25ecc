//! Slow, obviously correct board geometry: sliding attacks by walking rays one square at a time.
//!
//! This file is shared, via `#[path]`, by the build script (which derives the fast slider tables
//! from it) and by the library (which derives the between/line tables from it and tests the fast
//! tables against it). It uses nothing but `core`, so it compiles in both places.

/// The four rook directions as (file step, rank step).
pub(crate) const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four bishop directions as (file step, rank step).
pub(crate) const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a slider on `square` (0..64) attacks along `directions`, stopping at (and
/// including) the first occupied square of each ray.
pub(crate) const fn sliding_attacks(
    square: u32,
    occupied: u64,
    directions: &[(i32, i32); 4],
) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (square % 8) as i32 + df;
        let mut rank = (square / 8) as i32 + dr;
        while 0 <= file && file < 8 && 0 <= rank && rank < 8 {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
        d += 1;
    }
    attacks
}

/// The occupancy mask of a magic or PEXT lookup: the squares whose occupancy can change the
/// attacks, i.e. the empty-board rays without their last square.
pub(crate) const fn relevant_occupancy(square: u32, directions: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (square % 8) as i32 + df;
        let mut rank = (square / 8) as i32 + dr;
        while 0 <= file + df && file + df < 8 && 0 <= rank + dr && rank + dr < 8 {
            mask |= 1u64 << (rank * 8 + file);
            file += df;
            rank += dr;
        }
        d += 1;
    }
    mask
}

/// The squares a piece moving by the given (file, rank) steps reaches from `square` in one step.
pub(crate) const fn step_attacks(square: u32, steps: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    let mut i = 0;
    while i < steps.len() {
        let file = (square % 8) as i32 + steps[i].0;
        let rank = (square / 8) as i32 + steps[i].1;
        if 0 <= file && file < 8 && 0 <= rank && rank < 8 {
            attacks |= 1u64 << (rank * 8 + file);
        }
        i += 1;
    }
    attacks
}
