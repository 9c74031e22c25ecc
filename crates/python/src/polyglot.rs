//! Polyglot opening books for `caissa.polyglot`: `BookReader`, a book file read whole and
//! checked once, over caissa-notation's [`Book`], and its `BookEntry` rows. The python-chess
//! conveniences (`find`, `choice`, `weighted_choice`, the context manager) are in
//! `python/caissa/polyglot.py`.

use caissa::notation::polyglot::{Book, BookEntry as RustEntry};
use pyo3::exceptions::{PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::board::Board;
use crate::types::{Move, py_index};

/// One entry of a Polyglot book, as python-chess's `chess.polyglot.Entry`: the position's
/// `key`, the move as the book writes it (`raw_move`), its `weight` and `learn` value, and the
/// `move`: the board's legal move when the entry was found for a board (castling as the board
/// writes it), else the squares as the book names them (castling as the king onto its rook).
#[pyclass(module = "caissa", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct BookEntry {
    entry: RustEntry,
    mv: Move,
}

impl BookEntry {
    fn raw(entry: RustEntry) -> BookEntry {
        let (from, to, promotion) = entry.squares();
        BookEntry {
            entry,
            mv: Move {
                from,
                to,
                promotion,
            },
        }
    }
}

#[pymethods]
impl BookEntry {
    /// The Polyglot key of the position.
    #[getter]
    fn key(&self) -> u64 {
        self.entry.key
    }

    /// The move as the book encodes it.
    #[getter]
    fn raw_move(&self) -> u16 {
        self.entry.raw_move
    }

    /// The entry's weight.
    #[getter]
    fn weight(&self) -> u16 {
        self.entry.weight
    }

    /// The entry's learn value.
    #[getter]
    fn learn(&self) -> u32 {
        self.entry.learn
    }

    /// The move (see the class docs).
    #[getter]
    fn r#move(&self) -> Move {
        self.mv
    }

    fn __repr__(&self) -> String {
        format!(
            "Entry(key={:#018x}, raw_move={}, weight={}, learn={}, move=Move.from_uci('{}'))",
            self.entry.key,
            self.entry.raw_move,
            self.entry.weight,
            self.entry.learn,
            self.mv.uci_move()
        )
    }
}

/// A Polyglot opening book, read whole from `path` and checked (whole 16-byte entries, sorted
/// by key: `ValueError` otherwise, saying where). `caissa.polyglot.open_reader` wraps it with
/// python-chess's reader methods.
#[pyclass(module = "caissa", frozen)]
pub(crate) struct BookReader {
    book: Book<Vec<u8>>,
}

/// A board or a Polyglot key, as python-chess's readers take either.
#[derive(FromPyObject)]
enum BoardOrKey<'py> {
    Board(PyRef<'py, Board>),
    Key(u64),
}

#[pymethods]
impl BookReader {
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<BookReader> {
        let bytes = std::fs::read(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        let book = Book::new(bytes)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        Ok(BookReader { book })
    }

    fn __len__(&self) -> usize {
        self.book.len()
    }

    /// The entry at `index` (negative counts from the end).
    fn __getitem__(&self, index: isize) -> PyResult<BookEntry> {
        py_index(index, self.book.len())
            .and_then(|i| self.book.entry(i))
            .map(BookEntry::raw)
            .ok_or_else(|| PyIndexError::new_err("book index out of range"))
    }

    /// The entries of `board` (a `Board`, or a Polyglot key) with at least `minimum_weight`, in
    /// the book's order: for a board only those whose move is legal there.
    #[pyo3(signature = (board, *, minimum_weight = 1))]
    fn find_all(&self, board: BoardOrKey<'_>, minimum_weight: u16) -> PyResult<Vec<BookEntry>> {
        let book = &self.book;
        Ok(match board {
            BoardOrKey::Key(key) => book
                .entries_for(key)
                .filter(|e| e.weight >= minimum_weight)
                .map(BookEntry::raw)
                .collect(),
            BoardOrKey::Board(board) => {
                let pos = board.position()?;
                book.moves(pos)
                    .filter(|(_, e)| e.weight >= minimum_weight)
                    .map(|(m, entry)| BookEntry {
                        entry,
                        mv: Move::of(pos, m),
                    })
                    .collect()
            }
        })
    }
}

/// Adds `BookReader` and `BookEntry` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BookReader>()?;
    m.add_class::<BookEntry>()?;
    Ok(())
}
