//! The FIDE Laws of Chess in one dependency.
//!
//! A facade over the layered crates, so users can depend on one crate:
//!
//! | module | crate | holds |
//! |---|---|---|
//! | [`board`] | `caissa-board` | colours, roles, squares, bitboards, placements, castling rights, setups, Zobrist keys |
//! | [`movegen`] | `caissa-movegen` | attack tables, moves, legal move generation, positions, perft |
//! | [`notation`] | `caissa-notation` | FEN/EPD, SAN, UCI/LAN, PGN |
//! | [`game`] | `caissa-game` | game history, repetition, draw claims, outcomes, dead positions |
//! | [`arbiter`] | `caissa-arbiter` | time controls, clocks, the arbiter (Articles 4, 6, 7, 9), ratings |
//! | [`uci`] | `caissa-uci` | the UCI protocol: messages both ways, an engine-side loop |
//! | [`engine_match`] | `caissa-match` | engine matches judged by the arbiter: pairings, openings, adjudication, SPRT |
//!
//! The most used types are re-exported at the top level.
//!
//! ```
//! use caissa::{Position, perft};
//!
//! let start = Position::standard();
//! assert_eq!(perft(&start, 3), 8_902);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use caissa_arbiter as arbiter;
pub use caissa_board as board;
pub use caissa_game as game;
pub use caissa_match as engine_match;
pub use caissa_movegen as movegen;
pub use caissa_notation as notation;
pub use caissa_uci as uci;

pub use caissa_board::{
    Bitboard, Board, ByColor, ByRole, CastlingRights, CastlingSide, Color, File, Piece, Rank, Role,
    Setup, Square,
};
pub use caissa_game::{Game, GameResult, Outcome, Reason};
pub use caissa_movegen::{CastlingMode, Move, MoveList, Position, PositionError, perft};
pub use caissa_notation::fen::Fen;
pub use caissa_notation::san::{San, SanPlus};
pub use caissa_notation::uci::UciMove;
