//! [`Arbiter`] and [`TimeControl`]: caissa-arbiter for Python, fed with the events of `caissa
//! arbitrate`'s JSON-lines logs (as dicts or JSON text) and giving its verdict as a dict.
//!
//! Events are read by `caissa_arbiter::json::parse_event`, the reader of the logs, so the
//! schema is the same field for field (see that module's docs); the verdict is
//! `verdict_to_json`'s object, whose entries name their event by index (`event`: 0 for the
//! start, then one per event fed).

use caissa::arbiter::json::{LineErrorKind, parse_event, verdict_to_json};
use caissa::arbiter::{EventKind, PgnTimeControl};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{create_exception, intern};
use serde_json::{Map, Value};

use crate::board::Board;
use crate::errors::{attr, with_attrs};
use crate::types::Reduced;

create_exception!(
    caissa,
    ArbiterError,
    PyValueError,
    "An event the arbiter cannot read or apply (the log itself is wrong). Attribute: `event`, \
     its index (0 for the start, then one per event fed)."
);

create_exception!(
    caissa,
    InvalidTimeControlError,
    PyValueError,
    "The text is not a time control in the syntax of the PGN TimeControl tag. Attribute: \
     `byte`, the offset of the problem."
);

/// `value` (JSON) as a Python object, through the `json` module.
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import(intern!(py, "json"))?
        .call_method1(intern!(py, "loads"), (value.to_string(),))
}

/// A time control, read from the syntax of the PGN `TimeControl` tag: `180+2` (3 minutes,
/// 2 seconds increment), `40/5400+30:1800+30`, `*60` (hourglass), ...
///
/// >>> tc = caissa.TimeControl("40/5400+30:1800+30")
/// >>> str(tc), tc.fide_speed(), tc.lichess_speed(), len(tc.periods)
/// ('40/5400+30:1800+30', 'classical', 'classical', 2)
/// >>> tc.periods[0]["base_ms"]
/// 5400000
#[pyclass(module = "caissa", frozen)]
#[derive(Clone, Debug)]
pub(crate) struct TimeControl(caissa::arbiter::TimeControl);

#[pymethods]
impl TimeControl {
    /// Raises `InvalidTimeControlError` (a `ValueError`, with `byte`) for text that is not a
    /// time control, and for `?` and `-` (no known control).
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<TimeControl> {
        match caissa::arbiter::TimeControl::from_pgn(text) {
            Ok(PgnTimeControl::Control(control)) => Ok(TimeControl(control)),
            Ok(_) => Err(with_attrs(
                py,
                InvalidTimeControlError::new_err(format!("{text:?} names no time control")),
                [("byte", attr(py, 0))],
            )),
            Err(e) => Err(with_attrs(
                py,
                InvalidTimeControlError::new_err(e.to_string()),
                [("byte", attr(py, e.byte))],
            )),
        }
    }

    /// The periods, each a dict: `moves` (`None` for the rest of the game), `base_ms`,
    /// `bonus` (`'none'`, or `{'fischer': ms}`, `{'simple_delay': ms}`, `{'bronstein': ms}`),
    /// `bonus_from_move`.
    #[getter]
    fn periods<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(self.0.periods())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        to_python(py, &value)
    }

    /// Whether it is an hourglass (`*60`).
    #[getter]
    fn hourglass(&self) -> bool {
        self.0.hourglass
    }

    /// FIDE's speed class of the first period: `'blitz'`, `'rapid'` or `'classical'`.
    fn fide_speed(&self) -> &'static str {
        self.0.fide_speed().name()
    }

    /// lichess's speed class (base + 40 × increment): `'ultrabullet'` to `'correspondence'`.
    fn lichess_speed(&self) -> &'static str {
        self.0.lichess_speed().name()
    }

    /// The readable form: `'3m+2s'`, `'90m/40+30m+30s'`.
    fn readable(&self) -> String {
        self.0.to_string()
    }

    /// The PGN `TimeControl` tag's form.
    fn __str__(&self) -> String {
        self.0.to_pgn()
    }

    fn __repr__(&self) -> String {
        format!("TimeControl('{}')", self.0.to_pgn())
    }

    /// Pickled (and copied) as `TimeControl(text)`, the tag's form.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (String,)> {
        (slf.get_type().into_any(), (slf.get().0.to_pgn(),))
    }
}

/// The arbiter of one game (FIDE Laws, Articles 4, 6, 7, 9), fed with timestamped events as
/// `caissa arbitrate` reads them from a log, and judging as it goes.
///
/// The keyword arguments are the fields of the log's `start` event: `rules` (`'fide-standard'`,
/// `'fide-rapid'`, `'fide-blitz'`, `'online'`, `'club'`, ...), `time_control` (a
/// `TimeControl` or its text; none: no clocks), `fen`, `chess960`, `presses` (`'with_move'`,
/// the default, or `'separate'`), `white`, `black`, and `t_ms`, the start time. `feed` takes
/// the other events, each a dict (or its JSON text) such as
/// ``{"type": "move", "by": "white", "move": "e4", "t_ms": 1500}``; a missing `t_ms` is the
/// previous event's time.
///
/// >>> a = caissa.Arbiter(rules="fide-blitz", time_control="180+2")
/// >>> for t, by, move in [(1000, "white", "f3"), (2000, "black", "e5"),
/// ...                     (3000, "white", "g4"), (4000, "black", "Qh4")]:
/// ...     made = a.feed({"type": "move", "by": by, "move": move, "t_ms": t})
/// >>> made[0]["ruling"]
/// 'game over: 0-1 (checkmate, 5.1.1)'
/// >>> v = a.verdict()
/// >>> v["result"], v["termination"], v["article"]
/// ('0-1', 'checkmate', '5.1.1')
#[pyclass(module = "caissa")]
pub(crate) struct Arbiter {
    inner: caissa::arbiter::Arbiter,
    /// The time of the last event.
    t_ms: u64,
    /// The events applied, the start included.
    events: usize,
}

impl Arbiter {
    fn line_error(py: Python<'_>, event: usize, kind: &LineErrorKind) -> PyErr {
        with_attrs(
            py,
            ArbiterError::new_err(format!("event {event}: {kind}")),
            [("event", attr(py, event))],
        )
    }
}

#[pymethods]
impl Arbiter {
    #[new]
    #[pyo3(signature = (*, rules = None, time_control = None, fen = None, chess960 = false,
                        presses = None, white = None, black = None, t_ms = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: Option<String>,
        time_control: Option<Bound<'_, PyAny>>,
        fen: Option<String>,
        chess960: bool,
        presses: Option<String>,
        white: Option<String>,
        black: Option<String>,
        t_ms: u64,
    ) -> PyResult<Arbiter> {
        let mut start = Map::new();
        start.insert("type".into(), "start".into());
        start.insert("t_ms".into(), t_ms.into());
        start.insert("chess960".into(), chess960.into());
        let time_control = match time_control {
            None => None,
            Some(tc) => Some(match tc.cast::<TimeControl>() {
                Ok(tc) => tc.get().0.to_pgn(),
                Err(_) => tc.extract::<String>()?,
            }),
        };
        for (name, value) in [
            ("rules", rules),
            ("time_control", time_control),
            ("fen", fen),
            ("presses", presses),
            ("white", white),
            ("black", black),
        ] {
            if let Some(value) = value {
                start.insert(name.into(), value.into());
            }
        }
        let event = parse_event(&Value::Object(start).to_string(), 0)
            .map_err(|kind| Arbiter::line_error(py, 0, &kind))?;
        let EventKind::Start(start) = &event.kind else {
            return Err(ArbiterError::new_err(
                "the start event did not read as a start",
            ));
        };
        let inner = caissa::arbiter::Arbiter::new(start, event.t_ms)
            .map_err(|e| Arbiter::line_error(py, 0, &LineErrorKind::Event(e)))?;
        Ok(Arbiter {
            inner,
            t_ms: event.t_ms,
            events: 1,
        })
    }

    /// Applies one event: a dict, or its JSON text (one line of a log), and returns the
    /// decisions it made (dicts, as in `verdict()["decisions"]`; most events make none).
    ///
    /// Raises `ArbiterError` (a `ValueError`, with `event`) for an event that is not of the
    /// schema or cannot be applied (a second start, a time going backwards, an ambiguous
    /// move); the arbiter is unchanged then.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        event: Bound<'py, PyAny>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let line: String = if event.is_instance_of::<PyDict>() {
            py.import(intern!(py, "json"))?
                .call_method1(intern!(py, "dumps"), (event,))?
                .extract()?
        } else {
            event.extract()?
        };
        let index = self.events;
        let parsed =
            parse_event(&line, self.t_ms).map_err(|kind| Arbiter::line_error(py, index, &kind))?;
        let made = self
            .inner
            .handle(&parsed)
            .map_err(|e| Arbiter::line_error(py, index, &LineErrorKind::Event(e)))?
            .len();
        self.t_ms = parsed.t_ms;
        self.events += 1;
        if made == 0 {
            return Ok(Vec::new());
        }
        let all: Vec<Bound<'py, PyAny>> = self.decisions(py)?.extract()?;
        Ok(all[all.len().saturating_sub(made)..].to_vec())
    }

    /// The verdict so far, as `caissa arbitrate` writes it: `result`, `termination`,
    /// `article`, `ended_at_ms`, `penalties`, `decisions`, `notes`, `illegal_moves`,
    /// `clock_ms`, `pgn`. Entries name their event by index (`event`).
    fn verdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &verdict_to_json(&self.inner.verdict(), None))
    }

    /// The arbiter's decisions so far, each a dict (`event`, `t_ms`, `player`, `article`,
    /// `ruling`).
    #[getter]
    fn decisions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.verdict(py)?.get_item("decisions")
    }

    /// The game as played so far, as a `Board`.
    #[getter]
    fn board(&self) -> Board {
        Board::from_game(self.inner.game().clone())
    }

    /// The number of events applied, the start included.
    #[getter]
    fn events(&self) -> usize {
        self.events
    }
}

/// Adds `Arbiter`, `TimeControl` and their exceptions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Arbiter>()?;
    m.add_class::<TimeControl>()?;
    m.add("ArbiterError", py.get_type::<ArbiterError>())?;
    m.add(
        "InvalidTimeControlError",
        py.get_type::<InvalidTimeControlError>(),
    )?;
    Ok(())
}
