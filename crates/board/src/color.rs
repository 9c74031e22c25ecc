//! The two sides, and [`ByColor`], a pair indexed by side.

use core::fmt;
use core::ops::{Index, IndexMut, Not};
use core::str::FromStr;

/// A side: white or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for white, `1` for black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Picks `white` or `black` by colour.
    #[inline]
    #[must_use]
    pub const fn fold<T: Copy>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The FEN letter for the side to move: `w` or `b`.
    #[must_use]
    pub const fn char(self) -> char {
        self.fold('w', 'b')
    }

    /// Parses `w` or `b`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The lowercase English name, `white` or `black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.fold("white", "black")
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not a colour name (`white`, `black`, `w` or `b`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a colour (white, black, w or b)")]
pub struct ParseColorError;

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError),
        }
    }
}

/// One value for each side, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds a pair by calling `f` for white, then black.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        let white = f(Color::White);
        ByColor {
            white,
            black: f(Color::Black),
        }
    }

    /// The value for `color`.
    #[inline]
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The value for `color`, mutably.
    #[inline]
    pub const fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }

    /// The pair with white and black exchanged.
    pub fn swap(self) -> ByColor<T> {
        ByColor {
            white: self.black,
            black: self.white,
        }
    }

    /// Iterates over `(colour, value)` pairs, white first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_print_and_negate() {
        assert_eq!(!Color::White, Color::Black);
        assert_eq!("b".parse::<Color>(), Ok(Color::Black));
        assert_eq!("white".parse::<Color>(), Ok(Color::White));
        assert_eq!("x".parse::<Color>(), Err(ParseColorError));
        assert_eq!(Color::Black.to_string(), "black");
        assert_eq!(Color::from_char('w'), Some(Color::White));
        assert_eq!(Color::from_char('W'), None);
    }

    #[test]
    fn by_color_indexes_and_swaps() {
        let mut pair = ByColor::new_with(|c| c.index());
        pair[Color::Black] += 10;
        assert_eq!(
            pair.swap(),
            ByColor {
                white: 11,
                black: 0
            }
        );
        assert_eq!(pair.map(|v| v * 2).black, 22);
    }
}
