//! Duplicate games, found with bounded memory: `caissa pgn select --dedupe`.
//!
//! Two games are the same when they start from the same position and their main lines play the
//! same moves ([`Same::Moves`]: however the moves were written, SAN, long algebraic or UCI), and
//! optionally have the same tags too ([`Same::MovesAndTags`]: the same pairs, in any order). A
//! game's [`GameKey`] is a 128-bit hash of that, which [`Format::Key`](crate::Format::Key)
//! makes; two different games share one with a probability of about 2^-128 per pair.
//!
//! Finding them takes two passes, so that memory stays bounded whatever the input's size. The
//! first gives [`DuplicateFinder`] each game's number and key; the finder sorts the pairs by key
//! (in runs of at most `capacity` pairs in memory, the others spilled to files the caller opens)
//! and marks every game whose key an earlier game has. The second pass asks
//! [`DuplicateGames::contains`] of each game, in order: the first of each key is kept, the
//! others are duplicates.
//!
//! ```
//! use std::io::Cursor;
//! use core::ops::ControlFlow;
//! use caissa_pgntools::dedupe::{DuplicateFinder, Same};
//! use caissa_pgntools::{Format, SelectOptions, Selection, select};
//!
//! let pgn = "1. e4 e5 *\n\n1. d4 *\n\n1. e2e4 e7e5 *\n";
//! let options = SelectOptions { format: Format::Key(Same::Moves), ..SelectOptions::default() };
//! let mut finder = DuplicateFinder::new(1000, || Ok(Cursor::new(Vec::new())));
//! let mut games = Vec::new();
//! select(pgn.as_bytes(), &options, 1, |game| {
//!     games.push((game.offset, game.selection));
//!     ControlFlow::Continue(())
//! })?;
//! // Each game's bytes run to the next game's start (the last game's, to the end).
//! let ends: Vec<u64> = games.iter().skip(1).map(|(start, _)| *start).chain([u64::MAX]).collect();
//! for (number, ((start, selection), end)) in (1..).zip(games.into_iter().zip(ends)) {
//!     if let Selection::Key(key) = selection {
//!         finder.push(number, start..end, key)?;
//!     }
//! }
//! let mut duplicates = finder.finish()?;
//! let found: Vec<bool> = (1..=3).map(|n| duplicates.contains(n).expect("in memory")).collect();
//! assert_eq!(found, [false, false, true]);
//! // Or by where they start in the input: the third game, at byte 21.
//! assert!(duplicates.starts_before(3, 21)?.is_empty());
//! assert_eq!(duplicates.starts_before(3, 22)?, [21..u64::MAX]);
//! # Ok::<(), std::io::Error>(())
//! ```

use core::hash::{Hash, Hasher};
use core::ops::Range;
use std::collections::hash_map::DefaultHasher;
use std::io::{self, Read, Seek, Write};

use caissa_movegen::{Move, Position};
use caissa_notation::pgn::Tags;

use crate::external_sort::{BUCKETS, ExternalSort, Record, Sorted};

/// What makes two games the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Same {
    /// The start position and the main line's moves.
    #[default]
    Moves,
    /// Those and the tags (the same name and value pairs, in any order).
    MovesAndTags,
}

/// A 128-bit hash of what makes a game the same as another ([`Same`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    high: u64,
    low: u64,
}

/// Makes a [`GameKey`] move by move: two SipHash streams that differ by a first byte. The
/// moves are gathered and hashed in one go at the end, which costs a small part of hashing
/// them one by one.
#[derive(Clone, Debug)]
pub(crate) struct KeyHasher {
    high: DefaultHasher,
    low: DefaultHasher,
    /// The main line's moves so far, two bytes each.
    moves: Vec<u8>,
}

impl KeyHasher {
    /// Starts the key of a game from `start`, with its tags when `same` asks for them; `moves`
    /// is memory for the moves (what [`KeyHasher::finish`] gave back for an earlier game, say),
    /// emptied first.
    pub(crate) fn new(same: Same, start: &Position, tags: &Tags, mut moves: Vec<u8>) -> KeyHasher {
        moves.clear();
        moves.reserve(512);
        let mut hasher = KeyHasher {
            high: DefaultHasher::new(),
            low: DefaultHasher::new(),
            moves,
        };
        hasher.high.write_u8(1);
        hasher.each(|h| start.hash(h));
        if same == Same::MovesAndTags {
            let mut pairs: Vec<(&str, &str)> = tags.iter().collect();
            pairs.sort_unstable();
            // 0xff is in no UTF-8 text: it ends names and values unambiguously.
            for (name, value) in pairs {
                hasher.each(|h| {
                    h.write(name.as_bytes());
                    h.write_u8(0xff);
                    h.write(value.as_bytes());
                    h.write_u8(0xff);
                });
            }
        }
        hasher.each(|h| h.write_u8(0xfe));
        hasher
    }

    fn each(&mut self, mut write: impl FnMut(&mut DefaultHasher)) {
        write(&mut self.high);
        write(&mut self.low);
    }

    /// Adds a main-line move (`None` for a null move).
    pub(crate) fn play(&mut self, played: Option<Move>) {
        // No move goes from a square to itself, so 0 is free for the null move.
        let bits = played.map_or(0, Move::to_u16);
        self.moves.extend_from_slice(&bits.to_le_bytes());
    }

    /// The key, and the memory of the moves, for the next game's.
    pub(crate) fn finish(mut self) -> (GameKey, Vec<u8>) {
        let moves = core::mem::take(&mut self.moves);
        self.each(|h| h.write(&moves));
        let key = GameKey {
            high: self.high.finish(),
            low: self.low.finish(),
        };
        (key, moves)
    }
}

/// A game's number, where it starts and ends in its input, and its key, as sorted by key then
/// number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Keyed {
    key: GameKey,
    game: u64,
    start: u64,
    end: u64,
}

impl Record for Keyed {
    const SIZE: usize = 40;

    /// The key's first bits: keys are hashes, spread over the buckets.
    fn bucket(&self) -> Option<usize> {
        Some((self.key.high >> (64 - BUCKETS.trailing_zeros())) as usize)
    }

    fn write(&self, out: &mut [u8]) {
        self.key.high.write(&mut out[..8]);
        self.key.low.write(&mut out[8..16]);
        (self.game, self.start, self.end).write(&mut out[16..]);
    }

    fn read(bytes: &[u8]) -> Keyed {
        let (game, start, end) = Record::read(&bytes[16..]);
        Keyed {
            key: GameKey {
                high: u64::read(&bytes[..8]),
                low: u64::read(&bytes[8..16]),
            },
            game,
            start,
            end,
        }
    }
}

/// The first pass: takes every game's number and key, and finds the duplicates.
pub struct DuplicateFinder<S, F> {
    keys: ExternalSort<Keyed, S, F>,
    capacity: usize,
}

impl<S, F> DuplicateFinder<S, F>
where
    S: Read + Write + Seek,
    F: FnMut() -> io::Result<S>,
{
    /// Holds at most `capacity` games (40 bytes each) in memory; past that, `spill` opens a
    /// file for each run of them (an anonymous temporary file, say), and the finder writes it and
    /// reads it back from its start.
    pub fn new(capacity: usize, spill: F) -> Self {
        DuplicateFinder {
            keys: ExternalSort::new(capacity, spill),
            capacity,
        }
    }

    /// Takes the key of the game numbered `game`, whose bytes in its input are `bytes`: from
    /// its start ([`InputGame::offset`](crate::InputGame::offset)) to the next game's start,
    /// or `u64::MAX` for the last game; numbers may come in any order, each once.
    ///
    /// # Errors
    ///
    /// The spill file's, when it cannot be opened or written.
    pub fn push(&mut self, game: u64, bytes: Range<u64>, key: GameKey) -> io::Result<()> {
        self.keys.push(Keyed {
            key,
            game,
            start: bytes.start,
            end: bytes.end,
        })
    }

    /// The duplicates: every game whose key a game of a lower number has.
    ///
    /// # Errors
    ///
    /// A spill file's, when it cannot be read or written.
    pub fn finish(self) -> io::Result<DuplicateGames<S>> {
        let DuplicateFinder { keys, capacity } = self;
        let (mut sorted, spill) = keys.sorted()?;
        let mut previous: Option<GameKey> = None;
        let mut numbers = ExternalSort::new(capacity, spill);
        // The first of a key is its lowest number: the others are duplicates.
        while let Some(keyed) = sorted.next().transpose()? {
            if previous == Some(keyed.key) {
                numbers.push((keyed.game, keyed.start, keyed.end))?;
            }
            previous = Some(keyed.key);
        }
        Ok(DuplicateGames {
            numbers: numbers.sorted()?.0,
            next: None,
        })
    }
}

impl<S, F> core::fmt::Debug for DuplicateFinder<S, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DuplicateFinder")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

/// The second pass: which games are duplicates, asked in order, by number
/// ([`DuplicateGames::contains`]) or by where they start ([`DuplicateGames::starts_before`]).
pub struct DuplicateGames<S> {
    /// The duplicates' numbers, starts and ends, by number.
    numbers: Sorted<(u64, u64, u64), S>,
    /// The lowest duplicate not yet passed: its number, start and end.
    next: Option<(u64, u64, u64)>,
}

impl<S> core::fmt::Debug for DuplicateGames<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DuplicateGames")
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl<S: Read> DuplicateGames<S> {
    /// Whether the game numbered `game` is a duplicate; `game` must not be lower than any
    /// number asked before.
    ///
    /// # Errors
    ///
    /// A spill file's, when it cannot be read.
    pub fn contains(&mut self, game: u64) -> io::Result<bool> {
        Ok(self
            .first_from(game)?
            .is_some_and(|(next, ..)| next == game))
    }

    /// The bytes of the duplicates among the games numbered up to `last` that start before
    /// byte `end` of their input, in order, as [`DuplicateFinder::push`] took them; neither
    /// may be lower than in any call before, and the games asked for must be one input's (its
    /// offsets grow with the numbers).
    ///
    /// # Errors
    ///
    /// A spill file's, when it cannot be read.
    pub fn starts_before(&mut self, last: u64, end: u64) -> io::Result<Vec<Range<u64>>> {
        let mut games = Vec::new();
        while let Some((game, start, to)) = self.first_from(0)?
            && game <= last
            && start < end
        {
            games.push(start..to);
            self.next = None;
        }
        Ok(games)
    }

    /// The lowest duplicate numbered `game` or more.
    fn first_from(&mut self, game: u64) -> io::Result<Option<(u64, u64, u64)>> {
        loop {
            match self.next {
                Some(next) if next.0 >= game => return Ok(Some(next)),
                _ => match self.numbers.next().transpose()? {
                    Some(next) => self.next = Some(next),
                    None => return Ok(None),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use core::ops::ControlFlow;
    use std::io::Cursor;

    use super::*;
    use crate::{Format, SelectOptions, Selection, select};

    /// The key of each game of `pgn`, `None` for one that is broken.
    fn keys(pgn: &str, same: Same) -> Vec<Option<GameKey>> {
        let options = SelectOptions {
            format: Format::Key(same),
            ..SelectOptions::default()
        };
        let mut keys = Vec::new();
        select(pgn.as_bytes(), &options, 1, |game| {
            keys.push(match game.selection {
                Selection::Key(key) => Some(key),
                _ => None,
            });
            ControlFlow::Continue(())
        })
        .expect("in memory");
        keys
    }

    #[test]
    fn the_same_moves_however_written_are_the_same_game() {
        let keys = keys(
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
             [Event \"b\"]\n\n1. e2e4 e7e5 2. g1f3 b8c6 1-0\n\n\
             1. e2-e4 {a comment} e7-e5 $1 (1... c5 2. Nf3) 2. Ng1-f3 Nbc6 *\n\n\
             1. e4 e5 2. Nf3 *\n\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7\"]\n\n\
             1. e4 e5 2. Nf3 Nc6 *\n\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1\"]\n\n\
             1. e4 e5 *\n\n\
             1. e4 e5 2. Ke3 *\n",
            Same::Moves,
        );
        assert!(keys[..6].iter().all(Option::is_some), "{keys:?}");
        assert_eq!(keys[0], keys[1]);
        assert_eq!(keys[0], keys[2]);
        assert_ne!(keys[0], keys[3], "a prefix");
        // The FEN's move counters are not the position: the same start.
        assert_eq!(keys[0], keys[4]);
        assert_ne!(keys[5], keys[3]);
        assert_eq!(keys[6], None, "broken");
    }

    #[test]
    fn the_same_tags_in_any_order() {
        let keys = keys(
            "[White \"x\"]\n[Black \"y\"]\n\n1. d4 *\n\n\
             [Black \"y\"]\n[White \"x\"]\n\n1. d4 *\n\n\
             [Black \"y\"]\n[White \"z\"]\n\n1. d4 *\n\n\
             [Black \"y\"]\n[White \"x\"]\n\n1. d4 d5 *\n",
            Same::MovesAndTags,
        );
        assert_eq!(keys[0], keys[1]);
        assert_ne!(keys[0], keys[2]);
        assert_ne!(keys[0], keys[3]);
    }

    #[test]
    fn repeats_are_found_past_the_memory_limit() {
        let spilled = std::cell::Cell::new(0);
        let mut finder = DuplicateFinder::new(3, || {
            spilled.set(spilled.get() + 1);
            Ok(Cursor::new(Vec::new()))
        });
        let key = |k: u64| GameKey { high: k, low: !k };
        // Games 1..=40 in a shuffled order; game n has key n mod 7, so 1..=7 are firsts.
        for n in (0..40).map(|i| (i * 17) % 40 + 1) {
            finder
                .push(n, 100 * n..100 * n + 100, key(n % 7))
                .expect("in memory");
        }
        let mut duplicates = finder.finish().expect("in memory");
        assert!(spilled.get() >= 13, "{} spills", spilled.get());
        let found: Vec<u64> = (1..=41)
            .filter(|&n| duplicates.contains(n).expect("in memory"))
            .collect();
        assert_eq!(found, (8..=40).collect::<Vec<u64>>());
        // By where they start, a few at a time: games 8 and up start at 800 and up.
        let mut duplicates = {
            let mut finder = DuplicateFinder::new(3, || Ok(Cursor::new(Vec::new())));
            for n in (0..40).map(|i| (i * 17) % 40 + 1) {
                finder
                    .push(n, 100 * n..100 * n + 100, key(n % 7))
                    .expect("in memory");
            }
            finder.finish().expect("in memory")
        };
        assert!(
            duplicates
                .starts_before(20, 700)
                .expect("in memory")
                .is_empty()
        );
        assert_eq!(
            duplicates.starts_before(20, 1001).expect("in memory"),
            [800..900, 900..1000, 1000..1100]
        );
        // Past game 20, none of this input's.
        let rest = duplicates.starts_before(20, u64::MAX).expect("in memory");
        let starts = |games: Vec<Range<u64>>| games.iter().map(|g| g.start).collect::<Vec<u64>>();
        assert_eq!(
            starts(rest),
            (11..=20).map(|n| 100 * n).collect::<Vec<u64>>()
        );
        let last = duplicates.starts_before(40, u64::MAX).expect("in memory");
        assert_eq!(
            starts(last),
            (21..=40).map(|n| 100 * n).collect::<Vec<u64>>()
        );
    }
}
