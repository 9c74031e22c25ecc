//! Engine matches judged by the Laws of Chess.
//!
//! This crate owns engine tournaments: [`schedule`] (round robin or gauntlet, games per
//! opening with colours swapped), [`openings`] (EPD or PGN books, in order or seeded random,
//! with a ply limit), [`referee`] (one game on the arbiter: the Laws' endings, claims made for
//! the engines, forfeits, adjudication, the PGN with clocks and evaluations), [`stats`] (wins,
//! draws, losses, Elo with its interval, LOS, pentanomial pairs) and [`sprt`] (the sequential
//! test that stops a match). These are pure: no IO, no clock. [`runner`] is the IO edge: it
//! plays games between engine processes through [`caissa_uci::client`], timed by a clock the
//! caller gives, and a whole match on worker threads.
//!
//! It depends on the arbiter (clocks, verdicts), notation (books, PGN) and caissa-uci (the
//! engines).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod openings;
pub mod referee;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod stats;
