//! Syntax errors of PGN text.

use core::fmt;

use super::types::Location;

/// A game that is not well-formed PGN: where and what.
///
/// The reader reports the first problem of a game, skips the rest of that game and goes on with
/// the next one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct PgnError {
    /// Where the problem starts.
    pub location: Location,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// The line of the problem, from 1.
    #[must_use]
    pub const fn line(&self) -> u64 {
        self.location.line
    }

    /// The byte column of the problem, from 1.
    #[must_use]
    pub const fn column(&self) -> u64 {
        self.location.column
    }
}

/// A short excerpt of the input, kept in errors: at most 32 bytes, as text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Excerpt(String);

impl Excerpt {
    const MAX: usize = 32;

    pub(crate) fn new(bytes: &[u8]) -> Excerpt {
        let cut = &bytes[..bytes.len().min(Excerpt::MAX)];
        let mut text = String::from_utf8_lossy(cut).into_owned();
        if bytes.len() > Excerpt::MAX {
            text.push('…');
        }
        Excerpt(text)
    }

    /// The excerpt.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// What is wrong with a game's text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A byte that cannot start any token here.
    #[error("unexpected character {}", show_byte(*.0))]
    UnexpectedByte(u8),
    /// A token that is not a move, a move number, a glyph or a result.
    #[error("invalid token {0}")]
    InvalidToken(Excerpt),
    /// A token that looks like a move but is not SAN.
    #[error("invalid SAN {0}")]
    InvalidSan(Excerpt),
    /// A `$` not followed by a number from 0 to 255.
    #[error("invalid annotation glyph {0}")]
    InvalidNag(Excerpt),
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair: {0}")]
    MalformedTag(&'static str),
    /// A `{` comment that is not closed before the end of the input or the next game's tags.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// A `(` that is not closed before the end of the game.
    #[error("unterminated variation")]
    UnterminatedVariation,
    /// A `)` without a `(`.
    #[error("unmatched ')'")]
    UnmatchedParenthesis,
    /// A `(` where no move precedes it in the current line, so that it has nothing to be an
    /// alternative to.
    #[error("variation before any move")]
    VariationBeforeMove,
    /// A glyph where no move precedes it in the current line.
    #[error("annotation glyph before any move")]
    NagBeforeMove,
    /// A result inside a variation.
    #[error("result inside a variation")]
    ResultInVariation,
    /// A move, glyph or variation after the game's result.
    #[error("{0} after the game result")]
    AfterResult(Excerpt),
}

fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", char::from(b))
    } else {
        format!("byte 0x{b:02x}")
    }
}
