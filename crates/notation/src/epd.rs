//! EPD: Extended Position Description, a position with named operations (test suites, opening
//! books, perft suites).
//!
//! An EPD line has the first four FEN fields (placement, side to move, castling, en passant) and
//! then operations, each an opcode, its operands and a `;`:
//!
//! ```text
//! r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "Ruy Lopez";
//! ```
//!
//! [`Epd`] holds the four fields and the [`Operation`]s in order. The common opcodes are typed:
//! `bm`, `am` and `pv` (SAN moves), `id` and `c0`…`c9` (strings), `hmvc`, `fmvn` and `acd`
//! (unsigned numbers), `ce` (a signed number), and the perft suites' `D1`, `D2`, … (node
//! counts); any other opcode keeps its operands as written ([`Operation::Other`]). Move operands
//! are checked as SAN syntax when read and matched against the position only on demand
//! ([`Epd::best_moves`], [`Epd::avoid_moves`], [`Epd::predicted_variation`]), since they mean
//! nothing without it.
//!
//! ```
//! use caissa_movegen::{CastlingMode, Move, Square};
//! use caissa_notation::epd::{Epd, Operation};
//!
//! let epd: Epd = "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+; id \"check\"; ce +500;".parse()?;
//! assert_eq!(epd.id(), Some("check"));
//! assert_eq!(epd.operation("ce"), Some(&Operation::CentipawnEvaluation(500)));
//! let pos = epd.position(CastlingMode::Standard)?;
//! let best = epd.best_moves(&pos)?;
//! assert_eq!(best[..], [Move::normal(Square::A1, Square::A8)]);
//! assert_eq!(
//!     epd.to_string(),
//!     "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+; id \"check\"; ce 500;"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Perft suites
//!
//! The perft suites in `data/perft` use the "perftsuite" layout, which differs from EPD in three
//! ways, all accepted here: a full FEN (with the two counters) may stand before the operations,
//! each operation is *preceded* by `;` instead of followed by it, and the node counts use the
//! opcodes `D1`, `D2`, …:
//!
//! ```
//! use caissa_notation::epd::Epd;
//!
//! let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400";
//! let epd: Epd = line.parse()?;
//! assert_eq!(epd.perft().collect::<Vec<_>>(), [(1, 20), (2, 400)]);
//! // Written back as standard EPD, with the counters as operations.
//! assert_eq!(
//!     epd.to_string(),
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; D1 20; D2 400;"
//! );
//! # Ok::<(), caissa_notation::epd::ParseEpdError>(())
//! ```
//!
//! # Leniency
//!
//! - Fields and operands may be separated by any run of spaces or tabs; leading and trailing
//!   whitespace (a line's `\r` included) is ignored.
//! - The four fields are read by the [FEN reader](crate::fen), with its castling notations
//!   (`KQkq`, X-FEN, Shredder-FEN) and its en passant rule.
//! - Two FEN counters may follow the en passant field (`... - 0 1`): they are read as `hmvc` and
//!   `fmvn` operations, placed first.
//! - The last operation need not end with `;`, operations may start with `;` (perftsuite), and
//!   empty operations (`;;`) are skipped.
//! - An opcode may appear more than once; the accessors return the first.
//! - `id` and `c0`…`c9` take a single unquoted word as well as a quoted string.
//! - In quoted strings `\"` and `\\` are escapes; a backslash before anything else is kept.
//! - Move operands are read as lenient SAN ([`SanPlus::from_ascii`]).
//! - Opcodes start with a letter and continue with letters, digits and `_`, of any length.
//!
//! Not accepted: fewer than four fields, text that is not UTF-8, an unterminated string, a
//! typed opcode with the wrong number or kind of operands (`hmvc x;`, `bm;`, `id "a" "b";`).
//!
//! # Writing
//!
//! `Display` writes the four fields (X-FEN castling), then each operation followed by `;`,
//! separated by single spaces. Strings are quoted, with `"` and `\` escaped.

use core::fmt;
use core::num::NonZeroU32;
use core::str::FromStr;
use std::borrow::Cow;

use caissa_board::{Board, CastlingRights, Color, Setup, Square};
use caissa_movegen::{CastlingMode, Move, Position, PositionError};

use crate::fen::{EnPassantMode, Fen, FenField, ParseFenError, ParseFenErrorKind};
use crate::san::{ParseSanErrorKind, SanError, SanPlus};

/// An EPD line: four FEN fields and operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The castling rights.
    pub castling_rights: CastlingRights,
    /// The en passant square, if written.
    pub ep_square: Option<Square>,
    /// The operations, in the order written.
    pub operations: Vec<Operation>,
}

/// One EPD operation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Operation {
    /// `bm`: the best moves.
    BestMoves(Vec<SanPlus>),
    /// `am`: moves to avoid.
    AvoidMoves(Vec<SanPlus>),
    /// `pv`: the predicted variation, moves played one after the other.
    PredictedVariation(Vec<SanPlus>),
    /// `id`: the position's name.
    Id(String),
    /// `c0` … `c9`: comments, numbered.
    Comment {
        /// 0 to 9.
        index: u8,
        /// The comment.
        text: String,
    },
    /// `hmvc`: the halfmove clock.
    HalfmoveClock(u32),
    /// `fmvn`: the fullmove number.
    FullmoveNumber(u32),
    /// `acd`: the analysis depth, in plies.
    AnalysisDepth(u32),
    /// `ce`: the evaluation, in centipawns, from the side to move's point of view.
    CentipawnEvaluation(i32),
    /// `D1`, `D2`, …: the perft node count at a depth (perft suites).
    Perft {
        /// The depth.
        depth: u32,
        /// The number of leaf nodes.
        nodes: u64,
    },
    /// Any other opcode, with its operands as written.
    Other {
        /// The opcode.
        opcode: String,
        /// The operands.
        operands: Vec<Operand>,
    },
}

/// An operand of an opcode this module does not know.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A word, written as is (it must not contain whitespace or `;`).
    Word(String),
    /// A string, written in quotes (the quotes and escapes removed).
    Quoted(String),
}

/// What is wrong in an EPD line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseEpdErrorKind {
    /// One of the four position fields is missing.
    MissingField(FenField),
    /// The FEN reader refused a position field.
    Fen {
        /// The field.
        field: FenField,
        /// What is wrong.
        kind: ParseFenErrorKind,
    },
    /// The text is not UTF-8.
    InvalidUtf8,
    /// An opcode that does not start with a letter or has other characters than letters,
    /// digits and `_`.
    BadOpcode,
    /// A quoted string without its closing quote.
    UnterminatedString,
    /// The opcode needs an operand (or another one) here.
    MissingOperand,
    /// The opcode takes no further operand.
    ExtraOperand,
    /// A word was expected here, not a quoted string.
    UnexpectedString,
    /// Not a number, or out of range.
    BadNumber,
    /// A move operand that is not SAN.
    San(ParseSanErrorKind),
}

impl fmt::Display for ParseEpdErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseEpdErrorKind::MissingField(field) => write!(f, "missing {field} field"),
            ParseEpdErrorKind::Fen { field, kind } => write!(f, "{kind} in the {field} field"),
            ParseEpdErrorKind::InvalidUtf8 => f.write_str("text is not UTF-8"),
            ParseEpdErrorKind::BadOpcode => f.write_str(
                "an opcode starts with a letter and has only letters, digits and underscores",
            ),
            ParseEpdErrorKind::UnterminatedString => {
                f.write_str("string without its closing quote")
            }
            ParseEpdErrorKind::MissingOperand => f.write_str("missing operand"),
            ParseEpdErrorKind::ExtraOperand => f.write_str("unexpected operand"),
            ParseEpdErrorKind::UnexpectedString => f.write_str("expected a word, not a string"),
            ParseEpdErrorKind::BadNumber => f.write_str("expected a number in range"),
            ParseEpdErrorKind::San(kind) => write!(f, "invalid SAN move: {kind}"),
        }
    }
}

/// An EPD line that could not be read: what is wrong, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid EPD: {kind} at byte {byte}")]
#[non_exhaustive]
pub struct ParseEpdError {
    /// Byte offset of the problem in the line.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseEpdErrorKind,
}

impl From<ParseFenError> for ParseEpdError {
    fn from(error: ParseFenError) -> ParseEpdError {
        ParseEpdError {
            byte: error.byte,
            kind: ParseEpdErrorKind::Fen {
                field: error.field,
                kind: error.kind,
            },
        }
    }
}

/// A move operand that does not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("EPD operation {opcode}, move {index}: {error}")]
#[non_exhaustive]
pub struct EpdMoveError {
    /// `bm`, `am` or `pv`.
    pub opcode: &'static str,
    /// The move's index among the operands, from 0.
    pub index: usize,
    /// Why it does not fit.
    pub error: SanError,
}

fn error(byte: usize, kind: ParseEpdErrorKind) -> ParseEpdError {
    ParseEpdError { byte, kind }
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// An operand as read: where it starts, and its text.
struct RawOperand<'a> {
    at: usize,
    quoted: bool,
    text: Cow<'a, str>,
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.at += 1;
        }
    }

    /// A run of bytes up to whitespace or `;`, and its start.
    fn word(&mut self) -> (usize, &'a str) {
        let start = self.at;
        while self.peek().is_some_and(|c| !is_space(c) && c != b';') {
            self.at += 1;
        }
        (start, &self.text[start..self.at])
    }

    /// A quoted string, the reader standing on its opening quote.
    fn quoted(&mut self) -> Result<RawOperand<'a>, ParseEpdError> {
        let start = self.at;
        self.at += 1;
        let mut text = String::new();
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return Err(error(start, ParseEpdErrorKind::UnterminatedString));
            };
            self.at += c.len_utf8();
            match c {
                '"' => break,
                '\\' if matches!(self.peek(), Some(b'"' | b'\\')) => {
                    text.push(char::from(self.text.as_bytes()[self.at]));
                    self.at += 1;
                }
                _ => text.push(c),
            }
        }
        Ok(RawOperand {
            at: start,
            quoted: true,
            text: Cow::Owned(text),
        })
    }

    /// The operands up to the end of the operation (a `;`, consumed, or the end of the text).
    fn operands(&mut self) -> Result<Vec<RawOperand<'a>>, ParseEpdError> {
        let mut operands = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => return Ok(operands),
                Some(b';') => {
                    self.at += 1;
                    return Ok(operands);
                }
                Some(b'"') => operands.push(self.quoted()?),
                Some(_) => {
                    let (at, text) = self.word();
                    operands.push(RawOperand {
                        at,
                        quoted: false,
                        text: Cow::Borrowed(text),
                    });
                }
            }
        }
    }
}

/// Checks the operand count: at least `min`, at most `max`; `end` (the end of the opcode) is
/// where a missing operand is reported.
fn count(
    operands: &[RawOperand<'_>],
    min: usize,
    max: usize,
    end: usize,
) -> Result<(), ParseEpdError> {
    if operands.len() < min {
        return Err(error(end, ParseEpdErrorKind::MissingOperand));
    }
    match operands.get(max) {
        Some(extra) => Err(error(extra.at, ParseEpdErrorKind::ExtraOperand)),
        None => Ok(()),
    }
}

/// The one operand of a numeric opcode, parsed.
fn number<T: FromStr>(operands: &[RawOperand<'_>], end: usize) -> Result<T, ParseEpdError> {
    count(operands, 1, 1, end)?;
    let operand = &operands[0];
    if operand.quoted {
        return Err(error(operand.at, ParseEpdErrorKind::UnexpectedString));
    }
    operand
        .text
        .parse()
        .map_err(|_| error(operand.at, ParseEpdErrorKind::BadNumber))
}

/// The one operand of a string opcode.
fn string(operands: &[RawOperand<'_>], end: usize) -> Result<String, ParseEpdError> {
    count(operands, 1, 1, end)?;
    Ok(operands[0].text.clone().into_owned())
}

/// The operands of a move opcode, as SAN.
fn moves(operands: &[RawOperand<'_>], end: usize) -> Result<Vec<SanPlus>, ParseEpdError> {
    count(operands, 1, usize::MAX, end)?;
    operands
        .iter()
        .map(|operand| {
            if operand.quoted {
                return Err(error(operand.at, ParseEpdErrorKind::UnexpectedString));
            }
            SanPlus::from_ascii(operand.text.as_bytes())
                .map_err(|e| error(operand.at + e.byte, ParseEpdErrorKind::San(e.kind)))
        })
        .collect()
}

/// Reads one operation's operands as `opcode` requires.
fn operation(
    opcode: &str,
    operands: &[RawOperand<'_>],
    end: usize,
) -> Result<Operation, ParseEpdError> {
    let comment = match opcode.as_bytes() {
        [b'c', digit @ b'0'..=b'9'] => Some(digit - b'0'),
        _ => None,
    };
    let perft_depth = opcode
        .strip_prefix('D')
        .filter(|digits| !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()))
        .and_then(|digits| digits.parse().ok());
    Ok(match opcode {
        "bm" => Operation::BestMoves(moves(operands, end)?),
        "am" => Operation::AvoidMoves(moves(operands, end)?),
        "pv" => Operation::PredictedVariation(moves(operands, end)?),
        "id" => Operation::Id(string(operands, end)?),
        "hmvc" => Operation::HalfmoveClock(number(operands, end)?),
        "fmvn" => Operation::FullmoveNumber(number(operands, end)?),
        "acd" => Operation::AnalysisDepth(number(operands, end)?),
        "ce" => Operation::CentipawnEvaluation(number(operands, end)?),
        _ => {
            if let Some(index) = comment {
                Operation::Comment {
                    index,
                    text: string(operands, end)?,
                }
            } else if let Some(depth) = perft_depth {
                Operation::Perft {
                    depth,
                    nodes: number(operands, end)?,
                }
            } else {
                Operation::Other {
                    opcode: opcode.to_owned(),
                    operands: operands
                        .iter()
                        .map(|operand| {
                            let text = operand.text.clone().into_owned();
                            if operand.quoted {
                                Operand::Quoted(text)
                            } else {
                                Operand::Word(text)
                            }
                        })
                        .collect(),
                }
            }
        }
    })
}

impl Epd {
    /// Reads one EPD line (see the module docs for what is accepted).
    ///
    /// # Errors
    ///
    /// [`ParseEpdError`] with the byte offset and what is wrong.
    pub fn from_ascii(line: &[u8]) -> Result<Epd, ParseEpdError> {
        let text = core::str::from_utf8(line)
            .map_err(|e| error(e.valid_up_to(), ParseEpdErrorKind::InvalidUtf8))?;
        let mut reader = Reader { text, at: 0 };
        let fields = [
            FenField::Placement,
            FenField::Turn,
            FenField::Castling,
            FenField::EnPassant,
        ];
        let mut position_end = 0;
        for field in fields {
            reader.skip_space();
            let (start, word) = reader.word();
            if word.is_empty() {
                return Err(error(start, ParseEpdErrorKind::MissingField(field)));
            }
            position_end = reader.at;
        }
        let mut counters = 0;
        while counters < 2 {
            let before = reader.at;
            reader.skip_space();
            let (_, word) = reader.word();
            if word.is_empty() || !word.bytes().all(|c| c.is_ascii_digit()) {
                reader.at = before;
                break;
            }
            position_end = reader.at;
            counters += 1;
        }
        let setup = Fen::from_ascii(&line[..position_end])?.into_setup();
        let mut operations = Vec::new();
        if counters > 0 {
            operations.push(Operation::HalfmoveClock(setup.halfmoves));
        }
        if counters > 1 {
            operations.push(Operation::FullmoveNumber(setup.fullmoves.get()));
        }
        loop {
            reader.skip_space();
            match reader.peek() {
                None => break,
                Some(b';') => reader.at += 1,
                Some(_) => {
                    let (at, opcode) = reader.word();
                    let valid = opcode
                        .bytes()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic())
                        && opcode
                            .bytes()
                            .all(|c| c.is_ascii_alphanumeric() || c == b'_');
                    if !valid {
                        let bad = opcode
                            .bytes()
                            .position(|c| !(c.is_ascii_alphanumeric() || c == b'_'))
                            .unwrap_or(0);
                        return Err(error(at + bad, ParseEpdErrorKind::BadOpcode));
                    }
                    let operands = reader.operands()?;
                    operations.push(operation(opcode, &operands, at + opcode.len())?);
                }
            }
        }
        Ok(Epd {
            board: setup.board,
            turn: setup.turn,
            castling_rights: setup.castling_rights,
            ep_square: setup.ep_square,
            operations,
        })
    }

    /// The EPD of `pos` without operations, with the en passant square chosen as `mode` says.
    /// The move counters are not part of the four fields: push [`Operation::HalfmoveClock`] and
    /// [`Operation::FullmoveNumber`] to keep them.
    #[must_use]
    pub fn from_position(pos: &Position, mode: EnPassantMode) -> Epd {
        let setup = Fen::from_position(pos, mode).into_setup();
        Epd {
            board: setup.board,
            turn: setup.turn,
            castling_rights: setup.castling_rights,
            ep_square: setup.ep_square,
            operations: Vec::new(),
        }
    }

    /// The first operation with this opcode (`"bm"`, `"c0"`, `"D3"`, or any other).
    #[must_use]
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode() == opcode)
    }

    /// The setup: the four fields, and the counters from `hmvc` and `fmvn` (0 and 1 when
    /// missing; a fullmove number of 0 counts as 1).
    #[must_use]
    pub fn setup(&self) -> Setup {
        let halfmoves = self.operations.iter().find_map(|op| match op {
            Operation::HalfmoveClock(n) => Some(*n),
            _ => None,
        });
        let fullmoves = self.operations.iter().find_map(|op| match op {
            Operation::FullmoveNumber(n) => NonZeroU32::new(*n).or(Some(NonZeroU32::MIN)),
            _ => None,
        });
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: halfmoves.unwrap_or(0),
            fullmoves: fullmoves.unwrap_or(NonZeroU32::MIN),
        }
    }

    /// The position, validated.
    ///
    /// # Errors
    ///
    /// [`PositionError`] listing every problem, as [`Position::from_setup`] does.
    pub fn position(&self, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup(self.setup(), mode)
    }

    /// The `id` string.
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Id(id) => Some(id.as_str()),
            _ => None,
        })
    }

    /// The comment `c0` … `c9` with this index.
    #[must_use]
    pub fn comment(&self, index: u8) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Comment { index: i, text } if *i == index => Some(text.as_str()),
            _ => None,
        })
    }

    /// The perft counts `(depth, nodes)`, in the order written.
    pub fn perft(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.operations.iter().filter_map(|op| match op {
            Operation::Perft { depth, nodes } => Some((*depth, *nodes)),
            _ => None,
        })
    }

    /// The `bm` moves in `pos` (the position of this EPD); empty without `bm`.
    ///
    /// # Errors
    ///
    /// [`EpdMoveError`] for the first move that is illegal or ambiguous in `pos`.
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<Move>, EpdMoveError> {
        self.resolve("bm", pos, false)
    }

    /// The `am` moves in `pos` (the position of this EPD); empty without `am`.
    ///
    /// # Errors
    ///
    /// [`EpdMoveError`] for the first move that is illegal or ambiguous in `pos`.
    pub fn avoid_moves(&self, pos: &Position) -> Result<Vec<Move>, EpdMoveError> {
        self.resolve("am", pos, false)
    }

    /// The `pv` moves, each in the position the previous ones lead to from `pos`; empty
    /// without `pv`.
    ///
    /// # Errors
    ///
    /// [`EpdMoveError`] for the first move that is illegal or ambiguous where it is played.
    pub fn predicted_variation(&self, pos: &Position) -> Result<Vec<Move>, EpdMoveError> {
        self.resolve("pv", pos, true)
    }

    fn resolve(
        &self,
        opcode: &'static str,
        pos: &Position,
        sequence: bool,
    ) -> Result<Vec<Move>, EpdMoveError> {
        let sans = match self.operation(opcode) {
            Some(
                Operation::BestMoves(sans)
                | Operation::AvoidMoves(sans)
                | Operation::PredictedVariation(sans),
            ) => sans.as_slice(),
            _ => &[],
        };
        let mut pos = *pos;
        sans.iter()
            .enumerate()
            .map(|(index, san)| {
                let m = san.san.to_move(&pos).map_err(|error| EpdMoveError {
                    opcode,
                    index,
                    error,
                })?;
                if sequence {
                    pos.play_unchecked(m);
                }
                Ok(m)
            })
            .collect()
    }

    /// Appends the EPD to `out`.
    pub fn append_to(&self, out: &mut String) {
        use fmt::Write as _;
        // Writing to a String cannot fail.
        let _ = write!(out, "{self}");
    }
}

impl Operation {
    /// The opcode: `bm`, `c3`, `D2`, or the opcode of [`Operation::Other`].
    #[must_use]
    pub fn opcode(&self) -> Cow<'_, str> {
        Cow::Borrowed(match self {
            Operation::BestMoves(_) => "bm",
            Operation::AvoidMoves(_) => "am",
            Operation::PredictedVariation(_) => "pv",
            Operation::Id(_) => "id",
            Operation::Comment { index, .. } => return Cow::Owned(format!("c{index}")),
            Operation::HalfmoveClock(_) => "hmvc",
            Operation::FullmoveNumber(_) => "fmvn",
            Operation::AnalysisDepth(_) => "acd",
            Operation::CentipawnEvaluation(_) => "ce",
            Operation::Perft { depth, .. } => return Cow::Owned(format!("D{depth}")),
            Operation::Other { opcode, .. } => opcode,
        })
    }
}

/// Writes `text` in quotes, escaping `"` and `\`.
fn write_quoted(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    f.write_str(" \"")?;
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            f.write_str("\\")?;
        }
        fmt::Write::write_char(f, c)?;
    }
    f.write_str("\"")
}

impl fmt::Display for Operation {
    /// The opcode and its operands, without the final `;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.opcode())?;
        match self {
            Operation::BestMoves(sans)
            | Operation::AvoidMoves(sans)
            | Operation::PredictedVariation(sans) => {
                sans.iter().try_for_each(|san| write!(f, " {san}"))
            }
            Operation::Id(text) | Operation::Comment { text, .. } => write_quoted(f, text),
            Operation::HalfmoveClock(n)
            | Operation::FullmoveNumber(n)
            | Operation::AnalysisDepth(n) => write!(f, " {n}"),
            Operation::CentipawnEvaluation(n) => write!(f, " {n}"),
            Operation::Perft { nodes, .. } => write!(f, " {nodes}"),
            Operation::Other { operands, .. } => {
                operands.iter().try_for_each(|operand| match operand {
                    Operand::Word(word) => write!(f, " {word}"),
                    Operand::Quoted(text) => write_quoted(f, text),
                })
            }
        }
    }
}

impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The FEN's fields without the two counters.
        self.setup().write_position_to(f)?;
        self.operations
            .iter()
            .try_for_each(|op| write!(f, " {op};"))
    }
}

impl FromStr for Epd {
    type Err = ParseEpdError;
    fn from_str(s: &str) -> Result<Epd, ParseEpdError> {
        Epd::from_ascii(s.as_bytes())
    }
}

/// Reads the EPD lines of a file, skipping blank lines and lines starting with `#`; yields each
/// line's number (from 1) with its EPD or error.
pub fn read_lines(text: &str) -> impl Iterator<Item = (usize, Result<Epd, ParseEpdError>)> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim_start();
            !line.is_empty() && !line.starts_with('#')
        })
        .map(|(i, line)| (i + 1, Epd::from_ascii(line.as_bytes())))
}
