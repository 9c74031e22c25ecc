//! `caissa`: the command-line face of the caissa crates, for scripts and people.
//!
//! Each subcommand lives in its own module and returns `Result<(), CliError>`; `main` turns the
//! result into the process's exit status:
//!
//! | status | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | a check failed (for example a perft suite count did not match) |
//! | 2 | bad input or usage: an invalid FEN, an unreadable file, an unknown option |
//!
//! Results go to stdout, in formats that scripts may rely on (each subcommand's docs give them);
//! diagnostics, timings and progress go to stderr.

#![forbid(unsafe_code)]

mod arbitrate;
mod engine_match;
mod error;
mod moves;
mod perft;
mod pgn;
mod position;
mod random_engine;
mod rate;
mod status;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Subcommand};

use crate::error::CliError;

/// Chess tools built on caissa, an implementation of the FIDE Laws of Chess.
#[derive(Debug, clap::Parser)]
#[command(name = "caissa", version)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft), or check a perft suite.
    Perft(perft::PerftArgs),
    /// List the legal moves of a position, in UCI notation.
    Moves(moves::MovesArgs),
    /// Check PGN files (replay every move) or rewrite them in the export format.
    Pgn(pgn::PgnArgs),
    /// Where a game stands after some moves: check, mate, dead position, who can win, draw
    /// claims, and the result.
    Status(status::StatusArgs),
    /// Replay a game's event log (JSON lines) under the FIDE Laws and print the verdict as
    /// JSON: result, termination, article, penalties, clocks and PGN.
    Arbitrate(arbitrate::ArbitrateArgs),
    /// Rating changes: FIDE Elo (--rating, --games) or club points (--club).
    Rate(rate::RateArgs),
    /// A UCI engine that plays random legal moves (on stdin and stdout), for testing GUIs and
    /// match runners; --misbehave makes it fail on purpose.
    RandomEngine(random_engine::RandomEngineArgs),
    /// Play engines against each other (UCI), every game judged by the FIDE Laws: results,
    /// Elo, SPRT, and the games as PGN.
    Match(engine_match::MatchArgs),
}

fn main() -> ExitCode {
    // On bad usage clap prints its message to stderr and exits with status 2.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Moves(args) => moves::run(&args),
        Command::Pgn(args) => pgn::run(&args),
        Command::Status(args) => status::run(&args),
        Command::Arbitrate(args) => arbitrate::run(&args),
        Command::Rate(args) => rate::run(&args),
        Command::RandomEngine(args) => random_engine::run(&args),
        Command::Match(mut args) => {
            if let Some(("match", sub)) = matches.subcommand() {
                args.group_engines(sub);
            }
            engine_match::run(&args)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.report(),
    }
}

/// Writes a subcommand's whole output to stdout.
///
/// # Errors
///
/// [`CliError::Write`] if stdout fails (a closed pipe included: [`CliError::report`] keeps that
/// one quiet).
fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(out.flush()?)
}
