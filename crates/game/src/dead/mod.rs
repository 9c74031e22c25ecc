//! Dead positions and unwinnability (FIDE 5.2.2, and "cannot win" in 6.9, 5.1.2 and 7.5.5).
//!
//! A position is **dead** when neither player can checkmate the other by any series of legal
//! moves; a player **cannot win** when no series of legal moves lets that player checkmate.
//! [`can_win`] answers per player, with a mating line as proof when there is one; [`is_dead`]
//! answers for both. The ideas follow M. Ambrona's CHA ("A Practical Algorithm for Chess
//! Unwinnability", FUN 2022); the code is this crate's own.
//!
//! # Tiers
//!
//! The analysis runs these steps, cheapest first, and stops at the first that decides:
//!
//! 1. **The position itself**: a mate on the board, or no move at all.
//! 2. **Material** (`material`, O(1)): a lone king, king and knight against king and queens,
//!    king and bishops with every bishop on one square colour and no knights or pawns — each a
//!    theorem about mating patterns, proved in that module.
//! 3. **Forced moves**: while the side to move has a single move, it is played; a forced
//!    sequence that comes back to a position it passed cycles for ever, without a mate.
//! 4. **A quick helpmate search** (`search`): both sides help the winner; one iteration whose
//!    depth is spent only by moves that do not look like progress. (The dead-position check
//!    after each move of a game first tries a **pawn storm**, `storm`: the line that search
//!    most often finds, built move by move without searching, then a mate of at most three
//!    plies by its queens and rooks, then the same storm with levers (pushes in front of the
//!    other side's pawns), then a walk of the loser's king to the edge to be mated there, else
//!    the quick search from its end.)
//! 5. **Reachability** (`reach`): a fixpoint over the squares each man could ever reach, which
//!    proves blocked positions (pawn walls, bishops of the wrong colour, kings shut in)
//!    unwinnable. Run before the deeper search when no queen, rook or knight is left, after
//!    it otherwise.
//! 6. **Iterative deepening** with a transposition table, up to 1,000,000 nodes: six plies
//!    first, then a **closure** (every reachable position, up to 5,000 of them: locked
//!    positions have few), then on to 128 plies.
//! 7. **Exhaustive proofs** (`proof`): every line for a few plies; every position reachable,
//!    up to 32,768 of them (a locked pawn structure with kings walking behind it, where only
//!    the order of moves decides); every chain of checks, with the reachability analysis at
//!    the other leaves.
//! 8. **A guided deep search**: the deepening again, now also steering bishops through the
//!    blocked structure and penalising the first moves after which the winner provably cannot
//!    mate, with the rest of the budget.
//!
//! # Soundness
//!
//! A verdict of [`Winnability::Winnable`] carries its mating line, which replays legally. A
//! verdict of [`Winnability::Unwinnable`] comes only from a proof: the material theorems, a
//! forced cycle, a search that explored a set of positions closed under moves without meeting
//! a mate (its depth limits unused), or the reachability fixpoint, whose conclusions hold for
//! every line that ends in a mate. Each module explains its own argument. When the budget runs
//! out first the answer is [`Winnability::Unknown`], never a guess.
//!
//! # Example
//!
//! ```
//! use caissa_board::Color;
//! use caissa_game::dead::{Winnability, can_win, is_dead};
//! use caissa_movegen::Position;
//!
//! let start = Position::standard();
//! assert!(matches!(can_win(&start, Color::White), Winnability::Winnable(_)));
//! assert!(!is_dead(&start));
//! ```

mod carry;
mod material;
mod proof;
mod reach;
mod search;
mod storm;

use caissa_board::{Board, Color};
use caissa_movegen::{Move, Position};

pub(crate) use carry::Verdicts;
use proof::Proof;
use search::{Found, Search};
use storm::Pushes;

/// Whether a player can still checkmate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Winnability {
    /// The player can checkmate; the moves (both sides', from the position) of one mating line.
    Winnable(Vec<Move>),
    /// No sequence of legal moves lets the player checkmate.
    Unwinnable,
    /// The analysis ran out of budget before deciding.
    Unknown,
}

/// How much work [`can_win_with`] may do before answering [`Winnability::Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions the searches may visit (moves tried), all steps together.
    pub nodes: u64,
}

impl Budget {
    /// The budget of [`can_win`], enough for every position of the project's test file (the
    /// hardest need a few million nodes, most decide in a few hundred).
    pub const DEFAULT: Budget = Budget { nodes: 1 << 25 };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Forced moves played at most before searching.
const FORCED_LIMIT: usize = 32;
/// Nodes per unit of depth in the quick search and in the deepening.
const QUICK_DEPTH_NODES: u64 = 1_000;
const DEEPENING_DEPTH_NODES: u64 = 7_000;
/// Nodes for the deepening step.
const DEEPENING_NODES: u64 = 1_000_000;
/// Positions at most in the late closure proof.
const CLOSURE_CAP: usize = 1 << 15;
/// The depth of the first, shallow deepening, and the positions at most in the closure that
/// follows it.
const SHALLOW_DEPTH: u32 = 6;
const SMALL_CLOSURE_CAP: usize = 5_000;
/// Plies at most along a chain of checks.
const CHECK_CHAIN_DEPTH: u32 = 16;
/// The nodes a reachability analysis is charged, for the budget.
const REACH_NODES: u64 = 64;

/// Whether `color` can checkmate its opponent by some sequence of legal moves, with the
/// default [`Budget`].
///
/// This is the FIDE test behind a dead position (5.2.2) and a flag fall against a lone king or
/// a position the opponent cannot lose (6.9), not a material count: a bishop alone cannot mate,
/// but a bishop against a pawn can, if the pawn promotes to a knight that blocks its king.
///
/// ```
/// use caissa_game::dead::{Winnability, can_win};
/// use caissa_game::{Color, Position};
/// use caissa_movegen::fen::Fen;
///
/// let position = |fen: &str| -> Position {
///     fen.parse::<Fen>().unwrap().into_position(Default::default()).unwrap()
/// };
/// // King and bishop against a bare king: no sequence of moves mates.
/// let bare = position("8/8/8/4k3/8/8/8/KB6 w - - 0 1");
/// assert_eq!(can_win(&bare, Color::White), Winnability::Unwinnable);
/// // Against a king with a pawn, the pawn can become a piece that helps mate its own king.
/// let pawn = position("7k/8/6K1/8/8/8/p7/2B5 w - - 0 1");
/// assert!(matches!(can_win(&pawn, Color::White), Winnability::Winnable(_)));
/// ```
#[doc(alias = "insufficient_material")]
#[must_use]
pub fn can_win(pos: &Position, color: Color) -> Winnability {
    can_win_with(pos, color, Budget::DEFAULT)
}

/// Whether `color` can checkmate its opponent by some sequence of legal moves, visiting at
/// most `budget.nodes` positions in its searches. A spent budget stops the analysis before any
/// step whose work the node count does not see, so a smaller budget is never the slower one.
///
/// The analysis always runs for White: for Black it runs on the position mirrored top to
/// bottom with the colours exchanged (the same game, so the same answer), and mirrors the
/// mating line back. This keeps the order in which the searches try moves the same for both
/// colours (from the mated king's side of the board), which the move-steering heuristics are
/// tuned for.
#[must_use]
pub fn can_win_with(pos: &Position, color: Color, budget: Budget) -> Winnability {
    can_win_in_steps(pos, color, budget, Steps::All)
}

/// Which steps of the analysis run. [`can_win_with`] runs them all; the dead-position check
/// after each move (`carry`) first runs the quick search alone for each side, as most positions
/// of a game have a short mate for one side or the other that it finds, and only then the
/// rest, without running the quick search again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Steps {
    /// Every step.
    All,
    /// The steps up to the quick search (tier 4): [`Winnability::Unknown`] where they leave the
    /// question open.
    Quick,
    /// Every step but the quick search, which ran before and left the question open.
    AfterQuick,
    /// Every step but the quick search, which ran before and left the question open, and the
    /// reachability test that follows it when no queen, rook or knight is left (tier 5): a
    /// cheaper try first, as that test costs as much as hundreds of nodes and, in a game, rarely
    /// decides where the searches do not.
    AfterQuickWithoutReach,
}

/// [`can_win_with`], running only `steps`.
pub(crate) fn can_win_in_steps(
    pos: &Position,
    color: Color,
    budget: Budget,
    steps: Steps,
) -> Winnability {
    if color == Color::Black
        && let Ok(mirrored) = pos.flip_colors()
    {
        return match analyse(&mirrored, Color::White, budget, steps) {
            Winnability::Winnable(line) => {
                Winnability::Winnable(line.into_iter().map(Move::flip_vertical).collect())
            }
            other => other,
        };
    }
    analyse(pos, color, budget, steps)
}

/// The analysis behind [`can_win_with`], for either colour.
fn analyse(pos: &Position, color: Color, budget: Budget, steps: Steps) -> Winnability {
    // Counted once: whether there is a move, and whether there is only one to play first.
    let moves = pos.count_legal_moves();
    if moves == 0 {
        return if pos.turn() != color && pos.is_check() {
            Winnability::Winnable(Vec::new())
        } else {
            Winnability::Unwinnable
        };
    }
    if material::insufficient(pos.board(), color) {
        return Winnability::Unwinnable;
    }
    let (start, forced, cycles) = if moves == 1 {
        search::play_forced(pos, FORCED_LIMIT)
    } else {
        (*pos, Vec::new(), false)
    };
    if cycles {
        return Winnability::Unwinnable;
    }
    let winnable = |line: Vec<Move>| {
        let mut full = forced.clone();
        full.extend(line);
        Winnability::Winnable(full)
    };
    // Without a forced move, `start` is `pos`, which has moves.
    if !forced.is_empty() && !start.has_legal_moves() {
        return if start.turn() != color && start.is_check() {
            winnable(Vec::new())
        } else {
            Winnability::Unwinnable
        };
    }
    let mut search = Search::new(&start, color, budget.nodes);
    if steps == Steps::All || steps == Steps::Quick {
        let found = search.deepen(&start, [1], Some(QUICK_DEPTH_NODES), u64::MAX, false);
        if let Some(verdict) = decided(found, winnable) {
            return verdict;
        }
    }
    if steps == Steps::Quick {
        return Winnability::Unknown;
    }
    // The reachability test below does work that the node count does not see: a budget the
    // quick search spent stops here (see `search.spent()` further down).
    if search.spent() {
        return Winnability::Unknown;
    }
    let board = start.board();
    let majors = (board.queens() | board.rooks() | board.knights()).any();
    if !majors
        && steps != Steps::AfterQuickWithoutReach
        && reach::statically_unwinnable(&start, color)
    {
        return Winnability::Unwinnable;
    }
    let found = search.deepen(
        &start,
        2..=SHALLOW_DEPTH,
        Some(DEEPENING_DEPTH_NODES),
        DEEPENING_NODES,
        true,
    );
    if let Some(verdict) = decided(found, winnable) {
        return verdict;
    }
    // No short mate: a locked position has few reachable positions, which a closure lists
    // far faster than deeper searches could prove anything.
    let closure = proof::closure(&start, color, SMALL_CLOSURE_CAP, &mut search.budget);
    if let Some(verdict) = proved(closure, winnable) {
        return verdict;
    }
    let found = search.deepen(
        &start,
        SHALLOW_DEPTH + 1..=128,
        Some(DEEPENING_DEPTH_NODES),
        DEEPENING_NODES,
        true,
    );
    if let Some(verdict) = decided(found, winnable) {
        return verdict;
    }
    // The steps below do work that the node count does not see (reachability fixpoints): a
    // spent budget stops here, so that a smaller budget never costs more than a larger one.
    if search.spent() {
        return Winnability::Unknown;
    }
    if majors && reach::statically_unwinnable(&start, color) {
        return Winnability::Unwinnable;
    }
    let depth = if majors { 4 } else { 7 };
    if proof::every_line_ends(&start, color, depth, &mut search.budget) {
        return Winnability::Unwinnable;
    }
    if let Some(verdict) = proved(
        proof::closure(&start, color, CLOSURE_CAP, &mut search.budget),
        winnable,
    ) {
        return verdict;
    }
    let chains = proof::check_chains(&start, color, CHECK_CHAIN_DEPTH, &mut search.budget);
    if let Some(verdict) = proved(chains, winnable) {
        return verdict;
    }
    if search.spent() {
        return Winnability::Unknown;
    }
    if let Some(analysis) = reach::Reach::new(&start, color) {
        search.guide.with_bishop_distances(analysis.steady);
    }
    // Each child's reachability analysis is charged as many nodes as a small search.
    let moves = start.legal_moves();
    search.budget = search
        .budget
        .saturating_sub(REACH_NODES * moves.len() as u64);
    if search.spent() {
        return Winnability::Unknown;
    }
    search.guide.punish(
        moves
            .into_iter()
            .filter(|&m| {
                let mut child = start;
                child.play_unchecked(m);
                reach::statically_unwinnable(&child, color)
            })
            .collect(),
    );
    let found = search.deepen(&start, 2.., None, u64::MAX, true);
    decided(found, winnable).unwrap_or(Winnability::Unknown)
}

/// Moves the quick search may try from where a pawn storm ends. (A round of `outcome_times`:
/// 0.788 G instructions, calls over 20 µs 176; with 100 moves 0.796 G, 200 0.791 G and 190
/// calls, 300 0.797 G and 190 calls, 400 0.803 G.)
const STORM_END_NODES: u64 = 150;

/// A mating line for `color` from `pos` that begins with a pawn storm (see `storm`), if a
/// short finish by the queens and rooks (`storm::finish`), the same after a storm with levers,
/// a walk of the loser's king to the edge (`storm::edge_mate`, from `pos` itself when there is
/// no storm) or else the quick search finds the mate from where the storm ends, the search
/// trying at most [`STORM_END_NODES`] moves. `None` proves nothing. Run for White on the
/// mirrored position for Black, as [`can_win_with`] runs: the search's move order is tuned for
/// White (a line for Black found without the mirror cost 1 % more instructions a round of
/// `outcome_times`).
///
/// Debug builds check every line it gives move by move ([`mates`]), so that each test that
/// replays games checks the storms of its positions.
pub(crate) fn storm_line(pos: &Position, color: Color) -> Option<Vec<Move>> {
    let line = if color == Color::Black
        && let Ok(mirrored) = pos.flip_colors()
    {
        stormed(&mirrored, Color::White)
            .map(|line| line.into_iter().map(Move::flip_vertical).collect())
    } else {
        stormed(pos, color)
    };
    #[cfg(debug_assertions)]
    assert!(
        line.as_ref().is_none_or(|line| mates(pos, line, color)),
        "a storm line that does not mate: {line:?}"
    );
    line
}

/// The position of `fen` (standard castling), for the tests.
#[cfg(test)]
pub(crate) fn position(fen: &str) -> Position {
    let fen: caissa_movegen::fen::Fen = fen.parse().expect("a FEN");
    fen.into_position(Default::default())
        .expect("a legal position")
}

/// Whether `line` is legal from `pos`, move by move, and ends with `winner`'s opponent mated:
/// what a mating line promises.
#[cfg(any(test, debug_assertions))]
pub(crate) fn mates(pos: &Position, line: &[Move], winner: Color) -> bool {
    played_legally(pos, line).is_some_and(|at| at.turn() != winner && at.is_checkmate())
}

/// The position `moves` come to from `pos`, if each is legal where it is played. (This and
/// [`played`] are inlined into the repairs of `carry`: called, a round of `outcome_times`
/// costs 3 M more instructions, callgrind.)
#[inline(always)]
pub(super) fn played_legally(pos: &Position, moves: &[Move]) -> Option<Position> {
    let mut at = *pos;
    for &m in moves {
        if !at.is_legal(m) {
            return None;
        }
        at.play_unchecked(m);
    }
    Some(at)
}

/// The position the moves of a checked line come to from `pos`.
#[inline(always)]
pub(super) fn played(pos: &Position, moves: &[Move]) -> Position {
    let mut at = *pos;
    for &m in moves {
        at.play_unchecked(m);
    }
    at
}

/// `m` played backwards: from its target square back to where it came from.
pub(super) fn backwards(m: Move) -> Move {
    Move::normal(m.to(), m.from())
}

/// [`storm_line`], for either colour.
fn stormed(pos: &Position, color: Color) -> Option<Vec<Move>> {
    let free = storm::storm(pos, color, Pushes::Free);
    if let Some((end, _)) = &free
        && let Some(rest) = storm::finish(end, color)
    {
        return free.map(|(_, mut line)| {
            line.extend(rest);
            line
        });
    }
    // From where the free pushes ended (from `pos` if there were none): the levers and their
    // finish, else the walk of the loser's king to the edge.
    let from = free.as_ref().map_or(pos, |(end, _)| end);
    let rest = storm::storm(from, color, Pushes::Levers)
        .and_then(|(end, mut levers)| {
            levers.extend(storm::finish(&end, color)?);
            Some(levers)
        })
        .or_else(|| storm::edge_mate(from, color));
    if let Some(rest) = rest {
        let mut line = free.map_or_else(Vec::new, |(_, line)| line);
        line.extend(rest);
        return Some(line);
    }
    let (end, mut line) = free?;
    let mut search = Search::new(&end, color, STORM_END_NODES);
    match search.deepen(&end, [1], Some(QUICK_DEPTH_NODES), u64::MAX, false) {
        Found::Mate(rest) => {
            line.extend(rest);
            Some(line)
        }
        Found::NoMate | Found::Open => None,
    }
}

/// The verdict of a search, if it decided.
fn decided(found: Found, winnable: impl Fn(Vec<Move>) -> Winnability) -> Option<Winnability> {
    match found {
        Found::Mate(line) => Some(winnable(line)),
        Found::NoMate => Some(Winnability::Unwinnable),
        Found::Open => None,
    }
}

/// The verdict of an exhaustive proof, if it decided.
fn proved(proof: Proof, winnable: impl Fn(Vec<Move>) -> Winnability) -> Option<Winnability> {
    match proof {
        Proof::Mate(line) => Some(winnable(line)),
        Proof::NoMate => Some(Winnability::Unwinnable),
        Proof::Open => None,
    }
}

/// Whether `color` lacks mating material on `board`: the per-side material test game servers
/// apply when a flag falls (rules-spec 10.3, as lichess and python-chess do), O(1).
///
/// `true` when `color` has a lone king; a king and a knight while the opponent has nothing but
/// its king and queens; or kings and bishops only, every bishop on the board on one square
/// colour, with no knight or pawn anywhere. Each is a theorem (see the material tier in the
/// module docs): `true` means that `color` can never checkmate, whatever the position. `false`
/// says nothing more: blocked positions need [`can_win`], the full analysis, which starts with
/// this test.
///
/// ```
/// use caissa_board::{Board, Color, Role, Square};
/// use caissa_game::dead::lacks_mating_material;
///
/// // King and knight against a lone king: neither side can mate.
/// let mut board = Board::empty();
/// board.set_piece_at(Square::E1, Role::King.of(Color::White));
/// board.set_piece_at(Square::B1, Role::Knight.of(Color::White));
/// board.set_piece_at(Square::E5, Role::King.of(Color::Black));
/// assert!(lacks_mating_material(&board, Color::White));
/// assert!(lacks_mating_material(&board, Color::Black));
/// // A black pawn is something the knight can mate with (it may block the king's escape).
/// board.set_piece_at(Square::B6, Role::Pawn.of(Color::Black));
/// assert!(!lacks_mating_material(&board, Color::White));
/// assert!(!lacks_mating_material(&Board::standard(), Color::White));
/// ```
#[doc(alias = "insufficient_material")]
#[must_use]
pub fn lacks_mating_material(board: &Board, color: Color) -> bool {
    material::insufficient(board, color)
}

/// Whether the position is dead: neither player can checkmate (FIDE 5.2.2). An undecided
/// analysis ([`Winnability::Unknown`]) counts as "not dead": the game goes on.
#[must_use]
pub fn is_dead(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|color| can_win(pos, color) == Winnability::Unwinnable)
}
