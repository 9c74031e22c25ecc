//! `caissa pgn check`: see the [parent module](super) for the output.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use caissa::notation::pgn::{Location, PgnError, Reader, RecordedGame, Recorder, Replay};

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
pub(super) fn check(
    files: &[PathBuf],
    threads: usize,
    out: &mut dyn Write,
) -> Result<Totals, CliError> {
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

#[cfg(test)]
mod tests;
