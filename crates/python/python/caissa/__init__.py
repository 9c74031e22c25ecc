"""The FIDE Laws of Chess for Python, on the caissa engine written in Rust.

The API follows python-chess where the semantics match: ``Board``, ``Move``, ``Piece``, squares
as ``0..64`` with constants ``A1`` ... ``H8``, piece types ``PAWN`` ... ``KING`` as ``1..6``,
colours ``WHITE`` / ``BLACK`` as ``True`` / ``False``, ``SquareSet`` and the ``BB_*`` masks; and
the submodules ``caissa.pgn`` (reading, selecting, Arrow), ``caissa.polyglot`` (opening books),
``caissa.engine`` (UCI engines) and ``caissa.svg`` (boards as images). Where caissa differs on
purpose, the docstrings say so:

- a board whose pieces make no legal position (``Board.empty()``, ``Board(None)``, pieces set
  one at a time) is *unfinished*: its pieces, FEN, ``status()`` and setters work, and the rest
  raises ``IllegalPositionError`` until changes make a legal position;
- ``push`` checks legality (``IllegalMoveError``), as ``push_san`` and ``push_uci`` do, and the
  move predicates (``is_capture``, ``gives_check``, ...) answer about legal moves, ``False``
  for any other;
- ``outcome()`` ends the game on every position caissa's analysis proves dead (FIDE 5.2.2,
  ``dead_position``), blocked pawn walls included, where python-chess only counts material
  (``is_insufficient_material``, the same here); ``is_dead_position`` asks the analysis;
- a fifty-move claim with a written move that mates is correct (FIDE 9.3.1); once the game has
  ended there are no claims;
- ``legal_moves`` is iterated, counted (``len``, ``count()``), asked ``in`` and indexed, as
  python-chess's generator is used; it holds the moves of the position it was taken from.

>>> import caissa
>>> board = caissa.Board()
>>> for san in ["f3", "e5", "g4", "Qh4"]:
...     _ = board.push_san(san)
>>> board.outcome()
Outcome(termination='checkmate', winner=False, article='5.1.1')
"""

from caissa._caissa import (
    A1, A2, A3, A4, A5, A6, A7, A8,
    B1, B2, B3, B4, B5, B6, B7, B8,
    C1, C2, C3, C4, C5, C6, C7, C8,
    D1, D2, D3, D4, D5, D6, D7, D8,
    E1, E2, E3, E4, E5, E6, E7, E8,
    F1, F2, F3, F4, F5, F6, F7, F8,
    G1, G2, G3, G4, G5, G6, G7, G8,
    H1, H2, H3, H4, H5, H6, H7, H8,
    BISHOP, BLACK, COLOR_NAMES, COLORS, FILE_NAMES, KING, KNIGHT, PAWN, PIECE_NAMES,
    PIECE_SYMBOLS, PIECE_TYPES, QUEEN, RANK_NAMES, ROOK, SQUARE_NAMES, SQUARES, STARTING_FEN,
    WHITE,
    AmbiguousMoveError, Arbiter, ArbiterError, Board, EngineError, IllegalMoveError, IllegalPositionError, InvalidFenError,
    InvalidMoveError, InvalidTimeControlError, Move, Outcome, PgnParseError, Piece, SquareSet,
    TimeControl,
    __version__, parse_square, piece_name, piece_symbol, square, square_distance, square_file,
    square_mirror, square_name, square_rank, square_manhattan_distance, square_knight_distance,
    STARTING_BOARD_FEN, STATUS_VALID, UNICODE_PIECE_SYMBOLS,
    STATUS_NO_WHITE_KING, STATUS_NO_BLACK_KING, STATUS_TOO_MANY_KINGS, STATUS_TOO_MANY_WHITE_PAWNS,
    STATUS_TOO_MANY_BLACK_PAWNS, STATUS_PAWNS_ON_BACKRANK, STATUS_TOO_MANY_WHITE_PIECES,
    STATUS_TOO_MANY_BLACK_PIECES, STATUS_BAD_CASTLING_RIGHTS, STATUS_INVALID_EP_SQUARE,
    STATUS_OPPOSITE_CHECK, STATUS_EMPTY, STATUS_RACE_CHECK, STATUS_RACE_OVER, STATUS_RACE_MATERIAL,
    STATUS_TOO_MANY_CHECKERS, STATUS_IMPOSSIBLE_CHECK,
    BB_KNIGHT_ATTACKS, BB_KING_ATTACKS, BB_PAWN_ATTACKS, BB_RAYS, SQUARES_180, between, ray,
    BB_EMPTY, BB_ALL, BB_SQUARES, BB_FILES, BB_RANKS, BB_LIGHT_SQUARES, BB_DARK_SQUARES,
    BB_CORNERS, BB_CENTER, BB_BACKRANKS, BB_A1, BB_B1, BB_C1, BB_D1, BB_E1, BB_F1, BB_G1, BB_H1,
    BB_A2, BB_B2, BB_C2, BB_D2, BB_E2, BB_F2, BB_G2, BB_H2, BB_A3, BB_B3, BB_C3, BB_D3, BB_E3,
    BB_F3, BB_G3, BB_H3, BB_A4, BB_B4, BB_C4, BB_D4, BB_E4, BB_F4, BB_G4, BB_H4, BB_A5, BB_B5,
    BB_C5, BB_D5, BB_E5, BB_F5, BB_G5, BB_H5, BB_A6, BB_B6, BB_C6, BB_D6, BB_E6, BB_F6, BB_G6,
    BB_H6, BB_A7, BB_B7, BB_C7, BB_D7, BB_E7, BB_F7, BB_G7, BB_H7, BB_A8, BB_B8, BB_C8, BB_D8,
    BB_E8, BB_F8, BB_G8, BB_H8, BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F,
    BB_FILE_G, BB_FILE_H, BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6,
    BB_RANK_7, BB_RANK_8,
)

import enum  # noqa: E402
from typing import Iterator  # noqa: E402

from caissa._caissa import LegalMoves, PseudoLegalMoves  # noqa: E402

#: python-chess's names for the classes of ``board.legal_moves`` and ``board.pseudo_legal_moves``.
LegalMoveGenerator = LegalMoves
PseudoLegalMoveGenerator = PseudoLegalMoves

#: python-chess's type aliases, for annotations: a square (``0..64``), a colour (``True`` for
#: White), a piece type (``1..6``), a bit mask.
Square = int
Color = bool
PieceType = int
Bitboard = int


class Status(enum.IntFlag):
    """python-chess's ``chess.Status``: the flags of ``Board.status()`` by name."""

    VALID = STATUS_VALID
    NO_WHITE_KING = STATUS_NO_WHITE_KING
    NO_BLACK_KING = STATUS_NO_BLACK_KING
    TOO_MANY_KINGS = STATUS_TOO_MANY_KINGS
    TOO_MANY_WHITE_PAWNS = STATUS_TOO_MANY_WHITE_PAWNS
    TOO_MANY_BLACK_PAWNS = STATUS_TOO_MANY_BLACK_PAWNS
    PAWNS_ON_BACKRANK = STATUS_PAWNS_ON_BACKRANK
    TOO_MANY_WHITE_PIECES = STATUS_TOO_MANY_WHITE_PIECES
    TOO_MANY_BLACK_PIECES = STATUS_TOO_MANY_BLACK_PIECES
    BAD_CASTLING_RIGHTS = STATUS_BAD_CASTLING_RIGHTS
    INVALID_EP_SQUARE = STATUS_INVALID_EP_SQUARE
    OPPOSITE_CHECK = STATUS_OPPOSITE_CHECK
    EMPTY = STATUS_EMPTY
    RACE_CHECK = STATUS_RACE_CHECK
    RACE_OVER = STATUS_RACE_OVER
    RACE_MATERIAL = STATUS_RACE_MATERIAL
    TOO_MANY_CHECKERS = STATUS_TOO_MANY_CHECKERS
    IMPOSSIBLE_CHECK = STATUS_IMPOSSIBLE_CHECK

# python-chess's helpers for bit masks (plain integers, `a1` the lowest bit).


def lsb(bb: int) -> int:
    """The lowest square of the mask (`-1` for an empty one)."""
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    """The highest square of the mask (`-1` for an empty one)."""
    return bb.bit_length() - 1


def popcount(bb: int) -> int:
    """The number of squares in the mask."""
    return bin(bb).count("1")


def scan_forward(bb: int) -> Iterator[int]:
    """The squares of the mask, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: int) -> Iterator[int]:
    """The squares of the mask, highest first."""
    while bb:
        square = bb.bit_length() - 1
        yield square
        bb ^= 1 << square


def flip_vertical(bb: int) -> int:
    """The mask mirrored top to bottom (rank 1 to rank 8)."""
    return int.from_bytes((bb & BB_ALL).to_bytes(8, "little"), "big")


def flip_horizontal(bb: int) -> int:
    """The mask mirrored left to right (file a to file h)."""
    bb = ((bb >> 1) & 0x5555_5555_5555_5555) | ((bb & 0x5555_5555_5555_5555) << 1)
    bb = ((bb >> 2) & 0x3333_3333_3333_3333) | ((bb & 0x3333_3333_3333_3333) << 2)
    bb = ((bb >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((bb & 0x0f0f_0f0f_0f0f_0f0f) << 4)
    return bb & BB_ALL


def flip_diagonal(bb: int) -> int:
    """The mask mirrored in the a1-h8 diagonal."""
    t = (bb ^ (bb << 28)) & 0x0f0f_0f0f_0000_0000
    bb = (bb ^ t ^ (t >> 28)) & BB_ALL
    t = (bb ^ (bb << 14)) & 0x3333_0000_3333_0000
    bb = (bb ^ t ^ (t >> 14)) & BB_ALL
    t = (bb ^ (bb << 7)) & 0x5500_5500_5500_5500
    return (bb ^ t ^ (t >> 7)) & BB_ALL


def flip_anti_diagonal(bb: int) -> int:
    """The mask mirrored in the a8-h1 diagonal."""
    t = bb ^ (bb << 36)
    bb = (bb ^ ((t ^ (bb >> 36)) & 0xf0f0_f0f0_0f0f_0f0f)) & BB_ALL
    t = (bb ^ (bb << 18)) & 0xcccc_0000_cccc_0000
    bb = (bb ^ t ^ (t >> 18)) & BB_ALL
    t = (bb ^ (bb << 9)) & 0xaa00_aa00_aa00_aa00
    return (bb ^ t ^ (t >> 9)) & BB_ALL


def shift_down(b: int) -> int:
    """The mask one rank down (towards rank 1)."""
    return b >> 8


def shift_2_down(b: int) -> int:
    """The mask two ranks down."""
    return b >> 16


def shift_up(b: int) -> int:
    """The mask one rank up (towards rank 8)."""
    return (b << 8) & BB_ALL


def shift_2_up(b: int) -> int:
    """The mask two ranks up."""
    return (b << 16) & BB_ALL


def shift_right(b: int) -> int:
    """The mask one file right (towards file h)."""
    return (b << 1) & ~BB_FILE_A & BB_ALL


def shift_2_right(b: int) -> int:
    """The mask two files right."""
    return (b << 2) & ~BB_FILE_A & ~BB_FILE_B & BB_ALL


def shift_left(b: int) -> int:
    """The mask one file left (towards file a)."""
    return (b >> 1) & ~BB_FILE_H


def shift_2_left(b: int) -> int:
    """The mask two files left."""
    return (b >> 2) & ~BB_FILE_G & ~BB_FILE_H


def shift_up_left(b: int) -> int:
    """The mask one square up and left."""
    return (b << 7) & ~BB_FILE_H & BB_ALL


def shift_up_right(b: int) -> int:
    """The mask one square up and right."""
    return (b << 9) & ~BB_FILE_A & BB_ALL


def shift_down_left(b: int) -> int:
    """The mask one square down and left."""
    return (b >> 9) & ~BB_FILE_H


def shift_down_right(b: int) -> int:
    """The mask one square down and right."""
    return (b >> 7) & ~BB_FILE_A



class Termination(str, enum.Enum):
    """python-chess's ``chess.Termination``, with caissa's names as the values, so that
    ``board.outcome().termination == Termination.CHECKMATE`` reads as it does there.
    ``INSUFFICIENT_MATERIAL`` is ``DEAD_POSITION`` (caissa ends every dead position, 5.2.2)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    DEAD_POSITION = "dead_position"
    INSUFFICIENT_MATERIAL = "dead_position"
    SEVENTYFIVE_MOVES = "seventy_five_moves"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    THREEFOLD_REPETITION = "threefold_repetition"


from caissa import pgn  # noqa: E402  (the submodule, as caissa.pgn)
from caissa import polyglot  # noqa: E402  (the submodule, as caissa.polyglot)
from caissa import engine  # noqa: E402  (the submodule, as caissa.engine)
from caissa import svg  # noqa: E402  (the submodule, as caissa.svg)
