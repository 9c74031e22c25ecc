//! One PGN workload of [`caissa_benches::pgn`], alone, for profiling under callgrind or
//! cachegrind: `cargo run --release -p caissa-benches --example pgn_profile [MODE] [rounds]`
//! reads (and by default replays) the lichess sample `rounds` times (3 unless given). MODE is
//! `replay` (the default), `read`, or `peer-replay` / `peer-read` for pgn-reader's side;
//! `PGN_PROFILE_FILE` reads another file instead, loaded into memory first unless
//! `PGN_PROFILE_STREAM` is set, which streams it through `File` at every round. Instructions per
//! round are the difference between two runs with different rounds, which leaves out the
//! start-up.

use std::fs::File;

use caissa_benches::pgn;

/// A workload on input in memory: (games, moves).
type InMemory = fn(&[u8]) -> (u64, u64);

/// A workload on input streamed from a file: (games, moves).
type Streamed = fn(File) -> (u64, u64);

fn main() {
    let mut args = std::env::args().skip(1);
    // In memory and through `File`, each its own instance, as in the criterion bench.
    let (in_memory, streamed): (InMemory, Streamed) = match args.next().as_deref() {
        None | Some("replay") => (|input| pgn::caissa_replay(input), pgn::caissa_replay),
        Some("read") => (|input| pgn::caissa_read(input), pgn::caissa_read),
        Some("peer-replay") => (|input| pgn::peer_replay(input), pgn::peer_replay),
        Some("peer-read") => (|input| pgn::peer_read(input), pgn::peer_read),
        Some(other) => panic!("unknown mode {other}: replay, read, peer-replay or peer-read"),
    };
    let rounds = args
        .next()
        .map_or(3, |n| n.parse().expect("a number of rounds"));
    let stream = std::env::var_os("PGN_PROFILE_STREAM").is_some();
    let round: Box<dyn Fn() -> (u64, u64)> = match std::env::var_os("PGN_PROFILE_FILE") {
        Some(path) if stream => {
            Box::new(move || streamed(File::open(&path).expect("PGN_PROFILE_FILE is readable")))
        }
        Some(path) => {
            let input = std::fs::read(path).expect("PGN_PROFILE_FILE is readable");
            Box::new(move || in_memory(&input))
        }
        None => {
            let input = pgn::lichess_sample();
            Box::new(move || in_memory(&input))
        }
    };
    let (mut games, mut moves) = (0, 0);
    for _ in 0..rounds {
        let (round_games, round_moves) = round();
        games += round_games;
        moves += round_moves;
    }
    println!("{games} games, {moves} moves");
}
