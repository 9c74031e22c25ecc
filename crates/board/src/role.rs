//! Piece kinds ([`Role`]), coloured pieces ([`Piece`]) and [`ByRole`].

use core::fmt;
use core::ops::{Index, IndexMut};
use core::str::FromStr;

use crate::Color;

/// A kind of piece, regardless of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, queen first (the order GUIs offer them).
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// `0` for a pawn up to `5` for a king.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with this index (see [`Role::index`]).
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Role> {
        match index {
            0 => Some(Role::Pawn),
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            5 => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase letter: `p`, `n`, `b`, `r`, `q`, `k`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter, as SAN writes pieces: `P`, `N`, `B`, `R`, `Q`, `K`.
    #[must_use]
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a role letter in either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The piece of this role and `color`.
    #[inline]
    #[must_use]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }

    /// The lowercase English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// The conventional value: pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0.
    #[must_use]
    pub const fn value(self) -> u32 {
        match self {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 0,
        }
    }
}

/// The English name: `pawn`, `knight`, ... (what `FromStr` reads back).
impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not a role: an English name (`knight`) or a letter (`n` or `N`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a piece kind: pawn, knight, bishop, rook, queen, king, or its letter")]
pub struct ParseRoleError;

/// Reads an English name in lowercase (`knight`, as `Display` writes) or a letter in either case
/// (`n`, `N`).
impl FromStr for Role {
    type Err = ParseRoleError;
    fn from_str(s: &str) -> Result<Role, ParseRoleError> {
        let mut chars = s.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Role::from_char(c).ok_or(ParseRoleError);
        }
        Role::ALL
            .into_iter()
            .find(|role| role.name() == s)
            .ok_or(ParseRoleError)
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for white, lowercase for black.
    #[must_use]
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter (uppercase white, lowercase black).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// `0..12`: white pieces by role, then black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }
}

/// The FEN letter: `N` for a white knight, `n` for a black one.
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The text was not a piece's FEN letter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a piece letter: PNBRQK for white, pnbrqk for black")]
pub struct ParsePieceError;

/// Reads one FEN letter, as `Display` writes it.
impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_char(c).ok_or(ParsePieceError),
            _ => Err(ParsePieceError),
        }
    }
}

crate::text_serde!(Piece, "a piece letter such as N or n");

/// One value for each role, indexed by [`Role`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByRole<T> {
    /// The pawns' value.
    pub pawn: T,
    /// The knights' value.
    pub knight: T,
    /// The bishops' value.
    pub bishop: T,
    /// The rooks' value.
    pub rook: T,
    /// The queens' value.
    pub queen: T,
    /// The kings' value.
    pub king: T,
}

impl<T> ByRole<T> {
    /// Builds the values by calling `f` for each role, pawn first.
    pub fn new_with(mut f: impl FnMut(Role) -> T) -> ByRole<T> {
        ByRole {
            pawn: f(Role::Pawn),
            knight: f(Role::Knight),
            bishop: f(Role::Bishop),
            rook: f(Role::Rook),
            queen: f(Role::Queen),
            king: f(Role::King),
        }
    }

    /// The value for `role`.
    #[inline]
    pub const fn get(&self, role: Role) -> &T {
        match role {
            Role::Pawn => &self.pawn,
            Role::Knight => &self.knight,
            Role::Bishop => &self.bishop,
            Role::Rook => &self.rook,
            Role::Queen => &self.queen,
            Role::King => &self.king,
        }
    }

    /// The value for `role`, mutably.
    #[inline]
    pub const fn get_mut(&mut self, role: Role) -> &mut T {
        match role {
            Role::Pawn => &mut self.pawn,
            Role::Knight => &mut self.knight,
            Role::Bishop => &mut self.bishop,
            Role::Rook => &mut self.rook,
            Role::Queen => &mut self.queen,
            Role::King => &mut self.king,
        }
    }

    /// Iterates over `(role, value)` pairs, pawn first.
    pub fn iter(&self) -> impl Iterator<Item = (Role, &T)> {
        Role::ALL
            .into_iter()
            .map(move |role| (role, self.get(role)))
    }
}

impl<T> Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, role: Role) -> &T {
        self.get(role)
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, role: Role) -> &mut T {
        self.get_mut(role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = role.of(color);
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
                assert_eq!(Role::from_index(role.index()), Some(role));
            }
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('N'), Some(Role::Knight.of(Color::White)));
        assert_eq!(Role::from_index(6), None);
    }

    #[test]
    fn text_forms_round_trip() {
        for role in Role::ALL {
            assert_eq!(role.to_string().parse(), Ok(role));
            assert_eq!(role.upper_char().to_string().parse(), Ok(role));
            for color in Color::ALL {
                let piece = role.of(color);
                assert_eq!(piece.to_string().parse(), Ok(piece));
            }
        }
        assert_eq!("Knight".parse::<Role>(), Err(ParseRoleError));
        assert_eq!("".parse::<Role>(), Err(ParseRoleError));
        assert_eq!("x".parse::<Role>(), Err(ParseRoleError));
        assert_eq!("NN".parse::<Piece>(), Err(ParsePieceError));
        assert_eq!("".parse::<Piece>(), Err(ParsePieceError));
        assert_eq!("é".parse::<Piece>(), Err(ParsePieceError));
    }

    #[test]
    fn by_role_indexes() {
        let mut values = ByRole::new_with(Role::value);
        values[Role::King] = 100;
        assert_eq!(
            values.iter().map(|(_, v)| *v).sum::<u32>(),
            1 + 3 + 3 + 5 + 9 + 100
        );
    }
}
