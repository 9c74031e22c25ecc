//! Game boundaries: where PGN input can be cut so that each piece reads alone exactly as it
//! reads in place. [`chunks`] cuts a byte slice; the [`ParallelReader`](super::ParallelReader)
//! cuts streams the same way and hands the pieces to its worker threads, and
//! [`ranges`](super::ranges) cuts a seekable input into byte ranges without reading it from
//! its start. The rule for a boundary, and why it is safe, is in the docs of [`chunks`].

use super::reader::{Reader, TAG_PROBE, looks_like_tag_line};

/// Bytes within which a line's `[Name "` must fit for a boundary to be at that line: fewer than
/// the [`TAG_PROBE`] within which the reader takes such a line for the next game's tags when it
/// is inside a comment.
pub(super) const TAG_PAIR_PREFIX: usize = 32;
const _: () = assert!(TAG_PAIR_PREFIX <= TAG_PROBE);

/// The UTF-8 byte order mark that the reader skips at the start of the input.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// A piece of PGN input that begins at its start or at a boundary and ends at its end or at a
/// boundary (see [`chunks`]), so that [`Chunk::reader`] reads from it exactly the
/// games, errors and locations that a reader of the whole input reads there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    bytes: &'a [u8],
    offset: u64,
    line: u64,
}

impl<'a> Chunk<'a> {
    /// The chunk's bytes.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Where the chunk begins in the input, in bytes.
    #[must_use]
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// The line of the input the chunk begins with, from 1.
    #[must_use]
    pub const fn first_line(&self) -> u64 {
        self.line
    }

    /// A reader of the chunk whose locations are the input's: lines counted from
    /// [`Chunk::first_line`] (columns need no shift, as a chunk begins a line).
    #[must_use]
    pub fn reader(&self) -> Reader<&'a [u8]> {
        Reader::new(self.bytes).starting_at_line(self.line)
    }
}

/// Cuts `input` into [`Chunk`]s at game boundaries, each at the first boundary at or after
/// `size` bytes (at least 1) from its start, or at the end of the input.
///
/// Reading the chunks one after the other, each with its [`Chunk::reader`], gives the games
/// that one reader of the whole input gives, in the same order, with the same locations; the
/// chunks can be read on different threads. The
/// [`ParallelReader`](super::ParallelReader) does that.
///
/// # Boundaries
///
/// A *boundary* is the start of a line `L` where the reader going through the whole input
/// begins a game with nothing carried over, whatever came before. The input is cut before `L`
/// when
///
/// 1. `L` begins, in its first byte, with `[`, a letter, letters, digits or `_`, blanks and `"`,
///    all within its first 32 bytes (it *starts a tag pair*);
/// 2. the line before `L` is not a `%` escape line (its first byte, after a byte order mark at
///    the start of the input, is not `%`), and its first byte that is not a space, tab or
///    carriage return, if any, is not `[`.
///
/// Why the reader begins a game at `L` whatever state it reaches it in (the grammar is in the
/// [module docs](super)):
///
/// - in a `{` comment, a line that starts a tag pair within its first 64 bytes ends the comment,
///   unterminated, and the game: 32 bytes leave a margin;
/// - in movetext (and when skipping it after an error or a stop, or skipping a variation), a
///   line whose first non-blank byte is `[` ends the movetext; a `;` comment or a `%` line ends
///   at its line's end, a tag value cannot span lines, and tokens hold no newline;
/// - in the tags (or when skipping a game with a bad tag), the reader goes on to the next tag
///   pair only over whitespace and `%` lines, and not over a blank line: by (2) the line before
///   `L` is blank (the tags end there), or neither blank, `%` nor a tag pair, so the movetext
///   began there and ends at `L`;
/// - between games, it skips whitespace and `%` lines, and a game begins at the `[` of `L`.
///
/// And the game before `L` reads the same when the input ends at `L` instead: it ends at `L` or
/// before, and what makes it end there (a line starting with `[`, a blank line, a comment ending
/// as unterminated) gives the same result at the end of the input, the only difference its
/// reader sees. No token, tag name or quoted excerpt reaches past a newline, so none is cut
/// short at the piece's end, which is one.
///
/// Lines that start a tag pair follow a blank line or a movetext line at every game in usual
/// files; input without such lines (games without tags, say) is not cut.
///
/// Finding the boundaries looks at each byte a bounded number of times, so cutting takes linear
/// time on any input, however long its lines.
///
/// ```
/// use caissa_notation::pgn::{Replayer, chunks};
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Kd7 *\n";
/// let pieces: Vec<_> = chunks(pgn, 1).collect();
/// assert_eq!(pieces.len(), 2);
/// assert_eq!((pieces[1].offset(), pieces[1].first_line()), (25, 5));
/// let error = pieces[1].reader().read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// assert_eq!(error.location.to_string(), "7:7");
/// ```
#[must_use]
pub fn chunks(input: &[u8], size: usize) -> Chunks<'_> {
    Chunks {
        rest: input,
        offset: 0,
        line: 1,
        size: size.max(1),
    }
}

/// The iterator of [`chunks`].
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    rest: &'a [u8],
    offset: u64,
    line: u64,
    size: usize,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let mut scan = BoundaryScan::new(self.offset == 0);
        let cut = scan
            .next(self.rest, self.size, true)
            .unwrap_or(self.rest.len());
        let (bytes, rest) = self.rest.split_at(cut);
        let chunk = Chunk {
            bytes,
            offset: self.offset,
            line: self.line,
        };
        self.rest = rest;
        self.offset += cut as u64;
        self.line += scan.newlines();
        Some(chunk)
    }
}

/// Looks for the next game boundary (see [`chunks`]) in bytes that may arrive bit by bit,
/// looking at each byte a bounded number of times, and counts the newlines before it: what
/// [`chunks`] does for a slice, for a stream read piece by piece.
///
/// ```
/// use caissa_notation::pgn::BoundaryScan;
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
/// let mut scan = BoundaryScan::new(true);
/// // The bytes so far end inside the second game's first line: not yet known.
/// assert_eq!(scan.next(&pgn[..28], 1, false), None);
/// assert_eq!(scan.next(pgn, 1, false), Some(22));
/// assert_eq!(scan.newlines(), 4);
/// ```
#[derive(Debug)]
pub struct BoundaryScan {
    /// The start of the line to look at next.
    line: usize,
    /// Where the search for that line's end goes on: no newline before it.
    searched: usize,
    /// The newlines before `line`.
    newlines: u64,
    /// Whether the line before `line` lets a boundary be at `line`.
    after_ok: bool,
    /// Whether the bytes are the start of the input.
    input_start: bool,
}

impl BoundaryScan {
    /// A scan of bytes that begin a line, and the input if `input_start`; the first line is no
    /// boundary.
    #[must_use]
    pub const fn new(input_start: bool) -> BoundaryScan {
        BoundaryScan {
            line: 0,
            searched: 0,
            newlines: 0,
            after_ok: false,
            input_start,
        }
    }

    /// After [`BoundaryScan::next`] gave a boundary: the newlines before it (a CRLF counts
    /// once), so that the line it begins is the scanned bytes' first line plus this.
    #[must_use]
    pub const fn newlines(&self) -> u64 {
        self.newlines
    }

    /// After [`BoundaryScan::next`] gave `None`: the start of the first line not yet known to
    /// be no boundary. No line start at or after `from` and before it is a boundary.
    pub(super) const fn undecided(&self) -> usize {
        self.line
    }

    /// The first boundary at or after `from` (at least 1) in `data`, which holds the bytes of
    /// the earlier calls and maybe more; or `None` if there is none in `data`, or not yet: more
    /// bytes may tell unless `eof`. After `Some`, [`BoundaryScan::newlines`] counts the
    /// newlines before the boundary.
    pub fn next(&mut self, data: &[u8], from: usize, eof: bool) -> Option<usize> {
        let from = from.max(1);
        if data.len() < from {
            return None;
        }
        // Lines that end before `from - 1` are no boundary and do not tell whether the next one
        // is: count their newlines in one go, from where the search stopped, up to the line
        // that holds the byte before `from`.
        let before = from - 1;
        if self.searched < before {
            let skipped = &data[self.searched..before];
            let ends = line_ends(&data[self.searched..=before]);
            if ends > 0 {
                let last = (0..skipped.len())
                    .rev()
                    .find(|&i| ends_line(skipped[i], data[self.searched + i + 1]))
                    .expect("a line end among the bytes");
                self.newlines += ends;
                self.line = self.searched + last + 1;
            }
            self.searched = before;
        }
        loop {
            let line = &data[self.line..];
            if self.line >= from && self.after_ok {
                let prefix = &line[..line.len().min(TAG_PAIR_PREFIX)];
                let whole = prefix.iter().any(|&b| b == b'\n' || b == b'\r');
                if prefix.len() < TAG_PAIR_PREFIX && !eof && !whole {
                    return None;
                }
                if looks_like_tag_line(prefix) {
                    return Some(self.line);
                }
            }
            let Some(found) = data[self.searched..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
            else {
                self.searched = data.len();
                return None;
            };
            let found = self.searched + found;
            // A CR ends its line, or the CRLF it begins does; the next byte tells.
            let end = match (data[found], data.get(found + 1)) {
                (b'\r', Some(b'\n')) => found + 1,
                (b'\r', None) if !eof => {
                    self.searched = found;
                    return None;
                }
                _ => found,
            };
            let mut text = &data[self.line..end];
            if self.input_start && self.line == 0 {
                text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
            }
            self.after_ok = text.first() != Some(&b'%')
                && text.iter().find(|&&b| !matches!(b, b' ' | b'\t' | b'\r')) != Some(&b'[');
            self.newlines += 1;
            self.line = end + 1;
            self.searched = end + 1;
        }
    }
}

/// Whether a piece of input may begin at `at` (at most `bytes.len()`): a boundary (see
/// [`chunks`]), where the games before it read the same if the input ended there, and the
/// games from it on the same if the input began there (on the input's line, so that
/// locations are the input's). `bytes` is a piece of the input that begins at a line start,
/// the input's own start if `begins_input`; its start and its end are boundaries too.
///
/// It looks at the line before `at` and 32 bytes from `at` on, whatever their length, so that
/// a caller may ask about every game of a piece in linear time. A piece whose games a reader
/// of the whole input found to run from `a` to `b` (the next game's start) can so be cut out,
/// unread, when both are boundaries: the readers of what is left, before `a` and from `b`,
/// read what a reader of the whole reads there.
///
/// ```
/// use caissa_notation::pgn::is_boundary;
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n%\n[Event \"c\"]\n";
/// let at = |text: &str| pgn.windows(text.len()).position(|w| w == text.as_bytes()).unwrap();
/// assert!(is_boundary(pgn, at("[Event \"b"), true));
/// // After a `%` escape line: no.
/// assert!(!is_boundary(pgn, at("[Event \"c"), true));
/// // Not at a line start.
/// assert!(!is_boundary(pgn, at("e4"), true));
/// assert!(is_boundary(pgn, 0, true) && is_boundary(pgn, pgn.len(), true));
/// ```
#[must_use]
pub fn is_boundary(bytes: &[u8], at: usize, begins_input: bool) -> bool {
    if at == 0 || at >= bytes.len() {
        return at <= bytes.len();
    }
    if !ends_line(bytes[at - 1], bytes[at]) {
        return false;
    }
    // The line before `at` starts after the line end before it, or at the piece's start; its
    // own line end is the byte before `at`, with the CR before it if they are a CRLF.
    let crlf = at >= 2 && bytes[at - 2..at] == *b"\r\n";
    let text_end = at - 1 - usize::from(crlf);
    let line = memchr::memrchr2(b'\n', b'\r', &bytes[..text_end]).map_or(0, |i| i + 1);
    let end = bytes.len().min(at + TAG_PAIR_PREFIX);
    let mut scan = BoundaryScan::new(begins_input && line == 0);
    scan.next(&bytes[line..end], at - line, true) == Some(at - line)
}

/// The line ends in `text` as a reader of `text` alone counts them: every LF, every CR not
/// followed by a LF (a CRLF counts once), a CR at the end too. Counted a vector of bytes at a
/// time.
///
/// ```
/// use caissa_notation::pgn::line_ends_in;
///
/// assert_eq!(line_ends_in(b"a\nb\r\nc\rd"), 3);
/// assert_eq!(line_ends_in(b"a\r"), 1);
/// assert_eq!(line_ends_in(b""), 0);
/// ```
#[must_use]
pub fn line_ends_in(text: &[u8]) -> u64 {
    match text.last() {
        None => 0,
        Some(&last) => line_ends(text) + u64::from(matches!(last, b'\n' | b'\r')),
    }
}

/// Whether `byte`, followed by `next`, ends a line: a LF, or a CR not followed by a LF (the
/// LF of a CRLF ends it).
pub(super) const fn ends_line(byte: u8, next: u8) -> bool {
    byte == b'\n' || (byte == b'\r' && next != b'\n')
}

/// The line ends among all bytes of `bytes` but the last, which only tells whether a CR before
/// it is a CRLF's (so `bytes` is not empty). Counts with loops that compile to vector
/// instructions.
pub(super) fn line_ends(bytes: &[u8]) -> u64 {
    let (body, _) = bytes.split_at(bytes.len() - 1);
    let count = |byte: u8| count_byte(body, byte);
    // Most inputs have no CR: a search, which stops at the first, tells so quicker than a count.
    let (crs, crlfs) = if memchr::memchr(b'\r', body).is_none() {
        (0, 0)
    } else {
        let crlfs = bytes.windows(2).filter(|pair| *pair == b"\r\n").count();
        (count(b'\r'), crlfs)
    };
    (count(b'\n') + crs - crlfs) as u64
}

/// How many of `bytes` are `byte`: `memchr` looks at a vector of bytes at a time.
fn count_byte(bytes: &[u8], byte: u8) -> usize {
    memchr::memchr_iter(byte, bytes).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boundaries of `text`, all found when it is all there.
    fn boundaries(text: &str) -> Vec<u64> {
        chunks(text.as_bytes(), 1)
            .skip(1)
            .map(|chunk| chunk.offset())
            .collect()
    }

    #[test]
    fn boundaries_are_tag_lines_after_lines_of_no_tags() {
        let text = "[Event \"a\"]\n[Site \"b\"]\n\n[Event \"c\"]\n1. e4 *\n[Event \"d\"]\n\
                    %x\n[Event \"e\"]\n [A \"f\"]\n[B \"g\"]\n\t\r\n[C\t\"h\"]\n{\n[D \"i\"]\n\
                    [%clk 0:01]\n\n[1 \"j\"]\n\n[_ \"k\"]\n\n[Event\"l\"]\n\n [E \"m\"]\n";
        let at = |line: &str| text.find(line).expect("a line of the text") as u64;
        assert_eq!(
            boundaries(text),
            [
                at("[Event \"c\"]"),
                at("[Event \"d\"]"),
                at("[C\t"),
                at("[D "),
                at("[Event\"l\"]")
            ]
        );
        // Not the first line, even after a byte order mark; not a `%` line after one.
        assert_eq!(boundaries("\u{feff}\n[Event \"a\"]\n"), [4]);
        assert!(boundaries("\u{feff}%\n[Event \"a\"]\n").is_empty());
        assert!(boundaries("\u{feff}[A \"\"]\n[Event \"a\"]\n").is_empty());
        // The `"` in the first 32 bytes.
        let name = "N".repeat(29);
        assert_eq!(boundaries(&format!("\n[{name} \"v\"]\n")), [1]);
        assert!(boundaries(&format!("\n[{name}  \"v\"]\n")).is_empty());
    }

    /// `is_boundary` says yes exactly at the boundaries a scan finds, the ends of the input
    /// and of its pieces, whatever the line ends; asked of a piece, as of the whole input.
    #[test]
    fn boundaries_are_told_where_the_scan_finds_them() {
        let text = "[Event \"a\"]\n[Site \"b\"]\n\n[Event \"c\"]\n1. e4 *\n[Event \"d\"]\n\
                    %x\n[Event \"e\"]\n [A \"f\"]\n[B \"g\"]\n\t\n[C\t\"h\"]\n{\n[D \"i\"]\n\
                    [%clk 0:01]\n\n[1 \"j\"]\n\n\n[_ \"k\"]\n";
        for variant in line_end_variants(text).into_iter().chain([
            "\u{feff}\n[Event \"a\"]\n".to_owned(),
            "\u{feff}%\n[E \"a\"]\n".to_owned(),
        ]) {
            let bytes = variant.as_bytes();
            let found: Vec<usize> = chunks(bytes, 1).map(|c| c.offset() as usize).collect();
            let told = |at: usize| at == bytes.len() || found.contains(&at);
            for at in 0..=bytes.len() {
                assert_eq!(
                    is_boundary(bytes, at, true),
                    told(at),
                    "{variant:?} at {at}"
                );
            }
            for (i, &start) in found.iter().enumerate() {
                let end = found.get(i + 2).copied().unwrap_or(bytes.len());
                let piece = &bytes[start..end];
                for at in 0..=piece.len() {
                    let expected = told(start + at);
                    assert_eq!(is_boundary(piece, at, start == 0), expected, "{variant:?}");
                }
            }
        }
    }

    #[test]
    fn chunks_cover_the_input_and_count_its_lines() {
        let game = "[Event \"a\"]\n\n1. e4 e5 *\n\n";
        let text = game.repeat(10);
        for size in [1, 2, 20, 27, 28, 29, 100, 1000] {
            let pieces: Vec<_> = chunks(text.as_bytes(), size).collect();
            let mut offset = 0;
            let mut line = 1;
            for chunk in &pieces {
                assert_eq!((chunk.offset(), chunk.first_line()), (offset, line));
                assert!(chunk.bytes().len() >= size.min(text.len() - offset as usize));
                offset += chunk.bytes().len() as u64;
                line += chunk.bytes().iter().filter(|&&b| b == b'\n').count() as u64;
            }
            assert_eq!(offset, text.len() as u64);
        }
        assert_eq!(chunks(text.as_bytes(), 1).count(), 10);
        assert_eq!(chunks(b"", 1).count(), 0);
    }

    /// Bytes arriving a few at a time find the boundaries that all the bytes at once find.
    #[test]
    fn a_scan_in_steps_finds_what_a_scan_at_once_finds() {
        let text =
            "[Event \"a\"]\n\n1. e4 {\n[x]\n} e5 *\n\n%\n[Event \"b\"]\n\n1. d4 *\n[C \"\"]\n";
        for text in line_end_variants(text) {
            scan_in_steps(text.as_bytes());
        }
    }

    /// The text with its line ends as LF, lone CR, CRLF, and a mix of the three.
    fn line_end_variants(text: &str) -> [String; 4] {
        // (Never a lone CR before an empty line's LF, which would make them one CRLF.)
        let mut ends = ["\r\n", "\n", "\r"].iter().cycle();
        let mixed = text
            .split('\n')
            .map(|line| format!("{line}{}", ends.next().expect("endless")))
            .collect::<String>();
        [
            text.to_owned(),
            text.replace('\n', "\r"),
            text.replace('\n', "\r\n"),
            mixed,
        ]
    }

    #[test]
    fn lone_crs_and_crlfs_end_lines_as_lfs_do() {
        let text = "[Event \"a\"]\n[Site \"b\"]\n\n[Event \"c\"]\n1. e4 *\n[Event \"d\"]\n\
                    %x\n[Event \"e\"]\n [A \"f\"]\n[B \"g\"]\n\t\n[C\t\"h\"]\n{\n[D \"i\"]\n";
        let lines = |text: &str| -> Vec<u64> {
            chunks(text.as_bytes(), 1)
                .map(|chunk| chunk.first_line())
                .collect()
        };
        let expected = lines(text);
        assert_eq!(expected, [1, 4, 6, 12, 14]);
        for variant in line_end_variants(text) {
            assert_eq!(lines(&variant), expected, "{variant:?}");
        }
        // A CR at the end of the bytes so far waits for the next byte: a CRLF is not cut.
        let mut scan = BoundaryScan::new(true);
        assert_eq!(scan.next(b"1. e4 *\r", 1, false), None);
        assert_eq!(scan.next(b"1. e4 *\r\n[Event \"x\"]\n", 1, false), Some(9));
        assert_eq!(scan.newlines, 1);
    }

    fn scan_in_steps(data: &[u8]) {
        for from in 1..data.len() {
            let mut whole = BoundaryScan::new(true);
            let expected = whole.next(data, from, true);
            for step in 1..8 {
                let mut scan = BoundaryScan::new(true);
                let mut found = None;
                let mut len = 0;
                while found.is_none() && len < data.len() {
                    len = (len + step).min(data.len());
                    found = scan.next(&data[..len], from, len == data.len());
                }
                assert_eq!(found, expected, "from {from}, step {step}");
                if found.is_some() {
                    assert_eq!(scan.newlines, whole.newlines);
                }
            }
        }
    }

    #[test]
    fn line_ends_are_counted_as_byte_by_byte() {
        // Lengths around the 32-byte blocks, line ends of every kind at every place.
        let pattern = b"ab\ncd\r\nef\rgh\n\n\r\r\nxyz";
        for len in 1..200 {
            let bytes: Vec<u8> = pattern
                .iter()
                .copied()
                .cycle()
                .skip(len % 7)
                .take(len)
                .collect();
            let by_byte = bytes
                .windows(2)
                .filter(|pair| ends_line(pair[0], pair[1]))
                .count() as u64;
            assert_eq!(line_ends(&bytes), by_byte, "{len} bytes");
        }
    }

    /// A line of 16 MiB arriving 256 bytes at a time is scanned once: this takes a moment,
    /// where a scan that looks back over the line at every step takes many minutes.
    #[test]
    fn a_long_line_is_scanned_once() {
        let mut data = vec![b'x'; 16 << 20];
        data.extend_from_slice(b"\n[Event \"a\"]\n");
        let mut scan = BoundaryScan::new(true);
        let from = 1 << 20;
        let mut found = None;
        let mut len = 0;
        while found.is_none() {
            len = (len + 256).min(data.len());
            found = scan.next(&data[..len], from, len == data.len());
        }
        assert_eq!(found, Some((16 << 20) + 1));
        assert_eq!(scan.newlines, 1);
    }
}
