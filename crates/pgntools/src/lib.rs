//! PGN database tools: the library behind `caissa pgn select`, `stats` and `split`.
//!
//! This crate reads game collections (plain or compressed, [`input`]), selects games by their
//! tags with typed comparisons ([`filter`]) and by what happens on the board ([`GameFilter`]),
//! and writes them back as PGN, UCI move lists, or rows of an Arrow table and Parquet files
//! ([`table`]). It sits above `caissa-notation` (the PGN reader and
//! writer), `caissa-game` (endings) and `caissa-arbiter` (time controls), and below the command
//! line, which is its thin face; the Python package wraps it too.
//!
//! The core is pure: filters and game processing take values and give values. Only [`input`]
//! touches a reader, and it opens nothing: callers hand in what to read.
//!
//! ```
//! use caissa_pgntools::filter::Filter;
//!
//! let filter: Filter = "WhiteElo >= 2400 and Date >= 2024.05".parse()?;
//! let tags = [("WhiteElo", "2450"), ("Date", "2024.05.??")];
//! assert!(filter.matches(&tags[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod dedupe;
mod external_sort;
pub mod filter;
pub mod input;
pub mod material;
pub mod openings;
pub mod pattern;
mod pipeline;
pub mod sample;
mod select;
mod source;
pub mod split;
pub mod stats;
pub mod table;

pub use pipeline::{select, select_skipping};
pub use select::{
    BrokenGame, Ending, Feature, Format, GameFilter, InputGame, ParseNameError, SelectOptions,
    Selection, Strip, Warning, board_result,
};
