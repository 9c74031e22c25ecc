//! The small values a [`Reader`](super::Reader) hands to a [`Visitor`](super::Visitor).

use core::fmt;
use core::str::FromStr;
use std::borrow::Cow;

use caissa_game::GameResult;

/// Where something is in the input: a line and a column, both counted from 1.
///
/// The column counts bytes, not characters: a `é` before the place counts two. A UTF-8 byte order
/// mark at the start of the input is not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The line, from 1.
    pub line: u64,
    /// The byte column, from 1.
    pub column: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The game termination marker that ends a movetext: `1-0`, `0-1`, `1/2-1/2` or `*`.
///
/// (The PGN standard's "game termination marker"; it need not agree with the `Result` tag.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TerminationMarker {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, the game goes on, or the result was not given.
    Unknown,
}

impl TerminationMarker {
    /// The marker as written in PGN.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            TerminationMarker::WhiteWins => "1-0",
            TerminationMarker::BlackWins => "0-1",
            TerminationMarker::Draw => "1/2-1/2",
            TerminationMarker::Unknown => "*",
        }
    }

    /// The marker for a game's result, `*` while it goes on (`None`) and for the results PGN
    /// has no marker for ([`GameResult::BothLose`], [`GameResult::Cancelled`]).
    ///
    /// ```
    /// use caissa_game::GameResult;
    /// use caissa_notation::pgn::TerminationMarker;
    ///
    /// assert_eq!(TerminationMarker::from_result(Some(GameResult::Draw)).as_str(), "1/2-1/2");
    /// assert_eq!(TerminationMarker::from_result(None), TerminationMarker::Unknown);
    /// ```
    #[must_use]
    pub const fn from_result(result: Option<GameResult>) -> TerminationMarker {
        match result {
            Some(GameResult::WhiteWins) => TerminationMarker::WhiteWins,
            Some(GameResult::BlackWins) => TerminationMarker::BlackWins,
            Some(GameResult::Draw) => TerminationMarker::Draw,
            Some(GameResult::BothLose | GameResult::Cancelled) | None => TerminationMarker::Unknown,
        }
    }

    /// Reads a marker: exactly one of `1-0`, `0-1`, `1/2-1/2` and `*`.
    #[must_use]
    pub fn from_ascii(bytes: &[u8]) -> Option<TerminationMarker> {
        match bytes {
            b"1-0" => Some(TerminationMarker::WhiteWins),
            b"0-1" => Some(TerminationMarker::BlackWins),
            b"1/2-1/2" => Some(TerminationMarker::Draw),
            b"*" => Some(TerminationMarker::Unknown),
            _ => None,
        }
    }
}

impl From<GameResult> for TerminationMarker {
    /// [`TerminationMarker::from_result`].
    fn from(result: GameResult) -> TerminationMarker {
        TerminationMarker::from_result(Some(result))
    }
}

impl fmt::Display for TerminationMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not a game termination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("not a game termination marker (expected 1-0, 0-1, 1/2-1/2 or *)")]
pub struct ParseTerminationMarkerError;

impl FromStr for TerminationMarker {
    type Err = ParseTerminationMarkerError;

    fn from_str(s: &str) -> Result<TerminationMarker, ParseTerminationMarkerError> {
        TerminationMarker::from_ascii(s.as_bytes()).ok_or(ParseTerminationMarkerError)
    }
}

/// What a lenient reader ([`Reader::lenient`](super::Reader::lenient)) read past instead of
/// refusing the game: spellings that other PGN readers accept, reported to
/// [`Visitor::tolerated`](super::Visitor::tolerated) so that a tool can warn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tolerated {
    /// `e.p.` after a move, alone (`exd6 e.p.`) or attached (`exd6e.p.`): stepped over (the
    /// move itself says nothing less without it).
    EnPassantSuffix,
    /// `1/2` as the game termination marker: read as `1/2-1/2`.
    HalfPointResult,
    /// A glyph above `$255` (its number, saturated): left out, as [`Nag`] holds a byte.
    NagOutOfRange(u32),
    /// Text after the game termination marker on the movetext's lines (`1-0 resigns`):
    /// passed over to the end of its line, as other readers take the marker for the game's
    /// end (comments there are read, as always).
    AfterResult,
    /// A `"` left unescaped in a tag value (`[Event "The "Open""]`, as python-chess writes
    /// it): the value runs to the last `"` before the `]` that ends the line.
    UnescapedQuote,
}

impl fmt::Display for Tolerated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tolerated::EnPassantSuffix => f.write_str("'e.p.' after a move, stepped over"),
            Tolerated::HalfPointResult => f.write_str("result '1/2' read as '1/2-1/2'"),
            Tolerated::NagOutOfRange(n) => write!(f, "glyph ${n} is above $255, left out"),
            Tolerated::AfterResult => f.write_str("text after the result, passed over"),
            Tolerated::UnescapedQuote => {
                f.write_str("'\"' unescaped in a tag value, read as part of it")
            }
        }
    }
}

/// A numeric annotation glyph: `$1` or its short form `!`.
///
/// The six move-assessment glyphs have suffix forms that the reader accepts and that
/// [`Nag::suffix`] gives back: `!` (1), `?` (2), `!!` (3), `??` (4), `!?` (5), `?!` (6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`: a good move.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `?`: a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`: a brilliant move.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `??`: a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`: a speculative move.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `?!`: a dubious move.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The glyph for a move suffix (`!`, `?`, `!!`, `??`, `!?`, `?!`), if it is one.
    #[must_use]
    pub fn from_suffix(bytes: &[u8]) -> Option<Nag> {
        match bytes {
            b"!" => Some(Nag::GOOD_MOVE),
            b"?" => Some(Nag::MISTAKE),
            b"!!" => Some(Nag::BRILLIANT_MOVE),
            b"??" => Some(Nag::BLUNDER),
            b"!?" => Some(Nag::SPECULATIVE_MOVE),
            b"?!" => Some(Nag::DUBIOUS_MOVE),
            _ => None,
        }
    }

    /// The suffix form of glyphs 1 to 6, `None` for the others.
    #[must_use]
    pub const fn suffix(self) -> Option<&'static str> {
        match self.0 {
            1 => Some("!"),
            2 => Some("?"),
            3 => Some("!!"),
            4 => Some("??"),
            5 => Some("!?"),
            6 => Some("?!"),
            _ => None,
        }
    }
}

impl fmt::Display for Nag {
    /// Writes the `$n` form, which every PGN reader understands.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A tag value as it stands between the quotes, escapes not yet undone: whole, as the reader
/// hands over nothing cut (a tag pair longer than its buffer is an error,
/// [`PgnErrorKind::TagTooLong`](super::PgnErrorKind::TagTooLong)). Two are equal when their
/// bytes are.
#[derive(Clone, Copy, Debug)]
pub struct RawTag<'a> {
    bytes: &'a [u8],
    /// Whether the bytes are known to hold no `\\`, carriage return or line feed, as the
    /// reader's shortcut finds them: [`RawTag::decode`] then gives them as they are, unlooked at.
    plain: bool,
}

impl PartialEq for RawTag<'_> {
    fn eq(&self, other: &RawTag<'_>) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for RawTag<'_> {}

impl core::hash::Hash for RawTag<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<'a> RawTag<'a> {
    /// A tag value from the bytes between the quotes.
    #[must_use]
    pub const fn new(bytes: &'a [u8]) -> RawTag<'a> {
        RawTag {
            bytes,
            plain: false,
        }
    }

    /// A tag value from the bytes between the quotes, which hold no `\\`, carriage return or
    /// line feed.
    pub(crate) fn plain(bytes: &'a [u8]) -> RawTag<'a> {
        debug_assert!(!needs_decoding(bytes));
        RawTag { bytes, plain: true }
    }

    /// The bytes between the quotes, escapes included.
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The value with `\\` and `\"` undone, and each raw carriage return or line feed made a
    /// space: a tag value is one line, and the writer could not write such a byte back, so a
    /// value (a `FEN` tag, say) means the same when read, written and read again. Allocates
    /// only when there is an escape or such a byte.
    #[must_use]
    pub fn decode(&self) -> Cow<'a, [u8]> {
        if self.plain || !needs_decoding(self.bytes) {
            return Cow::Borrowed(self.bytes);
        }
        let mut out = Vec::with_capacity(self.bytes.len());
        let mut bytes = self.bytes.iter();
        while let Some(&b) = bytes.next() {
            match (b, bytes.as_slice().first()) {
                (b'\\', Some(&next @ (b'\\' | b'"'))) => {
                    out.push(next);
                    bytes.next();
                }
                (b'\r' | b'\n', _) => out.push(b' '),
                _ => out.push(b),
            }
        }
        Cow::Owned(out)
    }

    /// The decoded value as text; bytes that are not UTF-8 become `U+FFFD`.
    #[must_use]
    pub fn decode_utf8_lossy(&self) -> Cow<'a, str> {
        match self.decode() {
            Cow::Borrowed(bytes) => String::from_utf8_lossy(bytes),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
        }
    }
}

/// Whether a tag value's `bytes` hold a `\\`, carriage return or line feed, which
/// [`RawTag::decode`] undoes or replaces. Without a branch a byte: values are short, and
/// nearly none has such a byte.
fn needs_decoding(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |found, &b| {
        found | matches!(b, b'\\' | b'\r' | b'\n')
    })
}

/// The text of a comment: what stands between `{` and `}`, or after `;` up to the end of the
/// line. Whitespace is kept as written, and the text whole: a comment longer than the reader's
/// buffer is an error, [`PgnErrorKind::CommentTooLong`](super::PgnErrorKind::CommentTooLong).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawComment<'a> {
    bytes: &'a [u8],
    line_comment: bool,
}

impl<'a> RawComment<'a> {
    /// A `{...}` comment of these bytes (without the braces).
    #[must_use]
    pub const fn braced(bytes: &'a [u8]) -> RawComment<'a> {
        RawComment {
            bytes,
            line_comment: false,
        }
    }

    /// A `;` comment of these bytes (without the semicolon and the line end).
    #[must_use]
    pub const fn line(bytes: &'a [u8]) -> RawComment<'a> {
        RawComment {
            bytes,
            line_comment: true,
        }
    }

    /// The same kind of comment with other bytes, whole: what a visitor that rewrites comments
    /// hands on.
    #[must_use]
    pub const fn with_bytes<'b>(&self, bytes: &'b [u8]) -> RawComment<'b> {
        RawComment {
            bytes,
            line_comment: self.line_comment,
        }
    }

    /// The bytes of the comment, without the braces or the semicolon.
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether this was a `;` comment (to the end of the line) rather than `{...}`.
    #[must_use]
    pub const fn is_line_comment(&self) -> bool {
        self.line_comment
    }

    /// The comment as text; bytes that are not UTF-8 become `U+FFFD`.
    #[must_use]
    pub fn to_str_lossy(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.bytes)
    }

    /// The commands (`[%clk 0:03:00]`, `[%eval 0.25]`, ...) embedded in the comment.
    pub fn commands(&self) -> super::commands::Commands<'a> {
        super::commands::Commands::new(self.bytes)
    }
}

/// What the reader does with a variation, as answered by
/// [`Visitor::begin_variation`](super::Visitor::begin_variation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariationChoice {
    /// Read the variation: its moves, comments and inner variations reach the visitor, then
    /// [`Visitor::end_variation`](super::Visitor::end_variation).
    Enter,
    /// Skip to the matching `)` without telling the visitor anything (not even
    /// `end_variation`). The skipped text is only checked for balanced parentheses and closed
    /// comments.
    Skip,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_undoes_escapes_only() {
        let tag = RawTag::new(br#"a \"b\" c\\d \x"#);
        assert_eq!(&*tag.decode(), br#"a "b" c\d \x"#);
        assert!(matches!(RawTag::new(b"plain").decode(), Cow::Borrowed(_)));
        // A raw carriage return reads as the space the writer makes of it (fuzz crash
        // `fen-tag-with-cr-changes-meaning-when-written`); an escaped one too.
        let tag = RawTag::new(b"8/8 w\r- -\\\r");
        assert_eq!(&*tag.decode(), b"8/8 w - -\\ ");
    }

    #[test]
    fn termination_markers_round_trip() {
        for marker in [
            TerminationMarker::WhiteWins,
            TerminationMarker::BlackWins,
            TerminationMarker::Draw,
            TerminationMarker::Unknown,
        ] {
            assert_eq!(marker.as_str().parse::<TerminationMarker>(), Ok(marker));
        }
        assert_eq!(
            "1-1".parse::<TerminationMarker>(),
            Err(ParseTerminationMarkerError)
        );
    }

    #[test]
    fn nag_suffixes() {
        for n in 1..=6 {
            let nag = Nag(n);
            let suffix = nag.suffix().expect("1..=6 have suffixes");
            assert_eq!(Nag::from_suffix(suffix.as_bytes()), Some(nag));
        }
        assert_eq!(Nag(7).suffix(), None);
        assert_eq!(Nag(10).to_string(), "$10");
    }
}
