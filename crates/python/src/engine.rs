//! UCI engines for `caissa.engine`: `UciEngine`, an engine process driven by caissa-uci's
//! [`Client`] (handshake, options, `position` and `go`, a search followed as it goes, `quit`),
//! with the GIL released while it waits. python-chess's `SimpleEngine`, `Limit`, `PlayResult` and scores are in
//! `python/caissa/engine.py`, on top of it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use caissa::uci::client::{
    Client, ClientError, EngineCommand, EngineId, SearchEvent, Stopper, position_of,
};
use caissa::uci::protocol::{Go, Info, ScoreBound, ScoreValue, UciOptionKind};
use caissa::{Position, UciMove};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::board::Board;
use crate::types::Move;

create_exception!(
    caissa,
    EngineError,
    PyRuntimeError,
    "An engine that could not be started or did not do what UCI says (no answer in time, an \
     exit, an illegal move), as python-chess's chess.engine.EngineError."
);

create_exception!(
    caissa,
    EngineTerminatedError,
    EngineError,
    "The engine process ended, or quit before the call (python-chess's \
     chess.engine.EngineTerminatedError)."
);

fn engine_error(e: &caissa::uci::client::ClientError) -> PyErr {
    match e {
        ClientError::Exited { .. } => EngineTerminatedError::new_err(e.to_string()),
        _ => EngineError::new_err(e.to_string()),
    }
}

/// Seconds as a `Duration` (`ValueError` for a negative or not finite number).
fn seconds(value: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| PyValueError::new_err(format!("not a time in seconds: {value}")))
}

/// What `UciEngine.play` returns: the move, the move to ponder on, the last scored `info` of
/// the best line, and the last scored `info` of each line of a `MultiPV` search.
type PlayOutput<'py> = (
    Move,
    Option<Move>,
    Option<Bound<'py, PyDict>>,
    Vec<Bound<'py, PyDict>>,
);

/// A UCI engine process: started and greeted (`uci`, `uciok`) when made, searched with `play`,
/// ended by `quit` (or when dropped). `caissa.engine.SimpleEngine` wraps it.
#[pyclass(module = "caissa", frozen)]
pub(crate) struct UciEngine {
    /// The process; `None` once it has quit. Behind a lock, as Python may share the object
    /// between threads: one call talks to the engine at a time.
    client: Mutex<Option<Client>>,
    /// Sends `stop` without the lock, which the thread following a search holds while it waits.
    stopper: Stopper,
    id: EngineId,
}

/// Why a call on the client failed.
enum Failed {
    /// The engine has quit.
    Quit,
    /// An earlier call panicked while it held the lock.
    Poisoned,
    /// The client's own error.
    Client(ClientError),
}

impl From<Failed> for PyErr {
    fn from(failed: Failed) -> PyErr {
        match failed {
            Failed::Quit => has_quit(),
            Failed::Poisoned => EngineError::new_err("an earlier call to the engine failed midway"),
            Failed::Client(e) => engine_error(&e),
        }
    }
}

impl UciEngine {
    /// `f` on the client, the GIL released while it waits for the lock (which another thread
    /// may hold while it waits for the engine) and for the engine.
    fn with_client<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Client) -> Result<T, ClientError> + Send,
    ) -> Result<T, Failed> {
        py.detach(|| {
            let mut guard = self.client.lock().map_err(|_| Failed::Poisoned)?;
            let client = guard.as_mut().ok_or(Failed::Quit)?;
            f(client).map_err(Failed::Client)
        })
    }
}

/// The error for a call after `quit`.
fn has_quit() -> PyErr {
    EngineTerminatedError::new_err("the engine has quit")
}

#[pymethods]
impl UciEngine {
    /// Starts `command` (the program, then its arguments) and waits up to `timeout` seconds for
    /// its `uciok`.
    #[new]
    fn new(py: Python<'_>, command: Vec<String>, timeout: f64) -> PyResult<UciEngine> {
        let Some((program, args)) = command.split_first() else {
            return Err(PyValueError::new_err("no engine program given"));
        };
        let command = EngineCommand {
            program: program.into(),
            args: args.to_vec(),
            dir: None,
        };
        let timeout = seconds(timeout)?;
        let origin = Instant::now();
        let stamp =
            Arc::new(move || u64::try_from(origin.elapsed().as_micros()).unwrap_or(u64::MAX));
        py.detach(|| {
            let mut client = Client::spawn(&command, stamp)?;
            let id = client.handshake(timeout)?;
            Ok(UciEngine {
                stopper: client.stopper(),
                client: Mutex::new(Some(client)),
                id,
            })
        })
        .map_err(|e| engine_error(&e))
    }

    /// The engine's `id name` and `id author` (`None` where it gave none).
    #[getter]
    fn id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let id = PyDict::new(py);
        id.set_item("name", &self.id.name)?;
        id.set_item("author", &self.id.author)?;
        Ok(id)
    }

    /// Each option the engine declared, as python-chess's `Option` holds it: `(name, type,
    /// default, min, max, var)`, `default` a `bool`, `int` or `str` by the type (`None` for a
    /// button), `min` and `max` for a spin, `var` the values of a combo (empty for the others).
    #[getter]
    fn option_specs<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.id
            .options
            .iter()
            .map(|o| {
                let mut var: Vec<String> = Vec::new();
                let (mut min, mut max) = (None, None);
                let (kind, default) = match &o.kind {
                    UciOptionKind::Check { default } => {
                        ("check", default.into_pyobject(py)?.to_owned().into_any())
                    }
                    UciOptionKind::Spin {
                        default,
                        min: low,
                        max: high,
                    } => {
                        (min, max) = (Some(*low), Some(*high));
                        ("spin", default.into_pyobject(py)?.into_any())
                    }
                    UciOptionKind::Combo { default, vars } => {
                        var.clone_from(vars);
                        ("combo", default.into_pyobject(py)?.into_any())
                    }
                    UciOptionKind::Button => ("button", py.None().into_bound(py)),
                    UciOptionKind::String { default } => {
                        ("string", default.into_pyobject(py)?.into_any())
                    }
                };
                (o.name.clone(), kind, default, min, max, var).into_pyobject(py)
            })
            .collect()
    }

    /// `isready`, and waits up to `timeout` seconds for `readyok`.
    fn ping(&self, py: Python<'_>, timeout: f64) -> PyResult<()> {
        let timeout = seconds(timeout)?;
        self.with_client(py, |client| client.sync(timeout))
            .map_err(PyErr::from)
    }

    /// Sets an option (`value` `None` for a button) and waits up to `timeout` seconds for the
    /// engine to be ready again.
    fn set_option(
        &self,
        py: Python<'_>,
        name: &str,
        value: Option<&str>,
        timeout: f64,
    ) -> PyResult<()> {
        let timeout = seconds(timeout)?;
        self.with_client(py, |client| {
            client.set_option(name, value)?;
            client.sync(timeout)
        })
        .map_err(PyErr::from)
    }

    /// Searches the current position of `board` (sent as its start and moves) with the `go`
    /// parameters (see `GoArgs`), waiting up to `timeout` seconds (`None`: as long as it takes)
    /// for `bestmove`. Returns the move (a legal move of the board, or `EngineError`), the move
    /// to ponder on, and the engine's last `info` with a score as a dict (`depth`, `seldepth`,
    /// `nodes`, `nps`, `time` in seconds, `hashfull`, `tbhits`, `multipv`, `score` as `(kind,
    /// value, bound)` with kind `'cp'` or `'mate'` from the side to move's view and bound
    /// `'exact'`, `'lower'` or `'upper'`, `pv` as the legal moves it begins with, `wdl`,
    /// `string`), or `None`; and the last such `info` of each line of a `MultiPV` search, the
    /// best first.
    fn play<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
        go: GoArgs,
        timeout: Option<f64>,
    ) -> PyResult<PlayOutput<'py>> {
        let go = go.go()?;
        let timeout = timeout.map_or(Ok(Duration::MAX), seconds)?;
        let game = board.game()?.clone();
        let mode = game.position().castling_mode();
        let (best, result) =
            self.with_client(py, |client| client.play(&game, mode, &go, timeout))?;
        let pos = game.position();
        let info = result
            .info
            .map(|info| info_dict(py, pos, &info))
            .transpose()?;
        let lines = result
            .lines
            .iter()
            .map(|line| info_dict(py, pos, line))
            .collect::<PyResult<_>>()?;
        Ok((
            Move::of(pos, best),
            ponder_move(pos, best, result.ponder),
            info,
            lines,
        ))
    }

    /// Starts a search of the current position of `board` with the `go` parameters (see
    /// `GoArgs`) without waiting for it: `next_event` then gives its `info` lines as they come,
    /// until its `bestmove` (`stop` ends it early; an infinite search ends only so). Raises
    /// `EngineError` in a position without a legal move.
    fn start(&self, py: Python<'_>, board: PyRef<'_, Board>, go: GoArgs) -> PyResult<()> {
        let game = board.game()?;
        if !game.position().has_legal_moves() {
            return Err(EngineError::new_err("no legal move to search"));
        }
        let position = position_of(game, game.position().castling_mode());
        let go = go.go()?;
        self.with_client(py, |client| client.start_search(&position, &go))
            .map_err(PyErr::from)
    }

    /// The next event of the search begun by `start` for `board`, waiting up to `timeout`
    /// seconds (`None`: as long as it takes): `('info', dict)` (the dict as `play` gives it,
    /// `score` only when the line has one) or `('bestmove', move, ponder)`, the move `None`
    /// when the engine gave none or one that is not legal; `None` when the time ran out.
    fn next_event<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, Board>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let timeout = timeout.map_or(Ok(Duration::MAX), seconds)?;
        // A poll (no time to wait) does not wait for the lock either: another thread holding
        // it is waiting for the engine, so nothing has come for this one.
        if timeout.is_zero() {
            let Ok(mut guard) = self.client.try_lock() else {
                return Ok(None);
            };
            let client = guard.as_mut().ok_or_else(has_quit)?;
            return match client.next_search_event(timeout) {
                Ok(event) => event_tuple(py, board.position()?, event).map(Some),
                Err(ClientError::Timeout { .. }) => Ok(None),
                Err(e) => Err(engine_error(&e)),
            };
        }
        let event = match self.with_client(py, |client| client.next_search_event(timeout)) {
            Ok(event) => event,
            Err(Failed::Client(ClientError::Timeout { .. })) => return Ok(None),
            Err(failed) => return Err(failed.into()),
        };
        event_tuple(py, board.position()?, event).map(Some)
    }

    /// `stop`: the search begun by `start` ends, and `next_event` gives its `bestmove`. It
    /// needs no lock, so another thread may call it while one waits in `next_event`.
    fn stop(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.stopper.stop())
            .map_err(|e| engine_error(&e))
    }

    /// `quit`; the process is killed if it has not ended within `timeout` seconds.
    fn quit(&self, py: Python<'_>, timeout: f64) -> PyResult<()> {
        let timeout = seconds(timeout)?;
        py.detach(|| {
            let client = self.client.lock().ok().and_then(|mut guard| guard.take());
            if let Some(client) = client {
                client.quit(timeout);
            }
        });
        Ok(())
    }
}

/// A search event for Python, in `pos`: `('info', dict)` or `('bestmove', move, ponder)`.
fn event_tuple<'py>(
    py: Python<'py>,
    pos: &Position,
    event: SearchEvent,
) -> PyResult<Bound<'py, PyTuple>> {
    match event {
        SearchEvent::Info(info) => ("info", info_dict(py, pos, &info)?).into_pyobject(py),
        SearchEvent::BestMove { best, ponder } => {
            let best = best.and_then(|m| m.to_move(pos).ok());
            let ponder = best.and_then(|b| ponder_move(pos, b, ponder));
            ("bestmove", best.map(|m| Move::of(pos, m)), ponder).into_pyobject(py)
        }
    }
}

/// The `go` parameters as `caissa.engine` passes them: `movetime`, `depth`, `nodes`, `mate`,
/// `wtime`, `btime`, `winc`, `binc` (milliseconds), `movestogo`, `infinite`, and the
/// `searchmoves` in UCI.
#[derive(FromPyObject)]
struct GoArgs(
    Option<u64>,
    Option<u32>,
    Option<u64>,
    Option<u32>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<u32>,
    bool,
    Vec<String>,
);

impl GoArgs {
    /// The `go` command; `ValueError` for a `searchmoves` move that is not UCI.
    fn go(self) -> PyResult<Go> {
        let searchmoves = self
            .10
            .iter()
            .map(|m| {
                UciMove::from_ascii(m.as_bytes())
                    .map_err(|e| PyValueError::new_err(format!("{m:?} in root_moves: {e}")))
            })
            .collect::<PyResult<_>>()?;
        Ok(Go {
            searchmoves,
            movetime: self.0,
            depth: self.1,
            nodes: self.2,
            mate: self.3,
            wtime: self.4,
            btime: self.5,
            winc: self.6,
            binc: self.7,
            movestogo: self.8,
            infinite: self.9,
            ..Go::default()
        })
    }
}

/// The engine's move to ponder on, as a legal move after `best`.
fn ponder_move(pos: &Position, best: caissa::Move, ponder: Option<UciMove>) -> Option<Move> {
    let mut after = *pos;
    after.play_unchecked(best);
    ponder
        .and_then(|m| m.to_move(&after).ok())
        .map(|m| Move::of(&after, m))
}

/// The fields of `info` as a dict, its `pv` (when it has one) as the legal moves of `pos` it
/// begins with.
fn info_dict<'py>(py: Python<'py>, pos: &Position, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let fields = [
        ("depth", info.depth.map(u64::from)),
        ("seldepth", info.seldepth.map(u64::from)),
        ("nodes", info.nodes),
        ("nps", info.nps),
        ("hashfull", info.hashfull.map(u64::from)),
        ("tbhits", info.tbhits),
        ("multipv", info.multipv.map(u64::from)),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            dict.set_item(key, value)?;
        }
    }
    if let Some(wdl) = info.wdl {
        dict.set_item("wdl", (wdl[0], wdl[1], wdl[2]))?;
    }
    if let Some(ms) = info.time {
        dict.set_item("time", ms as f64 / 1000.0)?;
    }
    if let Some(score) = info.score {
        let (kind, value) = match score.value {
            ScoreValue::Centipawns(cp) => ("cp", cp),
            ScoreValue::Mate(n) => ("mate", n),
        };
        let bound = match score.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        };
        dict.set_item("score", (kind, value, bound))?;
    }
    // As python-chess, a line without moves has no `pv`.
    if !info.pv.is_empty() {
        dict.set_item("pv", legal_prefix(pos, &info.pv))?;
    }
    if let Some(text) = &info.string {
        dict.set_item("string", text)?;
    }
    Ok(dict)
}

/// The moves of `line` as legal moves played one after another from `pos`, up to the first
/// that is not legal where it stands.
fn legal_prefix(pos: &Position, line: &[UciMove]) -> Vec<Move> {
    let mut at = *pos;
    let mut moves = Vec::with_capacity(line.len());
    for uci in line {
        let Ok(m) = uci.to_move(&at) else { break };
        moves.push(Move::of(&at, m));
        at.play_unchecked(m);
    }
    moves
}

/// Adds `UciEngine`, `EngineError` and `EngineTerminatedError` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UciEngine>()?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add(
        "EngineTerminatedError",
        m.py().get_type::<EngineTerminatedError>(),
    )?;
    Ok(())
}
