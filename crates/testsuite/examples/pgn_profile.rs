//! Reads (and by default replays) the lichess sample a few times, for profiling the PGN reader
//! under callgrind: `cargo run --release -p caissa-testsuite --example pgn_profile [read|replay] [rounds]`;
//! `PGN_PROFILE_FILE` reads another file instead of the lichess sample.

use std::ops::ControlFlow;

use caissa_notation::pgn::{Location, Reader, Replayer, Visitor};
use caissa_notation::san::SanPlus;

/// Counts moves without replaying them.
struct Count;

impl Visitor for Count {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;
    fn begin_game(&mut self, _: Location) -> ControlFlow<u64> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }
    fn san(&mut self, n: &mut u64, _: SanPlus, _: Location) -> ControlFlow<u64> {
        *n += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, n: u64) -> u64 {
        n
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let replay = args.next().is_none_or(|mode| mode != "read");
    let rounds = args
        .next()
        .map_or(3, |n| n.parse().expect("a number of rounds"));
    let sample = match std::env::var_os("PGN_PROFILE_FILE") {
        Some(path) => std::fs::read_to_string(path).expect("PGN_PROFILE_FILE is readable"),
        None => caissa_testsuite::read_data("pgn/lichess-2025-05-sample.pgn"),
    };
    let (mut games, mut moves) = (0, 0);
    for _ in 0..rounds {
        let (round_games, round_moves) = read(sample.as_bytes(), replay);
        games += round_games;
        moves += round_moves;
    }
    println!("{games} games, {moves} moves");
}

/// Reads every game of `bytes`, replaying them if `replay`: the games and moves.
fn read(bytes: &[u8], replay: bool) -> (u64, u64) {
    let mut reader = Reader::new(bytes);
    let (mut games, mut moves) = (0, 0);
    loop {
        let read = if replay {
            reader
                .read_game(&mut Replayer::new())
                .map(|game| game.map(|game| game.expect("well-formed").expect("legal").moves))
        } else {
            reader
                .read_game(&mut Count)
                .map(|game| game.map(|game| game.expect("well-formed")))
        };
        let Some(n) = read.expect("reading from memory") else {
            break;
        };
        games += 1;
        moves += n;
    }
    (games, moves)
}
