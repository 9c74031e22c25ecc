//! `caissa pgn check`: counting and printing what the threads find. The [parent module](super)
//! says what the command prints.
//!
//! The files go to a [`ParallelReader`] in turn: it cuts them into chunks of about a megabyte
//! where a game surely begins, its worker threads read and replay the games of one chunk at a
//! time ([`Replayer`]), and this thread gets the results in file order, with the files' own
//! line numbers. Memory is a few chunks per thread. A file where no game surely begins for
//! 64 MiB is read on by one worker, as a stream (see [`ParallelReader`]).
//!
//! If reading a file fails midway, the games before the failure are counted and reported, and
//! the file is reported unreadable.
//!
//! Read leniently ([`ParallelReader::lenient`]), what the reader read past in a good game
//! ([`ReplayStats::tolerated`](caissa::notation::pgn::ReplayStats::tolerated)) is warned of
//! on stderr, game by game in file order.

use core::ops::ControlFlow;
use std::io::Write;
use std::path::PathBuf;

use caissa::notation::pgn::{
    ParallelReader, PgnErrorKind, PgnReplayError, PgnReplayErrorKind, Replayer,
};

use super::{input, read_error, warn_each};
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

/// Checks `files` with `reader`, writing the report to `out` and the warnings of a lenient
/// reader to stderr.
pub(super) fn check(
    files: &[PathBuf],
    reader: ParallelReader,
    out: &mut dyn Write,
) -> Result<Totals, CliError> {
    let mut totals = Totals::default();
    let inputs = files.iter().map(|path| input(path));
    let flow = reader.read_all(inputs, Replayer::new, |file, game| {
        let path = &files[file];
        match game {
            Ok(stats) => {
                totals.games += 1;
                totals.moves += stats.moves;
                warn_each(path, &stats.tolerated);
            }
            Err(PgnReplayError {
                kind: PgnReplayErrorKind::Pgn(PgnErrorKind::Io(failure)),
                ..
            }) => {
                let error = read_error(path)(failure.into());
                // The first is reported when the command ends; any other right away.
                if totals.unreadable.is_some() {
                    eprintln!("error: {error}");
                } else {
                    totals.unreadable = Some(error);
                }
            }
            Err(error) => {
                totals.games += 1;
                totals.moves += error.replayed;
                totals.errors += 1;
                let at = error.location;
                let path = path.display();
                if let Err(e) = writeln!(out, "{path}:{}:{}: {}", at.line, at.column, error.kind) {
                    return ControlFlow::Break(e);
                }
            }
        }
        ControlFlow::Continue(())
    });
    if let ControlFlow::Break(e) = flow {
        return Err(CliError::Write(e));
    }
    writeln!(
        out,
        "games {} moves {} errors {}",
        totals.games, totals.moves, totals.errors
    )?;
    Ok(totals)
}

#[cfg(test)]
mod tests;
