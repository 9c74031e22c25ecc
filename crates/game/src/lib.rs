//! Game state under the FIDE Laws of Chess (being written).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod dead;
