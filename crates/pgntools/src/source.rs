//! Cutting an input into chunks of whole games, so that workers can read them in parallel.
//!
//! [`Chunks`] reads the input once with notation's [`Reader`], skipping every game (no move is
//! looked at), only to learn where each game starts; it hands out the bytes between game starts
//! about a megabyte at a time, with where they start in the input. A worker then reads a chunk
//! with its own `Reader` and finds exactly the games the whole stream holds, since a reader that
//! starts at a game's first byte reads that game as the stream's reader does.
//!
//! This is the seam for notation's parallel reader: when it is public, it replaces this module.
//!
//! Memory: the chunk being filled (at most [`CHUNK_BYTES`] plus one game) and the reader's
//! buffer. A game longer than [`MAX_GAME_BYTES`] ends the input with an error.

use core::cell::RefCell;
use core::ops::ControlFlow;
use std::io::{self, Read};
use std::rc::Rc;

use caissa_notation::pgn::{Flow, Location, PgnError, PgnErrorKind, Reader, Visitor};

/// About how many bytes a chunk holds: it ends at the first game start past this.
pub(crate) const CHUNK_BYTES: usize = 1 << 20;

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
}

impl Chunk {
    /// Where a place in the chunk (a [`Location`] a reader of `bytes` reports) is in the input.
    pub(crate) fn input_location(&self, at: Location) -> Location {
        Location {
            line: self.location.line + at.line - 1,
            column: if at.line == 1 {
                self.location.column + at.column - 1
            } else {
                at.column
            },
        }
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

/// A reader that keeps a copy of what passes through it in a [`Window`].
#[derive(Debug)]
struct Tee<R> {
    inner: R,
    window: Rc<RefCell<Window>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut window = self.window.borrow_mut();
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

/// A visitor that only learns where each game starts; the reader skips the rest.
#[derive(Debug)]
struct Starts;

impl Visitor for Starts {
    type Tags = ();
    type Movetext = ();
    type Output = Location;
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, ()> {
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
    reader: Reader<Tee<R>>,
    window: Rc<RefCell<Window>>,
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

impl<R: Read> Chunks<R> {
    pub(crate) fn new(input: R) -> Chunks<R> {
        let window = Rc::new(RefCell::new(Window::default()));
        let tee = Tee {
            inner: input,
            window: Rc::clone(&window),
        };
        Chunks {
            reader: Reader::new(tee),
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
        let mut window = self.window.borrow_mut();
        let chunk = Chunk {
            bytes: window.bytes[start..end].to_vec(),
            offset: window.base + start as u64,
            location,
        };
        let drop = self.cursor.line_start().min(end);
        window.bytes.drain(..drop);
        window.base += drop as u64;
        self.cursor.rebase(drop);
        self.last -= drop.min(self.last);
        Some(chunk)
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        if let Some(error) = self.error.take() {
            self.done = true;
            return Some(Err(error));
        }
        while !self.done {
            match self.reader.read_game(&mut Starts) {
                None => {
                    self.done = true;
                    let end = self.window.borrow().bytes.len();
                    return self.take(end).map(Ok);
                }
                Some(Err(error)) => {
                    let error = match error.kind {
                        PgnErrorKind::Io(failure) => io::Error::from(failure),
                        kind => io::Error::other(kind.to_string()),
                    };
                    // The game being read is not whole: give the ones before it, then the error.
                    let last = self.last;
                    match self.take(last).filter(|chunk| !chunk.bytes.is_empty()) {
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
                    let window = self.window.borrow();
                    if window.base == 0 && self.first.is_none() && self.last == 0 {
                        // The first game: the window now shows whether a byte order mark leads.
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
        // Several megabytes, so that there are several chunks.
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
        assert_eq!(
            (chunk.offset, chunk.location),
            (3, Location { line: 1, column: 1 })
        );
        let mut cursor = LineCursor::new(input);
        assert_eq!(cursor.offset_of(input, Location { line: 1, column: 2 }), 4);
        assert_eq!(cursor.offset_of(input, Location { line: 6, column: 4 }), 31);
        assert_eq!(input[31], b'1');
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

    #[test]
    fn an_input_error_gives_the_whole_games_then_the_error() {
        let mut input = b"1. e4 *\n\n".repeat(30_000);
        let whole = input.len();
        input.extend_from_slice(b"1. c4");
        let mut read = Vec::new();
        let mut chunks = Chunks::new(Failing(&input));
        let error = loop {
            match chunks.next().expect("chunks, then the error") {
                Ok(chunk) => read.extend(chunk.bytes),
                Err(error) => break error,
            }
        };
        assert!(error.to_string().contains("disk on fire"), "{error}");
        assert!(chunks.next().is_none());
        // Whole games only, up to some game's start.
        assert!(!read.is_empty() && read.len() <= whole);
        assert_eq!(read, input[..read.len()]);
        assert!(input[read.len()..].starts_with(b"1. "));
    }
}
