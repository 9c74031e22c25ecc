//! Cutting an input into chunks of whole games, so that workers can read them in parallel.
//!
//! [`Chunks`] cuts at notation's game boundaries ([`BoundaryScan`]: lines where a reader
//! surely begins a game, whatever came before), about 128 KiB at a time (so that even a 1 MB
//! file keeps several workers busy), looking at most bytes only to count the line ends. A
//! worker reads a chunk with its own `Reader` and finds exactly the games the whole stream
//! holds, at the same places.
//!
//! An input with no boundary for [`SCAN_LIMIT`] bytes (games without tags, say), or whose
//! reading fails, is cut from there on where a reader finds each game starting instead: it
//! reads the input once more, skipping every game (no move is looked at), only to learn where
//! each starts. That is slower, but needs no tags, and gives the whole games before a failure,
//! then the failure.
//!
//! Memory: the chunk being filled (at most [`SCAN_LIMIT`], or [`CHUNK_BYTES`] plus one game
//! when cutting at game starts), the reader's buffer, and the buffers of chunks given back
//! ([`Chunks::recycling`]), no more of them than chunks were in flight (dropped when cutting
//! at game starts). A game longer than [`MAX_GAME_BYTES`]
//! ends the input with an error.

use core::ops::{ControlFlow, Range};
use std::io::{self, Cursor, Read};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use caissa_notation::pgn::{
    BoundaryScan, Flow, Location, PgnError, PgnErrorKind, Reader, Visitor, line_ends_in,
};

/// About how many bytes a chunk holds: it ends at the first game start past this.
pub(crate) const CHUNK_BYTES: usize = 1 << 17;

/// The most bytes searched for a game boundary: past them, the input is cut at game starts.
pub(crate) const SCAN_LIMIT: usize = 8 * CHUNK_BYTES;

/// The bytes read at a time while looking for a boundary past [`CHUNK_BYTES`].
const SCAN_STEP: usize = CHUNK_BYTES / 16;

/// The longest game kept whole: a longer one (a file with no blank line between games, say)
/// ends the input with an error rather than filling memory.
pub(crate) const MAX_GAME_BYTES: usize = 64 << 20;

/// Whole games of an input: their bytes and where they start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Chunk {
    /// The bytes, from the first game's first byte to the next chunk's.
    pub(crate) bytes: Vec<u8>,
    /// Where `bytes[0]` is in the input.
    pub(crate) offset: u64,
    /// Its line and byte column in the input.
    pub(crate) location: Location,
    /// The games in it that are to be skipped, in order ([`select_skipping`]): where each
    /// starts in the input, and where the next game starts (or any place past the chunk, for
    /// its last).
    ///
    /// [`select_skipping`]: crate::select_skipping
    pub(crate) skip: Vec<Range<u64>>,
}

impl Chunk {
    /// Where a place in the chunk (a [`Location`] a reader of `bytes` reports) is in the input.
    pub(crate) fn input_location(&self, at: Location) -> Location {
        within(self.location, at)
    }
}

/// Where `at`, a place in a text (a [`Location`] a reader of it reports), is in a larger text
/// in which that text begins at `start`.
pub(crate) fn within(start: Location, at: Location) -> Location {
    Location {
        line: start.line + at.line - 1,
        column: if at.line == 1 {
            start.column + at.column - 1
        } else {
            at.column
        },
    }
}

/// Finds byte offsets of [`Location`]s in a text, scanning forward only: from a line start it
/// knows, it counts line ends up to the line asked for, as the reader counts them (LF, CRLF, or
/// a lone CR).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCursor {
    /// The offset of a line start, relative to the bytes scanned.
    offset: usize,
    /// Its line.
    line: u64,
    /// The bytes of a byte order mark before line 1, which its columns do not count.
    bom: usize,
}

impl LineCursor {
    /// A cursor at the start of `bytes`, which start at line 1 (after a byte order mark, if
    /// `bytes` starts with one).
    pub(crate) fn new(bytes: &[u8]) -> LineCursor {
        let bom = if bytes.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        LineCursor {
            offset: 0,
            line: 1,
            bom,
        }
    }

    /// A cursor at `at`, the location of the byte at `offset` in `bytes` (as a reader of
    /// `bytes` reports it): from there on, as a cursor that had scanned up to it.
    pub(crate) fn at(bytes: &[u8], offset: usize, at: Location) -> LineCursor {
        if at.line == 1 {
            return LineCursor::new(bytes);
        }
        let column = usize::try_from(at.column.saturating_sub(1)).unwrap_or(usize::MAX);
        LineCursor {
            offset: offset.saturating_sub(column),
            line: at.line,
            bom: 0,
        }
    }

    /// The location of `offset`, a line start in `bytes` at or after the cursor's line, where
    /// the cursor moves: the line ends between counted by [`line_ends_in`] (a CR that ends the
    /// span is a lone CR, since `offset` starts a line).
    pub(crate) fn line_start_at(&mut self, bytes: &[u8], offset: usize) -> Location {
        let offset = offset.max(self.offset);
        self.line += line_ends_in(&bytes[self.offset..offset]);
        self.offset = offset;
        Location {
            line: self.line,
            column: 1,
        }
    }

    /// The offset in `bytes` of `at`, which must not come before the cursor's line; the cursor
    /// moves to `at`'s line. An `at` past the end gives the end.
    pub(crate) fn offset_of(&mut self, bytes: &[u8], at: Location) -> usize {
        while self.line < at.line {
            let rest = &bytes[self.offset..];
            // `memchr2` looks at a vector of bytes at a time: this runs over every byte of the
            // input.
            match memchr::memchr2(b'\n', b'\r', rest) {
                Some(i) => {
                    // A CRLF ends its line at the LF.
                    let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
                    self.offset += i + 1 + usize::from(crlf);
                    self.line += 1;
                }
                None => return bytes.len(),
            }
        }
        let bom = if self.line == 1 { self.bom } else { 0 };
        let column = usize::try_from(at.column.saturating_sub(1)).unwrap_or(usize::MAX);
        self.offset
            .saturating_add(bom)
            .saturating_add(column)
            .min(bytes.len())
    }

    /// The location of the byte at `offset` in `bytes`, which must not come before the
    /// cursor's line; the cursor moves to that line. [`LineCursor::offset_of`] the other way.
    pub(crate) fn location_of(&mut self, bytes: &[u8], offset: usize) -> Location {
        let offset = offset.min(bytes.len());
        while let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[self.offset..offset]) {
            let at = self.offset + i;
            // A CRLF ends its line at the LF: at `offset`, the line is still the CR's.
            let crlf = bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n');
            let next_line = at + 1 + usize::from(crlf);
            if next_line > offset {
                break;
            }
            self.offset = next_line;
            self.line += 1;
        }
        let bom = if self.line == 1 { self.bom } else { 0 };
        Location {
            line: self.line,
            column: (offset - self.offset).saturating_sub(bom) as u64 + 1,
        }
    }

    /// The cursor moved back by `n` bytes, after the scanned text lost its first `n` bytes
    /// (`n` at most the cursor's offset).
    fn rebase(&mut self, n: usize) {
        self.offset -= n;
        if n > 0 {
            self.bom = 0;
        }
    }

    /// The cursor's line start.
    const fn line_start(&self) -> usize {
        self.offset
    }
}

/// The input's bytes since the cursor's line start, as the reader has read them.
#[derive(Debug, Default)]
struct Window {
    bytes: Vec<u8>,
    /// Where `bytes[0]` is in the input.
    base: u64,
}

/// The window, whoever holds it (no one panics while holding it: a poisoned lock still holds
/// whole bytes).
fn lock(window: &Mutex<Window>) -> MutexGuard<'_, Window> {
    window.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A reader that keeps a copy of what passes through it in a [`Window`].
#[derive(Debug)]
struct Tee<R> {
    inner: R,
    window: Arc<Mutex<Window>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut window = lock(&self.window);
        if window.bytes.len() > MAX_GAME_BYTES + 2 * CHUNK_BYTES {
            return Err(io::Error::other(format!(
                "a game longer than {} MiB, not read",
                MAX_GAME_BYTES >> 20
            )));
        }
        let n = self.inner.read(buf)?;
        window.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// A visitor that only learns where each game starts; the reader skips the rest. It keeps the
/// start it was last given, which a failing input's error does not carry.
#[derive(Debug, Default)]
struct Starts(Option<Location>);

impl Visitor for Starts {
    type Tags = ();
    type Movetext = ();
    type Output = Location;
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, ()> {
        self.0 = Some(at);
        ControlFlow::Break(Ok(at))
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, ()> {
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, (): ()) -> Result<Location, PgnError> {
        // Never called: every game stops at `begin_game`.
        Ok(Location::default())
    }
}

/// The chunks of an input, in order; an [`io::Error`] ends them.
#[derive(Debug)]
pub(crate) struct Chunks<R> {
    cut: Cut<R>,
    /// Buffers of chunks done with, given back ([`Chunks::recycling`]).
    spare: Option<Receiver<Vec<u8>>>,
}

/// How [`Chunks`] cuts: at boundaries, or (for good, past a stretch without one or a failure)
/// at game starts.
#[derive(Debug)]
enum Cut<R> {
    Boundaries(Boundaries<R>),
    GameStarts(GameStarts<Rest<R>>),
    /// Between the two (only while [`Chunks::next`] changes over).
    Changing,
}

/// Cutting at the game boundaries of [`BoundaryScan`].
#[derive(Debug)]
struct Boundaries<R> {
    input: R,
    /// The bytes read from the last boundary (or the input's start) on: `pending[..filled]`.
    /// Past them, `pending` holds bytes of no meaning, whose room is read into without being
    /// cleared first (a buffer given back is as long as its last chunk).
    pending: Vec<u8>,
    filled: usize,
    /// Where `pending` starts: its offset and line in the input.
    offset: u64,
    line: u64,
    scan: BoundaryScan,
    eof: bool,
}

/// The bytes a cut at boundaries had read, then the rest of the input (or its failure).
#[derive(Debug)]
struct Rest<R> {
    read: Cursor<Vec<u8>>,
    input: Result<R, Option<io::Error>>,
}

impl<R: Read> Read for Rest<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.read.read(buf)?;
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        match &mut self.input {
            Ok(input) => input.read(buf),
            Err(failure) => failure.take().map_or(Ok(0), Err),
        }
    }
}

impl<R: Read> Chunks<R> {
    pub(crate) fn new(input: R) -> Chunks<R> {
        Chunks {
            cut: Cut::Boundaries(Boundaries {
                input,
                pending: Vec::with_capacity(CHUNK_BYTES + SCAN_STEP),
                filled: 0,
                offset: 0,
                line: 1,
                scan: BoundaryScan::new(true),
                eof: false,
            }),
            spare: None,
        }
    }

    /// Chunks whose buffers are taken, where they can be, from those `spare` gives back (the
    /// workers', once done with their chunks): no allocation, and no clearing of the room read
    /// into, for a chunk.
    pub(crate) fn recycling(self, spare: Receiver<Vec<u8>>) -> Chunks<R> {
        Chunks {
            spare: Some(spare),
            ..self
        }
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        let cut = match &mut self.cut {
            Cut::GameStarts(starts) => {
                // Chunks cut so are copies: the buffers given back are dropped, not kept.
                if let Some(spare) = &self.spare {
                    while spare.try_recv().is_ok() {}
                }
                return starts.next();
            }
            Cut::Boundaries(cut) => cut,
            Cut::Changing => return None,
        };
        loop {
            let pending = &cut.pending[..cut.filled];
            if let Some(end) = cut.scan.next(pending, CHUNK_BYTES, cut.eof) {
                let spare = self.spare.as_ref().and_then(|spare| spare.try_recv().ok());
                let mut rest = spare.unwrap_or_else(|| Vec::with_capacity(CHUNK_BYTES + SCAN_STEP));
                let carried = cut.filled - end;
                if rest.len() < carried {
                    rest.resize(carried, 0);
                }
                rest[..carried].copy_from_slice(&cut.pending[end..cut.filled]);
                let mut bytes = core::mem::replace(&mut cut.pending, rest);
                bytes.truncate(end);
                cut.filled = carried;
                return Some(Ok(cut.chunk(bytes, end)));
            }
            if cut.eof {
                let mut bytes = core::mem::take(&mut cut.pending);
                bytes.truncate(cut.filled);
                cut.filled = 0;
                let end = bytes.len();
                return (end > 0).then(|| Ok(cut.chunk(bytes, end)));
            }
            let failure = if cut.filled >= SCAN_LIMIT {
                None
            } else {
                // The input's first read asks for a step only, so that a small file clears and
                // touches no more room than that (a 2 KB file's `select` 17.4 -> 14.5 µs).
                let want = if cut.offset == 0 && cut.filled == 0 {
                    SCAN_STEP
                } else {
                    CHUNK_BYTES.saturating_sub(cut.filled).max(SCAN_STEP)
                };
                match read_up_to(&mut cut.input, &mut cut.pending, cut.filled, want) {
                    Ok(n) => {
                        cut.filled += n;
                        cut.eof = n < want;
                        continue;
                    }
                    Err((error, n)) => {
                        cut.filled += n;
                        Some(error)
                    }
                }
            };
            // No boundary for long, or a failure: from the last boundary on, cut at game
            // starts (which also keeps the games read whole before a failure).
            let Cut::Boundaries(cut) = core::mem::replace(&mut self.cut, Cut::Changing) else {
                return None;
            };
            let mut pending = cut.pending;
            pending.truncate(cut.filled);
            let rest = Rest {
                read: Cursor::new(pending),
                input: match failure {
                    None => Ok(cut.input),
                    Some(error) => Err(Some(error)),
                },
            };
            self.cut = Cut::GameStarts(GameStarts::new(rest, (cut.offset, cut.line)));
            return self.next();
        }
    }
}

/// Reads up to `want` bytes of `input` into `buf` from `filled` on, fewer only at the input's
/// end, and gives how many: `input.take(want).read_to_end`, but in reads as large as the room
/// left (a few system calls a chunk instead of reads that start small for each call), into
/// room that is cleared only where `buf` is shorter than `filled + want`. On an error, also
/// how many bytes were read before it.
fn read_up_to(
    input: &mut impl Read,
    buf: &mut Vec<u8>,
    filled: usize,
    want: usize,
) -> Result<usize, (io::Error, usize)> {
    if buf.len() < filled + want {
        buf.resize(filled + want, 0);
    }
    crate::input::fill(input, &mut buf[filled..filled + want])
}

impl<R> Boundaries<R> {
    /// The chunk of `bytes`, the pending bytes up to `end`; what follows starts the next.
    fn chunk(&mut self, bytes: Vec<u8>, end: usize) -> Chunk {
        let chunk = Chunk {
            bytes,
            offset: self.offset,
            location: Location {
                line: self.line,
                column: 1,
            },
            skip: Vec::new(),
        };
        self.offset += end as u64;
        self.line += self.scan.newlines();
        self.scan = BoundaryScan::new(false);
        chunk
    }
}

/// Chunks cut where a reader finds each game starting, in order; an [`io::Error`] ends them.
#[derive(Debug)]
struct GameStarts<R> {
    reader: Reader<Tee<R>>,
    /// Where the reader's input starts in the whole input: its offset and line (a line start).
    base: (u64, u64),
    window: Arc<Mutex<Window>>,
    cursor: LineCursor,
    /// The first game of the chunk being filled: its offset (relative to the window) and
    /// location.
    first: Option<(usize, Location)>,
    /// The offset (relative to the window) of the last game start seen.
    last: usize,
    /// An error to give after the chunk before it.
    error: Option<io::Error>,
    done: bool,
}

impl<R: Read> GameStarts<R> {
    /// Cuts `input`, which begins at a line start `base` (offset, line) of the whole input.
    fn new(input: R, base: (u64, u64)) -> GameStarts<R> {
        let window = Arc::new(Mutex::new(Window::default()));
        let tee = Tee {
            inner: input,
            window: Arc::clone(&window),
        };
        GameStarts {
            reader: Reader::new(tee),
            base,
            window,
            cursor: LineCursor::new(b""),
            first: None,
            last: 0,
            error: None,
            done: false,
        }
    }

    /// The chunk from the first game held to `end` (relative to the window); the window then
    /// drops what it no longer needs.
    fn take(&mut self, end: usize) -> Option<Chunk> {
        let (start, location) = self.first.take()?;
        let mut window = lock(&self.window);
        let (base_offset, base_line) = self.base;
        let chunk = Chunk {
            bytes: window.bytes[start..end].to_vec(),
            offset: base_offset + window.base + start as u64,
            location: Location {
                line: base_line + location.line - 1,
                ..location
            },
            skip: Vec::new(),
        };
        let drop = self.cursor.line_start().min(end);
        window.bytes.drain(..drop);
        window.base += drop as u64;
        self.cursor.rebase(drop);
        self.last -= drop.min(self.last);
        Some(chunk)
    }
}

impl<R: Read> Iterator for GameStarts<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        if let Some(error) = self.error.take() {
            self.done = true;
            return Some(Err(error));
        }
        while !self.done {
            let mut starts = Starts::default();
            match self.reader.read_game(&mut starts) {
                None => {
                    self.done = true;
                    let end = lock(&self.window).bytes.len();
                    return self.take(end).map(Ok);
                }
                Some(Err(error)) => {
                    // The game being read is not whole: give the ones before it (each read to
                    // its end when its start was given), then the error. They end where the
                    // failing game began, or where the reader stopped if it failed before one
                    // began.
                    let end = {
                        let window = lock(&self.window);
                        let failed_at = starts.0.unwrap_or(error.location);
                        self.cursor
                            .offset_of(&window.bytes, failed_at)
                            .max(self.last)
                    };
                    let error = match error.kind {
                        PgnErrorKind::Io(failure) => io::Error::from(failure),
                        kind => io::Error::other(kind.to_string()),
                    };
                    match self.take(end).filter(|chunk| !chunk.bytes.is_empty()) {
                        Some(chunk) => {
                            self.error = Some(error);
                            return Some(Ok(chunk));
                        }
                        None => {
                            self.done = true;
                            return Some(Err(error));
                        }
                    }
                }
                Some(Ok(at)) => {
                    let window = lock(&self.window);
                    if self.base.0 == 0
                        && window.base == 0
                        && self.first.is_none()
                        && self.last == 0
                    {
                        // The input's first game: the window now shows whether a byte order mark
                        // leads.
                        self.cursor = LineCursor::new(&window.bytes);
                    }
                    let start = self.cursor.offset_of(&window.bytes, at);
                    drop(window);
                    self.last = start;
                    match self.first {
                        None => self.first = Some((start, at)),
                        Some((first, _)) if start - first >= CHUNK_BYTES => {
                            let chunk = self.take(start);
                            // `take` moved the window: `last` is this game's start in it now.
                            self.first = Some((self.last, at));
                            return chunk.map(Ok);
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use caissa_notation::pgn::GameTreeBuilder;

    use super::*;

    const SAMPLES: [&str; 3] = [
        "lichess-2025-05-sample.pgn",
        "mliebelt-sample-games.pgn",
        "cm-pgn-test-list.pgn",
    ];

    fn sample(name: &str) -> Vec<u8> {
        let path = format!("{}/../../data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(path).expect("the sample PGN files are in data/pgn")
    }

    /// Every game's text, as the chunks cut them, with where it starts.
    fn games_in_chunks(input: &[u8], chunk_games: bool) -> Vec<(String, Location)> {
        let mut games = Vec::new();
        for chunk in Chunks::new(input) {
            let chunk = chunk.expect("in memory");
            let at = usize::try_from(chunk.offset).expect("small");
            assert_eq!(&input[at..at + chunk.bytes.len()], &chunk.bytes[..]);
            let mut reader = Reader::new(&chunk.bytes[..]);
            while let Some(game) = reader.read_game(&mut GameTreeBuilder) {
                let text = match game {
                    Ok(tree) => tree.to_export_string(),
                    Err(error) => format!("error {}", chunk.input_location(error.location)),
                };
                games.push((text, chunk.location));
                if !chunk_games {
                    games.last_mut().expect("pushed").1 = Location::default();
                }
            }
        }
        games
    }

    fn games_streamed(input: &[u8]) -> Vec<(String, Location)> {
        Reader::new(input)
            .games(&mut GameTreeBuilder)
            .map(|game| match game {
                Ok(tree) => (tree.to_export_string(), Location::default()),
                Err(error) => (format!("error {}", error.location), Location::default()),
            })
            .collect()
    }

    #[test]
    fn chunks_hold_the_games_the_stream_holds() {
        let bad = "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 {oops\n\n[Event \"c\"]\n1. d4 *\n";
        let mut all = Vec::new();
        for name in SAMPLES {
            all.extend(sample(name));
            all.extend_from_slice(bad.as_bytes());
        }
        // Several chunks long.
        let mut input = b"\xef\xbb\xbf".to_vec();
        while input.len() < 3 * CHUNK_BYTES {
            input.extend_from_slice(&all);
        }
        let chunks = Chunks::new(&input[..]).count();
        assert!(chunks >= 3, "{chunks} chunks");
        assert_eq!(games_in_chunks(&input, false), games_streamed(&input));
    }

    #[test]
    fn a_chunk_knows_where_it_starts() {
        let input = b"\xef\xbb\xbf[Event \"a\"]\n\n1. e4 *\n\n  \n   1. d4 *\n";
        let chunk = Chunks::new(&input[..])
            .next()
            .expect("a chunk")
            .expect("in memory");
        // The first chunk starts with the input, its byte order mark too.
        assert_eq!(
            (chunk.offset, chunk.location),
            (0, Location { line: 1, column: 1 })
        );
        // Cut at game starts, a chunk starts with its first game.
        let mut starts = GameStarts::new(&input[..], (0, 1));
        let chunk = starts.next().expect("a chunk").expect("in memory");
        assert_eq!(
            (chunk.offset, chunk.location),
            (3, Location { line: 1, column: 1 })
        );
        let mut cursor = LineCursor::new(input);
        assert_eq!(cursor.offset_of(input, Location { line: 1, column: 2 }), 4);
        assert_eq!(cursor.offset_of(input, Location { line: 6, column: 4 }), 31);
        assert_eq!(input[31], b'1');
    }

    /// Past a stretch without boundaries longer than [`SCAN_LIMIT`] (games without tags), the
    /// input is cut at game starts, from the last boundary on: the games and their errors'
    /// locations are the stream's, and no chunk is much longer than [`CHUNK_BYTES`].
    #[test]
    fn games_without_tags_are_cut_at_their_starts() {
        let tagged = "[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(CHUNK_BYTES / 40);
        let mut input = tagged.clone().into_bytes();
        while input.len() < tagged.len() + SCAN_LIMIT + CHUNK_BYTES {
            input.extend_from_slice(b"1. d4 d5 *\n\n1. e4 Ke7 Kd2 *\n\n");
        }
        input.extend_from_slice(tagged.as_bytes());
        input.extend_from_slice(b"[Event \"z\"]\n\n1. c4 {unended\n");
        let chunks: Vec<Chunk> = Chunks::new(&input[..])
            .map(|chunk| chunk.expect("in memory"))
            .collect();
        let longest = chunks.iter().map(|chunk| chunk.bytes.len()).max();
        assert!(longest < Some(CHUNK_BYTES + 64), "{longest:?}");
        // One after the other, from the input's start to its end.
        let mut at = 0;
        for chunk in &chunks {
            assert_eq!(chunk.offset, at);
            at += chunk.bytes.len() as u64;
        }
        assert_eq!(at, input.len() as u64);
        assert_eq!(games_in_chunks(&input, false), games_streamed(&input));
    }

    /// An input that fails after `good` bytes.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The bytes of the chunks of `input` up to their error, and how many whole games a reader
    /// of the same input gives before the error.
    fn read_until_failure(input: &[u8]) -> (Vec<u8>, usize) {
        let mut read = Vec::new();
        let mut chunks = Chunks::new(Failing(input));
        let error = loop {
            match chunks.next().expect("chunks, then the error") {
                Ok(chunk) => read.extend(chunk.bytes),
                Err(error) => break error,
            }
        };
        assert!(error.to_string().contains("disk on fire"), "{error}");
        assert!(chunks.next().is_none());
        let mut reader = Reader::new(Failing(input));
        let mut whole = 0;
        while let Some(Ok(_)) = reader.read_game(&mut Starts::default()) {
            whole += 1;
        }
        (read, whole)
    }

    /// Every game a reader gives whole before the input fails is in the chunks, up to the
    /// start of the one it failed in (the reader gives each game that ends before the last
    /// byte read, and the failure for the one that runs into it).
    #[test]
    fn an_input_error_gives_the_whole_games_then_the_error() {
        let game = b"1. e4 *\n\n";
        let mut input = game.repeat(30_000);
        input.extend_from_slice(b"1. c4");
        let (read, whole) = read_until_failure(&input);
        assert!(whole > 29_000, "{whole}");
        assert_eq!(read, input[..whole * game.len()]);
        let game = b"[Event \"a\"]\n\n1. e4 *\n\n";
        let input = game.repeat(9_000);
        let (read, whole) = read_until_failure(&input);
        assert!(whole > 8_000, "{whole}");
        assert_eq!(read, input[..whole * game.len()]);
    }
}
