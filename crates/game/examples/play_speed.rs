//! How much a [`Game`] costs over bare positions: playing moves, taking them back, and asking
//! for repetitions, over the same random games.
//!
//! `cargo run --release -p caissa-game --example play_speed [games] [rounds]`
//!
//! The games are played to their end (checkmate, stalemate, a dead position, 75 moves or
//! fivefold repetition) with seeded random moves, so they include long stretches without
//! captures or pawn moves, where repetition look-backs are longest. Each game is replayed
//! `rounds` times by each variant in turn, and each variant's fastest replay of each game
//! counts, which filters out interruptions on a busy machine. The game and the stack reuse
//! their buffers, as a search or a server would.

use std::hint::black_box;
use std::time::{Duration, Instant};

use caissa_game::Game;
use caissa_movegen::{Move, Position};

/// A way of replaying a game's moves.
type Variant<'a> = (&'static str, Box<dyn FnMut(&[Move]) + 'a>);

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(1_000, |a| a.parse().expect("games"));
    let rounds: usize = args.next().map_or(20, |a| a.parse().expect("rounds"));

    let mut seed = 0x5EED_0F6A_u64;
    let recorded: Vec<Vec<Move>> = (0..games).map(|_| random_game(&mut seed)).collect();
    let plies: usize = recorded.iter().map(Vec::len).sum();
    let start = Position::standard();
    println!(
        "{games} random games, {plies} plies ({:.0} per game), fastest of {rounds} replays",
        plies as f64 / games as f64
    );

    let mut stack: Vec<Position> = Vec::new();
    let mut game = Game::new(start);
    let mut game2 = Game::new(start);
    let mut game3 = Game::new(start);
    let mut game4 = Game::new(start);
    let mut variants: Vec<Variant<'_>> = vec![
        (
            "Position::play_unchecked, in place",
            Box::new(|moves| {
                let mut pos = start;
                for &m in moves {
                    pos.play_unchecked(m);
                    black_box(&pos);
                }
            }),
        ),
        (
            "  the same, pushing each position",
            Box::new(|moves| {
                stack.clear();
                let mut pos = start;
                for &m in moves {
                    stack.push(pos);
                    pos.play_unchecked(m);
                    black_box(&pos);
                }
            }),
        ),
        (
            "Game::play_unchecked",
            Box::new(|moves| {
                game.truncate(0);
                for &m in moves {
                    game.play_unchecked(m);
                    black_box(game.position());
                }
            }),
        ),
        (
            "Game::play_unchecked + undo",
            Box::new(|moves| {
                game2.truncate(0);
                for &m in moves {
                    game2.play_unchecked(m);
                    black_box(game2.position());
                }
                while let Some(m) = game2.undo() {
                    black_box(m);
                }
            }),
        ),
        (
            "Game::play_unchecked + repetitions",
            Box::new(|moves| {
                game3.truncate(0);
                for &m in moves {
                    game3.play_unchecked(m);
                    black_box(game3.repetitions());
                }
            }),
        ),
        (
            "Position::play (checked)",
            Box::new(|moves| {
                let mut pos = start;
                for &m in moves {
                    pos = pos.play(m).expect("legal");
                    black_box(&pos);
                }
            }),
        ),
        (
            "Game::play (checked)",
            Box::new(|moves| {
                game4.truncate(0);
                for &m in moves {
                    game4.play(m).expect("legal");
                    black_box(game4.position());
                }
            }),
        ),
    ];

    let mut total = vec![Duration::ZERO; variants.len()];
    for moves in &recorded {
        let mut fastest = vec![Duration::MAX; variants.len()];
        for _ in 0..rounds {
            for ((_, replay), best) in variants.iter_mut().zip(&mut fastest) {
                let started = Instant::now();
                replay(moves);
                *best = (*best).min(started.elapsed());
            }
        }
        for (sum, best) in total.iter_mut().zip(fastest) {
            *sum += best;
        }
    }
    let base = total[0].as_secs_f64();
    for ((name, _), time) in variants.iter().zip(total) {
        println!(
            "{name:<36} {:7.2} ns/ply  {:+7.1}%",
            time.as_secs_f64() * 1e9 / plies as f64,
            (time.as_secs_f64() / base - 1.0) * 100.0
        );
    }
}

/// A random game from the standard start, played until `Game::outcome` ends it.
fn random_game(seed: &mut u64) -> Vec<Move> {
    let mut game = Game::standard();
    while game.outcome().is_none() {
        let moves = game.position().legal_moves();
        let m = moves[below(seed, moves.len())];
        game.play_unchecked(m);
    }
    game.moves().to_vec()
}

/// A number in `0..n` from a SplitMix64 step.
fn below(seed: &mut u64, n: usize) -> usize {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    usize::try_from((u128::from(z) * n as u128) >> 64).expect("below n")
}
