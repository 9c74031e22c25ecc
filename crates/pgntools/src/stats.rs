//! `caissa pgn stats`: what a collection holds, counted from the tags alone.
//!
//! [`Stats`] counts games by result, by `Termination`, by speed class (lichess's, from the
//! `TimeControl` tag), by ECO family (the letter of the `ECO` tag) and by Elo band (the mean of
//! the two players' `WhiteElo` and `BlackElo`, in bands of 200). [`read_stats`] reads a whole
//! input for it, tags only: no move is read or replayed, so it runs at the reader's
//! header-skipping speed. A game whose tags cannot be read is counted as an error and skipped.

use core::ops::ControlFlow;
use std::collections::BTreeMap;
use std::io::{self, Read};

use caissa_arbiter::{PgnTimeControl, TimeControl};
use caissa_notation::pgn::{Flow, Location, PgnError, RawTag, Reader, Visitor};

/// The width of an Elo band.
pub const ELO_BAND: u32 = 200;

/// The most values a count of [`Stats`] keeps apart (a `Termination` tag is free text, an Elo
/// band any of millions): the games of the values past them are counted under [`OTHER`], so
/// memory stays bounded whatever the input.
pub const MAX_VALUES: usize = 1000;

/// The key under which a count of [`Stats`] holds the games of the values past [`MAX_VALUES`].
pub const OTHER: &str = "(other)";

/// Counts of games by category; each map sums to [`Stats::games`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games whose tags were read.
    pub games: u64,
    /// Games whose tags could not be read (not counted in [`Stats::games`]).
    pub errors: u64,
    /// By the `Result` tag: `1-0`, `0-1`, `1/2-1/2`, `*`, or `?` when missing or anything else.
    pub results: BTreeMap<String, u64>,
    /// By the `Termination` tag as written, `?` when missing.
    pub terminations: BTreeMap<String, u64>,
    /// By lichess speed class of the `TimeControl` tag ([`TimeControl::lichess_speed`]):
    /// `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`, `correspondence`; `none` for
    /// `-`, `?` when missing, unknown or unreadable.
    pub speeds: BTreeMap<String, u64>,
    /// By the first letter of the `ECO` tag (`A` to `E`), `?` when missing or not a code.
    pub eco_families: BTreeMap<String, u64>,
    /// By the mean Elo of the two players, in bands of [`ELO_BAND`] (`2400-2599`); `unrated`
    /// when either Elo is missing or not a number.
    pub elo_bands: BTreeMap<String, u64>,
}

impl Stats {
    /// Counts one game of these tags (name, value).
    pub fn add<'a>(&mut self, tags: impl IntoIterator<Item = (&'a str, &'a str)>) {
        let mut game = GameTags::default();
        for (name, value) in tags {
            game.observe(name, value);
        }
        self.add_game(&game);
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.errors += other.errors;
        for (mine, theirs) in [
            (&mut self.results, &other.results),
            (&mut self.terminations, &other.terminations),
            (&mut self.speeds, &other.speeds),
            (&mut self.eco_families, &other.eco_families),
            (&mut self.elo_bands, &other.elo_bands),
        ] {
            for (key, &n) in theirs {
                count_n(mine, key, n);
            }
        }
    }

    fn add_game(&mut self, game: &GameTags) {
        self.games += 1;
        let result = game
            .result
            .as_deref()
            .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2" | "*"))
            .unwrap_or("?");
        count(&mut self.results, result);
        count(
            &mut self.terminations,
            game.termination.as_deref().unwrap_or("?"),
        );
        count(&mut self.speeds, speed(game.time_control.as_deref()));
        let family = game
            .eco
            .as_deref()
            .filter(|eco| is_eco(eco))
            .map_or("?", |eco| &eco[..1]);
        count(&mut self.eco_families, family);
        let elo = |tag: &Option<String>| tag.as_deref().and_then(|v| v.trim().parse().ok());
        count(
            &mut self.elo_bands,
            &elo_band([elo(&game.white_elo), elo(&game.black_elo)]),
        );
    }
}

fn count(map: &mut BTreeMap<String, u64>, key: &str) {
    count_n(map, key, 1);
}

/// Adds `n` games to `key`'s count, or to [`OTHER`]'s when `map` already keeps
/// [`MAX_VALUES`] values apart.
fn count_n(map: &mut BTreeMap<String, u64>, key: &str, n: u64) {
    if let Some(count) = map.get_mut(key) {
        *count += n;
    } else if map.len() < MAX_VALUES {
        map.insert(key.to_owned(), n);
    } else {
        *map.entry(OTHER.to_owned()).or_default() += n;
    }
}

/// A code `A00` to `E99`.
fn is_eco(eco: &str) -> bool {
    let bytes = eco.as_bytes();
    bytes.len() == 3
        && (b'A'..=b'E').contains(&bytes[0])
        && bytes[1..].iter().all(u8::is_ascii_digit)
}

/// The speed class name of a `TimeControl` tag value.
fn speed(tag: Option<&str>) -> &'static str {
    match tag.map(TimeControl::from_pgn) {
        Some(Ok(PgnTimeControl::Control(control))) => control.lichess_speed().name(),
        Some(Ok(PgnTimeControl::None)) => "none",
        _ => "?",
    }
}

/// The band of the players' mean Elo, `unrated` without both.
fn elo_band(elos: [Option<u32>; 2]) -> String {
    match elos {
        [Some(white), Some(black)] => {
            // (In 64 bits: two Elo tags near `u32::MAX` overflowed.)
            let band = u64::from(ELO_BAND);
            let low = (u64::from(white) + u64::from(black)) / 2 / band * band;
            format!("{low}-{}", low + band - 1)
        }
        _ => "unrated".to_owned(),
    }
}

/// The tags [`Stats`] looks at, of one game.
#[derive(Clone, Debug, Default)]
struct GameTags {
    result: Option<String>,
    termination: Option<String>,
    time_control: Option<String>,
    eco: Option<String>,
    white_elo: Option<String>,
    black_elo: Option<String>,
}

impl GameTags {
    fn observe(&mut self, name: &str, value: &str) {
        let slot = match name {
            "Result" => &mut self.result,
            "Termination" => &mut self.termination,
            "TimeControl" => &mut self.time_control,
            "ECO" => &mut self.eco,
            "WhiteElo" => &mut self.white_elo,
            "BlackElo" => &mut self.black_elo,
            _ => return,
        };
        // A tag given twice counts by its first value.
        if slot.is_none() {
            *slot = Some(value.to_owned());
        }
    }
}

/// A visitor that reads a game's tags and skips its movetext.
struct TagsOnly;

impl Visitor for TagsOnly {
    type Tags = GameTags;
    type Movetext = GameTags;
    type Output = GameTags;
    type Error = PgnError;

    fn begin_game(&mut self, _: Location) -> Flow<Self, GameTags> {
        ControlFlow::Continue(GameTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut GameTags,
        name: &[u8],
        value: RawTag<'_>,
        _: Location,
    ) -> Flow<Self> {
        if let Ok(name) = core::str::from_utf8(name) {
            tags.observe(name, &value.decode_utf8_lossy());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameTags) -> Flow<Self, GameTags> {
        // Ending the game here skips its movetext unread.
        ControlFlow::Break(Ok(tags))
    }

    fn end_game(&mut self, tags: GameTags) -> Result<GameTags, PgnError> {
        Ok(tags)
    }
}

/// Counts every game of `input` (plain, not compressed: see
/// [`input::decompress`](crate::input::decompress)) from its tags.
///
/// ```
/// use caissa_pgntools::stats::read_stats;
///
/// let pgn = "[Result \"1-0\"]\n[ECO \"B20\"]\n[TimeControl \"180+2\"]\n\n1. e4 c5 1-0\n\n\
///            [Result \"1/2-1/2\"]\n[WhiteElo \"2410\"]\n[BlackElo \"2450\"]\n\n1. d4 1/2-1/2\n";
/// let stats = read_stats(pgn.as_bytes())?;
/// assert_eq!(stats.games, 2);
/// assert_eq!(stats.results["1-0"], 1);
/// assert_eq!(stats.eco_families["B"], 1);
/// assert_eq!(stats.speeds["blitz"], 1);
/// assert_eq!(stats.elo_bands["2400-2599"], 1);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// The input's first [`io::Error`].
pub fn read_stats<R: Read>(input: R) -> io::Result<Stats> {
    read_stats_reporting(input, |_| {})
}

/// [`read_stats`], telling `on_error` of each game that cannot be read (where and why), as
/// it is counted in [`Stats::errors`].
///
/// # Errors
///
/// The input's first [`io::Error`].
pub fn read_stats_reporting<R: Read>(
    input: R,
    mut on_error: impl FnMut(&PgnError),
) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let mut reader = Reader::new(input);
    while let Some(game) = reader.read_game(&mut TagsOnly) {
        match game {
            Ok(tags) => stats.add_game(&tags),
            Err(error) if error.is_io() => return Err(io::Error::other(error.to_string())),
            Err(error) => {
                on_error(&error);
                stats.errors += 1;
            }
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_map_sums_to_the_games() {
        let pgn = "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"-\"]\n\
                   [ECO \"X99\"]\n[WhiteElo \"?\"]\n[BlackElo \"1500\"]\n\n1. e4 0-1\n\n\
                   [Result \"draw\"]\n[TimeControl \"15+0\"]\n[ECO \"E99\"]\n\
                   [WhiteElo \"1999\"]\n[BlackElo \"2000\"]\n\n*\n\n\
                   [Bad tag\n\n1. e4 *\n\n\
                   1. d4 *\n";
        let stats = read_stats(pgn.as_bytes()).unwrap();
        assert_eq!((stats.games, stats.errors), (3, 1));
        let map = |pairs: &[(&str, u64)]| {
            pairs
                .iter()
                .map(|&(k, n)| (k.to_owned(), n))
                .collect::<BTreeMap<_, _>>()
        };
        assert_eq!(stats.results, map(&[("0-1", 1), ("?", 2)]));
        assert_eq!(stats.terminations, map(&[("Time forfeit", 1), ("?", 2)]));
        assert_eq!(
            stats.speeds,
            map(&[("none", 1), ("ultrabullet", 1), ("?", 1)])
        );
        assert_eq!(stats.eco_families, map(&[("E", 1), ("?", 2)]));
        assert_eq!(stats.elo_bands, map(&[("1800-1999", 1), ("unrated", 2)]));

        let mut twice = stats.clone();
        twice.merge(&stats);
        assert_eq!(twice.games, 6);
        assert_eq!(twice.results["?"], 4);
        let mut added = Stats::default();
        added.add([("Result", "1-0"), ("ECO", "C42")]);
        assert_eq!((added.results["1-0"], added.eco_families["C"]), (1, 1));
    }

    /// Elo tags near `u32::MAX` make a band, not an overflow; a game that cannot be read is
    /// counted and told where.
    #[test]
    fn huge_elos_and_broken_games() {
        let pgn = "[WhiteElo \"4000000000\"]\n[BlackElo \"4000000000\"]\n\n1. e4 *\n\n\
                   [Result \"1-0\"]\n[Bad tag\n\n1. e4 1-0\n";
        let mut places = Vec::new();
        let stats = read_stats_reporting(pgn.as_bytes(), |e| places.push(e.location)).unwrap();
        assert_eq!(stats.elo_bands.len(), 1);
        assert_eq!(stats.elo_bands["4000000000-4000000199"], 1);
        assert_eq!((stats.games, stats.errors), (1, 1));
        assert_eq!(places, [Location { line: 7, column: 6 }]);
        // A tag given twice counts by its first value, the Elo tags as the others.
        let mut twice = Stats::default();
        twice.add([
            ("WhiteElo", "2000"),
            ("BlackElo", "2100"),
            ("WhiteElo", "abc"),
            ("Result", "1-0"),
            ("Result", "0-1"),
        ]);
        assert_eq!(twice.elo_bands["2000-2199"], 1);
        assert_eq!(twice.results["1-0"], 1);
    }

    /// A free-text tag's values are kept apart up to [`MAX_VALUES`], the rest counted together.
    #[test]
    fn counts_keep_a_bounded_number_of_values() {
        let mut stats = Stats::default();
        for i in 0..MAX_VALUES + 500 {
            stats.add([("Termination", format!("reason {i}").as_str())]);
        }
        assert_eq!(stats.games, (MAX_VALUES + 500) as u64);
        assert_eq!(stats.terminations.len(), MAX_VALUES + 1);
        assert_eq!(stats.terminations[OTHER], 500);
        assert_eq!(stats.terminations.values().sum::<u64>(), stats.games);
        let mut twice = stats.clone();
        twice.merge(&stats);
        assert_eq!(twice.terminations.len(), MAX_VALUES + 1);
        assert_eq!(twice.terminations[OTHER], 1000);
    }
}
