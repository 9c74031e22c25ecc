//! SAN alone, for profiling under callgrind: `cargo run --release -p caissa-benches --example
//! san_profile [MODE] [rounds]` takes every position of the main lines of the lichess sample
//! (read and replayed once, before the rounds) and, `rounds` times (3 unless given), works on
//! every legal move of each: MODE `write` (the default) writes its SAN ([`San::from_move`]),
//! `read` finds it again from that SAN ([`San::to_move`]). Instructions per move are the
//! difference between two runs with different rounds, divided by the number of moves it prints.

use caissa::notation::pgn::{Reader, RecordedToken, Recorder};
use caissa::{Move, Position, San};
use caissa_benches::pgn;

fn main() {
    let mut args = std::env::args().skip(1);
    let write = match args.next().as_deref() {
        None | Some("write") => true,
        Some("read") => false,
        Some(other) => panic!("unknown mode {other}: write or read"),
    };
    let rounds: u32 = args
        .next()
        .map_or(3, |n| n.parse().expect("a number of rounds"));
    let work = positions_and_moves();
    let moves: usize = work.iter().map(|(_, moves)| moves.len()).sum();
    let mut checksum = 0_u64;
    for _ in 0..rounds {
        for (pos, moves) in &work {
            for &(m, san) in moves {
                if write {
                    checksum += u64::from(std::hint::black_box(San::from_move(pos, m)) == san);
                } else {
                    let found = std::hint::black_box(san).to_move(pos);
                    checksum += u64::from(found == Ok(m));
                }
            }
        }
    }
    assert_eq!(
        checksum,
        moves as u64 * u64::from(rounds),
        "every SAN round-trips"
    );
    println!("{} positions, {moves} moves", work.len());
}

/// Every main-line position of the sample with each legal move and its SAN.
fn positions_and_moves() -> Vec<(Position, Vec<(Move, San)>)> {
    let sample = pgn::lichess_sample();
    let mut reader = Reader::new(&sample[..]);
    let mut work = Vec::new();
    while let Some(game) = reader.read_game(&mut Recorder::new()) {
        let game = game.expect("well-formed");
        let mut pos = game.start.expect("a legal start");
        let mut depth = 0_u32;
        for token in &game.tokens {
            match token {
                RecordedToken::BeginVariation(_) => depth += 1,
                RecordedToken::EndVariation => depth -= 1,
                RecordedToken::Move(san, _) if depth == 0 => {
                    let moves = pos
                        .legal_moves()
                        .iter()
                        .map(|&m| (m, San::from_move(&pos, m)))
                        .collect();
                    work.push((pos, moves));
                    pos.play_unchecked(san.san.to_move(&pos).expect("legal"));
                }
                RecordedToken::Move(..) => {}
            }
        }
    }
    work
}
