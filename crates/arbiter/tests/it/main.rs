//! The integration tests of caissa-arbiter, in one binary (as ripgrep's are): each module is one
//! area of the Laws, `common` holds what they share.

mod clock;
mod common;
mod draws;
mod illegal;
#[cfg(feature = "serde")]
mod json;
mod properties;
#[cfg(feature = "serde")]
mod serde;
mod touch;
