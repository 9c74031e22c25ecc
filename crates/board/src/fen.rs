//! FEN, the text form of a [`Setup`]: reading and writing Forsyth–Edwards Notation, with X-FEN
//! and Shredder-FEN castling for Chess960.
//!
//! A FEN has six fields separated by spaces: placement, side to move, castling rights, en passant
//! square, halfmove clock, fullmove number. [`Setup`]'s `FromStr` (and [`Setup::from_ascii`])
//! reads one, checking nothing beyond syntax and what the text can express; its `Display` writes
//! one back. Turning a setup into a legal position is the move generator's job
//! (`caissa_movegen::Position::from_setup`).
//!
//! ```
//! use caissa_board::{Color, Setup, Square};
//!
//! let setup: Setup = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
//! assert_eq!(setup.turn, Color::Black);
//! assert_eq!(setup.ep_square, Some(Square::E3));
//! assert_eq!(
//!     setup.to_string(),
//!     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
//! );
//! assert_eq!(setup.shredder_fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1");
//! # Ok::<(), caissa_board::ParseFenError>(())
//! ```
//!
//! # Leniency
//!
//! The reader is strict about what each field says and lenient about how much is said:
//!
//! - Leading and trailing whitespace is ignored (a line's end too), and fields may be separated by
//!   any run of ASCII whitespace (spaces, tabs, line ends), as python-chess splits them.
//! - The halfmove clock and fullmove number may be missing (read as `0` and `1`); so may the
//!   castling and en passant fields when everything after them is missing too (read as `-`).
//!   A fullmove number of `0` is read as `1`.
//! - Castling may be written as `KQkq` (standard), X-FEN (`K`/`Q` mean the outermost rook on that
//!   side; a file letter names any other rook) or Shredder-FEN (`HAha`, file letters only),
//!   letters in any order. A right without its rook is kept as written; the move generator's
//!   validation reports it (and its lenient import drops it).
//! - An en passant square is kept as written even when no capture is possible; it must be on the
//!   third or sixth rank.
//!
//! Not accepted: ranks with too many or too few squares, unknown piece letters, two digits in a
//! row (`44`), a castling letter given twice, counters that are not decimal numbers or do not fit
//! in 32 bits, and anything after the sixth field.
//!
//! # Writing
//!
//! `Display` writes X-FEN castling, which is plain `KQkq` for every standard position;
//! [`Setup::shredder_fen`] writes Shredder-FEN (rook files). [`Board`]'s `Display` writes the
//! placement field alone.

use core::fmt;
use core::num::NonZeroU32;
use core::str::FromStr;

use crate::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Setup, Square,
};

/// The FEN field where a parse error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FenField {
    /// The piece placement.
    Placement,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The halfmove clock.
    Halfmoves,
    /// The fullmove number.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
        })
    }
}

/// What was wrong in a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseFenErrorKind {
    /// The text is empty (or only whitespace).
    Empty,
    /// A field ends before it is complete (an en passant square with no rank).
    UnexpectedEnd,
    /// A character that has no meaning at this place.
    UnexpectedChar(char),
    /// A byte that starts no UTF-8 character (the text is not UTF-8 there).
    UnexpectedByte(u8),
    /// A rank describes more than eight squares.
    RankTooLong,
    /// A rank describes fewer than eight squares.
    RankTooShort,
    /// The placement has more than eight ranks.
    TooManyRanks,
    /// The placement has fewer than eight ranks.
    TooFewRanks,
    /// Two digits in a row inside a rank.
    ConsecutiveDigits,
    /// The same castling right is given twice.
    DuplicateCastling,
    /// The en passant square is not on the third or sixth rank.
    EnPassantRank,
    /// A counter does not fit in 32 bits.
    NumberTooLarge,
    /// Text after the sixth field.
    TrailingText,
}

impl fmt::Display for ParseFenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenErrorKind::Empty => f.write_str("empty FEN"),
            ParseFenErrorKind::UnexpectedEnd => f.write_str("field ends too early"),
            ParseFenErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            ParseFenErrorKind::UnexpectedByte(b) => write!(f, "unexpected byte 0x{b:02x}"),
            ParseFenErrorKind::RankTooLong => f.write_str("rank has more than 8 squares"),
            ParseFenErrorKind::RankTooShort => f.write_str("rank has fewer than 8 squares"),
            ParseFenErrorKind::TooManyRanks => f.write_str("more than 8 ranks"),
            ParseFenErrorKind::TooFewRanks => f.write_str("fewer than 8 ranks"),
            ParseFenErrorKind::ConsecutiveDigits => f.write_str("two digits in a row"),
            ParseFenErrorKind::DuplicateCastling => f.write_str("castling right given twice"),
            ParseFenErrorKind::EnPassantRank => {
                f.write_str("en passant square must be on the third or sixth rank")
            }
            ParseFenErrorKind::NumberTooLarge => f.write_str("number too large"),
            ParseFenErrorKind::TrailingText => f.write_str("unexpected text after the last field"),
        }
    }
}

/// A FEN that could not be read: what was wrong, in which field, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid FEN: {kind} in the {field} field at byte {byte}")]
#[non_exhaustive]
pub struct ParseFenError {
    /// The field being read.
    pub field: FenField,
    /// Byte offset of the problem in the input.
    pub byte: usize,
    /// What was wrong.
    pub kind: ParseFenErrorKind,
}

impl ParseFenError {
    /// The error `kind` in `field` at `byte`.
    #[must_use]
    pub const fn new(field: FenField, byte: usize, kind: ParseFenErrorKind) -> ParseFenError {
        ParseFenError { field, byte, kind }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// The next space-separated field and its start, or `None` at the end.
    fn field(&mut self) -> Option<(usize, &'a [u8])> {
        self.skip_space();
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        (self.pos > start).then(|| (start, &self.bytes[start..self.pos]))
    }
}

fn error(field: FenField, byte: usize, kind: ParseFenErrorKind) -> ParseFenError {
    ParseFenError::new(field, byte, kind)
}

/// The character starting at `text[i]` is out of place (`text` starts at byte `start` of the
/// input): named as a character, or as a byte where the text is not UTF-8.
fn unexpected(field: FenField, start: usize, text: &[u8], i: usize) -> ParseFenError {
    let kind = match text[i..].utf8_chunks().next() {
        Some(chunk) => match chunk.valid().chars().next() {
            Some(c) => ParseFenErrorKind::UnexpectedChar(c),
            None => ParseFenErrorKind::UnexpectedByte(text[i]),
        },
        None => ParseFenErrorKind::UnexpectedEnd,
    };
    error(field, start + i, kind)
}

fn parse_placement(start: usize, text: &[u8]) -> Result<Board, ParseFenError> {
    let field = FenField::Placement;
    let mut board = Board::empty();
    let mut rank = Rank::Eighth;
    let mut file = 0u32;
    let mut last_was_digit = false;
    for (i, &c) in text.iter().enumerate() {
        let at = start + i;
        match c {
            b'/' => {
                if file < 8 {
                    return Err(error(field, at, ParseFenErrorKind::RankTooShort));
                }
                rank = rank
                    .offset(-1)
                    .ok_or(error(field, at, ParseFenErrorKind::TooManyRanks))?;
                file = 0;
                last_was_digit = false;
            }
            b'1'..=b'8' => {
                if last_was_digit {
                    return Err(error(field, at, ParseFenErrorKind::ConsecutiveDigits));
                }
                file += u32::from(c - b'0');
                if file > 8 {
                    return Err(error(field, at, ParseFenErrorKind::RankTooLong));
                }
                last_was_digit = true;
            }
            _ => {
                let piece = Piece::from_char(char::from(c))
                    .ok_or_else(|| unexpected(field, start, text, i))?;
                let sq_file =
                    File::new(file).ok_or(error(field, at, ParseFenErrorKind::RankTooLong))?;
                board.set_piece_at(Square::from_coords(sq_file, rank), piece);
                file += 1;
                last_was_digit = false;
            }
        }
    }
    let end = start + text.len();
    if file < 8 {
        return Err(error(field, end, ParseFenErrorKind::RankTooShort));
    }
    if rank != Rank::First {
        return Err(error(field, end, ParseFenErrorKind::TooFewRanks));
    }
    Ok(board)
}

fn parse_castling(
    start: usize,
    text: &[u8],
    board: &Board,
) -> Result<CastlingRights, ParseFenError> {
    let field = FenField::Castling;
    let mut rights = CastlingRights::NONE;
    if text == b"-" {
        return Ok(rights);
    }
    for (i, &c) in text.iter().enumerate() {
        let at = start + i;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king_file = (board.by_piece(Role::King.of(color)) & Bitboard::back_rank(color))
            .first()
            .map(Square::file);
        let (side, file) = match c.to_ascii_lowercase() {
            letter @ (b'k' | b'q') => {
                // The outermost rook on that side of the king; the standard file if there is none.
                let side = if letter == b'k' {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let file = outermost_rook(board, color, side).unwrap_or(side.standard_rook_file());
                (side, file)
            }
            lower @ b'a'..=b'h' => {
                let file = File::from_char(char::from(lower))
                    .ok_or_else(|| unexpected(field, start, text, i))?;
                // A file letter names the rook; the side is where it stands from the king. With
                // no king on the back rank, guess from the board's middle (the right is invalid
                // anyway and validation will say so).
                let king = king_file.unwrap_or(File::E);
                let side = CastlingSide::from_files(king, file).unwrap_or(if file >= File::E {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                });
                (side, file)
            }
            _ => return Err(unexpected(field, start, text, i)),
        };
        if rights.has(color, side) {
            return Err(error(field, at, ParseFenErrorKind::DuplicateCastling));
        }
        rights.set(color, side, Some(file));
    }
    Ok(rights)
}

/// The file of `color`'s rook furthest from its king on `side`, on the back rank; `None` without
/// a king on the back rank or without such a rook. X-FEN's `K` and `Q` name this rook.
fn outermost_rook(board: &Board, color: Color, side: CastlingSide) -> Option<File> {
    let back_rank = Bitboard::back_rank(color);
    let king = (board.by_piece(Role::King.of(color)) & back_rank)
        .first()?
        .file();
    let mut files = (board.by_piece(Role::Rook.of(color)) & back_rank)
        .into_iter()
        .map(Square::file);
    match side {
        CastlingSide::KingSide => files.rev().find(|&f| f > king),
        CastlingSide::QueenSide => files.find(|&f| f < king),
    }
}

fn parse_en_passant(start: usize, text: &[u8]) -> Result<Option<Square>, ParseFenError> {
    let field = FenField::EnPassant;
    if text == b"-" {
        return Ok(None);
    }
    let sq = Square::from_ascii(text).map_err(|_| {
        // The first byte that is not a file letter then a rank digit; or the end.
        let wanted = |i: usize, c: u8| match i {
            0 => matches!(c, b'a'..=b'h'),
            1 => matches!(c, b'1'..=b'8'),
            _ => false,
        };
        match text.iter().enumerate().find(|&(i, &c)| !wanted(i, c)) {
            Some((i, _)) => unexpected(field, start, text, i),
            None => error(field, start + text.len(), ParseFenErrorKind::UnexpectedEnd),
        }
    })?;
    if !matches!(sq.rank(), Rank::Third | Rank::Sixth) {
        return Err(error(field, start, ParseFenErrorKind::EnPassantRank));
    }
    Ok(Some(sq))
}

fn parse_number(field: FenField, start: usize, text: &[u8]) -> Result<u32, ParseFenError> {
    let mut value: u32 = 0;
    for (i, &c) in text.iter().enumerate() {
        if !c.is_ascii_digit() {
            return Err(unexpected(field, start, text, i));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u32::from(c - b'0')))
            .ok_or(error(field, start, ParseFenErrorKind::NumberTooLarge))?;
    }
    Ok(value)
}

impl Setup {
    /// Reads a FEN (X-FEN and Shredder-FEN castling too) from bytes; `str::parse` does the same
    /// for text. See the [`fen`](crate::fen) module for what is accepted.
    ///
    /// ```
    /// use caissa_board::{ParseFenErrorKind, FenField, Setup};
    ///
    /// let setup = Setup::from_ascii(b"4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// assert_eq!(setup.castling_rights.iter().count(), 1);
    ///
    /// let error = Setup::from_ascii(b"4k3/8/8/8/8/8/8/4K2R w K - x 1").unwrap_err();
    /// assert_eq!((error.field, error.byte), (FenField::Halfmoves, 27));
    /// assert_eq!(error.kind, ParseFenErrorKind::UnexpectedChar('x'));
    /// # Ok::<(), caissa_board::ParseFenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParseFenError`] naming the field, the byte offset and what was wrong.
    #[doc(alias = "from_fen")]
    pub fn from_ascii(bytes: &[u8]) -> Result<Setup, ParseFenError> {
        let mut reader = Reader { bytes, pos: 0 };
        let Some((start, placement)) = reader.field() else {
            return Err(error(FenField::Placement, 0, ParseFenErrorKind::Empty));
        };
        let board = parse_placement(start, placement)?;
        let mut setup = Setup {
            board,
            ..Setup::empty()
        };
        if let Some((start, turn)) = reader.field() {
            setup.turn = match turn {
                b"w" => Color::White,
                b"b" => Color::Black,
                // A known letter followed by more: blame the first extra character.
                [b'w' | b'b', ..] => return Err(unexpected(FenField::Turn, start, turn, 1)),
                _ => return Err(unexpected(FenField::Turn, start, turn, 0)),
            };
        }
        if let Some((start, castling)) = reader.field() {
            setup.castling_rights = parse_castling(start, castling, &board)?;
        }
        if let Some((start, ep)) = reader.field() {
            setup.ep_square = parse_en_passant(start, ep)?;
        }
        if let Some((start, halfmoves)) = reader.field() {
            setup.halfmoves = parse_number(FenField::Halfmoves, start, halfmoves)?;
        }
        if let Some((start, fullmoves)) = reader.field() {
            let n = parse_number(FenField::Fullmoves, start, fullmoves)?;
            setup.fullmoves = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        }
        if let Some((start, _)) = reader.field() {
            return Err(error(
                FenField::Fullmoves,
                start,
                ParseFenErrorKind::TrailingText,
            ));
        }
        Ok(setup)
    }

    /// A `Display` that writes the FEN with Shredder-FEN castling (rook files, `HAha`) instead
    /// of X-FEN (`KQkq`, which [`Setup`]'s own `Display` writes).
    #[must_use]
    pub fn shredder_fen(&self) -> impl fmt::Display + '_ {
        FenDisplay {
            setup: self,
            shredder: true,
        }
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        Setup::from_ascii(s.as_bytes())
    }
}

/// The placement field of a FEN: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_placement(self, f)
    }
}

/// [`Board`]'s `Display`, for any writer: the letters are laid out in a buffer, a piece kind
/// at a time from the board's sets of squares, and written in one go.
fn write_placement(board: &Board, out: &mut impl fmt::Write) -> fmt::Result {
    let mut letters = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            // A piece's letter is ASCII.
            let letter = piece.char() as u8;
            for sq in board.by_piece(piece) {
                letters[sq.index()] = letter;
            }
        }
    }
    // At most 64 letters and 7 slashes.
    let mut text = [0u8; 71];
    let mut len = 0;
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0;
        for &letter in &letters[rank.index() * 8..rank.index() * 8 + 8] {
            if letter == 0 {
                empty += 1;
                continue;
            }
            // A run of empty squares is one digit, 1 to 8.
            if empty > 0 {
                text[len] = b'0' + empty;
                len += 1;
                empty = 0;
            }
            text[len] = letter;
            len += 1;
        }
        if empty > 0 {
            text[len] = b'0' + empty;
            len += 1;
        }
        if rank != Rank::First {
            text[len] = b'/';
            len += 1;
        }
    }
    out.write_str(core::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?)
}

impl Setup {
    /// Writes the FEN (X-FEN castling, as `Display` does) to `out`. Generic, so that a
    /// `String` gets its characters directly: what a writer of many positions calls.
    ///
    /// ```
    /// use caissa_board::Setup;
    ///
    /// let mut line = String::new();
    /// Setup::standard().write_to(&mut line)?;
    /// assert_eq!(line, Setup::standard().to_string());
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `out`'s, when it fails.
    pub fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        self.write_fields(false, out)?;
        write_counters(self, out)
    }

    /// Writes the FEN's first four fields (placement, turn, castling with X-FEN letters, en
    /// passant square; no counters): what an EPD line starts with.
    ///
    /// ```
    /// use caissa_board::Setup;
    ///
    /// let mut line = String::new();
    /// Setup::standard().write_position_to(&mut line)?;
    /// assert_eq!(line, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// `out`'s, when it fails.
    pub fn write_position_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        self.write_fields(false, out)
    }

    /// The first four fields, castling in Shredder-FEN letters when `shredder`.
    fn write_fields(&self, shredder: bool, out: &mut impl fmt::Write) -> fmt::Result {
        write_placement(&self.board, out)?;
        out.write_char(' ')?;
        out.write_char(self.turn.char())?;
        out.write_char(' ')?;
        if self.castling_rights.is_empty() {
            out.write_char('-')?;
        }
        for (color, side, file) in self.castling_rights.iter() {
            let letter = if !shredder && outermost_rook(&self.board, color, side) == Some(file) {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                file.char()
            };
            out.write_char(color.fold(letter.to_ascii_uppercase(), letter))?;
        }
        out.write_char(' ')?;
        match self.ep_square {
            Some(sq) => out.write_str(sq.name()),
            None => out.write_char('-'),
        }
    }
}

/// The FEN's last two fields, with the space before each.
fn write_counters(setup: &Setup, out: &mut impl fmt::Write) -> fmt::Result {
    write!(out, " {} {}", setup.halfmoves, setup.fullmoves)
}

struct FenDisplay<'a> {
    setup: &'a Setup,
    shredder: bool,
}

impl fmt::Display for FenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup.write_fields(self.shredder, f)?;
        write_counters(self.setup, f)
    }
}

/// The FEN, with X-FEN castling (plain `KQkq` in every standard position).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        FenDisplay {
            setup: self,
            shredder: false,
        }
        .fmt(f)
    }
}

crate::text_serde!(Setup, "a FEN");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(text.parse::<Setup>(), Ok(Setup::standard()));
        assert_eq!(Setup::standard().to_string(), text);
        assert_eq!(
            Board::standard().to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
    }

    #[test]
    fn characters_are_named_whole() {
        // An en dash is three bytes: the error names it, not its first byte as Latin-1.
        let error = "8/8/8/8/8/8/8/8 w – - 0 1".parse::<Setup>().unwrap_err();
        assert_eq!(error.kind, ParseFenErrorKind::UnexpectedChar('–'));
        assert_eq!((error.field, error.byte), (FenField::Castling, 18));
        let error = Setup::from_ascii(b"8/8/8/8/8/8/8/\xff7 w - - 0 1").unwrap_err();
        assert_eq!(error.kind, ParseFenErrorKind::UnexpectedByte(0xff));
        assert_eq!(error.byte, 14);
        let error = "8/8/8/8/8/8/8/8 w - - 0 1é".parse::<Setup>().unwrap_err();
        assert_eq!(error.kind, ParseFenErrorKind::UnexpectedChar('é'));
    }
}
