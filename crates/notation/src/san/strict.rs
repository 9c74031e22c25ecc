//! Reading SAN strictly: [`San::parse_strict`] reads the text leniently, finds the move, and
//! compares the text with the spelling [`SanPlus::from_move`] writes, byte by byte.

use caissa_movegen::{Move, Position};

use super::parse::{Parsed, parse};
use super::{Leniency, San, SanPlus, StrictSanError};

impl Parsed {
    /// The first difference, by byte, between what was written and `strict` (the same move in
    /// strict SAN), if the text is not exactly `strict`.
    fn difference(&self, strict: &SanPlus) -> Option<(usize, Leniency)> {
        let written = self.san_plus;
        let in_the_move = match (written.san, strict.san) {
            (San::Normal { .. }, San::Castle(_)) => Some((0, Leniency::CastlingAsKingMove)),
            (
                San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    ..
                },
                San::Normal {
                    role: strict_role,
                    file: strict_file,
                    rank: strict_rank,
                    capture: strict_capture,
                    ..
                },
            ) => {
                if role != strict_role {
                    Some((0, Leniency::MissingPieceLetter))
                } else if (file, rank) != (strict_file, strict_rank) {
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

impl San {
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
}
