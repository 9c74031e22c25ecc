//! `caissa.SquareSet`: a set of squares, as python-chess's `chess.SquareSet`, which the
//! board's queries about attacks, pins and pieces return.

use caissa::movegen::attacks;
use caissa::{Bitboard, Square};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyIterator;

use crate::types::{Reduced, square_from_py};

/// A set of squares (`0..64`), as python-chess's `chess.SquareSet`: iterated in increasing
/// order, with `len`, `in`, `int` (the bit mask, `a1` the lowest bit), the set operators `|`,
/// `&`, `-`, `^` and `~` and their in-place forms (with another set, a mask or squares),
/// equality with a set or a mask, and python-chess's set methods (`add`, `discard`,
/// `remove`, `pop`, `clear`, `update`, `union`, `issubset`, ...). Mutable, so not hashable.
///
/// >>> import caissa
/// >>> squares = caissa.SquareSet([caissa.E4, caissa.A1])
/// >>> list(squares), len(squares), caissa.E4 in squares, int(squares)
/// ([0, 28], 2, True, 268435457)
/// >>> squares | caissa.SquareSet([caissa.H8]) == 0x8000000010000001
/// True
#[pyclass(module = "caissa")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SquareSet(pub(crate) Bitboard);

/// A set, a bit mask or an iterable of squares, as the other side of an operator, a
/// comparison or a set method (python-chess's `IntoSquareSet`).
#[derive(FromPyObject)]
pub(crate) enum SquaresLike<'py> {
    Set(PyRef<'py, SquareSet>),
    Mask(u64),
    Squares(Vec<u8>),
}

impl SquaresLike<'_> {
    /// The bit mask; `ValueError` for a square outside `0..64`.
    fn bits(&self) -> PyResult<u64> {
        match self {
            SquaresLike::Set(set) => Ok(set.0.0),
            SquaresLike::Mask(mask) => Ok(*mask),
            SquaresLike::Squares(squares) => squares.iter().try_fold(0, |bits, &sq| {
                Ok(bits | Bitboard::from_square(crate::types::square_from_py(sq)?).0)
            }),
        }
    }
}

impl SquareSet {
    /// The squares, in increasing order.
    fn squares(&self) -> Vec<u32> {
        self.0.into_iter().map(|sq| sq as u32).collect()
    }

    /// Sets `slf` to `f` of its mask, once `operands` (which may be `slf` itself, borrowed)
    /// are let go.
    fn change<T>(slf: &Bound<'_, Self>, operands: T, f: impl FnOnce(u64) -> u64) -> PyResult<()> {
        drop(operands);
        let mut set = slf.try_borrow_mut()?;
        set.0 = Bitboard(f(set.0.0));
        Ok(())
    }
}

/// The bits of every set of `others`, or-ed.
fn union_of(others: &[SquaresLike<'_>]) -> PyResult<u64> {
    others
        .iter()
        .try_fold(0, |bits, other| Ok(bits | other.bits()?))
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
            set = set.with(square_from_py(square?.extract()?)?);
        }
        Ok(SquareSet(set))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        pyo3::types::PyList::new(py, self.squares())?.try_iter()
    }

    /// The squares, highest first.
    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let mut squares = self.squares();
        squares.reverse();
        pyo3::types::PyList::new(py, squares)?.try_iter()
    }

    /// The set moved `shift` squares up the board's order (eight a rank), those that leave
    /// it dropped.
    fn __lshift__(&self, shift: u32) -> SquareSet {
        SquareSet(Bitboard(self.0.0.checked_shl(shift).unwrap_or(0)))
    }

    /// The set moved `shift` squares down the board's order, those that leave it dropped.
    fn __rshift__(&self, shift: u32) -> SquareSet {
        SquareSet(Bitboard(self.0.0.checked_shr(shift).unwrap_or(0)))
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
            .is_ok_and(|other| other.bits().is_ok_and(|bits| bits == self.0.0))
    }

    fn __or__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        Ok(SquareSet(Bitboard(self.0.0 | other.bits()?)))
    }

    fn __ror__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__or__(other)
    }

    fn __and__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        Ok(SquareSet(Bitboard(self.0.0 & other.bits()?)))
    }

    fn __rand__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__and__(other)
    }

    fn __sub__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        Ok(SquareSet(Bitboard(self.0.0 & !other.bits()?)))
    }

    fn __xor__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        Ok(SquareSet(Bitboard(self.0.0 ^ other.bits()?)))
    }

    fn __rxor__(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__xor__(other)
    }

    fn __ior__(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        let bits = other.bits()?;
        SquareSet::change(slf, other, |set| set | bits)
    }

    fn __iand__(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        let bits = other.bits()?;
        SquareSet::change(slf, other, |set| set & bits)
    }

    fn __isub__(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        let bits = other.bits()?;
        SquareSet::change(slf, other, |set| set & !bits)
    }

    fn __ixor__(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        let bits = other.bits()?;
        SquareSet::change(slf, other, |set| set ^ bits)
    }

    /// Adds `square`.
    fn add(&mut self, square: u8) -> PyResult<()> {
        self.0 = self.0.with(square_from_py(square)?);
        Ok(())
    }

    /// Takes `square` out, if it is in.
    fn discard(&mut self, square: u8) -> PyResult<()> {
        self.0 = self.0.without(square_from_py(square)?);
        Ok(())
    }

    /// Takes `square` out; `KeyError` if it is not in.
    fn remove(&mut self, square: u8) -> PyResult<()> {
        let sq = square_from_py(square)?;
        if !self.0.contains(sq) {
            return Err(PyKeyError::new_err(square));
        }
        self.0 = self.0.without(sq);
        Ok(())
    }

    /// Takes out and returns the lowest square; `KeyError` for an empty set.
    fn pop(&mut self) -> PyResult<u32> {
        let sq = self
            .0
            .first()
            .ok_or_else(|| PyKeyError::new_err("pop from an empty SquareSet"))?;
        self.0 = self.0.without(sq);
        Ok(sq as u32)
    }

    /// Empties the set.
    fn clear(&mut self) {
        self.0 = Bitboard::EMPTY;
    }

    /// Adds the squares of every one of `others`.
    #[pyo3(signature = (*others))]
    fn update(slf: &Bound<'_, Self>, others: Vec<SquaresLike<'_>>) -> PyResult<()> {
        let bits = union_of(&others)?;
        SquareSet::change(slf, others, |set| set | bits)
    }

    /// Keeps the squares that are in every one of `others`.
    #[pyo3(signature = (*others))]
    fn intersection_update(slf: &Bound<'_, Self>, others: Vec<SquaresLike<'_>>) -> PyResult<()> {
        let bits = others
            .iter()
            .try_fold(u64::MAX, |bits, other| Ok::<_, PyErr>(bits & other.bits()?))?;
        SquareSet::change(slf, others, |set| set & bits)
    }

    /// Takes out the squares of `other`.
    fn difference_update(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        SquareSet::__isub__(slf, other)
    }

    /// Keeps the squares in exactly one of the set and `other`.
    fn symmetric_difference_update(slf: &Bound<'_, Self>, other: SquaresLike<'_>) -> PyResult<()> {
        SquareSet::__ixor__(slf, other)
    }

    /// The squares in the set or in `other`, as a new set.
    fn union(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__or__(other)
    }

    /// The squares in the set and in `other`.
    fn intersection(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__and__(other)
    }

    /// The squares in the set and not in `other`.
    fn difference(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__sub__(other)
    }

    /// The squares in exactly one of the set and `other`.
    fn symmetric_difference(&self, other: SquaresLike<'_>) -> PyResult<SquareSet> {
        self.__xor__(other)
    }

    /// A copy of the set.
    fn copy(&self) -> SquareSet {
        *self
    }

    /// Whether the set and `other` have no square in common.
    fn isdisjoint(&self, other: SquaresLike<'_>) -> PyResult<bool> {
        Ok(self.0.0 & other.bits()? == 0)
    }

    /// Whether every square of the set is in `other`.
    fn issubset(&self, other: SquaresLike<'_>) -> PyResult<bool> {
        Ok(self.0.0 & !other.bits()? == 0)
    }

    /// Whether every square of `other` is in the set.
    fn issuperset(&self, other: SquaresLike<'_>) -> PyResult<bool> {
        Ok(other.bits()? & !self.0.0 == 0)
    }

    /// The set mirrored top to bottom (rank 1 to rank 8).
    fn mirror(&self) -> SquareSet {
        SquareSet(self.0.flip_vertical())
    }

    /// Every subset of the set as a bit mask, the empty one first, one at a time (python-chess's
    /// `carry_rippler`): a set of n squares has 2^n of them.
    fn carry_rippler(&self) -> Subsets {
        Subsets {
            mask: self.0.0,
            next: Some(0),
        }
    }

    /// The set of the one square `square`.
    #[staticmethod]
    fn from_square(square: u8) -> PyResult<SquareSet> {
        Ok(SquareSet(Bitboard::from_square(square_from_py(square)?)))
    }

    /// The whole line through `a` and `b` (edge to edge), empty when they share no rank, file
    /// or diagonal.
    ///
    /// >>> caissa.SquareSet.ray(caissa.A1, caissa.B2) == caissa.BB_A1 | caissa.BB_H8 | 0x0040201008040200
    /// True
    #[staticmethod]
    fn ray(a: u8, b: u8) -> PyResult<SquareSet> {
        Ok(SquareSet(attacks::line(
            square_from_py(a)?,
            square_from_py(b)?,
        )))
    }

    /// The squares strictly between `a` and `b` on their rank, file or diagonal (empty
    /// otherwise).
    #[staticmethod]
    fn between(a: u8, b: u8) -> PyResult<SquareSet> {
        Ok(SquareSet(attacks::between(
            square_from_py(a)?,
            square_from_py(b)?,
        )))
    }

    fn __invert__(&self) -> SquareSet {
        SquareSet(Bitboard(!self.0.0))
    }

    /// Whether each of the 64 squares is in the set, `a1` first (python-chess's `tolist`;
    /// `list(squares)` gives the squares).
    fn tolist(&self) -> Vec<bool> {
        Square::ALL.iter().map(|&sq| self.0.contains(sq)).collect()
    }

    /// Pickled (and copied) as `SquareSet(mask)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u64,)> {
        let mask = slf.borrow().0.0;
        (slf.get_type().into_any(), (mask,))
    }

    fn __repr__(&self) -> String {
        let hex = format!("{:016x}", self.0.0);
        let groups: Vec<&str> = (0..4).map(|i| &hex[4 * i..4 * i + 4]).collect();
        format!("SquareSet(0x{})", groups.join("_"))
    }

    /// The set as an 8 by 8 grid, the eighth rank first: `1` for a square in the set, `.` for
    /// one outside it.
    fn __str__(&self) -> String {
        crate::types::grid(|sq| if self.0.contains(sq) { "1" } else { "." }.to_owned())
    }
}

/// The iterator of `SquareSet.carry_rippler`: the subsets of a mask in increasing order.
#[pyclass(module = "caissa")]
pub(crate) struct Subsets {
    mask: u64,
    /// The next subset to give, `None` once they are all given.
    next: Option<u64>,
}

#[pymethods]
impl Subsets {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<u64> {
        let subset = self.next?;
        let following = subset.wrapping_sub(self.mask) & self.mask;
        self.next = (following != 0).then_some(following);
        Some(subset)
    }
}
