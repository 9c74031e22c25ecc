//! Tiers 4, 6 and 8 of the analysis (see the parent module): the cooperative (helpmate) search.
//!
//! Both sides play for the intended winner. A line ends at a checkmate of the loser (success),
//! at any other position without moves (the winner mated, a stalemate), where the winner lacks
//! mating material for good ([`insufficient`]), or at the depth limit. Lines that end at the
//! depth limit or the node budget mark the iteration *interrupted*. Most positions searched are
//! leaves at the depth limit, where only a mate of the loser matters: the loser must be in check
//! there, so the moves are counted only then, and a quiet move into such a leaf (no capture, no
//! promotion, no check given by the winner) is cut without being played (or looked up in the
//! table). A leaf without moves that is no mate is cut too (the next iteration sees it before
//! its depth limit).
//!
//! **Soundness of "no mate".** An iteration that finishes without cutting any line (no depth
//! limit, node limit or older table entry used) has explored a set `S` of positions, and every
//! child of every non-final position in `S` is itself in `S`: it was searched, or the
//! transposition table skipped it because it was already searched in the same iteration. A
//! set closed under moves, containing the start and no mate of the loser, proves that no
//! sequence of legal moves mates the loser.
//!
//! Single positions get the same kind of proof, which the table keeps for every later
//! iteration and step: a position is *proven* when nothing was cut below it and every line
//! that came back to a position on the current line (a repetition) came back to it or to a
//! position below it, so that the positions explored from it form a closed set on their own.
//! Only proven entries may stand in for a search in another iteration; an iteration that let
//! an unproven older entry cut a line (they speed up finding mates) proves nothing and is
//! searched again without them.
//!
//! The depth costs below (rewards, penalties) only steer which lines are tried first; they
//! play no part in this argument.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::LazyLock;

use caissa_board::{Bitboard, Board, CastlingSide, Color, Role, Square};
use caissa_movegen::{Move, Position, attacks};

use super::material::insufficient;

/// The longest line the search follows (plies after the start).
const MAX_LINE: usize = 256;

/// How a move's depth cost is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Progress towards a mate: free.
    Reward,
    /// An ordinary move: one ply (free right after a rewarded move).
    Normal,
    /// A move that rarely helps: four plies.
    Punish,
}

/// Where the pieces are steered: the corner for the mated king and the squares from which the
/// mating pieces cover it, plus optional tables for the deep search.
#[derive(Clone, Debug)]
pub(super) struct Guide {
    winner: Color,
    loser_king: Square,
    loser_knight: Square,
    winner_king: Square,
    winner_knight: Square,
    /// Bishop moves from each square to the mating corner, avoiding squares of men that never
    /// move (`u8::MAX`: unreachable).
    pub(super) bishop_distance: Option<[u8; 64]>,
    /// Moves of the start position after which the winner provably cannot mate.
    punished: Vec<Move>,
    /// The squares they start from: most moves are told apart from them with one test.
    punished_from: Bitboard,
}

impl Guide {
    /// The default guide for `winner` in `pos`.
    pub(super) fn new(pos: &Position, winner: Color) -> Guide {
        let corner = mating_corner(pos, winner);
        let loser = !winner;
        // Relative to the corner: files count from the corner's file inwards.
        let at = |file_in: u32, rank_from_loser: u32| -> Square {
            let file = if corner.file().index() == 0 {
                file_in
            } else {
                7 - file_in
            };
            let rank = match loser {
                Color::Black => 7 - rank_from_loser,
                Color::White => rank_from_loser,
            };
            Square::new(rank * 8 + file).expect("on the board")
        };
        Guide {
            winner,
            loser_king: corner,
            loser_knight: at(1, 0),
            winner_king: at(1, 1),
            winner_knight: at(3, 3),
            bishop_distance: None,
            punished: Vec::new(),
            punished_from: Bitboard::EMPTY,
        }
    }

    /// Punishes `moves`, moves of the start position after which the winner provably cannot
    /// mate.
    pub(super) fn punish(&mut self, moves: Vec<Move>) {
        self.punished_from = moves.iter().map(|m| m.from()).collect();
        self.punished = moves;
    }

    /// Steers the bishops too: `distance` holds, per square, the bishop moves to the mating
    /// corner (or the squares next to it) that avoid the squares of `steady` men.
    pub(super) fn with_bishop_distances(&mut self, steady: Bitboard) {
        let corner = self.loser_king;
        let next_to = attacks::king(corner) - attacks::bishop(corner, Bitboard::EMPTY);
        let mut distance = [u8::MAX; 64];
        let mut frontier = next_to.with(corner);
        let mut seen = frontier;
        let mut d = 0u8;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                distance[sq.index()] = d;
                next |= attacks::bishop(sq, steady) - steady;
            }
            frontier = next - seen;
            seen |= frontier;
            d += 1;
        }
        self.bishop_distance = Some(distance);
    }

    /// Judges `m`, a move of a man of `role` in `pos` that captures when `capture` is set.
    fn classify(&self, pos: &Position, m: Move, role: Role, capture: bool) -> Step {
        if self.punished_from.contains(m.from()) && self.punished.contains(&m) {
            return Step::Punish;
        }
        let board = pos.board();
        let from = m.from();
        let to = m.to();
        if pos.turn() == self.winner {
            if role == Role::Pawn || capture {
                return Step::Reward;
            }
            let target = match role {
                Role::Knight => self.winner_knight,
                _ => self.winner_king,
            };
            if closer(role, from, to, target) {
                return Step::Reward;
            }
            if let (Some(dist), Role::Bishop) = (&self.bishop_distance, role) {
                let (d_from, d_to) = (dist[from.index()], dist[to.index()]);
                if d_from != u8::MAX
                    && ((d_from <= 1 && d_from < d_to) || (d_from > 2 && d_from > d_to))
                {
                    return Step::Reward;
                }
            }
            Step::Normal
        } else {
            if let Some(dist) = &self.bishop_distance {
                if capture
                    && more_than_five_men(board)
                    && (role == Role::Pawn || pos.captured_role(m) == Some(Role::Pawn))
                {
                    return Step::Reward;
                }
                if role == Role::Bishop && dist[from.index()] > dist[to.index()] {
                    return Step::Reward;
                }
            }
            let target = match role {
                Role::Knight => self.loser_knight,
                _ => self.loser_king,
            };
            if closer(role, from, to, target) {
                return Step::Reward;
            }
            if capture {
                return Step::Punish;
            }
            Step::Normal
        }
    }
}

/// Whether more than five men stand on `board`. Out of line, as only the guided search asks:
/// inlined into [`Search::node`], even walked to the sixth square, it was worked out at every
/// node.
#[inline(never)]
fn more_than_five_men(board: &Board) -> bool {
    board.occupied().count() > 5
}

/// Whether a king or a knight going from `from` to `to` comes closer to `target`, counted in
/// its own moves (other men are not steered). Inlined by force: [`Guide::classify`] calls it
/// for most moves, and as a call it cost 13 million instructions a round of `outcome_times`.
#[inline(always)]
fn closer(role: Role, from: Square, to: Square, target: Square) -> bool {
    match role {
        Role::King => to.distance(target) < from.distance(target),
        Role::Knight => knight_distance(to, target) < knight_distance(from, target),
        _ => false,
    }
}

/// The corner of the loser's back rank where the search tries to mate: the one of the winner's
/// bishops' colour, else the one the loser's bishops cannot cover, else the `a`-file one.
pub(super) fn mating_corner(pos: &Position, winner: Color) -> Square {
    let board = pos.board();
    let (a, h) = match winner {
        Color::White => (Square::A8, Square::H8),
        Color::Black => (Square::A1, Square::H1),
    };
    let h_colour = if h.is_light() {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    };
    let winner_bishops = board.bishops() & board.by_color(winner);
    let loser_bishops = board.bishops() & board.by_color(!winner);
    if winner_bishops.intersects(h_colour)
        || (winner_bishops.is_empty() && loser_bishops.intersects(!h_colour))
    {
        h
    } else {
        a
    }
}

/// Knight moves between two squares on an empty board.
pub(super) fn knight_distance(a: Square, b: Square) -> u8 {
    KNIGHT_DISTANCE[a.index()][b.index()]
}

static KNIGHT_DISTANCE: LazyLock<[[u8; 64]; 64]> = LazyLock::new(knight_distances);

/// Knight moves between every two squares: a breadth-first walk over the knight's attacks.
fn knight_distances() -> [[u8; 64]; 64] {
    let mut table = [[u8::MAX; 64]; 64];
    for source in Square::ALL {
        let row = &mut table[source.index()];
        let mut seen = Bitboard::from_square(source);
        let mut frontier = seen;
        let mut distance = 0;
        while frontier.any() {
            for sq in frontier {
                row[sq.index()] = distance;
            }
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                next |= attacks::knight(sq);
            }
            frontier = next - seen;
            seen |= frontier;
            distance += 1;
        }
    }
    table
}

/// An exact, compact key of a position for the transposition table: the placement (white men,
/// three role bits per square) and the side to move, castling rights and en passant square.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Key([u64; 5]);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mixed = self.0.iter().fold(0u64, |acc, &word| {
            (acc.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        });
        state.write_u64(mixed);
    }
}

impl Key {
    pub(super) fn of(pos: &Position) -> Key {
        let board = pos.board();
        // Three role bits per square (none set: empty), so no occupancy word is needed.
        let role_bit0 = board.pawns() | board.bishops() | board.queens();
        let role_bit1 = board.knights() | board.bishops() | board.kings();
        let role_bit2 = board.rooks() | board.queens() | board.kings();
        let rights = pos.castling_rights();
        let mut meta = pos.turn() as u64;
        if !rights.is_empty() {
            for (i, (color, side)) in [
                (Color::White, CastlingSide::KingSide),
                (Color::White, CastlingSide::QueenSide),
                (Color::Black, CastlingSide::KingSide),
                (Color::Black, CastlingSide::QueenSide),
            ]
            .into_iter()
            .enumerate()
            {
                let file = rights.rook(color, side).map_or(0, |f| f.index() as u64 + 1);
                meta |= file << (1 + 4 * i);
            }
        }
        if pos.ep_square().is_some() {
            let ep = pos.legal_ep_square().map_or(0, |sq| sq.index() as u64 + 1);
            meta |= ep << 17;
        }
        Key([
            board.by_color(Color::White).0,
            role_bit0.0,
            role_bit1.0,
            role_bit2.0,
            meta,
        ])
    }
}

/// A pass-through hasher for [`Key`]s, which hash themselves into one well-mixed word.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 ^= word;
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// Positions searched, with the depth left when they were, and in which iteration.
type Table = HashMap<Key, Entry, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The depth left when it was searched.
    left: u32,
    /// The iteration that searched it.
    generation: u32,
    /// While it is being searched: its height on the line.
    on_line: Option<u32>,
    /// Whether no mate follows from it, whatever the depth: its search was cut nowhere and
    /// every line that came back to the current line came back to it or below.
    proven: bool,
}

/// The largest transposition table (entries): past it, new positions are simply not stored.
const TABLE_CAP: usize = 1 << 20;

/// What a search concluded.
#[derive(Debug)]
pub(super) enum Found {
    /// A mating line from the searched position.
    Mate(Vec<Move>),
    /// No mate exists (an iteration finished without interruption).
    NoMate,
    /// The depth range or a node limit ran out first.
    Open,
}

/// A helpmate search for one winner.
pub(super) struct Search {
    winner: Color,
    /// Nodes (moves tried) left in the whole analysis, charged after each iteration.
    pub(super) budget: u64,
    /// Whether the whole analysis's budget ran out.
    pub(super) exhausted: bool,
    /// Per-iteration node limit per unit of depth (`None`: only the budget).
    depth_node_limit: Option<u64>,
    /// Nodes left for the current phase.
    phase_nodes: u64,
    max_depth: u32,
    /// Moves the current iteration may still try before the budget, the phase's nodes or its
    /// own limit stop it: the tightest of the three, counted down as moves are tried.
    allowance: u64,
    /// The iteration's allowance at its start: the difference is what it tried.
    allowed: u64,
    interrupted: bool,
    /// The current iteration, to tell its table entries from older ones.
    generation: u32,
    /// Whether entries of earlier iterations may cut lines in this one.
    trust_old: bool,
    /// Whether one did.
    used_old: bool,
    past_progress: bool,
    line: Vec<Move>,
    /// The moves of the positions on the line, each node's above its parent's.
    moves: Vec<Move>,
    table: Option<Table>,
    pub(super) guide: Guide,
}

impl Search {
    pub(super) fn new(pos: &Position, winner: Color, budget: u64) -> Search {
        Search {
            winner,
            budget,
            exhausted: false,
            depth_node_limit: None,
            phase_nodes: 0,
            max_depth: 0,
            allowance: 0,
            allowed: 0,
            interrupted: false,
            generation: 0,
            trust_old: false,
            used_old: false,
            past_progress: false,
            line: Vec::with_capacity(64),
            moves: Vec::with_capacity(1024),
            table: None,
            guide: Guide::new(pos, winner),
        }
    }

    /// Iterative deepening over `depths`: each iteration may try `depth * depth_node_limit`
    /// nodes, the whole call `phase_nodes` (and never more than the budget left).
    ///
    /// The transposition table, when used, lives across iterations: an entry from an earlier
    /// iteration may cut a line short (it speeds up finding mates), but an iteration that used
    /// such an entry proves nothing and is searched again without them if it found no mate.
    pub(super) fn deepen(
        &mut self,
        pos: &Position,
        depths: impl IntoIterator<Item = u32>,
        depth_node_limit: Option<u64>,
        phase_nodes: u64,
        with_table: bool,
    ) -> Found {
        self.depth_node_limit = depth_node_limit;
        self.phase_nodes = phase_nodes;
        // The table lives on from one call to the next: its proven entries stay true.
        let table = self
            .table
            .take()
            .or_else(|| with_table.then(Table::default));
        self.table = table.filter(|_| with_table);
        for depth in depths {
            let mut trust_old = true;
            loop {
                if self.exhausted || self.phase_nodes == 0 {
                    return Found::Open;
                }
                self.max_depth = depth;
                let limit = self
                    .depth_node_limit
                    .map_or(u64::MAX, |limit| u64::from(depth) * limit);
                self.allowed = self.budget.min(self.phase_nodes).min(limit);
                self.allowance = self.allowed;
                self.interrupted = false;
                self.used_old = false;
                self.trust_old = trust_old;
                self.past_progress = false;
                self.line.clear();
                self.generation += 1;
                let root = self.node(pos, 0);
                // `node` counts only the allowance down: the iteration's moves are charged here.
                let tried = self.allowed - self.allowance;
                self.budget -= tried;
                self.phase_nodes -= tried;
                if root.mate {
                    return Found::Mate(std::mem::take(&mut self.line));
                }
                // Proven at the root, or (the closure argument of the module docs) nothing
                // was cut anywhere in the iteration.
                if root.clean || !(self.interrupted || self.used_old) {
                    return Found::NoMate;
                }
                if self.interrupted || !self.used_old {
                    break;
                }
                trust_old = false;
            }
        }
        Found::Open
    }

    /// Whether the whole analysis's budget is spent.
    pub(super) fn spent(&self) -> bool {
        self.exhausted || self.budget == 0
    }

    /// Enters the position of `key` in the table (when the search has one and it has room),
    /// as on the line at `height`; returns whether it did.
    fn store(&mut self, key: Option<Key>, left: u32, height: u32) -> bool {
        let (Some(table), Some(key)) = (&mut self.table, key) else {
            return false;
        };
        if table.len() >= TABLE_CAP && !table.contains_key(&key) {
            return false;
        }
        table.insert(
            key,
            Entry {
                left,
                generation: self.generation,
                on_line: Some(height),
                proven: false,
            },
        );
        true
    }

    /// Searches `pos`, `depth` plies (by cost) into the iteration. Returns whether a mate was
    /// found; its line is then `self.line`.
    fn node(&mut self, pos: &Position, depth: u32) -> Sub {
        let left = self.max_depth.saturating_sub(depth);
        let height = self.line.len() as u32;
        let key = self.table.as_ref().map(|_| Key::of(pos));
        if let (Some(table), Some(key)) = (&self.table, &key)
            && let Some(entry) = table.get(key)
        {
            if entry.proven {
                return Sub::CLOSED;
            }
            if entry.generation == self.generation {
                if let Some(on_line) = entry.on_line {
                    // Back to a position on the current line.
                    return Sub {
                        mate: false,
                        clean: true,
                        low: on_line,
                    };
                }
                if entry.left >= left {
                    return Sub::OPEN;
                }
            } else if entry.left >= left && self.trust_old {
                self.used_old = true;
                return Sub::OPEN;
            }
        }
        if insufficient(pos.board(), self.winner) {
            return Sub::CLOSED;
        }
        if depth >= self.max_depth || self.line.len() >= MAX_LINE {
            // Most nodes are leaves at the depth limit: only a mate matters there, and only
            // the loser in check can be mated. Any other leaf is cut, even one without moves.
            if pos.turn() != self.winner && pos.is_check() && !pos.has_legal_moves() {
                return Sub::MATE;
            }
            self.interrupted = true;
            return Sub::OPEN;
        }
        // The moves are tried by moving role (see `role_order`), each role's men from `a1` on,
        // each pawn's targets from `a1` on and its promotions to queen, knight, rook, bishop;
        // but the loser's king, with two pieces or fewer on the board (kings and pawns aside),
        // tries its moves nearest the mating corner first (see `few_pieces`).
        // They are listed a group at a time (a pawn, or the men of another role) onto the
        // search's own stack, so a node whose first moves lead to a mate never lists the rest.
        let board = pos.board();
        let ours = board.by_color(pos.turn());
        let base = self.moves.len();
        let mut stored = None;
        let mut result = Sub::CLOSED;
        'groups: for &role in role_order(pos, self.winner) {
            let mut men = board.by_role(role) & ours;
            // Each pawn is a group of its own, each other role one group.
            while let Some(first) = men.first() {
                let group = if role == Role::Pawn {
                    Bitboard::from_square(first)
                } else {
                    men
                };
                men = men - group;
                if role == Role::Pawn && stuck(pos, first) {
                    continue;
                }
                let start = self.moves.len();
                if role == Role::Pawn {
                    push_pawn_moves(pos, first, &mut self.moves);
                } else {
                    list_moves(pos, group, &mut self.moves);
                }
                let end = self.moves.len();
                if end == start {
                    continue;
                }
                if role == Role::King && pos.turn() != self.winner && few_pieces(board) {
                    let corner = self.guide.loser_king;
                    self.moves[start..end].sort_by_key(|m| m.to().distance(corner));
                }
                // Stored (once the position has a move) before any child is searched, so that a
                // line coming back to it is seen as a repetition.
                if stored.is_none() {
                    stored = Some(self.store(key, left, height));
                }
                for i in start..end {
                    let m = self.moves[i];
                    if self.allowance == 0 {
                        // A limit stops the iteration; when the budget was the tightest, the
                        // whole analysis.
                        self.exhausted |= self.budget == self.allowed;
                        self.interrupted = true;
                        result = Sub::OPEN;
                        break 'groups;
                    }
                    self.allowance -= 1;
                    let capture = pos.is_capture(m);
                    let step = self.guide.classify(pos, m, role, capture);
                    let cost = match step {
                        Step::Reward => 0,
                        Step::Normal => u32::from(!self.past_progress),
                        Step::Punish => 4,
                    };
                    // A child at the depth limit is a leaf, cut unless it is a mate: a quiet move
                    // that mates nobody (see `quiet_leaf`) need not even be played. (A table entry
                    // might have closed that leaf; cutting it instead only costs an iteration its
                    // proof.) Nor need any other move of the loser's, which mates nobody either,
                    // when the search keeps no table: the leaf is closed only where the winner is
                    // left without mating material, which the board after the move tells.
                    if (depth + cost >= self.max_depth || self.line.len() + 1 >= MAX_LINE)
                        && (quiet_leaf(pos, m, role, capture, self.winner)
                            || (self.table.is_none()
                                && pos.turn() != self.winner
                                && !insufficient_after(pos, m, role, self.winner)))
                    {
                        self.interrupted = true;
                        result.clean = false;
                        continue;
                    }
                    let mut child = *pos;
                    child.play_unchecked_by(m, role);
                    self.line.push(m);
                    let saved = self.past_progress;
                    self.past_progress = step == Step::Reward;
                    let sub = self.node(&child, depth + cost);
                    if sub.mate {
                        self.moves.truncate(base);
                        return sub;
                    }
                    self.past_progress = saved;
                    self.line.pop();
                    result.clean &= sub.clean;
                    result.low = result.low.min(sub.low);
                }
                self.moves.truncate(start);
            }
        }
        self.moves.truncate(base);
        let Some(stored) = stored else {
            return if pos.turn() != self.winner && pos.is_check() {
                Sub::MATE
            } else {
                Sub::CLOSED
            };
        };
        // Proven: nothing below was cut, and every line back to a position on the current line
        // came back to this one or below it.
        let proven = result.clean && result.low >= height;
        if stored
            && let (Some(table), Some(key)) = (&mut self.table, key)
            && let Some(entry) = table.get_mut(&key)
        {
            entry.on_line = None;
            entry.proven = proven;
        }
        if result.low >= height {
            result.low = u32::MAX;
        }
        result
    }
}

/// What searching a position found.
#[derive(Clone, Copy, Debug)]
struct Sub {
    /// A mate (its line is the search's line).
    mate: bool,
    /// Nothing below was cut by the depth limit, the node limits or an older table entry.
    clean: bool,
    /// The lowest height of a position on the line that a line from here came back to
    /// (`u32::MAX`: none above this position).
    low: u32,
}

impl Sub {
    const MATE: Sub = Sub {
        mate: true,
        clean: true,
        low: u32::MAX,
    };
    const CLOSED: Sub = Sub {
        mate: false,
        clean: true,
        low: u32::MAX,
    };
    const OPEN: Sub = Sub {
        mate: false,
        clean: false,
        low: u32::MAX,
    };
}

/// The order in which the side to move in `pos` tries its men's moves. The winner's pawns go
/// first (their moves are progress: free), its king last; with four pieces or more on the
/// board (kings and pawns aside), its queens and rooks before its minor pieces. The loser's
/// order is the same while fewer pieces are left, where its pawns matter (they promote, block
/// or are taken); with four or more, the loser spends its moves with its heaviest pieces
/// first, rooks then queens, which the winner's captures then take off, and its pawns last, so
/// that they stay out of the way of the winner's. (On the PGN samples the loser's order cut the
/// mean `Game::outcome` by a fifth and the calls over 20 µs by half, the winner's another
/// tenth and a fifth, and callgrind's count of a round by 10 %: the lines after captures and
/// pawn moves come out shorter.)
fn role_order(pos: &Position, winner: Color) -> &'static [Role; 6] {
    use Role::{Bishop, King, Knight, Pawn, Queen, Rook};
    const PAWNS_FIRST: [Role; 6] = [Pawn, Knight, Bishop, Rook, Queen, King];
    const WINNER_AMONG_MANY: [Role; 6] = [Pawn, Queen, Rook, Knight, Bishop, King];
    const LOSER_AMONG_MANY: [Role; 6] = [Rook, Queen, Bishop, Knight, King, Pawn];
    if !many_pieces(pos.board()) {
        &PAWNS_FIRST
    } else if pos.turn() == winner {
        &WINNER_AMONG_MANY
    } else {
        &LOSER_AMONG_MANY
    }
}

/// The pieces on `board`: its men other than kings and pawns.
pub(super) fn pieces(board: &Board) -> Bitboard {
    board.occupied() - board.pawns() - board.kings()
}

/// Whether four pieces or more stand on `board`, kings and pawns aside: where the search's
/// move orders change (see [`role_order`]) and the storm's pawns capture first.
pub(super) fn many_pieces(board: &Board) -> bool {
    // At least four: fewer instructions to the fourth square than a popcount in a portable
    // build.
    pieces(board).into_iter().nth(3).is_some()
}

/// Whether two pieces or fewer stand on `board`, kings and pawns aside: an endgame in which the
/// loser's king walks to the mating corner, so the search tries its moves nearest the corner
/// first. In the generator's order (from `a1` on) the king first walked wherever its first
/// moves led, and a king and queen against a lone king needed about 1,000 nodes for a line of
/// 25 plies, which kept endgames after a promotion out of the quick search's reach. (On the PGN
/// samples: p99.9 of `Game::outcome` 57 -> 48 µs, calls over 50 µs 44 -> 28, 0.787 -> 0.780 G
/// instructions a round; with three pieces or fewer, or for the winner's king too, fewer
/// instructions saved. See docs/PERFORMANCE.md.)
fn few_pieces(board: &Board) -> bool {
    pieces(board).count() < 3
}

/// Appends the legal moves of the men on `men` to `moves`, in the generator's order.
///
/// Kept out of [`Search::node`] on purpose: inlined there, the generator's set-up for every
/// kind of man was hoisted out of the loop over the groups, so every node paid for it, even one
/// whose first group led to a mate (about 55 million instructions a round of `outcome_times`,
/// 4 %, against a call per group).
#[inline(never)]
fn list_moves(pos: &Position, men: Bitboard, moves: &mut Vec<Move>) {
    pos.for_each_legal_move_from(men, |m| moves.push(m));
}

/// Whether the side to move's pawn on `sq` has no move for certain: the square ahead is taken
/// and no man of the opponent (nor the en passant square) stands diagonally ahead. The search
/// skips such pawns without asking the generator: about a third of the groups it would list.
pub(super) fn stuck(pos: &Position, sq: Square) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let mut targets = board.by_color(!us);
    if let Some(ep) = pos.ep_square() {
        targets = targets.with(ep);
    }
    let ahead = Bitboard::from_square(sq).forward(us);
    board.occupied().intersects(ahead) && !attacks::pawn(us, sq).intersects(targets)
}

/// Whether playing `m` (a capture when `capture` is set) leads to a position that is no mate
/// of the loser and in which the winner's material is the same, so that as a leaf it is simply
/// cut: a move that captures nothing, is no promotion or castling, and (by the winner) gives no
/// check.
fn quiet_leaf(pos: &Position, m: Move, role: Role, capture: bool, winner: Color) -> bool {
    if capture || m.is_promotion() || m.is_castle() {
        return false;
    }
    pos.turn() != winner || !gives_check(pos, m, role)
}

/// Whether `winner` lacks mating material (see [`insufficient`]) once `m`, a move of a man of
/// `role` in `pos`, is played: worked out on the board alone, without playing the move.
///
/// Out of line: only the loser's captures into leaves ask it, and inlined into
/// [`Search::node`] it cost every node (about 4 million instructions a round of
/// `outcome_times`, 0.4 %, in callgrind's count).
#[inline(never)]
fn insufficient_after(pos: &Position, m: Move, role: Role, winner: Color) -> bool {
    let mut board = *pos.board();
    if !m.is_castle() {
        let (from, to) = (m.from(), m.to());
        let captured = if m.is_en_passant() {
            Square::from_coords(to.file(), from.rank())
        } else {
            to
        };
        // A queen, rook or pawn of the winner's that is not taken is mating material.
        let heavy = board.queens() | board.rooks() | board.pawns();
        if (heavy & board.by_color(winner)).without(captured).any() {
            return false;
        }
        board.remove_piece_at(captured);
        board.remove_piece_at(from);
        board.set_piece_at(to, m.promotion_role().unwrap_or(role).of(pos.turn()));
    }
    insufficient(&board, winner)
}

/// Whether `m`, which is neither castling, nor en passant, nor a promotion, checks the
/// opponent, directly or by uncovering a slider.
pub(super) fn gives_check(pos: &Position, m: Move, role: Role) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let (from, to) = (m.from(), m.to());
    let king = pos.king(!us);
    let occupied = board.occupied().without(from).with(to);
    // A slider checks only along its lines on the empty board: looked at first, as most moves
    // are not on them.
    let diagonal =
        || attacks::bishop_rays(to).contains(king) && attacks::bishop(to, occupied).contains(king);
    let straight =
        || attacks::rook_rays(to).contains(king) && attacks::rook(to, occupied).contains(king);
    let direct = match role {
        Role::Pawn => attacks::pawn(us, to).contains(king),
        Role::Knight => attacks::knight(to).contains(king),
        Role::Bishop => diagonal(),
        Role::Rook => straight(),
        Role::Queen => diagonal() || straight(),
        Role::King => false,
    };
    // Leaving `from` opens only the line through it and the king (empty when they are not
    // aligned): without a slider of ours on it, nothing is uncovered.
    let sliders = (board.diagonal_sliders() | board.straight_sliders()) & board.by_color(us);
    let behind = attacks::line(king, from) & sliders.without(from);
    direct
        || (behind.any()
            && ((attacks::bishop(king, occupied) & board.diagonal_sliders() & behind).any()
                || (attacks::rook(king, occupied) & board.straight_sliders() & behind).any()))
}

/// Appends the legal moves of the pawn on `from` to `moves`, by target from `a1` on and, on
/// the last rank, by promotion: queen, knight, rook, bishop. (From the pawn's targets as one
/// bitboard, [`Position::pawn_targets`]: the generator gives them by kind, push, double push,
/// captures, which then needed sorting; asking for the targets instead cut a round of
/// `outcome_times` by 3 %.)
fn push_pawn_moves(pos: &Position, from: Square, moves: &mut Vec<Move>) {
    for to in pos.pawn_targets(from) {
        if Bitboard::BACK_RANKS.contains(to) {
            for role in [Role::Queen, Role::Knight, Role::Rook, Role::Bishop] {
                moves.push(pawn_move_to(pos, from, to, role));
            }
        } else {
            moves.push(pawn_move_to(pos, from, to, Role::Queen));
        }
    }
}

/// The move of the side to move's pawn on `from` to `to`, one of its targets
/// ([`Position::pawn_targets`]): a promotion to `promotion` on the last rank, en passant onto
/// the en passant square off its file, else a plain move.
pub(super) fn pawn_move_to(pos: &Position, from: Square, to: Square, promotion: Role) -> Move {
    if Bitboard::BACK_RANKS.contains(to) {
        Move::promotion(from, to, promotion)
    } else if Some(to) == pos.ep_square() && from.file() != to.file() {
        Move::en_passant(from, to)
    } else {
        Move::normal(from, to)
    }
}

/// Plays the moves of `pos` while there is exactly one, at most `limit` of them. Returns the
/// position reached, the moves, and whether the forced sequence came back to a position it had
/// passed (then it cycles for ever, never reaching a mate or a choice).
pub(super) fn play_forced(pos: &Position, limit: usize) -> (Position, Vec<Move>, bool) {
    let mut pos = *pos;
    let mut line = Vec::new();
    let mut seen: Vec<Position> = Vec::new();
    while line.len() < limit {
        // The only move, if there is one: the moves are counted by the generator's popcounts
        // (most positions have many), and listed only when there is one.
        if pos.count_legal_moves() != 1 {
            break;
        }
        let mut only = None;
        pos.for_each_legal_move(|m| only = Some(m));
        let Some(m) = only else { break };
        seen.push(pos);
        pos.play_unchecked(m);
        line.push(m);
        if seen.contains(&pos) {
            return (pos, line, true);
        }
    }
    (pos, line, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_distances_walk_the_knight_attacks() {
        for (a, b, moves) in [
            (Square::A1, Square::A1, 0),
            (Square::A1, Square::B3, 1),
            (Square::A1, Square::B2, 4),
            (Square::B2, Square::C3, 2),
            (Square::A1, Square::H8, 6),
            (Square::D4, Square::E5, 2),
            (Square::D4, Square::D5, 3),
        ] {
            assert_eq!(knight_distance(a, b), moves, "{a} to {b}");
            assert_eq!(knight_distance(b, a), moves, "{b} to {a}");
        }
    }
}
