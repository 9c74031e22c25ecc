//! SAN: Standard Algebraic Notation, the move notation of PGN and of most chess books.
//!
//! A [`San`] is a move as written (`Nbd7`, `exd5`, `e8=Q`, `O-O`), before it is matched against
//! a position; a [`SanPlus`] adds the check or checkmate [`Suffix`] (`Qh5+`, `Qxf7#`).
//!
//! - **Writing**: [`San::from_move`] and [`SanPlus::from_move`] write the one spelling of the
//!   FIDE Laws (Appendix C) and the PGN standard: the piece letter (none for pawns), the origin
//!   only as far as another legal move of the same kind of piece to the same square requires
//!   (its file if that tells them apart, else its rank, else both), `x` for captures (a pawn
//!   capture always names the pawn's file), the destination, `=Q` for promotions, `O-O` and
//!   `O-O-O` for castling (Chess960 too), and `+` or `#`.
//! - **Reading, leniently**: [`SanPlus::from_ascii`] reads the syntax, [`San::to_move`] finds the
//!   move in a position. Together they accept what real files contain (the list below).
//! - **Reading, strictly**: [`San::parse_strict`] accepts exactly the spelling that
//!   [`SanPlus::from_move`] writes, suffix included, and otherwise says which [`Leniency`] the
//!   text relies on and at which byte.
//!
//! Errors come in two kinds: [`ParseSanError`] when the text is not SAN at all (with the byte),
//! and [`SanError`] when it is SAN but does not fit the position (illegal, or ambiguous with the
//! candidate moves).
//!
//! Nothing here allocates: parsing works on the bytes, and reading and writing ask the move
//! generator's crate one question, [`Position::moves_to`]: the legal moves of one kind of piece
//! from some squares onto one square. [`San::to_move`] asks it for the written piece from the
//! squares the written origin allows; [`San::from_move`] asks it which other pieces of the kind
//! that moves can go to the same square, to name the origin only as far as needed. It looks only
//! at the pieces that can reach that square and builds the move directly when its legality is
//! plain, so a game replays (or is written) without listing legal moves. Castling is checked on
//! the squares it needs ([`Position::castling_move`]).
//!
//! ```
//! use caissa_movegen::Position;
//! use caissa_notation::san::{San, SanPlus};
//!
//! let pos = Position::standard();
//! let m = "Nf3".parse::<San>()?.to_move(&pos)?;
//! assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Nf3");
//!
//! // Strict reading accepts our spelling only.
//! assert_eq!(San::parse_strict(b"Nf3", &pos), Ok(m));
//! let error = San::parse_strict(b"Ng1f3", &pos).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "not strict SAN at byte 1: the origin is named only as far as needed \
//!      (file, then rank, then both); the move is written Nf3"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Leniency
//!
//! The lenient reader ([`SanPlus::from_ascii`] and [`San::to_move`]) accepts, besides the strict
//! spelling:
//!
//! 1. castling written with zeros: `0-0`, `0-0-0`;
//! 2. a `P` before a pawn move: `Pe4`, `Pexd5`;
//! 3. more disambiguation than needed, or another kind of it: `Nbd7` or `N8d7` where `Nd7`
//!    suffices, `N1d2` where `Nbd2` is written, long algebraic `Ng1f3` and `e2e4`;
//! 4. a hyphen between origin and destination: `Ng1-f3`, `e2-e4`;
//! 5. a capture without `x`: `Nd5` for `Nxd5`, `ed5` and `e4d5` for `exd5`;
//! 6. an `x` on a move that captures nothing: `Nxf3` for `Nf3` (for a pawn the file decides:
//!    `exe5` is a push);
//! 7. a promotion without `=`: `e8Q`, `exd8N`;
//! 8. a lowercase promotion letter: `e8=q`, `e8q`;
//! 9. castling written as a king move, when the king castles and no ordinary king move has that
//!    destination: `Kg1`, `Ke1g1`, `Kc8`, or the king taking its own rook as in Chess960 UCI
//!    (`Kxh1`, `Kh1`); an origin, if written, is the king's square;
//! 10. a `+` or `#` that does not match the position (missing, extra, or the wrong one): the
//!     suffix is read into [`SanPlus::suffix`] and ignored by [`San::to_move`];
//! 11. one trailing annotation glyph: `!`, `?`, `!!`, `??`, `!?`, `?!` (after the suffix, if
//!     any), read and dropped;
//! 12. a piece's move written with its origin and destination and no letter, as UCI writes it
//!     (`g1f3`, `e1g1` for castling) or long algebraic without the letter (`g1-f3`): the piece
//!     on the origin moves.
//!
//! The null move `--` (or `Z0`, as some programs write it) is read as [`San::Null`]; it is not a
//! chess move, so [`San::to_move`] refuses it with [`SanError::Null`] and the PGN layer decides
//! what to do with it.
//!
//! Not accepted: a pawn capture without the pawn's file (`xd5`), a pawn move to the last rank
//! without a promotion piece (`e8`) and a promotion anywhere else (`e7=Q`, `Nf3=Q`), a king or
//! pawn as promotion piece, lowercase piece letters (`nf3`: `b` is a file), whitespace, and any
//! other text before or after the move.
//!
//! # Layout
//!
//! This file owns the types ([`San`], [`SanPlus`], [`Suffix`]) and the [`Leniency`] list; the
//! rest is one concern a file:
//!
//! - `parse`: reading the text (lenient), with the shortcut for the common spellings;
//! - `resolve`: finding the move a [`San`] stands for in a position;
//! - `strict`: the strict reader, which compares the text with the spelling we write;
//! - `write`: the SAN of a move, and writing it out;
//! - `error`: [`ParseSanError`], [`SanError`] and [`StrictSanError`].

mod error;
mod parse;
mod resolve;
mod strict;
mod write;

use core::fmt;

use caissa_board::{CastlingSide, File, Rank, Role, Square};
use caissa_movegen::Position;

pub use caissa_movegen::Candidates;
pub use error::{ParseSanError, ParseSanErrorKind, SanError, StrictSanError};
pub use write::append_lan;

/// A move in SAN, as written, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move: `Nf3`, `Nbd7`, `R1e2`, `exd5`, `e8=Q`.
    Normal {
        /// The moving piece (a pawn when no letter is written).
        role: Role,
        /// The origin's file, if written (disambiguation, or the file of a capturing pawn).
        file: Option<File>,
        /// The origin's rank, if written.
        rank: Option<Rank>,
        /// Whether `x` is written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion piece, for pawns reaching the last rank.
        promotion: Option<Role>,
    },
    /// `O-O` (king side) or `O-O-O` (queen side).
    Castle(CastlingSide),
    /// `--`: the null move, a pass (not a legal chess move; PGN programs write it in analysis).
    Null,
}

/// The check or checkmate mark after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move checkmates.
    Checkmate,
}

/// A move in SAN with its check or checkmate suffix, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#`, or nothing.
    pub suffix: Option<Suffix>,
}

/// A spelling the lenient reader accepts and the strict reader does not (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Leniency {
    /// `0-0` for `O-O`.
    ZeroCastling,
    /// `Pe4` for `e4`.
    PawnLetter,
    /// `Ng1-f3`.
    Hyphen,
    /// More or other disambiguation than the minimal one: `Nbd7` for `Nd7`, `N1d2` for `Nbd2`.
    Disambiguation,
    /// `Nd5` for `Nxd5`, `ed5` for `exd5`.
    MissingCapture,
    /// `Nxf3` for `Nf3`.
    SpuriousCapture,
    /// `e8Q` for `e8=Q`.
    MissingPromotionSign,
    /// `e8=q` for `e8=Q`.
    LowercasePromotion,
    /// `Kg1` or `Ke1g1` for `O-O`.
    CastlingAsKingMove,
    /// `g1f3` for `Nf3`.
    MissingPieceLetter,
    /// A suffix that does not match the position.
    Suffix {
        /// The suffix in the text.
        written: Option<Suffix>,
        /// The suffix the move calls for.
        expected: Option<Suffix>,
    },
    /// `!`, `?`, `!!`, `??`, `!?` or `?!` after the move.
    AnnotationGlyph,
}

impl fmt::Display for Leniency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Leniency::ZeroCastling => "castling is written with the letter O, not the digit 0",
            Leniency::PawnLetter => "pawn moves are written without P",
            Leniency::Hyphen => "no hyphen between origin and destination",
            Leniency::Disambiguation => {
                "the origin is named only as far as needed (file, then rank, then both)"
            }
            Leniency::MissingCapture => "a capture is written with x",
            Leniency::SpuriousCapture => "x is written only for captures",
            Leniency::MissingPromotionSign => "a promotion is written with =, as in e8=Q",
            Leniency::LowercasePromotion => "the promotion piece is an uppercase letter",
            Leniency::CastlingAsKingMove => "castling is written O-O or O-O-O, not as a king move",
            Leniency::MissingPieceLetter => "a piece's move starts with its letter, as in Nf3",
            Leniency::Suffix {
                expected: Some(Suffix::Checkmate),
                ..
            } => "the move checkmates: end it with #",
            Leniency::Suffix {
                expected: Some(Suffix::Check),
                written: Some(Suffix::Checkmate),
            } => "the move gives check but not mate: end it with +, not #",
            Leniency::Suffix {
                expected: Some(Suffix::Check),
                ..
            } => "the move gives check: end it with +",
            Leniency::Suffix { expected: None, .. } => "the move gives no check: no + or #",
            Leniency::AnnotationGlyph => {
                "annotation glyphs such as ! or ?! are not part of the move"
            }
        })
    }
}

impl Suffix {
    /// `+` or `#`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }

    /// The suffix for a move that led to `pos`: `#` if the side to move is checkmated, `+` if
    /// it is in check, else none.
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<Suffix> {
        if !pos.is_check() {
            None
        } else if pos.is_checkmate() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        }
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.char())
    }
}

impl From<San> for SanPlus {
    fn from(san: San) -> SanPlus {
        SanPlus { san, suffix: None }
    }
}
