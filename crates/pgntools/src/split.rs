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

/// The longest name [`file_safe`] makes, in bytes, its hash aside: well within the 255 bytes a
/// file name may have.
const MAX_NAME: usize = 100;

/// `value` with every character but ASCII letters, digits, `+`, `-` and `_` made `_` (dots
/// too, so that no name is hidden or `..`), at most [`MAX_NAME`] of them; `unknown` for an
/// empty value or `?`. A value changed so gets a hash of the whole value after a `~`, so that
/// two values never share a file: `Иванов` and `Петров` become `______~` and two different
/// hashes. (Values that differ in case only, `B20` and `b20`, are two files, which a file system
/// that ignores case would make one.)
fn file_safe(value: &str) -> String {
    let value = value.trim();
    if value.is_empty() || value == "?" {
        return "unknown".to_owned();
    }
    let mut name: String = value
        .chars()
        .take(MAX_NAME)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name != value {
        // FNV-1a, 64 bits, its top half: stable from one run and build to the next.
        let hash = value.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        name.push_str(&format!("~{:08x}", hash >> 32));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_become_safe_file_names() {
        let mut by_player = Splitter::new(SplitBy::Tag("White".into()));
        for (value, part) in [
            (Some("Carlsen"), "Carlsen"),
            (Some("?"), "unknown"),
            (Some(""), "unknown"),
            (None, "unknown"),
        ] {
            assert_eq!(by_player.part(value), part, "{value:?}");
        }
        // Changed, a name keeps a hash of the value: values made alike stay apart.
        let changed = [
            "Carlsen, Magnus",
            "Carlsen  Magnus",
            "../etc",
            "Ørjan",
            "Иванов",
            "Петров",
        ];
        let parts: Vec<String> = changed.iter().map(|v| by_player.part(Some(v))).collect();
        for (part, start) in parts.iter().zip([
            "Carlsen__Magnus~",
            "Carlsen__Magnus~",
            "___etc~",
            "_rjan~",
            "______~",
            "______~",
        ]) {
            assert!(
                part.starts_with(start) && part.len() == start.len() + 8,
                "{part}"
            );
        }
        let mut distinct = parts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), parts.len(), "{parts:?}");
        // A long value makes a name of at most 100 characters and the hash.
        let long = by_player.part(Some(&"a".repeat(300)));
        assert_eq!(long.len(), 100 + 9);
        assert!(!long.contains('.') && !long.contains('/'));
    }
}
