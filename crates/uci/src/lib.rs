//! The Universal Chess Interface, both ways: for engine authors and for programs that run
//! engines.
//!
//! This crate owns the UCI protocol. [`protocol`] holds the typed messages in both directions,
//! read and written exactly, with no IO; [`engine`] turns a GUI's commands into typed requests
//! for engine authors, with the game set up and the clock turned into a time budget; [`client`]
//! drives an engine process from the GUI side (the crate's only IO: a process and its pipes; it
//! reads no clock, the caller gives one), with [`clock`] turning the arbiter's clock into `go`.
//! It depends on the game and notation layers (games, UCI moves, FEN) and the arbiter (clocks,
//! for `go`).
//!
//! ```
//! use caissa_uci::protocol::{EngineMessage, GuiCommand, ScoreValue};
//!
//! let go = GuiCommand::parse("go wtime 300000 btime 300000 winc 2000 binc 2000")?.message;
//! let GuiCommand::Go(params) = &go else { unreachable!() };
//! assert_eq!(params.winc, Some(2000));
//! assert_eq!(go.to_string(), "go wtime 300000 btime 300000 winc 2000 binc 2000");
//!
//! let info = EngineMessage::parse("info depth 12 score cp -31 nodes 41000 pv e7e5 g1f3")?;
//! let EngineMessage::Info(info) = info.message else { unreachable!() };
//! assert_eq!(info.score.map(|s| s.value), Some(ScoreValue::Centipawns(-31)));
//! assert_eq!(info.pv.len(), 2);
//! # Ok::<(), caissa_uci::protocol::ParseUciLineError>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod client;
pub mod clock;
pub mod engine;
pub mod protocol;

/// The longest line read from a GUI or an engine; the rest of a longer line is skipped. UCI
/// lines are short: a long `info pv` or `option ... var ...` line stays far below this.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
