//! `caissa moves`: the legal moves of a position.
//!
//! Output on stdout: each legal move in UCI notation (in SAN with `--san`), one per line, sorted
//! by that text. Nothing is printed for a position without legal moves (checkmate or stalemate).

use std::io::{BufWriter, Write};

use caissa::notation::san::SanPlus;
use clap::Args;

use crate::error::CliError;
use crate::position::{VariantArgs, read_position, uci};

/// Arguments of `caissa moves`.
#[derive(Debug, Args)]
pub(crate) struct MovesArgs {
    /// The position, as FEN.
    #[arg(long)]
    fen: String,
    #[command(flatten)]
    variant: VariantArgs,
    /// Write the moves in SAN (`Nf3`, `O-O`, `e8=Q+`) instead of UCI.
    #[arg(long)]
    san: bool,
}

/// Runs `caissa moves`.
///
/// # Errors
///
/// [`CliError::Fen`] for a bad `--fen`, [`CliError::Write`] if stdout
/// fails.
pub(crate) fn run(args: &MovesArgs) -> Result<(), CliError> {
    let pos = read_position(&args.fen, args.variant.mode())?;
    let mut moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            if args.san {
                SanPlus::from_move(&pos, m).to_string()
            } else {
                uci(&pos, m)
            }
        })
        .collect();
    moves.sort_unstable();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for m in &moves {
        writeln!(out, "{m}")?;
    }
    out.flush()?;
    Ok(())
}
