//! The error type shared by every subcommand, and how each error maps to an exit status.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::position::FenError;

/// Why a subcommand did not succeed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The FEN given is not FEN, or not a legal position.
    #[error(transparent)]
    Fen(#[from] FenError),
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
            CliError::ChecksFailed { .. } => 1,
            CliError::Fen(_) | CliError::Read { .. } | CliError::Write(_) => 2,
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
        eprintln!("error: {self}");
        ExitCode::from(self.exit_code())
    }
}
