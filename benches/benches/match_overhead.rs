//! The match runner's own work per move, without processes: for every move of the PGN samples
//! (`data/pgn`), what `caissa_match::runner` does between reading a `bestmove` and writing the
//! next `go` — the move judged by the referee on the arbiter (clock, automatic endings, claims,
//! adjudication, the record), then the `position` and `go` lines written for the next engine.
//! Each move is timed alone (best of five rounds, to filter out a busy machine) and the median,
//! 99.9th percentile and maximum are printed; criterion then times the whole replay. The pipe
//! and the thread hand-over come on top (see `caissa match`'s own figures on stderr).
//!
//! ```text
//! cargo bench -p caissa-benches --bench match_overhead
//! ```

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use caissa::uci::client::position_of;
use caissa::uci::protocol::{EngineMessage, Info};
use caissa_benches::outcome::{SampleGame, Summary, sample_games};
use caissa_match::openings::Opening;
use caissa_match::referee::{DrawRule, Limits, Referee, ResignRule, Settings};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn settings() -> Settings {
    let tc = match caissa::arbiter::TimeControl::from_pgn("40/5400+30:1800+30") {
        Ok(caissa::arbiter::PgnTimeControl::Control(tc)) => Some(tc),
        _ => None,
    };
    Settings {
        time_control: tc,
        draw: Some(DrawRule {
            move_number: 40,
            move_count: 8,
            score: 10,
        }),
        resign: Some(ResignRule {
            move_count: 3,
            score: 1000,
        }),
        ..Settings::default()
    }
}

/// Plays every sample game through a referee, calling `each` around the runner's work per move.
fn replay(games: &[SampleGame], mut each: impl FnMut(&mut dyn FnMut())) -> usize {
    let info = match EngineMessage::parse(
        "info depth 20 seldepth 28 score cp 31 nodes 1200000 pv e2e4 e7e5",
    ) {
        Ok(parsed) => match parsed.message {
            EngineMessage::Info(info) => *info,
            _ => Info::default(),
        },
        Err(_) => Info::default(),
    };
    let settings = settings();
    let mut line = String::new();
    let mut moves = 0;
    for game in games {
        let opening = Opening {
            start: game.start,
            ..Opening::standard()
        };
        let Ok(mut referee) = Referee::new(&opening, &settings, ["A", "B"]) else {
            continue;
        };
        for &m in &game.moves {
            if referee.ending().is_some() {
                break;
            }
            moves += 1;
            each(&mut || {
                referee.play(m, 1_000, Some(&info));
                line.clear();
                let position = position_of(referee.game(), referee.castling_mode());
                let _ = writeln!(line, "{position}\n{}", referee.go(&Limits::default()));
                black_box(&line);
            });
        }
    }
    moves
}

fn runner_work_per_move(c: &mut Criterion) {
    let games = sample_games();
    let mut best: Vec<Duration> = Vec::new();
    for round in 0..5 {
        let mut times = Vec::new();
        replay(&games, |work| {
            let begin = Instant::now();
            work();
            times.push(begin.elapsed());
        });
        if round == 0 {
            best = times;
        } else {
            for (best, time) in best.iter_mut().zip(times) {
                *best = (*best).min(time);
            }
        }
    }
    println!("runner work per move: {}", Summary::of(best));
    let moves = replay(&games, |work| work());
    let mut group = c.benchmark_group("match_overhead");
    group.throughput(Throughput::Elements(moves as u64));
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(10);
    group.bench_function("sample-games", |b| b.iter(|| replay(&games, |work| work())));
    group.finish();
}

criterion_group!(benches, runner_work_per_move);
criterion_main!(benches);
