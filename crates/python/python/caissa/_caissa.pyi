"""Type stubs for the native module of caissa (see the package docstring)."""

import os
from typing import Any, BinaryIO, Iterator, Optional, Sequence, TextIO, Union, final

from caissa.pgn import Shard

__version__: str

WHITE: bool
BLACK: bool
COLORS: list[bool]
COLOR_NAMES: list[str]
PAWN: int
KNIGHT: int
BISHOP: int
ROOK: int
QUEEN: int
KING: int
PIECE_TYPES: list[int]
PIECE_SYMBOLS: list[Optional[str]]
PIECE_NAMES: list[Optional[str]]
SQUARES: list[int]
SQUARE_NAMES: list[str]
FILE_NAMES: list[str]
RANK_NAMES: list[str]
STARTING_FEN: str
A1: int
B1: int
C1: int
D1: int
E1: int
F1: int
G1: int
H1: int
A2: int
B2: int
C2: int
D2: int
E2: int
F2: int
G2: int
H2: int
A3: int
B3: int
C3: int
D3: int
E3: int
F3: int
G3: int
H3: int
A4: int
B4: int
C4: int
D4: int
E4: int
F4: int
G4: int
H4: int
A5: int
B5: int
C5: int
D5: int
E5: int
F5: int
G5: int
H5: int
A6: int
B6: int
C6: int
D6: int
E6: int
F6: int
G6: int
H6: int
A7: int
B7: int
C7: int
D7: int
E7: int
F7: int
G7: int
H7: int
A8: int
B8: int
C8: int
D8: int
E8: int
F8: int
G8: int
H8: int

class InvalidFenError(ValueError):
    """The text is not a FEN."""
    field: str
    byte: int

class IllegalPositionError(ValueError):
    """The FEN is well formed but not a legal position."""
    problems: list[str]

class InvalidMoveError(ValueError):
    """The text is not a move in SAN or UCI notation."""
    byte: int

class IllegalMoveError(ValueError):
    """The move is not legal in the position."""

class AmbiguousMoveError(ValueError):
    """The SAN names more than one legal move."""
    candidates: list[str]

def square_name(square: int) -> str: ...
def parse_square(name: str) -> int: ...
def square(file_index: int, rank_index: int) -> int: ...
def square_file(square: int) -> int: ...
def square_rank(square: int) -> int: ...

@final
class Move:
    """A move from one square to another, the same in every position."""
    def __init__(self, from_square: int, to_square: int, promotion: Optional[int] = None) -> None: ...
    @staticmethod
    def from_uci(uci: str) -> Move: ...
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def promotion(self) -> Optional[int]: ...
    def uci(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Piece:
    """A piece type (1 pawn .. 6 king) and a colour (True for White)."""
    def __init__(self, piece_type: int, color: bool) -> None: ...
    @staticmethod
    def from_symbol(symbol: str) -> Piece: ...
    @property
    def piece_type(self) -> int: ...
    @property
    def color(self) -> bool: ...
    def symbol(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Outcome:
    """How a game ended, with the article of the FIDE Laws."""
    @property
    def termination(self) -> str: ...
    @property
    def winner(self) -> Optional[bool]: ...
    @property
    def article(self) -> str: ...
    def result(self) -> str: ...

class Board:
    """A position and the moves that led to it, as python-chess's chess.Board."""
    def __init__(self, fen: Optional[str] = None, *, chess960: bool = False) -> None: ...
    @staticmethod
    def from_chess960(scharnagl: int) -> Board: ...
    @staticmethod
    def from_chess960_pos(scharnagl: int) -> Board: ...
    def fen(self, *, shredder: bool = False, en_passant: str = "legal") -> str: ...
    def board_fen(self) -> str: ...
    def starting_fen(self) -> str: ...
    @property
    def turn(self) -> bool: ...
    @property
    def chess960(self) -> bool: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def move_stack(self) -> list[Move]: ...
    @property
    def legal_moves(self) -> list[Move]: ...
    def ply(self) -> int: ...
    def piece_at(self, square: int) -> Optional[Piece]: ...
    def king(self, color: bool) -> int: ...
    def is_legal(self, move: Move) -> bool: ...
    def push(self, move: Move) -> None: ...
    def push_uci(self, uci: str) -> Move: ...
    def parse_uci(self, uci: str) -> Move: ...
    def push_san(self, san: str) -> Move: ...
    def parse_san(self, san: str) -> Move: ...
    def san(self, move: Move) -> str: ...
    def san_and_push(self, move: Move) -> str: ...
    def lan_free_san(self, move: Move) -> str: ...
    def uci(self, move: Move) -> str: ...
    def pop(self) -> Move: ...
    def peek(self) -> Move: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def has_insufficient_material(self, color: bool) -> bool: ...
    def is_dead_position(self) -> bool: ...
    def can_win(self, color: bool) -> bool: ...
    def is_fivefold_repetition(self) -> bool: ...
    def is_seventyfive_moves(self) -> bool: ...
    def is_repetition(self, count: int = 3) -> bool: ...
    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]: ...
    def is_game_over(self, *, claim_draw: bool = False) -> bool: ...
    def result(self, *, claim_draw: bool = False) -> str: ...
    def can_claim_threefold_repetition(self) -> bool: ...
    def can_claim_fifty_moves(self) -> bool: ...
    def can_claim_draw(self) -> bool: ...
    def zobrist_hash(self) -> int: ...
    def polyglot_key(self) -> int: ...
    def perft(self, depth: int) -> int: ...
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def __eq__(self, other: object) -> bool: ...

class PgnParseError(ValueError):
    """A game of a PGN that cannot be read or replayed."""
    line: Optional[int]
    column: Optional[int]
    byte: Optional[int]
    ply: Optional[int]

@final
class Eval:
    """An engine evaluation from a [%eval] comment, from White's point of view."""
    @property
    def cp(self) -> Optional[int]: ...
    @property
    def mate(self) -> Optional[int]: ...
    @property
    def depth(self) -> Optional[int]: ...

@final
class Game:
    """A game read from PGN, its main line replayed."""
    @property
    def headers(self) -> dict[str, str]: ...
    @property
    def moves(self) -> list[Optional[Move]]: ...
    def mainline_moves(self) -> list[Optional[Move]]: ...
    @property
    def san(self) -> list[str]: ...
    @property
    def comments(self) -> list[str]: ...
    @property
    def clocks(self) -> list[Optional[float]]: ...
    @property
    def evals(self) -> list[Optional[Eval]]: ...
    @property
    def game_comments(self) -> list[str]: ...
    @property
    def termination_marker(self) -> Optional[str]: ...
    def board(self) -> Board: ...
    def end(self) -> Board: ...
    def to_pgn(self) -> str: ...
    def __len__(self) -> int: ...

class GameReader(Iterator[Game]):
    """The iterator read_games returns."""
    def __iter__(self) -> GameReader: ...
    def __next__(self) -> Game: ...

def read_games(
    source: Union[str, "os.PathLike[str]", Shard, BinaryIO, TextIO], *, skip_errors: bool = False
) -> GameReader: ...

class ArbiterError(ValueError):
    """An event the arbiter cannot read or apply."""
    event: int

class InvalidTimeControlError(ValueError):
    """The text is not a time control in PGN TimeControl syntax."""
    byte: int

@final
class TimeControl:
    """A time control in the syntax of the PGN TimeControl tag."""
    def __init__(self, text: str) -> None: ...
    @property
    def periods(self) -> list[dict[str, Any]]: ...
    @property
    def hourglass(self) -> bool: ...
    def fide_speed(self) -> str: ...
    def lichess_speed(self) -> str: ...
    def readable(self) -> str: ...

class Arbiter:
    """The arbiter of one game, fed with the events of caissa arbitrate's logs."""
    def __init__(
        self,
        *,
        rules: Optional[str] = None,
        time_control: Union[TimeControl, str, None] = None,
        fen: Optional[str] = None,
        chess960: bool = False,
        presses: Optional[str] = None,
        white: Optional[str] = None,
        black: Optional[str] = None,
        t_ms: int = 0,
    ) -> None: ...
    def feed(self, event: Union[dict[str, Any], str]) -> list[dict[str, Any]]: ...
    def verdict(self) -> dict[str, Any]: ...
    @property
    def decisions(self) -> list[dict[str, Any]]: ...
    @property
    def board(self) -> Board: ...
    @property
    def events(self) -> int: ...

class FilterError(ValueError):
    """A tag filter of select that cannot be read."""
    byte: int

def select(
    source: Union[str, "os.PathLike[str]", Shard, BinaryIO, TextIO],
    filter: Union[str, Sequence[str]] = ...,
    *,
    ending: Optional[str] = None,
    contains: Sequence[str] = ...,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    position: Union[Board, str, None] = None,
    moves: Sequence[str] = ...,
    openings: bool = False,
    format: str = "pgn",
    strip: Sequence[str] = ...,
    ply_count: bool = False,
    fen_comments: bool = False,
    fix_result: bool = False,
    lenient: bool = False,
    limit: Optional[int] = None,
    skip_errors: bool = True,
    threads: Optional[int] = None,
) -> list[str]: ...

@final
class ArrowStream:
    """Record batches of games, read once through the Arrow PyCapsule interface."""
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...

def to_arrow(
    paths: Union[str, "os.PathLike[str]", Shard, Sequence[Union[str, "os.PathLike[str]", Shard]]],
    filter: Union[str, Sequence[str]] = ...,
    *,
    columns: Sequence[str] = ...,
    ending: Optional[str] = None,
    contains: Sequence[str] = ...,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    position: Union[Board, str, None] = None,
    moves: Sequence[str] = ...,
    openings: bool = False,
    limit: Optional[int] = None,
    skip_errors: bool = True,
    threads: Optional[int] = None,
) -> ArrowStream: ...

def _shard_ranges(path: Union[str, "os.PathLike[str]"], size: int) -> list[tuple[int, int]]:
    """The byte ranges of caissa.pgn.shards(path, size)."""
    ...
