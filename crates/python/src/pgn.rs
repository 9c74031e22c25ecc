//! `caissa.pgn`: games read from PGN by caissa-notation's streaming reader, the GIL released
//! while Rust reads and replays.
//!
//! [`select`] runs `caissa pgn select`'s filters and exports (caissa-pgntools) on every core.
//!
//! [`read_games`] opens a path or a shard (read in Rust) or wraps a Python file object (binary
//! or text, read in chunks through its `read` method) and returns a [`GameReader`], an iterator of
//! [`PgnGame`]s. Each game is read into a `GameTree` and every line of it replayed before it is
//! handed over; what Python sees of it (headers, moves, SAN, comments, clocks, evaluations,
//! boards) is made when asked for.

use std::ffi::CString;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

use caissa::notation::fen::Fen;
use caissa::notation::pgn::commands::{Command, Commands, Score};
use caissa::notation::pgn::{
    Flow, GameTree, GameTreeBuilder, Location, MAX_THREADS, Node, PgnError, RawTag, Reader,
    SEVEN_TAG_ROSTER, Tolerated, TreeReplayError, Visitor,
};
use caissa::notation::san::{San, SanPlus};
use caissa_pgntools::filter::{Filter, ParseFilterError};
use caissa_pgntools::input::decompress;
use caissa_pgntools::{
    BrokenGame, Ending, Feature, Format, GameFilter, ParseNameError, SelectOptions, Selection,
    Strip,
};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use pyo3::{create_exception, intern};

use crate::board::Board;
use crate::errors::{self, attr, with_attrs};
use crate::game::{ChildNode, GameData, GameNode, PgnGame};
use crate::shards::{Input, Place};

create_exception!(
    caissa,
    FilterError,
    PyValueError,
    "A tag filter of `select` that cannot be read. Attribute: `byte`, the offset of the problem."
);

create_exception!(
    caissa,
    PgnParseError,
    PyValueError,
    "A game of a PGN that cannot be read or replayed. Attributes: `line` and `column` (from 1)
     of the problem in the text, or `ply` (the moves before it on its line, from the start)
     for a move that does not fit the position; the others are `None`. From `select`, all
     three are set (`ply` there counts the moves replayed before the problem in all lines,
     variations too), and `byte`, the problem's offset in the (decompressed) input; `None`
     from `read_games`."
);

fn pgn_error(py: Python<'_>, e: &PgnError) -> PyErr {
    with_attrs(
        py,
        PgnParseError::new_err(e.to_string()),
        [
            ("line", attr(py, e.line())),
            ("column", attr(py, e.column())),
            ("byte", py.None().into_bound(py)),
            ("ply", py.None().into_bound(py)),
        ],
    )
}

fn replay_error(py: Python<'_>, e: &TreeReplayError) -> PyErr {
    with_attrs(
        py,
        PgnParseError::new_err(e.to_string()),
        [
            ("line", py.None().into_bound(py)),
            ("column", py.None().into_bound(py)),
            ("byte", py.None().into_bound(py)),
            ("ply", attr(py, e.ply)),
        ],
    )
}

/// A Python file object read through its `read` method; `str` chunks are encoded as UTF-8,
/// and what does not fit the caller's buffer waits in `pending`.
struct PyFile {
    file: Py<PyAny>,
    pending: Vec<u8>,
    /// How much of `pending` was handed out.
    taken: usize,
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.taken == self.pending.len() {
            self.pending.clear();
            self.taken = 0;
            Python::attach(|py| {
                let chunk = self
                    .file
                    .bind(py)
                    .call_method1(intern!(py, "read"), (buf.len(),))
                    .map_err(io::Error::other)?;
                if let Ok(b) = chunk.cast::<PyBytes>() {
                    self.pending.extend_from_slice(b.as_bytes());
                } else if let Ok(s) = chunk.cast::<PyString>() {
                    self.pending
                        .extend_from_slice(s.to_cow().map_err(io::Error::other)?.as_bytes());
                } else {
                    return Err(io::Error::other("read() returned neither bytes nor str"));
                }
                Ok(())
            })?;
        }
        let rest = &self.pending[self.taken..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.taken += n;
        Ok(n)
    }
}

/// The `[%...]` commands of a node's comments.
pub(crate) fn commands_of(node: &Node) -> impl Iterator<Item = Command<'_>> {
    node.comments
        .iter()
        .flat_map(|c| Commands::new(c.as_bytes()).filter_map(Result::ok))
}

/// `part` of each of a node's comments, the empty ones left out, joined by spaces.
fn comment_parts(node: &Node, part: impl Fn(&Commands<'_>) -> String) -> String {
    let texts: Vec<String> = node
        .comments
        .iter()
        .map(|c| part(&Commands::new(c.as_bytes())))
        .filter(|t| !t.is_empty())
        .collect();
    texts.join(" ")
}

/// A node's `[%...]` commands as written, joined (`''` for none).
pub(crate) fn commands_of_text(node: &Node) -> String {
    comment_parts(node, |c| c.command_text())
}

/// A node's comments without their `[%...]` commands, joined (`''` for none).
pub(crate) fn comment_of(node: &Node) -> String {
    comment_parts(node, |c| c.text_without_commands())
}

/// A node's `[%clk ...]`, in seconds.
pub(crate) fn clock_of(node: &Node) -> Option<f64> {
    commands_of(node).find_map(|c| match c {
        Command::Clock(d) => Some(d.as_secs_f64()),
        _ => None,
    })
}

/// A node's `[%emt ...]`, in seconds.
pub(crate) fn emt_of(node: &Node) -> Option<f64> {
    commands_of(node).find_map(|c| match c {
        Command::ElapsedMoveTime(d) => Some(d.as_secs_f64()),
        _ => None,
    })
}

/// A node's `[%eval ...]`.
pub(crate) fn eval_of(node: &Node) -> Option<Eval> {
    commands_of(node).find_map(|c| match c {
        Command::Eval(e) => Some(Eval {
            cp: match e.score {
                Score::Centipawns(cp) => Some(cp),
                Score::Mate(_) => None,
            },
            mate: match e.score {
                Score::Mate(n) => Some(n),
                Score::Centipawns(_) => None,
            },
            depth: e.depth,
        }),
        _ => None,
    })
}

/// An engine evaluation from a `[%eval ...]` comment, from White's point of view: `cp`
/// (centipawns) or `mate` (moves, negative when Black mates), and `depth` when given.
#[pyclass(module = "caissa.pgn", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Eval {
    #[pyo3(get)]
    pub(crate) cp: Option<i32>,
    #[pyo3(get)]
    pub(crate) mate: Option<i32>,
    #[pyo3(get)]
    pub(crate) depth: Option<u32>,
}

#[pymethods]
impl Eval {
    fn __repr__(&self) -> String {
        let show = |v: Option<i64>| v.map_or("None".to_owned(), |v| v.to_string());
        format!(
            "Eval(cp={}, mate={}, depth={})",
            show(self.cp.map(i64::from)),
            show(self.mate.map(i64::from)),
            show(self.depth.map(i64::from))
        )
    }
}

/// The outcome of reading one game, made without the GIL.
fn read_one<R: Read>(reader: &mut Reader<R>) -> Option<Result<ReadGame, ReadError>> {
    let mut tree = match reader.read_game(&mut GameTreeBuilder)? {
        Ok(tree) => tree,
        Err(e) => return Some(Err(ReadError::Text(e))),
    };
    fill_roster(&mut tree);
    if let Err(e) = tree.start_position() {
        return Some(Err(ReadError::Text(e.into())));
    }
    let tolerated = core::mem::take(&mut tree.tolerated);
    Some(
        GameData::replayed(tree)
            .map(|data| (data, tolerated))
            .map_err(ReadError::Replay),
    )
}

/// A game read, and what a lenient reader read past in it (with where, in its input).
type ReadGame = (GameData, Vec<(Location, Tolerated)>);

/// The seven tag roster as python-chess's reader fills it in: each tag the game lacks with
/// its placeholder (`?`, `????.??.??`), and a `Result` that is missing or `*` from the
/// movetext's termination marker. (The export format writes the same; `game.headers` shows
/// them as python-chess's do.)
fn fill_roster(tree: &mut GameTree) {
    for (name, placeholder) in SEVEN_TAG_ROSTER {
        if tree.tags.get(name).is_none() {
            tree.tags.push(name, placeholder);
        }
    }
    if tree.tags.get("Result") == Some("*")
        && let Some(marker) = tree.termination_marker
    {
        tree.tags.insert("Result", marker.as_str());
    }
}

enum ReadError {
    Text(PgnError),
    Replay(TreeReplayError),
}

/// A reader that is `Sync` (as a pyclass must be) because it is only used through `&mut`.
struct Exclusive(Mutex<Box<dyn Read + Send>>);

impl Read for Exclusive {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let inner = self.0.get_mut().unwrap_or_else(PoisonError::into_inner);
        inner.read(buf)
    }
}

/// A PGN being read, for [`GameReader`] and [`HeadersReader`].
struct Source {
    reader: Reader<Exclusive>,
    skip_errors: bool,
    /// Where the input is in its file, for the places of errors.
    place: Place,
}

impl Source {
    /// The source `source` names (see [`open_source`]), decompressed.
    fn open(
        py: Python<'_>,
        source: Bound<'_, PyAny>,
        skip_errors: bool,
        lenient: bool,
    ) -> PyResult<Source> {
        let (inner, place) = open_source(py, source)?;
        let (input, _) = py
            .detach(|| decompress(inner))
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
        Ok(Source {
            reader: Reader::new(Exclusive(Mutex::new(input))).lenient(lenient),
            skip_errors,
            place,
        })
    }

    /// The next game as `read` makes it, read with the GIL released. A game that cannot be
    /// read or replayed raises `PgnParseError` (unless the source skips errors); the call after
    /// it reads the next game.
    fn next<T: Send>(
        &mut self,
        py: Python<'_>,
        read: impl Fn(&mut Reader<Exclusive>) -> Option<Result<T, ReadError>> + Send + Sync,
    ) -> PyResult<Option<T>> {
        loop {
            let reader = &mut self.reader;
            match py.detach(|| read(reader)) {
                None => return Ok(None),
                Some(Ok(item)) => return Ok(Some(item)),
                // The input failed: nothing more can be read, skipped or not.
                Some(Err(ReadError::Text(e))) if e.is_io() => {
                    return Err(pyo3::exceptions::PyOSError::new_err(e.to_string()));
                }
                Some(Err(_)) if self.skip_errors => {}
                Some(Err(ReadError::Text(mut e))) => {
                    e.location = self.locate(py, e.location)?;
                    return Err(pgn_error(py, &e));
                }
                Some(Err(ReadError::Replay(e))) => return Err(replay_error(py, &e)),
            }
        }
    }

    /// Where `at`, a place in the input read, is in its file (a shard's lines are the
    /// file's), worked out with the GIL released.
    fn locate(&mut self, py: Python<'_>, at: Location) -> PyResult<Location> {
        let place = &mut self.place;
        py.detach(|| place.locate(at))
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
    }
}

/// The iterator [`read_games`] returns.
#[pyclass(module = "caissa.pgn")]
pub(crate) struct GameReader(Source);

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next game. A game that cannot be read or replayed raises `PgnParseError` (unless
    /// the reader skips errors); the call after it reads the next game.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PgnGame>>> {
        let Some((data, mut tolerated)) = self.0.next(py, read_one)? else {
            return Ok(None);
        };
        for (at, _) in &mut tolerated {
            *at = self.0.locate(py, *at)?;
        }
        warn_each(py, tolerated)?;
        PgnGame::create(py, data).map(Some)
    }
}

/// The iterator [`read_headers_all`] returns: each game's tag pairs, its movetext skipped.
#[pyclass(module = "caissa.pgn")]
pub(crate) struct HeadersReader(Source);

#[pymethods]
impl HeadersReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next game's tag pairs, as a `dict` in order.
    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(tags) = self.0.next(py, |reader| {
            reader
                .read_game(&mut TagPairs)
                .map(|read| read.map_err(ReadError::Text))
        })?
        else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        for (name, value) in tags {
            dict.set_item(name, value)?;
        }
        Ok(Some(dict))
    }
}

/// A visitor that keeps a game's tag pairs and skips its movetext unread.
struct TagPairs;

impl Visitor for TagPairs {
    type Tags = Vec<(String, String)>;
    type Movetext = Vec<(String, String)>;
    type Output = Vec<(String, String)>;
    type Error = PgnError;

    fn begin_game(&mut self, _: Location) -> Flow<Self, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        _: Location,
    ) -> Flow<Self> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> Flow<Self, Self::Movetext> {
        // Ending the game here skips its movetext unread.
        ControlFlow::Break(Ok(tags))
    }

    fn end_game(&mut self, tags: Self::Movetext) -> Result<Self::Output, PgnError> {
        Ok(tags)
    }
}

/// The games of a PGN, one at a time: `source` is a path (`str` or `os.PathLike`, read by
/// Rust), a `Shard` of a file (see `shards`), or a file object (binary, or text, whose `read`
/// returns `str`); plain or compressed (zstd, gzip, bzip2: found from the first bytes).
///
/// Each game is read and every line of it (the main line and the variations) replayed with
/// the GIL released. A game that cannot be
/// read or replayed raises `PgnParseError` (a `ValueError`, with `line` and `column`, or `ply`),
/// and iteration can go on with the next game; with `skip_errors=True` such games are
/// skipped. With `lenient=True` what other readers accept (`e.p.` after a move, the result
/// `1/2`, glyphs above `$255`, text after the result on its line, a `"` left unescaped in a
/// tag value) is read past with a `UserWarning` for each, as python-chess reads it, instead of
/// making the game an error.
/// Memory stays bounded by one game whatever the file's size. A shard's games are
/// those the whole file has there, and its errors' lines are the file's (the first error of a
/// shard counts the file's lines before it).
///
/// >>> import io
/// >>> games = list(caissa.pgn.read_games(io.BytesIO(b"1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 *")))
/// >>> [len(g) for g in games], games[0].end().board().is_checkmate()
/// ([4, 1], True)
#[pyfunction]
#[pyo3(signature = (source, *, skip_errors = false, lenient = false))]
fn read_games(
    py: Python<'_>,
    source: Bound<'_, PyAny>,
    skip_errors: bool,
    lenient: bool,
) -> PyResult<GameReader> {
    Source::open(py, source, skip_errors, lenient).map(GameReader)
}

/// The tag pairs of each game of a PGN, as `dict`s, the movetext skipped unread (python-chess's
/// `read_headers`, for a whole file): a quick pass to choose games by their tags. `source` and
/// `skip_errors` as for `read_games`; a game whose tags cannot be read raises `PgnParseError`.
///
/// >>> import io
/// >>> pgn = b'[White "A"]\n[WhiteElo "2500"]\n\n1. e4 *\n\n[White "B"]\n\n1. d4 *\n'
/// >>> [h["White"] for h in caissa.pgn.read_headers_all(io.BytesIO(pgn))]
/// ['A', 'B']
#[pyfunction]
#[pyo3(signature = (source, *, skip_errors = false))]
fn read_headers_all(
    py: Python<'_>,
    source: Bound<'_, PyAny>,
    skip_errors: bool,
) -> PyResult<HeadersReader> {
    Source::open(py, source, skip_errors, false).map(HeadersReader)
}

/// The file, shard or file object `source` names, as [`read_games`] and [`select`] take it
/// (compressed or not), and where its bytes are in their file.
pub(crate) fn open_source(
    py: Python<'_>,
    source: Bound<'_, PyAny>,
) -> PyResult<(Box<dyn Read + Send + Sync>, Place)> {
    if source.hasattr(intern!(py, "read"))? {
        let file = PyFile {
            file: source.unbind(),
            pending: Vec::new(),
            taken: 0,
        };
        return Ok((Box::new(file), Place::WHOLE));
    }
    let (bytes, place) = source.extract::<Input>()?.open_py()?;
    Ok((Box::new(bytes), place))
}

/// The games of a PGN that pass the filters of `caissa pgn select`, written again as that
/// command writes them, in Rust on `threads` threads (1 to 256; default: every core) with
/// the GIL released.
///
/// `source` is a path, a `Shard` (see `shards`) or a file object, plain or compressed (zstd,
/// gzip, bzip2: found from the first bytes); a shard's errors and warnings are placed in its
/// file. `filter` is a tag filter (`'WhiteElo >= 2400 and Date >= 2024.05'`), or a
/// list of them that must all hold (`--where`, repeated; empty: every game); one that cannot be
/// read raises `FilterError` (a `ValueError`, with `byte`). Games that pass are replayed and
/// held to the conditions on their main line: `ending` (`'checkmate'`, `'stalemate'`,
/// `'repetition'`, `'fifty'`, `'insufficient'`, `'dead'`: how it ends on the board), `contains`
/// (all of `'underpromotion'`, `'castling'`, `'kingside-castling'`, `'queenside-castling'`,
/// `'en-passant'`), `min_plies` / `max_plies`, `position` (a `Board` or FEN the main line
/// reaches, compared as the Laws' "same position") and `moves` (the SAN moves it starts with,
/// as a list or one string, `'e4 e5 Nf3'`). `contains`, `moves`, `strip` (and `to_arrow`'s
/// `columns`) take one string where they take a list of them. `invert=True` selects the games
/// that fail the filter or a condition instead of those that pass them all (as `grep -v`).
///
/// `format` is `'pgn'` (export format, canonical SAN), `'uci'`, `'lan'` or `'san'` (the main
/// line's moves in UCI, long algebraic notation or canonical SAN without numbers or result, one
/// game a line), `'fen'` or `'epd'` (each position of the main line, the start included, one a
/// line); `strip` names what to leave out: `'comments'`,
/// `'nags'`, `'variations'`, `'commands'`; `ply_count` sets the `PlyCount` tag; `openings` sets
/// `ECO` and `Opening` from the built-in opening table (the last named position the main line
/// reaches); `fen_comments` adds each position's FEN as a comment; `fix_result` makes the
/// `Result` tag and the result token say what the board says (a checkmate, a stalemate, a dead
/// position, seventy-five moves), or else the result token when the tag contradicts it;
/// `lenient` reads what other readers accept (`e.p.` after a move, the result `1/2`, glyphs
/// above `$255`, text after the result on its line, a `"` left unescaped in a tag value),
/// with a `UserWarning` for each, instead of counting the game broken;
/// `limit` stops after so many games. Games
/// that cannot be read or replayed are skipped, or with `skip_errors=False` the first one
/// raises `PgnParseError` (with `line`, `column` and `ply`).
///
/// Returns the selected games' texts, in input order.
///
/// >>> import io
/// >>> pgn = b'[WhiteElo "2500"]\n\n1. e2e4 e5 *\n\n[WhiteElo "1500"]\n\n1. d4 *\n'
/// >>> caissa.pgn.select(io.BytesIO(pgn), "WhiteElo > 2000", format="uci")
/// ['e2e4 e7e5\n']
/// >>> caissa.pgn.select(io.BytesIO(pgn), moves=["d4"], format="uci")
/// ['d2d4\n']
#[pyfunction]
#[pyo3(signature = (source, filter = OneOrMany::default(), *, ending = None,
                    contains = OneOrMany::default(), min_plies = None, max_plies = None,
                    position = None, moves = OneOrMany::default(), invert = false,
                    openings = false, format = "pgn", strip = OneOrMany::default(), ply_count = false,
                    fen_comments = false, fix_result = false, lenient = false, limit = None,
                    skip_errors = true,
                    threads = None))]
#[allow(clippy::too_many_arguments)]
fn select(
    py: Python<'_>,
    source: Bound<'_, PyAny>,
    filter: OneOrMany<String>,
    ending: Option<&str>,
    contains: OneOrMany<String>,
    min_plies: Option<u64>,
    max_plies: Option<u64>,
    position: Option<Bound<'_, PyAny>>,
    moves: OneOrMany<String>,
    invert: bool,
    openings: bool,
    format: &str,
    strip: OneOrMany<String>,
    ply_count: bool,
    fen_comments: bool,
    fix_result: bool,
    lenient: bool,
    limit: Option<usize>,
    skip_errors: bool,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let format = match format {
        "pgn" => Format::Pgn,
        "uci" => Format::Uci,
        "lan" => Format::Lan,
        "san" => Format::San,
        "fen" => Format::Fen,
        "epd" => Format::Epd,
        other => {
            return Err(PyValueError::new_err(format!(
                "format is 'pgn', 'uci', 'lan', 'san', 'fen' or 'epd', not {other:?}"
            )));
        }
    };
    let mut stripped = Strip::default();
    for part in &strip.0 {
        match part.as_str() {
            "comments" => stripped.comments = true,
            "nags" => stripped.nags = true,
            "variations" => stripped.variations = true,
            "commands" => stripped.commands = true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "strip takes 'comments', 'nags', 'variations', 'commands', not {other:?}"
                )));
            }
        }
    }
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
    let options = choice.options(py, format)?;
    let options = SelectOptions {
        strip: stripped,
        ply_count,
        fen_comments,
        fix_result,
        lenient,
        ..options
    };
    let threads = threads_or_all(threads)?;
    let limit = limit.unwrap_or(usize::MAX);
    let (source, mut place) = open_source(py, source)?;
    let (selected, broken, tolerated) = py.detach(move || -> io::Result<_> {
        let (input, _) = decompress(source)?;
        let mut selected = Vec::new();
        let mut broken = None;
        let mut tolerated = Vec::new();
        if limit == 0 {
            return Ok((selected, broken, tolerated));
        }
        caissa_pgntools::select(input, &options, threads, |game| match game.selection {
            Selection::Matched(text) => {
                selected.push(text);
                tolerated.extend(game.warnings);
                if selected.len() < limit {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            }
            Selection::Broken(b) if !skip_errors => {
                broken = Some(b);
                ControlFlow::Break(())
            }
            // Rows and keys come only with formats `select` does not ask for, skipped games
            // only when asked for.
            Selection::Unmatched
            | Selection::Broken(_)
            | Selection::Row(_)
            | Selection::Key(_)
            | Selection::Skipped => ControlFlow::Continue(()),
        })?;
        if let Some(b) = &mut broken {
            b.error.location = place.locate(b.error.location)?;
            b.offset = place.byte(b.offset);
        }
        for (at, _) in &mut tolerated {
            *at = place.locate(*at)?;
        }
        Ok((selected, broken, tolerated))
    })?;
    warn_each(py, tolerated)?;
    match broken {
        Some(b) => Err(broken_error(py, &b)),
        None => Ok(selected),
    }
}

/// A `UserWarning` for each thing a lenient reader read past (or else written otherwise than
/// read), `LINE:COLUMN: what`.
fn warn_each(py: Python<'_>, warnings: Vec<(Location, impl core::fmt::Display)>) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    for (at, what) in warnings {
        let message = CString::new(format!("{at}: {what}")).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}

/// The `PgnParseError` of a game `select` cannot read or replay.
pub(crate) fn broken_error(py: Python<'_>, b: &BrokenGame) -> PyErr {
    with_attrs(
        py,
        PgnParseError::new_err(b.error.to_string()),
        [
            ("line", attr(py, b.error.location.line)),
            ("column", attr(py, b.error.location.column)),
            ("byte", attr(py, b.offset)),
            ("ply", attr(py, b.error.replayed)),
        ],
    )
}

/// `threads` as `select` and `to_arrow` take it: 1 to [`MAX_THREADS`], as `caissa pgn
/// --threads` takes it; `None` for one a core.
///
/// # Errors
///
/// `ValueError` for 0 or more than [`MAX_THREADS`].
pub(crate) fn threads_or_all(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(MAX_THREADS)),
        Some(n @ 1..=MAX_THREADS) => Ok(n),
        Some(n) => Err(PyValueError::new_err(format!(
            "threads must be 1 to {MAX_THREADS}, not {n}"
        ))),
    }
}

/// The games `select` and `to_arrow` take, as their arguments give them: tag filters, and
/// conditions on the main line.
pub(crate) struct Choice<'py> {
    /// The tag filters, all of which must hold.
    pub(crate) filter: OneOrMany<String>,
    pub(crate) ending: Option<&'py str>,
    pub(crate) contains: OneOrMany<String>,
    pub(crate) min_plies: Option<u64>,
    pub(crate) max_plies: Option<u64>,
    pub(crate) position: Option<Bound<'py, PyAny>>,
    /// The SAN moves the main line starts with; each text may hold several, split by spaces.
    pub(crate) moves: OneOrMany<String>,
    /// Whether to set `ECO` and `Opening` from the opening table, by position.
    pub(crate) openings: bool,
    /// Whether to select the games that fail the filter or the conditions instead.
    pub(crate) invert: bool,
}

impl Choice<'_> {
    /// The options that select these games and write them in `format`; a filter, name, FEN or
    /// move that cannot be read raises its exception.
    pub(crate) fn options(self, py: Python<'_>, format: Format) -> PyResult<SelectOptions> {
        let filters = self
            .filter
            .0
            .iter()
            .filter(|text| !text.trim().is_empty())
            .map(|text| {
                text.parse().map_err(|e: ParseFilterError| {
                    with_attrs(
                        py,
                        FilterError::new_err(format!("invalid filter {text:?}: {e}")),
                        [("byte", attr(py, e.byte))],
                    )
                })
            })
            .collect::<PyResult<Vec<Filter>>>()?;
        let named = |e: ParseNameError| PyValueError::new_err(e.to_string());
        let position = match self.position {
            None => None,
            Some(given) => Some(match given.cast::<Board>() {
                Ok(board) => *board.borrow().position()?,
                // Chess960 castling rights (`GBgb`) where standard ones do not fit, as the CLI.
                Err(_) => Fen::from_ascii(given.extract::<String>()?.as_bytes())
                    .map_err(|e| errors::fen_error(py, &e))?
                    .into_position_either()
                    .map_err(|e| errors::position_error(py, &e))?,
            }),
        };
        let moves = self
            .moves
            .0
            .iter()
            .flat_map(|texts| texts.split_whitespace())
            .map(|text| {
                text.parse::<SanPlus>()
                    .map(|san| san.san)
                    .map_err(|e| errors::san_syntax_error(py, text, &e))
            })
            .collect::<PyResult<Vec<San>>>()?;
        Ok(SelectOptions {
            filter: Filter::all(filters),
            format,
            openings: self.openings,
            game: GameFilter {
                ending: self
                    .ending
                    .map(str::parse::<Ending>)
                    .transpose()
                    .map_err(named)?,
                contains: self
                    .contains
                    .0
                    .iter()
                    .map(|name| name.parse::<Feature>())
                    .collect::<Result<_, _>>()
                    .map_err(named)?,
                min_plies: self.min_plies,
                max_plies: self.max_plies,
                position,
                moves,
                ..GameFilter::default()
            },
            invert: self.invert,
            ..SelectOptions::default()
        })
    }
}

/// An argument that is one value or a list of them (`filter`, `to_arrow`'s `paths`).
#[derive(Debug)]
pub(crate) struct OneOrMany<T>(pub(crate) Vec<T>);

impl<T> Default for OneOrMany<T> {
    fn default() -> OneOrMany<T> {
        OneOrMany(Vec::new())
    }
}

impl<'py, T> FromPyObject<'_, 'py> for OneOrMany<T>
where
    T: for<'a> FromPyObject<'a, 'py>,
{
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<OneOrMany<T>> {
        match ob.extract::<T>() {
            Ok(one) => Ok(OneOrMany(vec![one])),
            Err(_) => Ok(OneOrMany(ob.extract()?)),
        }
    }
}

/// Adds `read_games`, `select`, `Game`, `Eval`, `GameReader`, `PgnParseError` and
/// `FilterError` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(read_headers_all, m)?)?;
    m.add_function(wrap_pyfunction!(select, m)?)?;
    m.add("FilterError", m.py().get_type::<FilterError>())?;
    m.add_class::<GameNode>()?;
    m.add_class::<PgnGame>()?;
    m.add_class::<ChildNode>()?;
    m.add_class::<Eval>()?;
    m.add_class::<GameReader>()?;
    m.add_class::<HeadersReader>()?;
    m.add("PgnParseError", m.py().get_type::<PgnParseError>())?;
    Ok(())
}
