//! Clocks, time controls, arbitration and ratings: the top layer of the Laws.
//!
//! This crate owns time and the arbiter's procedures: [`time_control`] (periods, increments,
//! delays, the PGN `TimeControl` tag), [`clock`] (Article 6 accounting in integer milliseconds)
//! and [`rating`] (FIDE Elo and a club points scheme). It depends on every layer below.
//!
//! **The arbiter never reads a clock**: every event carries its time, so the same event log
//! always gives the same result.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod clock;
pub mod rating;
pub mod time_control;

pub use clock::{Clock, Press, TimeWentBackwards};
pub use time_control::{
    Bonus, ParseTimeControlError, Period, PeriodTrigger, PgnTimeControl, Speed, TimeControl,
    TimeControlError,
};
