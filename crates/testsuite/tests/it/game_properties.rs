//! Properties of the game layer over seeded random games:
//!
//! - playing a move and taking it back restores everything: the position (counters and raw en
//!   passant square included), the history, repetition counts, claims, outcome, perpetual-check
//!   information; so does taking back several moves, one by one or with `truncate`;
//! - repetition keys and "same position" agree: two positions have the same key exactly when
//!   they have the same placement, side to move, castling rights and legal en passant square
//!   (FIDE 9.2.2), and exactly then `Position`'s equality holds;
//! - the repetitions the game finds by looking back over the plies since the last capture or
//!   pawn move are exactly those a scan of the whole history finds.
//!
//! `CAISSA_GAME_PROP_GAMES` plays more games (default [`DEFAULT_GAMES`]).

use caissa_testsuite::random;

use std::collections::HashMap;

use caissa_board::{Board, CastlingRights, Color, Setup, Square};
use caissa_game::{Claims, Game, Outcome, PerpetualCheck};
use caissa_movegen::{Move, Position};
use random::{Bias, Rng, random_move};

/// Games played when `CAISSA_GAME_PROP_GAMES` is not set.
const DEFAULT_GAMES: usize = 1_500;
const SEED: u64 = 0xCA15_5A00_6A3E_0002;

fn games() -> usize {
    std::env::var("CAISSA_GAME_PROP_GAMES").map_or(DEFAULT_GAMES, |n| {
        n.parse().expect("CAISSA_GAME_PROP_GAMES is a number")
    })
}

/// Everything a game answers about its current state.
#[derive(Debug, PartialEq)]
struct Snapshot {
    setup: Setup,
    ply: usize,
    positions: Vec<Setup>,
    moves: Vec<Move>,
    repetitions: usize,
    occurrences: Vec<usize>,
    key: Option<u64>,
    outcome: Option<Outcome>,
    claims: Claims,
    claims_with: Vec<Result<Claims, String>>,
    perpetual: Option<PerpetualCheck>,
}

fn snapshot(game: &Game) -> Snapshot {
    Snapshot {
        setup: game.position().to_setup(),
        ply: game.ply(),
        positions: game.positions().map(Position::to_setup).collect(),
        moves: game.moves().to_vec(),
        repetitions: game.repetitions(),
        occurrences: game.occurrences(game.ply()).to_vec(),
        key: game.key_at(game.ply()),
        outcome: game.outcome(),
        claims: game.claims(),
        claims_with: game
            .position()
            .legal_moves()
            .iter()
            .map(|&m| game.claims_with(m).map_err(|e| e.to_string()))
            .collect(),
        perpetual: game.perpetual_check(),
    }
}

/// A random game with many repetitions: players often move back what they moved last.
/// Calls `visit` after every move; stops at the game's end.
fn play_random_game(rng: &mut Rng, mut visit: impl FnMut(&mut Game, &mut Rng)) {
    let start = if rng.percent(70) {
        Position::standard()
    } else {
        let number = u32::try_from(rng.below(960)).expect("below 960");
        Position::chess960(number).expect("a Scharnagl number")
    };
    let move_back = [0, 40, 80][rng.below(3)];
    let bias = Bias {
        checkmate: 50,
        capture: 30,
        special: 30,
        ..Bias::UNIFORM
    };
    let mut game = Game::new(start);
    while game.outcome().is_none() {
        let back = game.ply().checked_sub(2).and_then(|ply| {
            let earlier = game.moves()[ply];
            let back = Move::normal(earlier.to(), earlier.from());
            (!earlier.is_castle() && game.position().is_legal(back)).then_some(back)
        });
        let m = back
            .filter(|_| rng.percent(move_back))
            .or_else(|| random_move(rng, game.position(), bias))
            .expect("the game goes on");
        game.play(m).expect("a legal move");
        visit(&mut game, rng);
    }
}

#[test]
fn play_then_take_back_restores_everything() {
    let mut rng = Rng::new(SEED);
    let mut checked = 0;
    for _ in 0..games() {
        play_random_game(&mut rng, |game, rng| {
            if !rng.percent(10) {
                return;
            }
            checked += 1;
            let before = snapshot(game);
            // One move and back (also past an automatic ending, where `play` refuses).
            let moves = game.position().legal_moves();
            if let Some(&m) = moves.get(rng.below(moves.len().max(1))) {
                game.play_unchecked(m);
                assert_eq!(game.undo(), Some(m));
                assert_eq!(
                    snapshot(game),
                    before,
                    "after playing and taking back {m:?}"
                );
            }
            // Several moves, taken back one by one or all at once.
            let mut played = Vec::new();
            for _ in 0..rng.below(6) {
                match random_move(rng, game.position(), Bias::UNIFORM) {
                    Some(m) => {
                        game.play_unchecked(m);
                        played.push(m);
                    }
                    None => break,
                }
            }
            if rng.percent(50) {
                while let Some(m) = played.pop() {
                    assert_eq!(game.undo(), Some(m));
                }
            } else {
                game.truncate(before.ply);
            }
            assert_eq!(snapshot(game), before, "after taking back {played:?}");
        });
    }
    assert!(checked >= games() * 5, "only {checked} positions checked");
    // At the start nothing is taken back.
    let mut game = Game::standard();
    assert_eq!(game.undo(), None);
    game.truncate(3);
    assert_eq!(game.ply(), 0);
}

/// FIDE's "same position" (9.2.2), from the parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Same {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    ep: Option<Square>,
}

fn same(pos: &Position) -> Same {
    Same {
        board: *pos.board(),
        turn: pos.turn(),
        castling: pos.castling_rights(),
        ep: pos.legal_ep_square(),
    }
}

#[test]
fn keys_are_equal_exactly_for_the_same_position() {
    let mut rng = Rng::new(SEED ^ 1);
    let mut key_of: HashMap<Same, (u64, Position)> = HashMap::new();
    let mut same_of: HashMap<u64, Same> = HashMap::new();
    let (mut positions, mut repeats) = (0, 0);
    for _ in 0..games() {
        play_random_game(&mut rng, |game, _| {
            let pos = *game.position();
            let key = pos.zobrist_hash();
            assert_eq!(game.key_at(game.ply()), Some(key));
            let parts = same(&pos);
            positions += 1;
            match key_of.get(&parts) {
                Some(&(earlier_key, earlier)) => {
                    repeats += 1;
                    assert_eq!(key, earlier_key, "the same position, another key: {pos:?}");
                    assert_eq!(pos, earlier, "the same parts, but not equal: {pos:?}");
                }
                None => {
                    key_of.insert(parts, (key, pos));
                }
            }
            if let Some(earlier) = same_of.insert(key, parts) {
                assert_eq!(earlier, parts, "one key for two positions: {key:#x}");
            }
            // Positions that differ in one part are not equal.
            if let Some(passed) = pos.pass() {
                assert_ne!(passed, pos);
            }
        });
    }
    assert!(positions >= games() * 100, "only {positions} positions");
    assert!(
        repeats >= positions / 10,
        "only {repeats} repeated positions"
    );
}

#[test]
fn look_back_finds_what_a_full_scan_finds() {
    let mut rng = Rng::new(SEED ^ 2);
    for _ in 0..games() / 3 {
        play_random_game(&mut rng, |game, _| {
            let ply = game.ply();
            let pos = game.position();
            let scan: Vec<usize> = game
                .positions()
                .enumerate()
                .filter(|(_, earlier)| same(earlier) == same(pos))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(game.occurrences(ply).to_vec(), scan, "at ply {ply}");
            assert_eq!(game.repetitions(), scan.len());
        });
    }
}
