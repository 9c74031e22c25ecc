//! `caissa perft`: counts the leaf nodes of the legal move tree to a fixed depth.
//!
//! # Output
//!
//! On stdout, with `--divide`, first one line per legal move of the root position,
//! `<uci-move> <count>`, sorted by the move's UCI text; then always a last line `nodes <N>`.
//! On stderr, one line with the time taken and the speed: `time 1.234 s, 96.5 Mnps`.
//!
//! With `--suite FILE` the command checks a perft suite instead; see [`suite`] for its output.

mod suite;

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use caissa::movegen::{perft, perft_divide};
use caissa_cli::perft_suite::MAX_DEPTH;
use clap::Args;

use crate::error::CliError;
use crate::position::{START_FEN, VariantArgs, read_position, uci};

/// The depth counted when `--depth` is not given (and there is no `--suite`).
const DEFAULT_DEPTH: u32 = 5;

/// Arguments of `caissa perft`.
#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The position, as FEN [default: the standard starting position].
    #[arg(long, value_name = "FEN", conflicts_with = "suite")]
    fen: Option<String>,
    /// The depth in plies, at most 13 [default: 5; with --suite, every depth the suite lists].
    ///
    /// With --suite, only the listed depths up to N are checked.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    /// Before the total, print each legal move with the node count below it.
    #[arg(long, conflicts_with = "suite")]
    divide: bool,
    /// Check a perft suite instead: a file of lines `FEN ;D1 20 ;D2 400 ...`.
    ///
    /// Blank lines and lines starting with # are skipped; `;id "..."` and other operations
    /// are ignored, but a line needs a `D` count. Prints `FAIL <line> depth <d> expected <e>
    /// got <g> <fen>` for each wrong count, `ERROR <line> <message>` for each unreadable line,
    /// and a last line `positions <P> checked <C> failed <F> unreadable <U>`; exits with status
    /// 1 if anything failed or could not be read.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    #[command(flatten)]
    variant: VariantArgs,
}

/// Runs `caissa perft`.
///
/// # Errors
///
/// [`CliError::Fen`] for a bad `--fen`, [`CliError::Write`] if stdout fails, and for `--suite`
/// the errors of [`suite::run`].
pub(crate) fn run(args: &PerftArgs) -> Result<(), CliError> {
    let mode = args.variant.mode();
    if let Some(path) = &args.suite {
        return suite::run(path, args.depth, mode);
    }
    let pos = read_position(args.fen.as_deref().unwrap_or(START_FEN), mode)?;
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let mut out = std::io::stdout().lock();

    let start = Instant::now();
    let nodes = if args.divide {
        let mut divide: Vec<(String, u64)> = perft_divide(&pos, depth)
            .map(|(m, nodes)| (uci(&pos, m), nodes))
            .collect();
        divide.sort_unstable();
        for (m, nodes) in &divide {
            writeln!(out, "{m} {nodes}")?;
        }
        // At depth 0 there are no moves to divide by, and the one node is the root.
        if depth == 0 {
            perft(&pos, 0)
        } else {
            divide.iter().map(|&(_, nodes)| nodes).sum()
        }
    } else {
        perft(&pos, depth)
    };
    let speed = Speed::since(start, nodes);

    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    eprintln!("{speed}");
    Ok(())
}

/// Nodes counted in some wall-clock time; displays as `time 1.234 s, 96.5 Mnps`.
#[derive(Clone, Copy, Debug)]
struct Speed {
    /// Nodes counted.
    nodes: u64,
    /// Time taken.
    elapsed: Duration,
}

impl Speed {
    /// The speed of counting `nodes` from `start` until now.
    fn since(start: Instant, nodes: u64) -> Speed {
        Speed {
            nodes,
            elapsed: start.elapsed(),
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        // A guard against dividing by zero on a clock too coarse to see a tiny run.
        let nps = self.nodes as f64 / secs.max(1e-9);
        write!(f, "time {secs:.3} s, ")?;
        if nps >= 1e6 {
            write!(f, "{:.1} Mnps", nps / 1e6)
        } else if nps >= 1e3 {
            write!(f, "{:.1} knps", nps / 1e3)
        } else {
            write!(f, "{nps:.0} nps")
        }
    }
}
