//! Shared helpers for caissa's cross-layer tests: locating the test data in `data/` at the
//! workspace root, reading perft suites, seeded random games ([`random`]), and the invariants the
//! fuzz targets check ([`fuzz_checks`], a module per target). The tests themselves live in
//! `tests/it/`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod fuzz_checks;
pub mod random;

use std::path::PathBuf;

use caissa_cli::perft_suite::SuiteReader;

/// The path of `relative` inside the workspace's `data/` folder.
#[must_use]
pub fn data_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(relative)
}

/// Reads a file of the workspace's `data/` folder.
///
/// # Panics
///
/// If the file cannot be read: the test data is part of the repository.
#[must_use]
pub fn read_data(relative: &str) -> String {
    let path = data_path(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The number in the environment variable `name` (decimal, or hex with `0x`; `_` separators
/// allowed), for tests whose size or seed can be raised from the command line.
///
/// # Panics
///
/// If the variable is set but is not such a number.
#[must_use]
pub fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16),
        None => text.replace('_', "").parse(),
    };
    Some(parsed.unwrap_or_else(|e| panic!("{name}={text}: {e}")))
}

/// One item in this many of the dead-position suites' inputs runs by default (in `cargo test`
/// and `cargo xtask ci`); [`dead_full`] runs them all.
pub const DEAD_SAMPLE_STRIDE: usize = 8;

/// Whether the dead-position suites (`tests/it/dead_*`) run in full: `CAISSA_DEAD_FULL` is set,
/// as `cargo xtask dead` sets it. Otherwise they run on [`dead_sample`]s and smaller hunts, a
/// few times faster, with the same checks.
#[must_use]
pub fn dead_full() -> bool {
    std::env::var_os("CAISSA_DEAD_FULL").is_some()
}

/// `items` for a dead-position suite: all of them under [`dead_full`], else every
/// [`DEAD_SAMPLE_STRIDE`]th from the first (the same sample on every run).
#[must_use]
pub fn dead_sample<T>(items: Vec<T>) -> Vec<T> {
    if dead_full() {
        return items;
    }
    items.into_iter().step_by(DEAD_SAMPLE_STRIDE).collect()
}

/// One line of a perft suite: a FEN and the known node counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs, in the order given.
    pub counts: Vec<(u32, u64)>,
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// The line number in the file, from 1.
    pub line: usize,
}

/// Parses a perft suite (the format of [`caissa_cli::perft_suite`], which `caissa perft
/// --suite` reads: `FEN ;D1 n ;D2 n … ;id "…"`, `#` lines are comments).
///
/// # Panics
///
/// On a line that cannot be read: suites are test data under our control.
#[must_use]
pub fn parse_perft_suite(text: &str) -> Vec<PerftCase> {
    SuiteReader::new(text.as_bytes())
        .map(|(line, read)| {
            let read = read.unwrap_or_else(|e| panic!("perft suite line {line}: {e}"));
            PerftCase {
                fen: read.fen,
                counts: read.counts,
                id: read.id,
                line,
            }
        })
        .collect()
}
