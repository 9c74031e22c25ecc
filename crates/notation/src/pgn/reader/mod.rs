//! The streaming [`Reader`]: a fixed buffer over any [`Read`], and the game loop.
//!
//! This file owns the [`Reader`], its buffer (filling it, line ends settled) and the locations
//! it reports, and reads a game phase by phase. The phases and their tokens live beside it:
//!
//! - `tags`: the tag pairs, with the shortcut for the usual `[Name "value"]`;
//! - `movetext`: moves, numbers, glyphs, variations and the result, with the shortcut that
//!   reads the common tokens of a line in one loop;
//! - `comments`: `{ }` and `;` comments, and where an unterminated one ends;
//! - `skip`: whitespace and `%` lines between tokens and games, and skipping games, movetext
//!   and variations without reading them;
//! - `bytes`: byte tables and word-at-a-time scanners, free of the reader.
//!
//! Each shortcut reads exactly what the general path reads; the tests beside it say so.

mod bytes;
mod comments;
mod movetext;
mod skip;
mod tags;

use core::ops::ControlFlow;
use std::io::{self, Read};

use super::error::{PgnError, PgnErrorKind};
use super::types::{Location, Tolerated};
use super::visitor::Visitor;
use bytes::settle_line_ends;

pub(super) use bytes::{is_clock_text, is_plain_text};
pub(super) use tags::looks_like_tag_line;

/// The buffer size of [`Reader::new`]: 64 KiB.
pub const DEFAULT_CAPACITY: usize = 64 * 1024;

/// The smallest buffer [`Reader::with_capacity`] makes.
pub const MIN_CAPACITY: usize = 1024;

/// Bytes kept ahead of the cursor while reading tokens. No move, number, glyph or tag name is
/// this long, so a token that reaches this far is invalid: an [`PgnErrorKind::InvalidToken`],
/// however much of it the buffer holds.
const LOOKAHEAD: usize = 256;

/// How far past a newline inside a comment the reader looks to recognise the next game's tags:
/// a line ends an unterminated comment only if its `[Name "` fits in this many bytes, whatever
/// the buffer holds, so that the decision does not depend on how the input arrives.
pub(super) const TAG_PROBE: usize = 64;

/// Reads PGN games from any [`Read`] (a file, a socket, a `&[u8]`), one [`Visitor`] call at a
/// time.
///
/// The reader owns one buffer of fixed size (64 KiB unless [`Reader::with_capacity`] says
/// otherwise) and allocates nothing else while reading (but the short excerpt an error quotes),
/// however large the input or any token in it. Nothing reaches the visitor cut: a tag pair or
/// comment longer than the buffer is an error for its game ([`PgnErrorKind::TagTooLong`],
/// [`PgnErrorKind::CommentTooLong`]), which is skipped. It does its own buffering: do not wrap
/// the input in a `BufReader`.
///
/// See the [module docs](super) for the grammar, what counts as an error, and how the reader
/// recovers.
///
/// A visitor that counts each game's moves; the second game is malformed, reported with its
/// place, and the reader goes on with the third:
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_notation::pgn::{Flow, Location, PgnError, Reader, Visitor};
/// use caissa_notation::san::SanPlus;
///
/// struct CountMoves;
///
/// impl Visitor for CountMoves {
///     type Tags = ();
///     type Movetext = usize;
///     type Output = usize;
///     type Error = PgnError;
///
///     fn begin_game(&mut self, _: Location) -> Flow<Self, ()> {
///         ControlFlow::Continue(())
///     }
///     fn begin_movetext(&mut self, (): ()) -> Flow<Self, usize> {
///         ControlFlow::Continue(0)
///     }
///     fn san(&mut self, moves: &mut usize, _: SanPlus, _: Location) -> Flow<Self> {
///         *moves += 1;
///         ControlFlow::Continue(())
///     }
///     fn end_game(&mut self, moves: usize) -> Result<usize, PgnError> {
///         Ok(moves)
///     }
/// }
///
/// let pgn = "1. e4 e5 *\n\n1. d4 d5 2. c4 } *\n\n1. Nf3 *\n";
/// let games: Vec<_> = Reader::new(pgn.as_bytes()).games(&mut CountMoves).collect();
/// assert_eq!(games[0], Ok(2));
/// assert_eq!(games[1].as_ref().unwrap_err().to_string(), "3:16: unexpected character '}'");
/// assert_eq!(games[2], Ok(1));
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    buf: Box<[u8]>,
    /// The next unread byte of `buf`.
    pos: usize,
    /// The end of the valid bytes of `buf`: read, and with their line ends settled.
    end: usize,
    /// Whether `buf[end]` holds a carriage return read from the input whose line end is not
    /// settled yet: the next byte tells whether it is a lone one, or a CRLF's.
    held: bool,
    /// Whether `inner` has reported its end.
    eof: bool,
    /// Offset in the input of `buf[0]`.
    base: u64,
    /// Offset in the input of the last game's first byte.
    game_start: u64,
    /// The line of `pos`, from 1.
    line: u64,
    /// Offset in the input of the first byte of that line.
    line_start: u64,
    /// Whether the input failed: the reader reads no further.
    failed: bool,
    /// The input's failure while bytes before it were still unread: those are read first, and
    /// the failure is reported by the first game that runs into their end (see
    /// [`Reader::read_game`]).
    failure: Option<io::Error>,
    /// Whether [`Reader::lenient`] reading is on.
    lenient: bool,
    /// Where the current game's tags hold a `"` left unescaped that a lenient reader read as
    /// part of the value: reported to the visitor once its movetext begins.
    unescaped_quotes: Vec<Location>,
    /// Whether the shortcuts for common tokens are taken: always, but in the tests that check
    /// that the general path reads the same without them.
    #[cfg(test)]
    shortcuts: bool,
}

/// The iterator of [`Reader::games`].
#[derive(Debug)]
pub struct Games<'a, R, V> {
    reader: &'a mut Reader<R>,
    visitor: &'a mut V,
}

impl<R: Read, V: Visitor> Iterator for Games<'_, R, V> {
    type Item = Result<V::Output, V::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(self.visitor)
    }
}

/// How a phase of a game ended.
enum Step<O> {
    Continue,
    Break(O),
    Error(PgnError),
    /// An error found where the movetext ends (a blank line, even of blanks; a tag line; the end
    /// of the input): `pos` is there, and nothing of the game is left to skip.
    ErrorAtEnd(PgnError),
}

/// A [`Step`] of a visitor's game.
type GameStep<V> = Step<Result<<V as Visitor>::Output, <V as Visitor>::Error>>;

impl<R: Read> Reader<R> {
    /// A reader with a buffer of [`DEFAULT_CAPACITY`].
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(inner, DEFAULT_CAPACITY)
    }

    /// A reader with a buffer of `capacity` bytes (at least [`MIN_CAPACITY`]): a tag pair or a
    /// comment must fit in it.
    pub fn with_capacity(inner: R, capacity: usize) -> Reader<R> {
        Reader::with_buffer(
            inner,
            vec![0; capacity.max(MIN_CAPACITY)].into_boxed_slice(),
        )
    }

    /// A reader that reads into `buffer`, whatever it holds, as a reader of
    /// [`Reader::with_capacity`] its length does (a buffer shorter than [`MIN_CAPACITY`] is
    /// replaced by one that long): a caller that reads one input after another can give each
    /// reader the buffer of the one before ([`Reader::into_buffer`]), made and zeroed once.
    ///
    /// ```
    /// use caissa_notation::pgn::{Reader, Replayer};
    ///
    /// let mut buffer = Box::default();
    /// for input in [&b"1. e4 e5 *\n"[..], b"1. d4 *\n"] {
    ///     let mut reader = Reader::with_buffer(input, buffer);
    ///     assert!(reader.read_game(&mut Replayer::new()).expect("a game").is_ok());
    ///     buffer = reader.into_buffer();
    /// }
    /// ```
    pub fn with_buffer(inner: R, buffer: Box<[u8]>) -> Reader<R> {
        let buf = if buffer.len() < MIN_CAPACITY {
            vec![0; MIN_CAPACITY].into_boxed_slice()
        } else {
            buffer
        };
        Reader {
            inner,
            buf,
            pos: 0,
            end: 0,
            held: false,
            eof: false,
            base: 0,
            game_start: 0,
            line: 1,
            line_start: 0,
            failed: false,
            failure: None,
            lenient: false,
            unescaped_quotes: Vec::new(),
            #[cfg(test)]
            shortcuts: true,
        }
    }

    /// The same reader, reading leniently when `lenient` is true: it then accepts `e.p.` after a
    /// move, the result `1/2`, glyphs above `$255`, text after the result on its lines and a
    /// `"` left unescaped in a tag value (each reported to [`Visitor::tolerated`]) where it
    /// refuses the game otherwise.
    ///
    /// ```
    /// use caissa_notation::pgn::{Reader, Recorder, Tolerated};
    ///
    /// let pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. $300 1/2 agreed\n";
    /// assert!(Reader::new(pgn.as_bytes()).read_game(&mut Recorder::new()).unwrap().is_err());
    /// let game = Reader::new(pgn.as_bytes()).lenient(true).read_game(&mut Recorder::new());
    /// let game = game.unwrap().unwrap();
    /// assert_eq!(game.tokens.len(), 5);
    /// ```
    #[must_use]
    pub fn lenient(mut self, lenient: bool) -> Reader<R> {
        self.lenient = lenient;
        self
    }

    /// The reader of a piece of input that begins the input's line `line` (from 1): its
    /// locations are the input's.
    pub(super) fn starting_at_line(mut self, line: u64) -> Reader<R> {
        self.line = line;
        self
    }

    /// Where the reader stands: the next byte it will read.
    #[must_use]
    pub fn location(&self) -> Location {
        self.location_of(self.pos)
    }

    /// Where the last game read (or being read) begins: its first byte's offset in the input,
    /// counted from the reader's first byte; the byte at the location [`Visitor::begin_game`]
    /// was given. 0 before the first game.
    ///
    /// ```
    /// use caissa_notation::pgn::{Reader, Replayer};
    ///
    /// let pgn = b"1. e4 *\n\n\n[Event \"b\"]\n\n1. d4 *\n";
    /// let mut reader = Reader::new(&pgn[..]);
    /// reader.read_game(&mut Replayer::new());
    /// assert_eq!(reader.game_offset(), 0);
    /// reader.read_game(&mut Replayer::new());
    /// assert_eq!(reader.game_offset(), 10);
    /// ```
    #[must_use]
    pub const fn game_offset(&self) -> u64 {
        self.game_start
    }

    /// The input, given back.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The buffer, for another reader ([`Reader::with_buffer`]).
    #[must_use]
    pub fn into_buffer(self) -> Box<[u8]> {
        self.buf
    }

    /// Reads the next game and gives what the visitor made of it: `None` at the end of the
    /// input, else the game's result.
    ///
    /// A malformed game gives the visitor's error made from the reader's [`PgnError`]
    /// ([`Visitor::end_malformed_game`]): the reader has then skipped the rest of that game, and
    /// the next call reads the next one. When the input fails, the error says so
    /// ([`PgnErrorKind::Io`], [`PgnError::is_io`]) and every later call gives `None`; the
    /// games already read into the buffer come first, each that ends before the last byte read
    /// (one that runs into it may be cut short, and is given as the failure instead).
    ///
    /// # Examples
    ///
    /// ```
    /// use caissa_notation::pgn::{GameTreeBuilder, Reader};
    ///
    /// let pgn = b"[White \"A\"]\n\n1. e4 { good } e5 (1... c5) 2. Nf3 1-0\n\n1. e4 ) 0-1\n";
    /// let mut reader = Reader::new(&pgn[..]);
    /// let game = reader.read_game(&mut GameTreeBuilder).expect("a game")?;
    /// assert_eq!(game.mainline().count(), 3);
    /// let error = reader.read_game(&mut GameTreeBuilder).expect("a game").unwrap_err();
    /// assert_eq!((error.line(), error.column()), (5, 7));
    /// assert!(reader.read_game(&mut GameTreeBuilder).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, V::Error>> {
        if self.failed {
            return None;
        }
        match self.read_game_or_fail(visitor) {
            Ok(game) => match self.failure_reached() {
                Some(error) => Some(Err(self.fail(&error).into())),
                None => game,
            },
            Err(error) => Some(Err(self.fail(&error).into())),
        }
    }

    /// The input's failure, once the reader has come to the last byte read before it: the game
    /// read up to there may have been cut short by it, so the failure stands in its place.
    fn failure_reached(&mut self) -> Option<io::Error> {
        if self.pos >= self.end {
            self.failure.take()
        } else {
            None
        }
    }

    /// Stops the reader after the input's `error`, which the error returned says.
    fn fail(&mut self, error: &io::Error) -> PgnError {
        self.failed = true;
        PgnError {
            location: self.location(),
            kind: PgnErrorKind::Io(error.into()),
        }
    }

    /// [`Reader::read_game`], with the input's errors apart.
    fn read_game_or_fail<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Option<Result<V::Output, V::Error>>> {
        if !self.skip_before_game()? {
            return Ok(None);
        }
        self.game_start = self.base + self.pos as u64;
        self.unescaped_quotes.clear();
        let mut tags = match visitor.begin_game(self.location()) {
            ControlFlow::Continue(tags) => tags,
            ControlFlow::Break(result) => {
                self.skip_game_from_start()?;
                return Ok(Some(result));
            }
        };
        match self.read_tags(visitor, &mut tags)? {
            Step::Continue => {}
            Step::Break(result) => {
                self.skip_game()?;
                return Ok(Some(result));
            }
            Step::Error(error) | Step::ErrorAtEnd(error) => {
                self.skip_game()?;
                return Ok(Some(Err(error.into())));
            }
        }
        let mut movetext = match visitor.begin_movetext(tags) {
            ControlFlow::Continue(movetext) => movetext,
            ControlFlow::Break(result) => {
                self.skip_movetext()?;
                return Ok(Some(result));
            }
        };
        for i in 0..self.unescaped_quotes.len() {
            let at = self.unescaped_quotes[i];
            if let ControlFlow::Break(result) =
                visitor.tolerated(&mut movetext, Tolerated::UnescapedQuote, at)
            {
                self.skip_movetext()?;
                return Ok(Some(result));
            }
        }
        match self.read_movetext(visitor, &mut movetext)? {
            Step::Continue => Ok(Some(visitor.end_game(movetext))),
            Step::Break(result) => {
                self.skip_movetext()?;
                Ok(Some(result))
            }
            Step::Error(error) => {
                let error = visitor.end_malformed_game(movetext, error);
                self.skip_movetext()?;
                Ok(Some(Err(error)))
            }
            Step::ErrorAtEnd(error) => Ok(Some(Err(visitor.end_malformed_game(movetext, error)))),
        }
    }

    /// The games that remain, as an iterator of what [`Reader::read_game`] returns. It ends
    /// after the last game or the input's first error.
    ///
    /// ```
    /// use caissa_notation::pgn::{Reader, Replayer};
    ///
    /// let pgn = b"1. e4 e5 *\n\n1. d4 d5 2. c4 *\n";
    /// let mut replayer = Replayer::new();
    /// let mut moves = 0;
    /// for game in Reader::new(&pgn[..]).games(&mut replayer) {
    ///     moves += game?.moves;
    /// }
    /// assert_eq!(moves, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn games<'a, V: Visitor>(&'a mut self, visitor: &'a mut V) -> Games<'a, R, V> {
        Games {
            reader: self,
            visitor,
        }
    }

    /// Skips the next game without looking at it closely. Returns whether there was one.
    ///
    /// # Errors
    ///
    /// An [`io::Error`] from the input.
    pub fn skip_next_game(&mut self) -> io::Result<bool> {
        if self.failed {
            return Ok(false);
        }
        let result = match self.skip_before_game() {
            Ok(true) => self.skip_game_from_start().map(|()| true),
            other => other,
        }
        .and_then(|skipped| self.failure_reached().map_or(Ok(skipped), Err));
        self.failed = result.is_err();
        result
    }

    // ---- The buffer ----

    /// Makes at least `want` bytes available after `pos` unless the input ends first or the
    /// buffer is full. Moves the unread bytes to the front of the buffer first.
    ///
    /// Every lone carriage return read (one not followed by a line feed) is made a line feed
    /// here, in place, so that the rest of the reader knows one line end, `\n` (a CRLF's CR is
    /// a blank before it): CR, LF and CRLF files read alike, with the same lines and columns.
    #[cold]
    fn fill(&mut self, want: usize) -> io::Result<()> {
        let mut read_end = self.end + usize::from(self.held);
        if self.pos > 0 {
            self.buf.copy_within(self.pos..read_end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            read_end -= self.pos;
            self.pos = 0;
        }
        while self.end < want && !self.eof && read_end < self.buf.len() {
            match self.inner.read(&mut self.buf[read_end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => read_end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // Bytes are left to read: they are read as if the input ended here, and
                // `read_game` reports the failure where a game runs into their end.
                Err(e) if self.end > self.pos => {
                    self.failure = Some(e);
                    self.eof = true;
                }
                Err(e) => return Err(e),
            }
            self.end = settle_line_ends(&mut self.buf[..read_end], self.end, self.eof);
            self.held = self.end < read_end;
        }
        Ok(())
    }

    /// Whether the buffer is full of bytes from `pos` on, so that a token or text that goes on
    /// past them cannot be held whole.
    fn is_full(&self) -> bool {
        self.pos == 0 && self.end + usize::from(self.held) == self.buf.len()
    }

    /// Makes at least `want` bytes available after `pos` if the input has them.
    #[inline]
    fn ensure(&mut self, want: usize) -> io::Result<()> {
        if self.end - self.pos < want && !self.eof {
            self.fill(want)?;
        }
        Ok(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.buf[..self.end].get(self.pos).copied()
    }

    /// Discards the buffered bytes and reads more.
    fn refill_after_all(&mut self) -> io::Result<()> {
        self.pos = self.end;
        self.fill(1)
    }

    // ---- Locations ----

    fn location_of(&self, index: usize) -> Location {
        let offset = self.base + index as u64;
        Location {
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    /// The error of kind `kind` at `buf[pos + i]`.
    fn error_at<O>(&self, i: usize, kind: PgnErrorKind) -> Step<O> {
        Step::error(self.location_of(self.pos + i), kind)
    }

    /// Records the newline at `buf[index]`.
    #[inline]
    fn newline_at(&mut self, index: usize) {
        self.line += 1;
        self.line_start = self.base + index as u64 + 1;
    }

    /// Whether `pos` is the first byte of a line.
    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    /// Whether to take the shortcuts that read common tokens faster (each reads exactly what
    /// the general path reads): always, but in tests that compare the two.
    #[inline(always)]
    #[allow(clippy::unused_self)]
    fn takes_shortcuts(&self) -> bool {
        #[cfg(test)]
        return self.shortcuts;
        #[cfg(not(test))]
        true
    }
}

impl<O> Step<O> {
    /// The error of kind `kind` at `location`.
    fn error(location: Location, kind: PgnErrorKind) -> Step<O> {
        Step::Error(PgnError { location, kind })
    }
}

/// The step of a visitor's answer: go on, or stop with its output.
fn step<O>(flow: ControlFlow<O>) -> Step<O> {
    match flow {
        ControlFlow::Continue(()) => Step::Continue,
        ControlFlow::Break(output) => Step::Break(output),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{Flow, GameTreeBuilder, Replayer};

    /// Every game of `input`, built and then replayed, as text, read with buffers of two sizes
    /// and with the shortcuts taken or not.
    fn read(input: &[u8], shortcuts: bool) -> Vec<String> {
        let mut games = Vec::new();
        for capacity in [MIN_CAPACITY, DEFAULT_CAPACITY] {
            let reader = || {
                let mut reader = Reader::with_capacity(input, capacity);
                reader.shortcuts = shortcuts;
                reader
            };
            let built = reader()
                .games(&mut GameTreeBuilder)
                .map(|g| format!("{g:?}"))
                .collect::<Vec<_>>();
            let replayed = reader()
                .games(&mut Replayer::new())
                .map(|g| format!("{g:?}"))
                .collect::<Vec<_>>();
            // Where the games start when each movetext is skipped, not read.
            let mut starts = Starts {
                skip: false,
                skip_movetext: true,
                seen: Vec::new(),
            };
            let skipped = reader().games(&mut starts).count();
            games.extend(built);
            games.extend(replayed);
            games.push(format!("{skipped} games skipped from {:?}", starts.seen));
        }
        games
    }

    /// Notes where each game starts, and skips it there when `skip`, or its movetext when
    /// `skip_movetext`.
    struct Starts {
        skip: bool,
        skip_movetext: bool,
        seen: Vec<Location>,
    }

    impl Visitor for Starts {
        type Tags = ();
        type Movetext = ();
        type Output = ();
        type Error = PgnError;

        fn begin_game(&mut self, at: Location) -> Flow<Self, ()> {
            self.seen.push(at);
            if self.skip {
                ControlFlow::Break(Ok(()))
            } else {
                ControlFlow::Continue(())
            }
        }

        fn begin_movetext(&mut self, (): ()) -> Flow<Self, ()> {
            if self.skip_movetext {
                ControlFlow::Break(Ok(()))
            } else {
                ControlFlow::Continue(())
            }
        }

        fn end_game(&mut self, (): ()) -> Result<(), PgnError> {
            Ok(())
        }
    }

    /// A game skipped where it starts ends where it ends when read: the games after it start
    /// at the same places, with tags or without (a game of movetext alone may end on its
    /// first line).
    #[test]
    fn a_game_skipped_at_its_start_ends_where_it_ends_when_read() {
        let inputs: &[&[u8]] = &[
            b"1. e4 *\n\n1. d4 *\n\n1. c4 *\n",
            b"1. e4 *\n1. d4 *\n[A \"b\"]\n1. c4 *\n",
            b"[A \"x\"]\n\n1. e4 {multi\nline} e5 *\n\n1. d4 (1. c4\n) *\n\n[B \"y\"]\n*\n",
            b"1. e4 e5 1-0 Nf3\n\n1. e4 ) 0-1\n\n1. ( e4 *\n\n1. e4 (e5\n\n1. e4 $\n",
            b"1. e4 ; a line comment\ne5 ;\n% escaped\n2. Nf3 *\n\n1. d4 *\n",
            b"1. e4 {\n[Event \"next\"]\n\n1. d4 *\n",
        ];
        let starts = |input: &[u8], skip: bool| {
            let mut starts = Starts {
                skip,
                skip_movetext: false,
                seen: Vec::new(),
            };
            let games = Reader::new(input).games(&mut starts).count();
            (games, starts.seen)
        };
        for input in inputs {
            assert_eq!(
                starts(input, true),
                starts(input, false),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    /// `Reader::skip_next_game` passes over one game, with tags or without, as a visitor
    /// skipping it at its start does: as many skips as games read.
    #[test]
    fn skip_next_game_passes_over_one_game() {
        for input in [
            &b"1. e4 *\n\n1. d4 *\n\n1. c4 *\n"[..],
            b"1. e4 *\n1. d4 *\n[A \"b\"]\n1. c4 *\n",
            b"[A \"x\"]\n\n1. e4 {multi\nline} e5 *\n\n1. d4 (1. c4\n) *\n\n[B \"y\"]\n*\n",
        ] {
            let mut starts = Starts {
                skip: false,
                skip_movetext: false,
                seen: Vec::new(),
            };
            let games = Reader::new(input).games(&mut starts).count();
            let mut reader = Reader::new(input);
            let mut skipped = 0;
            while reader.skip_next_game().expect("in memory") {
                skipped += 1;
            }
            assert_eq!(skipped, games, "{}", String::from_utf8_lossy(input));
        }
    }

    /// The shortcuts (the usual tag pair, the tokens of a movetext line, a comment on one line,
    /// read or skipped, the newline between tag pairs) read exactly what the general path
    /// reads: the same games, errors and locations, and the same game starts when movetext is
    /// skipped, on the sample files and on inputs made to reach their edges.
    #[test]
    fn the_shortcuts_read_what_the_general_path_reads() {
        let inputs: &[&[u8]] = &[
            b"[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 2. Nf3 *\n",
            b"[A\"x\"]\n[B  \"y\"]\n[C \"y\" ]\n[ D \"z\"]\n[E \"a\\\"b\"]\n[F \"\"]\n*\n",
            b"[A \"x\"\n[B \"y]\n*\n",
            b"[A \"x\"] [B \"y\"]\n\n*\n",
            b"[A \"x\"]\r\n[B \"y\rz\"]\r\n[C \"\r\"]\r\n\r\n1. e4 *\r\n",
            b"1.e4 e5 2.Nf3 2...Nc6 3.. Bb5 3.... a6 1234. Ba4 *\n",
            b"1. e4 { [%clk 0:05:00] } e5 { [%clk 10:05:00] }2. Nf3{a}{b} Nc6 {}*\n",
            b"1. e4 { [%clk 0:0}:00] } e5 { [%clk 0:05:00]  } *\n",
            b"1. e4 {multi\nline} e5 {\n[Event \"next\"]\n\n1. d4 *\n",
            b"1. e4!! e5?? 2. Nf3 $1 Nc6 $256 *\n",
            b"1. e4 (1. d4 d5 (1... Nf6)) 1... e5 (1... c5 2. Nf3) 1-0\n",
            b"1. e4 e5 1-0 Nf3\n\n1. e4 ) 0-1\n\n1. ( e4 *\n\n1. e4 (e5\n\n1. e4 $\n",
            b"1. 0-0 0-0-0 2. O-O O-O-O 3. 0-1x *\n\n1. e4 e5 1/2-1/2\n\n1. e4 * *\n",
            b"1. e4 ; a line comment\ne5 ;\n% escaped\n2. Nf3 *\n",
            b"1. Zz9 *\n\n1. e4 \xc3\xa9 *\n\n1. e4 \xff *\n\n1. e4 -- Nf6 *\n",
            b"1. e4 e5",
            b"1. e4 {",
            b"[Event \"x",
        ];
        for input in inputs {
            assert_eq!(
                read(input, true),
                read(input, false),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
        let mut long = Vec::new();
        for n in 1..200 {
            long.extend_from_slice(
                format!("{n}. Nf3 {{ [%clk 0:05:00] }} Nf6 {n}... Ng1 Ng8 ").as_bytes(),
            );
        }
        long.extend_from_slice(b"*\n");
        assert_eq!(read(&long, true), read(&long, false));
        // Tokens about as long as the window within which the movetext shortcut reads one.
        for len in 28..38 {
            let word = "N".repeat(len - 2) + "f3";
            let number = "1".repeat(len - 1) + ".";
            for input in [
                format!("1. {word} e5 *\n"),
                format!("1. e4 {word}"),
                format!("{number} e4 e5 *\n"),
                format!("1. e4 {{ {word} }} e5 *"),
            ] {
                let input = input.as_bytes();
                assert_eq!(read(input, true), read(input, false), "{len}");
            }
        }
        for name in [
            "cm-pgn-test-list.pgn",
            "lichess-2025-05-sample.pgn",
            "mliebelt-sample-games.pgn",
        ] {
            let path = format!("{}/../../data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
            assert_eq!(read(&text, true), read(&text, false), "{name}");
        }
    }

    /// An input that gives `bytes` in one read, then fails.
    struct FailsAfter<'a>(&'a [u8]);

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The games read before the input fails are given first, each that ends before the last
    /// byte read; the game the failure cuts short is the failure, at the end of what was read.
    #[test]
    fn the_games_read_before_a_failure_come_before_it() {
        let whole = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n\n";
        for (cut, games) in [("[Event \"c\"]\n\n1. c4", 2), ("", 2), ("1. Nf3 ", 2)] {
            let input = format!("{whole}{cut}");
            let mut reader = Reader::new(FailsAfter(input.as_bytes()));
            let mut read = Vec::new();
            let error = loop {
                match reader.read_game(&mut GameTreeBuilder) {
                    Some(Ok(game)) => read.push(game.mainline().count()),
                    Some(Err(error)) => break error,
                    None => panic!("{cut:?}: the input ended without its failure"),
                }
            };
            assert_eq!(read.len(), games, "{cut:?}");
            assert_eq!(read, [2, 1]);
            assert!(
                error.is_io() && error.to_string().contains("disk on fire"),
                "{error}"
            );
            let lines = input.lines().count() as u64;
            assert!(error.line() >= lines, "{cut:?}: {error}");
            assert!(reader.read_game(&mut GameTreeBuilder).is_none());
        }
        // Skipped, the same games come before the failure.
        let input = format!("{whole}1. c4");
        let mut reader = Reader::new(FailsAfter(input.as_bytes()));
        assert!(reader.skip_next_game().unwrap());
        assert!(reader.skip_next_game().unwrap());
        let error = reader.skip_next_game().unwrap_err();
        assert!(error.to_string().contains("disk on fire"), "{error}");
        assert!(!reader.skip_next_game().unwrap());
        // Nothing read before the failure: it comes at once.
        let mut reader = Reader::new(FailsAfter(b""));
        let error = reader.read_game(&mut GameTreeBuilder).unwrap().unwrap_err();
        assert!(error.is_io() && error.line() == 1, "{error}");
        let mut reader = Reader::new(FailsAfter(b""));
        assert!(reader.skip_next_game().is_err());
        assert!(!reader.skip_next_game().expect("no second read"));
    }
}
