//! Opening books: start positions and moves, read from EPD or PGN text, taken in order or
//! shuffled by a seed, each cut at a ply limit.
//!
//! An EPD line is a position (its `id` names it); a PGN game is its start position and main
//! line. Reading takes text, not files: the caller opens them.

use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::epd;
use caissa_notation::pgn::{GameTreeBuilder, Reader};

/// One opening: where the game starts, and the moves already played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// Whether castling follows Chess960.
    pub chess960: bool,
    /// The moves played from it.
    pub moves: Vec<Move>,
    /// A name (EPD `id`, PGN `Opening` or `ECO` tag), if any.
    pub name: Option<String>,
}

impl Opening {
    /// The standard start position, no moves.
    #[must_use]
    pub fn standard() -> Opening {
        Opening {
            start: Position::standard(),
            chess960: false,
            moves: Vec::new(),
            name: None,
        }
    }
}

/// An opening file that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("opening {number}: {reason}")]
pub struct ParseOpeningsError {
    /// The EPD line (from 1) or the PGN game (from 1).
    pub number: usize,
    /// What is wrong, as the EPD or PGN reader says.
    pub reason: String,
}

/// The order openings are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled by this seed: the same seed gives the same order.
    Random(u64),
}

/// A list of openings in the order a match takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    openings: Vec<Opening>,
}

impl Openings {
    /// Openings from EPD lines (blank and `#` lines skipped), `moves` empty.
    ///
    /// # Errors
    ///
    /// [`ParseOpeningsError`] for the first line that is not a legal position.
    pub fn from_epd(text: &str) -> Result<Openings, ParseOpeningsError> {
        let mut openings = Vec::new();
        for (number, line) in epd::read_lines(text) {
            let error = |reason: String| ParseOpeningsError { number, reason };
            let epd = line.map_err(|e| error(e.to_string()))?;
            let start = epd
                .position(CastlingMode::Standard)
                .or_else(|_| epd.position(CastlingMode::Chess960))
                .map_err(|e| error(e.to_string()))?;
            let chess960 = epd.position(CastlingMode::Standard).is_err();
            openings.push(Opening {
                start,
                chess960,
                moves: Vec::new(),
                name: epd.id().map(str::to_owned),
            });
        }
        Ok(Openings { openings })
    }

    /// Openings from PGN games: each game's start position and main line.
    ///
    /// # Errors
    ///
    /// [`ParseOpeningsError`] for the first game that does not read or replay.
    pub fn from_pgn(text: &[u8]) -> Result<Openings, ParseOpeningsError> {
        let mut openings = Vec::new();
        for (index, tree) in Reader::new(text).games(&mut GameTreeBuilder).enumerate() {
            let error = |reason: String| ParseOpeningsError {
                number: index + 1,
                reason,
            };
            let tree = tree.map_err(|e| error(e.to_string()))?;
            let start = tree.start_position().map_err(|e| error(e.to_string()))?;
            let moves = tree
                .mainline_moves()
                .map(|m| {
                    m.map_err(|e| error(e.to_string()))?
                        .played
                        .ok_or_else(|| error("a null move".into()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let name = tree
                .tags
                .get("Opening")
                .or_else(|| tree.tags.get("ECO"))
                .map(str::to_owned);
            openings.push(Opening {
                start,
                chess960: tree.tags.start().is_chess960(),
                moves,
                name,
            });
        }
        Ok(Openings { openings })
    }

    /// Openings given as they are.
    #[must_use]
    pub fn from_vec(openings: Vec<Opening>) -> Openings {
        Openings { openings }
    }

    /// Cuts every opening to at most `plies` moves.
    #[must_use]
    pub fn limit(mut self, plies: usize) -> Openings {
        for opening in &mut self.openings {
            opening.moves.truncate(plies);
        }
        self
    }

    /// Puts the openings in `order`.
    #[must_use]
    pub fn ordered(mut self, order: Order) -> Openings {
        if let Order::Random(seed) = order {
            // Fisher-Yates with SplitMix64: reproducible on every platform.
            let mut state = seed;
            for i in (1..self.openings.len()).rev() {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                let j = usize::try_from(z % (i as u64 + 1)).unwrap_or(0);
                self.openings.swap(i, j);
            }
        }
        self
    }

    /// How many openings there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// Opening `number` of a match: the list is taken round and round (the standard position
    /// when the list is empty).
    #[must_use]
    pub fn get(&self, number: u64) -> Opening {
        match self.openings.len() as u64 {
            0 => Opening::standard(),
            n => self.openings[usize::try_from(number % n).unwrap_or(0)].clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_and_pgn() {
        let epd = "# book\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\n\
                   rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n";
        let book = Openings::from_epd(epd).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.get(0).name.as_deref(), Some("e4"));
        assert_eq!(book.get(3), book.get(1));
        let bad = Openings::from_epd("8/8/8/8/8/8/8/8 w - -\n").unwrap_err();
        assert_eq!(bad.number, 1);

        let pgn = b"[Opening \"Ruy Lopez\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n1. d4 d5 *\n";
        let book = Openings::from_pgn(pgn).unwrap().limit(4);
        assert_eq!(book.get(0).moves.len(), 4);
        assert_eq!(book.get(0).name.as_deref(), Some("Ruy Lopez"));
        assert_eq!(book.get(1).moves.len(), 2);
        let bad = Openings::from_pgn(b"1. e4 e5 *\n\n1. e5 *\n").unwrap_err();
        assert_eq!(bad.number, 2);
    }

    #[test]
    fn seeded_order() {
        let book = || {
            Openings::from_vec(
                (0..20)
                    .map(|i| Opening {
                        name: Some(i.to_string()),
                        ..Opening::standard()
                    })
                    .collect(),
            )
        };
        let names = |b: &Openings| (0..20).map(|i| b.get(i).name.unwrap()).collect::<Vec<_>>();
        let a = book().ordered(Order::Random(7));
        assert_eq!(names(&a), names(&book().ordered(Order::Random(7))));
        assert_ne!(names(&a), names(&book()));
        let mut sorted = names(&a);
        sorted.sort_by_key(|n| n.parse::<u32>().unwrap());
        assert_eq!(sorted, names(&book()));
        assert_eq!(Openings::from_vec(Vec::new()).get(5), Opening::standard());
    }
}
