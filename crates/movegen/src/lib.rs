//! Legal move generation for standard chess and Chess960.
//!
//! This crate owns what makes a position legal and what the legal moves are: the attack tables
//! ([`attacks`]), [`Move`] (two bytes, `Copy`) and [`MoveList`] (on the stack), [`Position`]
//! (validated from a [`Setup`](caissa_board::Setup), with checks, pins, make-move and Zobrist
//! keys), and [`perft`]. It depends only on `caissa-board`.
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
//! # Features
//!
//! - `serde`: serialisation for [`CastlingMode`] and the board types.

#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod attacks;
mod error;
#[allow(dead_code)]
mod geometry;
mod movegen;
mod moves;
mod perft;
mod position;
#[cfg(target_arch = "x86_64")]
mod simd;

pub use error::{IllegalMoveError, PositionError, SetupProblem};
pub use moves::{Move, MoveList};
pub use perft::{perft, perft_divide};
pub use position::{CastlingMode, Position};
