//! Byte ranges of a seekable input at game boundaries, found without reading the input from its
//! start: what a file is cut into when each range goes to another machine (a Dask or Spark
//! task) that reads only its own bytes. [`ranges`] cuts where [`chunks`](super::chunks) cuts
//! the same bytes, with the same boundary rule (the same code, [`BoundaryScan`]) applied to a
//! window read around each cut; the docs of [`ranges`] say how.

use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;

use super::chunks::{BoundaryScan, TAG_PAIR_PREFIX, ends_line, line_ends};

/// The most bytes a search for a boundary holds at once: 16 MiB.
pub const MAX_SEEK_WINDOW: usize = 16 << 20;

/// How far a search reads before and after its offset at first: 64 KiB.
const FIRST_WINDOW: usize = 64 << 10;

/// The window sizes of a search: the first, before and after the offset, and the largest.
#[derive(Clone, Copy, Debug)]
struct Windows {
    first: usize,
    max: usize,
}

impl Windows {
    const DEFAULT: Windows = Windows {
        first: FIRST_WINDOW,
        max: MAX_SEEK_WINDOW,
    };
}

/// Cuts a seekable input into byte ranges at game boundaries, each ending at the first boundary
/// at or after `size` bytes (at least 1) from its start, or at the end of the input: the ranges
/// of the [`Chunk`](super::Chunk)s that [`chunks`](super::chunks)`(input, size)` gives, found
/// by reading a window around each cut rather than the whole input (see
/// [Windows](#windows) for the one way they may differ).
///
/// The ranges cover the input, in order, and each begins a line. The input is read as it is:
/// compressed input must be decompressed first (its byte ranges cannot be read alone).
///
/// A range read alone gives the games that a reader of the whole input gives there; only its
/// lines are counted from 1 instead of from the range's first line, which [`line_at`] counts
/// when it is needed (for an error's place, say): a reader of range `r` reports line `n` where
/// the whole input has line `line_at(input, r.start) + n - 1`, and the same columns.
///
/// # Windows
///
/// A boundary depends on its line and the line before it, and the line before it may begin
/// anywhere earlier. The search for a cut ([`boundary_at_or_after`]) reads 64 KiB before the
/// offset and 64 KiB after it; when that holds no start of the line before the first
/// candidate, it reads twice as far back, and when the lines go on past the window without a
/// boundary, it goes on from the last line it could judge, or reads twice as far ahead. A
/// window never holds more than [`MAX_SEEK_WINDOW`] bytes: a line too long to fit (with the
/// line before it) is passed over as if no boundary could follow it, so the search may find a
/// later boundary than [`chunks`](super::chunks) does. It is still a boundary: the ranges
/// still read exactly as the whole input, one is only larger. Lines shorter than half the
/// window limit (8 MiB) never make that difference.
///
/// # Errors
///
/// An [`io::Error`] from seeking to the end to learn the input's length; the iterator yields
/// one for a read or seek that fails, and then ends.
///
/// # Examples
///
/// ```
/// use std::io::Cursor;
/// use caissa_notation::pgn::{Reader, Replayer, line_at, ranges};
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Kd7 *\n";
/// let cuts = ranges(Cursor::new(pgn), 1)?.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(cuts, [0..25, 25..pgn.len() as u64]);
/// // The second range read alone: its lines count from 1, the input's from line_at.
/// let mut second = Reader::new(&pgn[25..]);
/// let error = second.read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// let first_line = line_at(Cursor::new(pgn), 25)?;
/// let at = error.location;
/// assert_eq!((first_line, at.line + first_line - 1, at.column), (5, 7, 7));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn ranges<R: Read + Seek>(mut input: R, size: usize) -> io::Result<Ranges<R>> {
    let len = input.seek(SeekFrom::End(0))?;
    Ok(Ranges {
        input,
        len,
        next: 0,
        size: size.max(1) as u64,
        windows: Windows::DEFAULT,
        buffer: Vec::new(),
    })
}

/// The iterator of [`ranges`].
#[derive(Debug)]
pub struct Ranges<R> {
    input: R,
    len: u64,
    /// Where the next range begins.
    next: u64,
    size: u64,
    windows: Windows,
    /// The window being looked at, kept for the next search.
    buffer: Vec<u8>,
}

impl<R: Read + Seek> Iterator for Ranges<R> {
    type Item = io::Result<Range<u64>>;

    fn next(&mut self) -> Option<io::Result<Range<u64>>> {
        let start = self.next;
        if start >= self.len {
            return None;
        }
        let from = start.saturating_add(self.size);
        let found = search(
            &mut self.input,
            self.len,
            from,
            self.windows,
            &mut self.buffer,
        );
        // After a failure, nothing more.
        self.next = *found.as_ref().unwrap_or(&self.len);
        Some(found.map(|end| start..end))
    }
}

/// The first game boundary (see [`chunks`](super::chunks)) at or after `offset` (at least 1)
/// of a seekable input, or its length if there is none; read from a window around `offset`
/// (see [`ranges`]), never from the input's start unless `offset` is near it.
///
/// # Errors
///
/// An [`io::Error`] from seeking or reading `input`.
///
/// # Examples
///
/// ```
/// use std::io::Cursor;
/// use caissa_notation::pgn::boundary_at_or_after;
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
/// assert_eq!(boundary_at_or_after(Cursor::new(pgn), 3)?, 25);
/// assert_eq!(boundary_at_or_after(Cursor::new(pgn), 25)?, 25);
/// assert_eq!(boundary_at_or_after(Cursor::new(pgn), 26)?, pgn.len() as u64);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn boundary_at_or_after<R: Read + Seek>(mut input: R, offset: u64) -> io::Result<u64> {
    let len = input.seek(SeekFrom::End(0))?;
    search(&mut input, len, offset, Windows::DEFAULT, &mut Vec::new())
}

/// The line (from 1) that holds byte `offset` of `input`, as a [`Reader`](super::Reader) of
/// the whole input counts lines (LF, CRLF or a lone CR end one): one more than the line ends
/// before `offset`. Reads the input up to `offset`, counting at the speed of vector
/// instructions; an offset past the end gives the line after the input's last line end.
///
/// # Errors
///
/// An [`io::Error`] from reading `input`.
///
/// # Examples
///
/// ```
/// use caissa_notation::pgn::line_at;
///
/// assert_eq!(line_at(&b"1. e4 *\r\n\r\n[Event \"b\"]\r"[..], 11)?, 3);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn line_at<R: Read>(input: R, offset: u64) -> io::Result<u64> {
    // Each line end is told by the byte after it: read one byte past `offset`, and count the
    // line ends of each block but its last byte, which goes to the front of the next one.
    let mut input = input.take(offset.saturating_add(1));
    let mut block = vec![0; 1 << 16];
    let mut held = 0;
    let mut ends = 0;
    loop {
        let n = match input.read(&mut block[held..]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let filled = held + n;
        ends += line_ends(&block[..filled]);
        block[0] = block[filled - 1];
        held = 1;
    }
    // The last byte is `offset`'s, or, for an input that ends before it, its last, which ends
    // a line if it is a line end.
    if input.limit() > 0 && held == 1 && matches!(block[0], b'\n' | b'\r') {
        ends += 1;
    }
    Ok(1 + ends)
}

/// What a window tells about the first boundary at or after an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    /// The boundary, or the input's length if there is none.
    At(u64),
    /// The window begins too late: it holds no line start before the line that holds the byte
    /// before the offset.
    Earlier,
    /// No boundary at or after the offset and before this one (which is the offset itself if
    /// the window told nothing): look on from there.
    Later(u64),
}

/// The first boundary at or after `from` (at least 1) of an input of `len` bytes.
fn search<R: Read + Seek>(
    input: &mut R,
    len: u64,
    from: u64,
    windows: Windows,
    window: &mut Vec<u8>,
) -> io::Result<u64> {
    let first = (windows.first.max(1), windows.first.max(TAG_PAIR_PREFIX));
    let mut from = from.max(1);
    let (mut back, mut ahead) = first;
    while from < len {
        let start = from.saturating_sub(back as u64);
        let end = from.saturating_add(ahead as u64).min(len);
        read_window(input, start, end, window)?;
        match look(window, start, from, end == len) {
            Look::At(boundary) => return Ok(boundary),
            Look::Later(later) if later > from => {
                from = later;
                (back, ahead) = first;
            }
            _ if back + ahead >= windows.max => {
                from = past_next_line(window, start, from);
                (back, ahead) = first;
            }
            Look::Earlier => back = (back * 2).min(windows.max - ahead),
            Look::Later(_) => ahead = (ahead * 2).min(windows.max - back),
        }
    }
    Ok(len)
}

/// Reads the bytes of `input` from `start` to `end` into `window`.
fn read_window<R: Read + Seek>(
    input: &mut R,
    start: u64,
    end: u64,
    window: &mut Vec<u8>,
) -> io::Result<()> {
    input.seek(SeekFrom::Start(start))?;
    window.clear();
    let want = end - start;
    input.take(want).read_to_end(window)?;
    if (window.len() as u64) < want {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the input ended at {} of {end} bytes",
                start + window.len() as u64
            ),
        ));
    }
    Ok(())
}

/// What `window`, the input's bytes from `start` (before `from`, and holding the byte before
/// it), tells about the first boundary at or after `from`; `at_end` if the window ends the
/// input.
fn look(window: &[u8], start: u64, from: u64, at_end: bool) -> Look {
    // The scan begins at a line start: the input's, or the first the window shows.
    let first = if start == 0 {
        0
    } else {
        let end = (0..window.len()).find(|&i| match window.get(i + 1) {
            Some(&next) => ends_line(window[i], next),
            None => at_end || window[i] == b'\n',
        });
        match end {
            Some(end) => end + 1,
            None => return Look::Earlier,
        }
    };
    let base = start + first as u64;
    if base >= from {
        return Look::Earlier;
    }
    let mut scan = BoundaryScan::new(start == 0);
    // At most the window's length, which is a `usize`.
    let from_base = usize::try_from(from - base).unwrap_or(usize::MAX);
    match scan.next(&window[first..], from_base, at_end) {
        Some(cut) => Look::At(base + cut as u64),
        None if at_end => Look::At(start + window.len() as u64),
        None => Look::Later(from.max(base + scan.undecided() as u64)),
    }
}

/// Where a search goes on when a window as large as allowed told nothing: past the start of
/// the line after the one that holds the byte before `from`, which is taken for no boundary
/// (the line before it is too long to see whole), or past the window if that line does not
/// end in it.
fn past_next_line(window: &[u8], start: u64, from: u64) -> u64 {
    let before = usize::try_from(from - 1 - start).unwrap_or(usize::MAX);
    let end = (before..window.len()).find(|&i| {
        window
            .get(i + 1)
            .map_or(window[i] == b'\n', |&b| ends_line(window[i], b))
    });
    match end {
        Some(end) => start + end as u64 + 2,
        None => start + window.len() as u64,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::super::chunks::chunks;
    use super::super::reader::Reader;
    use super::super::replay::Replayer;
    use super::*;

    /// The sample files of `data/pgn`, by name.
    fn samples() -> Vec<(&'static str, Vec<u8>)> {
        [
            "cm-pgn-test-list.pgn",
            "lichess-2025-05-sample.pgn",
            "mliebelt-sample-games.pgn",
        ]
        .into_iter()
        .map(|name| {
            let path = format!("{}/../../data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
            (name, text)
        })
        .collect()
    }

    /// The text with LF, lone CR and CRLF line ends.
    fn line_end_variants(text: &[u8]) -> [Vec<u8>; 3] {
        let cr = text
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        let crlf = text.iter().fold(Vec::new(), |mut out, &b| {
            if b == b'\n' {
                out.push(b'\r');
            }
            out.push(b);
            out
        });
        [text.to_vec(), cr, crlf]
    }

    /// The boundaries of `input`, all found by cutting it whole, and its length.
    fn boundaries(input: &[u8]) -> Vec<u64> {
        let mut all: Vec<u64> = chunks(input, 1).skip(1).map(|c| c.offset()).collect();
        all.push(input.len() as u64);
        all
    }

    /// The first boundary at or after `offset` (at least 1) of all the boundaries, or the
    /// input's length, their last.
    fn expected(all: &[u64], offset: u64) -> u64 {
        let from = offset.max(1);
        let end = all.len() - 1;
        all[all.partition_point(|&b| b < from).min(end)]
    }

    fn find(input: &[u8], offset: u64, windows: Windows) -> u64 {
        let mut cursor = Cursor::new(input);
        search(
            &mut cursor,
            input.len() as u64,
            offset,
            windows,
            &mut Vec::new(),
        )
        .expect("a slice reads")
    }

    /// From every `stride`-th offset, the boundary found with small windows is the first one at
    /// or after it; from the rest, with a window larger than the input too.
    fn check_offsets(input: &[u8], stride: usize, what: &str) {
        let all = boundaries(input);
        let small = Windows {
            first: 16,
            max: 1 << 16,
        };
        for offset in (0..=input.len() + 1).step_by(stride) {
            let offset = offset as u64;
            let want = expected(&all, offset);
            assert_eq!(find(input, offset, small), want, "{what}, from {offset}");
        }
        for offset in (0..=input.len()).step_by(stride * 101 + 1) {
            let offset = offset as u64;
            assert_eq!(
                find(input, offset, Windows::DEFAULT),
                expected(&all, offset),
                "{what}, from {offset}"
            );
        }
    }

    #[test]
    fn the_boundary_from_an_offset_is_the_first_at_or_after_it() {
        for (name, text) in samples() {
            let stride = if text.len() > 100_000 { 61 } else { 1 };
            for (ends, input) in ["LF", "CR", "CRLF"].iter().zip(line_end_variants(&text)) {
                check_offsets(&input, stride, &format!("{name} with {ends}"));
            }
        }
        let text = "\u{feff}%x\n[Event \"a\"]\n\n[Event \"b\"]\n1. e4 {\n[x]\n} e5 *\n\n%\n\
                    [Event \"c\"]\n\n1. d4 *\n[C \"\"]\n \t\n[D \"\"]\n";
        for input in line_end_variants(text.as_bytes()) {
            check_offsets(&input, 1, "the small text");
        }
        // The byte order mark and a `%` line count only at the input's start.
        let text = "1. e4 *\n\u{feff}%x\n[Event \"a\"]\n";
        check_offsets(text.as_bytes(), 1, "a mark after the start");
    }

    /// Lines far longer than the first window, and than the largest: the boundary found is the
    /// first when the window may hold the long lines, and a boundary in any case.
    #[test]
    fn long_lines_widen_the_window_or_are_passed_over() {
        let mut input = Vec::new();
        for (n, long) in [2000, 20, 3000, 40, 1500].into_iter().enumerate() {
            input.extend_from_slice(format!("[Event \"{n}\"]\n\n1. e4 {{").as_bytes());
            input.extend(std::iter::repeat_n(b'x', long));
            input.extend_from_slice(b"} *\n");
            input.extend(std::iter::repeat_n(b' ', long / 2));
            input.extend_from_slice(b"\n[Site \"\"]\n\n");
        }
        let all = boundaries(&input);
        // The `[Event` lines, and the `[Site` lines after a line of blanks.
        assert_eq!(all.len(), 10);
        let wide = Windows {
            first: 8,
            max: 16 << 10,
        };
        let narrow = Windows { first: 8, max: 512 };
        for offset in 0..=input.len() as u64 {
            let want = expected(&all, offset);
            assert_eq!(find(&input, offset, wide), want, "from {offset}");
            let found = find(&input, offset, narrow);
            assert!(
                found >= want && all.contains(&found),
                "from {offset}: {found}"
            );
        }
        // A line longer than the largest window before a boundary: found past it.
        assert_eq!(find(&input, 1, narrow), all[1]);
    }

    #[test]
    fn the_ranges_are_the_chunks_and_read_as_the_whole_input() {
        for (name, text) in samples() {
            let whole: Vec<String> = Reader::new(&text[..])
                .games(&mut Replayer::new())
                .map(|game| format!("{game:?}"))
                .collect();
            for size in [1, 1000, 4096, 100_000, 10 << 20] {
                let cut = ranges(Cursor::new(&text), size)
                    .expect("a slice seeks")
                    .collect::<io::Result<Vec<_>>>()
                    .expect("a slice reads");
                let chunked: Vec<_> = chunks(&text, size)
                    .map(|c| c.offset()..c.offset() + c.bytes().len() as u64)
                    .collect();
                assert_eq!(cut, chunked, "{name}, size {size}");
                let mut games = Vec::new();
                for range in cut {
                    let line = line_at(&text[..], range.start).expect("a slice reads");
                    let bytes = &text[range.start as usize..range.end as usize];
                    let mut reader = Reader::new(bytes).starting_at_line(line);
                    games.extend(
                        reader
                            .games(&mut Replayer::new())
                            .map(|game| format!("{game:?}")),
                    );
                }
                assert_eq!(games, whole, "{name}, size {size}");
            }
        }
        let empty = ranges(Cursor::new(b""), 1).expect("a slice seeks");
        assert_eq!(empty.count(), 0);
    }

    #[test]
    fn lines_are_counted_as_the_reader_counts_them() {
        for (name, text) in samples() {
            for input in line_end_variants(&text) {
                for chunk in chunks(&input, 2000) {
                    let line = line_at(&input[..], chunk.offset()).expect("a slice reads");
                    assert_eq!(line, chunk.first_line(), "{name} at {}", chunk.offset());
                }
            }
        }
        let at = |text: &[u8], offset| line_at(text, offset).expect("a slice reads");
        assert_eq!(at(b"a\r\nb", 2), 1);
        assert_eq!(at(b"a\r\nb", 3), 2);
        assert_eq!(at(b"a\rb", 2), 2);
        assert_eq!(at(b"a\r", 2), 2);
        assert_eq!(at(b"a\r", 9), 2);
        assert_eq!(at(b"", 0), 1);
        // Longer than a block, a CRLF across the blocks' seam.
        let mut long = vec![b'x'; (1 << 16) - 1];
        long.extend_from_slice(b"\r\n\r\r\n");
        assert_eq!(at(&long, long.len() as u64), 4);
    }
}
