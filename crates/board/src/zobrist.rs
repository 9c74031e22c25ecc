//! Zobrist keys: one random 64-bit number per feature of a position, XORed together.
//!
//! A key is the XOR of one number per piece on its square, one per castling right (by colour and
//! rook file, so Chess960 rights hash the same way as standard ones), one for the en passant file
//! when an en passant capture is possible, and one when black is to move. Because XOR undoes
//! itself, make-move updates a key with a few XORs instead of recomputing it.
//!
//! The numbers come from a fixed-seed generator evaluated at compile time, so keys are the same
//! in every build and on every machine (and may be stored).
//!
//! [`polyglot`] holds the other family of keys engines use: the published table of the
//! Polyglot opening-book format.

use crate::{Board, CastlingRights, Color, File, Piece, Square};

pub mod polyglot;

const PIECE_KEYS: usize = 12 * 64;
const CASTLING_KEYS: usize = 2 * 8;
const EP_KEYS: usize = 8;
const KEY_COUNT: usize = PIECE_KEYS + CASTLING_KEYS + EP_KEYS + 1;

/// SplitMix64: a small, well-mixed generator, good enough for Zobrist keys.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn generate() -> [u64; KEY_COUNT] {
    let mut keys = [0; KEY_COUNT];
    let mut state = 0x00ca_155a_c4e5_5000;
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, key) = splitmix64(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

/// The keys for compile-time computations ([`STANDARD`]); run-time lookups read `KEYS`.
const TABLE: [u64; KEY_COUNT] = generate();
static KEYS: [u64; KEY_COUNT] = TABLE;

/// The key of the standard start position: its pieces, its four castling rights, white to
/// move. The same as the XOR of [`board`] and [`castling_rights`] of the start.
pub const STANDARD: u64 = {
    let board = Board::standard();
    let mut key = 0;
    let mut i = 0;
    while i < 64 {
        if let Some(piece) = board.piece_at(Square::ALL[i]) {
            key ^= TABLE[piece.index() * 64 + i];
        }
        i += 1;
    }
    let (a, h) = (File::A.index(), File::H.index());
    key ^ TABLE[PIECE_KEYS + a]
        ^ TABLE[PIECE_KEYS + h]
        ^ TABLE[PIECE_KEYS + 8 + a]
        ^ TABLE[PIECE_KEYS + 8 + h]
};

/// The key of `piece` standing on `sq`.
#[inline]
#[must_use]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[piece.index() * 64 + sq.index()]
}

/// The key of `color`'s right to castle with the rook on `rook_file`.
#[inline]
#[must_use]
pub fn castling(color: Color, rook_file: File) -> u64 {
    KEYS[PIECE_KEYS + color.index() * 8 + rook_file.index()]
}

/// The key of an en passant capture being possible on `file`.
#[inline]
#[must_use]
pub fn en_passant(file: File) -> u64 {
    KEYS[PIECE_KEYS + CASTLING_KEYS + file.index()]
}

/// The key XORed in when black is to move.
#[inline]
#[must_use]
pub fn black_to_move() -> u64 {
    KEYS[KEY_COUNT - 1]
}

/// The XOR of the keys of every piece on `board`.
#[must_use]
pub fn board(board: &Board) -> u64 {
    board.pieces().fold(0, |key, (sq, p)| key ^ piece(p, sq))
}

/// The XOR of the keys of every right in `rights`.
#[must_use]
pub fn castling_rights(rights: &CastlingRights) -> u64 {
    rights
        .iter()
        .fold(0, |key, (color, _, file)| key ^ castling(color, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KEY_COUNT);
        assert!(!sorted.contains(&0));
    }

    #[test]
    fn standard_key_is_the_start_positions() {
        assert_eq!(
            STANDARD,
            board(&Board::standard()) ^ castling_rights(&CastlingRights::STANDARD)
        );
    }

    #[test]
    fn board_key_is_incremental() {
        let mut b = Board::standard();
        let before = board(&b);
        let knight = crate::Role::Knight.of(Color::White);
        b.move_piece(knight, Square::G1, Square::F3);
        assert_eq!(
            board(&b),
            before ^ piece(knight, Square::G1) ^ piece(knight, Square::F3)
        );
        assert_ne!(castling_rights(&CastlingRights::STANDARD), 0);
        assert_ne!(en_passant(File::A), black_to_move());
    }
}
