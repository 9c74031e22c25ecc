//! Attack tables: which squares each piece attacks from each square.
//!
//! Knight, king and pawn attacks, and the between/line tables, are built by `const fn`s from the
//! slow geometry in `geometry.rs` at compile time. Rook and bishop attacks use "fancy" magic
//! bitboards: the build script finds the magics and fills one shared table (about 841 KiB). A build
//! for a CPU with BMI2 (an opt-in: `-C target-cpu=native` or `-C target-feature=+bmi2`) indexes the
//! same table with PEXT instead of a multiply.

use caissa_board::{Bitboard, Board, Color, Piece, Role, Square};

use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, sliding_attacks, step_attacks};

/// One square's slice of the slider table.
#[derive(Debug)]
pub(crate) struct SliderEntry {
    mask: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    magic: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    shift: u32,
    offset: usize,
}

mod generated {
    use super::SliderEntry;
    include!(concat!(env!("OUT_DIR"), "/sliders.rs"));
}

use generated::{BISHOP_ENTRIES, ROOK_ENTRIES, SLIDER_ATTACKS};

#[inline(always)]
fn slider_lookup(entry: &SliderEntry, occupied: Bitboard) -> Bitboard {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    let index = crate::simd::pext(occupied.0, entry.mask) as usize;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    Bitboard(SLIDER_ATTACKS[entry.offset + index])
}

/// The squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
#[must_use]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_lookup(&ROOK_ENTRIES[sq.index()], occupied)
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
#[must_use]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_lookup(&BISHOP_ENTRIES[sq.index()], occupied)
}

/// The squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
#[must_use]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

const fn ray_table(directions: &[(i32, i32); 4]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(sliding_attacks(sq as u32, 0, directions));
        sq += 1;
    }
    table
}

static ROOK_RAYS: [Bitboard; 64] = ray_table(&ROOK_DIRECTIONS);
static BISHOP_RAYS: [Bitboard; 64] = ray_table(&BISHOP_DIRECTIONS);

/// The squares a rook on `sq` attacks on an empty board: its rank and file.
#[inline(always)]
#[must_use]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// The squares a bishop on `sq` attacks on an empty board: its diagonals.
#[inline(always)]
#[must_use]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const WHITE_PAWN_STEPS: [(i32, i32); 2] = [(-1, 1), (1, 1)];
const BLACK_PAWN_STEPS: [(i32, i32); 2] = [(-1, -1), (1, -1)];

const fn step_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(step_attacks(sq as u32, steps));
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [Bitboard; 64] = step_table(&KNIGHT_STEPS);
static KING_ATTACKS: [Bitboard; 64] = step_table(&KING_STEPS);
static PAWN_ATTACKS: [[Bitboard; 64]; 2] =
    [step_table(&WHITE_PAWN_STEPS), step_table(&BLACK_PAWN_STEPS)];

/// The squares a knight on `sq` attacks.
#[inline(always)]
#[must_use]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[sq.index()]
}

/// The squares a king on `sq` attacks.
#[inline(always)]
#[must_use]
pub fn king(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// The squares a `color` pawn on `sq` attacks (diagonally forward).
#[inline(always)]
#[must_use]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

/// The men of `color` on `board` that attack `sq`, with `occupied` blocking the sliders; a
/// placement of any kind (several kings, pawns on a back rank) too.
#[must_use]
pub fn attackers(board: &Board, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
    ((knight(sq) & board.knights())
        | (king(sq) & board.kings())
        | (pawn(!color, sq) & board.pawns())
        | (bishop(sq, occupied) & board.diagonal_sliders())
        | (rook(sq, occupied) & board.straight_sliders()))
        & board.by_color(color)
}

/// The squares `piece` on `sq` attacks, given the occupied squares.
///
/// ```
/// use caissa_movegen::attacks;
/// use caissa_movegen::{Bitboard, Color, Piece, Role, Square};
///
/// let rook = Piece { color: Color::White, role: Role::Rook };
/// let blocker = Bitboard::from_square(Square::A4);
/// assert_eq!(attacks::piece(rook, Square::A1, blocker).count(), 10);
/// let pawn = Piece { color: Color::Black, role: Role::Pawn };
/// assert_eq!(attacks::piece(pawn, Square::E5, Bitboard::EMPTY), attacks::pawn(Color::Black, Square::E5));
/// ```
#[must_use]
pub fn piece(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn(piece.color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// `(between, line)`: for each aligned pair the squares strictly between them, and the whole
/// line (edge to edge) through both.
const fn ray_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let axes: [[(i32, i32); 2]; 4] = [
        [ROOK_DIRECTIONS[0], ROOK_DIRECTIONS[1]],
        [ROOK_DIRECTIONS[2], ROOK_DIRECTIONS[3]],
        [BISHOP_DIRECTIONS[0], BISHOP_DIRECTIONS[3]],
        [BISHOP_DIRECTIONS[1], BISHOP_DIRECTIONS[2]],
    ];
    let mut a = 0;
    while a < 64 {
        let mut axis = 0;
        while axis < 4 {
            let [forward, backward] = axes[axis];
            let both_ways = [forward, backward, forward, backward];
            let full = sliding_attacks(a as u32, 0, &both_ways) | 1 << a;
            let mut b = 0;
            while b < 64 {
                if b != a && full & (1 << b) != 0 {
                    line[a][b] = Bitboard(full);
                    let from_a = sliding_attacks(a as u32, 1 << b, &both_ways);
                    let from_b = sliding_attacks(b as u32, 1 << a, &both_ways);
                    between[a][b] = Bitboard(from_a & from_b);
                }
                b += 1;
            }
            axis += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = ray_tables();

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline(always)]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    RAYS.0[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (including both), or empty if they do
/// not share one (or are the same square).
#[inline(always)]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    RAYS.1[a.index()][b.index()]
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline]
#[must_use]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::relevant_occupancy;

    #[test]
    fn slider_tables_match_ray_walking() {
        // Every subset of every mask is too many (107,648 per piece kind is fine, in fact).
        for sq in Square::ALL {
            let i = sq.index() as u32;
            for (directions, lookup) in [
                (&ROOK_DIRECTIONS, rook as fn(Square, Bitboard) -> Bitboard),
                (&BISHOP_DIRECTIONS, bishop),
            ] {
                let mask = Bitboard(relevant_occupancy(i, directions));
                for occ in mask.subsets() {
                    // Squares outside the mask must not matter.
                    let noisy = occ | Bitboard(!mask.0 & 0x1234_5678_9abc_def0);
                    assert_eq!(
                        lookup(sq, noisy),
                        Bitboard(sliding_attacks(i, occ.0, directions)),
                        "{sq} {occ:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight(Square::A1), Bitboard::from(Square::B3) | Square::C2);
        assert_eq!(king(Square::H8).count(), 3);
        assert_eq!(pawn(Color::White, Square::A2), Bitboard::from(Square::B3));
        assert_eq!(
            pawn(Color::Black, Square::E7),
            Bitboard::from(Square::D6) | Square::F6
        );
        assert_eq!(queen(Square::D4, Bitboard::EMPTY).count(), 27);
        for sq in Square::ALL {
            assert_eq!(rook_rays(sq), rook(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop(sq, Bitboard::EMPTY));
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from(Square::B2) | Square::C3
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(line(Square::A1, Square::A1), Bitboard::EMPTY);
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert!(!aligned(Square::A1, Square::H8, Square::D5));
        assert_eq!(
            line(Square::E1, Square::E8),
            Bitboard::from_file(caissa_board::File::E)
        );
    }
}
