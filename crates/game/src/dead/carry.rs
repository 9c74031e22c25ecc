//! Verdicts carried from one position of a game to the next, so that the dead-position check
//! after every move (5.2.2) costs little more than replaying a few moves.
//!
//! [`Verdicts`] holds what is known of each side's winnability in one position: a mating line
//! (both sides' moves, which replays legally into a mate of the other side), a proof that the
//! side cannot win, or nothing yet. After moves are played, [`Verdicts::after`] derives the
//! verdicts of the new position from the old ones:
//!
//! - **"Cannot win" carries over unchanged.** Every position reached from one where a side
//!   cannot win is one where it cannot win either: a mating line from the later position would
//!   extend the moves played into a mating line from the earlier one.
//! - **A mating line is repaired.** When the moves played are the line's first moves, the rest of
//!   the line stands. After a single move of a piece (no castling), the line is kept behind a
//!   *take-back* of it (a quiet move there and back by the other side around the move played
//!   backwards): when the take-back comes back to the position the line starts from (same men, side
//!   to move and en passant possibility; castling rights too if the line castles), the line holds
//!   move for move, as it was checked from there, and only the three moves in front are new;
//!   otherwise (a capture, whose man does not come back) the whole is *replayed*. A line that
//!   begins with a take-back already has it replaced by the two moves played backwards, the
//!   side to move's own first, where they come back to the same position: two moves in front
//!   of the rest rather than three more in front of the whole (callgrind, one round of
//!   `outcome_times`, 493.5 -> 482.9 M instructions; 489.6 M when any line's second move was
//!   tried so, not only one that begins with a quiet move there and back). When the single
//!   move played is one that the line plays later for the same side (most often the winner's pawn
//!   push, which no take-back undoes), it is *commuted* to the front: taken out of the line there,
//!   with the mover's earlier moves each a turn later, after the other side's. The moves before
//!   that point are checked; where they come to the position the line's own moves came to (the
//!   same moves in another order), the rest of the line holds as it was checked, and otherwise
//!   the whole is replayed. A replay plays the line from the new position, skipping the moves
//!   that have become illegal and letting a side that has the move out of turn spend a *tempo*
//!   (a quiet move of a man the line does not use, away from the squares it uses). A replay
//!   that plays the whole line without coming to a mate goes on with a pawn storm from where it
//!   ends (`storm_line`), whose pawns the replay has mostly pushed already: a capture or a move
//!   played out of order rarely spoils the storm, only its last few moves. The result counts
//!   only if it ends in a mate of the right side: a replayed line is checked move by move, and
//!   a line kept as it was (behind a take-back, or commuted) only where the position it was
//!   checked from is reached again, so it is as good a proof as the analysis's own lines.
//!   (On the PGN samples the take-back keeps about 15,900 lines a round, 2,100 of them replayed
//!   after a capture, and the commuted move about 1,800. Of the replays, 46 % end in a mate, 25 %
//!   end without one, where the storm from the end finds a mate in 97 %, and 29 % find no tempo.
//!   Replaying the line after any other move, with its first moves dropped or whole, kept 14 and
//!   10 % of the lines it tried, where a replay costs about a fifth of a fresh analysis: dropped,
//!   it took with it 6 % of the instructions of a round and 44 % of the calls over 10 µs; with the
//!   storm from its end, after a pawn move of the line's winner, 0.15 % fewer instructions, and
//!   after one of the other side's, 6 % more.)
//! - **Both sides' lines are repaired** after every move, though one line is proof enough: when
//!   the move that spoils one line leaves the other whole, no analysis is needed. (Keeping the
//!   second line unrepaired for up to eight moves and repairing it only when the first failed,
//!   as before: callgrind's count of a round of `outcome_times` 506.0 M instructions, 501.2 M
//!   with the storm from a replay's end, 493.5 M with both lines repaired too.)
//! - **After a capture, the recapture is put in front.** The next move after a capture is most
//!   often a recapture on the same square, the one move a line can foresee that no take-back
//!   would undo: a replay after a capture plays the line from behind the side to move's
//!   recapture (its least valuable man taking), and a fresh storm after one is built from
//!   there too, so that when the recapture comes the rest of the line stands as it was
//!   (482.6 -> 459.0 M instructions a round of `outcome_times`, fresh storms 8,720 -> 8,404).
//! - **Anything else is analysed afresh**: each side first with a *pawn storm* (`storm`: the
//!   winner's pawns pushed to promotion while the loser shuttles a piece, built without a search,
//!   then the quick search from where it ends, at most 150 moves), then with the quick search
//!   alone, then with the rest of the analysis with small budgets (500 nodes, then 7,000), then
//!   with [`can_win`]'s default budget, so the verdict is never weaker than the full analysis: a
//!   position the analysis proves dead is proved dead here too, whatever happened before it.
//!
//! A position is dead when neither side can win; a side with a line proves that it is not, so
//! the other side need not be analysed at all.

use caissa_board::{Bitboard, ByColor, Color, Rank, Role};
use caissa_movegen::{Move, Position, attacks};

#[cfg(doc)]
use super::can_win;
use super::{
    Budget, Steps, Winnability, backwards, can_win_in_steps, played, played_legally, storm_line,
};

/// The longest line a repair may produce, in plies: past it the position is analysed afresh
/// (each tempo makes a line one ply longer).
const MAX_CARRIED: usize = 256;
/// The analyses of each side before the full one, each with its budget: both sides get each
/// before either gets the next, and all of them come after both sides' pawn storms (see
/// [`storm_line`]). Most positions of a game have a short mate for one side or the
/// other, which the quick search alone finds (at most 1,000 nodes); the rest of the analysis
/// follows, without the quick search: first its searches alone with 500 nodes, then all of it
/// (the reachability test of pawn endgames too) with 7,000. The later tiers spare the positions
/// where one side's mate is hard to find and the other's is not (the slowest call of the PGN
/// samples, 1.0 -> 0.7 ms) a full analysis of the wrong side. (The quick search of both sides
/// first: p99.9 of the PGN samples 74 -> 60 µs, calls over 50 µs 79 -> 45; 500 nodes rather
/// than 1,000 in the second tier: the slowest call 0.32 -> 0.29 ms, with 2,000 0.60 ms; the
/// reachability test in the third tier rather than the second: 0.34 -> 0.23 ms.)
const SMALL_TIERS: [(Budget, Steps); 3] = [
    (Budget { nodes: 1_000 }, Steps::Quick),
    (Budget { nodes: 500 }, Steps::AfterQuickWithoutReach),
    (Budget { nodes: 7_000 }, Steps::AfterQuick),
];

/// What is known of one side's winnability in a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Known {
    /// Not analysed.
    #[default]
    Untried,
    /// A mating line from `from`, the position itself.
    Line { line: Vec<Move>, from: Position },
    /// The side cannot win: proved.
    Unwinnable,
    /// The full analysis ran out of budget.
    Unknown,
}

impl Known {
    /// A mating line from `from`, the position itself.
    fn line(line: Vec<Move>, from: &Position) -> Known {
        Known::Line { line, from: *from }
    }
}

/// What is known of both sides' winnability in one position: see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Verdicts(ByColor<Known>);

impl Verdicts {
    /// The verdicts for `pos`, analysed afresh.
    pub(crate) fn of(pos: &Position) -> Verdicts {
        Verdicts::default().after(pos, &[])
    }

    /// The verdicts for `pos`, reached by playing `played` from a position with these
    /// verdicts: carried over where they can be (see the module docs), the rest analysed.
    pub(crate) fn after(&self, pos: &Position, played: &[Move]) -> Verdicts {
        let mut next = Verdicts::default();
        if played.is_empty() && *pos == Position::standard() {
            next.0 = ByColor::new_with(|color| Known::line(fools_mate(color), pos));
            return next;
        }
        for color in Color::ALL {
            next.0[color] = match &self.0[color] {
                Known::Unwinnable => Known::Unwinnable,
                Known::Line { line, from } => carry(pos, line, from, played, color)
                    .map_or(Known::Untried, |line| Known::line(line, pos)),
                Known::Untried | Known::Unknown => Known::Untried,
            };
        }
        // A line for either side proves the position alive; only without one does each side
        // need the full analysis, after the small ones (see `SMALL_TIERS`). The side that
        // had a line a move ago goes first: it most likely has one still, and the other side's
        // search, when that side cannot win quickly, fails only after its whole budget.
        let had_line = |color: Color| matches!(self.0[color], Known::Line { .. });
        let order = if had_line(Color::Black) && !had_line(Color::White) {
            [Color::Black, Color::White]
        } else {
            Color::ALL
        };
        for tier in [None]
            .into_iter()
            .chain(SMALL_TIERS.map(Some))
            .chain([Some((Budget::DEFAULT, Steps::All))])
        {
            for color in order {
                if next.alive() {
                    return next;
                }
                if next.0[color] != Known::Untried {
                    continue;
                }
                // The first tier: a pawn storm and a small search from where it ends.
                next.0[color] = match tier {
                    None => exchange_storm(pos, played, color)
                        .or_else(|| storm_line(pos, color))
                        .map_or(Known::Untried, |line| Known::line(line, pos)),
                    Some((budget, steps)) => match can_win_in_steps(pos, color, budget, steps) {
                        Winnability::Winnable(line) => Known::line(line, pos),
                        Winnability::Unwinnable => Known::Unwinnable,
                        Winnability::Unknown if budget != Budget::DEFAULT => Known::Untried,
                        Winnability::Unknown => Known::Unknown,
                    },
                };
            }
        }
        next
    }

    /// Whether a side has a mating line from this position.
    fn alive(&self) -> bool {
        Color::ALL
            .into_iter()
            .any(|color| matches!(self.0[color], Known::Line { .. }))
    }

    /// Whether neither side can win (5.2.2).
    pub(crate) fn dead(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|color| self.0[color] == Known::Unwinnable)
    }

    /// The verdicts of `earlier`, the position before `m`, given these of the position after
    /// it: each line with `m` in front (what a take-back keeps), if there is one. (A side that
    /// cannot win after `m` may have been able to before it.)
    pub(crate) fn before(&self, m: Move, earlier: &Position) -> Option<Verdicts> {
        self.alive().then(|| {
            Verdicts(ByColor::new_with(|color| match &self.0[color] {
                Known::Line { line, .. } => Known::line(in_front(&[m], line), earlier),
                _ => Known::Untried,
            }))
        })
    }
}

/// After a capture, a storm line behind the recapture: the side to move takes back on the
/// capture's square first (see [`recapture`]), and the storm follows. In games the recapture
/// is the likeliest next move, and a line that begins with it is carried past it for nothing.
/// (Callgrind, a round of `outcome_times`: 482.6 -> 466.6 M instructions, fresh storms 8,720
/// -> 8,404; behind a take of any man that just moved, not only after a capture, 469.1 M;
/// also after a check by the man that just moved, 466.2 M, not worth its test; castling in
/// front wherever it is legal, 464.2 M against 459.8 M.)
fn exchange_storm(pos: &Position, played: &[Move], color: Color) -> Option<Vec<Move>> {
    let &[m] = played else { return None };
    let (r, after) = recapture(pos, m)?;
    let rest = storm_line(&after, color)?;
    Some(in_front(&[r], &rest))
}

/// The recapture after `m`, when `m` took a man or promoted (a new queen is as likely taken):
/// the legal move of the side to move's least valuable man onto `m`'s square (a pawn
/// promoting to a queen), and the position after it. Each side's repair and storm looks for
/// it on its own: found once in `Verdicts::after` and passed down, eagerly or at the first
/// need, a round of `outcome_times` cost the same (462.2 and 462.7 M instructions against
/// 462.1 M), so the simpler calls stay.
fn recapture(pos: &Position, m: Move) -> Option<(Move, Position)> {
    let to = m.to();
    let board = pos.board();
    // Only a pawn move or a capture sets the clock to nought, and a pawn that changed files
    // took a man.
    let took = pos.halfmoves() == 0
        && (board.role_at(to) != Some(Role::Pawn) || m.from().file() != to.file());
    if !took {
        return None;
    }
    let us = pos.turn();
    let takers = pos.attackers_to(to, us, board.occupied());
    let promotes = to.rank() == Rank::back_rank(!us);
    let r = Role::ALL
        .into_iter()
        .flat_map(|role| {
            (board.by_role(role) & takers)
                .into_iter()
                .map(move |from| (role, from))
        })
        .map(|(role, from)| {
            if promotes && role == Role::Pawn {
                Move::promotion(from, to, Role::Queen)
            } else {
                Move::normal(from, to)
            }
        })
        .find(|&r| pos.is_legal(r))?;
    let mut after = *pos;
    after.play_unchecked(r);
    Some((r, after))
}

/// The shortest mates from the standard start, with `winner` mating: 1. f3 e5 2. g4 Qh4# for
/// Black, 1. e4 f6 2. d4 g5 3. Qh5# for White. Every game from the start begins with them,
/// short lines that the first moves rarely spoil.
fn fools_mate(winner: Color) -> Vec<Move> {
    use caissa_board::Square::{
        D1, D2, D4, D8, E2, E4, E5, E7, F2, F3, F6, F7, G2, G4, G5, G7, H4, H5,
    };
    match winner {
        Color::Black => vec![
            Move::normal(F2, F3),
            Move::normal(E7, E5),
            Move::normal(G2, G4),
            Move::normal(D8, H4),
        ],
        Color::White => vec![
            Move::normal(E2, E4),
            Move::normal(F7, F6),
            Move::normal(D2, D4),
            Move::normal(G7, G5),
            Move::normal(D1, H5),
        ],
    }
}

/// A mating line for `winner` from `pos`, made from `line`, a mating line from `from`, the
/// position `played` moves before: see the module docs.
fn carry(
    pos: &Position,
    line: &[Move],
    from: &Position,
    played: &[Move],
    winner: Color,
) -> Option<Vec<Move>> {
    if let Some(rest) = line.strip_prefix(played) {
        return Some(rest.to_vec());
    }
    match played {
        &[m] => undone(pos, line, from, m, winner).or_else(|| commuted(pos, line, from, m, winner)),
        _ => None,
    }
}

/// `line` from `pos`, reached from the line's start by `m`, a move that the line plays later
/// for the same side: that later move is dropped, and the moves of the side that played `m`
/// before it each come one turn later, after the other side's, which keeps the turn order.
/// (A winner pushing a pawn that its line pushes later anyway; checked by [`meets_line`], else
/// by replaying.)
fn commuted(
    pos: &Position,
    line: &[Move],
    from: &Position,
    m: Move,
    winner: Color,
) -> Option<Vec<Move>> {
    let k = (1..line.len().div_ceil(2)).find(|&k| line[2 * k] == m)?;
    let mut candidate = Vec::with_capacity(line.len());
    for pair in line[..2 * k].chunks_exact(2) {
        candidate.extend_from_slice(&[pair[1], pair[0]]);
    }
    candidate.extend_from_slice(&line[2 * k + 1..]);
    if meets_line(pos, &candidate[..2 * k], from, line, 2 * k + 1) {
        #[cfg(debug_assertions)]
        assert!(
            super::mates(pos, &candidate, winner),
            "a commuted line that does not mate: {candidate:?}"
        );
        return Some(candidate);
    }
    replay(pos, &candidate, winner)
}

/// Whether `prefix`, played from `pos`, is legal move by move and comes to the position that
/// `line`'s first `plies` moves (legal: it is a checked line) come to from `from`: the same
/// men, side to move and castling rights, and no en passant capture next in `line`, the one
/// move that the en passant square decides. Then the rest of `line` holds from there move
/// for move, as it was checked, and needs no replay. (A commuted line plays the same moves as
/// the line's first ones in another order, so it comes to the same men when its moves are
/// legal: on the PGN samples, 0.9 % fewer instructions a round of `outcome_times`.)
fn meets_line(
    pos: &Position,
    prefix: &[Move],
    from: &Position,
    line: &[Move],
    plies: usize,
) -> bool {
    let Some(at) = played_legally(pos, prefix) else {
        return false;
    };
    let there = played(from, &line[..plies]);
    at.board() == there.board()
        && at.turn() == there.turn()
        && at.castling_rights() == there.castling_rights()
        && !line.get(plies).is_some_and(|m| m.is_en_passant())
}

/// `line` from `from`, the position before `m`, the single move played, by taking it back: the
/// side to move spends a quiet move, `m` is played backwards, the quiet move too, and `line`
/// follows. When the take-back comes back to `from` (see [`holds_after_take_back`]), `line`
/// holds as it was found, move for move; otherwise (a capture not undone, a castling right
/// lost that the line needs) it is replayed, checking every move. A capture that the side to
/// move can take back is not taken back so: the line is replayed behind the recapture.
fn undone(
    pos: &Position,
    line: &[Move],
    from: &Position,
    m: Move,
    winner: Color,
) -> Option<Vec<Move>> {
    // (En passant leaves a pawn on `m.to()`, which the test below turns away.)
    if m.is_castle() || m.promotion_role().is_some() {
        return None;
    }
    let back = backwards(m);
    let board = pos.board();
    if board.role_at(m.to()) == Some(Role::Pawn) {
        return None;
    }
    // After a capture, which no take-back undoes (the man taken does not come back), the line
    // is replayed behind the recapture, which the next move most likely is: 459.0 M
    // instructions a round of `outcome_times` against 466.6 M without it (459.3 M after
    // `both_taken_back`, which a capture always fails; 460.0 M behind a take-back first).
    // (Replayed from the position itself where that fails, 467.3 M; the same after a pawn's
    // capture, 464.2 M; after a capture that nothing takes back, the line replayed without a
    // take-back in front, which brings the taker back, 465.2 M; only the line's moves found
    // from scratch, without the take-backs in front of them, 467.0 M.)
    if let Some((r, after)) = recapture(pos, m) {
        return replay(&after, line, winner)
            .filter(|rest| rest.len() < MAX_CARRIED)
            .map(|rest| in_front(&[r], &rest));
    }
    if let Some(carried) = both_taken_back(pos, line, from, back) {
        #[cfg(debug_assertions)]
        assert!(
            super::mates(pos, &carried, winner),
            "a line taken back twice that does not mate: {carried:?}"
        );
        return Some(carried);
    }
    let take_back = |t: Move| {
        if t.is_castle() || board.occupied().contains(t.to()) {
            return None;
        }
        let mut at = *pos;
        at.play_unchecked(t);
        if !at.is_legal(back) {
            return None;
        }
        at.play_unchecked(back);
        let t_back = backwards(t);
        at.is_legal(t_back).then(|| {
            at.play_unchecked(t_back);
            (t, t_back, at)
        })
    };
    // The king's moves first, as the generator lists them: most often one of them does, and
    // the other men's moves are not even listed.
    let mut found = None;
    let mut try_take_back = |t| {
        found = take_back(t);
        found.is_some()
    };
    let king = board.kings() & board.by_color(pos.turn());
    if pos.find_legal_move_from(king, &mut try_take_back).is_none() {
        let others = board.by_color(pos.turn()) - board.pawns() - king;
        pos.find_legal_move_from(others, &mut try_take_back);
    }
    let (t, t_back, back_at) = found?;
    let candidate = in_front(&[t, back, t_back], line);
    if holds_after_take_back(&back_at, from, line) {
        // Every move holds: a replay would play them all, and end past the longest line.
        return (candidate.len() <= MAX_CARRIED).then_some(candidate);
    }
    replay(pos, &candidate, winner)
}

/// `line` from `pos` without a new take-back, when `line` begins with one (a quiet move, the
/// move before the last played backwards, the quiet move back: see [`undone`]): the side to
/// move plays its own last move backwards at once, the other side then plays the last move
/// backwards (`back`), and the rest of `line` follows, when the two come to the position its
/// take-back came to (see [`holds_after_take_back`]). Two moves in front of the rest instead of
/// three more in front of the whole: a line carried through many quiet moves grows by one move
/// a move rather than three, and a replay of it later has fewer to play.
fn both_taken_back(
    pos: &Position,
    line: &[Move],
    from: &Position,
    back: Move,
) -> Option<Vec<Move>> {
    let [t, earlier, t_back, rest @ ..] = line else {
        return None;
    };
    if *t_back != backwards(*t) {
        return None;
    }
    let at = played_legally(pos, &[*earlier, back])?;
    let there = played(from, &line[..3]);
    holds_after_take_back(&at, &there, rest).then(|| in_front(&[*earlier, back], rest))
}

/// `front`, then `rest`.
fn in_front(front: &[Move], rest: &[Move]) -> Vec<Move> {
    let mut line = Vec::with_capacity(front.len() + rest.len());
    line.extend_from_slice(front);
    line.extend_from_slice(rest);
    line
}

/// Whether `line`, a mating line checked from `from`, holds move for move from `back_at`, where
/// a take-back came back to: the same men, side to move and en passant possibility, and the
/// same castling rights if the line castles. A take-back only ever loses castling rights (its
/// quiet move may be a king's or a rook's), and they decide nothing but castling: no other
/// move's legality, and no mate, as a king in check cannot castle. So without castling in the
/// line, every move of it is legal from `back_at` exactly where it was from `from`, and its
/// last position is the same mate.
fn holds_after_take_back(back_at: &Position, from: &Position, line: &[Move]) -> bool {
    back_at.board() == from.board()
        && back_at.turn() == from.turn()
        && back_at.legal_ep_square() == from.legal_ep_square()
        && (back_at.castling_rights() == from.castling_rights()
            || !line.iter().any(|m| m.is_castle()))
}

/// Replays `line` from `pos`, skipping illegal moves and inserting tempo moves where the side
/// to move is not the one whose man the next move moves; the moves played, followed by a pawn
/// storm's line from where they end ([`storm_line`]) unless they mate, if that mates
/// `winner`'s opponent.
fn replay(pos: &Position, line: &[Move], winner: Color) -> Option<Vec<Move>> {
    let mut at = *pos;
    let mut played = Vec::with_capacity(line.len() + 4);
    for (i, &m) in line.iter().enumerate() {
        if at.is_checkmate() {
            break;
        }
        let Some(mover) = at.board().color_at(m.from()) else {
            continue;
        };
        if mover != at.turn() {
            // A spare move gives no check, so it mates nothing.
            let spare = spare_move(&at, &line[i..])?;
            at.play_unchecked(spare);
            played.push(spare);
        }
        if at.is_legal(m) {
            at.play_unchecked(m);
            played.push(m);
        }
        if played.len() > MAX_CARRIED {
            return None;
        }
    }
    if at.turn() != winner && at.is_checkmate() {
        return Some(played);
    }
    let rest = storm_line(&at, winner)?;
    played.extend(rest);
    (played.len() <= MAX_CARRIED).then_some(played)
}

/// A spare move for the side to move in `pos`, one that leaves `rest` (the moves still to come)
/// as it was: a piece's move (no king's or pawn's), taking nothing and giving no check, with
/// neither its man nor its target on a square that `rest` moves from, to or through, nor on or
/// next to the other king's square.
fn spare_move(pos: &Position, rest: &[Move]) -> Option<Move> {
    let board = pos.board();
    let mut used = Bitboard::EMPTY;
    for m in rest {
        used |= attacks::between(m.from(), m.to())
            .with(m.from())
            .with(m.to());
    }
    if let Some(king) = board.king_of(!pos.turn()) {
        used |= attacks::king(king).with(king);
    }
    let ours = board.by_color(pos.turn());
    let movers = ours - board.kings() - board.pawns() - used;
    pos.find_legal_move_from(movers, |m| {
        !board.occupied().contains(m.to()) && !used.contains(m.to()) && {
            let mut after = *pos;
            after.play_unchecked(m);
            !after.is_check()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::{mates, position};
    use caissa_board::Square;

    /// The lines of `verdicts` that start from their own position, by winner.
    fn lines(verdicts: &Verdicts) -> Vec<(Color, Vec<Move>)> {
        Color::ALL
            .into_iter()
            .filter_map(|color| match &verdicts.0[color] {
                Known::Line { line, .. } => Some((color, line.clone())),
                _ => None,
            })
            .collect()
    }

    /// After a quiet move, a line comes back through a take-back of it: the other side's tempo,
    /// the move played backwards, the tempo backwards, then the line as it was.
    #[test]
    fn a_line_is_kept_behind_a_take_back_of_a_quiet_move() {
        let before = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let verdicts = Verdicts::of(&before);
        let found = lines(&verdicts);
        assert!(!found.is_empty(), "a line for one side");
        let played = Move::normal(Square::B1, Square::C3);
        let mut after = before;
        after.play_unchecked(played);
        let carried = verdicts.after(&after, &[played]);
        for (winner, line) in lines(&carried) {
            assert!(mates(&after, &line, winner), "{winner:?}: {line:?}");
            let (_, old) = found
                .iter()
                .find(|(w, _)| *w == winner)
                .expect("the same side");
            assert_eq!(line[1], Move::normal(Square::C3, Square::B1));
            assert_eq!(&line[3..], &old[..], "the old line, unchanged");
        }
        assert!(!lines(&carried).is_empty());
    }

    /// After a capture that needs a fresh analysis, the line found begins with the recapture,
    /// and once it is played the rest of the line stands as it was.
    #[test]
    fn after_a_capture_the_line_begins_with_the_recapture() {
        use Square::{B5, B7, C6};
        // 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, and 4. Bxc6 with nothing known before it.
        let before = position("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
        let capture = Move::normal(B5, C6);
        let mut after = before;
        after.play_unchecked(capture);
        let verdicts = Verdicts::default().after(&after, &[capture]);
        let found = lines(&verdicts);
        assert!(!found.is_empty(), "a line for one side");
        // The least valuable man takes back: the pawn from b7 (of the two pawns, the first).
        let recapture = Move::normal(B7, C6);
        for (winner, line) in &found {
            assert_eq!(line[0], recapture, "{winner:?}: {line:?}");
            assert!(mates(&after, line, *winner));
        }
        let mut next = after;
        next.play_unchecked(recapture);
        let carried = verdicts.after(&next, &[recapture]);
        let kept = lines(&carried);
        assert_eq!(kept.len(), found.len());
        for ((winner, line), (_, old)) in kept.iter().zip(&found) {
            assert_eq!(&line[..], &old[1..], "{winner:?}: the rest, unchanged");
        }
        // A line carried from before the capture is replayed behind the recapture too.
        let known = Verdicts::of(&before);
        assert!(!lines(&known).is_empty());
        let replayed = lines(&known.after(&after, &[capture]));
        assert!(!replayed.is_empty());
        for (winner, line) in &replayed {
            assert_eq!(line[0], recapture, "{winner:?}: {line:?}");
            assert!(mates(&after, line, *winner));
        }
    }

    /// A position and White's mating line from it that pushes a pawn on the way: 1. Ke2 Kh8
    /// 2. b3 Kg8 3. Ra8#.
    fn back_rank_line() -> (Position, [Move; 5]) {
        use Square::{A1, A8, B2, B3, E1, E2, G8, H8};
        let line = [
            Move::normal(E1, E2),
            Move::normal(G8, H8),
            Move::normal(B2, B3),
            Move::normal(H8, G8),
            Move::normal(A1, A8),
        ];
        (position("6k1/5ppp/8/8/8/8/1P6/R3K3 w - - 0 1"), line)
    }

    /// A move that the line plays later for the same side is taken out of the line there, the
    /// mover's earlier moves each a turn later: here the pawn push, which no take-back undoes
    /// and which leaves no tempo move for the replays.
    #[test]
    fn a_move_the_line_plays_later_is_commuted_to_the_front() {
        use Square::{A1, A8, B2, B3, E1, E2, G8, H8};
        let (before, line) = back_rank_line();
        assert!(mates(&before, &line, Color::White));
        let played = Move::normal(B2, B3);
        let mut after = before;
        after.play_unchecked(played);
        let skipped = &line[1..];
        assert_eq!(replay(&after, skipped, Color::White), None);
        assert_eq!(replay(&after, &line, Color::White), None);
        let carried = carry(&after, &line, &before, &[played], Color::White);
        assert_eq!(
            carried,
            Some(vec![
                Move::normal(G8, H8),
                Move::normal(E1, E2),
                Move::normal(H8, G8),
                Move::normal(A1, A8),
            ])
        );
    }

    /// A commuted line is kept without a replay when its first moves come to where the
    /// line's own first moves came; not when they are illegal, come elsewhere, or when the en
    /// passant square, which the order of the moves decides, matters to the next move.
    #[test]
    fn a_commuted_line_meets_the_line_where_its_moves_are_the_same() {
        use Square::{B2, B3, D2, D5, D6, D7, E1, E2, E3, E5, G8, H8};
        let (before, line) = back_rank_line();
        let mut after = before;
        after.play_unchecked(Move::normal(B2, B3));
        let swapped = [Move::normal(G8, H8), Move::normal(E1, E2)];
        assert!(meets_line(&after, &swapped, &before, &line, 3));
        let other_order = [Move::normal(E1, E2), Move::normal(G8, H8)];
        assert!(
            !meets_line(&after, &other_order, &before, &line, 3),
            "White is not to move"
        );
        let elsewhere = [Move::normal(G8, H8), Move::normal(E1, D2)];
        assert!(!meets_line(&after, &elsewhere, &before, &line, 3));
        // Black's double push, then White's capture en passant, which the line plays next:
        // the same men, but the en passant square decides that move.
        let before = position("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1");
        let mut pushed = before;
        pushed.play_unchecked(Move::normal(E1, E2));
        pushed.play_unchecked(Move::normal(D7, D5));
        let takes = [
            Move::normal(E1, E2),
            Move::normal(D7, D5),
            Move::en_passant(E5, D6),
        ];
        assert!(!meets_line(&pushed, &[], &before, &takes, 2));
        let steps = [
            Move::normal(E1, E2),
            Move::normal(D7, D5),
            Move::normal(E2, E3),
        ];
        assert!(meets_line(&pushed, &[], &before, &steps, 2));
    }

    /// A take-back whose quiet move is a king's or a rook's loses castling rights, which a
    /// line that never castles does not need: it holds as it was found. A line that castles,
    /// or a board that differs, needs the replay.
    #[test]
    fn a_lost_castling_right_matters_only_to_a_line_that_castles() {
        use Square::{A1, A8, E1, G8, H8};
        let from = position("6k1/5ppp/8/7n/8/8/8/R3K3 b Q - 0 1");
        let back_at = position("6k1/5ppp/8/7n/8/8/8/R3K3 b - - 0 1");
        // 1... Kh8 2. Ra8#
        let line = [Move::normal(G8, H8), Move::normal(A1, A8)];
        assert!(mates(&from, &line, Color::White));
        assert!(mates(&back_at, &line, Color::White));
        assert!(holds_after_take_back(&back_at, &from, &line));
        assert!(holds_after_take_back(&from, &from, &line));
        let castles = [Move::normal(G8, H8), Move::castle(E1, A1)];
        assert!(!holds_after_take_back(&back_at, &from, &castles));
        assert!(holds_after_take_back(&from, &from, &castles));
        let moved = position("6k1/5ppp/8/8/5n2/8/8/R3K3 b Q - 0 1");
        assert!(!holds_after_take_back(&moved, &from, &line));
        let other_turn = position("6k1/5ppp/8/7n/8/8/8/R3K3 w Q - 0 1");
        assert!(!holds_after_take_back(&other_turn, &from, &line));
    }

    /// A take-back that cannot restore what the move lost (here the castling right the line
    /// uses) does not come back to the line's start, so the line is not kept as it was: what
    /// is kept is replayed and checked like any repair.
    #[test]
    fn a_take_back_that_loses_a_right_is_replayed() {
        use Square::{E1, E8, F1, G8, H1, H2, H8};
        let before = position("6k1/5ppp/8/8/8/8/8/4K2R w K - 0 1");
        // 1. O-O Kh8 2. Re1 Kg8 3. Re8#
        let line = vec![
            Move::castle(E1, H1),
            Move::normal(G8, H8),
            Move::normal(F1, E1),
            Move::normal(H8, G8),
            Move::normal(E1, E8),
        ];
        assert!(mates(&before, &line, Color::White));
        let verdicts = Verdicts(ByColor::new_with(|color| match color {
            Color::White => Known::line(line.clone(), &before),
            Color::Black => Known::Untried,
        }));
        let played = Move::normal(H1, H2);
        let mut after = before;
        after.play_unchecked(played);
        let carried = verdicts.after(&after, &[played]);
        let kept = lines(&carried);
        assert!(!kept.is_empty());
        for (winner, line) in kept {
            assert!(mates(&after, &line, winner), "{winner:?}: {line:?}");
            assert!(!line.iter().any(|m| m.is_castle()), "{line:?}");
        }
    }
}
