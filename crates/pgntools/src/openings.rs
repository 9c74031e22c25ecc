//! Opening classification: the ECO code and name of the deepest named position a game reaches.
//!
//! The table is lichess's CC0 opening list (`data/openings/*.tsv`: ECO code, name, moves in
//! SAN), built into the binary and read at first use. Each line's moves are replayed and the
//! position they lead to is the key, compared as FIDE's "same position" (pieces, side to move,
//! castling rights, a legal en passant capture): a game that reaches a named position by
//! another move order gets that name. A game takes the name of the last position of its main
//! line that is named, looking no deeper than the longest line of the table. Where two lines
//! of the table reach one position, the shorter (then the earlier) one names it.

use std::collections::HashMap;
use std::sync::OnceLock;

use caissa_movegen::{BuildZobristHasher, Position};
use caissa_notation::san::SanPlus;

/// The table as built in, one file per ECO volume.
const TABLE: [&str; 5] = [
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/a.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/b.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/c.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/d.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/e.tsv"
    )),
];

/// A named opening position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, like `B90`.
    pub eco: &'static str,
    /// The name, like `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
    /// How many plies the table's line has.
    pub plies: usize,
}

/// The named positions.
#[derive(Debug)]
pub struct Openings {
    by_position: HashMap<Position, Opening, BuildZobristHasher>,
    /// A bit for each [`occupancy_slot`] that a named position's occupied squares fall in: a
    /// position whose slot's bit is clear is named by none, told without a lookup (most
    /// positions of a game are named by none).
    occupancies: Box<[u64; OCCUPANCY_WORDS]>,
    max_plies: usize,
    /// The lines of the table that do not read (none in the table built in).
    unreadable: usize,
}

impl Openings {
    /// The table built in, read at the first call.
    pub fn builtin() -> &'static Openings {
        static OPENINGS: OnceLock<Openings> = OnceLock::new();
        OPENINGS.get_or_init(|| Openings::from_tsv(TABLE))
    }

    /// A table of `eco<TAB>name<TAB>moves` lines (a first line `eco...` is a header). A line
    /// whose moves do not replay is left out and counted ([`Openings::unreadable`]).
    fn from_tsv(files: impl IntoIterator<Item = &'static str>) -> Openings {
        let mut unreadable = 0;
        // Each line's ECO code, name and moves, in the table's order.
        let mut lines = Vec::new();
        for line in files.into_iter().flat_map(str::lines) {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                unreadable += usize::from(!line.trim().is_empty());
                continue;
            };
            if eco != "eco" {
                lines.push((eco, name, moves.trim()));
            }
        }
        let reached = replay_lines(&lines.iter().map(|&(.., moves)| moves).collect::<Vec<_>>());
        let mut openings = Openings {
            by_position: HashMap::with_capacity_and_hasher(
                lines.len(),
                BuildZobristHasher::default(),
            ),
            occupancies: Box::new([0; OCCUPANCY_WORDS]),
            max_plies: 0,
            unreadable,
        };
        for ((eco, name, _), reached) in lines.into_iter().zip(reached) {
            match reached {
                Some((position, plies)) => {
                    let slot = occupancy_slot(&position);
                    openings.occupancies[slot / 64] |= 1 << (slot % 64);
                    let opening = Opening { eco, name, plies };
                    openings.max_plies = openings.max_plies.max(plies);
                    openings
                        .by_position
                        .entry(position)
                        .and_modify(|known| {
                            if plies < known.plies {
                                *known = opening;
                            }
                        })
                        .or_insert(opening);
                }
                None => openings.unreadable += 1,
            }
        }
        openings
    }

    /// The opening named by this position, if any.
    #[must_use]
    pub fn get(&self, position: &Position) -> Option<&Opening> {
        let slot = occupancy_slot(position);
        if self.occupancies[slot / 64] & (1 << (slot % 64)) == 0 {
            return None;
        }
        self.by_position.get(position)
    }

    /// The most plies of a line of the table: no deeper position is named.
    #[must_use]
    pub const fn max_plies(&self) -> usize {
        self.max_plies
    }

    /// How many named positions there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether no position is named.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }

    /// How many lines of the table were left out because their moves do not replay.
    #[must_use]
    pub const fn unreadable(&self) -> usize {
        self.unreadable
    }

    /// The opening of a main line given as its positions after each move, in order: the
    /// last named one within [`Openings::max_plies`].
    pub fn classify<'a>(
        &self,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Option<&Opening> {
        positions
            .into_iter()
            .take(self.max_plies)
            .filter_map(|position| self.get(position))
            .last()
    }
}

/// The words of [`Openings::occupancies`]: 2^16 bits, about twenty for each named position.
const OCCUPANCY_WORDS: usize = 1 << 10;

/// A number below 2^16 for the squares `position` occupies: the same for two same positions
/// (FIDE's, [`Position`]'s `Eq`), seldom the same for two others.
fn occupancy_slot(position: &Position) -> usize {
    let occupied = position.board().occupied().0;
    // The multiplier of Fibonacci hashing, 2^64 over the golden ratio: the top bits of the
    // product depend on every bit of the squares.
    (occupied.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as usize
}

/// Where each line of SAN moves with move numbers (`1. e4 c5 2. Nf3`) leads from the
/// standard start: the position and the plies, `None` for a line that does not replay. Most
/// lines are an earlier one and a move or two: each is replayed from the end of the longest
/// other line it starts with, found by taking the lines in the order of their text, where
/// such lines come first, and every line between starts with them too.
fn replay_lines(lines: &[&str]) -> Vec<Option<(Position, usize)>> {
    let mut order: Vec<(&str, usize)> = lines.iter().copied().zip(0..).collect();
    order.sort_unstable_by_key(|&(moves, _)| moves);
    let mut reached = vec![None; lines.len()];
    // The lines that the next one may go on from, each going on from the one before, with
    // where they lead.
    let mut path: Vec<(&str, Position, usize)> = Vec::new();
    for (moves, i) in order {
        while path
            .last()
            .is_some_and(|&(known, ..)| !goes_on_from(moves, known))
        {
            path.pop();
        }
        let (from, position, plies) = path
            .last()
            .map_or((0, Position::standard(), 0), |&(known, position, plies)| {
                (known.len(), position, plies)
            });
        reached[i] = replay_from(position, plies, &moves[from..]);
        if let Some((position, plies)) = reached[i] {
            path.push((moves, position, plies));
        }
    }
    reached
}

/// Whether the line `moves` is the line `known` and more moves: it starts with it, and a
/// blank follows.
fn goes_on_from(moves: &str, known: &str) -> bool {
    moves.starts_with(known)
        && moves
            .as_bytes()
            .get(known.len())
            .is_some_and(u8::is_ascii_whitespace)
}

/// The position at the end of a line of SAN moves with move numbers (`1. e4 c5 2. Nf3`) played
/// from `position`, reached after `plies` plies, and the plies in all.
fn replay_from(mut position: Position, mut plies: usize, moves: &str) -> Option<(Position, usize)> {
    for word in moves.split_ascii_whitespace() {
        // A move number is dropped, whether or not a blank parts it from the move.
        let word = word
            .bytes()
            .rposition(|b| b == b'.')
            .map_or(word, |dot| &word[dot + 1..]);
        if word.is_empty() {
            continue;
        }
        let san: SanPlus = word.parse().ok()?;
        let m = san.san.to_move(&position).ok()?;
        position.play_unchecked(m);
        plies += 1;
    }
    Some((position, plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &str) -> Position {
        replay_from(Position::standard(), 0, moves)
            .expect("legal moves")
            .0
    }

    #[test]
    fn every_line_of_the_table_reads() {
        let openings = Openings::builtin();
        assert_eq!(openings.unreadable(), 0);
        assert!(openings.len() > 3000, "{}", openings.len());
        assert!((20..=60).contains(&openings.max_plies()));
    }

    /// Each line replayed from the end of another line it starts with reaches the position
    /// and the plies it reaches replayed alone; and the table knows that position by a line of
    /// at most those plies.
    #[test]
    fn lines_replayed_from_others_reach_what_they_reach_alone() {
        let openings = Openings::builtin();
        let lines: Vec<&str> = TABLE
            .into_iter()
            .flat_map(str::lines)
            .filter_map(|line| line.split('\t').nth(2))
            .filter(|&moves| moves != "pgn")
            .map(str::trim)
            .collect();
        for (moves, reached) in lines.iter().zip(replay_lines(&lines)) {
            let alone = replay_from(Position::standard(), 0, moves);
            assert_eq!(reached, alone, "{moves}");
            if let Some((position, plies)) = alone {
                let named = openings.get(&position).expect("named");
                assert!(named.plies <= plies, "{moves}");
            }
        }
    }

    /// A line goes on from the longest other line it starts with wherever that line stands, a
    /// line that does not replay is counted and no other goes on from it, and of the lines of
    /// one length that reach one position the first names it.
    #[test]
    fn lines_are_replayed_whatever_their_order() {
        let table = "eco\tname\tpgn\n\
                     C20\tKing's Pawn\t1. e4 e5 2. Nf3 Nc6\n\
                     C50\tItalian\t1. e4 e5 2. Nf3 Nc6 3. Bc4\n\
                     C44\tTransposed\t1. Nf3 Nc6 2. e4 e5\n\
                     C40\tOpen\t1. e4 e5\n\
                     C40\tOpen again\t1. e4 e5\n\
                     X00\tBroken\t1. e4 e5 2. Ke3\n\
                     X01\tAfter broken\t1. e4 e5 2. Ke3 Nc6\n\
                     C41\tNot a move on\t1. e4 e5x\n";
        let openings = Openings::from_tsv([table]);
        assert_eq!(openings.unreadable(), 3);
        let name = |moves: &str| openings.get(&after(moves)).map(|o| o.name);
        assert_eq!(name("1. e4 e5 2. Nf3 Nc6"), Some("King's Pawn"));
        assert_eq!(name("1. e4 e5 2. Nf3 Nc6 3. Bc4"), Some("Italian"));
        assert_eq!(name("1. e4 e5"), Some("Open"));
        assert_eq!(openings.max_plies(), 5);
    }

    #[test]
    fn positions_are_named_whatever_the_move_order() {
        let openings = Openings::builtin();
        let najdorf = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6";
        let named = openings.get(&after(najdorf)).expect("the Najdorf");
        assert_eq!(
            (named.eco, named.name),
            ("B90", "Sicilian Defense: Najdorf Variation")
        );
        let transposed = "1. Nf3 c5 2. e4 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6";
        assert_eq!(openings.get(&after(transposed)), Some(named));
        assert_eq!(openings.get(&Position::standard()), None);
    }

    #[test]
    fn the_deepest_named_position_wins() {
        let openings = Openings::builtin();
        let mut position = Position::standard();
        let mut line = Vec::new();
        // The Najdorf, then a move past the table's lines that names nothing.
        for word in "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6".split(' ') {
            let m = word
                .parse::<SanPlus>()
                .expect("SAN")
                .san
                .to_move(&position)
                .expect("legal");
            position.play_unchecked(m);
            line.push(position);
        }
        let opening = openings.classify(&line).expect("named");
        assert_eq!(opening.eco, "B90");
        assert_eq!(openings.classify(&line[..2]).map(|o| o.eco), Some("B20"));
    }
}
