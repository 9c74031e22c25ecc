//! FEN, X-FEN and Shredder-FEN: re-exported from the lower layers, where they now live.
//!
//! FEN is the text form of a [`Setup`](caissa_board::Setup): `caissa-board` reads and writes it
//! (`Setup` implements `FromStr` and `Display`; the syntax, its leniency and its errors are
//! documented in [`caissa_board::fen`]). [`Fen`] and [`EnPassantMode`], which join the text to a
//! legal `Position`, are `caissa-movegen`'s ([`caissa_movegen::fen`]). This module keeps the
//! 0.1 paths working.

pub use caissa_board::fen::{FenField, ParseFenError, ParseFenErrorKind};
pub use caissa_movegen::fen::{EnPassantMode, Fen, ParsePositionError};
