//! `caissa perft --suite FILE`: checks the node counts of a perft suite, on every core.
//!
//! # Input
//!
//! One position a line: `FEN ;D1 20 ;D2 400 ... [;id "..."]`, as in `data/perft/*.epd`. Blank
//! lines and lines starting with `#` are skipped. Operations that do not start with `D` are
//! ignored; one that does must be `D<depth> <count>`.
//!
//! # Output
//!
//! On stdout, in file order:
//!
//! - `FAIL <line> depth <d> expected <e> got <g> <fen>` for each count that does not match,
//! - `ERROR <line> <message>` for each line that cannot be read,
//!
//! then a last line `positions <P> checked <C> failed <F>`: `P` positions (lines that are not
//! blank or comments), `C` (position, depth) checks made, `F` failed checks plus unreadable
//! lines. Line numbers count from 1. On stderr: a progress bar when stderr is a terminal, and
//! the time and total speed at the end.

use std::io::{IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use caissa::Position;
use caissa::movegen::{CastlingMode, perft};
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
    /// The FEN part is not a legal position.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A `D` operation is not `D<depth> <count>`.
    #[error("expected `D<depth> <count>`, found `{op}`")]
    Count {
        /// The operation as written.
        op: String,
    },
}

/// A non-blank, non-comment line of the suite.
#[derive(Debug)]
struct Entry {
    /// Line number, from 1.
    line: usize,
    /// The case, or why the line could not be read.
    case: Result<Case, LineError>,
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
    /// Positions seen.
    positions: u64,
    /// Checks made.
    checks: u64,
    /// Failed checks plus unreadable lines.
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
/// [`CliError::Read`] if the file cannot be read, [`CliError::Write`] if stdout fails, and
/// [`CliError::ChecksFailed`] (after the report is printed) if any check failed or any line
/// could not be read.
pub(super) fn run(path: &Path, max_depth: Option<u32>, mode: CastlingMode) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Read {
        path: path.to_owned(),
        source,
    })?;
    let entries = parse_suite(&text, mode);
    let readable = entries.iter().filter(|e| e.case.is_ok()).count();
    let bar = progress_bar(readable);

    let start = Instant::now();
    let totals = check_all(&entries, max_depth, &bar)?;
    let speed = Speed::since(start, totals.nodes);
    bar.finish_and_clear();

    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "positions {} checked {} failed {}",
        totals.positions, totals.checks, totals.failed
    )?;
    out.flush()?;
    eprintln!("{speed}");
    if totals.failed > 0 {
        return Err(CliError::ChecksFailed {
            failed: totals.failed,
            checks: totals.checks + totals.unreadable,
        });
    }
    Ok(())
}

/// The suite's entries: every line that is neither blank nor a `#` comment.
fn parse_suite(text: &str, mode: CastlingMode) -> Vec<Entry> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| Entry {
            line: i + 1,
            case: parse_line(line, mode),
        })
        .collect()
}

/// Reads one line: `FEN ;D1 20 ;D2 400 ...`, other operations ignored.
fn parse_line(line: &str, mode: CastlingMode) -> Result<Case, LineError> {
    let mut ops = line.split(';');
    let fen = ops.next().unwrap_or_default().trim();
    let pos = read_position(fen, mode)?;
    let counts = ops
        .map(str::trim)
        .filter(|op| op.starts_with('D'))
        .map(|op| parse_count(op).ok_or_else(|| LineError::Count { op: op.to_owned() }))
        .collect::<Result<_, _>>()?;
    Ok(Case {
        fen: fen.to_owned(),
        pos,
        counts,
    })
}

/// Reads a `D<depth> <count>` operation.
fn parse_count(op: &str) -> Option<(u32, u64)> {
    let (depth, nodes) = op.strip_prefix('D')?.split_once(char::is_whitespace)?;
    Some((depth.parse().ok()?, nodes.trim().parse().ok()?))
}

/// A progress bar over `len` positions on stderr, or a hidden one when stderr is not a terminal.
fn progress_bar(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} positions")
            .expect("the template is valid"),
    );
    bar
}

/// Checks every readable entry on all cores and prints the report lines in file order as they
/// become known.
fn check_all(
    entries: &[Entry],
    max_depth: Option<u32>,
    bar: &ProgressBar,
) -> Result<Totals, CliError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(entries.len())
        .max(1);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                // Take the next entry until none is left, or until the printer has gone away.
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(entry) = entries.get(index) else {
                        break;
                    };
                    if let Ok(case) = &entry.case {
                        let outcome = check_case(case, max_depth);
                        if sender.send((index, outcome)).is_err() {
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        print_in_order(entries, &receiver, bar)
    })
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

/// Receives outcomes (keyed by entry index) in any order and prints them in file order.
fn print_in_order(
    entries: &[Entry],
    receiver: &mpsc::Receiver<(usize, Outcome)>,
    bar: &ProgressBar,
) -> Result<Totals, CliError> {
    let mut outcomes: Vec<Option<Outcome>> = Vec::new();
    outcomes.resize_with(entries.len(), || None);
    let mut totals = Totals::default();
    let mut printed = 0;
    let mut out = std::io::stdout().lock();
    loop {
        // Print every entry whose outcome is known, up to the first one still being checked.
        while let Some(entry) = entries.get(printed) {
            let result = match &entry.case {
                Err(error) => {
                    totals.unreadable += 1;
                    totals.failed += 1;
                    bar.suspend(|| writeln!(out, "ERROR {} {error}", entry.line))
                }
                Ok(case) => {
                    let Some(outcome) = outcomes[printed].take() else {
                        break;
                    };
                    totals.checks += outcome.checks;
                    totals.nodes += outcome.nodes;
                    totals.failed += outcome.failures.len() as u64;
                    bar.suspend(|| print_failures(&mut out, entry.line, case, &outcome))
                }
            };
            result?;
            totals.positions += 1;
            printed += 1;
        }
        let Ok((index, outcome)) = receiver.recv() else {
            break;
        };
        outcomes[index] = Some(outcome);
        bar.inc(1);
    }
    Ok(totals)
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
