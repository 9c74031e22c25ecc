//! `caissa.pgn.to_arrow`: the games of PGN files as a stream of Arrow record batches, handed to
//! Python through the Arrow PyCapsule interface (`__arrow_c_stream__`), which pyarrow, polars
//! and DuckDB read without a copy.
//!
//! The rows and their columns are caissa-pgntools' ([`caissa_pgntools::table`]: the Hugging
//! Face `Lichess/standard-chess-games` columns, and per-ply lists on request). A thread started
//! by [`to_arrow`] runs `caissa_pgntools::select` over the files, one after the other, each on
//! every core, and sends each full batch over a channel of one; the stream's reader takes them
//! in order. Memory stays bounded whatever the input: one batch being built, one waiting, and
//! select's own bounded queues. When the stream is dropped, read or not, the thread stops at
//! its next game; a panic in it ends the stream with an error, never as if the input had ended.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{ArrowError, SchemaRef};
use caissa_pgntools::input::decompress;
use caissa_pgntools::table::{Columns, TableBuilder};
use caissa_pgntools::{BrokenGame, Format, SelectOptions, Selection};
use core::ops::ControlFlow;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::pgn::{Choice, OneOrMany, threads_or_all};
use crate::shards::{Input, Place};

/// The games of PGN files that pass the filters of `caissa pgn select`, as an Arrow stream of
/// record batches in the columns of `caissa pgn select --format parquet`.
///
/// `paths` is a path or a list of paths, each plain or compressed (zstd, gzip, bzip2), read in
/// order, each on `threads` threads (1 to 256; default: every core); a `Shard` (see `shards`) can
/// stand for a path, and reads the games of its byte range. The columns are the Hugging Face
/// `Lichess/standard-chess-games` dataset's (`Event`, `Site`, `White`, `Black`, `Result`,
/// `WhiteTitle`, `BlackTitle`, `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff` as
/// int16, `UTCDate` as date32, `UTCTime` as time32, `ECO`, `Opening`, `Termination`, `TimeControl`,
/// `movetext`); `columns` adds per-ply lists: `'uci'`, `'clocks'` (`clock_ms`), `'evals'`
/// (`eval_cp`, `eval_mate`). `filter`, `ending`, `contains`, `min_plies`, `max_plies`, `position`,
/// `moves`, `invert` and `limit` choose the games as in `select`; `openings`
/// sets `ECO` and `Opening` from the opening table. A game that
/// cannot be read or replayed is skipped, or with `skip_errors=False` ends the stream with an
/// error naming its file, line and column (a shard's error, the file's line).
///
/// Returns an `ArrowStream`, read once: `pyarrow.table(stream)`,
/// `pyarrow.RecordBatchReader.from_stream(stream)` for a batch at a time, `polars.DataFrame
/// (stream)`, or DuckDB's `FROM stream`. Reading starts in Rust at once, on a thread of its
/// own, a batch ahead of the reader of the stream; it stops when the stream is dropped.
///
/// >>> import pathlib, tempfile, pyarrow
/// >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.pgn"
/// >>> pgn = '[WhiteElo "2500"]\n\n1. e4 e5 *\n\n[WhiteElo "1500"]\n\n1. d4 *\n'
/// >>> _ = path.write_text(pgn)
/// >>> table = pyarrow.table(caissa.pgn.to_arrow(path, "WhiteElo > 2000", columns=["uci"]))
/// >>> table.num_rows, table["WhiteElo"].to_pylist(), table["uci"].to_pylist()
/// (1, [2500], [['e2e4', 'e7e5']])
#[pyfunction]
#[pyo3(signature = (paths, filter = OneOrMany::default(), *, columns = OneOrMany::default(),
                    ending = None, contains = OneOrMany::default(), min_plies = None,
                    max_plies = None, position = None, moves = OneOrMany::default(),
                    invert = false, openings = false, limit = None, skip_errors = true,
                    threads = None))]
#[allow(clippy::too_many_arguments)]
fn to_arrow(
    py: Python<'_>,
    paths: OneOrMany<Input>,
    filter: OneOrMany<String>,
    columns: OneOrMany<String>,
    ending: Option<&str>,
    contains: OneOrMany<String>,
    min_plies: Option<u64>,
    max_plies: Option<u64>,
    position: Option<Bound<'_, PyAny>>,
    moves: OneOrMany<String>,
    invert: bool,
    openings: bool,
    limit: Option<u64>,
    skip_errors: bool,
    threads: Option<usize>,
) -> PyResult<ArrowStream> {
    let columns = if columns.0.is_empty() {
        Columns::default()
    } else {
        columns
            .0
            .join(",")
            .parse::<Columns>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?
    };
    let choice = Choice {
        filter,
        ending,
        contains,
        min_plies,
        max_plies,
        position,
        moves,
        openings,
        invert,
    };
    let options = choice.options(py, Format::Row(columns))?;
    let schema = TableBuilder::new(columns).schema();
    let threads = threads_or_all(threads)?;
    let (batches, receiver) = sync_channel(1);
    let dropped = Arc::new(AtomicBool::new(false));
    // A file that cannot be opened raises here; each is opened again when its turn comes, so
    // that many shards do not hold many files open.
    for input in &paths.0 {
        input.open_py()?;
    }
    let producer = Producer {
        files: paths.0,
        options,
        columns,
        threads,
        limit: limit.unwrap_or(u64::MAX),
        skip_errors,
        dropped: Arc::clone(&dropped),
    };
    std::thread::Builder::new()
        .name("caissa-to-arrow".into())
        .spawn(move || {
            if catch_unwind(AssertUnwindSafe(|| producer.run(&batches))).is_err() {
                // The stream may be gone already: nothing is left to tell.
                let _ = batches.send(Err(ArrowError::ExternalError(
                    "the thread reading the games failed (a bug in caissa)".into(),
                )));
            }
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok(ArrowStream {
        schema: SchemaRef::clone(&schema),
        reader: Mutex::new(Some(Batches {
            schema,
            receiver,
            dropped,
        })),
    })
}

/// What the thread of a stream reads, and how.
struct Producer {
    /// The files or shards.
    files: Vec<Input>,
    options: SelectOptions,
    columns: Columns,
    threads: usize,
    limit: u64,
    skip_errors: bool,
    /// Set when the stream's reader is dropped: nothing more is wanted.
    dropped: Arc<AtomicBool>,
}

/// Why a producer stopped before the end of its files.
enum Stop {
    /// `limit` rows sent, or the stream is gone: nothing more to do.
    Done,
    /// A broken game, with `skip_errors=False`.
    Broken(Box<BrokenGame>),
}

impl Producer {
    /// Reads every file, sending full batches, then the last one, then the error that stopped
    /// it, if any.
    fn run(self, batches: &SyncSender<Result<RecordBatch, ArrowError>>) {
        let mut table = TableBuilder::new(self.columns);
        let mut rows = 0;
        let mut failure = None;
        for input in &self.files {
            if rows >= self.limit {
                break;
            }
            let path = input.path();
            let mut stop = None;
            let mut place = Place::WHOLE;
            let read = input.open().and_then(|(bytes, at)| {
                place = at;
                decompress(bytes)
            });
            let read = read.and_then(|(plain, _)| {
                caissa_pgntools::select(plain, &self.options, self.threads, |game| {
                    if self.dropped.load(Ordering::Relaxed) {
                        stop = Some(Stop::Done);
                        return ControlFlow::Break(());
                    }
                    match game.selection {
                        Selection::Row(row) => {
                            table.push(&row);
                            rows += 1;
                            // A stream dropped unread takes no more batches.
                            let gone = table.is_full() && batches.send(Ok(table.finish())).is_err();
                            if gone || rows >= self.limit {
                                stop = Some(Stop::Done);
                            }
                        }
                        Selection::Broken(b) if !self.skip_errors => {
                            stop = Some(Stop::Broken(Box::new(b)));
                        }
                        // Texts and keys come only with the other formats, skipped games
                        // only when asked for.
                        Selection::Unmatched
                        | Selection::Broken(_)
                        | Selection::Matched(_)
                        | Selection::Key(_)
                        | Selection::Skipped => {}
                    }
                    match stop {
                        Some(_) => ControlFlow::Break(()),
                        None => ControlFlow::Continue(()),
                    }
                })
            });
            match (read, stop) {
                (Err(e), _) => {
                    failure = Some(ArrowError::IoError(format!("{}: {e}", path.display()), e));
                    break;
                }
                (Ok(()), Some(Stop::Broken(b))) => {
                    let at = b.error.location;
                    let message = match place.locate(at) {
                        Ok(at) => format!("{}:{at}: {}", path.display(), b.error.kind),
                        Err(e) => format!(
                            "{}: {} (the error's place in the file not found: {e})",
                            path.display(),
                            b.error.kind
                        ),
                    };
                    failure = Some(ArrowError::ParseError(message));
                    break;
                }
                (Ok(()), Some(Stop::Done)) => break,
                (Ok(()), None) => {}
            }
        }
        if !table.is_empty() && batches.send(Ok(table.finish())).is_err() {
            return;
        }
        if let Some(failure) = failure {
            // The stream may be gone already: nothing is left to tell.
            let _ = batches.send(Err(failure));
        }
    }
}

/// The reader side of a stream: batches as the producer sends them, in order, until it hangs
/// up.
struct Batches {
    schema: SchemaRef,
    receiver: Receiver<Result<RecordBatch, ArrowError>>,
    /// Tells the producer, when this is dropped, to stop.
    dropped: Arc<AtomicBool>,
}

impl Drop for Batches {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::Relaxed);
    }
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.receiver.recv().ok()
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        SchemaRef::clone(&self.schema)
    }
}

/// Record batches of games, read once through the Arrow PyCapsule interface
/// (`__arrow_c_stream__`): `pyarrow.table(stream)`, `pyarrow.RecordBatchReader.from_stream
/// (stream)`, `polars.DataFrame(stream)`, DuckDB's `FROM stream`. Its schema can be read any
/// time (`__arrow_c_schema__`, `pyarrow.schema(stream)`).
#[pyclass(module = "caissa.pgn", frozen)]
pub(crate) struct ArrowStream {
    schema: SchemaRef,
    reader: Mutex<Option<Batches>>,
}

#[pymethods]
impl ArrowStream {
    /// The schema, as an `arrow_schema` PyCapsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.schema.as_ref())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        PyCapsule::new_with_value(py, schema, c"arrow_schema")
    }

    /// The batches, as an `arrow_array_stream` PyCapsule; the stream can be taken once. A
    /// `requested_schema` is not applied: the batches come in their own schema, as the
    /// interface allows.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = self
            .reader
            .lock()
            .map_err(|_| PyOSError::new_err("the stream broke"))?
            .take()
            .ok_or_else(|| PyOSError::new_err("the stream has been read"))?;
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    fn __repr__(&self) -> String {
        let state = match self.reader.lock() {
            Ok(reader) if reader.is_some() => "unread",
            _ => "read",
        };
        format!("<caissa.pgn.ArrowStream ({state})>")
    }
}

/// Adds `to_arrow` and `ArrowStream` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(to_arrow, m)?)?;
    m.add_class::<ArrowStream>()?;
    Ok(())
}
