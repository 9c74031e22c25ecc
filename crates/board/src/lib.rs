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
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for the small types (squares as names such as `"e4"`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

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
pub use role::{ByRole, Piece, Role};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};
