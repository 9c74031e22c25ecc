//! The error type every subcommand returns, and how each error maps to a message and an exit
//! status: `main` calls [`CliError::report`] once.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use caissa_arbiter::json::JsonLineError;
use caissa_cli::move_list::MoveListError;

use crate::position::FenError;

/// Why a subcommand did not succeed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The FEN given is not FEN, or not a legal position.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// An argument whose value cannot be read (`caissa rate`).
    #[error("--{arg}: {problem}")]
    Arg {
        /// The argument's name.
        arg: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A move of `--moves` that is not SAN or UCI, or not legal where it is played
    /// (`caissa status`).
    #[error(transparent)]
    Move(#[from] MoveListError),
    /// A line of an event log is malformed or cannot be applied (`caissa arbitrate`).
    #[error("{file}: {error}")]
    Log {
        /// The file, as given.
        file: String,
        /// The line and the problem.
        error: JsonLineError,
    },
    /// An input file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Writing the results failed.
    #[error("cannot write the output: {0}")]
    Write(#[from] io::Error),
    /// A temporary file (`pgn select --dedupe`'s keys, stdin read twice) failed.
    #[error("cannot use a temporary file: {0}")]
    Temporary(io::Error),
    /// `caissa pgn select --on-error stop` stopped at a broken game; the game and the summary
    /// are already on stderr, so nothing more is printed.
    #[error("stopped at a broken game")]
    Stopped,
    /// A perft suite had wrong counts or unreadable lines; the details are already on stdout.
    #[error("{failed} of {checks} checks failed, {unreadable} lines unreadable")]
    SuiteFailed {
        /// Failed checks.
        failed: u64,
        /// Checks made.
        checks: u64,
        /// Lines that could not be read.
        unreadable: u64,
    },
    /// Some checks were made and at least one failed; the details are already on stdout.
    #[error("{failed} of {checks} checks failed")]
    ChecksFailed {
        /// Failed checks, unreadable input counted as failed.
        failed: u64,
        /// Checks made plus unreadable input.
        checks: u64,
    },
}

impl CliError {
    /// The exit status: 1 for a failed check, 2 for bad input, usage or output.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::ChecksFailed { .. } | CliError::SuiteFailed { .. } | CliError::Stopped => 1,
            CliError::Fen(_)
            | CliError::Arg { .. }
            | CliError::Move(_)
            | CliError::Log { .. }
            | CliError::Read { .. }
            | CliError::Write(_)
            | CliError::Temporary(_) => 2,
        }
    }

    /// Prints the error on stderr and returns the exit status for it.
    ///
    /// A closed stdout (`caissa moves ... | head -1`) is not an error worth a message: the reader
    /// has what it wanted, so the command ends quietly with success.
    pub(crate) fn report(&self) -> ExitCode {
        if let CliError::Write(e) = self
            && e.kind() == io::ErrorKind::BrokenPipe
        {
            return ExitCode::SUCCESS;
        }
        if !matches!(self, CliError::Stopped) {
            eprintln!("error: {self}");
        }
        ExitCode::from(self.exit_code())
    }
}
