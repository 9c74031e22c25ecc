//! `caissa pgn split`: which file each game goes to, by count or by the value of a tag.
//!
//! [`Splitter`] names the part of the file name for each game in turn: a number from `0001`
//! for each run of N games ([`SplitBy::Games`]), or the game's value of one tag made safe for
//! a file name ([`SplitBy::Tag`], e.g. `ECO`: `B20`). The command line opens the files.

use core::num::NonZeroU64;
use core::ops::ControlFlow;

use caissa_notation::pgn::{Flow, Location, PgnError, RawTag, Reader, Visitor};

/// How games are split into files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// This many games a file, in input order.
    Games(NonZeroU64),
    /// One file for each value of this tag; games without it go to `unknown`.
    Tag(String),
}

/// Names the file part of each game, in input order.
#[derive(Clone, Debug)]
pub struct Splitter {
    by: SplitBy,
    games: u64,
}

impl Splitter {
    /// A splitter that starts at the first game.
    #[must_use]
    pub const fn new(by: SplitBy) -> Splitter {
        Splitter { by, games: 0 }
    }

    /// The file part for the next game, whose PGN is `game`.
    ///
    /// ```
    /// use caissa_pgntools::split::{SplitBy, Splitter};
    ///
    /// let mut by_two = Splitter::new(SplitBy::Games(2.try_into()?));
    /// let parts: Vec<_> = (0..3).map(|_| by_two.part("1. e4 *")).collect();
    /// assert_eq!(parts, ["0001", "0001", "0002"]);
    ///
    /// let mut by_eco = Splitter::new(SplitBy::Tag("ECO".into()));
    /// assert_eq!(by_eco.part("[ECO \"B20\"]\n\n1. e4 c5 *\n"), "B20");
    /// assert_eq!(by_eco.part("[White \"A/B\"]\n\n1. d4 *\n"), "unknown");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn part(&mut self, game: &str) -> String {
        self.games += 1;
        match &self.by {
            SplitBy::Games(n) => format!("{:04}", (self.games - 1) / n.get() + 1),
            SplitBy::Tag(name) => {
                let mut find = FindTag { name, value: None };
                let value = Reader::new(game.as_bytes())
                    .read_game(&mut find)
                    .and_then(Result::ok)
                    .flatten();
                value.map_or_else(|| "unknown".to_owned(), |v| file_safe(&v))
            }
        }
    }
}

/// `value` with every character but ASCII letters, digits, `+`, `-` and `_` made `_` (dots
/// too, so that no name is hidden or `..`); `unknown` for an empty value or `?`.
fn file_safe(value: &str) -> String {
    let value = value.trim();
    if value.is_empty() || value == "?" {
        return "unknown".to_owned();
    }
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A visitor that gives the value of one tag and skips the movetext.
struct FindTag<'a> {
    name: &'a str,
    value: Option<String>,
}

impl Visitor for FindTag<'_> {
    type Tags = ();
    type Movetext = ();
    type Output = Option<String>;
    type Error = PgnError;

    fn begin_game(&mut self, _: Location) -> Flow<Self, ()> {
        self.value = None;
        ControlFlow::Continue(())
    }

    fn tag(&mut self, (): &mut (), name: &[u8], value: RawTag<'_>, _: Location) -> Flow<Self> {
        if self.value.is_none() && name == self.name.as_bytes() {
            self.value = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, ()> {
        ControlFlow::Break(Ok(self.value.take()))
    }

    fn end_game(&mut self, (): ()) -> Result<Option<String>, PgnError> {
        Ok(self.value.take())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_become_safe_file_names() {
        let mut by_player = Splitter::new(SplitBy::Tag("White".into()));
        for (game, part) in [
            ("[White \"Carlsen, Magnus\"]\n\n*\n", "Carlsen__Magnus"),
            ("[White \"../etc\"]\n\n*\n", "___etc"),
            ("[White \"?\"]\n\n*\n", "unknown"),
            ("[White \"\"]\n\n*\n", "unknown"),
            ("[White \"Ørjan\"]\n\n*\n", "_rjan"),
            ("1. e4 *\n", "unknown"),
        ] {
            assert_eq!(by_player.part(game), part, "{game}");
        }
    }
}
