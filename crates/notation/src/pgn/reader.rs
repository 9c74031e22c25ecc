//! The streaming [`Reader`]: a fixed buffer over any [`Read`], a tokenizer, and the game loop.

use core::ops::ControlFlow;
use std::io::{self, Read};

use super::error::{Excerpt, PgnError, PgnErrorKind};
use super::types::{Location, Nag, RawComment, RawTag, TerminationMarker, VariationChoice};
use super::visitor::{Flow, Visitor};
use crate::san::SanPlus;

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
    /// The line of `pos`, from 1.
    line: u64,
    /// Offset in the input of the first byte of that line.
    line_start: u64,
    /// Whether the input failed: the reader reads no further.
    failed: bool,
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

/// How the search for a comment's end ended. Indices are relative to `pos`.
enum CommentEnd {
    /// At the `}` at this index.
    Closed(usize),
    /// The buffer is full from `pos` on and holds no `}` (only when keeping the text); the
    /// search goes on from `resume`, which starts a line to check if `line_start`.
    Full { resume: usize, line_start: bool },
    /// At the end of the input, or at a line that starts the next game's tags (`pos` is there).
    Unterminated,
}

impl<R: Read> Reader<R> {
    /// A reader with a buffer of [`DEFAULT_CAPACITY`].
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(inner, DEFAULT_CAPACITY)
    }

    /// A reader with a buffer of `capacity` bytes (at least [`MIN_CAPACITY`]): a tag pair or a
    /// comment must fit in it.
    pub fn with_capacity(inner: R, capacity: usize) -> Reader<R> {
        Reader {
            inner,
            buf: vec![0; capacity.max(MIN_CAPACITY)].into_boxed_slice(),
            pos: 0,
            end: 0,
            held: false,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            failed: false,
        }
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

    /// The input, given back.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the next game and gives what the visitor made of it: `None` at the end of the
    /// input, else the game's result.
    ///
    /// A malformed game gives the visitor's error made from the reader's [`PgnError`]
    /// ([`Visitor::end_malformed_game`]): the reader has then skipped the rest of that game, and
    /// the next call reads the next one. When the input fails, the error says so
    /// ([`PgnErrorKind::Io`], [`PgnError::is_io`]) and every later call gives `None`.
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
            Ok(game) => game,
            Err(error) => {
                self.failed = true;
                Some(Err(PgnError {
                    location: self.location(),
                    kind: PgnErrorKind::Io((&error).into()),
                }
                .into()))
            }
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
        let mut tags = match visitor.begin_game(self.location()) {
            ControlFlow::Continue(tags) => tags,
            ControlFlow::Break(result) => {
                self.skip_game()?;
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
        if self.failed || !self.skip_before_game()? {
            return Ok(false);
        }
        self.skip_game()?;
        Ok(true)
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

    // ---- Between games ----

    /// Skips whitespace, `%` lines and a byte order mark. Returns whether a game follows.
    fn skip_before_game(&mut self) -> io::Result<bool> {
        self.ensure(LOOKAHEAD)?;
        if self.base == 0 && self.pos == 0 && self.buf[..self.end].starts_with(b"\xef\xbb\xbf") {
            self.pos = 3;
            self.line_start = 3;
        }
        self.skip_whitespace_lines()?;
        Ok(self.peek().is_some())
    }

    /// Skips whitespace including newlines, and `%` escape lines. Returns whether a blank line
    /// (a whole line of nothing but blanks) was among them.
    fn skip_whitespace_lines(&mut self) -> io::Result<bool> {
        let mut line_so_far_blank = self.at_line_start();
        let mut blank_line = false;
        loop {
            self.ensure(LOOKAHEAD)?;
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => {
                    blank_line |= line_so_far_blank;
                    line_so_far_blank = true;
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                Some(b'%') if self.at_line_start() => {
                    line_so_far_blank = false;
                    self.skip_to_line_end()?;
                }
                _ => return Ok(blank_line),
            }
        }
    }

    /// Moves `pos` to the next `\n` (or the end of the input), counting nothing: the newline is
    /// left for the caller.
    fn skip_to_line_end(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self.buf[self.pos..self.end]
                .iter()
                .position(|&b| b == b'\n')
            {
                self.pos += i;
                return Ok(());
            }
            if self.eof {
                self.pos = self.end;
                return Ok(());
            }
            self.refill_after_all()?;
        }
    }

    /// Called at the start of a line inside movetext: skips its leading blanks, and whole `%`
    /// lines. Returns whether the movetext ends here: at a blank line, a line whose first
    /// non-blank byte is `[`, or the end of the input.
    fn movetext_ends_at_line(&mut self) -> io::Result<bool> {
        loop {
            self.ensure(LOOKAHEAD)?;
            match self.peek() {
                None | Some(b'[' | b'\n') => return Ok(true),
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'%') if self.at_line_start() => {
                    self.skip_to_line_end()?;
                    if self.peek().is_none() {
                        return Ok(true);
                    }
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                Some(_) => return Ok(false),
            }
        }
    }

    // ---- Skipping ----

    /// Skips the rest of a game from its start or from anywhere in its tags. The rest of the
    /// current line goes first: a game never starts in the middle of a line.
    fn skip_game(&mut self) -> io::Result<()> {
        self.skip_to_line_end()?;
        loop {
            let blank_line = self.skip_whitespace_lines()?;
            if self.peek() != Some(b'[') {
                return self.skip_movetext();
            }
            if blank_line {
                return Ok(());
            }
            self.skip_to_line_end()?;
        }
    }

    /// Skips to the end of the movetext (see [`Reader::movetext_ends_at_line`]), looking only at
    /// comments, `%` lines and line starts.
    fn skip_movetext(&mut self) -> io::Result<()> {
        if self.at_line_start() && self.movetext_ends_at_line()? {
            return Ok(());
        }
        loop {
            let hay = &self.buf[self.pos..self.end];
            match hay.iter().position(|&b| matches!(b, b'\n' | b'{' | b';')) {
                None => {
                    if self.eof {
                        self.pos = self.end;
                        return Ok(());
                    }
                    self.refill_after_all()?;
                }
                Some(i) => {
                    self.pos += i;
                    match hay[i] {
                        b'\n' => {
                            self.newline_at(self.pos);
                            self.pos += 1;
                            if self.movetext_ends_at_line()? {
                                return Ok(());
                            }
                        }
                        b'{' => match self.find_comment_end(1, false, false)? {
                            CommentEnd::Closed(i) => self.pos += i + 1,
                            CommentEnd::Full { .. } | CommentEnd::Unterminated => return Ok(()),
                        },
                        _ => self.skip_to_line_end()?,
                    }
                }
            }
        }
    }

    /// Skips a variation whose `(` is just behind `pos`, to just after its `)`. Returns `false`
    /// if the movetext ends first.
    fn skip_variation(&mut self) -> io::Result<bool> {
        let mut depth: u64 = 0;
        loop {
            let hay = &self.buf[self.pos..self.end];
            match hay
                .iter()
                .position(|&b| matches!(b, b'\n' | b'{' | b';' | b'(' | b')'))
            {
                None => {
                    if self.eof {
                        self.pos = self.end;
                        return Ok(false);
                    }
                    self.refill_after_all()?;
                }
                Some(i) => {
                    self.pos += i;
                    match hay[i] {
                        b'\n' => {
                            self.newline_at(self.pos);
                            self.pos += 1;
                            if self.movetext_ends_at_line()? {
                                return Ok(false);
                            }
                        }
                        b'{' => match self.find_comment_end(1, false, false)? {
                            CommentEnd::Closed(i) => self.pos += i + 1,
                            CommentEnd::Full { .. } | CommentEnd::Unterminated => {
                                return Ok(false);
                            }
                        },
                        b';' => self.skip_to_line_end()?,
                        b'(' => {
                            depth += 1;
                            self.pos += 1;
                        }
                        _ => {
                            self.pos += 1;
                            match depth.checked_sub(1) {
                                Some(d) => depth = d,
                                None => return Ok(true),
                            }
                        }
                    }
                }
            }
        }
    }

    // ---- Comments ----

    /// Finds the `}` of a comment whose text starts at `pos + rel`, counting its newlines. A line
    /// inside the comment that looks like a tag pair (`[Name "`) is taken as the next game's
    /// start: the comment is then unterminated and `pos` is left at that line. `line_start` says
    /// that `pos + rel` starts such a line, to be checked first.
    ///
    /// With `keep`, the comment's bytes stay in the buffer from `pos` on (until it is full);
    /// without, they are dropped as the search goes.
    fn find_comment_end(
        &mut self,
        mut rel: usize,
        keep: bool,
        mut line_start: bool,
    ) -> io::Result<CommentEnd> {
        if !keep {
            self.pos += rel;
            rel = 0;
        }
        loop {
            if line_start {
                line_start = false;
                if self.end - (self.pos + rel) < TAG_PROBE && !self.eof {
                    self.fill(rel + TAG_PROBE)?;
                    // Still short: the buffer is full of the comment (only when keeping it).
                    if self.end - (self.pos + rel) < TAG_PROBE && !self.eof {
                        return Ok(CommentEnd::Full {
                            resume: rel,
                            line_start: true,
                        });
                    }
                }
                let line = &self.buf[self.pos + rel..self.end];
                if looks_like_tag_line(&line[..line.len().min(TAG_PROBE)]) {
                    self.pos += rel;
                    return Ok(CommentEnd::Unterminated);
                }
            }
            let start = self.pos + rel;
            match find_any(&self.buf[start..self.end], [b'}', b'\n']) {
                Some(k) => {
                    let at = start + k;
                    if self.buf[at] == b'}' {
                        return Ok(CommentEnd::Closed(at - self.pos));
                    }
                    self.newline_at(at);
                    rel = at + 1 - self.pos;
                    if !keep {
                        self.pos += rel;
                        rel = 0;
                    }
                    line_start = true;
                }
                None if self.eof => {
                    self.pos = self.end;
                    return Ok(CommentEnd::Unterminated);
                }
                None if keep => {
                    rel = self.end - self.pos;
                    if self.is_full() {
                        return Ok(CommentEnd::Full {
                            resume: rel,
                            line_start: false,
                        });
                    }
                    self.fill(rel + 1)?;
                }
                None => {
                    self.refill_after_all()?;
                    rel = 0;
                }
            }
        }
    }

    /// Reads the `{` comment at `pos` and hands it to the visitor.
    #[inline]
    fn read_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        // Most comments are short and end on their line, within what is buffered: then there is
        // no newline to count or tag line to look for. The blank that usually follows goes too.
        let rest = &self.buf[self.pos + 1..self.end];
        if let Some(i) = find_any(rest, [b'}', b'\n'])
            && rest[i] == b'}'
        {
            let flow = visitor.comment(movetext, RawComment::braced(&rest[..i]));
            self.pos += i + 2 + usize::from(rest.get(i + 1) == Some(&b' '));
            return Ok(step(flow));
        }
        self.read_long_brace_comment(visitor, movetext)
    }

    /// [`Reader::read_brace_comment`] for a comment that spans lines or the buffer's end.
    fn read_long_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        match self.find_comment_end(1, true, false)? {
            CommentEnd::Closed(i) => {
                let text = &self.buf[self.pos + 1..self.pos + i];
                let flow = visitor.comment(movetext, RawComment::braced(text));
                self.pos += i + 1;
                Ok(step(flow))
            }
            CommentEnd::Unterminated => Ok(Step::Error(PgnError {
                location: at,
                kind: PgnErrorKind::UnterminatedComment,
            })),
            CommentEnd::Full { resume, line_start } => {
                let kind = match self.find_comment_end(resume, false, line_start)? {
                    CommentEnd::Closed(i) => {
                        self.pos += i + 1;
                        PgnErrorKind::CommentTooLong {
                            buffer: self.buf.len(),
                        }
                    }
                    CommentEnd::Full { .. } | CommentEnd::Unterminated => {
                        PgnErrorKind::UnterminatedComment
                    }
                };
                Ok(Step::Error(PgnError { location: at, kind }))
            }
        }
    }

    /// Reads the `;` comment at `pos` (up to, not including, the newline) and hands it to the
    /// visitor.
    fn read_line_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        let mut rel = 1;
        loop {
            let start = self.pos + rel;
            if let Some(k) = self.buf[start..self.end].iter().position(|&b| b == b'\n') {
                let text = trim_cr(&self.buf[self.pos + 1..start + k]);
                let flow = visitor.comment(movetext, RawComment::line(text));
                self.pos = start + k;
                return Ok(step(flow));
            }
            if self.eof {
                let text = trim_cr(&self.buf[self.pos + 1..self.end]);
                let flow = visitor.comment(movetext, RawComment::line(text));
                self.pos = self.end;
                return Ok(step(flow));
            }
            if self.is_full() {
                let location = self.location();
                self.skip_to_line_end()?;
                return Ok(Step::Error(PgnError {
                    location,
                    kind: PgnErrorKind::CommentTooLong {
                        buffer: self.buf.len(),
                    },
                }));
            }
            rel = self.end - self.pos;
            self.fill(rel + 1)?;
        }
    }

    // ---- Tags ----

    fn read_tags<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
    ) -> io::Result<GameStep<V>> {
        let mut first = true;
        loop {
            // Between tag pairs there is usually just a newline, which needs no closer look.
            let blank_line = if !first && self.buf[self.pos..self.end].starts_with(b"\n[") {
                self.newline_at(self.pos);
                self.pos += 1;
                false
            } else {
                self.skip_whitespace_lines()?
            };
            // A blank line before a `[` ends a game that has tags and no movetext.
            if self.peek() != Some(b'[') || (blank_line && !first) {
                return Ok(Step::Continue);
            }
            first = false;
            match self.read_tag(visitor, tags)? {
                Step::Continue => {}
                other => return Ok(other),
            }
        }
    }

    /// Reads the tag pair whose `[` is at `pos`.
    fn read_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        self.ensure(LOOKAHEAD)?;
        if let Some(flow) = self.read_plain_tag(visitor, tags, at) {
            return Ok(step(flow));
        }
        let malformed = |reader: &Reader<R>, i: usize, kind: PgnErrorKind| {
            Step::Error(PgnError {
                location: reader.location_of(reader.pos + i),
                kind,
            })
        };
        let data = &self.buf[self.pos..self.end];
        let name_start = 1 + count_blanks(&data[1..]);
        let name_len = data[name_start..]
            .iter()
            .take_while(|&&b| is_tag_name_byte(b))
            .count();
        if name_len == 0 {
            return Ok(malformed(self, name_start, PgnErrorKind::ExpectedTagName));
        }
        if name_len >= LOOKAHEAD / 2 {
            return Ok(malformed(self, name_start, PgnErrorKind::TagNameTooLong));
        }
        let name_end = name_start + name_len;
        let quote = name_end + count_blanks(&data[name_end..]);
        if data.get(quote) != Some(&b'"') {
            return Ok(malformed(self, quote, PgnErrorKind::ExpectedTagValue));
        }
        let value_start = quote + 1;
        let quote_at = self.location_of(self.pos + quote);
        let unterminated = || {
            Step::Error(PgnError {
                location: quote_at,
                kind: PgnErrorKind::UnterminatedTagValue,
            })
        };
        // Find the closing quote (indices relative to `pos`), keeping the value in the buffer
        // while it fits. `None`: the buffer is full and the value goes on. A value ends on its
        // line: a newline, even escaped, leaves it unterminated. `j` is where the search goes on;
        // it stops at a `\` whose escaped byte is not buffered yet, so that the escape is seen
        // whole once more bytes arrive.
        let mut j = value_start;
        let close = loop {
            let data = &self.buf[self.pos..self.end];
            match find_any(&data[j..], [b'"', b'\\', b'\n']).map(|k| j + k) {
                Some(i) if data[i] == b'"' => break Some(i),
                Some(i) if data[i] == b'\\' => match data.get(i + 1) {
                    Some(b'\n') => return Ok(unterminated()),
                    Some(_) => {
                        j = i + 2;
                        continue;
                    }
                    None => j = i,
                },
                Some(_) => return Ok(unterminated()),
                None => j = data.len(),
            }
            if self.eof {
                return Ok(unterminated());
            }
            if self.is_full() {
                break None;
            }
            let want = self.end - self.pos + 1;
            self.fill(want)?;
        };
        let flow = match close {
            Some(close) => {
                let data = &self.buf[self.pos..self.end];
                let flow = visitor.tag(
                    tags,
                    &data[name_start..name_end],
                    RawTag::new(&data[value_start..close]),
                    at,
                );
                self.pos += close + 1;
                flow
            }
            None => {
                // `pos` is 0: the whole buffer is this tag. Whether it ended inside an escape,
                // its `\` the last byte.
                let mut escaped = j < self.end;
                loop {
                    self.refill_after_all()?;
                    let data = &self.buf[self.pos..self.end];
                    if data.is_empty() {
                        return Ok(unterminated());
                    }
                    let mut found = None;
                    for (k, &b) in data.iter().enumerate() {
                        if b == b'\n' {
                            return Ok(unterminated());
                        } else if escaped {
                            escaped = false;
                        } else if b == b'\\' {
                            escaped = true;
                        } else if b == b'"' {
                            found = Some(k);
                            break;
                        }
                    }
                    if let Some(k) = found {
                        self.pos += k + 1;
                        return Ok(Step::Error(PgnError {
                            location: at,
                            kind: PgnErrorKind::TagTooLong {
                                buffer: self.buf.len(),
                            },
                        }));
                    }
                }
            }
        };
        self.ensure(LOOKAHEAD)?;
        let data = &self.buf[self.pos..self.end];
        let i = count_blanks(data);
        if data.get(i) != Some(&b']') {
            return Ok(malformed(self, i, PgnErrorKind::ExpectedTagEnd));
        }
        self.pos += i + 1;
        Ok(step(flow))
    }

    /// Reads the tag pair at `pos` if it is written the usual way, `[Name "value"]`: one blank
    /// before the value, no escape in it, and all of it buffered. `None` (and nothing read)
    /// otherwise: [`Reader::read_tag`] then reads it the general way. What this reads, that reads
    /// the same.
    #[inline]
    fn read_plain_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
        at: Location,
    ) -> Option<Flow<V>> {
        let data = &self.buf[self.pos..self.end];
        let name_len = data[1..]
            .iter()
            .take_while(|&&b| is_tag_name_byte(b))
            .count();
        if name_len == 0
            || name_len >= LOOKAHEAD / 2
            || data.get(name_len + 1..name_len + 3) != Some(b" \"")
        {
            return None;
        }
        let value_start = name_len + 3;
        let len = find_any_near(&data[value_start..], [b'"', b'\\', b'\n'])?;
        let close = value_start + len;
        if data[close] != b'"' || data.get(close + 1) != Some(&b']') {
            return None;
        }
        let flow = visitor.tag(
            tags,
            &data[1..=name_len],
            RawTag::new(&data[value_start..close]),
            at,
        );
        self.pos += close + 2;
        Some(flow)
    }

    // ---- Movetext ----

    fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        // Variation depth; whether the current line has a move; whether the result was read;
        // where the outermost open variation began.
        let mut depth: u64 = 0;
        let mut has_move = false;
        let mut ended = false;
        let mut open_at = Location::default();
        if self.at_line_start() && self.movetext_ends_at_line()? {
            return Ok(Step::Continue);
        }
        macro_rules! flow {
            ($flow:expr) => {
                if let ControlFlow::Break(output) = $flow {
                    return Ok(Step::Break(output));
                }
            };
        }
        macro_rules! fail {
            ($at:expr, $kind:expr) => {
                return Ok(Step::Error(PgnError {
                    location: $at,
                    kind: $kind,
                }))
            };
        }
        loop {
            if !ended {
                match self.read_plain_movetext(visitor, movetext) {
                    ControlFlow::Continue(moved) => has_move |= moved,
                    ControlFlow::Break(output) => return Ok(Step::Break(output)),
                }
            }
            if self.end - self.pos < LOOKAHEAD {
                self.ensure(LOOKAHEAD)?;
            }
            let Some(b) = self.peek() else { break };
            match b {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.newline_at(self.pos);
                    self.pos += 1;
                    if self.movetext_ends_at_line()? {
                        break;
                    }
                }
                b'{' => match self.read_brace_comment(visitor, movetext)? {
                    Step::Continue => {}
                    other => return Ok(other),
                },
                b';' => match self.read_line_comment(visitor, movetext)? {
                    Step::Continue => {}
                    other => return Ok(other),
                },
                b'0'..=b'9' => {
                    let data = &self.buf[self.pos..self.end];
                    let digits = data.iter().take_while(|b| b.is_ascii_digit()).count();
                    // (A number as long as the lookahead is a too long token below.)
                    if digits < LOOKAHEAD && !data.get(digits).copied().is_some_and(is_token_byte) {
                        // A move number, with its dots.
                        let dots = data[digits..].iter().take_while(|&&b| b == b'.').count();
                        // And the space that usually follows, saving a turn of the loop.
                        let space = usize::from(data.get(digits + dots) == Some(&b' '));
                        self.pos += digits + dots + space;
                        continue;
                    }
                    let len = token_len(data);
                    let token = &data[..len];
                    let at = self.location();
                    if len >= LOOKAHEAD {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                    if let Some(marker) = TerminationMarker::from_ascii(token) {
                        if depth > 0 {
                            fail!(at, PgnErrorKind::ResultInVariation);
                        }
                        if ended {
                            fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                        }
                        ended = true;
                        self.pos += len;
                        flow!(visitor.termination_marker(movetext, marker, at));
                    } else if token.starts_with(b"0-0") {
                        match SanPlus::from_ascii(token) {
                            Ok(san) => {
                                if ended {
                                    fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                                }
                                has_move = true;
                                self.pos += len;
                                flow!(visitor.san(movetext, san, at));
                            }
                            Err(_) => fail!(at, PgnErrorKind::InvalidSan(Excerpt::new(token))),
                        }
                    } else {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'-' => {
                    let data = &self.buf[self.pos..self.end];
                    let len = token_len(data);
                    let token = &data[..len];
                    let at = self.location();
                    if len >= LOOKAHEAD {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                    match SanPlus::from_ascii(token) {
                        Ok(san) => {
                            if ended {
                                fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                            }
                            has_move = true;
                            let space = usize::from(data.get(len) == Some(&b' '));
                            self.pos += len + space;
                            flow!(visitor.san(movetext, san, at));
                        }
                        Err(_) => fail!(at, PgnErrorKind::InvalidSan(Excerpt::new(token))),
                    }
                }
                b'$' | b'!' | b'?' => {
                    let data = &self.buf[self.pos..self.end];
                    let at = self.location();
                    let (nag, len) = if b == b'$' {
                        let digits = data[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                        let number = &data[1..1 + digits];
                        let nag = if digits == 0 || digits > 3 {
                            None
                        } else {
                            number
                                .iter()
                                .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
                                .try_into()
                                .ok()
                                .map(Nag)
                        };
                        (nag, 1 + digits)
                    } else {
                        let len = data.iter().take_while(|&&b| b == b'!' || b == b'?').count();
                        (Nag::from_suffix(&data[..len]), len)
                    };
                    let Some(nag) = nag else {
                        let extra = data[len..]
                            .iter()
                            .take_while(|&&b| is_token_byte(b))
                            .count();
                        fail!(
                            at,
                            PgnErrorKind::InvalidNag(Excerpt::new(&data[..len + extra]))
                        );
                    };
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(&data[..len])));
                    }
                    if !has_move {
                        fail!(at, PgnErrorKind::NagBeforeMove);
                    }
                    self.pos += len;
                    flow!(visitor.nag(movetext, nag));
                }
                b'(' => {
                    let at = self.location();
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(b"(")));
                    }
                    if !has_move {
                        fail!(at, PgnErrorKind::VariationBeforeMove);
                    }
                    self.pos += 1;
                    match visitor.begin_variation(movetext, at) {
                        ControlFlow::Break(output) => return Ok(Step::Break(output)),
                        ControlFlow::Continue(VariationChoice::Enter) => {
                            if depth == 0 {
                                open_at = at;
                            }
                            depth += 1;
                            has_move = false;
                        }
                        ControlFlow::Continue(VariationChoice::Skip) => {
                            if !self.skip_variation()? {
                                return Ok(Step::ErrorAtEnd(PgnError {
                                    location: at,
                                    kind: PgnErrorKind::UnterminatedVariation,
                                }));
                            }
                        }
                    }
                }
                b')' => {
                    let at = self.location();
                    let Some(d) = depth.checked_sub(1) else {
                        fail!(at, PgnErrorKind::UnmatchedParenthesis);
                    };
                    depth = d;
                    has_move = true;
                    self.pos += 1;
                    flow!(visitor.end_variation(movetext));
                }
                b'*' => {
                    let at = self.location();
                    if depth > 0 {
                        fail!(at, PgnErrorKind::ResultInVariation);
                    }
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(b"*")));
                    }
                    ended = true;
                    self.pos += 1;
                    flow!(visitor.termination_marker(movetext, TerminationMarker::Unknown, at));
                }
                b'.' => self.pos += 1,
                _ => fail!(self.location(), unexpected(&self.buf[self.pos..self.end])),
            }
        }
        if depth > 0 {
            // `pos` is where the movetext ends, maybe after blanks on a blank line: skipping from
            // there would not see that line as blank.
            return Ok(Step::ErrorAtEnd(PgnError {
                location: open_at,
                kind: PgnErrorKind::UnterminatedVariation,
            }));
        }
        Ok(Step::Continue)
    }
}

impl<R: Read> Reader<R> {
    /// Reads the tokens that make up most of a movetext line, as long as they lie well inside
    /// the buffered bytes: blanks, move numbers, SAN and one-line `{` comments, in any order.
    /// Stops, with `pos` on it, at the first byte that needs more care (a newline, a result, a
    /// NAG, a parenthesis, anything malformed), which [`Reader::read_movetext`] then reads the
    /// general way, errors included. Only for a movetext whose result has not been read: a move
    /// is then allowed anywhere. Continues with whether a move was read.
    ///
    /// It reads exactly what the general loop would, only faster: the position stays in a
    /// register, and the blank after a token goes with it.
    #[inline(always)]
    fn read_plain_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> Flow<V, bool> {
        let data = &self.buf[..self.end];
        // A token that starts before `limit` is buffered whole (or is too long, which the general
        // loop reports).
        let limit = if self.eof {
            self.end
        } else {
            self.end.saturating_sub(LOOKAHEAD)
        };
        let mut pos = self.pos;
        let mut moved = false;
        // The blank after a token, which is nearly always there, is stepped over by a branch
        // that leaves the loop when it is not: a predicted branch lets the next token be read
        // before this byte is loaded, where adding its test's outcome would wait for it. (The
        // general loop reads whatever else follows, such as the end of a line.)
        macro_rules! space_or_break {
            () => {
                if data.get(pos) != Some(&b' ') {
                    break;
                }
                pos += 1;
            };
        }
        while pos < limit {
            let b = data[pos];
            if b == b' ' {
                pos += 1;
            } else if b.is_ascii_digit() {
                let Some(len) = move_number_len(&data[pos..]) else {
                    break; // A result, `0-0`, a bad token, or a rarer number.
                };
                pos += len;
                space_or_break!();
            } else if b.is_ascii_alphabetic() {
                let len = token_len(&data[pos..]);
                let Ok(san) = SanPlus::from_ascii(&data[pos..pos + len]) else {
                    break;
                };
                let at = self.location_of(pos);
                pos += len;
                moved = true;
                if let ControlFlow::Break(output) = visitor.san(movetext, san, at) {
                    self.pos = pos;
                    return ControlFlow::Break(output);
                }
                space_or_break!();
            } else if b == b'{' {
                let rest = &data[pos + 1..];
                let i = match clock_comment_len(rest) {
                    Some(i) => i,
                    None => match find_any_near(rest, [b'}', b'\n']) {
                        Some(i) if rest[i] == b'}' => i,
                        _ => break,
                    },
                };
                pos += i + 2;
                if let ControlFlow::Break(output) =
                    visitor.comment(movetext, RawComment::braced(&rest[..i]))
                {
                    self.pos = pos;
                    return ControlFlow::Break(output);
                }
                space_or_break!();
            } else {
                break;
            }
        }
        self.pos = pos;
        ControlFlow::Continue(moved)
    }
}

fn step<O>(flow: ControlFlow<O>) -> Step<O> {
    match flow {
        ControlFlow::Continue(()) => Step::Continue,
        ControlFlow::Break(output) => Step::Break(output),
    }
}

/// Settles the line ends of `bytes[from..]`, the bytes just read (after what earlier calls
/// settled): each carriage return followed by anything but a line feed becomes a line feed.
/// Returns the end of the settled bytes: `bytes.len()`, or one less when the last byte is a
/// carriage return whose next byte is not read yet (unless `eof`: then it is a lone one).
fn settle_line_ends(bytes: &mut [u8], from: usize, eof: bool) -> usize {
    // Most input has no carriage return, or one per line: look at 64 bytes at a time, with a
    // test of fixed length that compiles to a few vector instructions, and byte by byte only
    // at the blocks that hold one (and at the last few bytes).
    const BLOCK: usize = 64;
    let mut start = from;
    while start < bytes.len() {
        let (end, any) = match bytes[start..].first_chunk::<BLOCK>() {
            Some(block) => (
                start + BLOCK,
                block.iter().fold(0, |any, &b| any | u8::from(b == b'\r')) != 0,
            ),
            None => (bytes.len(), true),
        };
        if any {
            for i in start..end {
                if bytes[i] == b'\r' {
                    match bytes.get(i + 1) {
                        Some(b'\n') => {}
                        Some(_) => bytes[i] = b'\n',
                        None if eof => bytes[i] = b'\n',
                        None => return i,
                    }
                }
            }
        }
        start = end;
    }
    bytes.len()
}

/// Whether `b` continues a move, number or result token.
const fn is_token_byte_slow(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'=' | b'+' | b'#' | b'/' | b':' | b'@')
}

/// The table of a predicate on bytes, built at compile time: a lookup is one load, where the
/// predicate is a few comparisons and branches.
macro_rules! byte_table {
    ($predicate:ident) => {{
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = $predicate(b as u8);
            b += 1;
        }
        table
    }};
}

/// [`is_token_byte_slow`] as a table.
static TOKEN_BYTES: [bool; 256] = byte_table!(is_token_byte_slow);

#[inline]
fn is_token_byte(b: u8) -> bool {
    TOKEN_BYTES[usize::from(b)]
}

/// The length of the token at the start of `data` (at least 1 if `data` is not empty).
#[inline]
fn token_len(data: &[u8]) -> usize {
    data.iter()
        .skip(1)
        .position(|&b| !is_token_byte(b))
        .map_or(data.len(), |n| n + 1)
}

/// Whether `b` may be part of a tag name.
const fn is_tag_name_byte_slow(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// [`is_tag_name_byte_slow`] as a table.
static TAG_NAME_BYTES: [bool; 256] = byte_table!(is_tag_name_byte_slow);

#[inline]
fn is_tag_name_byte(b: u8) -> bool {
    TAG_NAME_BYTES[usize::from(b)]
}

fn count_blanks(data: &[u8]) -> usize {
    data.iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t'))
        .count()
}

/// Whether `line` starts like a tag pair: `[`, a name, blanks, `"`.
pub(super) fn looks_like_tag_line(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest.iter().take_while(|&&b| is_tag_name_byte(b)).count();
    if name == 0 || !rest[0].is_ascii_alphabetic() {
        return false;
    }
    let rest = &rest[name..];
    rest.get(count_blanks(rest)) == Some(&b'"')
}

/// The error for the unexpected character at the start of `bytes` (which is not empty): the
/// character, or its first byte if it is not UTF-8.
fn unexpected(bytes: &[u8]) -> PgnErrorKind {
    let width = match bytes[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    let character = bytes
        .get(..width)
        .and_then(|bytes| core::str::from_utf8(bytes).ok())
        .and_then(|text| text.chars().next());
    match character {
        Some(c) => PgnErrorKind::UnexpectedCharacter(c),
        None => PgnErrorKind::UnexpectedByte(bytes[0]),
    }
}

fn trim_cr(text: &[u8]) -> &[u8] {
    text.strip_suffix(b"\r").unwrap_or(text)
}

/// The index of the first byte of `hay` that is one of `needles`. Looks at eight bytes at a
/// time (see [`needle_flags`]).
#[inline]
fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<usize> {
    let (words, remainder) = hay.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let flags = needle_flags(u64::from_le_bytes(*word), needles);
        if flags != 0 {
            return Some(i * 8 + first_flagged(flags));
        }
    }
    let i = words.len() * 8;
    remainder
        .iter()
        .position(|x| needles.contains(x))
        .map(|p| i + p)
}

/// The length of the move number at the start of `text` when it has the usual shape: one to
/// three digits, then `.` or `...` (and no more dots). `None` for anything else, which the
/// general loop reads: results, `0-0`, numbers without dots or with other dots.
#[inline(always)]
fn move_number_len(text: &[u8]) -> Option<usize> {
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    let digits = if !at(1).is_ascii_digit() {
        1
    } else if !at(2).is_ascii_digit() {
        2
    } else if !at(3).is_ascii_digit() {
        3
    } else {
        return None;
    };
    if at(digits) != b'.' {
        return None;
    }
    let dots = if at(digits + 1) != b'.' {
        1
    } else if at(digits + 2) == b'.' && at(digits + 3) != b'.' {
        3
    } else {
        return None;
    };
    Some(digits + dots)
}

/// Where the comment `rest` (after its `{`) ends when it is a clock comment as lichess writes one
/// after every move, ` [%clk 0:05:00] }` (with less than ten hours left): the index of its `}`,
/// 16. One masked comparison of the first 16 bytes against that shape, where each digit may be
/// any byte from `0x30` to `0x3F` (none is a `}` or a newline, so the index is right, whatever
/// the clock says), and the `}`. `None` for any other comment, and when fewer than 17 bytes are
/// at hand (near the end of the input).
#[inline(always)]
fn clock_comment_len(rest: &[u8]) -> Option<usize> {
    const SHAPE: &[u8; 16] = b" [%clk 0:00:00] ";
    const DIGIT: u8 = 0xF0;
    const MASK: [u8; 16] = {
        let mut mask = [0xFF; 16];
        let mut i = 0;
        while i < 16 {
            if SHAPE[i] == b'0' {
                mask[i] = DIGIT;
            }
            i += 1;
        }
        mask
    };
    let (head, after) = rest.split_first_chunk::<16>()?;
    let text = u128::from_le_bytes(*head) & u128::from_le_bytes(MASK);
    (text == u128::from_le_bytes(*SHAPE) && after.first() == Some(&b'}')).then_some(16)
}

/// [`find_any`], quicker when the needle is near, as it is in the short comments and tag values
/// that fill most files (a `[%clk]` comment ends at index 16): three words are tested at once,
/// without a loop.
#[inline(always)]
fn find_any_near<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<usize> {
    let (words, _) = hay.as_chunks::<8>();
    let [first, second, third, ..] = *words else {
        return find_any(hay, needles);
    };
    let flags = [first, second, third].map(|word| needle_flags(u64::from_le_bytes(word), needles));
    if flags[0] != 0 {
        Some(first_flagged(flags[0]))
    } else if flags[1] != 0 {
        Some(8 + first_flagged(flags[1]))
    } else if flags[2] != 0 {
        Some(16 + first_flagged(flags[2]))
    } else {
        find_any(&hay[24..], needles).map(|i| 24 + i)
    }
}

/// The bytes of the little-endian `word` that are one of `needles`, each flagged by its high bit
/// or, above the first such byte, perhaps falsely: a byte of a word `x` is zero exactly where
/// `(x - 0x01..01) & !x & 0x80..80` has its lowest set bit, or lower (a borrow only propagates
/// upwards, so the lowest flag is always a true zero); `x` is the word with a needle xored into
/// every byte.
#[inline(always)]
fn needle_flags<const N: usize>(word: u64, needles: [u8; N]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    needles.iter().fold(0, |flags, &needle| {
        let x = word ^ (ONES * u64::from(needle));
        flags | x.wrapping_sub(ONES) & !x
    }) & HIGHS
}

/// The index of the first needle flagged by [`needle_flags`] (which must not be zero).
#[inline(always)]
fn first_flagged(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_any_and_find_any_near_find_the_first() {
        // Every position, with bytes around that could fool the word trick (0x7c, 0x7e, 0x09,
        // 0x0b, 0x00, 0xff, 0x80, 0x21, 0x23, 0x5b, 0x5d).
        let noise = [
            b'x',
            0x7c,
            0x7e,
            0x09,
            0x0b,
            0x00,
            0xff,
            0x80,
            0x7d ^ 0x80,
            0x21,
            0x23,
            0x5b,
            0x5d,
        ];
        let needles = [b'}', b'\n', b'"', b'\\'];
        for len in 0..56 {
            for n in 0..noise.len() {
                let fresh =
                    || -> Vec<u8> { (0..len).map(|i| noise[(i + n) % noise.len()]).collect() };
                let mut hay = fresh();
                assert_eq!(find_any(&hay, [b'}', b'\n']), None);
                assert_eq!(find_any_near(&hay, [b'}', b'\n']), None);
                assert_eq!(find_any_near(&hay, [b'"', b'\\', b'\n']), None);
                assert_eq!(find_any(&hay, [b'"', b'\\', b'\n']), None);
                for first in 0..len {
                    for (k, &target) in needles.iter().enumerate() {
                        hay[first] = target;
                        if first + 3 < len {
                            hay[first + 3] = needles[(k + 1) % needles.len()];
                        }
                        let two = [b'}', b'\n'].contains(&target).then_some(first);
                        let three = [b'"', b'\\', b'\n'].contains(&target).then_some(first);
                        if two.is_some() {
                            assert_eq!(find_any(&hay, [b'}', b'\n']), two);
                            assert_eq!(find_any_near(&hay, [b'}', b'\n']), two);
                        }
                        if three.is_some() {
                            assert_eq!(find_any(&hay, [b'"', b'\\', b'\n']), three);
                            assert_eq!(find_any_near(&hay, [b'"', b'\\', b'\n']), three);
                        }
                        hay = fresh();
                    }
                }
            }
        }
    }

    #[test]
    fn move_numbers_of_the_usual_shape() {
        for (text, len) in [
            (&b"1. e4"[..], Some(2)),
            (b"12... Nf6", Some(5)),
            (b"123.e4", Some(4)),
            (b"7.", Some(2)),
            (b"7...", Some(4)),
            // Left to the general loop.
            (b"1234. e4", None),
            (b"12 e4", None),
            (b"12.. e4", None),
            (b"12.... e4", None),
            (b"1-0", None),
            (b"1/2-1/2", None),
            (b"0-0", None),
        ] {
            assert_eq!(
                move_number_len(text),
                len,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn clock_comments_end_where_the_search_says() {
        let found = |rest: &[u8]| (clock_comment_len(rest), find_any_near(rest, [b'}', b'\n']));
        assert_eq!(found(b" [%clk 0:05:00] } 2. Nf3"), (Some(16), Some(16)));
        assert_eq!(found(b" [%clk 9:59:59] }"), (Some(16), Some(16)));
        // Not the shape: a longer clock, a comment that ends early, a newline.
        assert_eq!(found(b" [%clk 10:05:00] } 2. Nf3"), (None, Some(17)));
        assert_eq!(found(b" [%clk 0:05:00.5] } 2. Nf3"), (None, Some(18)));
        assert_eq!(found(b" [%clk 0:0}:00] } 2. Nf3"), (None, Some(10)));
        assert_eq!(found(b" [%clk 0:05\n00] } 2. Nf3"), (None, Some(11)));
        assert_eq!(found(b" [%clk 0:05:00]  } 2. Nf3"), (None, Some(17)));
        assert_eq!(found(b" [%clk 0:05:00] "), (None, None));
        // Wherever it answers, it agrees with the search.
        let mut rest = *b" [%clk 0:05:00] } 2. Nf3";
        for i in 0..rest.len() {
            for byte in 0..=u8::MAX {
                let old = std::mem::replace(&mut rest[i], byte);
                if let Some(end) = clock_comment_len(&rest) {
                    assert_eq!(Some(end), find_any_near(&rest, [b'}', b'\n']));
                }
                rest[i] = old;
            }
        }
    }

    #[test]
    fn byte_tables_match() {
        for b in 0..=255 {
            assert_eq!(is_token_byte(b), is_token_byte_slow(b));
            assert_eq!(is_tag_name_byte(b), is_tag_name_byte_slow(b));
        }
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        let settled = |text: &[u8], from: usize, eof: bool| {
            let mut bytes = text.to_vec();
            let end = settle_line_ends(&mut bytes, from, eof);
            (bytes, end)
        };
        assert_eq!(
            settled(b"a\rb\r\nc\r\rd", 0, true),
            (b"a\nb\r\nc\n\nd".to_vec(), 9)
        );
        // The last CR waits for the next byte, unless the input ended.
        assert_eq!(settled(b"ab\r", 0, false), (b"ab\r".to_vec(), 2));
        assert_eq!(settled(b"ab\r", 0, true), (b"ab\n".to_vec(), 3));
        // Bytes before `from` are settled already; across blocks too.
        assert_eq!(settled(b"\rx\r", 1, true), (b"\rx\n".to_vec(), 3));
        let mut long = vec![b'x'; 100];
        for i in [0, 30, 31, 32, 33, 63, 64, 99] {
            long[i] = b'\r';
        }
        let (bytes, end) = settled(&long, 0, false);
        assert_eq!(end, 99);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 7);
    }

    #[test]
    fn tag_lines_are_recognised() {
        assert!(looks_like_tag_line(b"[Event \"x\"]"));
        assert!(looks_like_tag_line(b"[Event\"x\"]"));
        assert!(!looks_like_tag_line(b"[%clk 0:01:00]"));
        assert!(!looks_like_tag_line(b"[see the game]"));
        assert!(!looks_like_tag_line(b" [Event \"x\"]"));
    }
}
