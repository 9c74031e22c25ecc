//! `caissa.SquareSet`: a set of squares, as python-chess's `chess.SquareSet`, which the
//! board's queries about attacks, pins and pieces return.

use caissa::{Bitboard, Square};
use pyo3::prelude::*;
use pyo3::types::PyIterator;

/// A set of squares (`0..64`), as python-chess's `chess.SquareSet`: iterated in increasing
/// order, with `len`, `in`, `int` (the bit mask, `a1` the lowest bit), the set operators `|`,
/// `&`, `-`, `^` and `~` (with another set or a mask), and equality with a set or a mask.
///
/// >>> import caissa
/// >>> squares = caissa.SquareSet([caissa.E4, caissa.A1])
/// >>> list(squares), len(squares), caissa.E4 in squares, int(squares)
/// ([0, 28], 2, True, 268435457)
/// >>> squares | caissa.SquareSet([caissa.H8]) == 0x8000000010000001
/// True
#[pyclass(module = "caissa", frozen)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SquareSet(pub(crate) Bitboard);

/// A set, or a bit mask, as the other side of an operator or comparison.
#[derive(FromPyObject)]
pub(crate) enum SquaresLike<'py> {
    Set(PyRef<'py, SquareSet>),
    Mask(u64),
}

impl SquaresLike<'_> {
    fn bits(&self) -> u64 {
        match self {
            SquaresLike::Set(set) => set.0.0,
            SquaresLike::Mask(mask) => *mask,
        }
    }
}

#[pymethods]
impl SquareSet {
    /// The set of `squares`: a bit mask (`int`) or an iterable of squares; empty by default.
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<SquareSet> {
        let Some(squares) = squares else {
            return Ok(SquareSet(Bitboard::EMPTY));
        };
        if let Ok(mask) = squares.extract::<u64>() {
            return Ok(SquareSet(Bitboard(mask)));
        }
        let mut set = Bitboard::EMPTY;
        for square in squares.try_iter()? {
            set = set.with(crate::types::square_from_py(square?.extract()?)?);
        }
        Ok(SquareSet(set))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        pyo3::types::PyList::new(py, self.tolist())?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.0.count() as usize
    }

    fn __contains__(&self, square: &Bound<'_, PyAny>) -> bool {
        square
            .extract::<u8>()
            .ok()
            .and_then(|index| Square::new(u32::from(index)))
            .is_some_and(|sq| self.0.contains(sq))
    }

    fn __int__(&self) -> u64 {
        self.0.0
    }

    fn __index__(&self) -> u64 {
        self.0.0
    }

    fn __bool__(&self) -> bool {
        self.0.any()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<SquaresLike>()
            .is_ok_and(|other| other.bits() == self.0.0)
    }

    fn __hash__(&self) -> u64 {
        self.0.0
    }

    fn __or__(&self, other: SquaresLike<'_>) -> SquareSet {
        SquareSet(Bitboard(self.0.0 | other.bits()))
    }

    fn __ror__(&self, other: SquaresLike<'_>) -> SquareSet {
        self.__or__(other)
    }

    fn __and__(&self, other: SquaresLike<'_>) -> SquareSet {
        SquareSet(Bitboard(self.0.0 & other.bits()))
    }

    fn __rand__(&self, other: SquaresLike<'_>) -> SquareSet {
        self.__and__(other)
    }

    fn __sub__(&self, other: SquaresLike<'_>) -> SquareSet {
        SquareSet(Bitboard(self.0.0 & !other.bits()))
    }

    fn __xor__(&self, other: SquaresLike<'_>) -> SquareSet {
        SquareSet(Bitboard(self.0.0 ^ other.bits()))
    }

    fn __rxor__(&self, other: SquaresLike<'_>) -> SquareSet {
        self.__xor__(other)
    }

    fn __invert__(&self) -> SquareSet {
        SquareSet(Bitboard(!self.0.0))
    }

    /// The squares, in increasing order.
    fn tolist(&self) -> Vec<u32> {
        self.0.into_iter().map(|sq| sq as u32).collect()
    }

    fn __repr__(&self) -> String {
        format!("SquareSet({:#018x})", self.0.0)
    }

    /// The set as an 8 by 8 grid, the eighth rank first: `1` for a square in the set, `.` for
    /// one outside it.
    fn __str__(&self) -> String {
        crate::types::grid(|sq| if self.0.contains(sq) { "1" } else { "." }.to_owned())
    }
}
