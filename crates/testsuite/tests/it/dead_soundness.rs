//! Hunting for unsound [`Winnability::Unwinnable`] verdicts of `caissa_game::dead`.
//!
//! `can_win` may answer `Unknown` as often as it likes, but it must never call a player unable
//! to win when some series of legal moves (both sides helping) ends in that player's mate. These
//! tests look for such positions three ways:
//!
//! - **An independent oracle**: a plain breadth-first helpmate search ([`helpmate`]), written
//!   here from the rules alone, with nothing taken from the analysis it checks. It lists every
//!   position reachable from the start, level by level, up to a cap; a mate found is a mating
//!   line (the shortest), and a list that closes without one proves the verdict.
//! - **Adversarial positions** aimed at the analysis's proof rules: kings boxed in by their own
//!   men where the other side can check ("the loser mates the winner"), a winner with a single
//!   man next to the other king ("the winner's last man is taken"), castling rights with
//!   attacked or occupied paths (standard and Chess960), locked pawn chains with capturable men
//!   (the case splits), en passant captures and promotions. Each is randomised around its
//!   template and a few random moves on.
//! - **Certified lines**: every position along a mating line (`can_win`'s own, replayed here)
//!   is winnable, so none may be called unwinnable under another budget; and the positions of
//!   `data/dead/chasolver-positions.txt` that the file calls winnable must stay so under every
//!   budget, as must the positions along their mating lines.
//!
//! Positions are also taken from the file and changed a little (a man added, taken away or
//! moved, the turn passed, then a random move or two): still mostly blocked, so near the edge
//! of what the proofs decide, and small enough for the oracle to close.
//!
//! Each position is asked under several small budgets (2^4, 2^9 and 2^14 nodes): a small budget
//! stops the searches early, so the verdict rests on the proof rules alone (the reachability
//! fixpoint with its case splits, the closures, the material theorems), which is where a wrong
//! proof would show. A mating line found under one budget also refutes an `Unwinnable` under
//! another.
//!
//! Sizes and seeds come from the environment for longer runs: `CAISSA_SOUNDNESS_POSITIONS`
//! (positions per template, 60 by default), `CAISSA_SOUNDNESS_WALKS` (changed file positions,
//! 300), `CAISSA_SOUNDNESS_LINES` (file queries whose mating lines are walked, 30),
//! `CAISSA_SOUNDNESS_CAP` (the oracle's position cap, 20,000), `CAISSA_SOUNDNESS_SEED`; and
//! `CAISSA_SOUNDNESS_VERBOSE` prints the verdicts the oracle could neither confirm nor refute.
//! Those defaults are `cargo xtask dead`'s (`CAISSA_DEAD_FULL`); `cargo test` (and so `cargo
//! xtask ci`) hunts an eighth as much ([`DEAD_SAMPLE_STRIDE`]), with the same checks: a fifth of
//! the time.
//! For example (about a minute on two cores):
//!
//! ```text
//! CAISSA_SOUNDNESS_POSITIONS=200 CAISSA_SOUNDNESS_WALKS=1500 CAISSA_SOUNDNESS_LINES=60 \
//!     CAISSA_SOUNDNESS_CAP=100000 cargo test --release -p caissa-testsuite \
//!     --test dead_soundness -- --nocapture
//! ```

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use caissa_board::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Setup, Square,
};
use caissa_game::dead::{Budget, Winnability, can_win_with};
use caissa_movegen::{BuildZobristHasher, CastlingMode, Move, Position};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::uci::UciMove;
use caissa_testsuite::random::Rng;
use caissa_testsuite::{DEAD_SAMPLE_STRIDE, dead_full, dead_sample, env_number, read_data};

// ---------------------------------------------------------------------------------------------
// The oracle.

/// What the breadth-first helpmate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Helpmate {
    /// A shortest mating line: the winner mates after these moves.
    Mate(Vec<Move>),
    /// Every reachable position was listed and none is a mate of the loser: the winner cannot
    /// win.
    Closed,
    /// The cap was reached first; no mate within the levels listed.
    Open,
}

type PositionSet = HashSet<Position, BuildZobristHasher>;

/// Whether `pos` is a mate of `winner`'s opponent.
fn mated(pos: &Position, winner: Color) -> bool {
    pos.turn() != winner && pos.is_checkmate()
}

/// Lists the positions reachable from `start` breadth first (both sides' legal moves, every
/// position once), up to `cap` of them, and stops at the first mate of `winner`'s opponent.
fn helpmate(start: &Position, winner: Color, cap: usize) -> Helpmate {
    if mated(start, winner) {
        return Helpmate::Mate(Vec::new());
    }
    // Each listed position with the index of its parent and the move from it.
    let mut listed: Vec<(Position, usize, Option<Move>)> = vec![(*start, 0, None)];
    let mut seen = PositionSet::default();
    seen.insert(*start);
    let mut next = 0;
    while next < listed.len() {
        let pos = listed[next].0;
        for m in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(m);
            if !seen.insert(child) {
                continue;
            }
            listed.push((child, next, Some(m)));
            if mated(&child, winner) {
                let mut line = Vec::new();
                let mut at = listed.len() - 1;
                while let Some(m) = listed[at].2 {
                    line.push(m);
                    at = listed[at].1;
                }
                line.reverse();
                return Helpmate::Mate(line);
            }
            if listed.len() >= cap {
                return Helpmate::Open;
            }
        }
        next += 1;
    }
    Helpmate::Closed
}

/// The oracle itself: Black's shortest mate from the start takes four plies (the fool's mate),
/// White's five, and two bare kings close with every reachable position listed.
#[test]
fn oracle_finds_shortest_mates_and_closes() {
    let start = Position::standard();
    let Helpmate::Mate(line) = helpmate(&start, Color::Black, 100_000) else {
        panic!("no fool's mate");
    };
    assert_eq!(line.len(), 4, "{}", uci_line(&start, &line));
    check_mating_line(&start, Color::Black, &line);
    assert_eq!(helpmate(&start, Color::White, 20_000), Helpmate::Open);
    let kings: Fen = "8/8/8/3k4/8/8/8/4K3 w - - 0 1"
        .parse()
        .expect("a valid FEN");
    let kings = kings
        .into_position(CastlingMode::Standard)
        .expect("a legal position");
    assert_eq!(helpmate(&kings, Color::White, 20_000), Helpmate::Closed);
}

/// Plays `line` from `pos`, checking every move, and returns the positions before each move
/// and the last one.
///
/// # Panics
///
/// If a move is illegal.
fn replay(pos: &Position, line: &[Move]) -> Vec<Position> {
    let mut positions = vec![*pos];
    let mut at = *pos;
    for &m in line {
        at = at
            .play(m)
            .unwrap_or_else(|e| panic!("{}: illegal {m:?} in a line: {e}", fen(&at)));
        positions.push(at);
    }
    positions
}

// ---------------------------------------------------------------------------------------------
// The checks.

/// Small budgets, so that the verdict rests on the proof rules rather than on the searches.
const SMALL_BUDGETS: [u64; 3] = [1 << 4, 1 << 9, 1 << 14];

/// Mating lines longer than this are not walked by [`Hunt::certified_line`] (random
/// positions' lines are long and cheap to find; blocked positions' are short).
const LINE_LIMIT: usize = 24;

/// Counts and findings of a hunt.
#[derive(Default, Debug)]
struct Hunt {
    /// Positions probed (each for both colours).
    positions: usize,
    /// Verdicts asked for.
    verdicts: usize,
    /// Colours found unwinnable under some budget.
    unwinnable: usize,
    /// Of those, colours left with a lone king (no oracle needed) ...
    bare: usize,
    /// ... the oracle closed the reachable set (confirming the verdict) ...
    closed: usize,
    /// ... or reached its cap without a mate.
    open: usize,
    /// Positions along certified mating lines checked.
    line_positions: usize,
    /// Counterexamples: an `Unwinnable` verdict where a mate exists, with the evidence.
    wrong: Vec<String>,
}

impl Hunt {
    fn merge(&mut self, other: Hunt) {
        self.positions += other.positions;
        self.verdicts += other.verdicts;
        self.unwinnable += other.unwinnable;
        self.bare += other.bare;
        self.closed += other.closed;
        self.open += other.open;
        self.line_positions += other.line_positions;
        self.wrong.extend(other.wrong);
    }

    /// Asks `can_win_with` about `pos` for both colours under each budget, checks the mating
    /// lines it gives, and checks every `Unwinnable` verdict against the oracle (capped at
    /// `cap` positions) and against the mating lines found with other budgets.
    fn probe(&mut self, pos: &Position, budgets: &[u64], cap: usize) {
        self.positions += 1;
        for color in Color::ALL {
            let mut unwinnable_with = None;
            let mut line = None;
            for &nodes in budgets {
                self.verdicts += 1;
                match can_win_with(pos, color, Budget { nodes }) {
                    Winnability::Winnable(found) => {
                        check_mating_line(pos, color, &found);
                        line.get_or_insert(found);
                    }
                    Winnability::Unwinnable => {
                        unwinnable_with.get_or_insert(nodes);
                    }
                    Winnability::Unknown => {}
                }
            }
            let Some(nodes) = unwinnable_with else {
                if let Some(line) = line.filter(|line| line.len() <= LINE_LIMIT) {
                    self.certified_line(pos, color, &line, &budgets[..1]);
                }
                continue;
            };
            self.unwinnable += 1;
            if let Some(line) = line {
                self.record(pos, color, nodes, &line, "can_win with another budget");
                continue;
            }
            if (pos.board().by_color(color) - pos.board().kings()).is_empty() {
                // A lone king never gives check.
                self.bare += 1;
                continue;
            }
            match helpmate(pos, color, cap) {
                Helpmate::Mate(line) => {
                    check_mating_line(pos, color, &line);
                    self.record(pos, color, nodes, &line, "the oracle");
                }
                Helpmate::Closed => self.closed += 1,
                Helpmate::Open => {
                    self.open += 1;
                    if env_number("CAISSA_SOUNDNESS_VERBOSE").is_some() {
                        println!("open: {} {color:?} ({nodes} nodes)", fen(pos));
                    }
                }
            }
        }
    }

    /// Checks that no position along `line` (a replayed mating line for `color` from `pos`) is
    /// called unwinnable under any of `budgets`.
    fn certified_line(&mut self, pos: &Position, color: Color, line: &[Move], budgets: &[u64]) {
        let positions = replay(pos, line);
        for (i, at) in positions.iter().enumerate().take(line.len()) {
            self.line_positions += 1;
            for &nodes in budgets {
                self.verdicts += 1;
                if can_win_with(at, color, Budget { nodes }) == Winnability::Unwinnable {
                    self.record(at, color, nodes, &line[i..], "a certified line");
                    break;
                }
            }
        }
    }

    fn record(&mut self, pos: &Position, color: Color, nodes: u64, line: &[Move], by: &str) {
        self.wrong.push(format!(
            "{} {color:?}: Unwinnable with {nodes} nodes, but {by} mates: {}",
            fen(pos),
            uci_line(pos, line)
        ));
    }
}

/// Asserts that `line` replays from `pos` into a mate of `color`'s opponent.
fn check_mating_line(pos: &Position, color: Color, line: &[Move]) {
    let end = *replay(pos, line).last().expect("the start at least");
    assert!(
        mated(&end, color),
        "{} {color:?}: the line {} does not mate",
        fen(pos),
        uci_line(pos, line)
    );
}

fn fen(pos: &Position) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn uci_line(pos: &Position, line: &[Move]) -> String {
    let mut at = *pos;
    let mut out = Vec::new();
    for &m in line {
        out.push(UciMove::from_move(&at, m).to_string());
        at.play_unchecked(m);
    }
    out.join(" ")
}

/// Runs `work` on items `0..count` on every core, each item on its own (so the outcome does not
/// depend on the threads), and merges the hunts.
fn hunt_in_parallel(count: usize, work: impl Fn(usize, &mut Hunt) + Sync) -> Hunt {
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Hunt::default());
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut hunt = Hunt::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    work(i, &mut hunt);
                }
                total.lock().expect("no worker panicked").merge(hunt);
            });
        }
    });
    let mut hunt = total.into_inner().expect("no worker panicked");
    hunt.wrong.sort();
    hunt
}

fn report(name: &str, hunt: &Hunt) {
    println!(
        "{name}: {} positions, {} verdicts, {} unwinnable ({} lone kings; oracle: {} closed, {} \
         open), {} positions along mating lines, {} wrong",
        hunt.positions,
        hunt.verdicts,
        hunt.unwinnable,
        hunt.bare,
        hunt.closed,
        hunt.open,
        hunt.line_positions,
        hunt.wrong.len()
    );
    assert!(
        hunt.wrong.is_empty(),
        "{name}: unsound verdicts:\n{}",
        hunt.wrong.join("\n")
    );
}

fn seed() -> u64 {
    env_number("CAISSA_SOUNDNESS_SEED").unwrap_or(0x5EED_DEAD)
}

fn oracle_cap() -> usize {
    env_number("CAISSA_SOUNDNESS_CAP").map_or(20_000, |n| n as usize)
}

/// The size of a hunt: the environment variable `name`, else `full` under [`dead_full`] and
/// an eighth of it (at least one) otherwise.
fn hunt_size(name: &str, full: usize) -> usize {
    env_number(name).map_or_else(
        || {
            if dead_full() {
                full
            } else {
                full.div_ceil(DEAD_SAMPLE_STRIDE)
            }
        },
        |n| n as usize,
    )
}

// ---------------------------------------------------------------------------------------------
// Adversarial positions.

/// A position being put together at random; [`Sketch::finish`] keeps it only if legal.
struct Sketch {
    setup: Setup,
    mode: CastlingMode,
}

fn square(file: usize, rank: usize) -> Option<Square> {
    let file = File::new(u32::try_from(file).ok()?)?;
    let rank = Rank::new(u32::try_from(rank).ok()?)?;
    Some(Square::from_coords(file, rank))
}

fn random_square(rng: &mut Rng, area: Bitboard) -> Option<Square> {
    let squares: Vec<Square> = area.into_iter().collect();
    rng.choose(&squares)
}

/// The squares within `distance` king steps of `sq`.
fn near(sq: Square, distance: u32) -> Bitboard {
    Bitboard::FULL
        .into_iter()
        .filter(|&other| sq.distance(other) <= distance)
        .collect()
}

const EDGE: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

impl Sketch {
    fn new(rng: &mut Rng) -> Sketch {
        let mut setup = Setup::empty();
        setup.turn = if rng.percent(50) {
            Color::White
        } else {
            Color::Black
        };
        Sketch {
            setup,
            mode: CastlingMode::Standard,
        }
    }

    fn free(&self) -> Bitboard {
        !self.setup.board.occupied()
    }

    /// Puts `piece` on `sq` if the square is free (and, for a pawn, not on a back rank).
    fn put(&mut self, sq: Square, piece: Piece) -> bool {
        let back = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if !self.free().contains(sq) || (piece.role == Role::Pawn && back.contains(sq)) {
            return false;
        }
        self.setup.board.set_piece_at(sq, piece);
        true
    }

    /// Puts `piece` on a random free square of `area`.
    fn scatter(&mut self, rng: &mut Rng, piece: Piece, area: Bitboard) -> Option<Square> {
        let mut free = area & self.free();
        if piece.role == Role::Pawn {
            free = free - Bitboard::from_rank(Rank::First) - Bitboard::from_rank(Rank::Eighth);
        }
        let sq = random_square(rng, free)?;
        self.put(sq, piece).then_some(sq)
    }

    /// Locked pawn pairs (a white pawn under a black one), on `count` random files.
    fn chains(&mut self, rng: &mut Rng, count: usize) {
        for _ in 0..count {
            let file = rng.below(8);
            let rank = 1 + rng.below(5);
            if let (Some(low), Some(high)) = (square(file, rank), square(file, rank + 1))
                && self.free().contains(low)
                && self.free().contains(high)
            {
                self.put(low, Role::Pawn.of(Color::White));
                self.put(high, Role::Pawn.of(Color::Black));
            }
        }
    }

    /// Up to `count` random men of `color` (mostly bishops and pawns) on `area`.
    fn men(&mut self, rng: &mut Rng, color: Color, count: usize, area: Bitboard) {
        for _ in 0..count {
            let role = random_role(rng);
            self.scatter(rng, role.of(color), area);
        }
    }

    /// The kings, where missing, anywhere in `area`.
    fn kings(&mut self, rng: &mut Rng, area: Bitboard) {
        for color in Color::ALL {
            if self.setup.board.king_of(color).is_none() {
                self.scatter(rng, Role::King.of(color), area);
            }
        }
    }

    fn finish(self) -> Option<Position> {
        Position::from_setup(self.setup, self.mode).ok()
    }
}

fn random_role(rng: &mut Rng) -> Role {
    match rng.below(10) {
        0..=2 => Role::Bishop,
        3..=5 => Role::Pawn,
        6 => Role::Knight,
        7 => Role::Rook,
        8 => Role::Queen,
        _ => Role::Bishop,
    }
}

fn random_color(rng: &mut Rng) -> Color {
    if rng.percent(50) {
        Color::White
    } else {
        Color::Black
    }
}

/// Locked pawn chains, kings and a few men anywhere.
fn locked(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let chains = 2 + rng.below(6);
    sketch.chains(rng, chains);
    sketch.kings(rng, Bitboard::FULL);
    for color in Color::ALL {
        let count = rng.below(3);
        sketch.men(rng, color, count, Bitboard::FULL);
    }
    sketch.finish()
}

/// The winner's king on an edge, hemmed in by its own men, with the loser's checking pieces
/// around: "the loser mates the winner".
fn boxed_winner(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let winner = random_color(rng);
    let king = random_square(rng, EDGE)?;
    sketch.put(king, Role::King.of(winner));
    for sq in near(king, 1).without(king) {
        if rng.percent(65) {
            let role = match rng.below(6) {
                0..=2 => Role::Pawn,
                3 => Role::Bishop,
                4 => Role::Knight,
                _ => Role::Rook,
            };
            sketch.put(sq, role.of(winner));
        }
    }
    let checkers = 1 + rng.below(2);
    for _ in 0..checkers {
        let role = rng
            .choose(&[
                Role::Rook,
                Role::Queen,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ])
            .expect("roles to choose from");
        let area = if rng.percent(70) {
            near(king, 3)
        } else {
            Bitboard::FULL
        };
        sketch.scatter(rng, role.of(!winner), area);
    }
    let chains = rng.below(4);
    sketch.chains(rng, chains);
    let extra = rng.below(3);
    sketch.men(rng, winner, extra, Bitboard::FULL);
    let extra = rng.below(2);
    sketch.men(rng, !winner, extra, Bitboard::FULL);
    sketch.kings(rng, Bitboard::FULL);
    sketch.finish()
}

/// The winner with a single man next to the loser's king, which is walled in by its own men:
/// "the winner's last man is taken".
fn last_man(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let winner = random_color(rng);
    let area = if rng.percent(70) {
        EDGE
    } else {
        Bitboard::FULL
    };
    let king = random_square(rng, area)?;
    sketch.put(king, Role::King.of(!winner));
    for sq in near(king, 1).without(king) {
        if rng.percent(45) {
            let role = if rng.percent(70) {
                Role::Pawn
            } else {
                random_role(rng)
            };
            sketch.put(sq, role.of(!winner));
        }
    }
    let role = rng
        .choose(&[
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::Pawn,
        ])
        .expect("roles to choose from");
    sketch.scatter(rng, role.of(winner), near(king, 2));
    sketch.scatter(rng, Role::King.of(winner), near(king, 3));
    let chains = rng.below(4);
    sketch.chains(rng, chains);
    let extra = rng.below(3);
    sketch.men(rng, !winner, extra, Bitboard::FULL);
    sketch.kings(rng, Bitboard::FULL);
    sketch.finish()
}

/// Castling rights (standard or Chess960) with men on or near the paths and attackers
/// around.
fn castling(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let chess960 = rng.percent(50);
    if chess960 {
        sketch.mode = CastlingMode::Chess960;
    }
    for color in Color::ALL {
        if rng.percent(25) {
            continue;
        }
        let rank = Rank::back_rank(color).index();
        let (king_file, rooks) = if chess960 {
            let king_file = 1 + rng.below(6);
            let left = rng.below(king_file);
            let right = king_file + 1 + rng.below(7 - king_file);
            (king_file, [left, right])
        } else {
            (4, [0, 7])
        };
        sketch.put(square(king_file, rank)?, Role::King.of(color));
        for (file, side) in rooks
            .into_iter()
            .zip([CastlingSide::QueenSide, CastlingSide::KingSide])
        {
            if rng.percent(80) {
                sketch.put(square(file, rank)?, Role::Rook.of(color));
                if rng.percent(85) {
                    let file = File::new(u32::try_from(file).ok()?)?;
                    sketch.setup.castling_rights.set(color, side, Some(file));
                }
            }
        }
        // Men of its own on the back rank, and pawns in front.
        for file in 0..8 {
            let sq = square(file, rank)?;
            if rng.percent(20) {
                let role = rng
                    .choose(&[Role::Bishop, Role::Knight, Role::Queen])
                    .expect("roles to choose from");
                sketch.put(sq, role.of(color));
            }
            let front = square(file, if color == Color::White { 1 } else { 6 })?;
            if rng.percent(35) {
                sketch.put(front, Role::Pawn.of(color));
            }
        }
    }
    let chains = rng.below(4);
    sketch.chains(rng, chains);
    for color in Color::ALL {
        let count = rng.below(3);
        sketch.men(rng, color, count, Bitboard::FULL);
    }
    sketch.kings(rng, Bitboard::FULL);
    drop_broken_rights(&mut sketch.setup);
    sketch.finish()
}

/// Drops the castling rights whose king or rook is not in place (rather than have the setup
/// refused).
fn drop_broken_rights(setup: &mut Setup) {
    let board = setup.board;
    let mut rights = CastlingRights::NONE;
    for (color, side, file) in setup.castling_rights.iter() {
        let rank = Rank::back_rank(color);
        let king_home = board.king_of(color).is_some_and(|king| king.rank() == rank);
        if king_home
            && board.piece_at(Square::from_coords(file, rank)) == Some(Role::Rook.of(color))
        {
            rights.set(color, side, Some(file));
        }
    }
    setup.castling_rights = rights;
}

/// A pawn that just moved two squares beside an enemy pawn, in a locked structure.
fn en_passant(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let mover = random_color(rng);
    sketch.setup.turn = !mover;
    let file = rng.below(8);
    let side = if rng.percent(50) {
        file + 1
    } else {
        file.wrapping_sub(1)
    };
    let (rank, skipped) = if mover == Color::White {
        (3, 2)
    } else {
        (4, 5)
    };
    sketch.put(square(file, rank)?, Role::Pawn.of(mover));
    sketch.put(square(side, rank)?, Role::Pawn.of(!mover));
    sketch.setup.ep_square = square(file, skipped);
    let chains = 1 + rng.below(5);
    sketch.chains(rng, chains);
    for color in Color::ALL {
        let count = rng.below(3);
        sketch.men(rng, color, count, Bitboard::FULL);
    }
    sketch.kings(rng, Bitboard::FULL);
    sketch.finish()
}

/// Pawns one step from promotion, some blocked, near the kings and a locked structure.
fn promotion(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let chains = rng.below(5);
    sketch.chains(rng, chains);
    for color in Color::ALL {
        let seventh = Bitboard::from_rank(Rank::Seventh.relative_to(color));
        let pawns = 1 + rng.below(2);
        for _ in 0..pawns {
            if let Some(sq) = sketch.scatter(rng, Role::Pawn.of(color), seventh)
                && rng.percent(50)
                && let Some(ahead) = Bitboard::from_square(sq).forward(color).first()
            {
                let role = random_role(rng);
                let owner = random_color(rng);
                sketch.put(ahead, role.of(owner));
            }
        }
        let count = rng.below(2);
        sketch.men(rng, color, count, Bitboard::FULL);
    }
    sketch.kings(rng, Bitboard::FULL);
    sketch.finish()
}

/// Bishops and pawns only (the analysis runs the reachability proof before any deep search
/// then), locked chains with some pawns free to capture.
fn bishops_and_pawns(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let chains = 1 + rng.below(6);
    sketch.chains(rng, chains);
    for color in Color::ALL {
        let pawns = rng.below(3);
        for _ in 0..pawns {
            sketch.scatter(rng, Role::Pawn.of(color), Bitboard::FULL);
        }
        let bishops = rng.below(3);
        for _ in 0..bishops {
            sketch.scatter(rng, Role::Bishop.of(color), Bitboard::FULL);
        }
    }
    sketch.kings(rng, Bitboard::FULL);
    sketch.finish()
}

/// A full-width locked pawn wall (the pawns of neighbouring files one rank apart, so that no
/// pawn can take), then a few holes: pawns taken away or moved, so that a pawn may capture or a
/// king may slip through; bishops (and sometimes other men) on both sides of it.
fn wall(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let mut rank = 2 + rng.below(3);
    let mut ranks = [0; 8];
    for slot in &mut ranks {
        *slot = rank;
        rank = match rank {
            1 => 2,
            5 => 4,
            _ if rng.percent(50) => rank + 1,
            _ => rank - 1,
        };
    }
    for (file, &rank) in ranks.iter().enumerate() {
        sketch.put(square(file, rank)?, Role::Pawn.of(Color::White));
        sketch.put(square(file, rank + 1)?, Role::Pawn.of(Color::Black));
    }
    let below: Bitboard = (0..8)
        .flat_map(|file| (0..ranks[file]).filter_map(move |rank| square(file, rank)))
        .collect();
    let above = !below - sketch.setup.board.occupied();
    let holes = rng.below(3);
    for _ in 0..holes {
        let pawns = sketch.setup.board.pawns();
        let Some(sq) = random_square(rng, pawns) else {
            break;
        };
        let pawn = sketch.setup.board.remove_piece_at(sq)?;
        if rng.percent(50) {
            sketch.scatter(rng, pawn, near(sq, 1));
        }
    }
    // Each king on its own side, or both on one side.
    let (white_area, black_area) = match rng.below(4) {
        0 => (above, below),
        1 => (above, above),
        2 => (below, below),
        _ => (below, above),
    };
    sketch.scatter(rng, Role::King.of(Color::White), white_area);
    sketch.scatter(rng, Role::King.of(Color::Black), black_area);
    for color in Color::ALL {
        let bishops = rng.below(3);
        for _ in 0..bishops {
            let area = if rng.percent(50) { above } else { below };
            sketch.scatter(rng, Role::Bishop.of(color), area);
        }
        if rng.percent(25) {
            let role = rng
                .choose(&[Role::Knight, Role::Rook, Role::Queen])
                .expect("roles to choose from");
            let area = if rng.percent(50) { above } else { below };
            sketch.scatter(rng, role.of(color), area);
        }
    }
    sketch.finish()
}

/// Castling rights (Chess960 or standard) for a king and rooks on the back rank, shut in by a
/// locked pawn wall across the board on the third and fourth ranks, with the other king or
/// men of either side in the same strip: castling may be what lets a rook out or the king
/// through. Then the same from Black's side, half the time.
fn castle_wall(rng: &mut Rng) -> Option<Position> {
    let mut sketch = Sketch::new(rng);
    let chess960 = rng.percent(60);
    if chess960 {
        sketch.mode = CastlingMode::Chess960;
    }
    let owner = Color::White;
    let (king_file, rooks) = if chess960 {
        let king_file = 1 + rng.below(6);
        (
            king_file,
            [
                rng.below(king_file),
                king_file + 1 + rng.below(7 - king_file),
            ],
        )
    } else {
        (4, [0, 7])
    };
    sketch.put(square(king_file, 0)?, Role::King.of(owner));
    for (file, side) in rooks
        .into_iter()
        .zip([CastlingSide::QueenSide, CastlingSide::KingSide])
    {
        if rng.percent(85) {
            sketch.put(square(file, 0)?, Role::Rook.of(owner));
            let file = File::new(u32::try_from(file).ok()?)?;
            sketch.setup.castling_rights.set(owner, side, Some(file));
        }
    }
    // The wall: white pawns on the third or fourth rank, black pawns just above.
    let mut rank = 2 + rng.below(2);
    for file in 0..8 {
        if rng.percent(92) {
            sketch.put(square(file, rank)?, Role::Pawn.of(Color::White));
            sketch.put(square(file, rank + 1)?, Role::Pawn.of(Color::Black));
        }
        rank = if rank == 2 { 3 } else { 2 };
        if rng.percent(30) {
            rank = 5 - rank;
        }
    }
    let strip = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Second);
    // Men of both sides in the strip, some on the back rank between the king and the rooks.
    let men = rng.below(4);
    for _ in 0..men {
        let role = rng
            .choose(&[Role::Bishop, Role::Knight, Role::Pawn, Role::Queen])
            .expect("roles to choose from");
        let color = random_color(rng);
        sketch.scatter(rng, role.of(color), strip);
    }
    let loser_area = if rng.percent(70) {
        strip
    } else {
        Bitboard::FULL
    };
    sketch.scatter(rng, Role::King.of(!owner), loser_area);
    let extra = rng.below(3);
    sketch.men(rng, !owner, extra, Bitboard::FULL);
    drop_broken_rights(&mut sketch.setup);
    if rng.percent(50) {
        sketch.setup = sketch.setup.flip_colors();
    }
    sketch.finish()
}

/// A generator of random positions.
type Template = fn(&mut Rng) -> Option<Position>;

const TEMPLATES: [(&str, Template); 9] = [
    ("wall", wall),
    ("castle wall", castle_wall),
    ("locked", locked),
    ("boxed winner", boxed_winner),
    ("last man", last_man),
    ("castling", castling),
    ("en passant", en_passant),
    ("promotion", promotion),
    ("bishops and pawns", bishops_and_pawns),
];

/// A legal position from `template`, then up to `plies` random moves on.
fn generate(rng: &mut Rng, template: Template, plies: usize) -> Position {
    loop {
        if let Some(mut pos) = template(rng) {
            let plies = rng.below(plies + 1);
            rng.walk(&mut pos, plies);
            return pos;
        }
    }
}

#[test]
fn adversarial_positions() {
    let count = hunt_size("CAISSA_SOUNDNESS_POSITIONS", 60);
    let cap = oracle_cap();
    let seed = seed();
    for (t, (name, template)) in TEMPLATES.into_iter().enumerate() {
        let hunt = hunt_in_parallel(count, |i, hunt| {
            let mut rng = Rng::new(seed ^ ((t as u64) << 32) ^ i as u64);
            let pos = generate(&mut rng, template, 3);
            hunt.probe(&pos, &SMALL_BUDGETS, cap);
        });
        report(name, &hunt);
    }
}

// ---------------------------------------------------------------------------------------------
// The positions of chasolver's test file.

/// The positions of `data/dead/chasolver-positions.txt` with which sides can mate.
fn file_positions() -> Vec<(Position, [bool; 2])> {
    read_data("dead/chasolver-positions.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let (class, fen) = line.split_at(2);
            let can_mate = [class.starts_with('W'), class.ends_with('B')];
            let fen: Fen = fen.trim().parse().ok()?;
            Some((fen.into_position(CastlingMode::Standard).ok()?, can_mate))
        })
        .collect()
}

/// The file's winnable queries must not be called unwinnable under any budget: with small
/// budgets the verdict comes from the proof rules alone, on exactly the blocked positions they
/// were written for.
#[test]
fn file_winnable_under_small_budgets() {
    let positions = file_positions();
    assert_eq!(positions.len(), 3411);
    let positions = dead_sample(positions);
    let hunt = hunt_in_parallel(positions.len(), |i, hunt| {
        let (pos, can_mate) = &positions[i];
        hunt.positions += 1;
        for (color, can) in Color::ALL.into_iter().zip(*can_mate) {
            if !can {
                continue;
            }
            // The largest small budget (the slowest) on every fourth position only.
            let budgets = if i % 4 == 0 {
                &SMALL_BUDGETS[..]
            } else {
                &SMALL_BUDGETS[..2]
            };
            for &nodes in budgets {
                hunt.verdicts += 1;
                match can_win_with(pos, color, Budget { nodes }) {
                    Winnability::Unwinnable => {
                        hunt.unwinnable += 1;
                        hunt.wrong.push(format!(
                            "{} {color:?}: Unwinnable with {nodes} nodes, but the file says \
                             winnable",
                            fen(pos)
                        ));
                    }
                    Winnability::Winnable(line) => check_mating_line(pos, color, &line),
                    Winnability::Unknown => {}
                }
            }
        }
    });
    report("file, winnable queries", &hunt);
}

/// Every position along the mating lines `can_win` finds for the file's winnable queries is
/// winnable too, so none may be called unwinnable under a small budget. The lines of blocked
/// positions wind through exactly the structures the proofs are about. `CAISSA_SOUNDNESS_LINES`
/// sets how many queries (spread over the file) are followed, all by default in release runs.
#[test]
fn file_mating_lines() {
    let positions = file_positions();
    let queries: Vec<(Position, Color)> = positions
        .iter()
        .flat_map(|(pos, can_mate)| {
            Color::ALL
                .into_iter()
                .zip(*can_mate)
                .filter(|&(_, can)| can)
                .map(|(color, _)| (*pos, color))
        })
        .collect();
    let count = hunt_size("CAISSA_SOUNDNESS_LINES", 30);
    let step = queries.len().div_ceil(count.max(1));
    let hunt = hunt_in_parallel(queries.len().div_ceil(step), |i, hunt| {
        let (pos, color) = queries[i * step];
        hunt.positions += 1;
        if let Winnability::Winnable(line) = can_win_with(&pos, color, Budget { nodes: 1 << 20 }) {
            check_mating_line(&pos, color, &line);
            hunt.certified_line(&pos, color, &line, &SMALL_BUDGETS[..2]);
        }
    });
    report("file, mating lines", &hunt);
}

/// One random change to `setup`: a man taken away, added, moved anywhere or one step, changed
/// into another, or the turn passed.
fn mutate(rng: &mut Rng, setup: &mut Setup) {
    let board = &mut setup.board;
    let men: Vec<Square> = (board.occupied() - board.kings()).into_iter().collect();
    let everyone: Vec<Square> = board.occupied().into_iter().collect();
    let free = !board.occupied();
    match rng.below(6) {
        0 => {
            if let Some(sq) = rng.choose(&men) {
                board.remove_piece_at(sq);
            }
        }
        1 => {
            if let Some(sq) = random_square(rng, free) {
                let piece = random_role(rng).of(random_color(rng));
                board.set_piece_at(sq, piece);
            }
        }
        2 | 3 => {
            let Some(from) = rng.choose(&everyone) else {
                return;
            };
            let area = if rng.percent(50) {
                near(from, 1)
            } else {
                Bitboard::FULL
            };
            if let Some(to) = random_square(rng, area & free)
                && let Some(piece) = board.remove_piece_at(from)
            {
                board.set_piece_at(to, piece);
            }
        }
        4 => {
            if let Some(sq) = rng.choose(&men)
                && let Some(piece) = board.piece_at(sq)
            {
                board.set_piece_at(sq, random_role(rng).of(piece.color));
            }
        }
        _ => setup.turn = !setup.turn,
    }
}

/// A random position of the file changed a little ([`mutate`], one to three times) and up to
/// two random moves on.
fn mutated_position(rng: &mut Rng, positions: &[(Position, [bool; 2])]) -> Position {
    let (start, _) = positions[rng.below(positions.len())];
    loop {
        let mut setup = start.to_setup();
        setup.ep_square = None;
        let changes = 1 + rng.below(3);
        for _ in 0..changes {
            mutate(rng, &mut setup);
        }
        drop_broken_rights(&mut setup);
        if let Ok(mut pos) = Position::from_setup(setup, CastlingMode::Standard) {
            let plies = rng.below(3);
            rng.walk(&mut pos, plies);
            return pos;
        }
    }
}

/// Positions of the file changed a little ([`mutate`]) and a few random moves on: mostly still
/// blocked, near the edge of what the proofs decide, and small enough for the oracle to list
/// every reachable position.
#[test]
fn mutated_file_positions() {
    let positions = file_positions();
    let count = hunt_size("CAISSA_SOUNDNESS_WALKS", 300);
    let cap = oracle_cap();
    let seed = seed();
    let hunt = hunt_in_parallel(count, |i, hunt| {
        let mut rng = Rng::new(seed ^ 0xF11E ^ ((i as u64) << 20));
        let pos = mutated_position(&mut rng, &positions);
        hunt.probe(&pos, &SMALL_BUDGETS, cap);
    });
    report("mutated file positions", &hunt);
}

/// Positions that chasolver 3.0.0 (M. Ambrona's CHA, a proof engine of the same family) calls
/// unwinnable although the player can mate: found by this file's hunts, where chasolver was run
/// alongside. A proof rule that went wrong there could go wrong here too; `can_win` must find
/// the mate, under every budget say nothing else, and keep the positions along its line
/// winnable.
#[test]
fn chasolver_false_unwinnables() {
    for (fen_text, color) in [
        (
            "b7/8/3B1k2/1p6/1Pp1p1p1/ppP1P1P1/1p6/1K6 b - - 2 2",
            Color::White,
        ),
        ("8/8/8/8/1p6/kP6/P7/1K6 w - - 0 1", Color::White),
        ("8/8/8/8/1p6/kP6/P7/1K6 w - - 0 1", Color::Black),
    ] {
        let fen: Fen = fen_text.parse().expect("a valid FEN");
        let pos = fen
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let Winnability::Winnable(line) = can_win_with(&pos, color, Budget::DEFAULT) else {
            panic!("{fen_text} {color:?}: no mating line found");
        };
        check_mating_line(&pos, color, &line);
        let mut hunt = Hunt::default();
        hunt.probe(&pos, &SMALL_BUDGETS, 1);
        hunt.certified_line(&pos, color, &line, &SMALL_BUDGETS[..1]);
        report(fen_text, &hunt);
    }
}
