//! Shards: byte ranges of a PGN file at game boundaries (caissa-notation's `pgn::ranges`), for
//! Dask or Spark tasks that each read one. `caissa.pgn.shards` (in `python/caissa/pgn.py`)
//! makes `caissa.pgn.Shard`s from [`shard_ranges`]; `read_games`, `select` and `to_arrow`
//! take a shard where they take a path ([`Input`]), and report errors at the file's places,
//! not the shard's ([`Place`]).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Take};
use std::ops::Range;
use std::path::{Path, PathBuf};

use caissa::notation::pgn::{Location, line_at, ranges};
use caissa_pgntools::input::Compression;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// The byte ranges of the shards of the PGN file at `path`, each ending at the first game
/// boundary at or after `size` bytes from its start; one range for the whole file if it is
/// compressed, none if it is empty. `caissa.pgn.shards` makes them `Shard`s.
#[pyfunction]
#[pyo3(name = "_shard_ranges")]
fn shard_ranges(py: Python<'_>, path: PathBuf, size: usize) -> PyResult<Vec<(u64, u64)>> {
    if size == 0 {
        return Err(PyValueError::new_err("a shard's size is at least 1 byte"));
    }
    py.detach(|| -> io::Result<_> {
        let mut file = File::open(&path)?;
        let mut magic = Vec::new();
        (&mut file).take(4).read_to_end(&mut magic)?;
        if Compression::detect(&magic) != Compression::None {
            let len = file.seek(SeekFrom::End(0))?;
            return Ok(vec![(0, len)]);
        }
        ranges(file, size)?
            .map(|range| range.map(|r| (r.start, r.end)))
            .collect()
    })
    .map_err(|e| os_error(&path, &e))
}

/// An `OSError` naming the file.
pub(crate) fn os_error(path: &Path, e: &io::Error) -> PyErr {
    PyOSError::new_err(format!("{}: {e}", path.display()))
}

/// A `caissa.pgn.Shard`: bytes `range` of the file at `path`.
#[derive(Clone, Debug)]
pub(crate) struct Shard {
    path: PathBuf,
    range: Range<u64>,
}

impl Shard {
    /// `source` as a shard, if it is a `caissa.pgn.Shard`.
    fn from_py(source: &Bound<'_, PyAny>) -> PyResult<Option<Shard>> {
        static SHARD: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let class = SHARD.import(source.py(), "caissa.pgn", "Shard")?;
        if !source.is_instance(class)? {
            return Ok(None);
        }
        let (path, start, end): (PathBuf, u64, u64) = source.extract()?;
        if start > end {
            return Err(PyValueError::new_err(format!(
                "a shard ends after it starts, not at {end} before {start}"
            )));
        }
        Ok(Some(Shard {
            path,
            range: start..end,
        }))
    }
}

/// What `to_arrow` reads, and `read_games` and `select` besides file objects: a path, or a
/// shard of a file.
#[derive(Clone, Debug)]
pub(crate) enum Input {
    Path(PathBuf),
    Shard(Shard),
}

impl<'py> FromPyObject<'_, 'py> for Input {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Input> {
        match Shard::from_py(&ob)? {
            Some(shard) => Ok(Input::Shard(shard)),
            None => Ok(Input::Path(ob.extract()?)),
        }
    }
}

impl Input {
    /// The file.
    pub(crate) fn path(&self) -> &Path {
        match self {
            Input::Path(path) | Input::Shard(Shard { path, .. }) => path,
        }
    }

    /// The input's bytes: the file's, or the shard's range of them; and their place in the
    /// file.
    pub(crate) fn open(&self) -> io::Result<(Take<File>, Place)> {
        let mut file = File::open(self.path())?;
        Ok(match self {
            Input::Path(_) => (file.take(u64::MAX), Place::WHOLE),
            Input::Shard(shard) => {
                file.seek(SeekFrom::Start(shard.range.start))?;
                let place = Place {
                    shard: Some((shard.path.clone(), shard.range.start)),
                    first_line: None,
                };
                (file.take(shard.range.end - shard.range.start), place)
            }
        })
    }

    /// [`Input::open`], raising `OSError` with the file's name.
    pub(crate) fn open_py(&self) -> PyResult<(Take<File>, Place)> {
        self.open().map_err(|e| os_error(self.path(), &e))
    }
}

/// Where an input's bytes are in the file they come from: a whole file (or file object) at its
/// start; a shard at its start, on a line counted only when an error's place needs it.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    /// The shard's file and first byte; `None` for a whole input.
    shard: Option<(PathBuf, u64)>,
    /// The line the shard begins with, once counted.
    first_line: Option<u64>,
}

impl Place {
    /// The place of a whole input.
    pub(crate) const WHOLE: Place = Place {
        shard: None,
        first_line: None,
    };

    /// The file's line and column for the input's `at`. The first call for a shard counts the
    /// file's lines before it, reading the file up to there (at memory speed).
    pub(crate) fn locate(&mut self, at: Location) -> io::Result<Location> {
        let first = match (&self.shard, self.first_line) {
            (None, _) => 1,
            (Some(_), Some(first)) => first,
            (Some((path, start)), None) => {
                *self.first_line.insert(line_at(File::open(path)?, *start)?)
            }
        };
        // A shard begins a line: columns stay.
        Ok(Location {
            line: at.line + first - 1,
            ..at
        })
    }

    /// The file's byte offset for the input's `offset`.
    pub(crate) fn byte(&self, offset: u64) -> u64 {
        offset + self.shard.as_ref().map_or(0, |(_, start)| *start)
    }
}

/// Adds `_shard_ranges` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shard_ranges, m)?)?;
    Ok(())
}
