//! `caissa perft --suite FILE`: checks the node counts of a perft suite, on every core.
//!
//! # Input
//!
//! The suite format of [`caissa_cli::perft_suite`]: one position a line, `FEN ;D1 20 ;D2 400
//! ... [;id "..."]`, as in `data/perft/*.epd`. The file is streamed: a line at a time is read,
//! and a bounded number of positions are checked or waiting to be printed at any time, so memory
//! does not grow with the file.
//!
//! # Output
//!
//! On stdout, in file order:
//!
//! - `FAIL <line> depth <d> expected <e> got <g> <fen>` for each count that does not match,
//! - `ERROR <line> <message>` for each line that cannot be read (not UTF-8, too long, no count,
//!   a bad count, a depth past [`MAX_DEPTH`](caissa_cli::perft_suite::MAX_DEPTH), a bad FEN),
//!
//! then a last line `positions <P> checked <C> failed <F> unreadable <U>`: `P` readable
//! positions, `C` (position, depth) checks made, `F` of them failed, `U` lines that could not be
//! read. Line numbers count from 1. On stderr: a progress line when stderr is a terminal, the
//! time and total speed, and when something failed the error `F of C checks failed, U lines
//! unreadable` with the same numbers.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use caissa::Position;
use caissa::movegen::{CastlingMode, perft};
use caissa_cli::perft_suite::{ParseSuiteLineError, SuiteLine, SuiteReader};
use indicatif::{ProgressBar, ProgressStyle};

use super::Speed;
use crate::error::CliError;
use crate::position::{FenError, read_position};

/// One position of the suite with its expected counts.
#[derive(Debug)]
struct Case {
    /// The FEN as written in the file.
    fen: String,
    /// The position it gives.
    pos: Position,
    /// `(depth, nodes)` pairs, in file order.
    counts: Vec<(u32, u64)>,
}

/// Why a line of the suite could not be read.
#[derive(Debug, thiserror::Error)]
enum LineError {
    /// The line is not in the suite format.
    #[error(transparent)]
    Format(#[from] ParseSuiteLineError),
    /// The FEN part is not a legal position.
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// A non-blank, non-comment line of the suite, numbered in the order read.
#[derive(Debug)]
struct Entry {
    /// Its place among the entries, from 0: the order of the report.
    index: usize,
    /// Line number, from 1.
    line: usize,
    /// The case, or why the line could not be read.
    case: Result<Case, LineError>,
}

impl Entry {
    /// The entry `index`, line `line` of the file, read in `mode`.
    fn new(
        index: usize,
        line: usize,
        read: Result<SuiteLine, ParseSuiteLineError>,
        mode: CastlingMode,
    ) -> Entry {
        let case = read.map_err(LineError::from).and_then(|read| {
            let pos = read_position(&read.fen, mode)?;
            Ok(Case {
                fen: read.fen,
                pos,
                counts: read.counts,
            })
        });
        Entry { index, line, case }
    }
}

/// A count that did not match.
#[derive(Clone, Copy, Debug)]
struct Failure {
    /// The depth.
    depth: u32,
    /// The count the suite gives.
    expected: u64,
    /// The count perft found.
    got: u64,
}

/// What checking one case found.
#[derive(Debug, Default)]
struct Outcome {
    /// Checks made.
    checks: u64,
    /// Nodes counted over all checks.
    nodes: u64,
    /// The checks that failed, in file order.
    failures: Vec<Failure>,
}

/// Running totals for the summary line.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    /// Readable positions.
    positions: u64,
    /// Checks made.
    checks: u64,
    /// Failed checks.
    failed: u64,
    /// Unreadable lines.
    unreadable: u64,
    /// Nodes counted.
    nodes: u64,
}

/// Checks the suite in `path`, every listed depth up to `max_depth` (all when `None`), reading
/// castling as `mode` says.
///
/// # Errors
///
/// [`CliError::Read`] if the file cannot be opened, [`CliError::Write`] if stdout fails, and
/// [`CliError::SuiteFailed`] (after the report is printed) if any check failed or any line
/// could not be read.
pub(super) fn run(path: &Path, max_depth: Option<u32>, mode: CastlingMode) -> Result<(), CliError> {
    let file = File::open(path).map_err(|source| CliError::Read {
        path: path.to_owned(),
        source,
    })?;
    let lines = SuiteReader::new(BufReader::new(file));
    let bar = progress_bar();

    let start = Instant::now();
    let totals = check_all(lines, max_depth, mode, &bar)?;
    let speed = Speed::since(start, totals.nodes);
    bar.finish_and_clear();

    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "positions {} checked {} failed {} unreadable {}",
        totals.positions, totals.checks, totals.failed, totals.unreadable
    )?;
    out.flush()?;
    eprintln!("{speed}");
    if totals.failed > 0 || totals.unreadable > 0 {
        return Err(CliError::SuiteFailed {
            failed: totals.failed,
            checks: totals.checks,
            unreadable: totals.unreadable,
        });
    }
    Ok(())
}

/// A progress line on stderr counting the positions checked, or a hidden one when stderr is not
/// a terminal.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} {spinner} {pos} positions")
            .expect("the template is valid"),
    );
    bar
}

/// Checks the entries of `lines` on all cores and prints the report lines in file order as they
/// become known. The main thread reads the lines and prints; workers check. At most
/// `IN_FLIGHT_PER_THREAD` entries a worker are read but not yet printed, which bounds the memory
/// whatever the length of the file.
fn check_all<R: std::io::BufRead>(
    lines: SuiteReader<R>,
    max_depth: Option<u32>,
    mode: CastlingMode,
    bar: &ProgressBar,
) -> Result<Totals, CliError> {
    /// Entries read ahead per worker: enough to keep every worker busy.
    const IN_FLIGHT_PER_THREAD: usize = 4;
    let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let in_flight = threads * IN_FLIGHT_PER_THREAD;
    let (job_sender, jobs) = mpsc::sync_channel::<Entry>(in_flight);
    let jobs = Arc::new(Mutex::new(jobs));
    let (done_sender, done) = mpsc::channel::<(Entry, Outcome)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let jobs = Arc::clone(&jobs);
            let done_sender = done_sender.clone();
            scope.spawn(move || {
                // Take the next entry until none is left, or until the printer has gone away.
                loop {
                    let job = jobs.lock().map(|jobs| jobs.recv());
                    let Ok(Ok(entry)) = job else {
                        break;
                    };
                    let outcome = match &entry.case {
                        Ok(case) => check_case(case, max_depth),
                        Err(_) => Outcome::default(),
                    };
                    if done_sender.send((entry, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_sender);
        let result = read_and_print(lines, mode, &job_sender, in_flight, &done, bar);
        drop(job_sender);
        result
    })
}

/// Reads the entries of `lines`, hands them to the workers through `jobs` with at most
/// `in_flight` of them unprinted, and prints the outcomes from `done` in file order.
fn read_and_print<R: std::io::BufRead>(
    lines: SuiteReader<R>,
    mode: CastlingMode,
    jobs: &SyncSender<Entry>,
    in_flight: usize,
    done: &Receiver<(Entry, Outcome)>,
    bar: &ProgressBar,
) -> Result<Totals, CliError> {
    let mut totals = Totals::default();
    let mut out = std::io::stdout().lock();
    // Outcomes that came before their turn, by entry index minus `printed`.
    let mut waiting: std::collections::VecDeque<Option<(Entry, Outcome)>> =
        std::collections::VecDeque::new();
    let mut printed = 0;
    let mut sent = 0;
    let mut lines = lines.enumerate();
    let mut reading = true;
    loop {
        // Keep the workers fed, up to the bound on unprinted entries.
        while reading && sent - printed < in_flight {
            let Some((index, (line, read))) = lines.next() else {
                reading = false;
                break;
            };
            if jobs.send(Entry::new(index, line, read, mode)).is_err() {
                reading = false;
            }
            sent += 1;
        }
        if printed == sent {
            break;
        }
        // Print every outcome whose turn has come.
        while let Some(Some(_)) = waiting.front() {
            let (entry, outcome) = waiting.pop_front().flatten().expect("just seen");
            bar.suspend(|| report(&mut out, &entry, &outcome, &mut totals))?;
            bar.inc(1);
            printed += 1;
        }
        if printed == sent {
            continue;
        }
        let Ok((entry, outcome)) = done.recv() else {
            break;
        };
        let slot = entry.index - printed;
        if waiting.len() <= slot {
            waiting.resize_with(slot + 1, || None);
        }
        waiting[slot] = Some((entry, outcome));
    }
    Ok(totals)
}

/// Prints the report lines of one entry and adds it to `totals`.
fn report(
    out: &mut impl Write,
    entry: &Entry,
    outcome: &Outcome,
    totals: &mut Totals,
) -> std::io::Result<()> {
    match &entry.case {
        Err(error) => {
            totals.unreadable += 1;
            writeln!(out, "ERROR {} {error}", entry.line)
        }
        Ok(case) => {
            totals.positions += 1;
            totals.checks += outcome.checks;
            totals.nodes += outcome.nodes;
            totals.failed += outcome.failures.len() as u64;
            print_failures(out, entry.line, case, outcome)
        }
    }
}

/// Checks each of `case`'s listed depths up to `max_depth`.
fn check_case(case: &Case, max_depth: Option<u32>) -> Outcome {
    let mut outcome = Outcome::default();
    for &(depth, expected) in &case.counts {
        if max_depth.is_some_and(|max| depth > max) {
            continue;
        }
        let got = perft(&case.pos, depth);
        outcome.checks += 1;
        outcome.nodes += got;
        if got != expected {
            outcome.failures.push(Failure {
                depth,
                expected,
                got,
            });
        }
    }
    outcome
}

/// Prints one `FAIL` line per failed check of `case`, found on line `line`.
fn print_failures(
    out: &mut impl Write,
    line: usize,
    case: &Case,
    outcome: &Outcome,
) -> std::io::Result<()> {
    for f in &outcome.failures {
        writeln!(
            out,
            "FAIL {line} depth {} expected {} got {} {}",
            f.depth, f.expected, f.got, case.fen
        )?;
    }
    Ok(())
}
