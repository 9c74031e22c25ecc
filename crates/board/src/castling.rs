//! Castling rights that name the rook's file, so one type serves standard chess and Chess960.

use core::fmt;

use crate::{Color, File};

/// Which way a king castles: towards the `h` file or towards the `a` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
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
/// the move generator's `Position` checks them. Four bytes packed in a `u32` (one byte per colour
/// and side: 0 for no right, else the rook's file + 1), so comparing and testing for none are one
/// instruction each in make-move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    packed: u32,
}

/// Serialised as `[[white king side, white queen side], [black king side, black queen side]]`,
/// each a rook file or null.
#[cfg(feature = "serde")]
impl serde::Serialize for CastlingRights {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let by_side = |color| CastlingSide::ALL.map(|side| self.rook(color, side));
        serde::Serialize::serialize(&Color::ALL.map(by_side), serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for CastlingRights {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<CastlingRights, D::Error> {
        let files: [[Option<File>; 2]; 2] = serde::Deserialize::deserialize(deserializer)?;
        let mut rights = CastlingRights::NONE;
        for (color, sides) in Color::ALL.into_iter().zip(files) {
            for (side, file) in CastlingSide::ALL.into_iter().zip(sides) {
                rights.set(color, side, file);
            }
        }
        Ok(rights)
    }
}

/// The byte of `color`'s right on `side` in the packed form.
const fn shift(color: Color, side: CastlingSide) -> u32 {
    (color as u32 * 2 + side as u32) * 8
}

impl CastlingRights {
    /// No rights at all.
    pub const NONE: CastlingRights = CastlingRights { packed: 0 };

    /// All four rights with rooks on the `a` and `h` files, as in the standard start (`KQkq`).
    pub const STANDARD: CastlingRights = {
        let mut rights = CastlingRights::NONE;
        rights.set(Color::White, CastlingSide::KingSide, Some(File::H));
        rights.set(Color::White, CastlingSide::QueenSide, Some(File::A));
        rights.set(Color::Black, CastlingSide::KingSide, Some(File::H));
        rights.set(Color::Black, CastlingSide::QueenSide, Some(File::A));
        rights
    };

    /// The file of the rook that `color` may castle with on `side`, if it keeps that right.
    #[inline]
    #[must_use]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<File> {
        match (self.packed >> shift(color, side)) & 0xff {
            0 => None,
            byte => File::new(byte - 1),
        }
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
        (self.packed >> shift(color, CastlingSide::KingSide)) & 0xffff != 0
    }

    /// Whether no right is left to either side.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.packed == 0
    }

    /// Grants (`Some(file)`) or removes (`None`) `color`'s right on `side`.
    #[inline]
    pub const fn set(&mut self, color: Color, side: CastlingSide, rook: Option<File>) {
        let byte = match rook {
            Some(file) => file as u32 + 1,
            None => 0,
        };
        let shift = shift(color, side);
        self.packed = (self.packed & !(0xff << shift)) | byte << shift;
    }

    /// Removes both of `color`'s rights (its king moved).
    #[inline]
    pub const fn clear(&mut self, color: Color) {
        self.packed &= !(0xffff << shift(color, CastlingSide::KingSide));
    }

    /// Removes whichever of `color`'s rights uses the rook on `file` (that rook moved or was taken).
    #[inline]
    pub fn clear_rook(&mut self, color: Color, file: File) {
        for side in CastlingSide::ALL {
            if self.rook(color, side) == Some(file) {
                self.set(color, side, None);
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
