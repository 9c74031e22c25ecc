//! `caissa pgn`: checking and formatting PGN files.
//!
//! # `caissa pgn check FILE...`
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
//! others), else 0. Reading runs in one thread, replaying on all cores (`--threads` says how
//! many); the output does not depend on the number of threads.
//!
//! # `caissa pgn fmt FILE`
//!
//! Writes every game of the file (`-` is stdin) to stdout in the PGN export format (the seven
//! tag roster first, 80-column lines; see `caissa_notation::pgn::Layout`), games separated by
//! a blank line, or with `--compact` one game per line. A malformed game is not written: its
//! problem goes to stderr as `FILE:LINE:COL: message`, and the exit status is 1.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use caissa::notation::pgn::{
    GameBuilder, Layout, Location, PgnError, Reader, RecordedGame, Recorder, Replay,
};
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
}

/// Arguments of `caissa pgn check`.
#[derive(Debug, Args)]
struct CheckArgs {
    /// The PGN files (`-` for stdin).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Threads replaying moves [default: one per core].
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
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
            let threads = args.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
                NonZeroUsize::get,
            );
            let mut out = BufWriter::new(io::stdout().lock());
            let totals = check(&args.files, threads, &mut out)?;
            out.flush()?;
            totals.into_result()
        }
        PgnCommand::Fmt(args) => {
            let layout = if args.compact {
                Layout::Compact
            } else {
                Layout::Export
            };
            let mut out = BufWriter::new(io::stdout().lock());
            let (games, bad) = format(&args.file, layout, &mut out)?;
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

/// Opens a file, or stdin for `-`.
fn open(path: &Path) -> Result<Box<dyn Read + Send>, CliError> {
    if path == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    match File::open(path) {
        Ok(file) => Ok(Box::new(file)),
        Err(source) => Err(CliError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}

fn read_error(path: &Path) -> impl FnOnce(io::Error) -> CliError + '_ {
    |source| CliError::Read {
        path: path.to_owned(),
        source,
    }
}

/// The counts of `caissa pgn check`, and the first file that could not be read.
#[derive(Debug, Default)]
struct Totals {
    games: u64,
    moves: u64,
    errors: u64,
    unreadable: Option<CliError>,
}

impl Totals {
    fn into_result(self) -> Result<(), CliError> {
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

/// A game as the reading thread hands it to a replaying one.
enum Job {
    /// A well-formed game.
    Recorded(RecordedGame),
    /// A malformed game: what was recorded before the syntax error (nothing for an error in
    /// the tags), and the error.
    Malformed(Option<RecordedGame>, PgnError),
}

/// Games of one file, numbered in reading order.
struct Batch {
    index: u64,
    file: usize,
    jobs: Vec<Job>,
}

/// What replaying one game found.
struct Checked {
    moves: u64,
    problem: Option<(Location, String)>,
}

/// Games per batch, and moves (tokens) after which a batch is sent early.
const BATCH_GAMES: usize = 64;
const BATCH_TOKENS: usize = 1 << 14;

/// Checks `files` with `threads` replaying threads, writing the report to `out`.
fn check(files: &[PathBuf], threads: usize, out: &mut dyn Write) -> Result<Totals, CliError> {
    let threads = threads.max(1);
    let (batch_sender, batch_receiver) = mpsc::sync_channel::<Batch>(2 * threads);
    let batch_receiver = Mutex::new(batch_receiver);
    let (result_sender, result_receiver) = mpsc::sync_channel(2 * threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let batch_receiver = &batch_receiver;
            let result_sender = result_sender.clone();
            scope.spawn(move || {
                loop {
                    // A poisoned lock means another worker panicked: stop too.
                    let Ok(receiver) = batch_receiver.lock() else {
                        break;
                    };
                    let Ok(batch) = receiver.recv() else { break };
                    drop(receiver);
                    let checked: Vec<Checked> = batch.jobs.iter().map(check_game).collect();
                    if result_sender
                        .send((batch.index, batch.file, checked))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(result_sender);
        let reader = scope.spawn(move || read_files(files, &batch_sender));
        let mut totals = Totals::default();
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut write_error = None;
        for (index, file, checked) in result_receiver {
            pending.insert(index, (file, checked));
            while let Some((file, checked)) = pending.remove(&next) {
                next += 1;
                if write_error.is_none()
                    && let Err(e) = report(&files[file], &checked, &mut totals, out)
                {
                    // Keep receiving so that the other threads can finish.
                    write_error = Some(e);
                }
            }
        }
        totals.unreadable = reader.join().expect("the reading thread does not panic");
        if let Some(e) = write_error {
            return Err(CliError::Write(e));
        }
        writeln!(
            out,
            "games {} moves {} errors {}",
            totals.games, totals.moves, totals.errors
        )?;
        Ok(totals)
    })
}

/// Writes the problems of a batch and adds up its counts.
fn report(
    path: &Path,
    checked: &[Checked],
    totals: &mut Totals,
    out: &mut dyn Write,
) -> io::Result<()> {
    for game in checked {
        totals.games += 1;
        totals.moves += game.moves;
        if let Some((at, message)) = &game.problem {
            totals.errors += 1;
            writeln!(
                out,
                "{}:{}:{}: {message}",
                path.display(),
                at.line,
                at.column
            )?;
        }
    }
    Ok(())
}

/// Reads every file into batches of recorded games. Returns the first file that could not be
/// read; the others are read all the same.
fn read_files(files: &[PathBuf], sender: &mpsc::SyncSender<Batch>) -> Option<CliError> {
    let mut index = 0;
    let mut unreadable = None;
    for (file, path) in files.iter().enumerate() {
        let mut send = |jobs: Vec<Job>| {
            let batch = Batch { index, file, jobs };
            index += 1;
            sender.send(batch).is_ok()
        };
        if let Err(error) = read_file(path, &mut send) {
            // The first is reported when the command ends; any other right away.
            if unreadable.is_some() {
                eprintln!("error: {error}");
            } else {
                unreadable = Some(error);
            }
        }
    }
    unreadable
}

/// Reads one file, calling `send` with each batch. Stops early if `send` returns `false` (the
/// workers are gone).
fn read_file(path: &Path, send: &mut dyn FnMut(Vec<Job>) -> bool) -> Result<(), CliError> {
    let mut reader = Reader::new(open(path)?);
    let mut recorder = Recorder::new();
    let mut jobs = Vec::new();
    let mut tokens = 0;
    while let Some(game) = reader.read_game(&mut recorder).map_err(read_error(path))? {
        let job = match game {
            Ok(game) => Job::Recorded(game),
            Err(error) => Job::Malformed(recorder.take_malformed(), error),
        };
        tokens += match &job {
            Job::Recorded(game) | Job::Malformed(Some(game), _) => game.tokens.len(),
            Job::Malformed(None, _) => 0,
        };
        jobs.push(job);
        if jobs.len() >= BATCH_GAMES || tokens >= BATCH_TOKENS {
            if !send(std::mem::take(&mut jobs)) {
                return Ok(());
            }
            tokens = 0;
        }
    }
    if !jobs.is_empty() {
        send(jobs);
    }
    Ok(())
}

/// Replays one game: its moves, and its first problem in reading order.
fn check_game(job: &Job) -> Checked {
    let (recorded, syntax) = match job {
        Job::Recorded(game) => (Some(game), None),
        Job::Malformed(game, error) => (game.as_ref(), Some(error)),
    };
    let syntax_problem = || syntax.map(|e| (e.location, e.kind.to_string()));
    let Some(game) = recorded else {
        return Checked {
            moves: 0,
            problem: syntax_problem(),
        };
    };
    let start = match &game.start {
        Ok(start) => *start,
        Err(error) => {
            return Checked {
                moves: 0,
                problem: Some((error.location, error.kind.to_string())),
            };
        }
    };
    let mut replay = Replay::new(start);
    let replayed = game.replay_into(&mut replay);
    Checked {
        moves: replay.moves(),
        problem: match replayed {
            Err(error) => Some((error.location, error.kind.to_string())),
            Ok(()) => syntax_problem(),
        },
    }
}

/// Writes every well-formed game of `path` to `out`; reports the others on stderr. Returns the
/// number of games and of malformed ones.
fn format(path: &Path, layout: Layout, out: &mut dyn Write) -> Result<(u64, u64), CliError> {
    let mut reader = Reader::new(open(path)?);
    let (mut games, mut bad) = (0, 0);
    let mut text = String::new();
    while let Some(game) = reader
        .read_game(&mut GameBuilder)
        .map_err(read_error(path))?
    {
        games += 1;
        match game {
            Ok(game) => {
                text.clear();
                if games > bad + 1 && layout == Layout::Export {
                    text.push('\n');
                }
                game.write(&mut text, layout);
                if layout == Layout::Compact {
                    text.push('\n');
                }
                out.write_all(text.as_bytes())?;
            }
            Err(error) => {
                bad += 1;
                eprintln!(
                    "{}:{}:{}: {}",
                    path.display(),
                    error.line(),
                    error.column(),
                    error.kind
                );
            }
        }
    }
    Ok((games, bad))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PGN file in the temp dir, removed when dropped.
    struct TempPgn(PathBuf);

    impl TempPgn {
        fn new(name: &str, text: &str) -> TempPgn {
            let path =
                std::env::temp_dir().join(format!("caissa-pgn-{}-{name}.pgn", std::process::id()));
            std::fs::write(&path, text).expect("the temp dir is writable");
            TempPgn(path)
        }
    }

    impl Drop for TempPgn {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    const GOOD: &str = "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 1-0\n\n";
    const BAD: &str =
        "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 {oops\n\n[Event \"c\"]\n1. d4 *\n";

    fn run_check(files: &[&TempPgn], threads: usize) -> (String, Totals) {
        let paths: Vec<PathBuf> = files.iter().map(|f| f.0.clone()).collect();
        let mut out = Vec::new();
        let totals = check(&paths, threads, &mut out).expect("checked");
        (String::from_utf8(out).expect("UTF-8"), totals)
    }

    #[test]
    fn check_reports_in_file_order_whatever_the_threads() {
        let good = TempPgn::new("good", &GOOD.repeat(300));
        let bad = TempPgn::new("bad", BAD);
        let (one, totals) = run_check(&[&good, &bad, &good], 1);
        let name = bad.0.display();
        assert_eq!(
            one,
            format!(
                "{name}:3:13: illegal move Ke3: no legal move matches\n\
                 {name}:5:7: unterminated comment\n\
                 games 603 moves 3604 errors 2\n"
            )
        );
        assert_eq!((totals.games, totals.moves, totals.errors), (603, 3604, 2));
        assert!(matches!(
            totals.into_result(),
            Err(CliError::ChecksFailed {
                failed: 2,
                checks: 603
            })
        ));
        for threads in [2, 3, 8] {
            assert_eq!(run_check(&[&good, &bad, &good], threads).0, one);
        }
    }

    #[test]
    fn check_passes_good_files_and_reports_unreadable_ones() {
        let good = TempPgn::new("only-good", GOOD);
        let (out, totals) = run_check(&[&good], 2);
        assert_eq!(out, "games 1 moves 6 errors 0\n");
        assert!(totals.into_result().is_ok());
        let missing = TempPgn(std::env::temp_dir().join("caissa-pgn-no-such-file.pgn"));
        let (out, totals) = run_check(&[&missing, &good], 2);
        assert_eq!(out, "games 1 moves 6 errors 0\n");
        assert!(matches!(totals.into_result(), Err(CliError::Read { .. })));
    }

    #[test]
    fn fmt_writes_export_format_and_skips_malformed_games() {
        let file = TempPgn::new("fmt", &format!("{GOOD}{BAD}"));
        let mut out = Vec::new();
        let (games, bad) = format(&file.0, Layout::Export, &mut out).expect("formatted");
        assert_eq!((games, bad), (4, 1));
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(text.matches("[Event ").count(), 3);
        assert!(text.starts_with("[Event \"a\"]\n[Site \"?\"]\n"));
        assert!(text.contains("\n\n[Event \"b\"]\n"));
        let mut compact = Vec::new();
        format(&file.0, Layout::Compact, &mut compact).expect("formatted");
        let compact = String::from_utf8(compact).expect("UTF-8");
        assert_eq!(compact.lines().count(), 3);
        assert_eq!(
            compact.lines().next(),
            Some("[Event \"a\"] 1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 Nc6 1-0")
        );
    }
}
