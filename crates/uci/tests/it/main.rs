//! caissa-uci's integration tests.

mod protocol;
