//! Perft workloads for benchmarking caissa side by side with its peers: cozy-chess, chess
//! (jordanbray) and shakmaty; PGN workloads against pgn-reader in [`pgn`].
//!
//! Shared by the criterion bench (`cargo bench -p caissa-benches`) and the `perft-table` binary
//! (`cargo run --release -p caissa-benches --bin perft-table`), which prints a Markdown table.
//! Every perft counts leaves in bulk: at depth 1 the legal moves are counted, not played.
//!
//! ```no_run
//! use caissa_benches::{Library, WORKLOADS};
//!
//! let workload = &WORKLOADS[0];
//! let pos = Library::Caissa.setup(workload.fen)?;
//! assert_eq!(pos.perft(workload.depth), workload.nodes);
//! # Ok::<(), caissa_benches::SetupError>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;

use caissa::notation::fen::Fen;

pub mod outcome;
pub mod peers;
pub mod pgn;

/// One perft run: a position, a depth and the known number of leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    /// A short name usable as a benchmark id (`startpos-d6`).
    pub id: &'static str,
    /// The position, as FEN.
    pub fen: &'static str,
    /// The perft depth.
    pub depth: u32,
    /// The known perft count.
    pub nodes: u64,
}

/// The benchmarked workloads: the start position to depth 6 and "kiwipete" (castling, en
/// passant, promotions and pins in one position) to depth 5.
pub const WORKLOADS: [Workload; 2] = [
    Workload {
        id: "startpos-d6",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        nodes: 119_060_324,
    },
    Workload {
        id: "kiwipete-d5",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        nodes: 193_690_690,
    },
];

/// A move generator under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Library {
    /// This project.
    Caissa,
    /// The `cozy-chess` crate.
    CozyChess,
    /// The `chess` crate (jordanbray).
    Chess,
    /// The `shakmaty` crate.
    Shakmaty,
}

impl Library {
    /// Every library, caissa first.
    pub const ALL: [Library; 4] = [
        Library::Caissa,
        Library::CozyChess,
        Library::Chess,
        Library::Shakmaty,
    ];

    /// The crate name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Library::Caissa => "caissa",
            Library::CozyChess => "cozy-chess",
            Library::Chess => "chess",
            Library::Shakmaty => "shakmaty",
        }
    }

    /// Reads `fen` into this library's position type, ready for [`Prepared::perft`].
    ///
    /// # Errors
    ///
    /// [`SetupError`] when the library rejects the FEN or the position it describes.
    pub fn setup(self, fen: &str) -> Result<Prepared, SetupError> {
        let error = |reason: String| SetupError {
            library: self,
            fen: fen.to_owned(),
            reason,
        };
        Ok(match self {
            Library::Caissa => Prepared::Caissa(
                Fen::from_ascii(fen.as_bytes())
                    .map_err(|e| error(e.to_string()))?
                    .into_position(caissa::movegen::CastlingMode::Standard)
                    .map_err(|e| error(e.to_string()))?,
            ),
            Library::CozyChess => Prepared::CozyChess(peers::cozy_chess_board(fen).map_err(error)?),
            Library::Chess => Prepared::Chess(peers::chess_board(fen).map_err(error)?),
            Library::Shakmaty => Prepared::Shakmaty(peers::shakmaty_position(fen).map_err(error)?),
        })
    }
}

impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position in one library's own type.
#[derive(Clone, Debug)]
pub enum Prepared {
    /// A caissa position.
    Caissa(caissa::Position),
    /// A cozy-chess board.
    CozyChess(cozy_chess::Board),
    /// A chess (jordanbray) board.
    Chess(chess::Board),
    /// A shakmaty position.
    Shakmaty(shakmaty::Chess),
}

impl Prepared {
    /// Perft to `depth` with the library's own move generator: [`caissa::perft`] or the
    /// implementations in [`peers`].
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            Prepared::Caissa(pos) => caissa::perft(pos, depth),
            Prepared::CozyChess(board) => peers::cozy_chess_perft(board, depth),
            Prepared::Chess(board) => peers::chess_perft(board, depth),
            Prepared::Shakmaty(pos) => peers::shakmaty_perft(pos, depth),
        }
    }
}

/// A library rejected a workload's FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{library} rejects the FEN {fen:?}: {reason}")]
pub struct SetupError {
    /// The library that rejected it.
    pub library: Library,
    /// The FEN.
    pub fen: String,
    /// The library's own message.
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every library agrees with the known counts at a shallow depth of each workload (the full
    /// depths are checked by the bench and the table before timing).
    #[test]
    fn shallow_counts() {
        let known = [[20, 400, 8_902], [48, 2_039, 97_862]];
        for (workload, counts) in WORKLOADS.iter().zip(known) {
            for library in Library::ALL {
                let pos = library.setup(workload.fen).unwrap();
                for (depth, count) in (1..).zip(counts) {
                    assert_eq!(pos.perft(depth), count, "{library} {} {depth}", workload.id);
                }
            }
        }
    }

    /// A side to move of `x` is rejected by all four. (Not every malformed FEN would do: the
    /// chess crate panics on a placement with too few ranks instead of returning an error.)
    #[test]
    fn bad_fen_is_reported() {
        for library in Library::ALL {
            let err = library
                .setup("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
                .unwrap_err();
            assert_eq!(err.library, library);
        }
    }
}
