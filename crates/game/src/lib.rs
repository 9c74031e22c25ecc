//! Game state under the FIDE Laws of Chess (2023 text): the layer above single positions.
//!
//! This crate owns what depends on a game's history or ends it:
//!
//! - [`Game`]: a start position (standard, Chess960, or any [`Position`], e.g. read from FEN)
//!   and the moves played, with every position's repetition key; playing and taking back a move
//!   are O(1).
//! - Repetition in FIDE's "same position" sense (9.2.2): same side to move, same pieces on the
//!   same squares, same castling rights, same en passant possibility (counted only when a legal
//!   en passant capture exists). This is [`Position`]'s own equality and
//!   [`Position::zobrist_hash`]; keys are compared first and full positions confirm every
//!   match, so a key collision never makes a false repetition.
//! - Draw claims by the player having the move (9.2 threefold repetition, 9.3 fifty moves), both
//!   about the position on the board ([`Game::claims`]) and with a written, unplayed move
//!   ([`Game::claims_with`]), saying which claim and on what grounds ([`Claim`]).
//! - Automatic endings ([`Game::outcome`]): checkmate (5.1.1), stalemate (5.2.1), dead
//!   position (5.2.2, via [`dead`]), seventy-five moves (9.6.2), fivefold repetition (9.6.1).
//!   Every ending is an [`Outcome`]: result, reason, and article of the Laws.
//! - Dead positions and who can still win ([`dead::can_win`], [`dead::is_dead`]).
//! - Information for users that the Laws do not use: [`Material`] counts and values, and
//!   [`Game::perpetual_check`].
//!
//! It depends on `caissa-board` and `caissa-movegen` only; reading and writing notation (FEN,
//! SAN, PGN) is `caissa-notation`'s job, and clocks, touch-move, offers and penalties belong to
//! the arbitration layer, which builds on [`Outcome`] (hence [`GameResult::BothLose`],
//! [`GameResult::Cancelled`] and the arbiter's [`Reason`]s).
//!
//! [`Position`]: caissa_movegen::Position
//! [`Position::zobrist_hash`]: caissa_movegen::Position::zobrist_hash
//!
//! # Example
//!
//! ```
//! use caissa_board::Square;
//! use caissa_game::{Game, GameResult, Reason};
//! use caissa_movegen::Move;
//!
//! let mut game = Game::standard();
//! let knights = [
//!     Move::normal(Square::G1, Square::F3),
//!     Move::normal(Square::G8, Square::F6),
//!     Move::normal(Square::F3, Square::G1),
//!     Move::normal(Square::F6, Square::G8),
//! ];
//! for m in knights.iter().cycle().take(8) {
//!     game.play(*m)?;
//! }
//! // The start position stands for the third time: White may claim (9.2.1.2).
//! assert_eq!(game.repetitions(), 3);
//! let claim = game.claims().threefold.expect("threefold");
//! assert_eq!(claim.article.as_str(), "9.2.1.2");
//! assert_eq!(game.outcome(), None);
//!
//! // Eight more plies: the fifth time ends the game (9.6.1).
//! for m in knights.iter().cycle().take(8) {
//!     game.play(*m)?;
//! }
//! let outcome = game.outcome().expect("fivefold");
//! assert_eq!(outcome.result, GameResult::Draw);
//! assert_eq!(outcome.reason, Reason::FivefoldRepetition);
//! assert_eq!(outcome.article.as_str(), "9.6.1");
//!
//! // Taking back restores everything: the position after 8. Ng1 stood a fourth time.
//! game.undo();
//! assert_eq!(game.repetitions(), 4);
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), caissa_game::PlayError>(())
//! ```
//!
//! # One dependency is enough
//!
//! The board and move generator types this crate's signatures use are re-exported at its root,
//! so a program that depends on `caissa-game` alone can name them:
//!
//! ```
//! use caissa_game::{CastlingMode, Color, Game, Move, Piece, Position, Role, Setup, Square};
//!
//! let start = Position::from_setup(Setup::standard(), CastlingMode::Standard)?;
//! let mut game = Game::new(start);
//! game.play(Move::normal(Square::E2, Square::E4))?;
//! let pawn = Piece { color: Color::White, role: Role::Pawn };
//! assert_eq!(game.position().board().piece_at(Square::E4), Some(pawn));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Game`] (its start position as FEN, `chess960`,
//!   its moves in UCI: `{"start": "...", "chess960": false, "moves": ["e2e4"]}`; reading it
//!   replays the moves), [`Outcome`] (an object of the three), [`GameResult`]
//!   (`"1-0"`), [`Reason`] (its snake-case name, `"time_forfeit"`), [`Article`] (its number,
//!   `"9.6.1"`) and [`Material`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod claim;
pub mod dead;
mod game;
#[cfg(feature = "serde")]
mod game_serde;
mod material;
mod outcome;

// The lower layers' vocabulary this crate's signatures use, so that one dependency is enough.
pub use caissa_board::{
    Bitboard, Board, ByColor, ByRole, CastlingRights, CastlingSide, Color, File, ParseColorError,
    ParseSquareError, Piece, Rank, Role, Setup, Square,
};
pub use caissa_movegen::{
    CastlingMode, IllegalMoveError, Move, MoveList, Position, PositionError, SetupProblem,
};

pub use claim::{Claim, ClaimError, Claims, Ground};
pub use game::{Game, PerpetualCheck, PlayError};
pub use material::Material;
pub use outcome::{
    Article, GameResult, Outcome, ParseArticleError, ParseGameResultError, ParseOutcomeError,
    ParseReasonError, Reason,
};
