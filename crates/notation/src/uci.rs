//! UCI move text: re-exported from `caissa-movegen` ([`caissa_movegen::uci`]), where it now
//! lives as the text form of a `Move`, in both castling conventions. This module keeps the 0.1
//! paths working.

pub use caissa_movegen::uci::{ParseUciError, ParseUciErrorKind, UciError, UciMove};
