//! Polyglot opening books (`.bin`): what they hold and how a position's moves are found in one.
//!
//! A book is a run of 16-byte entries, sorted by key, each big-endian: the position's Polyglot
//! key (`u64`, [`Position::polyglot_key`]), the move (`u16`: the target square in bits 0-5, the
//! origin in bits 6-11, each as `rank * 8 + file`, and a promotion in bits 12-14, 1 for a
//! knight to 4 for a queen; castling as the king's move onto its own rook, `e1h1`), a weight
//! (`u16`) and a learn value (`u32`). [`Book`] reads them from bytes the caller holds (a file
//! read or mapped at the edge); it checks the layout and the order once, then finds a key's
//! entries by binary search.
//!
//! ```
//! use caissa_notation::polyglot::{Book, BookEntry};
//! use caissa_notation::{Move, Position, Square};
//!
//! let start = Position::standard();
//! let e4 = BookEntry::new(start.polyglot_key(), Move::normal(Square::E2, Square::E4), 3, 0);
//! let d4 = BookEntry::new(start.polyglot_key(), Move::normal(Square::D2, Square::D4), 1, 0);
//! let mut bytes = Vec::new();
//! for entry in [e4, d4] {
//!     bytes.extend_from_slice(&entry.to_bytes());
//! }
//! let book = Book::new(&bytes)?;
//! let moves: Vec<(Move, u16)> = book.moves(&start).map(|(m, e)| (m, e.weight)).collect();
//! assert_eq!(moves, [(Move::normal(Square::E2, Square::E4), 3), (Move::normal(Square::D2, Square::D4), 1)]);
//! # Ok::<(), caissa_notation::polyglot::BookError>(())
//! ```

use caissa_board::{Role, Square};
use caissa_movegen::{Move, Position};

/// The size of an entry, in bytes.
pub const ENTRY_BYTES: usize = 16;

/// One entry of a Polyglot book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move, as the book encodes it (see the module docs).
    pub raw_move: u16,
    /// How often, or how well, the move was played: the usual weight of a random choice.
    pub weight: u16,
    /// A value the book's maker may use as it likes.
    pub learn: u32,
}

impl BookEntry {
    /// The entry for `m`, a move of the position with Polyglot key `key`.
    #[must_use]
    pub fn new(key: u64, m: Move, weight: u16, learn: u32) -> BookEntry {
        BookEntry {
            key,
            raw_move: encode(m),
            weight,
            learn,
        }
    }

    /// The entry in its 16 bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut bytes = [0; ENTRY_BYTES];
        bytes[..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }

    fn from_bytes(bytes: &[u8; ENTRY_BYTES]) -> BookEntry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *bytes;
        BookEntry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The origin, target and promotion the entry's move names, as written: castling is the
    /// king's move onto its rook.
    #[must_use]
    pub fn squares(&self) -> (Square, Square, Option<Role>) {
        let square = |bits: u16| Square::ALL[usize::from(bits & 63)];
        let promotion = match (self.raw_move >> 12) & 7 {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        };
        (square(self.raw_move >> 6), square(self.raw_move), promotion)
    }

    /// The legal move of `pos` the entry stands for, if there is one.
    #[must_use]
    pub fn to_move(&self, pos: &Position) -> Option<Move> {
        let raw = self.raw_move & 0x7fff;
        pos.legal_moves().into_iter().find(|&m| encode(m) == raw)
    }
}

/// The book's encoding of `m` (castling is already the king's move onto its rook here).
fn encode(m: Move) -> u16 {
    let promotion = match m.promotion_role() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promotion << 12) | ((m.from() as u16) << 6) | m.to() as u16
}

/// Why bytes are not a Polyglot book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// The length is not a whole number of entries.
    #[error("a Polyglot book is whole 16-byte entries, but this one has {bytes} bytes")]
    Length {
        /// The length, in bytes.
        bytes: usize,
    },
    /// An entry's key is smaller than the one before it: the book is not sorted, and the
    /// binary search would miss entries.
    #[error(
        "the entries of a Polyglot book are sorted by key, but entry {index} (byte {byte}) comes before the one ahead of it"
    )]
    Unsorted {
        /// The entry, counted from 0.
        index: usize,
        /// Its offset in the bytes.
        byte: usize,
    },
}

/// A Polyglot book over bytes the caller holds (a slice, or a `Vec` it owns): see the module
/// docs. Checked once when made; finding a key's entries after that is a binary search.
#[derive(Clone, Copy, Debug)]
pub struct Book<B> {
    bytes: B,
}

impl<B: AsRef<[u8]>> Book<B> {
    /// The book in `bytes`.
    ///
    /// # Errors
    ///
    /// [`BookError::Length`] if the bytes are not whole entries, [`BookError::Unsorted`] at the
    /// first entry whose key is smaller than the previous one's.
    pub fn new(bytes: B) -> Result<Book<B>, BookError> {
        let book = Book { bytes };
        let len = book.bytes.as_ref().len();
        if !len.is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Length { bytes: len });
        }
        let mut previous = 0;
        for (index, entry) in book.entries().enumerate() {
            if entry.key < previous {
                return Err(BookError::Unsorted {
                    index,
                    byte: index * ENTRY_BYTES,
                });
            }
            previous = entry.key;
        }
        Ok(book)
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.as_ref().len() / ENTRY_BYTES
    }

    /// Whether the book has no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.as_ref().is_empty()
    }

    /// The entry at `index`, if there is one.
    #[must_use]
    pub fn entry(&self, index: usize) -> Option<BookEntry> {
        let start = index.checked_mul(ENTRY_BYTES)?;
        let bytes = self.bytes.as_ref().get(start..start + ENTRY_BYTES)?;
        bytes.try_into().ok().map(BookEntry::from_bytes)
    }

    /// Every entry, in the book's order.
    pub fn entries(&self) -> impl Iterator<Item = BookEntry> + '_ {
        self.bytes
            .as_ref()
            .chunks_exact(ENTRY_BYTES)
            .filter_map(|bytes| bytes.try_into().ok().map(BookEntry::from_bytes))
    }

    /// The entries with `key`, in the book's order.
    pub fn entries_for(&self, key: u64) -> impl Iterator<Item = BookEntry> + '_ {
        // The first entry whose key is not below `key`.
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.entry(mid).is_some_and(|e| e.key < key) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        (low..self.len())
            .map_while(|i| self.entry(i))
            .take_while(move |e| e.key == key)
    }

    /// The entries of `pos` whose moves are legal there, with those moves, in the book's order.
    pub fn moves<'a>(&'a self, pos: &'a Position) -> impl Iterator<Item = (Move, BookEntry)> + 'a {
        self.entries_for(pos.polyglot_key())
            .filter_map(move |entry| entry.to_move(pos).map(|m| (m, entry)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book_bytes(entries: &[BookEntry]) -> Vec<u8> {
        entries.iter().flat_map(BookEntry::to_bytes).collect()
    }

    /// Castling is written as the king's move onto its rook, and promotions carry their piece.
    #[test]
    fn castling_and_promotions_are_decoded_into_legal_moves() {
        let pos: Position = "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1"
            .parse()
            .expect("a position");
        let castle = Move::castle(Square::E1, Square::H1);
        let under = Move::promotion(Square::B7, Square::A8, Role::Knight);
        let bytes = book_bytes(&[
            BookEntry::new(pos.polyglot_key(), castle, 1, 0),
            BookEntry::new(pos.polyglot_key(), under, 2, 7),
        ]);
        let book = Book::new(&bytes).expect("a book");
        let found: Vec<Move> = book.moves(&pos).map(|(m, _)| m).collect();
        assert_eq!(found, [castle, under]);
        let entry = book.entry(0).expect("an entry");
        assert_eq!(entry.squares(), (Square::E1, Square::H1, None));
        assert_eq!(book.entry(1).expect("an entry").learn, 7);
        assert_eq!(book.entry(2), None);
    }

    /// Keys around the one asked for are passed over, and a move that is not legal in the
    /// position (a key collision, or a broken book) is left out.
    #[test]
    fn only_the_keys_entries_with_legal_moves_are_found() {
        let start = Position::standard();
        let key = start.polyglot_key();
        let bytes = book_bytes(&[
            BookEntry::new(key - 1, Move::normal(Square::G1, Square::F3), 1, 0),
            BookEntry::new(key, Move::normal(Square::E2, Square::E5), 9, 0),
            BookEntry::new(key, Move::normal(Square::C2, Square::C4), 4, 0),
            BookEntry::new(key + 1, Move::normal(Square::D2, Square::D4), 1, 0),
        ]);
        let book = Book::new(&bytes).expect("a book");
        assert_eq!(book.len(), 4);
        assert_eq!(book.entries_for(key).count(), 2);
        let found: Vec<Move> = book.moves(&start).map(|(m, _)| m).collect();
        assert_eq!(found, [Move::normal(Square::C2, Square::C4)]);
        assert_eq!(book.entries_for(key + 2).count(), 0);
    }

    #[test]
    fn broken_books_are_refused_with_where() {
        assert_eq!(
            Book::new(&[0; 17]).err(),
            Some(BookError::Length { bytes: 17 })
        );
        let bytes = book_bytes(&[
            BookEntry::new(5, Move::normal(Square::E2, Square::E4), 1, 0),
            BookEntry::new(4, Move::normal(Square::E2, Square::E4), 1, 0),
        ]);
        assert_eq!(
            Book::new(&bytes).err(),
            Some(BookError::Unsorted { index: 1, byte: 16 })
        );
        assert!(Book::new(&[] as &[u8]).expect("an empty book").is_empty());
    }
}
