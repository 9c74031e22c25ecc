//! Reading PGN, one thread, caissa against pgn-reader (with shakmaty to replay): the workloads
//! of [`caissa_benches::pgn`].
//!
//! - `read+replay` and `read`, in bytes per second, on two inputs in memory:
//!   `data/pgn/lichess-2025-05-sample.pgn` (about 1 MB) and that sample repeated 32 times (about
//!   32 MB). Before timing, both sides must count the same games and moves, whether replaying or
//!   only reading.
//! - `san-replay`, in moves per second: SAN already read turned into moves and played, the main
//!   lines of the sample.
//!
//! ```text
//! cargo bench -p caissa-benches --bench pgn
//! ```

use std::hint::black_box;
use std::time::Duration;

use caissa_benches::pgn::{self, SanGames};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn read_and_replay(c: &mut Criterion) {
    let sample = pgn::lichess_sample();
    let inputs = [
        ("lichess-sample", sample.clone()),
        ("sample-x32", sample.repeat(32)),
    ];
    for (name, input) in &inputs {
        let replayed = pgn::caissa_replay(&input[..]);
        assert_eq!(pgn::peer_replay(&input[..]), replayed, "{name}");
        assert_eq!(pgn::caissa_read(&input[..]), replayed, "{name}");
        assert_eq!(pgn::peer_read(&input[..]), replayed, "{name}");
        let mut group = c.benchmark_group(format!("pgn/{name}"));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function("read+replay/caissa", |b| {
            b.iter(|| pgn::caissa_replay(black_box(&input[..])));
        });
        group.bench_function("read+replay/pgn-reader+shakmaty", |b| {
            b.iter(|| pgn::peer_replay(black_box(&input[..])));
        });
        group.bench_function("read/caissa", |b| {
            b.iter(|| pgn::caissa_read(black_box(&input[..])));
        });
        group.bench_function("read/pgn-reader", |b| {
            b.iter(|| pgn::peer_read(black_box(&input[..])));
        });
        group.finish();
    }
}

fn san_replay(c: &mut Criterion) {
    let games = SanGames::from_pgn(&pgn::lichess_sample());
    assert_eq!(games.replay_caissa(), games.moves());
    assert_eq!(games.replay_shakmaty(), games.moves());
    let mut group = c.benchmark_group("pgn/san-replay");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(games.moves()));
    group.bench_function("caissa", |b| b.iter(|| black_box(&games).replay_caissa()));
    group.bench_function("shakmaty", |b| {
        b.iter(|| black_box(&games).replay_shakmaty());
    });
    group.finish();
}

criterion_group!(benches, read_and_replay, san_replay);
criterion_main!(benches);
