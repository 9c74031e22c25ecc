//! Reading SAN leniently (the list is in the [module docs](super)): [`SanPlus::from_ascii`]
//! tries the shortcut for the spellings nearly every move has, and otherwise reads byte by byte,
//! noting the first spelling that only the lenient reader accepts (for the strict reader).

use core::str::FromStr;

use caissa_board::{CastlingSide, File, Rank, Role, Square};

use super::{Leniency, ParseSanError, ParseSanErrorKind, San, SanPlus, Suffix};

/// What the parser read, and where, for the strict reader to compare against our spelling.
pub(super) struct Parsed {
    /// The move and its suffix.
    pub(super) san_plus: SanPlus,
    /// The first spelling that only the lenient reader accepts, with its byte.
    pub(super) lenient: Option<(usize, Leniency)>,
    /// Where the disambiguation (or, without it, the destination) starts.
    pub(super) hints_at: usize,
    /// Where the destination square starts.
    pub(super) to_at: usize,
    /// Where the suffix starts (or would start).
    pub(super) suffix_at: usize,
}

/// The byte-by-byte reader of [`parse`]: the text, where it stands, and the first lenient
/// spelling seen.
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
        // With its whole origin and no letter, it may be a piece's move as UCI writes it
        // (`a6b8`): the position decides.
        let whole_origin = file.is_some() && rank.is_some();
        let problem = match (role, promotion) {
            (Role::Pawn, None) if last_rank && !whole_origin => {
                Some(ParseSanErrorKind::MissingPromotion)
            }
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

/// Reads a whole text: a move, an optional suffix, an optional annotation glyph.
pub(super) fn parse(text: &[u8]) -> Result<Parsed, ParseSanError> {
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
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::from_ascii(s.as_bytes())
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl San {
    fn with(self, suffix: Option<Suffix>) -> SanPlus {
        SanPlus { san: self, suffix }
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
