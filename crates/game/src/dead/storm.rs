//! A pawn storm, built move by move, for the dead-position check after each move of a game
//! (`carry`), which tries it before the quick search (tier 4 of the parent module).
//!
//! The quick search's lines in games are mostly pawn storms: the winner pushes its pawns to
//! promotion (its pawn moves are free steps, tried first) while the loser shuttles a piece back
//! and forth, then the queens mate. [`storm`] builds such a line directly, without listing or
//! judging the winner's moves:
//!
//! - the winner pushes its most advanced pawn that can move, two squares when it can, else one,
//!   else it takes (with four pieces or more on the board, kings and pawns aside, it takes
//!   first), never onto the square in front of a loser's pawn, where it would stay for good; a
//!   promotion makes a queen; when no pawn can move, a man of its own that stands in front of
//!   one of its pawns (a rook before its passed pawn) steps out of the way, else its king walks
//!   (the shortest way round the squares the loser's pawns attack) to take a loser's pawn that
//!   stops one of its own (one no other pawn defends);
//! - the loser moves a piece that stands in front of a winner's pawn out of its way, else a
//!   bishop, knight, rook, queen, or else its king, to an empty square where the winner's pawns
//!   do not go next, giving no check, and back; anything legal when nothing is quiet;
//!
//! until the winner has no pawn move left, or until a queen or rook of the winner's mates, at its
//! first turn after a promotion, where it can. Every move is legal where it is played (the winner's
//! pawn moves from [`Position::pawn_targets`], its other moves and the loser's from the generator
//! or checked by [`Position::is_legal`]); the storm proves nothing by itself, and counts only when
//! a mate follows from where it ends (`storm_line` in the parent module), so the whole is a legal
//! line into a mate like any other. That mate is looked for first by [`finish`]: the mate on the
//! board, a mate in one by a queen or rook, or a queen's move near the loser's king (at most 16
//! of them), the loser's tempo and a mate in one by a queen or rook; then by the quick search.
//! On the PGN samples the finish decides 7,698 of the 9,852 storms' ends a round, at about 3,200
//! instructions where the search took about 25,000 (callgrind, a round of `outcome_times`, with
//! the storm stopped at a mate in one after a promotion: 0.780 -> 0.619 G; with the queen's first
//! move to any square, queens' mates only and whole storms, 7,984 of 9,824 at 8,000
//! instructions, 0.693 G).
//!
//! Where no mate follows, a second storm goes on from where the first ended (from the position
//! itself when the winner had no push to make) with [`Pushes::Levers`]: pushes in front of the
//! loser's pawns too, after which the pawns take each other's neighbours and the way to
//! promotion opens; its end gets the same finish, and only then does the search run, from the
//! first storm's end. On the PGN samples the levers and the loser's pieces stepping out of the
//! pawns' way took the searches from the storms' ends from 2,154 to 940 a round (callgrind, a
//! round of `outcome_times`: 582.7 -> 571.4 M instructions with the levers, 566.5 M with both).
//! The winner's own men stepping out of its pawns' way, 564.3 -> 555.6 M; calls over 20 µs
//! 136 -> 82-93 of 29,630, p99.9 41.6 -> 32.4-34.0 µs (the release example beside the build
//! before it, three pairs, on a slow moment of the machine). Before the search runs,
//! [`edge_mate`] walks the loser's king to the edge and mates it there: for a bare king first,
//! 555.6 -> 554.2 M, and king and pawn against king 11-14 -> 2-4 µs a call. The king's raid
//! on a stopping pawn: 554.2 -> 555.7 M, but calls over 20 µs 52 / 53 / 54 -> 40 / 43 / 43
//! (three pairs beside the build before it; the same quiet moment's p99.9 25.4-25.9 -> 24.5-25.1
//! µs). The edge walk for any loser, at most 16 plies: 555.7 -> 553.7 M, calls over 20 µs
//! 39-41 -> 28-31, p99.9 24.4 -> 19.5-20.1 µs (three pairs, a quiet machine); the walk
//! taking the loser's pieces first, 554.1 -> 549.6 M; the walk from the position itself when
//! the winner has no pawn to storm with, 549.6 -> 543.0 M, the slowest call 0.38 -> 0.074 ms;
//! the raid's king going round the guarded squares rather than only ever nearer, 542.1 M; at
//! most 12 such moves of the winner's in a storm, 539.9 M.
//!
//! On the PGN samples most storms end in a line (91 % with the first version: storms of 36 plies,
//! then 13 plies of the search's, against lines of 55 plies from the quick search alone, which
//! tried 82 moves for them), and callgrind's count of a round of `outcome_times` went from 0.967
//! to 0.788 G instructions with the rules above. Each rule was measured against its neighbours:
//! no push in front of a loser's pawn 0.875 -> 0.856 G (such locked pawns left the search from
//! the storm's end to break through, mostly in vain; calls over 20 µs 237 -> 188); captures
//! first among many pieces 0.818 G (first always: 0.821 G, but calls over 20 µs 188 -> 220, in
//! endgames); the loser's minor pieces first 0.804 -> 0.796 G (its king first: 0.813 G). Single
//! pushes, the least advanced pawn first, or promotions left to the search all cost more (see
//! docs/PERFORMANCE.md, "`Game::outcome` after every move").

use caissa_board::{Bitboard, Board, Color, File, Role, Square};
use caissa_movegen::{Move, Position, attacks};

use super::search::{gives_check, many_pieces, pawn_move_to, pieces, stuck};
use super::{backwards, played};

/// Which pushes the winner's pawns make in a [`storm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pushes {
    /// Never onto the square in front of a loser's pawn, where the pushed pawn would stand for
    /// good unless it takes.
    Free,
    /// Onto it too: a lever, after which the pawns take each other's neighbours. Made when
    /// the free pushes are spent and no mate follows where they end.
    Levers,
}

/// The winner's moves at most in a storm that are not its pawns' ([`clear_way`], [`raid`]): a
/// king that raids can be kept from its target by the loser's king for ever, and such a storm
/// ran to [`MAX_STORM`]. (A round of `outcome_times`: 542.1 M instructions without a bound,
/// 540.4 M with 20, 539.9 M with 12, 539.7 M with 8, 538.0 M with 4; p99.9 with 12 the lowest,
/// 17.8-18.0 µs against 18.2-18.3 with 4 and 8.)
const MAX_DETOURS: usize = 12;

/// The longest storm, in plies.
const MAX_STORM: usize = 160;

/// A pawn storm for `winner` from `pos`: the position it ends in (the winner to move without a
/// pawn move, or before the move that would stalemate the loser; the loser mated, by a queen or
/// rook at the winner's first turn after a promotion where that mates; or either side to move
/// after [`MAX_STORM`] plies) and its moves, all legal. `None` when the winner has made no pawn
/// move in it: none to make, or none left once a stalemate took back the move that made it.
pub(super) fn storm(
    pos: &Position,
    winner: Color,
    pushes: Pushes,
) -> Option<(Position, Vec<Move>)> {
    let mut at = *pos;
    let mut line = Vec::with_capacity(128);
    let mut back: Option<Move> = None;
    // The winner's pawn moves in `line`, and whether its last move was one.
    let mut pushes_made = 0;
    let mut last_pushed = false;
    // Whether the winner's last move promoted. (Looking for the mate at every turn after the
    // first promotion cost 70 M instructions a round of `outcome_times`, nearly all in vain;
    // 18 M with the `slider_mate` of 79c1428.)
    let mut promoted = false;
    // The winner's moves other than its pawns' so far.
    let mut detours = 0;
    while line.len() < MAX_STORM {
        let (m, role) = if at.turn() == winner {
            if promoted && let Some(m) = slider_mate(&at) {
                at.play_unchecked_by(m, at.moving_role(m));
                line.push(m);
                break;
            }
            if let Some(m) = pawn_move(&at, pushes) {
                pushes_made += 1;
                last_pushed = true;
                promoted = m.promotion_role().is_some();
                (m, Role::Pawn)
            } else {
                detours += 1;
                let Some(m) = (detours <= MAX_DETOURS)
                    .then(|| clear_way(&at).or_else(|| raid(&at)))
                    .flatten()
                else {
                    break;
                };
                last_pushed = false;
                promoted = false;
                (m, at.moving_role(m))
            }
        } else {
            let lanes = lanes(&at, winner);
            let m = match back.filter(|&m| at.is_legal(m) && quiet(&at, m, lanes)) {
                Some(m) => m,
                None => match tempo(&at, lanes) {
                    Some(m) => m,
                    None => {
                        // A stalemate: the storm ends before the move that made it, where
                        // the finish may still find a mate. The line is played again from the
                        // start: stalemates are rare, and keeping the position before every
                        // move of the winner's cost more.
                        if !at.is_check() && line.pop().is_some() {
                            pushes_made -= usize::from(last_pushed);
                            at = played(pos, &line);
                        }
                        break;
                    }
                },
            };
            back = Some(backwards(m));
            (m, at.moving_role(m))
        };
        at.play_unchecked_by(m, role);
        line.push(m);
    }
    // Without a pawn move of the winner's, the search from the storm's end would be the quick
    // search from `pos`, a move later.
    (pushes_made > 0).then_some((at, line))
}

/// Moves at most that [`finish`] plays first for the winner, each followed by a tempo of the
/// loser's and a look for a mate in one.
const FINISH_TRIES: usize = 16;

/// A short mate from where a storm ends, tried before the search: the mate on the board, a mate
/// in one by a queen or rook, or a queen's move to a square at most two steps from the loser's
/// king, a tempo of the loser's (as in the storm) and then a mate in one by a queen or rook.
/// Every move is legal where it is played; `None` proves nothing.
pub(super) fn finish(end: &Position, winner: Color) -> Option<Vec<Move>> {
    if end.turn() != winner {
        return end.is_checkmate().then(Vec::new);
    }
    if let Some(m) = slider_mate(end) {
        return Some(vec![m]);
    }
    let board = end.board();
    let us = board.by_color(winner);
    // The squares at most two steps from the loser's king.
    let ring = attacks::king(end.king(!winner));
    let near = ring | king_steps(ring);
    let mut tries = 0;
    for from in board.queens() & us {
        for to in (attacks::queen(from, board.occupied()) - us) & near {
            let m = Move::normal(from, to);
            if !end.is_legal(m) {
                continue;
            }
            tries += 1;
            if tries > FINISH_TRIES {
                return None;
            }
            let mut at = *end;
            at.play_unchecked_by(m, Role::Queen);
            let Some(reply) = tempo(&at, lanes(&at, winner)) else {
                continue;
            };
            at.play_unchecked(reply);
            if let Some(mate) = slider_mate(&at) {
                return Some(vec![m, reply, mate]);
            }
        }
    }
    None
}

/// Plies at most of an [`edge_mate`]. (A round of `outcome_times`, callgrind: 8 plies 557.6
/// M instructions, 12 554.5 M, 16 553.7 M, 24 556.0 M, 32 558.5 M, 40 561.1 M; calls over
/// 20 µs with 16 plies 28-31, with 24 31-32, with 32 35-36.)
const EDGE_WALK: usize = 16;

/// A mate on the edge by a queen or rook, walked rather than searched: the loser's king walks
/// to the edge square nearest it and the winner's king to the square two steps in from that
/// one, while a queen's or rook's mate in one ([`slider_mate`]) is looked for at each of the
/// winner's turns. The winner first takes the loser's pieces where it can. A king that cannot
/// come nearer, or need not, waits: the loser with a quiet move of another piece, else any move
/// of its king; the winner with a quiet move of another man. When the loser's king could not
/// come nearer, the winner's quiet move comes first, away from the loser's king and the edge
/// square. `None` when the winner has no queen or rook, or the walk comes to no mate within
/// [`EDGE_WALK`] plies; it proves nothing. Every move is legal where it is played.
pub(super) fn edge_mate(pos: &Position, winner: Color) -> Option<Vec<Move>> {
    let board = pos.board();
    if (board.by_color(winner) & (board.queens() | board.rooks())).is_empty() {
        return None;
    }
    let (edge, helper) = edge_squares(pos.king(!winner));
    let mut at = *pos;
    let mut line = Vec::with_capacity(EDGE_WALK);
    let mut loser_stuck = false;
    while line.len() < EDGE_WALK {
        let m = if at.turn() == winner {
            if let Some(m) = slider_mate(&at) {
                line.push(m);
                return Some(line);
            }
            let board = at.board();
            let avoid = attacks::king(at.king(!winner)) | attacks::king(edge).with(edge);
            let others = board.by_color(winner) - board.kings();
            // The loser's pieces are taken where they can be, to leave its king alone.
            let prey = pieces(board) & board.by_color(!winner);
            if prey.any()
                && let Some(m) =
                    at.find_legal_move_from(board.by_color(winner), |m| prey.contains(m.to()))
            {
                at.play_unchecked(m);
                line.push(m);
                continue;
            }
            let make_room = || at.find_legal_move_from(others, |m| quiet(&at, m, avoid));
            if loser_stuck {
                make_room().or_else(|| king_step(&at, helper))
            } else {
                king_step(&at, helper).or_else(make_room)
            }?
        } else {
            let loser_king = at.king(!winner);
            let waiters = pieces(at.board()) & at.board().by_color(!winner);
            let lanes = lanes(&at, winner);
            let step = (loser_king != edge).then(|| king_step(&at, edge)).flatten();
            loser_stuck = loser_king != edge && step.is_none();
            step.or_else(|| at.find_legal_move_from(waiters, |m| quiet(&at, m, lanes)))
                .or_else(|| at.find_legal_move_from(Bitboard::from_square(loser_king), |_| true))?
        };
        at.play_unchecked(m);
        line.push(m);
    }
    None
}

/// The edge square nearest `king`, and the square two steps in from it, from which the
/// winner's king takes away the squares off the edge.
fn edge_squares(king: Square) -> (Square, Square) {
    let (file, rank) = (king.file().index() as i32, king.rank().index() as i32);
    // Steps to each edge (file a, file h, rank 1, rank 8), and the direction back in.
    let (_, (df, dr), (inf, inr)) = [
        (file, (-file, 0), (2, 0)),
        (7 - file, (7 - file, 0), (-2, 0)),
        (rank, (0, -rank), (0, 2)),
        (7 - rank, (0, 7 - rank), (0, -2)),
    ]
    .into_iter()
    .min_by_key(|&(steps, _, _)| steps)
    .unwrap_or((0, (0, 0), (0, 0)));
    let edge = king.offset(df, dr).unwrap_or(king);
    (edge, edge.offset(inf, inr).unwrap_or(edge))
}

/// The legal step of the side to move's king that comes nearest `target` (in king steps, then
/// in files and ranks), if one comes nearer.
fn king_step(pos: &Position, target: Square) -> Option<Move> {
    let far = |sq: Square| {
        let files = sq.file().index().abs_diff(target.file().index());
        let ranks = sq.rank().index().abs_diff(target.rank().index());
        (files.max(ranks), files + ranks)
    };
    let king = pos.king(pos.turn());
    let mut best: Option<((usize, usize), Move)> = None;
    pos.find_legal_move_from(Bitboard::from_square(king), |m| {
        let d = far(m.to());
        if !m.is_castle() && d < best.map_or(far(king), |(b, _)| b) {
            best = Some((d, m));
        }
        false
    });
    best.map(|(_, m)| m)
}

/// A queen's or rook's move that mates at once, the winner to move.
///
/// A check is played and tested for mate only where the loser's king has no flight square
/// (one next to it that holds none of its men, or the checker's own square) that is left
/// uncovered by the checker on its new square and by the winner's other men as they attack
/// with the checker's square empty and the king off its own. Those men attack no more squares
/// than that once the checker stands on its new square, so every square left uncovered is a
/// flight, and no mate is passed over.
fn slider_mate(pos: &Position) -> Option<Move> {
    let board = pos.board();
    let winner = pos.turn();
    let us = board.by_color(winner);
    let occupied = board.occupied();
    let king = pos.king(!winner);
    let ring = attacks::king(king);
    let open = ring - board.by_color(!winner);
    let mut steppers = None;
    for (role, men) in [(Role::Queen, board.queens()), (Role::Rook, board.rooks())] {
        let checks = slides(role, king, occupied);
        for from in men & us {
            let targets = slides(role, from, occupied) & (checks - us);
            if targets.is_empty() {
                continue;
            }
            let empty_from = occupied.without(from).without(king);
            let steppers = *steppers
                .get_or_insert_with(|| covered_by_steppers(board, winner, pos.king(winner)));
            let covered = steppers | covered_by_sliders(board, winner, from, empty_from);
            for to in targets {
                let flights = (open | (ring & Bitboard::from_square(to)))
                    - covered
                    - slides(role, to, empty_from.with(to));
                let m = Move::normal(from, to);
                if flights.is_empty() && pos.is_legal(m) {
                    let mut at = *pos;
                    at.play_unchecked_by(m, role);
                    if at.is_checkmate() {
                        return Some(m);
                    }
                }
            }
        }
    }
    None
}

/// The squares that `color`'s pawns, knights and king (on `king`) attack.
fn covered_by_steppers(board: &Board, color: Color, king: Square) -> Bitboard {
    let men = board.by_color(color);
    let covered = pawn_attacks((board.pawns() & men).forward(color)) | attacks::king(king);
    (board.knights() & men)
        .into_iter()
        .fold(covered, |covered, sq| covered | attacks::knight(sq))
}

/// The squares that `color`'s bishops, rooks and queens other than the one on `skip` attack
/// through `occupied`.
fn covered_by_sliders(board: &Board, color: Color, skip: Square, occupied: Bitboard) -> Bitboard {
    let men = board.by_color(color).without(skip);
    let diagonal = (board.bishops() | board.queens()) & men;
    let straight = (board.rooks() | board.queens()) & men;
    let covered = diagonal.into_iter().fold(Bitboard::EMPTY, |covered, sq| {
        covered | attacks::bishop(sq, occupied)
    });
    straight
        .into_iter()
        .fold(covered, |covered, sq| covered | attacks::rook(sq, occupied))
}

/// The squares beside those of `ahead` (one file either way, on the same rank): where pawns
/// standing just behind `ahead`, the squares in front of them, take.
fn pawn_attacks(ahead: Bitboard) -> Bitboard {
    let west = ahead - Bitboard::from_file(File::A);
    let east = ahead - Bitboard::from_file(File::H);
    Bitboard(west.0 >> 1) | Bitboard(east.0 << 1)
}

/// The squares a queen or a rook on `sq` attacks.
#[inline]
fn slides(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    if role == Role::Queen {
        attacks::queen(sq, occupied)
    } else {
        attacks::rook(sq, occupied)
    }
}

/// The winner's pawn move: its most advanced pawn that can move, pushed (two squares when it
/// can), else capturing (capturing first with four pieces or more, kings and pawns aside), with
/// [`Pushes::Free`] not onto the square in front of a loser's pawn; a promotion makes a queen.
fn pawn_move(pos: &Position, pushes: Pushes) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let pawns = board.pawns() & board.by_color(us);
    let many = many_pieces(board);
    let blocked = match pushes {
        Pushes::Free => (board.pawns() & board.by_color(!us)).forward(!us),
        Pushes::Levers => Bitboard::EMPTY,
    };
    let mut order = pawns;
    while let Some(from) = match us {
        Color::White => order.last(),
        Color::Black => order.first(),
    } {
        order = order.without(from);
        if stuck(pos, from) {
            continue;
        }
        let file = Bitboard::from_file(from.file());
        let targets = pos.pawn_targets(from) - (blocked & file);
        if targets.is_empty() {
            continue;
        }
        let pushes = targets & file;
        let push = match us {
            Color::White => pushes.last(),
            Color::Black => pushes.first(),
        };
        let to = if many {
            (targets - file).first().or(push)
        } else {
            push.or(targets.first())
        }?;
        return Some(pawn_move_to(pos, from, to, Role::Queen));
    }
    None
}

/// A quiet move (see [`quiet`]) of a man of the side to move that stands in front of one of
/// its own pawns, out of the pawns' way: a rook in front of its passed pawn, a king before
/// its pawn.
fn clear_way(pos: &Position) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let ours = board.by_color(us);
    let blockers = (ours - board.pawns()) & (board.pawns() & ours).forward(us);
    if blockers.is_empty() {
        return None;
    }
    let lanes = lanes(pos, us);
    pos.find_legal_move_from(blockers, |m| quiet(pos, m, lanes))
}

/// A step of the side to move's king towards the opponent's pawn that stops one of its own
/// pawns (the nearest such pawn), to take it.
fn raid(pos: &Position) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let ours = board.pawns() & board.by_color(us);
    let theirs = board.pawns() & board.by_color(!us);
    let stoppers = theirs & ours.forward(us);
    let king = pos.king(us);
    // A stopper that another pawn defends is out of the king's reach for good.
    let target = stoppers
        .into_iter()
        .filter(|&sq| !attacks::pawn(us, sq).intersects(theirs))
        .min_by_key(|&sq| sq.distance(king))?;
    route_step(pos, target)
}

/// The side to move's king's first step on a shortest way to `target` over empty squares that
/// no pawn of the opponent's attacks (the pawns do not move in a storm), if there is a way and
/// the step is legal.
fn route_step(pos: &Position, target: Square) -> Option<Move> {
    let us = pos.turn();
    let board = pos.board();
    let king = pos.king(us);
    let guarded = pawn_attacks((board.pawns() & board.by_color(!us)).forward(!us));
    let open = !board.occupied() - guarded;
    // Rings of squares around `target`, one king step further each, until one touches the king.
    let mut reached = Bitboard::from_square(target);
    let mut ring = reached;
    loop {
        let next_to_king = attacks::king(king) & ring;
        if next_to_king.any() {
            return pos.find_legal_move_from(Bitboard::from_square(king), |m| {
                next_to_king.contains(m.to())
            });
        }
        ring = king_steps(ring) & open & !reached;
        if ring.is_empty() {
            return None;
        }
        reached |= ring;
    }
}

/// The squares a king step from some square of `squares`.
fn king_steps(squares: Bitboard) -> Bitboard {
    squares
        .into_iter()
        .fold(Bitboard::EMPTY, |steps, sq| steps | attacks::king(sq))
}

/// The squares the winner's pawns go to next: one and two squares ahead, and where they take.
fn lanes(pos: &Position, winner: Color) -> Bitboard {
    let board = pos.board();
    let ahead = (board.pawns() & board.by_color(winner)).forward(winner);
    ahead | ahead.forward(winner) | pawn_attacks(ahead)
}

/// Whether the side to move's move `m` (legal) is quiet: a piece's move, not castling, to an
/// empty square off `avoid` (the winner's lanes, for the loser's moves in a storm), that gives
/// no check.
fn quiet(pos: &Position, m: Move, avoid: Bitboard) -> bool {
    let board = pos.board();
    if m.is_castle() || board.occupied().contains(m.to()) || avoid.contains(m.to()) {
        return false;
    }
    match board.role_at(m.from()) {
        None | Some(Role::Pawn) => false,
        Some(role) => !gives_check(pos, m, role),
    }
}

/// A quiet move of the loser's (see [`quiet`]): of a piece that stands in front of a winner's
/// pawn, then a bishop's, a knight's, a rook's, a queen's, then the king's; else its first legal
/// move (an evasion, a capture, a pawn's), if it has one.
fn tempo(pos: &Position, lanes: Bitboard) -> Option<Move> {
    let board = pos.board();
    let loser = board.by_color(pos.turn());
    let king = board.kings() & loser;
    let mut any = None;
    // First a piece that stands in the way of a winner's pawn.
    let winner = !pos.turn();
    let blockers =
        (loser - board.pawns() - king) & (board.pawns() & board.by_color(winner)).forward(winner);
    if !blockers.is_empty() {
        let found = pos.find_legal_move_from(blockers, |m| {
            any = any.or(Some(m));
            quiet(pos, m, lanes)
        });
        if found.is_some() {
            return found;
        }
    }
    for role in [
        Role::Bishop,
        Role::Knight,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        let men = loser & board.by_role(role);
        // The generator costs its setup even for no man: empty groups are skipped.
        if men.is_empty() {
            continue;
        }
        let found = pos.find_legal_move_from(men, |m| {
            any = any.or(Some(m));
            quiet(pos, m, lanes)
        });
        if found.is_some() {
            return found;
        }
    }
    // A pawn's move is never quiet: the pawns are asked only for a first move, if nothing
    // else moves.
    any.or_else(|| pos.find_legal_move_from(loser & board.pawns(), |_| true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::position;

    /// The storm line for White from `start`, which must end in a mate.
    fn mating_line(start: &Position) -> Vec<Move> {
        let line = super::super::storm_line(start, Color::White).expect("a storm line");
        assert!(super::super::mates(start, &line, Color::White), "{line:?}");
        line
    }

    /// Every move of the storm is legal where it is played, and it ends with the winner's
    /// pawns all promoted while the loser's rook shuttles.
    #[test]
    fn a_storm_promotes_the_pawns_while_the_loser_shuttles() {
        let start = position("r6k/8/8/8/8/8/PPP5/K7 w - - 0 1");
        let (end, line) = storm(&start, Color::White, Pushes::Free).expect("pawn moves");
        let mut at = start;
        for &m in &line {
            assert!(at.is_legal(m), "{m:?} in {at:?}");
            at.play_unchecked(m);
        }
        assert_eq!(at, end);
        let board = end.board();
        assert!((board.pawns() & board.by_color(Color::White)).is_empty());
        assert_eq!((board.queens() & board.by_color(Color::White)).count(), 3);
        assert!(
            storm(
                &position("7k/8/8/8/8/8/8/K7 w - - 0 1"),
                Color::White,
                Pushes::Free
            )
            .is_none()
        );
    }

    /// A piece of the loser's that stands in front of a winner's pawn steps out of its way
    /// first, and the pawn goes on to promote.
    #[test]
    fn the_loser_clears_the_way_of_the_pawns() {
        let start = position("7k/n7/P7/8/8/8/5b2/2K5 b - - 0 1");
        let (_, line) = storm(&start, Color::White, Pushes::Free).expect("pawn moves");
        assert_eq!(line[0].from(), Square::A7, "{line:?}");
        assert_eq!(line[1], Move::normal(Square::A6, Square::A7));
    }

    /// The winner's own rook in front of its pawn steps aside, and the pawn promotes.
    #[test]
    fn the_winner_clears_the_way_of_its_pawns() {
        let start = position("7k/8/8/8/5R2/8/5P2/K7 w - - 0 1");
        let (end, line) = storm(&start, Color::White, Pushes::Free).expect("pawn moves");
        assert!(line.iter().any(|m| m.from() == Square::F4), "{line:?}");
        let board = end.board();
        assert!(
            (board.queens() & board.by_color(Color::White)).any(),
            "{line:?}"
        );
    }

    /// A storm whose next move would stalemate the loser ends before it, where a mate can
    /// still follow.
    #[test]
    fn a_storm_stops_short_of_stalemate() {
        let start = position("8/2B5/8/5k2/5p2/2K2P1p/3N3P/8 w - - 0 1");
        let (end, _) = storm(&start, Color::White, Pushes::Free).expect("pawn moves");
        assert_eq!(end.turn(), Color::White);
        assert!(end.has_legal_moves());
        mating_line(&start);
    }

    /// With every pawn stopped, the winner's king takes the pawn that stops one of its own,
    /// and that pawn goes on.
    #[test]
    fn the_king_raids_a_stopper() {
        let start = position("8/8/8/1p4K1/1P1k4/8/8/8 w - - 0 1");
        let (_, line) = storm(&start, Color::White, Pushes::Free).expect("a raid");
        assert!(line.iter().any(|m| m.to() == Square::B5), "{line:?}");
        mating_line(&start);
    }

    /// The king's way to the stopper goes round the squares the stopper attacks.
    #[test]
    fn the_raid_goes_round_guarded_squares() {
        let start = position("7k/8/8/2p5/2P5/2K5/8/8 w - - 0 1");
        let (_, line) = storm(&start, Color::White, Pushes::Free).expect("a raid");
        assert_eq!(line[0], Move::normal(Square::C3, Square::B3), "{line:?}");
        assert!(line.iter().any(|m| m.to() == Square::C5), "{line:?}");
    }

    /// A storm whose king cannot reach the pawn it raids stops after [`MAX_DETOURS`] moves
    /// (without the bound this one ran to [`MAX_STORM`] plies).
    #[test]
    fn raids_are_bounded() {
        let start = position("r3r1k1/pq3ppp/2p2n2/2n5/2P1p1P1/3P2Rb/PP2B2P/R2QK3 w Q - 0 1");
        let (_, line) = storm(&start, Color::White, Pushes::Free).expect("pawn moves");
        assert!(line.len() < 64, "{} plies", line.len());
    }

    /// The loser's king is walked to the edge and mated there: a storm ending in king and
    /// queen against king, which the search from its end (150 moves) did not mate.
    #[test]
    fn a_bare_king_is_mated_on_the_edge() {
        for fen in [
            "5Q2/8/8/4K3/7k/8/8/8 w - - 0 1",
            "1Q6/8/8/8/8/7R/2k5/7K w - - 0 1",
        ] {
            let start = position(fen);
            let line = edge_mate(&start, Color::White).expect(fen);
            assert!(
                super::super::mates(&start, &line, Color::White),
                "{fen}: {line:?}"
            );
        }
        assert!(edge_mate(&position("5N2/8/8/4K3/7k/8/8/8 w - - 0 1"), Color::White).is_none());
        // The loser's rook is taken first, then its king walked.
        let start = position("5Q2/8/8/4K3/7k/8/8/5r2 w - - 0 1");
        let line = edge_mate(&start, Color::White).expect("a mate");
        assert_eq!(line[0], Move::normal(Square::F8, Square::F1));
        assert!(super::super::mates(&start, &line, Color::White), "{line:?}");
        // With no pawn to storm with, the walk starts from the position itself: king and rook
        // against king and bishop, once the slowest call of the PGN samples (0.33 ms).
        for fen in [
            "8/8/5K2/5P2/7k/8/8/8 w - - 0 1",
            "8/8/4RK2/3b4/3k4/8/8/8 b - - 0 64",
        ] {
            mating_line(&position(fen));
        }
    }

    /// Where every push would stand in front of a loser's pawn, the free storm has nothing to
    /// do; the levers open the pawns and the line goes on to a mate.
    #[test]
    fn levers_open_locked_pawns() {
        let start = position("r5k1/5ppp/8/5PPP/8/8/8/2K5 w - - 0 1");
        assert!(storm(&start, Color::White, Pushes::Free).is_none());
        let (_, levers) = storm(&start, Color::White, Pushes::Levers).expect("levers");
        assert_eq!(levers[0], Move::normal(Square::H5, Square::H6));
        mating_line(&start);
    }

    /// What [`slider_mate`] looks for, found the slow way: the first move, queens before rooks,
    /// each from and to squares in order, by which a queen or rook gives check itself and
    /// mates.
    fn slider_mate_by_playing(pos: &Position) -> Option<Move> {
        let board = pos.board();
        let king = pos.king(!pos.turn());
        let mut moves: Vec<(usize, Move)> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| {
                let role = board.role_at(m.from())?;
                let rank = [Role::Queen, Role::Rook].iter().position(|&r| r == role)?;
                let checks = slides(role, m.to(), board.occupied().without(m.from()));
                checks.contains(king).then_some((rank, m))
            })
            .collect();
        moves.sort_by_key(|&(rank, m)| (rank, m.from(), m.to()));
        moves.into_iter().map(|(_, m)| m).find(|&m| {
            let mut at = *pos;
            at.play_unchecked(m);
            at.is_checkmate()
        })
    }

    /// The flight-square test passes over no mate: the same answer as playing every check, on
    /// positions whose mate turns on a flight square (below) and on every position of random
    /// games (which also catch a flight covered through the checker's old square).
    #[test]
    fn slider_mate_finds_what_playing_every_check_finds() {
        let fens = [
            // Back rank: a mate, none with a flight open, a mate by taking on the mating square.
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1",
            "r5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            // A queen taking next to the king: a mate guarded by a bishop, none unguarded.
            "6k1/5pp1/7p/8/8/8/1B6/6QK w - - 0 1",
            "6k1/5pp1/7p/8/8/8/8/6QK w - - 0 1",
            // The flight behind the king on the checker's line, covered through the king.
            "3k4/R7/3K4/8/8/8/8/8 w - - 0 1",
            // Flights covered by the other men: the king, a rook, both; and none.
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
            "4k3/R7/8/4K3/8/8/8/7R w - - 0 1",
            "3k4/8/3K4/8/8/8/8/Q2R4 w - - 0 1",
            "7k/8/8/8/8/8/8/R5RK w - - 0 1",
        ];
        let mut mates = 0;
        let mut compare = |pos: &Position| {
            let found = slider_mate(pos);
            assert_eq!(found, slider_mate_by_playing(pos), "{pos}");
            mates += usize::from(found.is_some());
        };
        for fen in fens {
            compare(&position(fen));
        }
        // Random games from the start, moves drawn by a fixed xorshift.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..200 {
            let mut pos = Position::standard();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                compare(&pos);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(mates >= 5, "{mates} mates");
    }

    /// The storm and the search from its end make a mating line, for either colour.
    #[test]
    fn a_storm_line_ends_in_a_mate() {
        for (fen, winner) in [
            (
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                Color::White,
            ),
            (
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                Color::Black,
            ),
            ("r5k1/5ppp/8/8/8/8/PPP5/K7 b - - 0 1", Color::White),
        ] {
            let start = position(fen);
            let line = super::super::storm_line(&start, winner).expect(fen);
            let mut at = start;
            for &m in &line {
                assert!(at.is_legal(m), "{fen}: {m:?}");
                at.play_unchecked(m);
            }
            assert!(at.turn() != winner && at.is_checkmate(), "{fen}: {line:?}");
        }
    }
}
