//! caissa-uci's integration tests.

mod client;
mod protocol;
