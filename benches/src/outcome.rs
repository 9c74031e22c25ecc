//! The `outcome` workload: every game of the repository's PGN samples (`data/pgn/*.pgn`, main
//! lines), replayed into a [`Game`] that is asked for [`Game::outcome`] after each move, as a
//! game server does. Shared by the `outcome` bench and the `outcome_times` example.
//!
//! ```no_run
//! use caissa_benches::outcome;
//!
//! let games = outcome::sample_games();
//! let times = outcome::call_times(&games);
//! let summary = outcome::Summary::of(times);
//! println!("{summary}");
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use caissa::notation::pgn::{Reader, RecordedToken, Recorder};
use caissa::{Game, Move, Position};

/// The PGN samples, by file name under `data/pgn`.
pub const SAMPLES: [&str; 3] = [
    "lichess-2025-05-sample.pgn",
    "mliebelt-sample-games.pgn",
    "cm-pgn-test-list.pgn",
];

/// A game of the samples: its start and its main line, up to the first move that does not
/// replay (none in the samples).
#[derive(Clone, Debug)]
pub struct SampleGame {
    /// The start position.
    pub start: Position,
    /// The main line.
    pub moves: Vec<Move>,
}

/// Every game of [`SAMPLES`] whose start the tags give.
///
/// # Panics
///
/// If a sample cannot be read.
#[must_use]
pub fn sample_games() -> Vec<SampleGame> {
    let mut games = Vec::new();
    for name in SAMPLES {
        let path = format!("{}/../data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
        let pgn = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut reader = Reader::new(&pgn[..]);
        let mut recorder = Recorder::new();
        while let Some(game) = reader.read_game(&mut recorder) {
            let Ok(game) = game else { continue };
            let Ok(start) = game.start.clone() else {
                continue;
            };
            let mut pos = start;
            let mut moves = Vec::new();
            let mut depth = 0u32;
            for token in &game.tokens {
                match token {
                    RecordedToken::BeginVariation(_) => depth += 1,
                    RecordedToken::EndVariation => depth = depth.saturating_sub(1),
                    RecordedToken::Move(san, _) if depth == 0 => {
                        let Ok(m) = san.san.to_move(&pos) else { break };
                        pos.play_unchecked(m);
                        moves.push(m);
                    }
                    RecordedToken::Move(..) => {}
                }
            }
            games.push(SampleGame { start, moves });
        }
    }
    games
}

/// Replays every game, asking [`Game::outcome`] after each move (and at the start); returns
/// how long each call took.
#[must_use]
pub fn call_times(games: &[SampleGame]) -> Vec<Duration> {
    let mut times = Vec::new();
    for sample in games {
        let mut game = Game::new(sample.start);
        let mut ask = |game: &Game| {
            let begin = Instant::now();
            std::hint::black_box(game.outcome());
            times.push(begin.elapsed());
        };
        ask(&game);
        for &m in &sample.moves {
            game.play_unchecked(m);
            ask(&game);
        }
    }
    times
}

/// Replays every game asking for the outcome after each move; returns the number of calls.
#[must_use]
pub fn replay_asking(games: &[SampleGame]) -> usize {
    let mut calls = 0;
    for sample in games {
        let mut game = Game::new(sample.start);
        std::hint::black_box(game.outcome());
        for &m in &sample.moves {
            game.play_unchecked(m);
            std::hint::black_box(game.outcome());
        }
        calls += sample.moves.len() + 1;
    }
    calls
}

/// The distribution of call times: count, median, 99.9th percentile, maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The number of calls.
    pub calls: usize,
    /// The median call.
    pub median: Duration,
    /// The 99.9th percentile (nearest rank).
    pub p999: Duration,
    /// The slowest call.
    pub max: Duration,
}

impl Summary {
    /// Summarises `times`.
    #[must_use]
    pub fn of(mut times: Vec<Duration>) -> Summary {
        times.sort_unstable();
        let rank = |q: f64| {
            if times.is_empty() {
                return Duration::ZERO;
            }
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )] // a rank within the slice
            let i = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len()) - 1;
            times[i]
        };
        Summary {
            calls: times.len(),
            median: rank(0.5),
            p999: rank(0.999),
            max: times.last().copied().unwrap_or_default(),
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} calls: median {:?}, p99.9 {:?}, max {:?}",
            self.calls, self.median, self.p999, self.max
        )
    }
}
