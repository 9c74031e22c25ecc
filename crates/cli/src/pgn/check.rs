//! `caissa pgn check`: how the work is split between threads. The [parent module](super) says
//! what the command prints.
//!
//! # Threads
//!
//! One thread reads each file in turn and cuts it into chunks of about a megabyte, each cut at a
//! *boundary* (below). `--threads` worker threads each take a chunk, read its games with their
//! own [`Reader`] and replay every move as it is read ([`Replayer`]), and hand back the counts and
//! the problems. The main thread prints them in file order, turning each chunk's line numbers
//! into the file's (the reader of a chunk ends on its last line). Memory is a few chunks per
//! thread.
//!
//! # Boundaries
//!
//! A chunk may begin only where the reader going through the whole file would begin a game
//! with nothing carried over: then reading the chunk alone finds the same games, the same
//! problems at the same places (lines shifted by the lines before the chunk; columns are the
//! same since a chunk begins a line) and the same moves. A file is cut before a line when
//!
//! 1. that line begins, in its first byte, with `[`, a letter, letters, digits or `_`, blanks and
//!    `"`, all within its first 32 bytes (it *starts a tag pair*);
//! 2. the line before it is not a `%` escape line (its first byte, after a byte order mark at the
//!    start of the file, is not `%`), and its first byte that is not a space, tab or carriage
//!    return, if any, is not `[`.
//!
//! Why the reader begins a game at such a line `L` whatever state it reaches it in (the grammar
//! is in the `caissa_notation::pgn` docs):
//!
//! - in a `{` comment, a line that starts a tag pair within its first 64 bytes ends the comment,
//!   unterminated, and the game: 32 bytes leave a margin;
//! - in movetext (and when skipping it after an error or a stop, or skipping a variation), a
//!   line whose first non-blank byte is `[` ends the movetext; a `;` comment or a `%` line ends
//!   at its line's end, a tag value cannot span lines, and tokens hold no newline;
//! - in the tags (or when skipping a game with a bad tag), the reader goes on to the next tag
//!   pair only over whitespace and `%` lines, and not over a blank line: by (2) the line before
//!   `L` is blank (the tags end there), or neither blank, `%` nor a tag pair, so the movetext
//!   began there and ends at `L`;
//! - between games, it skips whitespace and `%` lines, and a game begins at the `[` of `L`.
//!
//! And the game before `L` reads the same when the chunk ends at `L` instead: it ends at `L` or
//! before, and what makes it end there (a line starting with `[`, a blank line, a comment
//! ending as unterminated) gives the same result at the end of the input, the only difference
//! the chunk's reader sees. No token, tag name or quoted excerpt reaches past a newline, so
//! none is cut short at the chunk's end, which is one.
//!
//! Lines that start a tag pair follow a blank line or a movetext line at every game in usual
//! files. A file with none within 64 MiB of the last cut (say, games without tags) is not cut
//! further: one worker reads the rest of it as a stream, and memory stays bounded.
//!
//! If reading a file fails midway, the games of the chunks cut before the failure are counted
//! and reported, and the file is reported unreadable.

use std::collections::BTreeMap;
use std::io::{self, Cursor, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use caissa::notation::pgn::{
    Location, PgnErrorKind, PgnReplayError, PgnReplayErrorKind, Reader, Replayer,
};

use super::{open, read_error};
use crate::error::CliError;

/// The counts of `caissa pgn check`, and the first file that could not be read.
#[derive(Debug, Default)]
pub(super) struct Totals {
    games: u64,
    moves: u64,
    errors: u64,
    unreadable: Option<CliError>,
}

impl Totals {
    pub(super) fn into_result(self) -> Result<(), CliError> {
        match self.unreadable {
            Some(error) => Err(error),
            None if self.errors > 0 => Err(CliError::ChecksFailed {
                failed: self.errors,
                checks: self.games,
            }),
            None => Ok(()),
        }
    }
}

/// How files are cut into chunks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Split {
    /// The size of a chunk: a chunk ends at the first boundary after `chunk - chunk / 64`
    /// bytes (after 1 byte if that is 0).
    pub(super) chunk: usize,
    /// After this many bytes without a boundary, the rest of the file is one stream.
    pub(super) limit: usize,
}

impl Split {
    /// Chunks of 1 MiB; a stream after 64 MiB without a boundary.
    pub(super) const DEFAULT: Split = Split {
        chunk: 1 << 20,
        limit: 64 << 20,
    };

    /// Bytes read at a time once a chunk has its size, while looking for a boundary; also how
    /// far before its size a chunk may end.
    fn step(self) -> usize {
        (self.chunk / 64).max(1)
    }

    /// A buffer for a chunk: room for its size and a step, up to the limit (and no more than
    /// the default limit: a larger chunk grows as it is read).
    fn buffer(self) -> Vec<u8> {
        let room = self.chunk.saturating_add(self.step());
        Vec::with_capacity(room.min(self.limit).min(Split::DEFAULT.limit))
    }
}

/// Work for a worker thread, numbered in file order.
struct Job {
    index: u64,
    file: usize,
    work: Work,
}

enum Work {
    /// Bytes of a file from its start or a boundary to its end or the next boundary.
    Chunk(Vec<u8>),
    /// The rest of a file, from its start or a boundary: bytes already read, then the file.
    Stream(Box<dyn Read + Send>),
    /// A file that could not be opened or read (after its chunks read before the error).
    Unreadable(CliError),
}

/// What a worker found in one [`Job`].
struct Report {
    index: u64,
    file: usize,
    /// The newlines in a chunk: the next chunk of the file begins that many lines later.
    newlines: u64,
    games: u64,
    moves: u64,
    /// The problems, where each game's lines are counted from the chunk's first line.
    problems: Vec<(Location, String)>,
    unreadable: Option<CliError>,
}

/// Checks `files` with `threads` worker threads, files cut as `split` says, writing the report
/// to `out`.
pub(super) fn check(
    files: &[PathBuf],
    threads: usize,
    split: Split,
    out: &mut dyn Write,
) -> Result<Totals, CliError> {
    let threads = threads.max(1);
    let (job_sender, job_receiver) = mpsc::sync_channel::<Job>(threads);
    let job_receiver = Mutex::new(job_receiver);
    let (report_sender, report_receiver) = mpsc::channel::<Report>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let job_receiver = &job_receiver;
            let report_sender = report_sender.clone();
            scope.spawn(move || {
                loop {
                    // A poisoned lock means another worker panicked: stop too.
                    let Ok(receiver) = job_receiver.lock() else {
                        break;
                    };
                    let Ok(job) = receiver.recv() else { break };
                    drop(receiver);
                    if report_sender.send(run_job(job, files)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(report_sender);
        scope.spawn(move || split_files(files, split, &job_sender));
        let mut printer = Printer {
            files,
            out,
            totals: Totals::default(),
            file: None,
            lines_before: 0,
        };
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut write_error = None;
        for report in report_receiver {
            pending.insert(report.index, report);
            while let Some(report) = pending.remove(&next) {
                next += 1;
                if let Err(e) = printer.print(report) {
                    // Keep receiving so that the other threads can finish.
                    write_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = write_error {
            return Err(CliError::Write(e));
        }
        let totals = printer.totals;
        writeln!(
            printer.out,
            "games {} moves {} errors {}",
            totals.games, totals.moves, totals.errors
        )?;
        Ok(totals)
    })
}

/// Writes the reports in file order and adds up their counts.
struct Printer<'a> {
    files: &'a [PathBuf],
    out: &'a mut dyn Write,
    totals: Totals,
    /// The file of the last report, and the lines of that file before the next chunk.
    file: Option<usize>,
    lines_before: u64,
}

impl Printer<'_> {
    fn print(&mut self, report: Report) -> io::Result<()> {
        if self.file != Some(report.file) {
            self.file = Some(report.file);
            self.lines_before = 0;
        }
        let totals = &mut self.totals;
        totals.games += report.games;
        totals.moves += report.moves;
        totals.errors += report.problems.len() as u64;
        if let Some(error) = report.unreadable {
            // The first is reported when the command ends; any other right away.
            if totals.unreadable.is_some() {
                eprintln!("error: {error}");
            } else {
                totals.unreadable = Some(error);
            }
        }
        let path = self.files[report.file].display();
        for (at, message) in &report.problems {
            let line = self.lines_before + at.line;
            writeln!(self.out, "{path}:{line}:{}: {message}", at.column)?;
        }
        self.lines_before += report.newlines;
        Ok(())
    }
}

/// Cuts every file into jobs. A file that cannot be read is a job too, after the chunks read
/// before the error; the other files are read all the same.
fn split_files(files: &[PathBuf], split: Split, sender: &mpsc::SyncSender<Job>) {
    let mut index = 0;
    for (file, path) in files.iter().enumerate() {
        let mut send = |work| {
            let job = Job { index, file, work };
            index += 1;
            sender.send(job).is_ok()
        };
        let result = open(path)
            .and_then(|input| split_file(input, split, &mut send).map_err(read_error(path)));
        if let Err(error) = result {
            send(Work::Unreadable(error));
        }
    }
}

/// Cuts one file into chunks at boundaries, calling `send` with each. Stops early if `send`
/// returns `false` (the workers are gone).
fn split_file(
    mut input: Box<dyn Read + Send>,
    split: Split,
    send: &mut dyn FnMut(Work) -> bool,
) -> io::Result<()> {
    // A chunk may end this far into its bytes, and not before its first line.
    let from = split.chunk.saturating_sub(split.step()).max(1);
    let mut pending = split.buffer();
    let mut boundaries = Boundaries::new(true);
    loop {
        let want = match split.chunk.checked_sub(pending.len()) {
            Some(short @ 1..) => short,
            _ => split.step(),
        };
        let eof = (&mut input).take(want as u64).read_to_end(&mut pending)? < want;
        while let Some(cut) = boundaries.next(&pending, from, eof) {
            let mut rest = split.buffer();
            rest.extend_from_slice(&pending[cut..]);
            pending.truncate(cut);
            if !send(Work::Chunk(std::mem::replace(&mut pending, rest))) {
                return Ok(());
            }
            boundaries = Boundaries::new(false);
        }
        if eof {
            if !pending.is_empty() {
                send(Work::Chunk(pending));
            }
            return Ok(());
        }
        if pending.len() >= split.limit {
            send(Work::Stream(Box::new(Cursor::new(pending).chain(input))));
            return Ok(());
        }
    }
}

/// Bytes within which a line's `[Name "` must fit for a chunk to begin at that line: fewer than
/// the 64 within which the reader takes such a line for the next game's tags when it is inside
/// a comment.
const TAG_PAIR_PREFIX: usize = 32;

/// The UTF-8 byte order mark that the reader skips at the start of the input.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// Looks for boundaries (see the module docs) in a chunk's bytes as they arrive, looking at each
/// line once.
#[derive(Debug)]
struct Boundaries {
    /// The start of the line to look at next.
    line: usize,
    /// Where the search for that line's end goes on: no newline before it.
    searched: usize,
    /// Whether the line before `line` lets a chunk begin at `line`.
    after_ok: bool,
    /// Whether the bytes are the start of the file.
    file_start: bool,
}

impl Boundaries {
    const fn new(file_start: bool) -> Boundaries {
        Boundaries {
            line: 0,
            searched: 0,
            after_ok: false,
            file_start,
        }
    }

    /// The first boundary at or after `from` in `data` (the same bytes as before, maybe with
    /// more at the end), or `None` if there is none in `data`, or not yet: more bytes may tell
    /// unless `eof`.
    fn next(&mut self, data: &[u8], from: usize, eof: bool) -> Option<usize> {
        if data.len() < from {
            return None;
        }
        if self.line < from {
            // Skip to the line that holds the byte before `from`: the line before the first
            // line that may be a boundary. (It is no boundary itself: `after_ok` is moot.)
            let skip = data[..from - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if skip > self.line {
                self.line = skip;
                self.searched = self.searched.max(skip);
            }
        }
        loop {
            let line = &data[self.line..];
            if self.line >= from && self.after_ok {
                let prefix = &line[..line.len().min(TAG_PAIR_PREFIX)];
                if prefix.len() < TAG_PAIR_PREFIX && !eof && !prefix.contains(&b'\n') {
                    return None;
                }
                if starts_tag_pair(prefix) {
                    return Some(self.line);
                }
            }
            let Some(end) = data[self.searched..].iter().position(|&b| b == b'\n') else {
                self.searched = data.len();
                return None;
            };
            let end = self.searched + end;
            let mut text = &data[self.line..end];
            if self.file_start && self.line == 0 {
                text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
            }
            self.after_ok = text.first() != Some(&b'%')
                && text.iter().find(|&&b| !matches!(b, b' ' | b'\t' | b'\r')) != Some(&b'[');
            self.line = end + 1;
            self.searched = end + 1;
        }
    }
}

/// Whether `prefix` begins with `[`, a letter, letters, digits or `_`, blanks and `"`.
fn starts_tag_pair(prefix: &[u8]) -> bool {
    let Some(rest) = prefix.strip_prefix(b"[") else {
        return false;
    };
    if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let name = rest
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
        .count();
    let rest = &rest[name..];
    let blanks = rest
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t'))
        .count();
    rest.get(blanks) == Some(&b'"')
}

/// Runs one job.
fn run_job(job: Job, files: &[PathBuf]) -> Report {
    let mut report = Report {
        index: job.index,
        file: job.file,
        newlines: 0,
        games: 0,
        moves: 0,
        problems: Vec::new(),
        unreadable: None,
    };
    match job.work {
        Work::Chunk(bytes) => {
            // Reading bytes in memory does not fail. At the end, the reader stands on the line
            // after the chunk's last newline.
            if let Ok(end) = check_games(&bytes[..], &mut report) {
                report.newlines = end.line - 1;
            }
        }
        Work::Stream(input) => {
            let path: &Path = &files[job.file];
            report.unreadable = check_games(input, &mut report).err().map(read_error(path));
        }
        Work::Unreadable(error) => report.unreadable = Some(error),
    }
    report
}

/// Checks every game of `input`, adding to `report`. Returns where the input ends.
///
/// # Errors
///
/// An error reading `input`: the games before it are in `report`.
fn check_games(input: impl Read, report: &mut Report) -> io::Result<Location> {
    let mut reader = Reader::new(input);
    let mut replayer = Replayer::new();
    while let Some(game) = reader.read_game(&mut replayer) {
        match game {
            Ok(stats) => report.moves += stats.moves,
            Err(PgnReplayError {
                kind: PgnReplayErrorKind::Pgn(PgnErrorKind::Io(failure)),
                ..
            }) => return Err(failure.into()),
            Err(error) => {
                report.moves += error.replayed;
                report
                    .problems
                    .push((error.location, error.kind.to_string()));
            }
        }
        report.games += 1;
    }
    Ok(reader.location())
}

#[cfg(test)]
mod tests;
