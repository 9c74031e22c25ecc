//! EPD operations between caissa-notation's `Epd` and python-chess's dicts: what
//! `Board.set_epd` and `Board.from_epd` give, and what `Board.epd(**operations)` writes.
//!
//! python-chess's dict holds each opcode with its operand: `None` for none, a `str` for a
//! string, an `int` or `float` for a number, a `Move` for a move, a list of `Move`s for `bm`,
//! `am` and `pv`.

use caissa::Position;
use caissa::notation::epd::{Epd, EpdMoveError, Operand, Operation};
use caissa::notation::san::SanPlus;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::types::Move;

/// The operations of `epd` as python-chess's dict. `pos` gives its position, or the error
/// of a setup that is none: asked only by the operations whose operands are moves, so that
/// the others read on any board.
pub(crate) fn operations<'py, 'b>(
    py: Python<'py>,
    epd: &Epd,
    pos: impl Fn() -> PyResult<&'b Position>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let moves = |resolve: fn(&Epd, &Position) -> Result<Vec<caissa::Move>, EpdMoveError>| {
        let pos = pos()?;
        let resolved = resolve(epd, pos).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let moves: Vec<Move> = resolved.into_iter().map(|m| Move::of(pos, m)).collect();
        PyResult::Ok(moves.into_pyobject(py)?.into_any())
    };
    for op in &epd.operations {
        let opcode = op.opcode();
        let value: Bound<'py, PyAny> = match op {
            Operation::BestMoves(_) => moves(Epd::best_moves)?,
            Operation::AvoidMoves(_) => moves(Epd::avoid_moves)?,
            Operation::PredictedVariation(_) => moves(Epd::predicted_variation)?,
            Operation::Id(text) | Operation::Comment { text, .. } => {
                text.into_pyobject(py)?.into_any()
            }
            Operation::HalfmoveClock(n)
            | Operation::FullmoveNumber(n)
            | Operation::AnalysisDepth(n) => n.into_pyobject(py)?.into_any(),
            Operation::CentipawnEvaluation(n) => n.into_pyobject(py)?.into_any(),
            Operation::Perft { nodes, .. } => nodes.into_pyobject(py)?.into_any(),
            Operation::Other { operands, .. } => match operands.as_slice() {
                [] => py.None().into_bound(py),
                [Operand::Quoted(text)] => text.into_pyobject(py)?.into_any(),
                [Operand::Word(word)] => word_value(py, word, &pos)?,
                many => PyList::new(
                    py,
                    many.iter().map(|o| match o {
                        Operand::Word(w) | Operand::Quoted(w) => w.clone(),
                    }),
                )?
                .into_any(),
            },
            _ => py.None().into_bound(py),
        };
        dict.set_item(opcode.as_ref(), value)?;
    }
    Ok(dict)
}

/// A lone word operand as python-chess reads it: a number when it starts like one (an `int`,
/// else a `float`), else a move in SAN.
fn word_value<'py, 'b>(
    py: Python<'py>,
    word: &str,
    pos: &impl Fn() -> PyResult<&'b Position>,
) -> PyResult<Bound<'py, PyAny>> {
    let bad = || PyValueError::new_err(format!("not a number nor a legal move: {word:?}"));
    if word.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c)) {
        // An integer of any size, as Python's `int` reads it.
        let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return py.get_type::<pyo3::types::PyInt>().call1((word,));
        }
        let x: f64 = word.parse().map_err(|_| bad())?;
        return if x.is_finite() {
            Ok(x.into_pyobject(py)?.into_any())
        } else {
            Err(bad())
        };
    }
    let san = SanPlus::from_ascii(word.as_bytes()).map_err(|_| bad())?;
    let pos = pos()?;
    let m = san.san.to_move(pos).map_err(|_| bad())?;
    Ok(Move::of(pos, m).into_pyobject(py)?.into_any())
}

/// The EPD of a board whose FEN is `fen` (its first four fields) followed by `operations` as
/// python-chess writes them: `None` the opcode alone, a `Move` in SAN, an `int` or `float` as a
/// number, `bm` and `am` lists in SAN sorted, a `pv` list played one after the other, anything
/// else a quoted string. `pos` gives the board's position, or the error of a setup that is
/// none: asked only for the moves.
pub(crate) fn write<'b>(
    fen: &str,
    pos: impl Fn() -> PyResult<&'b Position>,
    operations: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let mut out: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    for (opcode, operand) in operations.iter().flat_map(|ops| ops.iter()) {
        let opcode: String = opcode.extract()?;
        let valid = opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(PyValueError::new_err(format!(
                "not an EPD opcode: {opcode:?}"
            )));
        }
        let op = operation(&opcode, &operand, &pos)?;
        out.push(' ');
        out.push_str(&op.to_string());
        out.push(';');
    }
    Ok(out)
}

/// The operation `opcode` with python-chess's `operand` (see [`write`]).
fn operation<'b>(
    opcode: &str,
    operand: &Bound<'_, PyAny>,
    pos: &impl Fn() -> PyResult<&'b Position>,
) -> PyResult<Operation> {
    let other = |operands: Vec<Operand>| Operation::Other {
        opcode: opcode.to_owned(),
        operands,
    };
    if operand.is_none() {
        return Ok(other(Vec::new()));
    }
    if let Ok(m) = operand.extract::<PyRef<'_, Move>>() {
        return Ok(other(vec![Operand::Word(san_of(pos()?, &m)?.to_string())]));
    }
    if operand.is_instance_of::<pyo3::types::PyInt>() {
        // As `str` writes it (`True` for a `bool`, as python-chess writes one).
        return Ok(other(vec![Operand::Word(operand.str()?.to_string())]));
    }
    if let Ok(x) = operand.cast::<pyo3::types::PyFloat>() {
        let x = x.value();
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "{opcode}: not a finite number: {x}"
            )));
        }
        return Ok(other(vec![Operand::Word(operand.repr()?.to_string())]));
    }
    if let Ok(text) = operand.extract::<String>() {
        if text.contains(['\n', '\r', '\t']) {
            return Err(PyValueError::new_err(format!(
                "{opcode}: a string with a line break or tab, which an EPD line cannot hold"
            )));
        }
        return Ok(other(vec![Operand::Quoted(text)]));
    }
    let moves: Vec<PyRef<'_, Move>> = operand.extract()?;
    let pos = pos()?;
    match opcode {
        "pv" => {
            let mut at = *pos;
            let mut sans = Vec::with_capacity(moves.len());
            for m in &moves {
                let san = san_of(&at, m)?;
                at.play_unchecked(m.uci_move().to_move(&at).map_err(illegal)?);
                sans.push(san);
            }
            Ok(Operation::PredictedVariation(sans))
        }
        "bm" | "am" => {
            let mut sans = moves
                .iter()
                .map(|m| san_of(pos, m))
                .collect::<PyResult<Vec<SanPlus>>>()?;
            sans.sort_by_key(ToString::to_string);
            Ok(if opcode == "bm" {
                Operation::BestMoves(sans)
            } else {
                Operation::AvoidMoves(sans)
            })
        }
        _ => Err(PyValueError::new_err(format!(
            "{opcode}: a list of moves goes only with bm, am or pv"
        ))),
    }
}

/// The SAN of `m`, legal in `pos`, with its check or mate suffix.
fn san_of(pos: &Position, m: &Move) -> PyResult<SanPlus> {
    let legal = m.uci_move().to_move(pos).map_err(illegal)?;
    Ok(SanPlus::from_move(pos, legal))
}

/// A move of the operands that is not legal where it stands.
fn illegal(e: caissa::notation::uci::UciError) -> PyErr {
    crate::errors::IllegalMoveError::new_err(e.to_string())
}
