//! Chess board primitives, the bottom layer of caissa.
//!
//! This crate owns the vocabulary every other layer speaks: [`Color`], [`Role`], [`Piece`],
//! [`File`], [`Rank`], [`Square`], [`Bitboard`] (a set of squares in a `u64`), [`ByColor`] and
//! [`ByRole`] (tables indexed by side and by piece kind), [`Board`] (a piece placement),
//! [`CastlingRights`] (by rook file, for standard chess and Chess960 alike), [`Setup`] (a position
//! as written down, unvalidated), its text form [`fen`] (FEN, X-FEN and Shredder-FEN: `Setup`
//! implements `FromStr` and `Display`) and the [`zobrist`] keys.
//!
//! It knows nothing of legality: a `Board` may hold nine kings. `caissa-movegen` validates a
//! `Setup` into a `Position` and generates moves. This crate depends on no other caissa crate.
//!
//! ```
//! use caissa_board::{Bitboard, Board, Color, Role, Square};
//!
//! let board = Board::standard();
//! assert_eq!(board.piece_at(Square::E1), Some(Role::King.of(Color::White)));
//! let white_pawns = board.by_piece(Role::Pawn.of(Color::White));
//! assert_eq!(white_pawns, Bitboard::from_rank(caissa_board::Rank::Second));
//! ```
//!
//! The crate is `no_std` and needs no allocator.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize`, in the snake_case names the `caissa` command's JSON
//!   uses: types with a text form as that text (`Square` as `"e4"`, `File` as `"e"`, `Rank` as
//!   `"4"`, `Piece` as its FEN letter `"N"`, `Setup` as its FEN), `Color` and `Role` as
//!   `"white"`, `"knight"`, `CastlingSide` as `"king_side"`, `CastlingRights` as rook files by
//!   colour and side, `Bitboard` as its `u64`.

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// `Serialize` as the `Display` text and `Deserialize` with `FromStr`, for a type with a text
/// form; `$what` names the text in errors.
#[cfg(feature = "serde")]
macro_rules! text_serde {
    ($type:ty, $what:literal) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$type, D::Error> {
                struct Text;
                impl serde::de::Visitor<'_> for Text {
                    type Value = $type;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$type, E> {
                        text.parse().map_err(E::custom)
                    }
                }
                deserializer.deserialize_str(Text)
            }
        }
    };
}
#[cfg(not(feature = "serde"))]
macro_rules! text_serde {
    ($type:ty, $what:literal) => {};
}
pub(crate) use text_serde;

mod bitboard;
mod board;
mod castling;
mod color;
pub mod fen;
mod role;
mod setup;
mod square;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use board::Board;
pub use castling::{CastlingRights, CastlingSide};
pub use color::{ByColor, Color, ParseColorError};
pub use fen::{FenField, ParseFenError, ParseFenErrorKind};
pub use role::{ByRole, ParsePieceError, ParseRoleError, Piece, Role};
pub use setup::Setup;
pub use square::{File, ParseFileError, ParseRankError, ParseSquareError, Rank, Square};

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::{
        Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role, Setup, Square,
    };

    fn round_trip<T>(value: T, json: &str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
    {
        assert_eq!(serde_json::to_string(&value).unwrap(), json);
        assert_eq!(serde_json::from_str::<T>(json).unwrap(), value);
    }

    #[test]
    fn text_forms_and_snake_case_names() {
        round_trip(Square::E4, r#""e4""#);
        round_trip(File::C, r#""c""#);
        round_trip(Rank::Seventh, r#""7""#);
        round_trip(Role::Knight.of(Color::Black), r#""n""#);
        round_trip(Color::White, r#""white""#);
        round_trip(Role::Queen, r#""queen""#);
        round_trip(CastlingSide::QueenSide, r#""queen_side""#);
        round_trip(Bitboard::from(Square::B1), "2");
        round_trip(CastlingRights::STANDARD, r#"[["h","a"],["h","a"]]"#);
        round_trip(
            Setup::standard(),
            r#""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1""#,
        );
        let chess960 = Setup::chess960(100).unwrap();
        let json = serde_json::to_string(&chess960).unwrap();
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), chess960);
        // Escaped text is read too, and bad text is an error that says why.
        assert_eq!(
            serde_json::from_str::<Square>(r#""\u0065\u0034""#).unwrap(),
            Square::E4
        );
        let error = serde_json::from_str::<Setup>(r#""8/8 w""#).unwrap_err();
        assert!(error.to_string().contains("invalid FEN"), "{error}");
        assert!(serde_json::from_str::<Piece>("3").is_err());
    }
}
