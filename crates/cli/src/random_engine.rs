//! `caissa random-engine`: a UCI engine that plays a random legal move, built on
//! `caissa_uci::engine`. For testing GUIs and match runners; `--misbehave` turns it into the
//! engine a runner must survive.
//!
//! The move is drawn from the position and `--seed`, so the same position always gets the same
//! move, after `--think` milliseconds. With `--misbehave MODE --after N`, the engine behaves for its first N moves and then:
//! `illegal` answers `bestmove a1a1`; `exit` exits; `hang` never answers `go`; `garbage` prints
//! noise and a malformed `bestmove`; `noready` (from the start) never answers `isready`.

use std::io::{self, BufRead, Write};

use caissa::uci::engine::{EngineLoop, Request};
use caissa::uci::protocol::{EngineMessage, Info, ScoreBound, ScoreValue};
use clap::{Args, ValueEnum};

use crate::error::CliError;

/// Arguments of `caissa random-engine`.
#[derive(Debug, Args)]
pub(crate) struct RandomEngineArgs {
    /// Mixed with each position's hash to draw the move.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Misbehave, for testing runners.
    #[arg(long, value_enum)]
    misbehave: Option<Misbehaviour>,
    /// Moves played correctly before misbehaving.
    #[arg(long, default_value_t = 0)]
    after: u32,
    /// Milliseconds to think before each move (to see a clock run down).
    #[arg(long, default_value_t = 0)]
    think: u64,
}

/// What a misbehaving engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Misbehaviour {
    /// Plays an illegal move.
    Illegal,
    /// Exits instead of answering `go`.
    Exit,
    /// Never answers `go`.
    Hang,
    /// Prints noise and a malformed move.
    Garbage,
    /// Never answers `isready`.
    Noready,
}

/// Runs the engine on stdin and stdout until `quit` or the end of the input.
pub(crate) fn run(args: &RandomEngineArgs) -> Result<(), CliError> {
    let stdin = io::stdin();
    let mut engine = EngineLoop::new(stdin.lock());
    let mut out = io::stdout().lock();
    let mut played = 0u32;
    loop {
        let misbehave = args.misbehave.filter(|_| played >= args.after);
        match engine.next_request()? {
            Request::Uci => {
                writeln!(out, "{}", EngineMessage::IdName("caissa random".into()))?;
                writeln!(
                    out,
                    "{}",
                    EngineMessage::IdAuthor("the caissa authors".into())
                )?;
                writeln!(out, "{}", EngineMessage::UciOk)?;
            }
            Request::IsReady if args.misbehave != Some(Misbehaviour::Noready) => {
                writeln!(out, "{}", EngineMessage::ReadyOk)?;
            }
            Request::Go { .. } => {
                played += 1;
                match misbehave {
                    Some(Misbehaviour::Exit) => return Ok(()),
                    Some(Misbehaviour::Hang) => {}
                    Some(Misbehaviour::Illegal) => writeln!(out, "bestmove a1a1")?,
                    Some(Misbehaviour::Garbage) => {
                        writeln!(out, "\u{7}#%&! nonsense {played}")?;
                        writeln!(out, "bestmove e9z4")?;
                    }
                    Some(Misbehaviour::Noready) | None => {
                        std::thread::sleep(std::time::Duration::from_millis(args.think));
                        go(&engine, args.seed, &mut out)?;
                    }
                }
            }
            Request::IllegalPosition(e) => {
                let info = Info {
                    string: Some(format!("position refused: {e}")),
                    ..Info::default()
                };
                writeln!(out, "{}", EngineMessage::Info(Box::new(info)))?;
            }
            Request::Quit => return Ok(()),
            _ => {}
        }
        out.flush()?;
    }
}

/// Answers `go` with a random legal move (or `(none)`), after one `info` line.
fn go<R: BufRead>(engine: &EngineLoop<R>, seed: u64, out: &mut impl Write) -> io::Result<()> {
    let position = engine.game().position();
    let moves = position.legal_moves();
    let best = match moves.len() {
        0 => None,
        n => {
            let draw = mix(position.zobrist_hash() ^ seed);
            Some(moves[(draw % n as u64) as usize])
        }
    };
    let info = Info {
        depth: Some(1),
        nodes: Some(moves.len() as u64),
        score: Some(caissa::uci::protocol::EngineScore {
            value: ScoreValue::Centipawns(0),
            bound: ScoreBound::Exact,
        }),
        pv: best.map(|m| engine.uci(m)).into_iter().collect(),
        ..Info::default()
    };
    writeln!(out, "{}", EngineMessage::Info(Box::new(info)))?;
    let message = EngineMessage::BestMove {
        best: best.map(|m| engine.uci(m)),
        ponder: None,
    };
    writeln!(out, "{message}")
}

/// A 64-bit mixing function (the splitmix64 finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
