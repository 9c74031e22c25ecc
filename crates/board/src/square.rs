//! Files, ranks and squares.
//!
//! Squares are numbered `a1 = 0`, `b1 = 1`, … `h8 = 63` (little-endian rank-file mapping), the
//! numbering that [`Bitboard`](crate::Bitboard) bits follow.

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// A column of the board, `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// Every file, `a` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `0..8` (`a` is 0).
    #[inline]
    #[must_use]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// `0` for `a` up to `7` for `h`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter, `a` to `h`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The uppercase letter, `A` to `H` (as X-FEN and Shredder-FEN write white's castling files).
    #[must_use]
    pub const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// Parses `a` to `h` (lowercase only).
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::new(c as u32 - 'a' as u32),
            _ => None,
        }
    }

    /// The file `delta` columns away, if it is on the board.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<File> {
        let index = self as i32 + delta;
        if 0 <= index && index < 8 {
            File::new(index as u32)
        } else {
            None
        }
    }

    /// The file mirrored left to right (`a` ↔ `h`).
    #[must_use]
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }
}

/// The lowercase letter, `a` to `h`.
impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text was not a file letter `a` to `h`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a file letter a-h")]
pub struct ParseFileError;

/// Reads one lowercase letter, `a` to `h`.
impl FromStr for File {
    type Err = ParseFileError;
    fn from_str(s: &str) -> Result<File, ParseFileError> {
        match s.as_bytes() {
            &[c] => File::from_char(char::from(c)).ok_or(ParseFileError),
            _ => Err(ParseFileError),
        }
    }
}

/// A row of the board, first (white's back rank) to eighth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// Every rank, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `0..8` (the first rank is 0).
    #[inline]
    #[must_use]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// `0` for the first rank up to `7` for the eighth.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit, `1` to `8`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `1` to `8`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The rank `delta` rows away, if it is on the board.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        let index = self as i32 + delta;
        if 0 <= index && index < 8 {
            Rank::new(index as u32)
        } else {
            None
        }
    }

    /// The rank seen from the other side (first ↔ eighth).
    #[must_use]
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// This rank as `color` counts it: `Rank::First.relative_to(Black)` is the eighth rank.
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// `color`'s back rank (first for white, eighth for black).
    #[must_use]
    pub const fn back_rank(color: Color) -> Rank {
        Rank::First.relative_to(color)
    }
}

/// The digit, `1` to `8`.
impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text was not a rank digit `1` to `8`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a rank digit 1-8")]
pub struct ParseRankError;

/// Reads one digit, `1` to `8`.
impl FromStr for Rank {
    type Err = ParseRankError;
    fn from_str(s: &str) -> Result<Rank, ParseRankError> {
        match s.as_bytes() {
            &[c] => Rank::from_char(char::from(c)).ok_or(ParseRankError),
            _ => Err(ParseRankError),
        }
    }
}

/// One of the 64 squares, `a1` to `h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1 = 0, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// Every square, `a1`, `b1`, … `h8`.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
        Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
        Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
        Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
        Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
        Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
        Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
        Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
    ];

    /// The square with index `0..64` (`a1` is 0, `h8` is 63).
    #[inline]
    #[must_use]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square with index `index & 63`: never fails.
    #[inline(always)]
    #[must_use]
    #[rustfmt::skip]
    pub const fn new_wrapping(index: u32) -> Square {
        // A `match` compiles to no instruction (the discriminants are the indices), where
        // indexing `Square::ALL` would be a load: squares come from bit indices in every move
        // found and played.
        match index & 63 {
            0 => Square::A1, 1 => Square::B1, 2 => Square::C1, 3 => Square::D1, 4 => Square::E1, 5 => Square::F1, 6 => Square::G1, 7 => Square::H1,
            8 => Square::A2, 9 => Square::B2, 10 => Square::C2, 11 => Square::D2, 12 => Square::E2, 13 => Square::F2, 14 => Square::G2, 15 => Square::H2,
            16 => Square::A3, 17 => Square::B3, 18 => Square::C3, 19 => Square::D3, 20 => Square::E3, 21 => Square::F3, 22 => Square::G3, 23 => Square::H3,
            24 => Square::A4, 25 => Square::B4, 26 => Square::C4, 27 => Square::D4, 28 => Square::E4, 29 => Square::F4, 30 => Square::G4, 31 => Square::H4,
            32 => Square::A5, 33 => Square::B5, 34 => Square::C5, 35 => Square::D5, 36 => Square::E5, 37 => Square::F5, 38 => Square::G5, 39 => Square::H5,
            40 => Square::A6, 41 => Square::B6, 42 => Square::C6, 43 => Square::D6, 44 => Square::E6, 45 => Square::F6, 46 => Square::G6, 47 => Square::H6,
            48 => Square::A7, 49 => Square::B7, 50 => Square::C7, 51 => Square::D7, 52 => Square::E7, 53 => Square::F7, 54 => Square::G7, 55 => Square::H7,
            56 => Square::A8, 57 => Square::B8, 58 => Square::C8, 59 => Square::D8, 60 => Square::E8, 61 => Square::F8, 62 => Square::G8, _ => Square::H8,
        }
    }

    /// The square where `file` and `rank` meet.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    /// `0..64`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    #[inline]
    #[must_use]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }

    /// The square's rank.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[must_use]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        match (self.file().offset(df), self.rank().offset(dr)) {
            (Some(file), Some(rank)) => Some(Square::from_coords(file, rank)),
            _ => None,
        }
    }

    /// The square mirrored top to bottom (`a1` ↔ `a8`).
    #[must_use]
    pub const fn flip_vertical(self) -> Square {
        Square::ALL[self as usize ^ 56]
    }

    /// The square mirrored left to right (`a1` ↔ `h1`).
    #[must_use]
    pub const fn flip_horizontal(self) -> Square {
        Square::ALL[self as usize ^ 7]
    }

    /// This square as `color` sees it: itself for white, mirrored top to bottom for black.
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// Whether the square is light (`h1` is light, `a1` is dark).
    #[must_use]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// The larger of the file and rank distances (king moves needed on an empty board).
    #[inline]
    #[must_use]
    pub const fn distance(self, other: Square) -> u32 {
        // The file and rank straight from the index (the low and high three bits).
        let (a, b) = (self as i32, other as i32);
        let df = ((a & 7) - (b & 7)).unsigned_abs();
        let dr = ((a >> 3) - (b >> 3)).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// Parses a square name such as `e4` from its two bytes.
    ///
    /// # Errors
    ///
    /// [`ParseSquareError`] unless `name` is a file letter `a`–`h` followed by a rank digit `1`–`8`.
    pub const fn from_ascii(name: &[u8]) -> Result<Square, ParseSquareError> {
        if name.len() != 2 {
            return Err(ParseSquareError);
        }
        match (
            File::from_char(name[0] as char),
            Rank::from_char(name[1] as char),
        ) {
            (Some(file), Some(rank)) => Ok(Square::from_coords(file, rank)),
            _ => Err(ParseSquareError),
        }
    }
}

/// Every square's name, `a1` to `h8` in index order, two bytes each.
const SQUARE_NAMES: &str = "a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4\
                            a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8";

impl Square {
    /// The square's name, such as `e4`: what [`Display`](fmt::Display) writes, without the
    /// formatting machinery (writers of many moves append it to a string).
    ///
    /// ```
    /// use caissa_board::Square;
    ///
    /// assert_eq!(Square::E4.name(), "e4");
    /// assert_eq!(Square::H8.name(), Square::H8.to_string());
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        let at = self.index() * 2;
        &SQUARE_NAMES[at..at + 2]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a square name: a file a-h and a rank 1-8, such as e4")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

crate::text_serde!(File, "a file letter a-h");
crate::text_serde!(Rank, "a rank digit 1-8");
crate::text_serde!(Square, "a square name such as e4");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_indices_give_the_listed_squares() {
        for (i, &sq) in Square::ALL.iter().enumerate() {
            assert_eq!(Square::new_wrapping(i as u32), sq);
            assert_eq!(Square::new_wrapping(i as u32 + 64), sq);
        }
    }

    #[test]
    fn squares_name_and_decompose() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(Square::new(sq.index() as u32), Some(sq));
        }
        assert_eq!(Square::E4.to_string(), "e4");
        assert_eq!("i1".parse::<Square>(), Err(ParseSquareError));
        assert_eq!("a9".parse::<Square>(), Err(ParseSquareError));
        assert_eq!("a".parse::<Square>(), Err(ParseSquareError));
        assert_eq!("a1x".parse::<Square>(), Err(ParseSquareError));
        assert_eq!(Square::new(64), None);
    }

    #[test]
    fn files_and_ranks_read_what_they_write() {
        for (file, rank) in File::ALL.into_iter().zip(Rank::ALL) {
            assert_eq!(file.to_string().parse(), Ok(file));
            assert_eq!(rank.to_string().parse(), Ok(rank));
        }
        assert_eq!("A".parse::<File>(), Err(ParseFileError));
        assert_eq!("ab".parse::<File>(), Err(ParseFileError));
        assert_eq!("9".parse::<Rank>(), Err(ParseRankError));
        assert_eq!("".parse::<Rank>(), Err(ParseRankError));
    }

    #[test]
    fn square_geometry() {
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
        assert_eq!(Square::E2.offset(1, 2), Some(Square::F4));
        assert_eq!(Square::H2.offset(1, 0), None);
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::C2.relative_to(Color::Black), Square::C7);
        assert_eq!(Square::C2.flip_horizontal(), Square::F2);
        assert_eq!(Rank::back_rank(Color::Black), Rank::Eighth);
        assert_eq!(File::from_char('h'), Some(File::H));
        assert_eq!(File::from_char('H'), None);
        assert_eq!(File::C.upper_char(), 'C');
        assert_eq!(Rank::from_char('9'), None);
        assert_eq!(File::A.offset(-1), None);
        assert_eq!(File::B.flip(), File::G);
    }
}
