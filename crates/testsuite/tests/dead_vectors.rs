//! Every position of `data/dead/chasolver-positions.txt` (3,414 positions submitted to
//! chasolver.org, with their known classification), for both colours: the verdict must match
//! the file, every mating line must replay legally into a mate of the right side, and only the
//! positions listed in [`UNDECIDED`] may stay undecided with the default budget.
//!
//! Every one of them is unwinnable, and proving it needs more than the analysis has (the
//! reachability fixpoint cannot see it, and no search closes). An undecided analysis spends the
//! whole default budget, some seconds each: to keep this test short they run with a small
//! budget, where they must still come out undecided or right (never wrong). The list was made
//! with the default budget; a verdict found for one of them is welcome, and then the entry
//! should go.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use caissa_board::Color;
use caissa_game::dead::{Budget, Winnability, can_win, can_win_with};
use caissa_movegen::{CastlingMode, Position, PositionError};
use caissa_notation::fen::Fen;
use caissa_testsuite::read_data;

/// The (line, colour) queries the default budget leaves undecided.
const UNDECIDED: &[(usize, Color)] = &[
    (441, Color::Black),
    (442, Color::Black),
    (502, Color::Black),
    (1284, Color::Black),
    (1284, Color::White),
    (1355, Color::Black),
    (1356, Color::Black),
    (1415, Color::Black),
    (1415, Color::White),
    (1416, Color::Black),
    (1416, Color::White),
    (1911, Color::White),
    (1914, Color::White),
    (1962, Color::White),
    (2000, Color::White),
    (2001, Color::White),
    (2002, Color::White),
    (2003, Color::White),
    (2047, Color::White),
    (2048, Color::White),
    (2066, Color::White),
    (2067, Color::White),
    (2068, Color::White),
    (2069, Color::White),
    (2070, Color::White),
    (2072, Color::White),
    (2073, Color::White),
    (2074, Color::White),
    (2075, Color::White),
    (2076, Color::White),
    (2103, Color::White),
    (2105, Color::White),
    (2106, Color::White),
    (2107, Color::White),
    (2108, Color::White),
    (2109, Color::White),
    (2110, Color::White),
    (2111, Color::White),
    (2112, Color::White),
    (2113, Color::White),
    (2114, Color::White),
    (2116, Color::White),
    (2117, Color::White),
    (2118, Color::White),
    (2119, Color::White),
    (2120, Color::White),
    (2121, Color::White),
    (2123, Color::White),
    (2124, Color::White),
    (2127, Color::White),
    (2128, Color::White),
    (2130, Color::Black),
    (2131, Color::Black),
    (2176, Color::Black),
    (2177, Color::Black),
    (2249, Color::White),
    (2250, Color::White),
    (2395, Color::White),
    (2489, Color::White),
    (2802, Color::White),
    (2803, Color::White),
    (2804, Color::White),
    (2805, Color::White),
    (2806, Color::White),
    (3114, Color::White),
    (3421, Color::Black),
    (3421, Color::White),
];

/// The budget for [`UNDECIDED`] queries.
const SMALL: Budget = Budget { nodes: 1 << 16 };

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
        "dead vectors: {} verdicts correct ({} winnable, {} unwinnable), {} listed undecided, \
         {} unexpectedly undecided, {} refused positions",
        total.winnable + total.unwinnable,
        total.winnable,
        total.unwinnable,
        total.undecided,
        total.unknown.len(),
        total.refused.len()
    );
    assert!(total.wrong.is_empty(), "wrong verdicts: {:#?}", total.wrong);
    assert!(
        total.unknown.is_empty(),
        "unexpectedly undecided: {:#?}",
        total.unknown
    );
    // Three positions of the file have checks that no legal game can reach (double checks that
    // no single move gives); `Position` refuses them.
    assert_eq!(total.refused.len(), 3, "refused: {:#?}", total.refused);
    assert_eq!(
        total.winnable + total.unwinnable + total.undecided,
        2 * (3414 - 3)
    );
    assert!(total.undecided <= UNDECIDED.len());
}

#[derive(Default)]
struct Outcome {
    winnable: usize,
    unwinnable: usize,
    /// Listed queries left undecided by the small budget.
    undecided: usize,
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
            let listed = UNDECIDED.contains(&(vector.line, color));
            let verdict = if listed {
                can_win_with(&pos, color, SMALL)
            } else {
                can_win(&pos, color)
            };
            match verdict {
                Winnability::Winnable(line) if can => {
                    replay(&pos, color, &line, &at);
                    self.winnable += 1;
                }
                Winnability::Unwinnable if !can => self.unwinnable += 1,
                Winnability::Unknown if listed => self.undecided += 1,
                Winnability::Unknown => self.unknown.push(at),
                wrong => self.wrong.push(format!("{at}: {wrong:?}")),
            }
        }
    }

    fn merge(&mut self, other: Outcome) {
        self.winnable += other.winnable;
        self.unwinnable += other.unwinnable;
        self.undecided += other.undecided;
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

/// Replays a mating line: every move legal, and the last one mates `color`'s opponent.
fn replay(pos: &Position, color: Color, line: &[caissa_movegen::Move], at: &str) {
    let mut end = *pos;
    for &m in line {
        end = end
            .play(m)
            .unwrap_or_else(|e| panic!("{at}: illegal move in {line:?}: {e}"));
    }
    assert!(end.is_checkmate(), "{at}: {line:?} ends without mate");
    assert_eq!(end.turn(), !color, "{at}: {line:?} mates the wrong side");
}
