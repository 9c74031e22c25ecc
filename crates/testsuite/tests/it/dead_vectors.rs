//! Every position of `data/dead/chasolver-positions.txt` (3,414 positions submitted to
//! chasolver.org, with their known classification), for both colours: the verdict must match
//! the file, every mating line must replay legally into a mate of the right side, and none may
//! stay undecided with the default budget.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use caissa_board::Color;
use caissa_game::dead::{Budget, Winnability, can_win, can_win_with};
use caissa_movegen::{CastlingMode, PositionError};
use caissa_notation::fen::Fen;
use caissa_testsuite::fuzz_checks::dead::assert_mating_line;
use caissa_testsuite::random::Rng;
use caissa_testsuite::{env_number, read_data};

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
    assert_eq!(total.refused.len(), 3, "refused: {:#?}", total.refused);
    assert_eq!(total.winnable + total.unwinnable, 2 * (3414 - 3));
}

/// The budget for the children of an unwinnable position in
/// [`unwinnable_stays_unwinnable_after_every_move`].
const CHILD: Budget = Budget { nodes: 1 << 12 };

/// A player who cannot win in a position cannot win after any move either: for positions of the
/// file, and positions a few random moves on, every verdict `Unwinnable` is checked against every
/// move. A child found winnable (its mating line replays) would prove the verdict wrong, and the
/// children get analysed by a different path than their parent (mostly the searches and the
/// reachability analysis of other positions), so this tests the proofs against each other.
/// `CAISSA_DEAD_WALKS` sets how many positions of the file are walked from (all by default).
#[test]
fn unwinnable_stays_unwinnable_after_every_move() {
    let text = read_data("dead/chasolver-positions.txt");
    let vectors = vectors(&text);
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
