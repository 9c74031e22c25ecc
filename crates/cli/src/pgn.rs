//! `caissa pgn`: checking and formatting PGN files.
//!
//! # `caissa pgn check [--lenient] [--threads N] FILE...`
//!
//! Reads every game of the files (`-` is stdin) and replays every move, main line and
//! variations, against the position. On stdout, in file order:
//!
//! - one line per game with a problem, `FILE:LINE:COL: message`: the first problem of that game
//!   in reading order, whether its text is malformed (an unterminated comment, a token that is
//!   not SAN, ...), its start tags give no position (a bad `[FEN]`, an unknown `[Variant]`), or a
//!   move is illegal or ambiguous;
//! - a last line `games <N> moves <M> errors <E>`: `N` counts every game read, good or bad; `M`
//!   the legal moves replayed (in bad games, those before the problem); `E` the games that had
//!   a problem.
//!
//! The exit status is 1 when `E > 0`, 2 when a file cannot be read (after the summary of the
//! others), else 0.
//!
//! `--lenient` reads what other PGN readers accept and the strict reader refuses (`e.p.` after
//! a move, the result `1/2`, glyphs above `$255`, text after the result on its line, a `"` left
//! unescaped in a tag value), with a line `FILE:LINE:COLUMN: warning: what` on stderr for each, as `select --lenient` prints it, instead of counting the game as
//! having a problem (a game that has one anyway gets no warnings).
//!
//! The work runs on all cores (`--threads` says how many, at most 256): the files go to
//! `caissa_notation::pgn::ParallelReader`, which cuts each into chunks of about a megabyte at
//! lines where a game begins for sure, and each worker reads and replays the games of one chunk
//! at a time. The output does not depend on the number of threads. A file where no such line
//! comes for 64 MiB (games without tags, say) is read from there on by one worker, as a
//! stream.
//!
//! # `caissa pgn select [OPTIONS] FILE...`
//!
//! Writes the games that pass the filters, rewritten, in input order: see `select.rs`.
//!
//! # `caissa pgn stats [--json] FILE...`
//!
//! Counts the games of the files (plain or compressed) by result, `Termination`, speed class
//! (lichess's, from `TimeControl`), ECO family and the players' mean Elo in bands of 200, from
//! the tags alone: no move is read. A table (`games <N> errors <E>`, then each category with
//! its counts, the largest first, and their share), or with `--json` one object. See `stats.rs`.
//!
//! # `caissa pgn split (--games N | --by TAG) [-o PREFIX] FILE...`
//!
//! Writes the games, rewritten as `select` writes them, into files of N games or one file per
//! value of a tag, in input order; broken games are reported and written nowhere. See
//! `split.rs`.
//!
//! # `caissa pgn fmt [--compact] [--lenient] FILE`
//!
//! Writes every game of the file (`-` is stdin) to stdout in the PGN export format (the seven
//! tag roster first, 80-column lines; see `caissa_notation::pgn::Layout`), games separated by
//! a blank line, or with `--compact` one game per line. A game that is malformed, whose start
//! tags give no position, or that is too large to hold (more than 250,000 moves or 16 MiB of
//! tags and comments; `docs/LIMITS.md`) is not written: its problem goes to stderr as
//! `FILE:LINE:COL: message`, and the exit status is 1. Text that is not written as read (bytes
//! that are not UTF-8, NUL bytes) is warned of on stderr, `FILE:LINE:COL: warning: message`.
//! `--lenient` reads and writes what other PGN readers accept and the strict reader refuses:
//! `exd6 e.p.` is written `exd6`, the result `1/2` as `1/2-1/2`, glyphs above `$255` and text
//! after the result are left out, a `"` left unescaped in a tag value is escaped; each with a
//! line `FILE:LINE:COLUMN: warning: what` on stderr, as `select --lenient` prints it (for the
//! games written), the form of the other warnings. See `fmt.rs`.

mod check;
mod fmt;
mod progress;
mod select;
mod split;
mod stats;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use caissa::notation::pgn::{Layout, Location, ParallelReader};
use clap::{Args, Subcommand};

use crate::error::CliError;

/// Arguments of `caissa pgn`.
#[derive(Debug, Args)]
pub(crate) struct PgnArgs {
    /// What to do with the files.
    #[command(subcommand)]
    command: PgnCommand,
}

/// The `caissa pgn` subcommands.
#[derive(Debug, Subcommand)]
enum PgnCommand {
    /// Replay every game; print `FILE:LINE:COL: message` for each problem, then
    /// `games <N> moves <M> errors <E>`; exit with status 1 if E > 0.
    Check(CheckArgs),
    /// Rewrite a file in the PGN export format on stdout.
    Fmt(FmtArgs),
    /// Write the games that match, rewritten, in input order; last line on stderr
    /// `games <N> matched <M> written <W> errors <E>`.
    Select(Box<select::SelectArgs>),
    /// Count the games by result, termination, speed, ECO family and Elo band, from their
    /// tags alone (no move is replayed); a table, or one JSON object with `--json`.
    Stats(stats::StatsArgs),
    /// Write the games, rewritten, into files of N games or one file per value of a tag
    /// (`PREFIX-0001.pgn`, `PREFIX-B20.pgn`); last line on stderr
    /// `games <N> written <W> files <F> errors <E>`.
    Split(split::SplitArgs),
}

/// Arguments of `caissa pgn check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// The PGN files (`-` for stdin).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Threads replaying moves, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Read leniently: accept `e.p.` after a move, the result `1/2`, glyphs above `$255`, text
    /// after the result and a `"` left unescaped in a tag value, each with a warning on stderr,
    /// instead of counting the game as an error.
    #[arg(long)]
    lenient: bool,
}

/// Arguments of `caissa pgn fmt`.
#[derive(Debug, Args)]
struct FmtArgs {
    /// The PGN file (`-` for stdin).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// One game per line instead of the export format.
    #[arg(long)]
    compact: bool,
    /// Read leniently: accept `e.p.` after a move (written without it), the result `1/2`
    /// (written `1/2-1/2`), glyphs above `$255` and text after the result (left out), a `"` left
    /// unescaped in a tag value (escaped), each with a warning on stderr, instead of leaving
    /// the game out.
    #[arg(long)]
    lenient: bool,
}

impl FmtArgs {
    /// The layout the games are written in.
    const fn layout(&self) -> Layout {
        if self.compact {
            Layout::Compact
        } else {
            Layout::Export
        }
    }
}

/// Runs `caissa pgn`.
///
/// # Errors
///
/// [`CliError::ChecksFailed`] if a game had a problem, [`CliError::Read`] if a file cannot be
/// read, [`CliError::Write`] if stdout fails.
pub(crate) fn run(args: &PgnArgs) -> Result<(), CliError> {
    match &args.command {
        PgnCommand::Check(args) => {
            let mut reader = ParallelReader::new().lenient(args.lenient);
            if let Some(threads) = args.threads.and_then(|n| NonZeroUsize::new(n.into())) {
                reader = reader.threads(threads);
            }
            let mut out = BufWriter::new(io::stdout().lock());
            let totals = check::check(&args.files, reader, &mut out)?;
            out.flush()?;
            totals.into_result()
        }
        PgnCommand::Select(args) => select::run(args),
        PgnCommand::Split(args) => split::run(args),
        PgnCommand::Stats(args) => {
            let mut out = BufWriter::new(io::stdout().lock());
            stats::run(args, &mut out)?;
            out.flush()?;
            Ok(())
        }
        PgnCommand::Fmt(args) => {
            let mut out = BufWriter::new(io::stdout().lock());
            let (games, bad) = fmt::format(args, &mut out)?;
            out.flush()?;
            if bad > 0 {
                return Err(CliError::ChecksFailed {
                    failed: bad,
                    checks: games,
                });
            }
            Ok(())
        }
    }
}

/// `--threads` (1 to 256, as clap checks it), or one thread per core.
fn threads_or_all(threads: Option<u16>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        usize::from,
    )
}

/// Warns on stderr of what a lenient reader read past in a game of `path` (or what else is
/// written otherwise than read), a line `FILE:LINE:COLUMN: warning: what` each, as the other
/// warnings and the problems are written.
fn warn_each(path: &Path, warnings: &[(Location, impl core::fmt::Display)]) {
    for (at, what) in warnings {
        eprintln!("{}:{at}: warning: {what}", path.display());
    }
}

/// Opens a file, or stdin for `-`.
fn input(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    if path == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    Ok(Box::new(File::open(path)?))
}

/// [`input`], its error naming the file.
fn open(path: &Path) -> Result<Box<dyn Read + Send>, CliError> {
    input(path).map_err(read_error(path))
}

/// Refuses `output` (the value of `--arg`) when it is one of `inputs` (stdin redirected from
/// it too): creating it would empty the input before a game of it is read, as `sort -o` knows.
/// A path that does not exist yet is no input.
fn refuse_overwriting_input(
    arg: &'static str,
    output: &Path,
    inputs: &[PathBuf],
) -> Result<(), CliError> {
    let clash = inputs.iter().find(|input| {
        if *input == Path::new("-") {
            // The file stdin reads from, if it is one (a pipe is never `output`).
            cfg!(unix) && same_file(Path::new("/dev/stdin"), output)
        } else {
            same_file(input, output)
        }
    });
    match clash {
        Some(input) => Err(CliError::Arg {
            arg,
            problem: format!(
                "{} is also an input ({}): writing it would empty it before it is read",
                output.display(),
                input.display()
            ),
        }),
        None => Ok(()),
    }
}

/// Whether two paths name one existing regular file (hard links too; a terminal that is both
/// stdin and `-o /dev/stdout` is no clash).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.is_file() && a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether two paths name one existing file.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn read_error(path: &Path) -> impl FnOnce(io::Error) -> CliError + '_ {
    |source| CliError::Read {
        path: path.to_owned(),
        source,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A PGN file in the temp dir, removed when dropped.
    pub(crate) struct TempPgn(pub(crate) PathBuf);

    impl TempPgn {
        /// A file holding `text`, its name made of `name` and a number unique in the process
        /// (tests run in parallel).
        pub(crate) fn new(name: &str, text: impl AsRef<[u8]>) -> TempPgn {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir()
                .join(format!("caissa-pgn-{}-{n}-{name}.pgn", std::process::id()));
            std::fs::write(&path, text).expect("the temp dir is writable");
            TempPgn(path)
        }
    }

    impl Drop for TempPgn {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    pub(crate) const GOOD: &str = "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 1-0\n\n";
    pub(crate) const BAD: &str =
        "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 {oops\n\n[Event \"c\"]\n1. d4 *\n";
}
