//! The small vocabulary python-chess users know: colours as `bool`, piece types as `1..=6`,
//! squares as `0..64` (`a1` = 0, `h8` = 63), [`Move`] and [`Piece`], and the module constants
//! naming them (`WHITE`, `PAWN`, `E4`, `SQUARE_NAMES`, ...).

use caissa::movegen::attacks;
use caissa::notation::uci::UciMove;
use caissa::{Bitboard, Color, Role, Square};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors;

/// python-chess's colour: `True` for White.
pub(crate) fn color_to_py(color: Color) -> bool {
    color == Color::White
}

pub(crate) fn color_from_py(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

/// python-chess's piece type: 1 (pawn) to 6 (king).
pub(crate) fn role_to_py(role: Role) -> u8 {
    role as u8 + 1
}

pub(crate) fn role_from_py(piece_type: u8) -> PyResult<Role> {
    usize::from(piece_type)
        .checked_sub(1)
        .and_then(Role::from_index)
        .ok_or_else(|| PyValueError::new_err(format!("not a piece type (1 to 6): {piece_type}")))
}

pub(crate) fn square_from_py(index: u8) -> PyResult<Square> {
    Square::new(u32::from(index))
        .ok_or_else(|| PyValueError::new_err(format!("not a square (0 to 63): {index}")))
}

/// What a `__reduce__` gives pickle and `copy`: the class (or function) that makes the value
/// again, and its arguments.
pub(crate) type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);

/// A move from one square to another, as python-chess's `chess.Move`: the same in every
/// position, matched against a board's legal moves when it is played.
///
/// Castling is the king's two-square step (`e1g1`) in standard chess and the king taking its
/// own rook (`e1h1`) in Chess960, as python-chess writes them. `Move.null()` (`0000`, from
/// `a1` to `a1`, false as a `bool`) passes the turn, as python-chess's null move does.
///
/// >>> import caissa
/// >>> m = caissa.Move.from_uci("e7e8q")
/// >>> (caissa.square_name(m.from_square), caissa.square_name(m.to_square), m.promotion)
/// ('e7', 'e8', 5)
/// >>> m.uci()
/// 'e7e8q'
#[pyclass(module = "caissa", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) promotion: Option<Role>,
}

impl Move {
    /// The null move: `a1` to `a1`, as python-chess's `Move(0, 0)`.
    pub(crate) const NULL: Move = Move {
        from: Square::A1,
        to: Square::A1,
        promotion: None,
    };

    /// Whether this is the null move.
    pub(crate) fn is_null(self) -> bool {
        self == Move::NULL
    }

    /// The Rust crate's UCI move for this move.
    pub(crate) fn uci_move(self) -> UciMove {
        if self.is_null() {
            return UciMove::Null;
        }
        UciMove::Normal {
            from: self.from,
            to: self.to,
            promotion: self.promotion,
        }
    }

    /// The Python move of `m`, a legal move of `pos`, written in `pos`'s castling convention.
    pub(crate) fn of(pos: &caissa::Position, m: caissa::Move) -> Move {
        Move::from_uci_move(UciMove::from_move(pos, m))
    }

    /// The Python move of a UCI move (the null move for `0000`).
    pub(crate) fn from_uci_move(uci: UciMove) -> Move {
        match uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => Move {
                from,
                to,
                promotion,
            },
            UciMove::Null => Move::NULL,
        }
    }
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn new(from_square: u8, to_square: u8, promotion: Option<u8>) -> PyResult<Move> {
        let promotion = promotion.map(role_from_py).transpose()?;
        if promotion.is_some_and(|role| !Role::PROMOTIONS.contains(&role)) {
            return Err(PyValueError::new_err(
                "a pawn promotes to a knight, bishop, rook or queen",
            ));
        }
        Ok(Move {
            from: square_from_py(from_square)?,
            to: square_from_py(to_square)?,
            promotion,
        })
    }

    /// Reads a move in UCI notation (`e2e4`, `e7e8q`, `0000` for the null move).
    ///
    /// Raises `InvalidMoveError` (a `ValueError`) with the `byte` where the text stops being
    /// UCI, and for a move onto its own square (`e2e2`), as python-chess does.
    ///
    /// >>> caissa.Move.from_uci("e2e4"), caissa.Move.from_uci("0000") == caissa.Move.null()
    /// (Move.from_uci('e2e4'), True)
    #[staticmethod]
    pub(crate) fn from_uci(py: Python<'_>, uci: &str) -> PyResult<Move> {
        let parsed = UciMove::from_ascii(uci.as_bytes())
            .map_err(|e| errors::uci_syntax_error(py, uci, &e))?;
        // python-chess reads a promotion's letter in lower case only.
        if uci.as_bytes().get(4).is_some_and(u8::is_ascii_uppercase) {
            return Err(errors::with_attrs(
                py,
                errors::InvalidMoveError::new_err(format!(
                    "a promotion is written in lower case: {uci:?}"
                )),
                [("byte", errors::attr(py, 4))],
            ));
        }
        match parsed {
            UciMove::Normal { from, to, .. } if from == to => Err(errors::with_attrs(
                py,
                errors::InvalidMoveError::new_err(format!(
                    "a move onto its own square ({uci:?}; the null move is 0000)"
                )),
                [("byte", errors::attr(py, 2))],
            )),
            parsed => Ok(Move::from_uci_move(parsed)),
        }
    }

    /// The null move (`0000`): it passes the turn (python-chess's `Move.null()`). A board
    /// plays it where the side to move is not in check.
    #[staticmethod]
    fn null() -> Move {
        Move::NULL
    }

    /// `False` for the null move, `True` for any other.
    fn __bool__(&self) -> bool {
        !self.is_null()
    }

    /// The origin square (`0..64`).
    #[getter(from_square)]
    fn origin(&self) -> u8 {
        self.from as u8
    }

    /// The destination square (`0..64`).
    #[getter(to_square)]
    fn destination(&self) -> u8 {
        self.to as u8
    }

    /// The promotion piece type (2 to 5), or `None`.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        self.promotion.map(role_to_py)
    }

    /// The move in UCI notation.
    pub(crate) fn uci(&self) -> String {
        self.uci_move().to_string()
    }

    /// The move as XBoard writes it: its UCI notation, `@@@@` for the null move
    /// (python-chess's `Move.xboard`; a board's `xboard` writes castling as `O-O` in Chess960).
    pub(crate) fn xboard(&self) -> String {
        if self.is_null() {
            "@@@@".to_owned()
        } else {
            self.uci()
        }
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci())
    }

    /// Pickled (and copied) as `Move(from_square, to_square, promotion)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u8, u8, Option<u8>)> {
        let m = slf.get();
        let args = (m.origin(), m.destination(), m.promotion());
        (slf.get_type().into_any(), args)
    }
}

/// A piece: a type (1 pawn .. 6 king) and a colour (`True` for White), as `chess.Piece`.
///
/// >>> p = caissa.Piece.from_symbol("n")
/// >>> (p.piece_type, p.color, p.symbol())
/// (2, False, 'n')
#[pyclass(module = "caissa", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Piece(pub(crate) caissa::Piece);

#[pymethods]
impl Piece {
    #[new]
    fn new(piece_type: u8, color: bool) -> PyResult<Piece> {
        Ok(Piece(caissa::Piece {
            role: role_from_py(piece_type)?,
            color: color_from_py(color),
        }))
    }

    /// The piece of a FEN letter: uppercase for White (`N`), lowercase for Black (`n`).
    /// Raises `ValueError` for any other text.
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (
            chars.next().and_then(caissa::Piece::from_char),
            chars.next(),
        ) {
            (Some(piece), None) => Ok(Piece(piece)),
            _ => Err(PyValueError::new_err(format!(
                "not a piece symbol (one of PNBRQK or pnbrqk): {symbol:?}"
            ))),
        }
    }

    /// The piece type, 1 (pawn) to 6 (king).
    #[getter]
    fn piece_type(&self) -> u8 {
        role_to_py(self.0.role)
    }

    /// `True` for White.
    #[getter]
    fn color(&self) -> bool {
        color_to_py(self.0.color)
    }

    /// The FEN letter: uppercase for White.
    fn symbol(&self) -> String {
        self.0.char().to_string()
    }

    /// The Unicode chess symbol, of the other colour with `invert_color`.
    #[pyo3(signature = (*, invert_color = false))]
    fn unicode_symbol(&self, invert_color: bool) -> String {
        unicode_symbol(self.0, invert_color).to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.char())
    }

    /// Pickled (and copied) as `Piece(piece_type, color)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u8, bool)> {
        let piece = slf.get();
        (
            slf.get_type().into_any(),
            (piece.piece_type(), piece.color()),
        )
    }
}

/// The name of a square (`0` is `'a1'`); raises `ValueError` outside `0..64`.
#[pyfunction]
fn square_name(square: u8) -> PyResult<String> {
    Ok(square_from_py(square)?.to_string())
}

/// The square with this name (`'e4'` is 28); raises `ValueError` for any other text.
#[pyfunction]
fn parse_square(name: &str) -> PyResult<u8> {
    Square::from_ascii(name.as_bytes())
        .map(|sq| sq as u8)
        .map_err(|e| PyValueError::new_err(format!("{e}: {name:?}")))
}

/// The square on file `file_index` (0 = a) and rank `rank_index` (0 = the first).
#[pyfunction]
fn square(file_index: u8, rank_index: u8) -> PyResult<u8> {
    match (
        caissa::File::new(u32::from(file_index)),
        caissa::Rank::new(u32::from(rank_index)),
    ) {
        (Some(file), Some(rank)) => Ok(Square::from_coords(file, rank) as u8),
        _ => Err(PyValueError::new_err(format!(
            "not a file and rank (0 to 7): {file_index}, {rank_index}"
        ))),
    }
}

/// The file of a square, 0 (a) to 7 (h).
#[pyfunction]
fn square_file(square: u8) -> PyResult<u8> {
    Ok(square_from_py(square)?.file() as u8)
}

/// The rank of a square, 0 (the first) to 7 (the eighth).
#[pyfunction]
fn square_rank(square: u8) -> PyResult<u8> {
    Ok(square_from_py(square)?.rank() as u8)
}

/// The index of a sequence of `len` items that Python's `index` stands for (negative ones
/// count from the end), if there is such an item.
pub(crate) fn py_index(index: isize, len: usize) -> Option<usize> {
    let at = if index < 0 {
        index.checked_add_unsigned(len)?
    } else {
        index
    };
    usize::try_from(at).ok().filter(|&i| i < len)
}

/// The board as eight lines of eight cells separated by spaces, the eighth rank first: each
/// square's text from `cell`. (`Board.__str__`, `Board.unicode` and `SquareSet.__str__`.)
pub(crate) fn grid(mut cell: impl FnMut(Square) -> String) -> String {
    caissa::Rank::ALL
        .iter()
        .rev()
        .map(|&rank| {
            caissa::File::ALL
                .iter()
                .map(|&file| cell(Square::from_coords(file, rank)))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The Unicode chess symbol of `piece` (`\u{2659}` ... `\u{265a}`), of the other colour's
/// piece with `invert_color`.
pub(crate) fn unicode_symbol(piece: caissa::Piece, invert_color: bool) -> char {
    const WHITE: [char; 6] = [
        '\u{2659}', '\u{2658}', '\u{2657}', '\u{2656}', '\u{2655}', '\u{2654}',
    ];
    const BLACK: [char; 6] = [
        '\u{265f}', '\u{265e}', '\u{265d}', '\u{265c}', '\u{265b}', '\u{265a}',
    ];
    let symbols = if (piece.color == Color::White) != invert_color {
        WHITE
    } else {
        BLACK
    };
    symbols[piece.role.index()]
}

/// The number of files and ranks between two squares, added up.
#[pyfunction]
fn square_manhattan_distance(a: u8, b: u8) -> PyResult<u32> {
    let (a, b) = (square_from_py(a)?, square_from_py(b)?);
    Ok((a.file() as u32).abs_diff(b.file() as u32) + (a.rank() as u32).abs_diff(b.rank() as u32))
}

/// The fewest knight moves from one square to the other on an empty board.
#[pyfunction]
fn square_knight_distance(a: u8, b: u8) -> PyResult<u32> {
    let (from, to) = (square_from_py(a)?, square_from_py(b)?);
    let mut reached = caissa::Bitboard::from_square(from);
    let mut moves = 0;
    while !reached.contains(to) {
        reached = reached.into_iter().fold(reached, |all, sq| {
            all | caissa::movegen::attacks::knight(sq)
        });
        moves += 1;
    }
    Ok(moves)
}

/// The number of king steps from one square to the other (python-chess's Chebyshev distance).
#[pyfunction]
fn square_distance(a: u8, b: u8) -> PyResult<u32> {
    Ok(square_from_py(a)?.distance(square_from_py(b)?))
}

/// The square mirrored top to bottom (`a1` <-> `a8`).
#[pyfunction]
fn square_mirror(square: u8) -> PyResult<u8> {
    Ok(square_from_py(square)?.flip_vertical() as u8)
}

/// The letter of a piece type, lower case (`'p'` for a pawn).
#[pyfunction]
fn piece_symbol(piece_type: u8) -> PyResult<String> {
    Ok(role_from_py(piece_type)?.char().to_string())
}

/// The name of a piece type (`'pawn'` ... `'king'`).
#[pyfunction]
fn piece_name(piece_type: u8) -> PyResult<&'static str> {
    Ok(role_from_py(piece_type)?.name())
}

/// Adds python-chess's bit mask constants: `BB_EMPTY`, `BB_ALL`, `BB_A1` ... `BB_H8` and
/// `BB_SQUARES`, `BB_FILE_A` ... and `BB_FILES`, `BB_RANK_1` ... and `BB_RANKS`,
/// `BB_LIGHT_SQUARES`, `BB_DARK_SQUARES`, `BB_CORNERS`, `BB_CENTER`, `BB_BACKRANKS`.
fn register_masks(m: &Bound<'_, PyModule>) -> PyResult<()> {
    use caissa::{File, Rank};
    m.add("BB_EMPTY", Bitboard::EMPTY.0)?;
    m.add("BB_ALL", Bitboard::FULL.0)?;
    add_masks(
        m,
        "BB_SQUARES",
        Square::ALL.map(|sq| (sq.to_string(), Bitboard::from_square(sq))),
    )?;
    add_masks(
        m,
        "BB_FILES",
        File::ALL.map(|file| (format!("file_{}", file.char()), Bitboard::from_file(file))),
    )?;
    add_masks(
        m,
        "BB_RANKS",
        Rank::ALL.map(|rank| (format!("rank_{}", rank.char()), Bitboard::from_rank(rank))),
    )?;
    let light = Square::ALL
        .into_iter()
        .filter(|sq| sq.is_light())
        .fold(Bitboard::EMPTY, Bitboard::with);
    m.add("BB_LIGHT_SQUARES", light.0)?;
    m.add("BB_DARK_SQUARES", (!light).0)?;
    let corners = [Square::A1, Square::H1, Square::A8, Square::H8];
    m.add(
        "BB_CORNERS",
        corners.into_iter().fold(Bitboard::EMPTY, Bitboard::with).0,
    )?;
    let center = [Square::D4, Square::E4, Square::D5, Square::E5];
    m.add(
        "BB_CENTER",
        center.into_iter().fold(Bitboard::EMPTY, Bitboard::with).0,
    )?;
    m.add("BB_BACKRANKS", Bitboard::BACK_RANKS.0)?;
    let table = |attacks: fn(Square) -> Bitboard| Square::ALL.map(|sq| attacks(sq).0);
    m.add("BB_KNIGHT_ATTACKS", table(attacks::knight))?;
    m.add("BB_KING_ATTACKS", table(attacks::king))?;
    m.add(
        "BB_PAWN_ATTACKS",
        [
            table(|sq| attacks::pawn(Color::Black, sq)),
            table(|sq| attacks::pawn(Color::White, sq)),
        ],
    )?;
    let rays: Vec<[u64; 64]> = Square::ALL
        .iter()
        .map(|&a| Square::ALL.map(|b| attacks::line(a, b).0))
        .collect();
    m.add("BB_RAYS", rays)?;
    Ok(())
}

/// Adds `BB_<NAME>` for each name and mask (the name upper-cased), and the list `list` of the
/// masks in order.
fn add_masks(
    m: &Bound<'_, PyModule>,
    list: &str,
    masks: impl IntoIterator<Item = (String, Bitboard)>,
) -> PyResult<()> {
    let mut all = Vec::new();
    for (name, mask) in masks {
        m.add(format!("BB_{}", name.to_ascii_uppercase()).as_str(), mask.0)?;
        all.push(mask.0);
    }
    m.add(list, all)
}

/// The whole line through squares `a` and `b` (edge to edge) as a bit mask, `0` when they
/// share no rank, file or diagonal (python-chess's `ray`).
#[pyfunction]
fn ray(a: u8, b: u8) -> PyResult<u64> {
    Ok(attacks::line(square_from_py(a)?, square_from_py(b)?).0)
}

/// The squares strictly between `a` and `b` on their rank, file or diagonal, as a bit mask
/// (python-chess's `between`).
#[pyfunction]
fn between(a: u8, b: u8) -> PyResult<u64> {
    Ok(attacks::between(square_from_py(a)?, square_from_py(b)?).0)
}

/// python-chess's `STATUS_*` flags that `Board.status()` gives, each `1 << ` its place in
/// [`STATUS_FLAGS`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Status {
    NoWhiteKing,
    NoBlackKing,
    TooManyKings,
    TooManyWhitePawns,
    TooManyBlackPawns,
    PawnsOnBackrank,
    TooManyWhitePieces,
    TooManyBlackPieces,
    BadCastlingRights,
    InvalidEpSquare,
    OppositeCheck,
    Empty,
    TooManyCheckers = 15,
    ImpossibleCheck,
}

impl Status {
    /// The flag's bit.
    pub(crate) const fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// python-chess's `STATUS_*` names, the flag `1 << i` at place `i` (the three of its racing
/// kings variant too, which caissa does not play and never gives).
const STATUS_FLAGS: [&str; 17] = [
    "STATUS_NO_WHITE_KING",
    "STATUS_NO_BLACK_KING",
    "STATUS_TOO_MANY_KINGS",
    "STATUS_TOO_MANY_WHITE_PAWNS",
    "STATUS_TOO_MANY_BLACK_PAWNS",
    "STATUS_PAWNS_ON_BACKRANK",
    "STATUS_TOO_MANY_WHITE_PIECES",
    "STATUS_TOO_MANY_BLACK_PIECES",
    "STATUS_BAD_CASTLING_RIGHTS",
    "STATUS_INVALID_EP_SQUARE",
    "STATUS_OPPOSITE_CHECK",
    "STATUS_EMPTY",
    "STATUS_RACE_CHECK",
    "STATUS_RACE_OVER",
    "STATUS_RACE_MATERIAL",
    "STATUS_TOO_MANY_CHECKERS",
    "STATUS_IMPOSSIBLE_CHECK",
];

/// Adds the classes, functions and constants to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Move>()?;
    m.add_class::<Piece>()?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(square, m)?)?;
    m.add_function(wrap_pyfunction!(square_file, m)?)?;
    m.add_function(wrap_pyfunction!(square_rank, m)?)?;
    m.add_function(wrap_pyfunction!(square_distance, m)?)?;
    m.add_function(wrap_pyfunction!(square_mirror, m)?)?;
    m.add_function(wrap_pyfunction!(square_manhattan_distance, m)?)?;
    m.add_function(wrap_pyfunction!(square_knight_distance, m)?)?;
    m.add_function(wrap_pyfunction!(piece_symbol, m)?)?;
    m.add_function(wrap_pyfunction!(piece_name, m)?)?;
    register_masks(m)?;
    m.add("STATUS_VALID", 0)?;
    for (bit, name) in STATUS_FLAGS.iter().enumerate() {
        m.add(*name, 1u32 << bit)?;
    }
    m.add_function(wrap_pyfunction!(ray, m)?)?;
    m.add_function(wrap_pyfunction!(between, m)?)?;
    m.add(
        "SQUARES_180",
        Square::ALL.map(|sq| sq.flip_vertical() as u32),
    )?;
    let unicode = pyo3::types::PyDict::new(m.py());
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            let piece = role.of(color);
            unicode.set_item(
                piece.char().to_string(),
                unicode_symbol(piece, false).to_string(),
            )?;
        }
    }
    m.add("UNICODE_PIECE_SYMBOLS", unicode)?;
    m.add("WHITE", true)?;
    m.add("BLACK", false)?;
    m.add("COLORS", [true, false])?;
    m.add("COLOR_NAMES", ["black", "white"])?;
    let mut symbols: Vec<Option<String>> = vec![None];
    let mut names: Vec<Option<&str>> = vec![None];
    for role in Role::ALL {
        let constant = role.name().to_ascii_uppercase();
        m.add(constant.as_str(), role_to_py(role))?;
        symbols.push(Some(role.char().to_string()));
        names.push(Some(role.name()));
    }
    m.add(
        "PIECE_TYPES",
        Role::ALL.map(|role| u32::from(role_to_py(role))),
    )?;
    m.add("PIECE_SYMBOLS", symbols)?;
    m.add("PIECE_NAMES", names)?;
    let square_names: Vec<String> = Square::ALL.iter().map(ToString::to_string).collect();
    for (sq, name) in Square::ALL.iter().zip(&square_names) {
        m.add(name.to_ascii_uppercase().as_str(), *sq as u8)?;
    }
    m.add("SQUARES", Square::ALL.map(|sq| sq as u32))?;
    m.add("SQUARE_NAMES", square_names)?;
    m.add(
        "FILE_NAMES",
        caissa::File::ALL.map(|f| f.char().to_string()),
    )?;
    m.add(
        "RANK_NAMES",
        caissa::Rank::ALL.map(|r| r.char().to_string()),
    )?;
    Ok(())
}
