//! Reading PGN, one thread, caissa against pgn-reader (with shakmaty to replay): the workloads
//! of [`caissa_benches::pgn`].
//!
//! - `read+replay` and `read`, in bytes per second, on two inputs in memory:
//!   `data/pgn/lichess-2025-05-sample.pgn` (about 1 MB) and that sample repeated 32 times (about
//!   32 MB). Before timing, both sides must count the same games and moves, whether replaying or
//!   only reading.
//! - `file-100MB/read+replay`: the same work streamed from a file of about 100 MB (the sample
//!   repeated, written to the temp dir and removed afterwards), read through `File`.
//! - `san-replay`, in moves per second: SAN already read turned into moves and played, the main
//!   lines of the sample.
//!
//! ```text
//! cargo bench -p caissa-benches --bench pgn
//! ```

use std::fs::File;
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

fn read_and_replay_file(c: &mut Criterion) {
    let sample = pgn::lichess_sample();
    let path = std::env::temp_dir().join(format!("caissa-bench-{}.pgn", std::process::id()));
    let copies = (100_000_000 / sample.len()).max(1);
    std::fs::write(&path, sample.repeat(copies)).expect("the temp dir is writable");
    let open = || File::open(&path).expect("the file just written");
    let replayed = pgn::caissa_replay(open());
    assert_eq!(pgn::peer_replay(open()), replayed);
    let bytes = std::fs::metadata(&path)
        .expect("the file just written")
        .len();
    let mut group = c.benchmark_group("pgn/file-100MB");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Bytes(bytes));
    group.bench_function("read+replay/caissa", |b| {
        b.iter(|| pgn::caissa_replay(open()));
    });
    group.bench_function("read+replay/pgn-reader+shakmaty", |b| {
        b.iter(|| pgn::peer_replay(open()));
    });
    group.finish();
    // Best effort: the file is only a cache of the sample.
    let _ = std::fs::remove_file(&path);
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

criterion_group!(benches, read_and_replay, read_and_replay_file, san_replay);
criterion_main!(benches);
