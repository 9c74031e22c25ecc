//! One PGN workload of [`caissa_benches::pgn`], alone, for profiling under callgrind or
//! cachegrind: `cargo run --release -p caissa-benches --example pgn_profile [read|replay]
//! [rounds]` reads (and by default replays) the lichess sample `rounds` times (3 unless given);
//! `PGN_PROFILE_FILE` reads another file instead. Instructions per round are the difference
//! between two runs with different rounds, which leaves out the start-up.

use caissa_benches::pgn;

fn main() {
    let mut args = std::env::args().skip(1);
    let replay = args.next().is_none_or(|mode| mode != "read");
    let rounds = args
        .next()
        .map_or(3, |n| n.parse().expect("a number of rounds"));
    let input = match std::env::var_os("PGN_PROFILE_FILE") {
        Some(path) => std::fs::read(path).expect("PGN_PROFILE_FILE is readable"),
        None => pgn::lichess_sample(),
    };
    let (mut games, mut moves) = (0, 0);
    for _ in 0..rounds {
        let (round_games, round_moves) = if replay {
            pgn::caissa_replay(&input[..])
        } else {
            pgn::caissa_read(&input[..])
        };
        games += round_games;
        moves += round_moves;
    }
    println!("{games} games, {moves} moves");
}
