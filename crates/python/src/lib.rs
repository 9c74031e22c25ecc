//! `caissa` for Python: the native module `caissa._caissa` behind the Python package in
//! `python/caissa`.
//!
//! The module wraps the Rust crates and adds no chess of its own: every answer comes from
//! `caissa` (the facade over the layers). Its API follows python-chess where the semantics
//! match (`Board`, `Move`, `Piece`, square and piece constants), and its docs say where caissa
//! differs on purpose (dead positions, claims with a written move, legality checked on every
//! push).
//!
//! - `types`: colours, piece types, squares, `Move`, `Piece`.
//! - `squares`: `SquareSet`, the sets of squares the board's queries return.
//! - `board`: `Board` on a `caissa::Game`, and `Outcome`.
//! - `engine`: `UciEngine`, a UCI engine process (`caissa.engine`).
//! - `pgn`: `read_games`, the games of a PGN as Python objects, and `select` (`caissa.pgn`).
//! - `polyglot`: Polyglot opening books (`caissa.polyglot`).
//! - `table`: `to_arrow`, games as an Arrow stream (`caissa.pgn`).
//! - `shards`: byte ranges of a file at game boundaries for `caissa.pgn.shards`, and the
//!   paths or shards the PGN functions read, with their errors placed in the file.
//! - `arbiter`: `Arbiter`, fed with the events of `caissa arbitrate`'s logs, and `TimeControl`.
//! - `errors`: the exceptions, subclasses of `ValueError`, with the positions of the Rust
//!   errors as attributes.
//!
//! The crate builds only as the Python extension (`maturin`, see `pyproject.toml`); its tests
//! are the pytest suite in `tests/`, which `tests/it/main.rs` builds and runs under `cargo test`.

#![forbid(unsafe_code)]

mod arbiter;
mod board;
mod engine;
mod epd;
mod errors;
mod game;
mod pgn;
mod polyglot;
mod shards;
mod squares;
mod table;
mod types;

use pyo3::prelude::*;

/// The native part of the `caissa` package.
#[pymodule]
fn _caissa(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    types::register(m)?;
    m.add_class::<squares::SquareSet>()?;
    board::register(m)?;
    engine::register(m)?;
    pgn::register(m)?;
    polyglot::register(m)?;
    table::register(m)?;
    shards::register(m)?;
    arbiter::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
