//! `caissa pgn select`: the games that match, rewritten, in input order.
//!
//! The files (`-` is stdin; zstd, gzip and bzip2 are recognised by their first bytes) are read
//! one after the other, each on all cores (`caissa_pgntools::select`). Matching games go to
//! stdout or `-o PATH`; broken ones are skipped, kept as they are, or stop the run
//! (`--on-error`), and can be copied byte for byte to `--rejects PATH` and described in
//! `--report PATH`, one JSON object per line:
//! `{"file","line","column","offset","game","message"}` (`game` counts from 1 in its file,
//! `offset` is the problem's byte in the decompressed input).
//!
//! The last line on stderr is `games <N> matched <M> written <W> errors <E>`: `N` every game
//! read, `M` the well-formed games that passed the filters, `W` the games written (with
//! `--on-error keep`, the broken ones too), `E` the broken games. Games that fail a tag filter
//! are not replayed, so their moves are not checked: `caissa pgn check` checks everything.
//!
//! The exit status is 0, 1 when `--on-error stop` stopped at a broken game, 2 when a file
//! cannot be read or the output cannot be written.

use core::ops::ControlFlow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use caissa_pgntools::filter::Filter;
use caissa_pgntools::input::decompress;
use caissa_pgntools::{Format, Game, Options, Strip, Verdict, select};
use clap::{Args, ValueEnum};

use super::{open, read_error};
use crate::error::CliError;

/// Arguments of `caissa pgn select`.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// The PGN files (`-` for stdin), plain or compressed (zstd, gzip, bzip2).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// A tag filter, `TAG OP VALUE` with OP one of = != < <= > >= ~ (contains, any case),
    /// joined by and/or/not; repeatable, all must hold.
    #[arg(long = "where", value_name = "FILTER", value_parser = parse_filter)]
    filters: Vec<Filter>,
    /// What to leave out: a comma-separated list of comments, nags, variations, commands.
    #[arg(long, value_name = "LIST", value_parser = parse_strip)]
    strip: Option<Strip>,
    /// How to write the games.
    #[arg(long, value_enum, default_value_t = FormatArg::Pgn)]
    format: FormatArg,
    /// Set the PlyCount tag to the main line's length.
    #[arg(long)]
    ply_count: bool,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// What to do with a game that cannot be read or replayed.
    #[arg(long, value_enum, default_value_t = OnError::Skip)]
    on_error: OnError,
    /// Copy the broken games here, byte for byte.
    #[arg(long, value_name = "PATH")]
    rejects: Option<PathBuf>,
    /// Describe the broken games here, one JSON object per line.
    #[arg(long, value_name = "PATH")]
    report: Option<PathBuf>,
    /// Threads replaying moves [default: one per core].
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
}

/// `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// The PGN export format, moves as canonical SAN.
    Pgn,
    /// The main line in UCI notation, one game per line.
    Uci,
}

/// `--on-error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnError {
    /// Leave broken games out.
    Skip,
    /// Write broken games as they are.
    Keep,
    /// Stop at the first broken game, with exit status 1.
    Stop,
}

fn parse_filter(text: &str) -> Result<Filter, String> {
    text.parse().map_err(|e| format!("{e}"))
}

fn parse_strip(text: &str) -> Result<Strip, String> {
    let mut strip = Strip::default();
    for part in text.split(',').map(str::trim) {
        match part {
            "comments" => strip.comments = true,
            "nags" => strip.nags = true,
            "variations" => strip.variations = true,
            "commands" => strip.commands = true,
            other => {
                return Err(format!(
                    "unknown `{other}`: expected comments, nags, variations or commands"
                ));
            }
        }
    }
    Ok(strip)
}

/// The counts of the summary line.
#[derive(Debug, Default)]
struct Counts {
    games: u64,
    matched: u64,
    written: u64,
    errors: u64,
}

/// Where the games and the broken ones go.
struct Sinks {
    out: Box<dyn Write>,
    rejects: Option<BufWriter<File>>,
    report: Option<BufWriter<File>>,
}

/// Runs `caissa pgn select`.
///
/// # Errors
///
/// [`CliError::Read`] when a file cannot be read, [`CliError::Write`] when an output cannot be
/// written, [`CliError::Stopped`] when `--on-error stop` stopped.
pub(crate) fn run(args: &SelectArgs) -> Result<(), CliError> {
    let options = Options {
        filter: Filter::all(args.filters.iter().cloned()),
        strip: args.strip.unwrap_or_default(),
        ply_count: args.ply_count,
        format: match args.format {
            FormatArg::Pgn => Format::Pgn,
            FormatArg::Uci => Format::Uci,
        },
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        NonZeroUsize::get,
    );
    let create = |path: &Path| File::create(path).map(BufWriter::new);
    let mut sinks = Sinks {
        out: match &args.output {
            Some(path) => Box::new(create(path)?),
            None => Box::new(BufWriter::new(io::stdout().lock())),
        },
        rejects: args.rejects.as_deref().map(create).transpose()?,
        report: args.report.as_deref().map(create).transpose()?,
    };
    let mut counts = Counts::default();
    let mut result = Ok(());
    for path in &args.files {
        match select_file(
            path,
            &options,
            threads,
            args.on_error,
            &mut sinks,
            &mut counts,
        ) {
            Ok(ControlFlow::Continue(())) => {}
            Ok(ControlFlow::Break(())) => {
                result = Err(CliError::Stopped);
                break;
            }
            Err(error) => {
                result = Err(error);
                break;
            }
        }
    }
    sinks.out.flush()?;
    for file in [&mut sinks.rejects, &mut sinks.report]
        .into_iter()
        .flatten()
    {
        file.flush()?;
    }
    let Counts {
        games,
        matched,
        written,
        errors,
    } = counts;
    eprintln!("games {games} matched {matched} written {written} errors {errors}");
    result
}

/// Selects the games of one file; `Break` when `--on-error stop` stopped.
fn select_file(
    path: &Path,
    options: &Options,
    threads: usize,
    on_error: OnError,
    sinks: &mut Sinks,
    counts: &mut Counts,
) -> Result<ControlFlow<()>, CliError> {
    let (input, _) = decompress(open(path)?).map_err(read_error(path))?;
    let mut number = 0;
    let mut failure = None;
    let mut stopped = false;
    select(input, options, threads, |game| {
        number += 1;
        match take(game, path, number, on_error, sinks, counts) {
            Ok(flow) => {
                stopped = flow.is_break();
                flow
            }
            Err(error) => {
                failure = Some(error);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(read_error(path))?;
    if let Some(error) = failure {
        return Err(CliError::Write(error));
    }
    Ok(if stopped {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    })
}

/// Writes one game where it goes and counts it.
fn take(
    game: Game,
    path: &Path,
    number: u64,
    on_error: OnError,
    sinks: &mut Sinks,
    counts: &mut Counts,
) -> io::Result<ControlFlow<()>> {
    counts.games += 1;
    match game.verdict {
        Verdict::Unmatched => {}
        Verdict::Matched(text) => {
            counts.matched += 1;
            counts.written += 1;
            sinks.out.write_all(text.as_bytes())?;
        }
        Verdict::Broken(broken) => {
            counts.errors += 1;
            eprintln!(
                "{}:{}: {}",
                path.display(),
                broken.error.location,
                broken.error.kind
            );
            if let Some(rejects) = &mut sinks.rejects {
                rejects.write_all(&broken.bytes)?;
            }
            if let Some(report) = &mut sinks.report {
                let line = serde_json::json!({
                    "file": path.display().to_string(),
                    "line": broken.error.location.line,
                    "column": broken.error.location.column,
                    "offset": broken.offset,
                    "game": number,
                    "message": broken.error.kind.to_string(),
                });
                writeln!(report, "{line}")?;
            }
            match on_error {
                OnError::Skip => {}
                OnError::Keep => {
                    counts.written += 1;
                    sinks.out.write_all(&broken.bytes)?;
                }
                OnError::Stop => return Ok(ControlFlow::Break(())),
            }
        }
    }
    Ok(ControlFlow::Continue(()))
}
