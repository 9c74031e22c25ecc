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
//!     any), read and dropped.
//!
//! The null move `--` (or `Z0`, as some programs write it) is read as [`San::Null`]; it is not a
//! chess move, so [`San::to_move`] refuses it with [`SanError::Null`] and the PGN layer decides
//! what to do with it.
//!
//! Not accepted: a pawn capture without the pawn's file (`xd5`), a pawn move to the last rank
//! without a promotion piece (`e8`) and a promotion anywhere else (`e7=Q`, `Nf3=Q`), a king or
//! pawn as promotion piece, lowercase piece letters (`nf3`: `b` is a file), whitespace, and any
//! other text before or after the move.

use core::fmt;
use core::str::FromStr;

use caissa_board::{Bitboard, CastlingSide, File, Rank, Role, Square};
use caissa_movegen::{Move, MovesTo, Position};

pub use caissa_movegen::Candidates;

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

/// What is wrong with a text that is not SAN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSanErrorKind {
    /// The text is empty.
    Empty,
    /// The text does not start like a move: a piece letter, a file, castling or a null move.
    ExpectedMove,
    /// A destination square was expected here.
    ExpectedSquare,
    /// Castling that is not `O-O` or `O-O-O` (or the same with zeros).
    BadCastling,
    /// A pawn capture without the pawn's file (`xd5`).
    PawnCaptureWithoutFile,
    /// A pawn move naming the pawn's rank but not its file (`P4e4`): a pawn's origin is named
    /// by its file, or by its square (`e3e4`). Written without the `P`, such a move would not
    /// read as SAN.
    PawnRankWithoutFile,
    /// A promotion piece (`Q`, `R`, `B` or `N`) was expected here.
    ExpectedPromotion,
    /// A pawn move to the last rank without a promotion piece.
    MissingPromotion,
    /// A promotion on a move that cannot promote (a piece, or a pawn not reaching the last rank).
    UnexpectedPromotion,
    /// Text after the move, its suffix and its annotation glyph.
    TrailingText,
}

impl fmt::Display for ParseSanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseSanErrorKind::Empty => "empty move",
            ParseSanErrorKind::ExpectedMove => {
                "expected a piece letter (K, Q, R, B, N), a file, castling or a null move"
            }
            ParseSanErrorKind::ExpectedSquare => "expected a square such as e4",
            ParseSanErrorKind::BadCastling => "castling is written O-O or O-O-O",
            ParseSanErrorKind::PawnCaptureWithoutFile => {
                "a pawn capture names the pawn's file, as in exd5"
            }
            ParseSanErrorKind::PawnRankWithoutFile => {
                "a pawn's origin is named by its file or its square, as in e3e4, not by its rank"
            }
            ParseSanErrorKind::ExpectedPromotion => "expected a promotion piece Q, R, B or N",
            ParseSanErrorKind::MissingPromotion => {
                "a pawn reaching the last rank promotes: add =Q, =R, =B or =N"
            }
            ParseSanErrorKind::UnexpectedPromotion => "only a pawn reaching the last rank promotes",
            ParseSanErrorKind::TrailingText => "unexpected text after the move",
        })
    }
}

/// The text is not SAN: what is wrong, at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid SAN: {kind} at byte {byte}")]
#[non_exhaustive]
pub struct ParseSanError {
    /// Byte offset of the problem in the text.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseSanErrorKind,
}

/// A SAN that does not fit the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// No legal move matches.
    #[error("illegal move {san}: no legal move matches")]
    Illegal {
        /// The move as read.
        san: San,
    },
    /// Several legal moves match.
    #[error("ambiguous move {san}: it could be {candidates}")]
    Ambiguous {
        /// The move as read.
        san: San,
        /// The legal moves it could stand for.
        candidates: Candidates,
    },
    /// The null move (`--` or `Z0`) is not a legal move.
    #[error("a null move is not a legal move")]
    Null,
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

/// Why [`San::parse_strict`] refused a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum StrictSanError {
    /// The text is not SAN.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// The text is SAN but no single legal move matches.
    #[error(transparent)]
    Meaning(#[from] SanError),
    /// The text names a legal move, but not in the one spelling strict SAN allows.
    #[error("not strict SAN at byte {byte}: {reason}; the move is written {expected}")]
    NotStrict {
        /// Byte offset of the first thing written differently.
        byte: usize,
        /// What is written differently.
        reason: Leniency,
        /// The strict spelling of the move.
        expected: SanPlus,
    },
}

/// What the parser read, and where, for the strict reader to compare against our spelling.
struct Parsed {
    san_plus: SanPlus,
    /// The first spelling that only the lenient reader accepts, with its byte.
    lenient: Option<(usize, Leniency)>,
    /// Where the disambiguation (or, without it, the destination) starts.
    hints_at: usize,
    /// Where the destination square starts.
    to_at: usize,
    /// Where the suffix starts (or would start).
    suffix_at: usize,
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    lenient: Option<(usize, Leniency)>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.at += usize::from(found);
        found
    }

    fn note(&mut self, at: usize, leniency: Leniency) {
        self.lenient = self.lenient.or(Some((at, leniency)));
    }

    fn error(&self, kind: ParseSanErrorKind) -> ParseSanError {
        ParseSanError {
            byte: self.at,
            kind,
        }
    }

    fn file(&mut self) -> Option<File> {
        let file = File::from_char(char::from(self.peek()?))?;
        self.at += 1;
        Some(file)
    }

    fn rank(&mut self) -> Option<Rank> {
        let rank = Rank::from_char(char::from(self.peek()?))?;
        self.at += 1;
        Some(rank)
    }

    /// `O-O`, `O-O-O`, `0-0` or `0-0-0`.
    fn castle(&mut self, letter: u8) -> Result<San, ParseSanError> {
        if letter == b'0' {
            self.note(self.at, Leniency::ZeroCastling);
        }
        self.at += 1;
        if !(self.eat(b'-') && self.eat(letter)) {
            return Err(self.error(ParseSanErrorKind::BadCastling));
        }
        if !self.eat(b'-') {
            return Ok(San::Castle(CastlingSide::KingSide));
        }
        if !self.eat(letter) {
            return Err(self.error(ParseSanErrorKind::BadCastling));
        }
        Ok(San::Castle(CastlingSide::QueenSide))
    }

    /// `Q`, `R`, `B` or `N`, or the same in lowercase; says whether it was lowercase.
    fn promotion_role(&mut self) -> Option<(Role, bool)> {
        let byte = self.peek()?;
        let role = match byte.to_ascii_uppercase() {
            b'Q' => Role::Queen,
            b'R' => Role::Rook,
            b'B' => Role::Bishop,
            b'N' => Role::Knight,
            _ => return None,
        };
        self.at += 1;
        Some((role, byte.is_ascii_lowercase()))
    }

    /// A piece or pawn move; returns it with where its disambiguation and destination start.
    fn normal(&mut self) -> Result<(San, usize, usize), ParseSanError> {
        let role = match self.peek() {
            Some(b'a'..=b'h') => Role::Pawn,
            Some(letter) => {
                let role = match letter {
                    b'N' => Role::Knight,
                    b'B' => Role::Bishop,
                    b'R' => Role::Rook,
                    b'Q' => Role::Queen,
                    b'K' => Role::King,
                    b'P' => {
                        self.note(self.at, Leniency::PawnLetter);
                        Role::Pawn
                    }
                    _ => return Err(self.error(ParseSanErrorKind::ExpectedMove)),
                };
                self.at += 1;
                role
            }
            None => return Err(self.error(ParseSanErrorKind::ExpectedMove)),
        };
        let hints_at = self.at;
        let first_file = self.file();
        let first_rank = self.rank();
        let separator_at = self.at;
        let capture = self.eat(b'x');
        let hyphen = !capture && self.eat(b'-');
        if hyphen {
            self.note(separator_at, Leniency::Hyphen);
        }
        let mut to_at = self.at;
        let (file, rank, to) = if let Some(to_file) = self.file() {
            let to_rank = self.rank().ok_or(ParseSanError {
                byte: to_at,
                kind: ParseSanErrorKind::ExpectedSquare,
            })?;
            (
                first_file,
                first_rank,
                Square::from_coords(to_file, to_rank),
            )
        } else if let (Some(to_file), Some(to_rank), false, false) =
            (first_file, first_rank, capture, hyphen)
        {
            to_at = hints_at;
            (None, None, Square::from_coords(to_file, to_rank))
        } else {
            return Err(self.error(ParseSanErrorKind::ExpectedSquare));
        };
        if role == Role::Pawn && capture && file.is_none() {
            return Err(ParseSanError {
                byte: separator_at,
                kind: ParseSanErrorKind::PawnCaptureWithoutFile,
            });
        }
        if role == Role::Pawn && file.is_none() && rank.is_some() {
            return Err(ParseSanError {
                byte: hints_at,
                kind: ParseSanErrorKind::PawnRankWithoutFile,
            });
        }

        let promotion_at = self.at;
        let promotion = if self.eat(b'=') {
            let letter_at = self.at;
            let (role, lowercase) = self
                .promotion_role()
                .ok_or(self.error(ParseSanErrorKind::ExpectedPromotion))?;
            if lowercase {
                self.note(letter_at, Leniency::LowercasePromotion);
            }
            Some(role)
        } else if let Some((role, _)) = self.promotion_role() {
            // A lowercase letter here is noted at the same byte as the missing `=`.
            self.note(promotion_at, Leniency::MissingPromotionSign);
            Some(role)
        } else {
            None
        };
        let last_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
        let problem = match (role, promotion) {
            (Role::Pawn, None) if last_rank => Some(ParseSanErrorKind::MissingPromotion),
            (Role::Pawn, Some(_)) if !last_rank => Some(ParseSanErrorKind::UnexpectedPromotion),
            (Role::Pawn, _) | (_, None) => None,
            (_, Some(_)) => Some(ParseSanErrorKind::UnexpectedPromotion),
        };
        if let Some(kind) = problem {
            return Err(ParseSanError {
                byte: promotion_at,
                kind,
            });
        }
        let san = San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        };
        Ok((san, hints_at, to_at))
    }
}

/// The common spellings, read from the end in a few steps: castling with the letter O, or a
/// piece letter (none for pawns), up to two disambiguation bytes, `x`, the destination, `=` and
/// an uppercase promotion letter, and `+` or `#`. `None` for anything else, which [`parse`] then
/// reads (or refuses) with its byte-by-byte bookkeeping. What this accepts, [`parse`] reads the
/// same.
#[inline(always)]
fn parse_common(text: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match text {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    // The shapes nearly every move has, at a fixed length: `e4`, `Nf3`, `exd5`, `Nxe5`.
    let quick = match *body {
        [to_file, to_rank] => plain_move(Role::Pawn, None, false, to_file, to_rank),
        [piece, to_file, to_rank] => {
            piece_role(piece).and_then(|role| plain_move(role, None, false, to_file, to_rank))
        }
        [from @ b'a'..=b'h', b'x', to_file, to_rank] => {
            plain_move(Role::Pawn, file_of(from), true, to_file, to_rank)
        }
        [piece, b'x', to_file, to_rank] => {
            piece_role(piece).and_then(|role| plain_move(role, None, true, to_file, to_rank))
        }
        _ => None,
    };
    if let Some(san) = quick {
        return Some(SanPlus { san, suffix });
    }
    let (role, rest) = match body {
        [b'a'..=b'h', ..] => (Role::Pawn, body),
        b"O-O" => return Some(San::Castle(CastlingSide::KingSide).with(suffix)),
        b"O-O-O" => return Some(San::Castle(CastlingSide::QueenSide).with(suffix)),
        [letter, rest @ ..] => (piece_role(*letter)?, rest),
        [] => return None,
    };
    let (rest, promotion) = match rest {
        [rest @ .., b'=', b'N'] => (rest, Some(Role::Knight)),
        [rest @ .., b'=', b'B'] => (rest, Some(Role::Bishop)),
        [rest @ .., b'=', b'R'] => (rest, Some(Role::Rook)),
        [rest @ .., b'=', b'Q'] => (rest, Some(Role::Queen)),
        _ => (rest, None),
    };
    let [hints @ .., to_file, to_rank] = rest else {
        return None;
    };
    let to = Square::from_coords(file_of(*to_file)?, rank_of(*to_rank)?);
    let (hints, capture) = match hints {
        [hints @ .., b'x'] => (hints, true),
        _ => (hints, false),
    };
    let (file, rank) = match *hints {
        [] => (None, None),
        [b @ b'a'..=b'h'] => (file_of(b), None),
        [b @ b'1'..=b'8'] => (None, rank_of(b)),
        [f, r] => (Some(file_of(f)?), Some(rank_of(r)?)),
        _ => return None,
    };
    let last_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
    let fits = match role {
        // A pawn's text starts with its file, so a capture always names it.
        Role::Pawn => promotion.is_some() == last_rank,
        _ => promotion.is_none(),
    };
    fits.then_some(SanPlus {
        san: San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        suffix,
    })
}

/// A move of [`parse_common`]'s quick shapes: no promotion, so not a pawn onto its last rank
/// (which the general path then reads, or refuses).
#[inline(always)]
fn plain_move(
    role: Role,
    file: Option<File>,
    capture: bool,
    to_file: u8,
    to_rank: u8,
) -> Option<San> {
    let to = Square::from_coords(file_of(to_file)?, rank_of(to_rank)?);
    let onto_last_rank = matches!(to_rank, b'1' | b'8');
    (role != Role::Pawn || !onto_last_rank).then_some(San::Normal {
        role,
        file,
        rank: None,
        capture,
        to,
        promotion: None,
    })
}

/// The piece of an uppercase SAN letter (no pawn: SAN writes none). A table, not a `match`:
/// which piece moves next is hard to predict.
#[inline(always)]
fn piece_role(letter: u8) -> Option<Role> {
    static ROLES: [Option<Role>; 32] = {
        let mut roles = [None; 32];
        roles[(b'N' - b'@') as usize] = Some(Role::Knight);
        roles[(b'B' - b'@') as usize] = Some(Role::Bishop);
        roles[(b'R' - b'@') as usize] = Some(Role::Rook);
        roles[(b'Q' - b'@') as usize] = Some(Role::Queen);
        roles[(b'K' - b'@') as usize] = Some(Role::King);
        roles
    };
    ROLES
        .get(usize::from(letter.wrapping_sub(b'@')))
        .copied()
        .flatten()
}

fn file_of(byte: u8) -> Option<File> {
    File::from_char(char::from(byte))
}

fn rank_of(byte: u8) -> Option<Rank> {
    Rank::from_char(char::from(byte))
}

impl San {
    fn with(self, suffix: Option<Suffix>) -> SanPlus {
        SanPlus { san: self, suffix }
    }
}

/// Reads a whole text: a move, an optional suffix, an optional annotation glyph.
fn parse(text: &[u8]) -> Result<Parsed, ParseSanError> {
    let mut reader = Reader {
        text,
        at: 0,
        lenient: None,
    };
    let (san, hints_at, to_at) = match text {
        [] => return Err(reader.error(ParseSanErrorKind::Empty)),
        [letter @ (b'O' | b'0'), ..] => (reader.castle(*letter)?, 0, 0),
        [b'-', b'-', ..] | [b'Z', b'0', ..] => {
            reader.at = 2;
            (San::Null, 0, 0)
        }
        _ => reader.normal()?,
    };
    let suffix_at = reader.at;
    let suffix = if reader.eat(b'+') {
        Some(Suffix::Check)
    } else if reader.eat(b'#') {
        Some(Suffix::Checkmate)
    } else {
        None
    };
    match &text[reader.at..] {
        [] => {}
        b"!" | b"?" | b"!!" | b"??" | b"!?" | b"?!" => {
            reader.note(reader.at, Leniency::AnnotationGlyph);
        }
        _ => return Err(reader.error(ParseSanErrorKind::TrailingText)),
    }
    Ok(Parsed {
        san_plus: SanPlus { san, suffix },
        lenient: reader.lenient,
        hints_at,
        to_at,
        suffix_at,
    })
}

impl Parsed {
    /// The first difference, by byte, between what was written and `strict` (the same move in
    /// strict SAN), if the text is not exactly `strict`.
    fn difference(&self, strict: &SanPlus) -> Option<(usize, Leniency)> {
        let written = self.san_plus;
        let in_the_move = match (written.san, strict.san) {
            (San::Normal { .. }, San::Castle(_)) => Some((0, Leniency::CastlingAsKingMove)),
            (
                San::Normal {
                    file,
                    rank,
                    capture,
                    ..
                },
                San::Normal {
                    file: strict_file,
                    rank: strict_rank,
                    capture: strict_capture,
                    ..
                },
            ) => {
                if (file, rank) != (strict_file, strict_rank) {
                    // Where they part: at the rank if the files agree.
                    let same_file = file.is_some() && file == strict_file;
                    let at = self.hints_at + usize::from(same_file);
                    Some((at, Leniency::Disambiguation))
                } else if capture && !strict_capture {
                    Some((self.to_at - 1, Leniency::SpuriousCapture))
                } else if !capture && strict_capture {
                    Some((self.to_at, Leniency::MissingCapture))
                } else {
                    None
                }
            }
            _ => None,
        };
        let in_the_suffix = (written.suffix != strict.suffix).then_some((
            self.suffix_at,
            Leniency::Suffix {
                written: written.suffix,
                expected: strict.suffix,
            },
        ));
        let semantic = in_the_move.or(in_the_suffix);
        match (self.lenient, semantic) {
            (Some(spelling), Some(meaning)) if spelling.0 < meaning.0 => Some(spelling),
            (spelling, meaning) => meaning.or(spelling),
        }
    }
}

/// The squares a SAN's origin may stand on: its file and its rank as far as they are written;
/// for a pawn without a file, the destination's file (a pawn that takes names its file).
#[inline(always)]
fn origins(role: Role, file: Option<File>, rank: Option<Rank>, to: Square) -> Bitboard {
    let file = match (role, file) {
        (Role::Pawn, None) => Some(to.file()),
        _ => file,
    };
    let mut from = Bitboard::FULL;
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    from
}

/// The origin's file and rank as far as SAN names them for a move of the `role` on `from` to
/// `to`: nothing when no other piece of that kind can go there; else its file if that tells
/// the pieces apart, else its rank, else both.
fn disambiguation(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
    let MovesTo::Ambiguous(candidates) = pos.moves_to(role, Bitboard::FULL, to, None) else {
        return (None, None);
    };
    let (mut same_file, mut same_rank) = (false, false);
    for other in candidates.as_slice().iter().map(|m| m.from()) {
        if other != from {
            same_file |= other.file() == from.file();
            same_rank |= other.rank() == from.rank();
        }
    }
    (
        (!same_file || same_rank).then_some(from.file()),
        same_file.then_some(from.rank()),
    )
}

impl San {
    /// Reads SAN leniently (see the module docs); a check or checkmate suffix and an annotation
    /// glyph are accepted and dropped (use [`SanPlus::from_ascii`] to keep the suffix).
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] with the byte where the text stops being SAN.
    ///
    /// # Examples
    ///
    /// ```
    /// use caissa_board::{File, Role, Square};
    /// use caissa_notation::san::San;
    ///
    /// let san = San::from_ascii(b"Nbd7!")?;
    /// assert_eq!(
    ///     san,
    ///     San::Normal {
    ///         role: Role::Knight,
    ///         file: Some(File::B),
    ///         rank: None,
    ///         capture: false,
    ///         to: Square::D7,
    ///         promotion: None,
    ///     }
    /// );
    /// assert_eq!(San::from_ascii(b"Nz7").unwrap_err().byte, 1);
    /// # Ok::<(), caissa_notation::san::ParseSanError>(())
    /// ```
    pub fn from_ascii(text: &[u8]) -> Result<San, ParseSanError> {
        SanPlus::from_ascii(text).map(|san| san.san)
    }

    /// The SAN of `m`, a legal move of `pos`, with the minimal disambiguation.
    ///
    /// # Panics
    ///
    /// If `m`'s origin is empty in `pos`. Any other move that is not legal here gets some SAN
    /// without a panic, but not a meaningful one.
    #[must_use]
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let role = pos.moving_role(m);
        let (from, to) = (m.from(), m.to());
        let capture = pos.captured_role(m).is_some();
        let (file, rank) = match role {
            Role::Pawn => (capture.then_some(from.file()), None),
            // There is one king.
            Role::King => (None, None),
            _ => disambiguation(pos, role, from, to),
        };
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: m.promotion_role(),
        }
    }

    /// The legal move of `pos` this SAN stands for, read leniently: the capture mark and the
    /// suffix are not checked, any disambiguation that names the origin is accepted, and a king
    /// move to its castling square (or onto its castling rook) is castling when no ordinary king
    /// move goes there.
    ///
    /// The move is found by [`Position::moves_to`], asked for the written piece from the
    /// squares the written origin allows (for a pawn without a file, the destination's file).
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] if no legal move matches, [`SanError::Ambiguous`] with the
    /// candidates if several do, [`SanError::Null`] for the null move.
    #[inline(always)]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        // The plain case inline, for replaying games; everything else out of line.
        let found = match *self {
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => match pos.moves_to(role, origins(role, file, rank, to), to, promotion) {
                MovesTo::One(m) => return Ok(m),
                found => found,
            },
            San::Castle(_) | San::Null => MovesTo::None,
        };
        self.not_one_move(pos, found)
    }

    /// [`San::to_move`] for castling, the null move, and a piece move for which
    /// [`Position::moves_to`] found no move or several: the king move that stands for castling,
    /// or the error.
    #[inline(never)]
    fn not_one_move(&self, pos: &Position, found: MovesTo) -> Result<Move, SanError> {
        match (*self, found) {
            (_, MovesTo::One(m)) => Ok(m),
            (San::Normal { .. }, MovesTo::Ambiguous(candidates)) => Err(SanError::Ambiguous {
                san: *self,
                candidates,
            }),
            (San::Normal { .. }, _) => self
                .castling_as_king_move(pos)
                .ok_or(SanError::Illegal { san: *self }),
            (San::Castle(side), _) => pos
                .castling_move(side)
                .ok_or(SanError::Illegal { san: *self }),
            (San::Null, _) => Err(SanError::Null),
        }
    }

    /// The castling move that this king move stands for (leniency 9 of the module docs): the
    /// king, on the origin as far as it is written, lands on the destination, or else takes
    /// its own rook standing there.
    fn castling_as_king_move(&self, pos: &Position) -> Option<Move> {
        let San::Normal {
            role: Role::King,
            file,
            rank,
            to,
            ..
        } = *self
        else {
            return None;
        };
        if !origins(Role::King, file, rank, to).contains(pos.king(pos.turn())) {
            return None;
        }
        let castles = CastlingSide::ALL.map(|side| pos.castling_move(side));
        let lands_on = |m: &Move| m.king_to() == to;
        let takes = |m: &Move| m.to() == to;
        castles
            .into_iter()
            .flatten()
            .find(lands_on)
            .or_else(|| castles.into_iter().flatten().find(takes))
    }

    /// Reads `text` as strict SAN in `pos`: only the spelling [`SanPlus::from_move`] writes is
    /// accepted, suffix included (`Nf3`, `exd5`, `e8=Q+`, `O-O#`).
    ///
    /// # Errors
    ///
    /// [`StrictSanError::Syntax`] if the text is not SAN, [`StrictSanError::Meaning`] if no
    /// single legal move matches, and otherwise [`StrictSanError::NotStrict`] with the first
    /// byte written differently, the [`Leniency`] it relies on, and the strict spelling.
    ///
    /// # Examples
    ///
    /// ```
    /// use caissa_movegen::Position;
    /// use caissa_notation::san::{Leniency, San, StrictSanError};
    ///
    /// let pos = Position::standard();
    /// assert!(San::parse_strict(b"e4", &pos).is_ok());
    /// let Err(StrictSanError::NotStrict { byte, reason, .. }) = San::parse_strict(b"Pe4", &pos)
    /// else {
    ///     panic!("Pe4 is lenient SAN");
    /// };
    /// assert_eq!((byte, reason), (0, Leniency::PawnLetter));
    /// ```
    pub fn parse_strict(text: &[u8], pos: &Position) -> Result<Move, StrictSanError> {
        let parsed = parse(text)?;
        let m = parsed.san_plus.san.to_move(pos)?;
        let strict = SanPlus::from_move(pos, m);
        match parsed.difference(&strict) {
            None => Ok(m),
            Some((byte, reason)) => Err(StrictSanError::NotStrict {
                byte,
                reason,
                expected: strict,
            }),
        }
    }

    /// Appends the SAN to `out`.
    pub fn append_to(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write(out);
    }

    fn write(&self, f: &mut impl fmt::Write) -> fmt::Result {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    f.write_char(role.upper_char())?;
                }
                if let Some(file) = file {
                    f.write_char(file.char())?;
                }
                if let Some(rank) = rank {
                    f.write_char(rank.char())?;
                }
                if capture {
                    f.write_char('x')?;
                }
                f.write_char(to.file().char())?;
                f.write_char(to.rank().char())?;
                if let Some(role) = promotion {
                    f.write_char('=')?;
                    f.write_char(role.upper_char())?;
                }
                Ok(())
            }
            San::Castle(side) => f.write_str(side.san()),
            San::Null => f.write_str("--"),
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::from_ascii(s.as_bytes())
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

impl SanPlus {
    /// Reads SAN with its suffix leniently (see the module docs); one trailing annotation glyph
    /// (`!`, `?`, `!!`, `??`, `!?`, `?!`) is accepted and dropped.
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] with the byte where the text stops being SAN.
    #[inline]
    pub fn from_ascii(text: &[u8]) -> Result<SanPlus, ParseSanError> {
        match parse_common(text) {
            Some(san) => Ok(san),
            None => parse(text).map(|parsed| parsed.san_plus),
        }
    }

    /// The SAN of `m`, a legal move of `pos`, with `+` or `#` found by playing it on a copy.
    ///
    /// # Panics
    ///
    /// May panic if `m` is not a legal move of `pos`.
    #[must_use]
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let mut after = *pos;
        SanPlus::from_move_and_play_unchecked(&mut after, m)
    }

    /// The SAN of `m`, a legal move of `pos`, with its suffix; plays `m` on `pos`.
    ///
    /// # Panics
    ///
    /// May panic, or leave `pos` broken, if `m` is not a legal move of `pos` (as
    /// [`Position::play_unchecked`] does).
    pub fn from_move_and_play_unchecked(pos: &mut Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        SanPlus {
            san,
            suffix: Suffix::from_position(pos),
        }
    }

    /// Appends the SAN and its suffix to `out`.
    pub fn append_to(&self, out: &mut String) {
        self.san.append_to(out);
        if let Some(suffix) = self.suffix {
            out.push(suffix.char());
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.san.write(f)?;
        match self.suffix {
            Some(suffix) => suffix.fmt(f),
            None => Ok(()),
        }
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl From<San> for SanPlus {
    fn from(san: San) -> SanPlus {
        SanPlus { san, suffix: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_reader_agrees_with_the_full_one() {
        // Every text of up to four bytes over these, and pseudo-random ones of five to eight.
        let alphabet = b"NBRQKPOabdeh1278x-=+#!?q0";
        let mut common = 0;
        let mut check = |text: &[u8]| {
            if let Some(san) = parse_common(text) {
                let full = parse(text).map(|parsed| parsed.san_plus);
                assert_eq!(Ok(san), full, "{}", String::from_utf8_lossy(text));
                common += 1;
            }
        };
        let mut text = Vec::new();
        for len in 0..=4_u32 {
            for mut n in 0..alphabet.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                check(&text);
            }
        }
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..2_000_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 5 + (seed % 4) as usize;
            text.clear();
            text.extend(
                (0..len).map(|i| alphabet[(seed >> (8 + 6 * i)) as usize % alphabet.len()]),
            );
            check(&text);
        }
        for text in [
            "e8=Q+", "exd8=N#", "Nbxd7", "R1e2", "Ng1f3", "O-O-O#", "Kxh1",
        ] {
            check(text.as_bytes());
        }
        assert!(common > 1000, "{common}");
    }

    #[test]
    fn parse_reports_layout_for_the_strict_reader() {
        let parsed = parse(b"Nbxd7+").unwrap();
        assert_eq!((parsed.hints_at, parsed.to_at, parsed.suffix_at), (1, 3, 5));
        assert_eq!(parsed.lenient, None);
        let parsed = parse(b"Pe2-e4!?").unwrap();
        assert_eq!(parsed.lenient, Some((0, Leniency::PawnLetter)));
        assert_eq!((parsed.hints_at, parsed.to_at), (1, 4));
    }
}
