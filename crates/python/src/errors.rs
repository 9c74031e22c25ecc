//! The module's exceptions, and the conversions from caissa's Rust errors to them.
//!
//! Each exception is a subclass of `ValueError` where python-chess raises `ValueError` (or one of
//! its `ValueError` subclasses of the same name), and carries the positions the Rust error has
//! as attributes: `byte` (and `field`) for FEN, `byte` for SAN and UCI, `line`, `column` and
//! `byte` for PGN.

use caissa::PositionError;
use caissa::notation::epd::ParseEpdError;
use caissa::notation::fen::ParseFenError;
use caissa::notation::san::{ParseSanError, SanError};
use caissa::notation::uci::{ParseUciError, UciError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::{IntoPyObjectExt, create_exception};

create_exception!(
    caissa,
    InvalidFenError,
    PyValueError,
    "The text is not a FEN. Attributes: `field` (the FEN field being read, e.g. 'castling') and \
     `byte` (the offset of the problem in the text)."
);
create_exception!(
    caissa,
    IllegalPositionError,
    PyValueError,
    "The FEN is well formed but not a legal position. Attribute: `problems`, every problem \
     found, as text."
);
create_exception!(
    caissa,
    InvalidMoveError,
    PyValueError,
    "The text is not a move in SAN or UCI notation (python-chess's InvalidMoveError). \
     Attribute: `byte`, the offset of the problem in the text."
);
create_exception!(
    caissa,
    IllegalMoveError,
    PyValueError,
    "The move is not legal in the position (python-chess's IllegalMoveError)."
);
create_exception!(
    caissa,
    AmbiguousMoveError,
    PyValueError,
    "The SAN names more than one legal move (python-chess's AmbiguousMoveError). Attribute: \
     `candidates`, the legal moves it could stand for, in UCI."
);

/// The `InvalidFenError` of an EPD line that cannot be read: `byte` where, `field` `None`.
pub(crate) fn epd_error(py: Python<'_>, e: &ParseEpdError) -> PyErr {
    with_attrs(
        py,
        InvalidFenError::new_err(format!("invalid EPD: {e}")),
        [
            ("field", py.None().into_bound(py)),
            ("byte", attr(py, e.byte)),
        ],
    )
}

/// `error` with the attributes `attrs` set on its exception object.
pub(crate) fn with_attrs<'py>(
    py: Python<'py>,
    error: PyErr,
    attrs: impl IntoIterator<Item = (&'static str, Bound<'py, PyAny>)>,
) -> PyErr {
    let value = error.value(py);
    for (name, attr) in attrs {
        if let Err(e) = value.setattr(name, attr) {
            return e;
        }
    }
    error
}

/// An attribute value.
pub(crate) fn attr<'py, T: IntoPyObjectExt<'py>>(py: Python<'py>, value: T) -> Bound<'py, PyAny> {
    value
        .into_bound_py_any(py)
        .unwrap_or_else(|_| py.None().into_bound(py))
}

pub(crate) fn fen_error(py: Python<'_>, e: &ParseFenError) -> PyErr {
    with_attrs(
        py,
        InvalidFenError::new_err(e.to_string()),
        [
            ("field", attr(py, e.field.to_string())),
            ("byte", attr(py, e.byte)),
        ],
    )
}

pub(crate) fn position_error(py: Python<'_>, e: &PositionError) -> PyErr {
    let problems: Vec<String> = e.problems().iter().map(ToString::to_string).collect();
    with_attrs(
        py,
        IllegalPositionError::new_err(e.to_string()),
        [("problems", attr(py, problems))],
    )
}

pub(crate) fn san_syntax_error(py: Python<'_>, text: &str, e: &ParseSanError) -> PyErr {
    with_attrs(
        py,
        InvalidMoveError::new_err(format!("{e}: {text:?}")),
        [("byte", attr(py, e.byte))],
    )
}

pub(crate) fn uci_syntax_error(py: Python<'_>, text: &str, e: &ParseUciError) -> PyErr {
    with_attrs(
        py,
        InvalidMoveError::new_err(format!("{e}: {text:?}")),
        [("byte", attr(py, e.byte))],
    )
}

/// A SAN that does not fit the position; `uci` writes a candidate move.
pub(crate) fn san_error(
    py: Python<'_>,
    fen: &str,
    e: &SanError,
    uci: impl Fn(caissa::Move) -> String,
) -> PyErr {
    match e {
        SanError::Ambiguous { candidates, .. } => {
            let names: Vec<String> = candidates.as_slice().iter().copied().map(uci).collect();
            with_attrs(
                py,
                AmbiguousMoveError::new_err(format!("{e} in {fen}")),
                [("candidates", attr(py, names))],
            )
        }
        _ => IllegalMoveError::new_err(format!("{e} in {fen}")),
    }
}

pub(crate) fn uci_error(fen: &str, e: &UciError) -> PyErr {
    IllegalMoveError::new_err(format!("{e} in {fen}"))
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add(
        "IllegalPositionError",
        py.get_type::<IllegalPositionError>(),
    )?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    Ok(())
}
