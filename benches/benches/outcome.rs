//! `Game::outcome` after every move of every game of the PGN samples (`data/pgn`), as a game
//! server asks it: criterion times the whole replay; before that, each call is timed alone and
//! the median, 99.9th percentile and maximum per call are printed (the best of five rounds per
//! call, to filter out a busy machine).
//!
//! ```text
//! cargo bench -p caissa-benches --bench outcome
//! ```

use std::time::Duration;

use caissa_benches::outcome::{Summary, call_times, replay_asking, sample_games};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn outcome_after_every_move(c: &mut Criterion) {
    let games = sample_games();
    let mut best = call_times(&games);
    for _ in 1..5 {
        for (best, time) in best.iter_mut().zip(call_times(&games)) {
            *best = (*best).min(time);
        }
    }
    println!("outcome per call: {}", Summary::of(best));
    let calls = replay_asking(&games);
    let mut group = c.benchmark_group("outcome");
    group.throughput(Throughput::Elements(calls as u64));
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(10);
    group.bench_function("sample-games", |b| b.iter(|| replay_asking(&games)));
    group.finish();
}

criterion_group!(benches, outcome_after_every_move);
criterion_main!(benches);
