//! Every position of `data/dead/chasolver-positions.txt` (3,414 positions submitted to
//! chasolver.org, with their known classification), for both colours: the verdict must match
//! the file, every mating line must replay legally into a mate of the right side, and none may
//! stay undecided with the default budget.
//!
//! `cargo test` (and so `cargo xtask ci`) runs each test on every eighth position of the file
//! ([`dead_sample`]); `cargo xtask dead` runs them on the whole file (`CAISSA_DEAD_FULL`), with
//! the exact counts asserted.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use caissa_board::{Color, Role};
use caissa_game::dead::{Budget, Winnability, can_win, can_win_with};
use caissa_game::{Game, Reason};
use caissa_movegen::{CastlingMode, Move, Position, PositionError, attacks};
use caissa_notation::fen::Fen;
use caissa_testsuite::fuzz_checks::dead::assert_mating_line;
use caissa_testsuite::random::Rng;
use caissa_testsuite::{dead_full, dead_sample, env_number, read_data};

/// One line of the file: which sides can mate, the FEN and the line number.
struct Vector<'a> {
    line: usize,
    can_mate: [bool; 2],
    fen: &'a str,
}

fn vectors(text: &str) -> Vec<Vector<'_>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let (class, fen) = l.split_at(2);
            let can_mate = match class {
                "WB" => [true, true],
                "W-" => [true, false],
                "-B" => [false, true],
                "--" => [false, false],
                _ => panic!("line {}: bad class {class:?}", i + 1),
            };
            Vector {
                line: i + 1,
                can_mate,
                fen: fen.trim(),
            }
        })
        .collect()
}

#[test]
fn chasolver_positions() {
    let text = read_data("dead/chasolver-positions.txt");
    let vectors = vectors(&text);
    assert_eq!(vectors.len(), 3414);
    let vectors = dead_sample(vectors);
    let next = AtomicUsize::new(0);
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    let outcomes: Vec<Outcome> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut outcome = Outcome::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(vector) = vectors.get(i) else {
                            break;
                        };
                        outcome.check(vector);
                    }
                    outcome
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let mut total = Outcome::default();
    for outcome in outcomes {
        total.merge(outcome);
    }
    println!(
        "dead vectors: {} verdicts correct ({} winnable, {} unwinnable), {} undecided, {} refused \
         positions",
        total.winnable + total.unwinnable,
        total.winnable,
        total.unwinnable,
        total.unknown.len(),
        total.refused.len()
    );
    assert!(total.wrong.is_empty(), "wrong verdicts: {:#?}", total.wrong);
    assert!(total.unknown.is_empty(), "undecided: {:#?}", total.unknown);
    // Three positions of the file have checks that no legal game can reach (double checks that
    // no single move gives); `Position` refuses them.
    if dead_full() {
        assert_eq!(total.refused.len(), 3, "refused: {:#?}", total.refused);
    }
    assert_eq!(
        total.winnable + total.unwinnable,
        2 * (vectors.len() - total.refused.len())
    );
}

/// The budget for the children of an unwinnable position in
/// [`unwinnable_stays_unwinnable_after_every_move`].
const CHILD: Budget = Budget { nodes: 1 << 12 };

/// A player who cannot win in a position cannot win after any move either: for positions of the
/// file, and positions a few random moves on, every verdict `Unwinnable` is checked against every
/// move. A child found winnable (its mating line replays) would prove the verdict wrong, and the
/// children get analysed by a different path than their parent (mostly the searches and the
/// reachability analysis of other positions), so this tests the proofs against each other.
/// `CAISSA_DEAD_WALKS` sets how many positions of the sample are walked from (all by default).
#[test]
fn unwinnable_stays_unwinnable_after_every_move() {
    let text = read_data("dead/chasolver-positions.txt");
    let vectors = dead_sample(vectors(&text));
    let walks = env_number("CAISSA_DEAD_WALKS").map_or(vectors.len(), |n| n as usize);
    let next = AtomicUsize::new(0);
    let checked = AtomicUsize::new(0);
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(vector) = vectors.get(i).filter(|_| i < walks) else {
                        break;
                    };
                    checked.fetch_add(walk(vector, i as u64), Ordering::Relaxed);
                }
            });
        }
    });
    let checked = checked.into_inner();
    println!("{checked} unwinnable verdicts checked against every move");
    assert!(checked >= walks, "only {checked} verdicts checked");
}

/// Walks a few random moves from `vector`'s position, checking every unwinnable verdict met on
/// the way (with a small budget) against all moves. Returns how many verdicts it checked.
fn walk(vector: &Vector<'_>, seed: u64) -> usize {
    let Ok(fen) = vector.fen.parse::<Fen>() else {
        return 0;
    };
    let Ok(mut pos) = fen.into_position(CastlingMode::Standard) else {
        return 0;
    };
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..4 {
        for color in Color::ALL {
            if can_win_with(&pos, color, CHILD) != Winnability::Unwinnable {
                continue;
            }
            checked += 1;
            for m in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(m);
                if let Winnability::Winnable(line) = can_win_with(&child, color, CHILD) {
                    let at = format!("line {} {color:?}: after {m:?}", vector.line);
                    assert_mating_line(&child, color, &line, &at);
                    panic!("{at}: unwinnable, but the child has the mating line {line:?}");
                }
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    checked
}

#[derive(Default)]
struct Outcome {
    winnable: usize,
    unwinnable: usize,
    unknown: Vec<String>,
    wrong: Vec<String>,
    refused: Vec<String>,
}

impl Outcome {
    fn check(&mut self, vector: &Vector<'_>) {
        let fen: Fen = vector
            .fen
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", vector.line));
        let pos = match fen.into_position(CastlingMode::Standard) {
            Ok(pos) => pos,
            Err(e) => {
                assert_refused(&e, vector);
                self.refused
                    .push(format!("line {}: {}", vector.line, vector.fen));
                return;
            }
        };
        for (color, can) in Color::ALL.into_iter().zip(vector.can_mate) {
            let at = format!("line {} {color:?}: {}", vector.line, vector.fen);
            match can_win(&pos, color) {
                Winnability::Winnable(line) if can => {
                    assert_mating_line(&pos, color, &line, &at);
                    self.winnable += 1;
                }
                Winnability::Unwinnable if !can => self.unwinnable += 1,
                Winnability::Unknown => self.unknown.push(at),
                wrong => self.wrong.push(format!("{at}: {wrong:?}")),
            }
        }
    }

    fn merge(&mut self, other: Outcome) {
        self.winnable += other.winnable;
        self.unwinnable += other.unwinnable;
        self.unknown.extend(other.unknown);
        self.wrong.extend(other.wrong);
        self.refused.extend(other.refused);
    }
}

fn assert_refused(error: &PositionError, vector: &Vector<'_>) {
    let problems = format!("{:?}", error.problems());
    assert!(
        problems.contains("ImpossibleCheck"),
        "line {}: {} refused for {problems}",
        vector.line,
        vector.fen
    );
}

/// Every dead position of the file ends the game at once (5.2.2): as the start of a [`Game`],
/// and after a legal move into it from a position where the game still goes on (a capture of
/// a piece of the side to move, undone here: a man of the side that just moved steps back to a
/// square it came from, and a queen, rook, knight or bishop of the other side stands where it
/// went). A position with no legal move ends by stalemate, which comes first.
#[test]
fn every_dead_position_ends_the_game() {
    let text = read_data("dead/chasolver-positions.txt");
    let dead: Vec<_> = vectors(&text)
        .into_iter()
        .filter(|v| v.can_mate == [false, false])
        .collect();
    assert_eq!(dead.len(), 1157);
    let dead = dead_sample(dead);
    let next = AtomicUsize::new(0);
    let entered = AtomicUsize::new(0);
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(vector) = dead.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Ok(pos) =
                        vector.fen.parse::<Fen>().map_err(|_| ()).and_then(|fen| {
                            fen.into_position(CastlingMode::Standard).map_err(|_| ())
                        })
                    else {
                        continue;
                    };
                    let at = format!("line {}: {}", vector.line, vector.fen);
                    assert_ends(&Game::new(pos), &at);
                    if let Some((before, m)) = capture_into(&pos) {
                        let mut game = Game::new(before);
                        game.play(m).unwrap_or_else(|e| panic!("{at}: {m:?}: {e}"));
                        assert_ends(&game, &format!("{at}, after {m:?}"));
                        entered.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let entered = entered.into_inner();
    println!("{entered} dead positions entered by a capture");
    // The other 58 are entered by no capture that `capture_into` finds: three came by a double
    // push (an en passant square stands); in the rest no piece of the side that just moved
    // steps back onto an empty square, a piece put where it went, into a legal, live position.
    let expected = if dead_full() { 1099 } else { 140 };
    assert_eq!(entered, expected, "dead positions entered by a capture");
}

fn assert_ends(game: &Game, at: &str) {
    let outcome = game.outcome();
    let reason = outcome.map(|o| o.reason);
    assert!(
        matches!(reason, Some(Reason::DeadPosition | Reason::Stalemate)),
        "{at}: {outcome:?}"
    );
}

/// A live position and a legal capture from it that leads to `pos` (the same placement, side
/// to move and castling rights), if one is found.
fn capture_into(pos: &Position) -> Option<(Position, Move)> {
    if pos.legal_ep_square().is_some() {
        return None;
    }
    let board = pos.board();
    let mover = !pos.turn();
    for to in board.by_color(mover) - board.pawns() {
        let piece = board.piece_at(to).expect("a man");
        let occupied = board.occupied();
        let reach = match piece.role {
            Role::King => attacks::king(to),
            Role::Knight => attacks::knight(to),
            Role::Bishop => attacks::bishop(to, occupied),
            Role::Rook => attacks::rook(to, occupied),
            _ => attacks::queen(to, occupied),
        } - occupied;
        for from in reach {
            for role in [Role::Queen, Role::Rook, Role::Knight, Role::Bishop] {
                let mut setup = pos.to_setup();
                setup.turn = mover;
                setup.board.remove_piece_at(to);
                setup.board.set_piece_at(from, piece);
                setup.board.set_piece_at(to, role.of(pos.turn()));
                let Ok(before) = Position::from_setup(setup, CastlingMode::Standard) else {
                    continue;
                };
                let m = Move::normal(from, to);
                let Ok(after) = before.play(m) else { continue };
                if after.board() == board
                    && after.castling_rights() == pos.castling_rights()
                    && Game::new(before).outcome().is_none()
                {
                    return Some((before, m));
                }
            }
        }
    }
    None
}
