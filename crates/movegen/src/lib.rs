//! Legal move generation for standard chess and Chess960.
//!
//! This crate owns what makes a position legal and what the legal moves are: the attack tables
//! ([`attacks`]), [`Move`] (two bytes, `Copy`) and [`MoveList`] (on the stack), [`Position`]
//! (validated from a [`Setup`], with checks, pins, make-move and Zobrist
//! keys), [`Position::moves_to`] (the legal moves of one kind of piece onto one square: what a
//! SAN names), [`perft`], and the text forms an engine needs: [`fen`] (FEN into a `Position` and
//! back; the syntax itself is `caissa-board`'s, as the text form of a `Setup`) and [`uci`] (UCI
//! move text in both castling conventions). It depends only on `caissa-board`.
//!
//! Three ways to apply a move:
//! - [`Position::is_legal`] answers whether a move is legal here;
//! - [`Position::play`] checks, and returns an error instead of a broken position;
//! - [`Position::play_unchecked`] trusts the caller, for move generators and search.
//!
//! ```
//! use caissa_movegen::{Position, perft};
//!
//! let pos = Position::standard();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 4), 197_281);
//! ```
//!
//! Nothing here allocates on the heap while generating or playing moves.
//!
//! # One dependency is enough
//!
//! The board types this crate's signatures use are re-exported at its root, so a program that
//! depends on `caissa-movegen` alone can name them:
//!
//! ```
//! use caissa_movegen::{
//!     Bitboard, CastlingMode, Color, Move, Piece, Position, Role, Setup, Square,
//! };
//!
//! let pos = Position::from_setup(Setup::standard(), CastlingMode::Standard)?;
//! let white_king = Piece { color: Color::White, role: Role::King };
//! assert_eq!(pos.board().piece_at(Square::E1), Some(white_king));
//! assert_eq!(pos.checkers(), Bitboard::EMPTY);
//! assert!(pos.is_legal(Move::normal(Square::G1, Square::F3)));
//! # Ok::<(), caissa_movegen::PositionError>(())
//! ```
//!
//! # Features
//!
//! - `std` (default): run-time detection of `POPCNT` for [`perft`], and [`Fen::append_to`].
//!   Without it the crate is `no_std` and needs no allocator: nothing here allocates.
//! - `serde`: `Serialize`/`Deserialize` in snake_case names, each type with a text form as that
//!   text: `Position` and `Fen` as FEN, `UciMove` as UCI; `Move` is written as UCI (castling as
//!   king takes rook) and read back as a `UciMove` in its position (castling named by rook files reads
//!   as a Chess960 position, so the mode survives a round trip while a right is left); `CastlingMode` as `"standard"`, `"chess960"`.

#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod attacks;
mod error;
pub mod fen;
#[allow(dead_code)]
mod geometry;
mod movegen;
mod moves;
mod moves_to;
mod perft;
mod position;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(test)]
mod testing;
pub mod uci;

// The board vocabulary this crate's signatures use, so that one dependency is enough.
pub use caissa_board::{
    Bitboard, Board, ByColor, ByRole, CastlingRights, CastlingSide, Color, FenField, File,
    ParseColorError, ParseFenError, ParseFenErrorKind, ParseFileError, ParsePieceError,
    ParseRankError, ParseRoleError, ParseSquareError, Piece, Rank, Role, Setup, Square,
};

pub use error::{IllegalMoveError, PositionError, SetupProblem};
pub use fen::{EnPassantMode, Fen, ParsePositionError};
pub use moves::{Move, MoveList, MoveListIntoIter};
pub use moves_to::{Candidates, MovesTo};
pub use perft::{perft, perft_divide};
pub use position::{BuildZobristHasher, CastlingMode, Dropped, Position, ZobristHasher};
pub use uci::{ParseUciError, ParseUciErrorKind, UciError, UciMove};
