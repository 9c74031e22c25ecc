//! What the reader reports about a game it cannot read: [`PgnError`].

use core::fmt;
use std::io;

use super::start::{StartError, StartErrorKind};
use super::types::Location;

/// A game that cannot be read: its text is not well-formed PGN, or the input failed.
///
/// The reader reports the first problem of a game, skips the rest of that game and goes on with
/// the next one; after an [`Io`](PgnErrorKind::Io) error it stops.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct PgnError {
    /// Where the problem starts (for an I/O error: where the reader stood).
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

    /// Whether the input failed (rather than the game's text being wrong).
    #[must_use]
    pub const fn is_io(&self) -> bool {
        matches!(self.kind, PgnErrorKind::Io(_))
    }
}

impl From<StartError> for PgnError {
    fn from(error: StartError) -> PgnError {
        PgnError {
            location: error.location,
            kind: PgnErrorKind::Start(error.kind),
        }
    }
}

/// A short excerpt of the input, kept in errors: at most 32 bytes (cut at a character boundary),
/// as text; bytes that are not UTF-8 show as `U+FFFD`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Excerpt(String);

impl Excerpt {
    const MAX: usize = 32;

    pub(crate) fn new(bytes: &[u8]) -> Excerpt {
        let cut = if bytes.len() > Excerpt::MAX {
            utf8_prefix(&bytes[..Excerpt::MAX])
        } else {
            bytes
        };
        let mut text = String::from_utf8_lossy(cut).into_owned();
        if cut.len() < bytes.len() {
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

/// `bytes` without a UTF-8 character cut at its end.
fn utf8_prefix(bytes: &[u8]) -> &[u8] {
    // Look back over at most three continuation bytes for the start of the last character.
    let tail = bytes.len().saturating_sub(4);
    for i in (tail..bytes.len()).rev() {
        let b = bytes[i];
        if b & 0xc0 != 0x80 {
            let width = match b {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            return if i + width <= bytes.len() {
                bytes
            } else {
                &bytes[..i]
            };
        }
    }
    bytes
}

/// An I/O error of the input, as a value that can be cloned and compared: its kind and message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IoFailure {
    /// The kind of the error.
    pub kind: io::ErrorKind,
    /// Its message.
    pub message: String,
}

impl From<&io::Error> for IoFailure {
    fn from(error: &io::Error) -> IoFailure {
        IoFailure {
            kind: error.kind(),
            message: error.to_string(),
        }
    }
}

impl From<IoFailure> for io::Error {
    fn from(failure: IoFailure) -> io::Error {
        io::Error::new(failure.kind, failure.message)
    }
}

impl fmt::Display for IoFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What is wrong with a game's text, or with the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A character that cannot start any token here.
    #[error("unexpected character {}", show_char(*.0))]
    UnexpectedCharacter(char),
    /// A byte that starts no UTF-8 character.
    #[error("unexpected byte 0x{0:02x} (not UTF-8)")]
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
    /// A `[` not followed by a tag name.
    #[error("malformed tag pair: expected a tag name")]
    ExpectedTagName,
    /// A tag name of 128 bytes or more.
    #[error("malformed tag pair: tag name too long")]
    TagNameTooLong,
    /// A tag name not followed by `"`.
    #[error("malformed tag pair: expected '\"' before the value")]
    ExpectedTagValue,
    /// A tag value whose closing `"` is missing on its line.
    #[error("malformed tag pair: unterminated tag value")]
    UnterminatedTagValue,
    /// A tag value not followed by `]`.
    #[error("malformed tag pair: expected ']' after the value")]
    ExpectedTagEnd,
    /// A tag pair that does not fit the reader's buffer ([`Reader::with_capacity`]): its value
    /// is not cut, the game is not read.
    ///
    /// [`Reader::with_capacity`]: super::Reader::with_capacity
    #[error("tag pair longer than the reader's buffer of {buffer} bytes")]
    TagTooLong {
        /// The buffer's size.
        buffer: usize,
    },
    /// A comment that does not fit the reader's buffer with its `{` and `}` (or its `;`): its
    /// text is not cut, the game is not read.
    #[error("comment longer than the reader's buffer of {buffer} bytes")]
    CommentTooLong {
        /// The buffer's size.
        buffer: usize,
    },
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
    /// The start tags (`FEN`, `Variant`) give no start position: reported by the visitors that
    /// need one, not by the reader.
    #[error(transparent)]
    Start(StartErrorKind),
    /// A game with more moves (in all lines) than a visitor that holds games keeps: reported by
    /// such visitors (`caissa pgn fmt`'s), not by the reader, at the first move past the limit.
    #[error("more than {limit} moves in one game")]
    TooManyMoves {
        /// The most moves kept.
        limit: usize,
    },
    /// A game with more tag and comment text than a visitor that holds games keeps: reported by
    /// such visitors, not by the reader.
    #[error("more than {limit} bytes of tags and comments in one game")]
    TooMuchText {
        /// The most bytes kept.
        limit: usize,
    },
    /// The input failed; the reader reads no further.
    #[error("cannot read the input: {0}")]
    Io(IoFailure),
}

/// A character for a message: quoted if printable, with its code point if not ASCII or not
/// printable.
fn show_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else if c == '\u{feff}' {
        "U+FEFF (a byte order mark)".to_owned()
    } else if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("'{c}' (U+{:04X})", u32::from(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_named() {
        for (kind, message) in [
            (PgnErrorKind::UnexpectedCharacter('&'), "'&'"),
            (PgnErrorKind::UnexpectedCharacter('–'), "'–' (U+2013)"),
            (PgnErrorKind::UnexpectedCharacter('\0'), "U+0000"),
            (
                PgnErrorKind::UnexpectedCharacter('\u{feff}'),
                "U+FEFF (a byte order mark)",
            ),
        ] {
            assert_eq!(kind.to_string(), format!("unexpected character {message}"));
        }
        assert_eq!(
            PgnErrorKind::UnexpectedByte(0xff).to_string(),
            "unexpected byte 0xff (not UTF-8)"
        );
    }

    #[test]
    fn utf8_prefix_drops_a_cut_character() {
        let text = "aé€😀".as_bytes();
        for cut in 0..=text.len() {
            let prefix = utf8_prefix(&text[..cut]);
            assert!(core::str::from_utf8(prefix).is_ok(), "cut at {cut}");
            assert!(cut - prefix.len() < 4);
        }
    }

    #[test]
    fn excerpts_keep_whole_characters() {
        let text = "é".repeat(20);
        let excerpt = Excerpt::new(text.as_bytes());
        assert_eq!(excerpt.as_str(), format!("{}…", "é".repeat(16)));
        let odd = format!("a{text}");
        assert_eq!(
            Excerpt::new(odd.as_bytes()).as_str(),
            format!("a{}…", "é".repeat(15))
        );
        assert_eq!(Excerpt::new(b"Nf9").as_str(), "Nf9");
    }
}
