//! Chess notation: how positions and moves are written.
//!
//! This crate owns every text format: [`fen`] (FEN, X-FEN and Shredder-FEN), [`uci`] (UCI moves
//! and long algebraic notation), [`san`] (standard algebraic notation, strict and lenient),
//! [`epd`] (extended position descriptions with operations), [`pgn`] (a streaming reader with
//! a visitor API, a game tree, and a writer), [`polyglot`] (opening books) and [`lines`]
//! (line-based input read with bounded memory), and [`parse_move`] reads a move written in either
//! SAN or UCI. It depends on
//! `caissa-board`, `caissa-movegen` and `caissa-game` (a PGN game tree becomes a [`Game`] and
//! back), and never panics on any input: every parser returns a typed error that says what is
//! wrong and where.
//!
//! ```
//! use caissa_notation::fen::Fen;
//! use caissa_movegen::CastlingMode;
//!
//! let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
//! let pos = fen.into_position(CastlingMode::Standard)?;
//! assert_eq!(pos.legal_moves().len(), 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # One dependency is enough
//!
//! The board and move generator types this crate's signatures use are re-exported at its root,
//! so a program that depends on `caissa-notation` alone can name them:
//!
//! ```
//! use caissa_notation::san::San;
//! use caissa_notation::{CastlingMode, Color, Move, Piece, Position, Role, Setup, Square};
//!
//! let pos = Position::from_setup(Setup::standard(), CastlingMode::Standard)?;
//! let m: Move = "Nf3".parse::<San>()?.to_move(&pos)?;
//! assert_eq!(m, Move::normal(Square::G1, Square::F3));
//! let knight = Piece { color: Color::White, role: Role::Knight };
//! assert_eq!(pos.play(m)?.board().piece_at(Square::F3), Some(knight));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod epd;
pub mod fen;
pub mod lines;
pub mod parse_move;
pub mod pgn;
pub mod polyglot;
pub mod san;
pub mod uci;

// The lower layers' vocabulary this crate's signatures use, so that one dependency is enough.
pub use caissa_board::{
    Bitboard, Board, ByColor, ByRole, CastlingRights, CastlingSide, Color, File, ParseColorError,
    ParseFileError, ParsePieceError, ParseRankError, ParseRoleError, ParseSquareError, Piece, Rank,
    Role, Setup, Square,
};
pub use caissa_game::{Game, GameResult};
pub use caissa_movegen::{
    CastlingMode, IllegalMoveError, Move, MoveList, Position, PositionError, SetupProblem,
};
