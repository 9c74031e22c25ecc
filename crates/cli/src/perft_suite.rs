//! Perft suites: files of lines `FEN ;D1 20 ;D2 400 ... [;id "name"]`, as in `data/perft/*.epd`,
//! read one line at a time with every problem reported with its line.
//!
//! - A line is a FEN, then operations, each after a `;`. A `;` inside double quotes belongs to
//!   the quoted text (`;id "x;D1 5"` is one operation). An unclosed quote is an error.
//! - `D<depth> <count>` gives a count; a line needs at least one, with depths of at most
//!   [`MAX_DEPTH`]. `id "…"` (or `id` and a bare word) names the position. Other operations
//!   are ignored, except that one which looks like a count written another way (`d1 20`) is an
//!   error: a count that is silently skipped would leave a suite checking nothing.
//! - Blank lines and lines whose first non-blank character is `#` are skipped. A byte order
//!   mark before the first line is skipped. `\n` and `\r\n` end lines.
//! - A line is UTF-8 and at most [`MAX_LINE_BYTES`] bytes long; past that it is an error, and
//!   the reader never holds more than one line.
//!
//! The FEN itself is not read here: [`SuiteLine::fen`] is the text, which the caller reads in
//! the castling mode it wants.

use std::fmt;
use std::io::{self, BufRead};

use caissa::notation::lines::{LineRead, Overlong, read_line};

/// The deepest perft a suite (or `caissa perft --depth`) may ask for. The start position's
/// count at depth 14 no longer fits in a `u64` (its count at 13 is about 2·10¹⁸, decades of
/// work at a billion nodes a second), so deeper counts are out of reach; the limit also keeps
/// the recursion shallow.
pub const MAX_DEPTH: u32 = 13;

/// The longest line a suite may have, in bytes, without its line end; suite lines take a few
/// hundred bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLine {
    /// The FEN, as written (blanks around it removed).
    pub fen: String,
    /// `(depth, count)` pairs in the order given; never empty.
    pub counts: Vec<(u32, u64)>,
    /// The `id` operation's text, if any.
    pub id: Option<String>,
}

/// Writes the line back in the suite format: `FEN ;D1 20 ;D2 400 ;id "name"`.
impl fmt::Display for SuiteLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen)?;
        for (depth, count) in &self.counts {
            write!(f, " ;D{depth} {count}")?;
        }
        if let Some(id) = &self.id {
            write!(f, " ;id \"{id}\"")?;
        }
        Ok(())
    }
}

/// A line of a suite that cannot be read, with its place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseSuiteLineError {
    /// The byte offset in the line where the problem is, from 0.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseSuiteLineErrorKind,
}

/// What is wrong with a line of a suite.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseSuiteLineErrorKind {
    /// A byte that starts no UTF-8 character.
    #[error("not UTF-8 at byte {byte}")]
    NotUtf8 {
        /// The offset of the first such byte, from 0.
        byte: usize,
    },
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("line longer than {limit} bytes")]
    LineTooLong {
        /// The limit.
        limit: usize,
    },
    /// A double quote is not closed before the end of the line.
    #[error("unclosed `\"`")]
    UnclosedQuote,
    /// The line has no `D<depth> <count>` operation, so there is nothing to check.
    #[error("no `D<depth> <count>` operation")]
    NoCounts,
    /// An operation starting with `D` is not `D<depth> <count>` with whole numbers.
    #[error("expected `D<depth> <count>`, found `{op}`")]
    BadCount {
        /// The operation as written.
        op: String,
    },
    /// A count written with a lowercase `d` (`d1 20`): depths are `D1`, `D2`, ...
    #[error("`{op}`: a count is written with a capital D (`D<depth> <count>`)")]
    LowercaseCount {
        /// The operation as written.
        op: String,
    },
    /// An `id` that is neither one quoted text nor a bare name without quotes (`id "a"b`):
    /// it could not be written back as the same name.
    #[error("`{op}`: an id is one quoted text (`id \"name\"`) or a name without quotes")]
    BadId {
        /// The operation as written.
        op: String,
    },
    /// A depth past [`MAX_DEPTH`].
    #[error("depth {depth} is deeper than {max}, the deepest perft counted", max = MAX_DEPTH)]
    TooDeep {
        /// The depth asked for.
        depth: u32,
    },
    /// Reading the input failed.
    #[error("cannot read: {0}")]
    Io(io::ErrorKind),
}

impl ParseSuiteLineErrorKind {
    /// The error at `byte`.
    fn at(self, byte: usize) -> ParseSuiteLineError {
        ParseSuiteLineError { byte, kind: self }
    }
}

/// Reads one line of a suite (without its line end): `None` for a blank or comment line.
///
/// # Errors
///
/// A [`ParseSuiteLineError`] naming the first problem and where it is.
pub fn parse_line(line: &str) -> Result<Option<SuiteLine>, ParseSuiteLineError> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let mut parts = Operations::new(line);
    let (_, fen) = parts.next().transpose()?.unwrap_or((0, ""));
    let mut counts = Vec::new();
    let mut id = None;
    for part in parts {
        let (start, raw) = part?;
        let op = raw.trim();
        let at = start + (raw.len() - raw.trim_start().len());
        if let Some(rest) = op.strip_prefix('D') {
            let (depth, count) = parse_count(rest)
                .ok_or_else(|| ParseSuiteLineErrorKind::BadCount { op: op.to_owned() }.at(at))?;
            if depth > MAX_DEPTH {
                return Err(ParseSuiteLineErrorKind::TooDeep { depth }.at(at));
            }
            counts.push((depth, count));
        } else if op.starts_with('d') && parse_count(&op[1..]).is_some() {
            return Err(ParseSuiteLineErrorKind::LowercaseCount { op: op.to_owned() }.at(at));
        } else if let Some(name) = op
            .strip_prefix("id")
            .filter(|r| r.starts_with(char::is_whitespace))
        {
            let name = name.trim();
            let name = name
                .strip_prefix('"')
                .and_then(|n| n.strip_suffix('"'))
                .unwrap_or(name);
            if name.contains('"') {
                return Err(ParseSuiteLineErrorKind::BadId { op: op.to_owned() }.at(at));
            }
            id = Some(name.to_owned());
        }
    }
    if counts.is_empty() {
        return Err(ParseSuiteLineErrorKind::NoCounts.at(line.len()));
    }
    Ok(Some(SuiteLine {
        fen: fen.trim().to_owned(),
        counts,
        id,
    }))
}

/// `<depth> <count>`: two whole numbers with blanks between them.
fn parse_count(text: &str) -> Option<(u32, u64)> {
    let (depth, count) = text.split_once(char::is_whitespace)?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let count = count.trim();
    if !digits(depth) || !digits(count) {
        return None;
    }
    Some((depth.parse().ok()?, count.parse().ok()?))
}

/// The `;`-separated parts of a line with their byte offsets; a `;` between double quotes
/// does not separate.
#[derive(Debug)]
struct Operations<'a> {
    line: &'a str,
    at: usize,
    done: bool,
}

impl<'a> Operations<'a> {
    fn new(line: &'a str) -> Self {
        Operations {
            line,
            at: 0,
            done: false,
        }
    }
}

impl<'a> Iterator for Operations<'a> {
    type Item = Result<(usize, &'a str), ParseSuiteLineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let start = self.at;
        let rest = &self.line[start..];
        let mut quote = None;
        for (i, b) in rest.bytes().enumerate() {
            match b {
                b'"' if quote.is_none() => quote = Some(start + i),
                b'"' => quote = None,
                b';' if quote.is_none() => {
                    self.at = start + i + 1;
                    return Some(Ok((start, &rest[..i])));
                }
                _ => {}
            }
        }
        self.done = true;
        match quote {
            Some(open) => Some(Err(ParseSuiteLineErrorKind::UnclosedQuote.at(open))),
            None => Some(Ok((start, rest))),
        }
    }
}

/// The lines of a suite, read one at a time from `R`: each item is a line number (from 1) and
/// the position on it or why it cannot be read; blank and comment lines give no item. A read
/// error ends the lines after it is reported. Holds one line at a time.
#[derive(Debug)]
pub struct SuiteReader<R> {
    reader: R,
    line: usize,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> SuiteReader<R> {
    /// The lines of the suite `reader` reads.
    pub fn new(reader: R) -> Self {
        SuiteReader {
            reader,
            line: 0,
            buf: Vec::new(),
            failed: false,
        }
    }

    /// Reads the next line into `self.buf` (without its line end): `Ok(false)` at the end.
    /// A line past [`MAX_LINE_BYTES`] is read to its end without being kept.
    fn fill_line(&mut self) -> Result<bool, ParseSuiteLineErrorKind> {
        let read = read_line(
            &mut self.reader,
            &mut self.buf,
            MAX_LINE_BYTES,
            Overlong::SkipRest,
        )
        .map_err(|e| ParseSuiteLineErrorKind::Io(e.kind()))?;
        match read {
            LineRead::Line => Ok(true),
            LineRead::Eof => Ok(false),
            LineRead::TooLong => {
                self.buf.clear();
                Err(ParseSuiteLineErrorKind::LineTooLong {
                    limit: MAX_LINE_BYTES,
                })
            }
        }
    }
}

impl<R: BufRead> Iterator for SuiteReader<R> {
    type Item = (usize, Result<SuiteLine, ParseSuiteLineError>);

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            self.line += 1;
            let line = self.line;
            match self.fill_line() {
                Ok(false) => return None,
                Ok(true) => {}
                Err(kind) => {
                    self.failed = matches!(kind, ParseSuiteLineErrorKind::Io(_));
                    return Some((line, Err(kind.at(0))));
                }
            }
            let bytes = match &self.buf[..] {
                [0xef, 0xbb, 0xbf, rest @ ..] if line == 1 => rest,
                all => all,
            };
            let text = match core::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let byte = e.valid_up_to();
                    return Some((
                        line,
                        Err(ParseSuiteLineErrorKind::NotUtf8 { byte }.at(byte)),
                    ));
                }
            };
            match parse_line(text) {
                Ok(None) => {}
                Ok(Some(case)) => return Some((line, Ok(case))),
                Err(error) => return Some((line, Err(error))),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn read(text: &[u8]) -> Vec<(usize, Result<SuiteLine, ParseSuiteLineError>)> {
        SuiteReader::new(text).collect()
    }

    fn kind(line: &str) -> ParseSuiteLineErrorKind {
        parse_line(line).expect_err(line).kind
    }

    #[test]
    fn a_line_reads_and_writes_back() {
        let line = format!("{START} ;D1 20 ;D2 400 ;id \"start\"");
        let case = parse_line(&line).unwrap().unwrap();
        assert_eq!(case.fen, START);
        assert_eq!(case.counts, [(1, 20), (2, 400)]);
        assert_eq!(case.id.as_deref(), Some("start"));
        assert_eq!(case.to_string(), line);
        assert_eq!(parse_line("  # comment").unwrap(), None);
        assert_eq!(parse_line(" \t").unwrap(), None);
    }

    #[test]
    fn quotes_keep_their_semicolons() {
        let case = parse_line(&format!("{START} ;id \"x;D1 5\" ;D1 20"))
            .unwrap()
            .unwrap();
        assert_eq!(case.counts, [(1, 20)]);
        assert_eq!(case.id.as_deref(), Some("x;D1 5"));
        let line = format!("{START} ;D1 20 ;id \"x");
        let error = parse_line(&line).unwrap_err();
        assert_eq!(error.kind, ParseSuiteLineErrorKind::UnclosedQuote);
        assert_eq!(error.byte, line.len() - 2);
        // Text after the closing quote (found by fuzzing): the name would not read back.
        for id in ["\"x;D1 5\"1", "a\"b\"c", "\"a\"b\"c\""] {
            let line = format!("{START} ;id {id} ;D1 20");
            let error = parse_line(&line).unwrap_err();
            assert!(
                matches!(error.kind, ParseSuiteLineErrorKind::BadId { .. }),
                "{id}"
            );
            assert_eq!(error.byte, START.len() + 2, "{id}");
        }
    }

    #[test]
    fn a_line_that_checks_nothing_is_an_error() {
        assert_eq!(kind(START), ParseSuiteLineErrorKind::NoCounts);
        assert_eq!(
            kind(&format!("{START} ;id \"x\"")),
            ParseSuiteLineErrorKind::NoCounts
        );
        assert_eq!(
            kind(&format!("{START} ;d1 20")),
            ParseSuiteLineErrorKind::LowercaseCount { op: "d1 20".into() }
        );
        for op in ["Dx 3", "D1", "D1 -5", "D1 +5", "D99999999999 1", "D1 5 6"] {
            assert_eq!(
                kind(&format!("{START} ;{op}")),
                ParseSuiteLineErrorKind::BadCount { op: op.into() },
                "{op}"
            );
        }
        let line = format!("{START} ;D1 20 ;D14 1");
        let error = parse_line(&line).unwrap_err();
        assert_eq!(error.kind, ParseSuiteLineErrorKind::TooDeep { depth: 14 });
        assert_eq!(&line[error.byte..], "D14 1");
        assert!(parse_line(&format!("{START} ;D13 1")).is_ok());
    }

    #[test]
    fn the_reader_numbers_lines_and_skips_a_bom() {
        let text = format!("\u{feff}{START} ;D1 20\r\n\n# c\n{START} ;D2 400\n{START} ;D1 2");
        let lines: Vec<usize> = read(text.as_bytes()).iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [1, 4, 5]);
        assert!(read(text.as_bytes()).iter().all(|(_, r)| r.is_ok()));
        // A BOM elsewhere is not skipped.
        let later = read(format!("# c\n\u{feff}{START} ;D1 20\n").as_bytes());
        assert!(later[0].1.as_ref().unwrap().fen.starts_with('\u{feff}'));
    }

    #[test]
    fn bad_bytes_and_long_lines_are_errors_of_their_line() {
        let mut text = format!("{START} ;D1 20\n").into_bytes();
        text.extend(b"8/8 \xff ;D1 1\n");
        text.extend(vec![b'x'; MAX_LINE_BYTES + 1]);
        text.extend(format!("\n{START} ;D1 20\n").as_bytes());
        let lines = read(&text);
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            (2, Err(ParseSuiteLineErrorKind::NotUtf8 { byte: 4 }.at(4)))
        );
        assert_eq!(
            lines[2],
            (
                3,
                Err(ParseSuiteLineErrorKind::LineTooLong {
                    limit: MAX_LINE_BYTES
                }
                .at(0))
            )
        );
        assert!(lines[3].1.is_ok());
        // The longest line allowed, with a CRLF.
        let mut longest = format!("{START} ;D1 20 ;id \"").into_bytes();
        longest.resize(MAX_LINE_BYTES - 1, b'a');
        longest.extend(b"\"\r\n");
        assert!(read(&longest)[0].1.is_ok());
    }
}
