//! Castling rights that name the rook's file, so one type serves standard chess and Chess960.

use core::fmt;

use crate::{Color, File};

/// Which way a king castles: towards the `h` file or towards the `a` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum CastlingSide {
    /// Towards the `h` file: `O-O`, the king ends on `g`, the rook on `f`.
    KingSide = 0,
    /// Towards the `a` file: `O-O-O`, the king ends on `c`, the rook on `d`.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king ends on: `g` or `c`.
    #[must_use]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on: `f` or `d`.
    #[must_use]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The rook's file in the standard start position: `h` or `a`.
    #[must_use]
    pub const fn standard_rook_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }

    /// `O-O` or `O-O-O`.
    #[must_use]
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }

    /// The side a rook on `rook` is on, seen from a king on `king`; `None` if they share a file.
    #[must_use]
    pub const fn from_files(king: File, rook: File) -> Option<CastlingSide> {
        if (rook as u8) > (king as u8) {
            Some(CastlingSide::KingSide)
        } else if (rook as u8) < (king as u8) {
            Some(CastlingSide::QueenSide)
        } else {
            None
        }
    }
}

/// Which castlings each side keeps, each named by the file of the rook it castles with.
///
/// Nothing here says the king and rook are still in place: `Setup` holds rights as written, and
/// the move generator's `Position` checks them. Four bytes, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastlingRights {
    // [color][side]
    rooks: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No rights at all.
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// All four rights with rooks on the `a` and `h` files, as in the standard start (`KQkq`).
    pub const STANDARD: CastlingRights = CastlingRights {
        rooks: [[Some(File::H), Some(File::A)]; 2],
    };

    /// The file of the rook that `color` may castle with on `side`, if it keeps that right.
    #[inline]
    #[must_use]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// Whether `color` keeps the right to castle on `side`.
    #[inline]
    #[must_use]
    pub const fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rook(color, side).is_some()
    }

    /// Whether `color` keeps any right.
    #[inline]
    #[must_use]
    pub const fn has_any(&self, color: Color) -> bool {
        self.has(color, CastlingSide::KingSide) || self.has(color, CastlingSide::QueenSide)
    }

    /// Whether no right is left to either side.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        !self.has_any(Color::White) && !self.has_any(Color::Black)
    }

    /// Grants (`Some(file)`) or removes (`None`) `color`'s right on `side`.
    #[inline]
    pub const fn set(&mut self, color: Color, side: CastlingSide, rook: Option<File>) {
        self.rooks[color as usize][side as usize] = rook;
    }

    /// Removes both of `color`'s rights (its king moved).
    #[inline]
    pub const fn clear(&mut self, color: Color) {
        self.rooks[color as usize] = [None; 2];
    }

    /// Removes whichever of `color`'s rights uses the rook on `file` (that rook moved or was taken).
    #[inline]
    pub fn clear_rook(&mut self, color: Color, file: File) {
        for slot in &mut self.rooks[color as usize] {
            if *slot == Some(file) {
                *slot = None;
            }
        }
    }

    /// Every right kept, as `(colour, side, rook file)`: white first, king side first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastlingSide, File)> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            CastlingSide::ALL
                .into_iter()
                .filter_map(move |side| self.rook(color, side).map(|file| (color, side, file)))
        })
    }
}

impl fmt::Debug for CastlingRights {
    /// Shredder-FEN style: rook files, white's in capitals, `-` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("CastlingRights(-)");
        }
        f.write_str("CastlingRights(")?;
        for (color, _, file) in self.iter() {
            let c = color.fold(file.upper_char(), file.char());
            write!(f, "{c}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_are_kept_per_rook_file() {
        let mut rights = CastlingRights::STANDARD;
        assert_eq!(format!("{rights:?}"), "CastlingRights(HAha)");
        rights.clear_rook(Color::White, File::H);
        assert!(!rights.has(Color::White, CastlingSide::KingSide));
        assert!(rights.has(Color::White, CastlingSide::QueenSide));
        rights.clear(Color::Black);
        assert!(!rights.has_any(Color::Black));
        assert_eq!(rights.iter().count(), 1);
        rights.set(Color::White, CastlingSide::QueenSide, None);
        assert!(rights.is_empty());
        assert_eq!(format!("{rights:?}"), "CastlingRights(-)");
        assert_eq!(
            CastlingSide::from_files(File::B, File::A),
            Some(CastlingSide::QueenSide)
        );
        assert_eq!(CastlingSide::from_files(File::B, File::B), None);
    }
}
