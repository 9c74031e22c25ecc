//! Tier 7 of the analysis (see the parent module), exhaustive proofs: searches that look at
//! every line, for positions where the helpmate search with its depth costs is the wrong tool.
//!
//! Each returns "no mate" only when every line from the position was followed to a position
//! without a mate of the loser in it: the winner lacks mating material, the game is over
//! (stalemate, the winner mated), the position was seen before in the same proof (a set of
//! positions closed under moves), or the reachability analysis proves that the winner cannot
//! mate from there ([`statically_unwinnable`], itself sound).

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use caissa_board::Color;
use caissa_movegen::{Move, MoveList, Position};

use super::material::insufficient;
use super::reach::statically_unwinnable;
use super::search::{Key, KeyHasher};

/// What an exhaustive proof concluded.
#[derive(Debug)]
pub(super) enum Proof {
    /// A mating line.
    Mate(Vec<Move>),
    /// No line mates the loser.
    NoMate,
    /// The proof gave up (its bounds, or the budget).
    Open,
}

/// How a position ends a line: a mate of the loser, another end, or not at all.
fn ending(pos: &Position, moves: &MoveList, winner: Color) -> Option<bool> {
    if moves.is_empty() {
        return Some(pos.turn() != winner && pos.is_check());
    }
    insufficient(pos.board(), winner).then_some(false)
}

/// Whether every line from `pos` of at most `depth` plies ends without the loser mated.
/// `budget` counts nodes; `false` when it runs out or a line is still open at `depth`.
pub(super) fn every_line_ends(pos: &Position, winner: Color, depth: u32, budget: &mut u64) -> bool {
    let moves = pos.legal_moves();
    if let Some(mate) = ending(pos, &moves, winner) {
        return !mate;
    }
    if depth == 0 || *budget == 0 {
        return false;
    }
    for m in moves {
        *budget = budget.saturating_sub(1);
        let mut child = *pos;
        child.play_unchecked(m);
        if !every_line_ends(&child, winner, depth - 1, budget) {
            return false;
        }
    }
    true
}

/// Every position reachable from `pos`, breadth first, up to `cap` of them.
pub(super) fn closure(pos: &Position, winner: Color, cap: usize, budget: &mut u64) -> Proof {
    // Each position found, with the index of its parent and the move from it.
    let mut found: Vec<(Position, usize, Option<Move>)> = vec![(*pos, 0, None)];
    let mut seen: HashSet<Key, BuildHasherDefault<KeyHasher>> = HashSet::default();
    seen.insert(Key::of(pos));
    let mut next = 0;
    while next < found.len() {
        let (current, _, _) = found[next];
        let moves = current.legal_moves();
        match ending(&current, &moves, winner) {
            Some(true) => return Proof::Mate(line_to(&found, next)),
            Some(false) => {}
            None => {
                for m in moves {
                    if *budget == 0 {
                        return Proof::Open;
                    }
                    *budget -= 1;
                    let mut child = current;
                    child.play_unchecked(m);
                    if seen.insert(Key::of(&child)) {
                        if found.len() >= cap {
                            return Proof::Open;
                        }
                        found.push((child, next, Some(m)));
                    }
                }
            }
        }
        next += 1;
    }
    Proof::NoMate
}

fn line_to(found: &[(Position, usize, Option<Move>)], mut at: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while let (_, parent, Some(m)) = found[at] {
        line.push(m);
        at = parent;
    }
    line.reverse();
    line
}

/// Follows every line of checks from `pos` (and, at the start, every move), up to `max_depth`
/// plies: every other move must lead to a position that the reachability analysis proves
/// unwinnable, else the proof gives up.
pub(super) fn check_chains(
    pos: &Position,
    winner: Color,
    max_depth: u32,
    budget: &mut u64,
) -> Proof {
    let mut visited = HashSet::new();
    let mut line = Vec::new();
    match chain(pos, winner, 0, max_depth, &mut visited, &mut line, budget) {
        Some(true) => Proof::Mate(line),
        Some(false) => Proof::NoMate,
        None => Proof::Open,
    }
}

/// `Some(true)`: a mate (its line in `line`); `Some(false)`: none; `None`: gave up.
fn chain(
    pos: &Position,
    winner: Color,
    depth: u32,
    max_depth: u32,
    visited: &mut HashSet<Key>,
    line: &mut Vec<Move>,
    budget: &mut u64,
) -> Option<bool> {
    if depth > max_depth {
        return None;
    }
    visited.insert(Key::of(pos));
    let moves = pos.legal_moves();
    if let Some(mate) = ending(pos, &moves, winner) {
        return Some(mate);
    }
    for m in moves {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut child = *pos;
        child.play_unchecked(m);
        if visited.contains(&Key::of(&child)) {
            continue;
        }
        if child.is_check() || depth == 0 {
            line.push(m);
            match chain(&child, winner, depth + 1, max_depth, visited, line, budget)? {
                true => return Some(true),
                false => {
                    line.pop();
                    continue;
                }
            }
        }
        if !statically_unwinnable(&child, winner) {
            return None;
        }
    }
    Some(false)
}
