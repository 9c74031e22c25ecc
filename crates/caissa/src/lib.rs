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
//! | `pgntools` (feature `pgntools`) | `caissa-pgntools` | PGN collections: filters, rewriting, exports to UCI, FEN, NDJSON, CSV and Parquet, duplicates, openings |
//!
//! The most used types are re-exported at the top level.
//!
//! With the `pgntools` feature, `caissa::pgntools` reads, selects and rewrites game collections
//! (what `caissa pgn select` runs):
//!
//! ```
//! # #[cfg(feature = "pgntools")] {
//! use core::ops::ControlFlow;
//! use caissa::pgntools::{SelectOptions, Selection, select};
//!
//! let pgn = "[WhiteElo \"2500\"]\n\n1. e2e4 e5 *\n\n[WhiteElo \"1500\"]\n\n1. d4 *\n";
//! let options = SelectOptions { filter: "WhiteElo >= 2000".parse()?, ..SelectOptions::default() };
//! let mut written = Vec::new();
//! select(pgn.as_bytes(), &options, 1, |game| {
//!     if let Selection::Matched(text) = game.selection {
//!         written.push(text);
//!     }
//!     ControlFlow::Continue(())
//! })?;
//! assert_eq!(written.len(), 1);
//! assert!(written[0].contains("1. e4 e5 *"));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
#[cfg(feature = "pgntools")]
#[cfg_attr(docsrs, doc(cfg(feature = "pgntools")))]
pub use caissa_pgntools as pgntools;
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
