//! The UCI messages in both directions, read from and written to lines of text, with no IO.
//!
//! [`GuiCommand`] is what a GUI sends (`uci`, `position`, `go`, ...), [`EngineMessage`] what an
//! engine answers (`id`, `option`, `info`, `bestmove`, ...). Each has a `parse` that reads one line
//! and a `Display` that writes one (without the line end); writing and reading again gives the
//! same value.
//!
//! # How lenient the parsers are
//!
//! - Tokens are separated by any ASCII whitespace; a trailing `\r` is whitespace.
//! - Unknown tokens are skipped, as the protocol asks, and kept in [`Parsed::ignored`]: before
//!   the command (`joho debug on` is `debug on`), between fields of `go`, `info` and `option`,
//!   and after a command that takes no arguments.
//! - Free text keeps its inner spacing: option names and values, `id` strings, `info string`
//!   (the rest of the line), `register` names and codes.
//! - `pv`, `refutation`, `currline` and `searchmoves` take moves for as long as the tokens read
//!   as UCI moves; `position ... moves` requires every token after `moves` to be a move.
//! - `bestmove (none)` (no legal move) and `ponder (none)` are accepted; `0000` is the null move.
//! - `go` accepts negative `wtime` and `btime`, which some GUIs send after a time overrun.
//! - An option's `default` is kept as written (`<empty>` stays `<empty>`); spin values must be
//!   integers, check values `true` or `false`.
//!
//! Every error is a [`ParseUciLineError`] with the token index and byte offset of the problem.

mod engine;
mod gui;
mod tokens;

pub use engine::{
    CheckStatus, CurrLine, EngineMessage, EngineScore, Info, ScoreBound, ScoreValue, UciOption,
    UciOptionKind,
};
pub use gui::{Go, GuiCommand, Register, SetPosition};
pub use tokens::{IgnoredToken, ParseUciLineError, ParseUciLineErrorKind, Parsed};
