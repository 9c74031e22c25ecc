//! Splitting a line into tokens, and the parse error that says at which token and byte.
//!
//! UCI separates tokens by any amount of whitespace. Free text (option names, string values,
//! `info string`) is taken as the slice of the line between its first and last token, so the
//! spaces inside it are kept as they were.

use core::fmt;

/// A token a parser did not understand and skipped (the protocol says to ignore it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IgnoredToken {
    /// Index of the token in the line, from 0.
    pub token: usize,
    /// Byte offset of the token in the line.
    pub byte: usize,
    /// The token.
    pub text: String,
}

/// A parsed line: the message and the tokens that were skipped on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<T> {
    /// The message.
    pub message: T,
    /// Unknown tokens, skipped as the protocol asks, in the order they came.
    pub ignored: Vec<IgnoredToken>,
}

/// A line that is not a UCI message: what was wrong, at which token and byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid UCI line: {kind} at token {token} (byte {byte})")]
pub struct ParseUciLineError {
    /// Index of the token where the problem is, from 0 (the number of tokens if the line ended
    /// too early).
    pub token: usize,
    /// Byte offset of the problem in the line.
    pub byte: usize,
    /// What was wrong.
    pub kind: ParseUciLineErrorKind,
}

/// What was wrong in a UCI line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseUciLineErrorKind {
    /// The line has no tokens.
    Empty,
    /// No token of the line is a command (or message) of this direction.
    UnknownCommand,
    /// The line ends where something was needed.
    MissingValue(&'static str),
    /// A token other than the one needed.
    Expected(&'static str),
    /// A number that does not fit its field.
    InvalidNumber(&'static str),
    /// A move that is not UCI move syntax.
    InvalidMove(caissa_notation::uci::ParseUciError),
    /// A FEN that does not read.
    InvalidFen(caissa_notation::fen::ParseFenError),
}

impl fmt::Display for ParseUciLineErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciLineErrorKind::Empty => f.write_str("empty line"),
            ParseUciLineErrorKind::UnknownCommand => f.write_str("no known command"),
            ParseUciLineErrorKind::MissingValue(what) => write!(f, "line ends before {what}"),
            ParseUciLineErrorKind::Expected(what) => write!(f, "expected {what}"),
            ParseUciLineErrorKind::InvalidNumber(what) => write!(f, "invalid number for {what}"),
            ParseUciLineErrorKind::InvalidMove(e) => e.fmt(f),
            ParseUciLineErrorKind::InvalidFen(e) => e.fmt(f),
        }
    }
}

/// The tokens of one line and a position among them.
#[derive(Debug)]
pub(crate) struct Cursor<'a> {
    line: &'a str,
    /// Each token with its byte offset.
    tokens: Vec<(usize, &'a str)>,
    next: usize,
    ignored: Vec<IgnoredToken>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(line: &'a str) -> Cursor<'a> {
        let tokens = line
            .split(|c: char| c.is_ascii_whitespace())
            .scan(0, |offset, text| {
                let start = *offset;
                *offset += text.len() + 1;
                Some((start, text))
            })
            .filter(|(_, text)| !text.is_empty())
            .collect();
        Cursor {
            line,
            tokens,
            next: 0,
            ignored: Vec::new(),
        }
    }

    /// Skips tokens until one for which `known` is true, and takes it. Skipped tokens are
    /// ignored; an empty line or a line with no such token is an error.
    pub(crate) fn command<T>(
        &mut self,
        known: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ParseUciLineError> {
        if self.tokens.is_empty() {
            return Err(self.error_here(ParseUciLineErrorKind::Empty));
        }
        while let Some(token) = self.peek() {
            if let Some(command) = known(token) {
                self.next += 1;
                return Ok(command);
            }
            self.ignore();
        }
        self.next = 0;
        Err(self.error_here(ParseUciLineErrorKind::UnknownCommand))
    }

    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.next).map(|t| t.1)
    }

    pub(crate) fn advance(&mut self) -> Option<&'a str> {
        let token = self.peek()?;
        self.next += 1;
        Some(token)
    }

    /// Skips the next token, keeping it among the ignored ones.
    pub(crate) fn ignore(&mut self) {
        if let Some(&(byte, text)) = self.tokens.get(self.next) {
            self.ignored.push(IgnoredToken {
                token: self.next,
                byte,
                text: text.to_owned(),
            });
            self.next += 1;
        }
    }

    /// Ignores every token left.
    pub(crate) fn ignore_rest(&mut self) {
        while self.peek().is_some() {
            self.ignore();
        }
    }

    /// An error at the next token (or at the end of the line).
    pub(crate) fn error_here(&self, kind: ParseUciLineErrorKind) -> ParseUciLineError {
        ParseUciLineError {
            token: self.next,
            byte: self.tokens.get(self.next).map_or(self.line.len(), |t| t.0),
            kind,
        }
    }

    /// An error `offset` bytes into the token just taken.
    pub(crate) fn error_in_last(
        &self,
        offset: usize,
        kind: ParseUciLineErrorKind,
    ) -> ParseUciLineError {
        let token = self.next.saturating_sub(1);
        ParseUciLineError {
            token,
            byte: self.tokens.get(token).map_or(0, |t| t.0) + offset,
            kind,
        }
    }

    /// The next token, which must be there; `what` names it in the error.
    pub(crate) fn expect(&mut self, what: &'static str) -> Result<&'a str, ParseUciLineError> {
        self.advance()
            .ok_or_else(|| self.error_here(ParseUciLineErrorKind::MissingValue(what)))
    }

    /// The next token read as a number.
    pub(crate) fn number<T: core::str::FromStr>(
        &mut self,
        what: &'static str,
    ) -> Result<T, ParseUciLineError> {
        let token = self.expect(what)?;
        token
            .parse()
            .map_err(|_| self.error_in_last(0, ParseUciLineErrorKind::InvalidNumber(what)))
    }

    /// The next tokens up to (not including) the first for which `stop` is true, as one slice of
    /// the line with its spacing kept; `None` if there are none.
    pub(crate) fn text_until(&mut self, stop: impl Fn(&str) -> bool) -> Option<&'a str> {
        let first = self.next;
        while self.peek().is_some_and(|t| !stop(t)) {
            self.next += 1;
        }
        (self.next > first).then(|| {
            let (start, _) = self.tokens[first];
            let (end, last) = self.tokens[self.next - 1];
            &self.line[start..end + last.len()]
        })
    }

    /// Like [`Cursor::text_until`], but the text must be there; `what` names it in the error.
    pub(crate) fn text_required(
        &mut self,
        stop: impl Fn(&str) -> bool,
        what: &'static str,
    ) -> Result<&'a str, ParseUciLineError> {
        self.text_until(stop).ok_or_else(|| {
            self.error_here(match self.peek() {
                None => ParseUciLineErrorKind::MissingValue(what),
                Some(_) => ParseUciLineErrorKind::Expected(what),
            })
        })
    }

    /// Moves while the next tokens read as moves (`pv`, `searchmoves`, `refutation`).
    pub(crate) fn moves(&mut self) -> Vec<caissa_notation::uci::UciMove> {
        let mut moves = Vec::new();
        while let Some(m) = self
            .peek()
            .and_then(|t| caissa_notation::uci::UciMove::from_ascii(t.as_bytes()).ok())
        {
            moves.push(m);
            self.next += 1;
        }
        moves
    }

    /// The result, with the tokens ignored.
    pub(crate) fn finish<T>(self, message: T) -> Parsed<T> {
        Parsed {
            message,
            ignored: self.ignored,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_keeps_inner_spacing_and_offsets() {
        let mut c = Cursor::new("  setoption name Clear   Hash value x");
        assert_eq!(c.command(|t| (t == "setoption").then_some(())), Ok(()));
        assert_eq!(c.advance(), Some("name"));
        assert_eq!(c.text_until(|t| t == "value"), Some("Clear   Hash"));
        assert_eq!(c.error_here(ParseUciLineErrorKind::Empty).byte, 30);
        assert_eq!(c.text_until(|_| true), None);
    }
}
