//! FEN: reading and writing positions as Forsyth–Edwards Notation, with X-FEN and Shredder-FEN
//! castling for Chess960.
//!
//! A FEN has six fields separated by spaces: placement, side to move, castling rights, en passant
//! square, halfmove clock, fullmove number. [`Fen`] reads one into a [`Setup`] (nothing checked
//! beyond syntax and what the text can express) and writes one back; turn it into a legal
//! position with [`Fen::into_position`].
//!
//! # Leniency
//!
//! The reader is strict about what each field says and lenient about how much is said:
//!
//! - Leading and trailing whitespace is ignored, and fields may be separated by any run of spaces
//!   or tabs.
//! - The halfmove clock and fullmove number may be missing (read as `0` and `1`); so may the
//!   castling and en passant fields when everything after them is missing too (read as `-`).
//!   A fullmove number of `0` is read as `1`.
//! - Castling may be written as `KQkq` (standard), X-FEN (`K`/`Q` mean the outermost rook on that
//!   side; a file letter names any other rook) or Shredder-FEN (`HAha`, file letters only),
//!   letters in any order. A right without its rook becomes an invalid right that
//!   [`Fen::into_position`] reports.
//! - An en passant square is kept as written even when no capture is possible; it must be on the
//!   third or sixth rank.
//!
//! Not accepted: ranks with too many or too few squares, unknown piece letters, two digits in a
//! row (`44`), a castling letter given twice, counters that are not decimal numbers or do not fit
//! in 32 bits, and anything after the sixth field.
//!
//! # Writing
//!
//! [`Fen`]'s `Display` writes X-FEN castling, which is plain `KQkq` for every standard position;
//! [`Fen::shredder`] writes Shredder-FEN. [`Fen::from_position`] chooses which en passant square
//! to write with [`EnPassantMode`]: by default only when a legal capture exists, the rule of the
//! FEN standard's 2020s practice and of FIDE's "same position".

use core::fmt;
use core::num::NonZeroU32;
use core::str::FromStr;

use caissa_board::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Setup, Square,
};
use caissa_movegen::{CastlingMode, Position, PositionError};

/// A FEN's six fields, parsed into a [`Setup`]. Compare, print, or validate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Fen(pub Setup);

/// The FEN field where a parse error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
pub enum FenErrorKind {
    /// The text is empty (or only whitespace).
    Empty,
    /// A field ends before it is complete (an en passant square with no rank).
    UnexpectedEnd,
    /// A character that has no meaning at this place.
    UnexpectedChar(char),
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

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::Empty => f.write_str("empty FEN"),
            FenErrorKind::UnexpectedEnd => f.write_str("field ends too early"),
            FenErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            FenErrorKind::RankTooLong => f.write_str("rank has more than 8 squares"),
            FenErrorKind::RankTooShort => f.write_str("rank has fewer than 8 squares"),
            FenErrorKind::TooManyRanks => f.write_str("more than 8 ranks"),
            FenErrorKind::TooFewRanks => f.write_str("fewer than 8 ranks"),
            FenErrorKind::ConsecutiveDigits => f.write_str("two digits in a row"),
            FenErrorKind::DuplicateCastling => f.write_str("castling right given twice"),
            FenErrorKind::EnPassantRank => {
                f.write_str("en passant square must be on the third or sixth rank")
            }
            FenErrorKind::NumberTooLarge => f.write_str("number too large"),
            FenErrorKind::TrailingText => f.write_str("unexpected text after the last field"),
        }
    }
}

/// A FEN that could not be read: what was wrong, in which field, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid FEN: {kind} in the {field} field at byte {byte}")]
pub struct ParseFenError {
    /// The field being read.
    pub field: FenField,
    /// Byte offset of the problem in the input.
    pub byte: usize,
    /// What was wrong.
    pub kind: FenErrorKind,
}

/// Which en passant square [`Fen::from_position`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantMode {
    /// Only when a legal en passant capture exists (the default).
    #[default]
    Legal,
    /// When a pawn of the side to move stands beside the pawn that just moved two squares,
    /// legal or not.
    PseudoLegal,
    /// After every double push (the original FEN definition).
    Always,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && matches!(self.bytes[self.pos], b' ' | b'\t') {
            self.pos += 1;
        }
    }

    /// The next space-separated field and its start, or `None` at the end.
    fn field(&mut self) -> Option<(usize, &'a [u8])> {
        self.skip_space();
        let start = self.pos;
        while self.pos < self.bytes.len() && !matches!(self.bytes[self.pos], b' ' | b'\t') {
            self.pos += 1;
        }
        (self.pos > start).then(|| (start, &self.bytes[start..self.pos]))
    }
}

fn error(field: FenField, byte: usize, kind: FenErrorKind) -> ParseFenError {
    ParseFenError { field, byte, kind }
}

fn unexpected(field: FenField, byte: usize, c: u8) -> ParseFenError {
    error(field, byte, FenErrorKind::UnexpectedChar(char::from(c)))
}

fn parse_placement(start: usize, text: &[u8]) -> Result<Board, ParseFenError> {
    let field = FenField::Placement;
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    let mut last_was_digit = false;
    for (i, &c) in text.iter().enumerate() {
        let at = start + i;
        match c {
            b'/' => {
                if file < 8 {
                    return Err(error(field, at, FenErrorKind::RankTooShort));
                }
                rank -= 1;
                if rank < 0 {
                    return Err(error(field, at, FenErrorKind::TooManyRanks));
                }
                file = 0;
                last_was_digit = false;
            }
            b'1'..=b'8' => {
                if last_was_digit {
                    return Err(error(field, at, FenErrorKind::ConsecutiveDigits));
                }
                file += u32::from(c - b'0');
                if file > 8 {
                    return Err(error(field, at, FenErrorKind::RankTooLong));
                }
                last_was_digit = true;
            }
            _ => {
                let piece = Piece::from_char(char::from(c)).ok_or(unexpected(field, at, c))?;
                if file >= 8 {
                    return Err(error(field, at, FenErrorKind::RankTooLong));
                }
                let sq = Square::from_coords(
                    File::new(file).expect("file < 8"),
                    Rank::new(rank as u32).expect("0 <= rank < 8"),
                );
                board.set_piece_at(sq, piece);
                file += 1;
                last_was_digit = false;
            }
        }
    }
    let end = start + text.len();
    if file < 8 {
        return Err(error(field, end, FenErrorKind::RankTooShort));
    }
    if rank > 0 {
        return Err(error(field, end, FenErrorKind::TooFewRanks));
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
                let file = File::new(u32::from(lower - b'a')).expect("a..=h");
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
            _ => return Err(unexpected(field, at, c)),
        };
        if rights.has(color, side) {
            return Err(error(field, at, FenErrorKind::DuplicateCastling));
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

fn parse_number(field: FenField, start: usize, text: &[u8]) -> Result<u32, ParseFenError> {
    let mut value: u32 = 0;
    for (i, &c) in text.iter().enumerate() {
        if !c.is_ascii_digit() {
            return Err(unexpected(field, start + i, c));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u32::from(c - b'0')))
            .ok_or(error(field, start, FenErrorKind::NumberTooLarge))?;
    }
    Ok(value)
}

impl Fen {
    /// Reads a FEN from bytes.
    ///
    /// # Errors
    ///
    /// [`ParseFenError`] naming the field, the byte offset and what was wrong.
    pub fn from_ascii(bytes: &[u8]) -> Result<Fen, ParseFenError> {
        let mut reader = Reader { bytes, pos: 0 };
        let Some((start, placement)) = reader.field() else {
            return Err(error(FenField::Placement, 0, FenErrorKind::Empty));
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
                // A known letter followed by more: blame the first extra byte.
                [b'w' | b'b', extra, ..] => {
                    return Err(unexpected(FenField::Turn, start + 1, *extra));
                }
                _ => return Err(unexpected(FenField::Turn, start, turn[0])),
            };
        }
        if let Some((start, castling)) = reader.field() {
            setup.castling_rights = parse_castling(start, castling, &board)?;
        }
        if let Some((start, ep)) = reader.field()
            && ep != b"-"
        {
            let sq = Square::from_ascii(ep).map_err(|_| {
                // The first byte that is not a file letter then a rank digit; or the end.
                let wanted = |i: usize, c: u8| match i {
                    0 => matches!(c, b'a'..=b'h'),
                    1 => matches!(c, b'1'..=b'8'),
                    _ => false,
                };
                match ep.iter().enumerate().find(|&(i, &c)| !wanted(i, c)) {
                    Some((i, &c)) => unexpected(FenField::EnPassant, start + i, c),
                    None => error(
                        FenField::EnPassant,
                        start + ep.len(),
                        FenErrorKind::UnexpectedEnd,
                    ),
                }
            })?;
            if !matches!(sq.rank(), Rank::Third | Rank::Sixth) {
                return Err(error(
                    FenField::EnPassant,
                    start,
                    FenErrorKind::EnPassantRank,
                ));
            }
            setup.ep_square = Some(sq);
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
                FenErrorKind::TrailingText,
            ));
        }
        Ok(Fen(setup))
    }

    /// The FEN of `pos`, writing the en passant square as `mode` says.
    #[must_use]
    pub fn from_position(pos: &Position, mode: EnPassantMode) -> Fen {
        let mut setup = pos.to_setup();
        setup.ep_square = match mode {
            EnPassantMode::Legal => pos.legal_ep_square(),
            EnPassantMode::PseudoLegal => pos.pseudo_legal_ep_square(),
            EnPassantMode::Always => pos.ep_square(),
        };
        Fen(setup)
    }

    /// The setup this FEN describes.
    #[must_use]
    pub fn into_setup(self) -> Setup {
        self.0
    }

    /// Validates the setup into a legal position.
    ///
    /// # Errors
    ///
    /// [`PositionError`] listing every problem, as [`Position::from_setup`] does.
    pub fn into_position(self, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup(self.0, mode)
    }

    /// A `Display` that writes Shredder-FEN castling (rook files, `HAha`) instead of X-FEN.
    #[must_use]
    pub fn shredder(&self) -> impl fmt::Display + '_ {
        FenDisplay {
            setup: &self.0,
            shredder: true,
        }
    }

    /// Appends the FEN to `out` (X-FEN castling).
    pub fn append_to(&self, out: &mut String) {
        use fmt::Write as _;
        let _ = write!(out, "{self}");
    }

    /// Writes only the placement field.
    #[must_use]
    pub fn board_fen(board: &Board) -> String {
        let mut out = String::with_capacity(72);
        write_placement(board, &mut out).expect("writing to a String cannot fail");
        out
    }
}

fn write_placement(board: &Board, f: &mut impl fmt::Write) -> fmt::Result {
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        write!(f, "{empty}")?;
                        empty = 0;
                    }
                    f.write_char(piece.char())?;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank != Rank::First {
            f.write_char('/')?;
        }
    }
    Ok(())
}

struct FenDisplay<'a> {
    setup: &'a Setup,
    shredder: bool,
}

impl fmt::Display for FenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = self.setup;
        write_placement(&setup.board, f)?;
        write!(f, " {} ", setup.turn.char())?;
        if setup.castling_rights.is_empty() {
            f.write_str("-")?;
        }
        for (color, side, file) in setup.castling_rights.iter() {
            let letter =
                if !self.shredder && outermost_rook(&setup.board, color, side) == Some(file) {
                    match side {
                        CastlingSide::KingSide => 'k',
                        CastlingSide::QueenSide => 'q',
                    }
                } else {
                    file.char()
                };
            let letter = color.fold(letter.to_ascii_uppercase(), letter);
            write!(f, "{letter}")?;
        }
        match setup.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        FenDisplay {
            setup: &self.0,
            shredder: false,
        }
        .fmt(f)
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::from_ascii(s.as_bytes())
    }
}

impl From<Setup> for Fen {
    fn from(setup: Setup) -> Fen {
        Fen(setup)
    }
}
