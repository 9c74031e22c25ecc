//! Clocks, time controls, arbitration and ratings: the top layer of the Laws.
//!
//! This crate owns time and the arbiter's procedures: [`time_control`] (periods, increments,
//! delays, the PGN `TimeControl` tag), [`clock`] (Article 6 accounting in integer milliseconds),
//! the arbiter ([`Arbiter`], [`replay`]: Articles 4, 5, 6, 7 and 9 applied to a log of
//! [`events`] under configurable [`rules`], with a [`Verdict`] and the game's PGN) and
//! [`rating`] (FIDE Elo and a club points scheme). It depends on every layer below: the game
//! layer decides positions, repetitions, claims and automatic endings; the notation layer reads
//! moves and writes the record.
//!
//! **The arbiter never reads a clock**: every event carries its time, so the same event log
//! always gives the same result.
//!
//! ```
//! use caissa_arbiter::{Event, EventKind, Rules, Start, TimeControl, Bonus, replay};
//! use caissa_board::Color::{Black, White};
//! use caissa_game::{GameResult, Reason};
//!
//! let mv = |t, by, text: &str| {
//!     Event::new(t, EventKind::Move { by, mv: text.parse().expect("SAN"), two_hands: false })
//! };
//! let start = Start {
//!     time_control: Some(TimeControl::simple(300_000, Bonus::Fischer(3_000))),
//!     rules: Rules::fide_blitz(),
//!     ..Start::default()
//! };
//! let verdict = replay(&[
//!     Event::new(0, EventKind::Start(start)),
//!     mv(2_000, White, "f3"),
//!     mv(5_000, Black, "e5"),
//!     mv(9_000, White, "g4"),
//!     mv(10_000, Black, "Qh4#"),
//! ])?;
//! let outcome = verdict.outcome.expect("checkmate");
//! assert_eq!((outcome.result, outcome.reason), (GameResult::BlackWins, Reason::Checkmate));
//! assert_eq!(outcome.article.as_str(), "5.1.1");
//! // Each move's comment has the mover's clock after it; a mate needs no press, so it earns
//! // no increment (Black: 300 s - 3 s + 3 s - 1 s).
//! assert!(verdict.pgn.contains("Qh4# { [%clk 0:04:59] } 0-1"));
//! # Ok::<(), caissa_arbiter::ReplayError>(())
//! ```
//!
//! A whole game-server round (a clocked game, a refused and a correct threefold claim, a flag
//! that falls by [`Arbiter::tick`]) is the program `examples/game-server` of the repository.
//!
//! # One dependency is enough
//!
//! The lower layers' types this crate's signatures use are re-exported at its root, so a program
//! that depends on `caissa-arbiter` alone can name them:
//!
//! ```
//! use caissa_arbiter::{
//!     Bitboard, CastlingMode, Color, Game, Move, Piece, Position, Role, SanPlus, Setup, Square,
//!     UciMove,
//! };
//!
//! let pos = Position::from_setup(Setup::standard(), CastlingMode::Standard)?;
//! let written: SanPlus = "Nf3".parse()?;
//! let m: Move = written.san.to_move(&pos)?;
//! assert_eq!(Ok(m), "g1f3".parse::<UciMove>()?.to_move(&pos));
//! let black_king = Piece { color: Color::Black, role: Role::King };
//! assert_eq!(pos.board().by_piece(black_king), Bitboard::from(Square::E8));
//! assert_eq!(Game::new(pos).outcome(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Event`] (exactly a line of the JSON-lines log,
//!   see [`json`]), [`TimeControl`] and its parts, [`Rules`] (its text), [`Clock`] (its state)
//!   and [`MoveText`]; `Serialize` for the [`Verdict`] and its parts; and [`json`]: the event
//!   log read and replayed as JSON lines, and the verdict as `caissa arbitrate` prints it. The
//!   lower layers' serde comes with it ([`Game`], [`GameResult`], [`Outcome`], ...).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod arbiter;
pub mod articles;
pub mod clock;
pub mod events;
mod illegal;
#[cfg(feature = "serde")]
pub mod json;
mod offers;
pub mod rating;
mod record;
pub mod rules;
pub mod time_control;
mod touch;
mod verdict;

// The lower layers' vocabulary this crate's signatures use, so that one dependency is enough.
pub use caissa_board::{
    Bitboard, Board, ByColor, ByRole, CastlingRights, CastlingSide, Color, File, ParseColorError,
    ParseSquareError, Piece, Rank, Role, Setup, Square,
};
pub use caissa_game::dead::Winnability;
pub use caissa_game::{
    Article, Game, GameResult, Outcome, ParseGameResultError, ParseOutcomeError, ParseReasonError,
    Reason,
};
pub use caissa_movegen::{
    CastlingMode, IllegalMoveError, Move, MoveList, Position, PositionError, SetupProblem,
};
pub use caissa_notation::fen::{EnPassantMode, Fen};
pub use caissa_notation::san::{San, SanPlus};
pub use caissa_notation::uci::UciMove;

pub use arbiter::{Arbiter, EventError, ReplayError, replay};
pub use clock::{Clock, Press, TimeAward, TimeWentBackwards};
pub use events::{
    ArbiterAction, ClaimKind, Event, EventKind, MoveText, ParseMoveTextError, Presses, Start,
};
pub use rules::{
    FlagPolicy, IllegalMoves, ParseRulesError, ParseRulesErrorKind, Profile, Rules, TouchMove,
};
pub use time_control::{
    Bonus, ParseTimeControlError, ParseTimeControlErrorKind, Period, PeriodTrigger, PgnTimeControl,
    Speed, TimeControl, TimeControlError,
};
pub use touch::Obligation;
pub use verdict::{Decision, Note, Penalty, Ruling, Verdict};

/// The largest time, in milliseconds, the arbiter accepts anywhere (event times, periods,
/// bonuses, penalties, time added): about 31.7 years. It keeps every sum of times far from
/// overflowing.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
