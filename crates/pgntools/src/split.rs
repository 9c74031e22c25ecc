//! `caissa pgn split`: which file each game goes to, by count or by the value of a tag.
//!
//! [`Splitter`] names the part of the file name for each game in turn: a number from `0001`
//! for each run of N games ([`SplitBy::Games`]), or the game's value of one tag made safe for
//! a file name ([`SplitBy::Tag`], e.g. `ECO`: `B20`). The command line opens the files.

use core::num::NonZeroU64;

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

    /// The file part for the next game, whose value of the tag split by is `tag_value`
    /// ([`SelectOptions::tag_value`](crate::SelectOptions::tag_value) hands it over).
    ///
    /// ```
    /// use caissa_pgntools::split::{SplitBy, Splitter};
    ///
    /// let mut by_two = Splitter::new(SplitBy::Games(2.try_into()?));
    /// let parts: Vec<_> = (0..3).map(|_| by_two.part(None)).collect();
    /// assert_eq!(parts, ["0001", "0001", "0002"]);
    ///
    /// let mut by_eco = Splitter::new(SplitBy::Tag("ECO".into()));
    /// assert_eq!(by_eco.part(Some("B20")), "B20");
    /// assert_eq!(by_eco.part(None), "unknown");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn part(&mut self, tag_value: Option<&str>) -> String {
        self.games += 1;
        match &self.by {
            SplitBy::Games(n) => format!("{:04}", (self.games - 1) / n.get() + 1),
            SplitBy::Tag(_) => tag_value.map_or_else(|| "unknown".to_owned(), file_safe),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_become_safe_file_names() {
        let mut by_player = Splitter::new(SplitBy::Tag("White".into()));
        for (value, part) in [
            (Some("Carlsen, Magnus"), "Carlsen__Magnus"),
            (Some("../etc"), "___etc"),
            (Some("?"), "unknown"),
            (Some(""), "unknown"),
            (Some("Ørjan"), "_rjan"),
            (None, "unknown"),
        ] {
            assert_eq!(by_player.part(value), part, "{value:?}");
        }
    }
}
