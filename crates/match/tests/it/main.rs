//! caissa-match's integration tests: games judged by the referee.

mod referee;
mod runner;
