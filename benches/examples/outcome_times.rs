//! `Game::outcome` after every move of the PGN samples: the median, 99.9th percentile and
//! maximum call time, the calls over 10, 20, 50 and 100 µs, the mean, and the slowest positions
//! as FEN.
//!
//! `cargo run --release -p caissa-benches --example outcome_times [rounds] [games]`
//!
//! Each round replays every game (or the first `games`); each call's fastest time over the
//! rounds counts, which filters out interruptions on a busy machine. Each round's plain mean
//! is printed too: what a loop that times every call once sees, as `compare.py`'s per-call
//! jobs do.

use std::time::{Duration, Instant};

use caissa::Game;
use caissa::notation::fen::{EnPassantMode, Fen};
use caissa_benches::outcome::{Summary, sample_games};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(3, |a| a.parse().expect("rounds"));
    let games: Vec<_> = match std::env::args().nth(2) {
        Some(a) => sample_games()
            .into_iter()
            .take(a.parse().expect("games"))
            .collect(),
        None => sample_games(),
    };
    let mut best: Vec<(Duration, String)> = Vec::new();
    let mut round_means = Vec::new();
    for round in 0..rounds {
        let mut i = 0;
        let mut total = Duration::ZERO;
        for sample in &games {
            let mut game = Game::new(sample.start);
            let mut plies = sample.moves.iter();
            loop {
                let begin = Instant::now();
                std::hint::black_box(game.outcome());
                let took = begin.elapsed();
                total += took;
                if round == 0 {
                    let fen = Fen::from_position(game.position(), EnPassantMode::Legal);
                    best.push((took, fen.to_string()));
                } else {
                    best[i].0 = best[i].0.min(took);
                }
                i += 1;
                let Some(&m) = plies.next() else { break };
                game.play_unchecked(m);
            }
        }
        round_means.push(total / u32::try_from(i.max(1)).unwrap_or(u32::MAX));
    }
    println!("{} games; fastest of {rounds} rounds per call", games.len());
    println!("{}", Summary::of(best.iter().map(|(t, _)| *t).collect()));
    let over = |micros: u64| {
        best.iter()
            .filter(|(t, _)| *t > Duration::from_micros(micros))
            .count()
    };
    println!(
        "calls over 10 / 20 / 50 / 100 µs: {} / {} / {} / {}; mean {:?}",
        over(10),
        over(20),
        over(50),
        over(100),
        best.iter().map(|(t, _)| *t).sum::<Duration>()
            / u32::try_from(best.len().max(1)).unwrap_or(u32::MAX)
    );
    println!("mean of each round: {round_means:?}");
    best.sort_by_key(|b| std::cmp::Reverse(b.0));
    for (took, fen) in best.iter().take(15) {
        println!("{took:>12?}  {fen}");
    }
}
