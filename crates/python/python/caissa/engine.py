"""UCI engines, as python-chess's ``chess.engine`` in its synchronous form:
``SimpleEngine.popen_uci(command)`` starts an engine, ``play(board, Limit(...))`` asks it for a
move, ``analyse(board, Limit(...))`` for its evaluation (``score`` as a ``PovScore``, ``pv`` as
moves) and ``analysis(board)`` for each ``info`` as it comes (until ``stop()``, or the limit),
``configure`` sets options, ``quit`` ends it. The protocol runs in Rust (``caissa-uci``'s
client: every ``bestmove`` checked to be a legal move of the board), with the GIL released while
the engine thinks.

``await popen_uci(command)`` gives python-chess's asyncio API (a transport and a
``UciProtocol`` with the same methods, to be awaited), each call run by the synchronous engine
in a worker thread of its own, so the event loop goes on while the engine thinks.

Scores (``Cp``, ``Mate``, ``MateGiven``) compare, print and give win/draw/loss chances
(``wdl``, with Stockfish's and lichess's models) as python-chess's do.

Where python-chess differs: there is no XBoard, and no ``info`` selection (``INFO_*`` are
taken; ``play`` always returns the last scored ``info`` of the best line).

>>> from caissa.engine import Cp, Mate, PovScore
>>> PovScore(Cp(35), caissa.BLACK).white(), PovScore(Mate(2), caissa.WHITE).relative.score(mate_score=10000)
(Cp(-35), 9998)
"""

import asyncio
import concurrent.futures
import enum
import math
import shlex
import threading
import collections.abc
from typing import (Any, Callable, Dict, Iterator, List, Mapping, NamedTuple, Optional, Tuple,
                    Union)

from caissa._caissa import Board, EngineError, EngineTerminatedError, Move, UciEngine

__all__ = [
    "AnalysisComplete", "AnalysisResult", "BestMove", "Cp", "EngineError",
    "EngineTerminatedError", "INFO_ALL", "Option", "PovWdl", "Wdl",
    "INFO_BASIC", "INFO_CURRLINE", "INFO_NONE", "INFO_PV", "INFO_REFUTATION", "INFO_SCORE",
    "Info", "Limit", "Mate", "MateGiven", "MateGivenType", "Opponent", "PlayResult", "PovScore",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine", "UciProtocol", "popen_uci",
]


class Info(enum.IntFlag):
    """python-chess's selection of ``info`` fields. caissa's ``analyse`` always gives every
    field the engine sent for the line, so the selection is taken and needs no effect."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL

#: Seconds an engine gets to start (``uciok``), to become ready after an option, and beyond a
#: search's own time to answer.
TIMEOUT = 10.0


class Score:
    """A score from one side's point of view: ``Cp``, ``Mate`` or ``MateGiven``. Scores compare
    from worst to best: mated (``Mate(-0)``), mated later, centipawns, mating later, mating
    sooner, mate given (``MateGiven``), as python-chess's do."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        raise NotImplementedError

    def is_mate(self) -> bool:
        return self.mate() is not None

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        """Win, draw and loss chances per mille by ``model``: one of Stockfish's win-rate models
        (``"sf"``, the newest, is ``"sf16.1"``; also ``"sf16"``, ``"sf15.1"``, ``"sf15"``,
        ``"sf14"``, ``"sf12"``), which depend on the game's progress (``ply``), or lichess's
        (``"lichess"``, no draws), as python-chess's ``wdl``. Raises ``ValueError`` for
        another model."""
        raise NotImplementedError

    def _rank(self) -> Tuple[int, int]:
        """Where the score stands in the order of the class docs."""
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        return self._rank() < other._rank() if isinstance(other, Score) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._rank() <= other._rank() if isinstance(other, Score) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._rank() > other._rank() if isinstance(other, Score) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._rank() >= other._rank() if isinstance(other, Score) else NotImplemented

    def __pos__(self) -> "Score":
        return self


def _stockfish_progress(ply: int) -> float:
    """The game's progress as Stockfish's models before 16.1 measure it."""
    return min(240, max(ply, 0)) / 64


# Stockfish's win-rate models: the chance of a win is a logistic curve in the evaluation, whose
# centre ``a`` and width ``b`` are cubic polynomials in the game's progress. Per version: the
# progress of a ply, the centipawns of a pawn in the model (100 where the evaluation is taken as
# it is), the evaluation's clamp, and the coefficients of ``a`` and ``b``, highest power first.
_STOCKFISH_MODELS: Dict[str, Tuple[Callable[[int], float], int, int, Tuple[float, ...],
                                   Tuple[float, ...]]] = {
    "sf16.1": (lambda ply: min(120, max(8, ply / 2 + 1)) / 32, 356, 4000,
               (-1.06249702, 7.42016937, 0.89425629, 348.60356174),
               (-5.33122190, 39.57831533, -90.84473771, 123.40620748)),
    "sf16": (_stockfish_progress, 328, 4000,
             (0.38036525, -2.82015070, 23.17882135, 307.36768407),
             (-2.29434733, 13.27689788, -14.26828904, 63.45318330)),
    "sf15.1": (_stockfish_progress, 361, 4000,
               (-0.58270499, 2.68512549, 15.24638015, 344.49745382),
               (-2.65734562, 15.96509799, -20.69040836, 73.61029937)),
    "sf15": (_stockfish_progress, 100, 2000,
             (-1.17202460e-1, 5.94729104e-1, 1.12065546e+1, 1.22606222e+2),
             (-1.79066759, 11.30759193, -17.43677612, 36.47147479)),
    "sf14": (_stockfish_progress, 100, 2000,
             (-3.68389304, 30.07065921, -60.52878723, 149.53378557),
             (-2.01818570, 15.85685038, -29.83452023, 47.59078827)),
    "sf12": (_stockfish_progress, 100, 1000,
             (-8.24404295, 64.23892342, -95.73056462, 153.86478679),
             (-3.37154371, 28.44489198, -56.67657741, 72.05858751)),
}
_STOCKFISH_MODELS["sf"] = _STOCKFISH_MODELS["sf16.1"]


def _cubic(coefficients: Tuple[float, ...], m: float) -> float:
    c3, c2, c1, c0 = coefficients
    return ((c3 * m + c2) * m + c1) * m + c0


def _stockfish_wins(model: str, cp: int, ply: int) -> int:
    """Wins per mille for an evaluation of ``cp`` centipawns by a Stockfish model."""
    try:
        progress, pawn, clamp, a, b = _STOCKFISH_MODELS[model]
    except KeyError:
        raise ValueError(f"no such WDL model: {model!r}") from None
    m = progress(ply)
    x = min(clamp, max(cp * pawn / 100, -clamp))
    return int(0.5 + 1000 / (1 + math.exp((_cubic(a, m) - x) / _cubic(b, m))))


def _lichess_wins(cp: int) -> int:
    """Wins per mille for ``cp`` centipawns by lichess's winning-chance formula."""
    return round(1000 / (1 + math.exp(-0.00368208 * cp)))


class Cp(Score):
    """Centipawns."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.cp

    def mate(self) -> Optional[int]:
        return None

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        if model == "lichess":
            wins = _lichess_wins(max(-1000, min(self.cp, 1000)))
            return Wdl(wins, 0, 1000 - wins)
        wins = _stockfish_wins(model, self.cp, ply)
        losses = _stockfish_wins(model, -self.cp, ply)
        return Wdl(wins, 1000 - wins - losses, losses)

    def _rank(self) -> Tuple[int, int]:
        return (1, self.cp)

    def __neg__(self) -> "Cp":
        return Cp(-self.cp)

    def __abs__(self) -> "Cp":
        return Cp(abs(self.cp))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cp) and other.cp == self.cp

    def __hash__(self) -> int:
        return hash(("cp", self.cp))

    def __str__(self) -> str:
        return f"{self.cp:+d}" if self.cp else "0"

    def __repr__(self) -> str:
        return f"Cp({self})"


class Mate(Score):
    """Mate in ``moves`` moves, negative when the side is getting mated; ``Mate(0)`` is mated
    (written ``Mate(-0)``, as the engines' ``mate 0``), ``MateGiven`` its opposite."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """``None``, or with ``mate_score`` the score that mates sooner ranks higher:
        ``mate_score - moves`` when mating, ``-mate_score - moves`` when mated."""
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        if model != "lichess":
            if model not in _STOCKFISH_MODELS:
                raise ValueError(f"no such WDL model: {model!r}")
            return Wdl(1000, 0, 0) if self.moves > 0 else Wdl(0, 0, 1000)
        # lichess counts a mate as an evaluation of 11 to 20 pawns, sooner mates more.
        wins = _lichess_wins((21 - min(10, abs(self.moves))) * 100)
        return Wdl(wins, 0, 1000 - wins) if self.moves > 0 else Wdl(1000 - wins, 0, wins)

    def _rank(self) -> Tuple[int, int]:
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def __neg__(self) -> Score:
        return Mate(-self.moves) if self.moves else MateGiven

    def __abs__(self) -> Score:
        return Mate(abs(self.moves)) if self.moves else MateGiven

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mate) and other.moves == self.moves

    def __hash__(self) -> int:
        return hash(("mate", self.moves))

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{-self.moves}"

    def __repr__(self) -> str:
        return f"Mate({str(self)[1:]})"


class MateGivenType(Score):
    """The score of a side that has mated: ``-Mate(0)``, the best score (``MateGiven``)."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> Optional[int]:
        return 0

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        return Wdl(1000, 0, 0)

    def _rank(self) -> Tuple[int, int]:
        return (3, 0)

    def __neg__(self) -> Score:
        return Mate(0)

    def __abs__(self) -> Score:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MateGivenType)

    def __hash__(self) -> int:
        return hash("mate given")

    def __str__(self) -> str:
        return "#+0"

    def __repr__(self) -> str:
        return "MateGiven"


#: The score of a side that has mated (python-chess's ``MateGiven``).
MateGiven = MateGivenType()


class PovScore:
    """A score as the engine gave it (``relative``: from the side to move's point of view) and
    the side it is for (``turn``)."""

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if self.turn == color else -self.relative  # type: ignore[operator]

    def white(self) -> Score:
        return self.pov(True)

    def black(self) -> Score:
        return self.pov(False)

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "PovWdl":
        """The relative score's ``wdl`` (see ``Score.wdl``) for the same side."""
        return PovWdl(self.relative.wdl(model=model, ply=ply), self.turn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.white() == other.white()

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


class Wdl:
    """Win, draw and loss chances, per mille as engines give them (``info["wdl"]``, a
    ``PovWdl``), as python-chess's ``Wdl``: iterated as ``(wins, draws, losses)``."""

    __slots__ = ("wins", "draws", "losses")

    def __init__(self, wins: int, draws: int, losses: int) -> None:
        self.wins = wins
        self.draws = draws
        self.losses = losses

    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        return self.draws / self.total()

    def losing_chance(self) -> float:
        return self.losses / self.total()

    def expectation(self) -> float:
        """A win counting 1, a draw 0.5."""
        return (self.wins + 0.5 * self.draws) / self.total()

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.draws, self.losses))

    def __bool__(self) -> bool:
        return bool(self.total())

    def __neg__(self) -> "Wdl":
        return Wdl(self.losses, self.draws, self.wins)

    def __pos__(self) -> "Wdl":
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Wdl) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(("wdl", *self))

    def __repr__(self) -> str:
        return f"Wdl(wins={self.wins}, draws={self.draws}, losses={self.losses})"


class PovWdl:
    """A ``Wdl`` from the side to move's view (``relative``) and that side (``turn``)."""

    def __init__(self, relative: Wdl, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, color: bool) -> Wdl:
        return self.relative if color == self.turn else -self.relative

    def white(self) -> Wdl:
        return self.pov(True)

    def black(self) -> Wdl:
        return self.pov(False)

    def __bool__(self) -> bool:
        return bool(self.relative)

    # As python-chess's, for code that took ``info["wdl"]`` for a tuple: the relative chances.
    def __iter__(self) -> Iterator[int]:
        return iter(self.relative)

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> int:
        return tuple(self.relative)[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovWdl) and self.white() == other.white()

    def __repr__(self) -> str:
        return f"PovWdl({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


#: python-chess's type names, for annotations: an ``info`` dict, a WDL model's name, an option's
#: value and a mapping of options to values (``configure``).
InfoDict = Dict[str, Any]
WdlModel = str
ConfigValue = Union[str, int, bool, None]
ConfigMapping = Mapping[str, ConfigValue]

#: The options python-chess sets itself, as caissa does (``Option.is_managed``).
MANAGED_OPTIONS = ["uci_chess960", "uci_variant", "multipv", "ponder"]


class Option(NamedTuple):
    """An option the engine declared (``engine.options[name]``), as python-chess's ``Option``:
    ``type`` (``check``, ``spin``, ``combo``, ``button``, ``string``), ``default``, ``min``
    and ``max`` of a spin, ``var`` the values of a combo."""

    name: str
    type: str
    default: Any
    min: Optional[int]
    max: Optional[int]
    var: List[str]

    def parse(self, value: Any) -> Any:
        """``value`` as this option takes it; ``EngineError`` when it cannot."""
        if self.type == "check":
            return bool(value) and value != "false"
        if self.type == "spin":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise EngineError(f"option {self.name!r} takes an integer, not {value!r}")
            if not (self.min is None or self.min <= number) or not (
                    self.max is None or number <= self.max):
                raise EngineError(f"option {self.name!r} takes {self.min} to {self.max}, "
                                  f"not {number}")
            return number
        if self.type == "combo":
            if str(value) not in (self.var or []):
                raise EngineError(f"option {self.name!r} takes one of {self.var}, not {value!r}")
            return str(value)
        if self.type == "button":
            return None
        text = str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"option {self.name!r} takes no line break: {value!r}")
        return text

    def is_managed(self) -> bool:
        """Whether the engine's caller sets it itself (``MultiPV``, ``UCI_Chess960``, ...)."""
        return self.name.lower() in MANAGED_OPTIONS


def _option_text(value: Any) -> str:
    """An option's value as ``setoption`` writes it (``true``/``false`` for a check)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Options(collections.abc.Mapping):
    """The engine's options by name, the case of the name not counting (python-chess's
    ``UciOptionMap``)."""

    def __init__(self, options: List[Option]) -> None:
        self._by_name = {option.name.lower(): option for option in options}

    def __getitem__(self, name: str) -> Option:
        return self._by_name[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


class Opponent(NamedTuple):
    """An engine's opponent, for ``send_opponent_information`` (python-chess's ``Opponent``)."""

    name: Optional[str] = None
    title: Optional[str] = None
    rating: Optional[int] = None
    is_engine: Optional[bool] = None


class Limit(NamedTuple):
    """When a search ends: ``time`` (seconds, as ``movetime``), ``depth``, ``nodes``, ``mate``,
    or the clocks (``white_clock``, ``black_clock``, ``white_inc``, ``black_inc`` in seconds,
    ``remaining_moves``)."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None
    #: python-chess's tag for engines that keep clocks between searches; caissa's take each
    #: search's clocks as given.
    clock_id: object = None

    def __repr__(self) -> str:
        given = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items()
                          if value is not None)
        return f"Limit({given})"


class PlayResult(NamedTuple):
    """The engine's move, the move it would ponder on, and its last scored ``info``."""

    move: Move
    ponder: Optional[Move]
    info: Dict[str, Any]


def _ms(seconds: Optional[float]) -> Optional[int]:
    return None if seconds is None else round(seconds * 1000)


def _go(board: Board, limit: Optional[Limit], root_moves: Optional[Any] = None) -> tuple:
    """The ``go`` parameters of ``limit`` as ``UciEngine`` takes them (``None``: infinite),
    with ``root_moves``, legal moves of ``board``, as ``searchmoves``."""
    searchmoves = [board.uci(move) for move in root_moves or ()]
    if limit is None:
        return (None,) * 9 + (True, searchmoves)
    return (_ms(limit.time), limit.depth, limit.nodes, limit.mate, _ms(limit.white_clock),
            _ms(limit.black_clock), _ms(limit.white_inc), _ms(limit.black_inc),
            limit.remaining_moves, False, searchmoves)


def _ended_info(board: Board) -> Dict[str, Any]:
    """The ``info`` of a position without a legal move, as engines give it without a search:
    mated (``Mate(-0)``) or 0 for stalemate, at depth 0."""
    ended = Mate(0) if board.is_check() else Cp(0)
    return {"depth": 0, "score": PovScore(ended, board.turn)}


class BestMove:
    """How an analysis ended: the engine's ``move`` (``None`` if it gave none) and the move it
    would ``ponder`` on (python-chess's ``BestMove``)."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move]) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<BestMove at {id(self):#x} (move={self.move}, ponder={self.ponder})>"


class AnalysisComplete(Exception):
    """Asked for more of an analysis whose every ``info`` has been taken (``get()``)."""


class AnalysisResult:
    """A search followed as it goes (``SimpleEngine.analysis``), as python-chess's
    ``SimpleAnalysisResult``: iterate it (or call ``next()`` / ``get()``) for each ``info``
    the engine sends, as a dict like ``analyse``'s; ``info`` is what the best line has said so
    far, merged, and ``multipv`` the same for each line. ``stop()`` ends the search, ``wait()``
    waits for its end and gives the ``BestMove``. As a context manager it stops the search on
    leaving. The engine takes no other command until the search has ended (``play`` and the
    others stop it first)."""

    def __init__(self, engine: "SimpleEngine", board: Board, wait: Optional[float]) -> None:
        self._engine = engine
        self._board = board.copy(stack=True)
        self._wait = wait
        # The options to set back when the search ends.
        self._restore: Dict[str, str] = {}
        # One reader at a time: the thread following the search, or one ending it.
        self._reading = threading.Lock()
        self._pending: List[Dict[str, Any]] = []
        self._best: Optional[BestMove] = None
        self._stopped = False
        self.multipv: List[Dict[str, Any]] = [{}]

    @property
    def info(self) -> Dict[str, Any]:
        """Everything the best line has said so far, merged."""
        return self.multipv[0]

    def _read(self, timeout: Optional[float]) -> bool:
        """Reads the engine's next event into the pending ``info`` dicts or the end; whether
        one came within ``timeout`` (or had come: another thread may have read the end). A
        poll (``timeout`` 0) gives up at once while another thread reads."""
        if not self._reading.acquire(blocking=timeout != 0.0):
            return False
        try:
            if self._best is not None:
                return True
            event = self._engine._engine.next_event(self._board, timeout)
            if event is None:
                return False
            if event[0] == "bestmove":
                self._best = BestMove(event[1], event[2])
                self._engine._analysis = None
                self._engine._set_options(self._restore)
                return True
            info = SimpleEngine._info(event[1], self._board.turn)
            line = max(info.get("multipv", 1), 1)
            while len(self.multipv) < line:
                self.multipv.append({})
            self.multipv[line - 1].update(info)
            self._pending.append(info)
            return True
        finally:
            self._reading.release()

    def next(self) -> Optional[Dict[str, Any]]:
        """The next ``info``, waiting for it; ``None`` once the search has ended and every
        ``info`` was taken."""
        while not self._pending and self._best is None:
            if not self._read(self._wait):
                raise EngineError(f"no answer from the engine within {self._wait} s")
        return self._pending.pop(0) if self._pending else None

    def get(self) -> Dict[str, Any]:
        """The next ``info``, waiting for it; raises ``AnalysisComplete`` at the end."""
        info = self.next()
        if info is None:
            raise AnalysisComplete()
        return info

    def empty(self) -> bool:
        """Whether every ``info`` that has come was taken."""
        return not self._pending and (self._best is not None or not self._read(0.0))

    def would_block(self) -> bool:
        """Whether ``get()`` would wait for the engine."""
        return self.empty() and self._best is None

    def stop(self) -> None:
        """Ends the search (the engine then sends its best move)."""
        if self._best is None and not self._stopped:
            self._stopped = True
            self._engine._engine.stop()

    def wait(self) -> BestMove:
        """Waits for the end of the search (the limit, or ``stop()``) and gives its best move;
        the ``info`` not yet taken stay to be taken."""
        while self._best is None:
            if not self._read(self._wait):
                raise EngineError(f"no answer from the engine within {self._wait} s")
        return self._best

    def __iter__(self) -> "AnalysisResult":
        return self

    def __next__(self) -> Dict[str, Any]:
        info = self.next()
        if info is None:
            raise StopIteration
        return info

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
        self.wait()


#: python-chess's name for the synchronous analysis.
SimpleAnalysisResult = AnalysisResult


class SimpleEngine:
    """A UCI engine process, as python-chess's ``chess.engine.SimpleEngine``; a context
    manager that quits the engine."""

    def __init__(self, engine: UciEngine, timeout: Optional[float]) -> None:
        self._engine = engine
        self.timeout = TIMEOUT if timeout is None else timeout
        self._analysis: Optional[AnalysisResult] = None
        # What the engine declared in its handshake, which does not change.
        self._options = _Options([Option(*spec) for spec in engine.option_specs])
        # Each option's value as sent, by its name in lower case (UCI's names do not count
        # case): the engine's default until `configure` sets it (buttons have none).
        self._config: Dict[str, str] = {
            option.name.lower(): _option_text(option.default)
            for option in self._options.values() if option.type != "button"}

    def _finish_analysis(self, timeout: Optional[float] = None) -> None:
        """Ends the analysis under way, if any: the engine takes one command at a time. With a
        ``timeout``, gives up waiting for its end after that long without a line."""
        analysis = self._analysis
        if analysis is not None:
            analysis.stop()
            while analysis._best is None and analysis._read(timeout):
                pass

    @classmethod
    def popen_uci(cls, command: Union[str, List[str]], *,
                  timeout: Optional[float] = TIMEOUT) -> "SimpleEngine":
        """Starts ``command`` (a program, or a list of the program and its arguments; a string
        with spaces is split as a shell would) and waits for its ``uciok``. Raises
        ``EngineError`` if it cannot be started or does not answer within ``timeout``
        seconds."""
        if isinstance(command, str):
            command = shlex.split(command) if " " in command else [command]
        return cls(UciEngine(list(command), TIMEOUT if timeout is None else timeout), timeout)

    @property
    def id(self) -> Dict[str, Optional[str]]:
        """``name`` and ``author``, as the engine gave them."""
        return self._engine.id

    @property
    def options(self) -> Mapping[str, Option]:
        """The engine's options, each an ``Option``, by name (its case not counting)."""
        return self._options

    def ping(self) -> None:
        """Waits for the engine to be ready (``isready``, ``readyok``)."""
        self._finish_analysis()
        self._engine.ping(self.timeout)

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets the engine's options (``True``/``False`` written as ``true``/``false``,
        ``None`` for a button)."""
        self._finish_analysis()
        sent = self._set_options(options)
        self._config.update((name.lower(), value) for name, value in sent.items())

    def _set_options(self, options: Mapping[str, Any]) -> Dict[str, str]:
        """Sends ``options``, each checked first against what the engine declared (as
        python-chess checks them: ``EngineError`` for an option it does not have or a value
        its type does not take, a line break in a text above all); the values set, as text
        (buttons left out)."""
        declared = self.options
        checked = []
        for name, value in options.items():
            if name not in declared:
                raise EngineError(f"the engine has no option {name!r}")
            value = declared[name].parse(value)
            checked.append((name, None if value is None else _option_text(value)))
        sent = {}
        for name, text in checked:
            self._engine.set_option(name, text, self.timeout)
            if text is not None:
                sent[name] = text
        return sent

    def _set_variant(self, board: Board) -> None:
        """Sets ``UCI_Chess960`` to the board's kind of chess, as python-chess does before each
        search: a Chess960 board's castling is written as the king taking its rook."""
        wanted = "true" if board.chess960 else "false"
        current = self._config.get("uci_chess960")
        if current is None:
            if board.chess960:
                raise EngineError("the engine does not support UCI_Chess960")
        elif current != wanted:
            self._set_options({"UCI_Chess960": wanted})
            self._config["uci_chess960"] = wanted

    def send_opponent_information(self, *, opponent: Optional[Opponent] = None,
                                  engine_rating: Optional[int] = None) -> None:
        """Tells the engine who it plays (``UCI_Opponent``, where it has the option), as
        python-chess does; ``engine_rating`` is XBoard's and taken."""
        if opponent and opponent.name and "UCI_Opponent" in self.options:
            kind = "computer" if opponent.is_engine else "human"
            self.configure({"UCI_Opponent": f"{opponent.title or 'none'} "
                                            f"{opponent.rating or 'none'} {kind} {opponent.name}"})

    def send_game_result(self, board: Board, winner: Optional[bool] = None,
                         game_ending: Optional[str] = None, game_complete: bool = True) -> None:
        """Nothing to send: UCI has no message for a game's end (python-chess sends one to
        XBoard engines only)."""

    def _with_multipv(self, options: Optional[Mapping[str, Any]],
                      multipv: Optional[int]) -> Dict[str, Any]:
        """``options`` for one search, with ``MultiPV`` set to ``multipv`` where the engine has
        the option or more than one line is asked for, as python-chess sets it: one line from an
        engine without the option (GNU Chess) is its usual search, more an ``EngineError``."""
        temporary = dict(options or {})
        if multipv is not None and (multipv > 1 or "MultiPV" in self.options):
            temporary["MultiPV"] = multipv
        return temporary

    def _set_for_one_search(self, options: Mapping[str, Any]) -> Dict[str, str]:
        """Sets ``options`` for the next search only: what to set back after it (the values
        ``configure`` gave, else the engine's defaults)."""
        self._finish_analysis()
        restore = {name: self._config[name.lower()] for name in options
                   if name.lower() in self._config}
        self._set_options(options)
        return restore

    def play(self, board: Board, limit: Limit, *, game: object = None, info: Info = INFO_NONE,
             ponder: bool = False, draw_offered: bool = False, root_moves: Optional[Any] = None,
             options: Optional[Mapping[str, Any]] = None,
             opponent: Optional[Opponent] = None) -> PlayResult:
        """The engine's move in the current position of ``board`` (sent with its moves, so the
        engine sees repetitions), within ``limit``, among ``root_moves`` if given (UCI's
        ``searchmoves``), with ``options`` for this search only, after telling it its
        ``opponent``. python-chess's ``game``, ``info``, ``ponder`` and ``draw_offered`` are
        taken: the engine is told of no new game (it sees the whole move list each time), the
        info is always the last scored line, and there is no pondering nor draw offer in UCI's
        ``go``."""
        if opponent is not None:
            self.send_opponent_information(opponent=opponent)
        if not board.legal_moves:
            # The game has ended: no move, as the engine's ``bestmove (none)`` says.
            self._finish_analysis()
            return PlayResult(None, None, _ended_info(board))
        move, ponder_move, found, _ = self._search(board, limit, root_moves, options or {})
        return PlayResult(move, ponder_move, found)

    def analyse(self, board: Board, limit: Limit, *, multipv: Optional[int] = None,
                game: object = None, info: Info = INFO_ALL, root_moves: Optional[Any] = None,
                options: Optional[Mapping[str, Any]] = None
                ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """The engine's last scored ``info`` for the current position of ``board``, searched
        within ``limit``: ``score`` (a ``PovScore``), ``pv``, ``depth``, ``nodes``, ``time`` ...
        With ``multipv``, the engine's ``MultiPV`` option is set to it for this search (and back
        after), and a list is returned: the last scored ``info`` of each line, the best first
        (as python-chess, from an engine without the option one line is its usual search, more
        an ``EngineError``).
        ``root_moves`` and ``options`` as for ``play``. python-chess's ``game`` and ``info`` are
        taken (every field is always given). In a position without a legal move the engine is
        not asked: the score is mated (``Mate(-0)``) or 0 for stalemate, at depth 0, as engines
        give it.
        """
        if not board.legal_moves:
            self._finish_analysis()
            found = _ended_info(board)
            return found if multipv is None else [found]
        temporary = self._with_multipv(options, multipv)
        _, _, found, lines = self._search(board, limit, root_moves, temporary)
        return found if multipv is None else lines

    def analysis(self, board: Board, limit: Optional[Limit] = None, *,
                 multipv: Optional[int] = None, game: object = None, info: Info = INFO_ALL,
                 root_moves: object = None, options: Optional[Mapping[str, Any]] = None
                 ) -> AnalysisResult:
        """Starts a search of the current position of ``board`` and gives each ``info`` as the
        engine sends it (an ``AnalysisResult``), until ``limit`` is reached or, without one,
        until ``stop()``. ``multipv`` sets the ``MultiPV`` option and ``options`` others for
        this search only (they are set back when it ends), ``root_moves`` limits it to those
        moves. In a position without a legal move the analysis has ended at once, with the one
        ``info`` engines give there (see ``analyse``). python-chess's ``game`` and ``info`` are
        taken.

        >>> # with caissa.engine.SimpleEngine.popen_uci("stockfish") as engine:
        >>> #     with engine.analysis(caissa.Board(), caissa.engine.Limit(depth=12)) as a:
        >>> #         for info in a:
        >>> #             print(info.get("depth"), info.get("score"))
        """
        self._finish_analysis()
        wait = self._wait(limit) if limit is not None else None
        result = AnalysisResult(self, board, wait)
        if not board.legal_moves:
            info = _ended_info(board)
            result._pending.append(info)
            result.multipv[0].update(info)
            result._best = BestMove(None, None)
            return result
        temporary = self._with_multipv(options, multipv)
        result._restore = self._set_for_one_search(temporary)
        try:
            self._set_variant(board)
            self._engine.start(board, _go(board, limit, root_moves))
        except BaseException:
            self._set_options(result._restore)
            raise
        self._analysis = result
        return result

    @staticmethod
    def _info(raw: Optional[Dict[str, Any]], turn: bool) -> Dict[str, Any]:
        info: Dict[str, Any] = dict(raw or {})
        if "score" in info:
            kind, value, bound = info.pop("score")
            info["score"] = PovScore(Cp(value) if kind == "cp" else Mate(value), turn)
            if bound != "exact":
                info[f"{bound}bound"] = True
        if "wdl" in info:
            info["wdl"] = PovWdl(Wdl(*info["wdl"]), turn)
        return info

    def _wait(self, limit: Limit) -> Optional[float]:
        """Seconds to wait for the end of a search within ``limit``; ``None`` for as long as it
        takes (a search by depth, nodes or mate)."""
        if limit.time is None and limit.white_clock is None and limit.black_clock is None:
            return None
        clock = max(limit.white_clock or 0.0, limit.black_clock or 0.0)
        return self.timeout + (limit.time if limit.time is not None else clock)

    def _search(self, board: Board, limit: Limit, root_moves: Optional[Any] = None,
                options: Optional[Mapping[str, Any]] = None):
        self._finish_analysis()
        restore = self._set_for_one_search(options) if options else {}
        try:
            self._set_variant(board)
            go = _go(board, limit, root_moves)
            move, ponder, raw, lines = self._engine.play(board, go, self._wait(limit))
        finally:
            self._set_options(restore)
        return (move, ponder, self._info(raw, board.turn),
                [self._info(line, board.turn) for line in lines])

    def _stop_analysis(self) -> None:
        """Stops the analysis under way, if any, without waiting for its end."""
        if self._analysis is not None:
            self._analysis.stop()

    def quit(self) -> None:
        """Asks the engine to quit, and ends it if it has not within the timeout. An analysis
        under way is stopped first, and its end read (its ``wait()`` gives it)."""
        self._finish_analysis(self.timeout)
        self._engine.quit(self.timeout)

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.quit()


class AsyncAnalysisResult:
    """``UciProtocol.analysis``'s result, python-chess's ``AnalysisResult`` in asyncio: ``async
    for info in analysis``, ``await analysis.get()`` / ``next()`` / ``wait()``, ``info`` and
    ``multipv`` as they stand, ``stop()``; ``with`` stops the search on leaving."""

    def __init__(self, protocol: "UciProtocol", result: AnalysisResult) -> None:
        self._protocol = protocol
        self._result = result

    @property
    def info(self) -> Dict[str, Any]:
        return self._result.info

    @property
    def multipv(self) -> List[Dict[str, Any]]:
        return self._result.multipv

    def stop(self) -> None:
        self._result.stop()

    def empty(self) -> bool:
        return self._result.empty()

    def would_block(self) -> bool:
        return self._result.would_block()

    async def next(self) -> Optional[Dict[str, Any]]:
        return await self._protocol._run(self._result.next)

    async def get(self) -> Dict[str, Any]:
        return await self._protocol._run(self._result.get)

    async def wait(self) -> BestMove:
        return await self._protocol._run(self._result.wait)

    def __aiter__(self) -> "AsyncAnalysisResult":
        return self

    async def __anext__(self) -> Dict[str, Any]:
        info = await self.next()
        if info is None:
            raise StopAsyncIteration
        return info

    def __enter__(self) -> "AsyncAnalysisResult":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class UciProtocol:
    """python-chess's asyncio engine (``chess.engine.UciProtocol``) on a ``SimpleEngine``:
    ``id``, ``options``, and ``await`` ``ping()``, ``configure()``, ``play()``, ``analyse()``,
    ``analysis()``, ``quit()``, with python-chess's arguments. The calls run one at a time in
    the engine's own worker thread."""

    def __init__(self, engine: SimpleEngine) -> None:
        self._engine = engine
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    async def _run(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, lambda: call(*args, **kwargs))

    @property
    def id(self) -> Dict[str, Optional[str]]:
        return self._engine.id

    @property
    def options(self) -> Mapping[str, Option]:
        return self._engine.options

    async def ping(self) -> None:
        await self._run(self._engine.ping)

    async def configure(self, options: Mapping[str, Any]) -> None:
        await self._run(self._engine.configure, options)

    async def send_opponent_information(self, **kwargs: Any) -> None:
        await self._run(self._engine.send_opponent_information, **kwargs)

    async def send_game_result(self, board: Board, *args: Any, **kwargs: Any) -> None:
        await self._run(self._engine.send_game_result, board, *args, **kwargs)

    async def _search(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call`` run as ``_run`` runs it; a search whose caller is cancelled is stopped, as
        python-chess stops it."""
        try:
            return await self._run(call, *args, **kwargs)
        except asyncio.CancelledError:
            self._engine._engine.stop()
            raise

    async def play(self, board: Board, limit: Limit, **kwargs: Any) -> PlayResult:
        return await self._search(self._engine.play, board.copy(), limit, **kwargs)

    async def analyse(self, board: Board, limit: Limit, **kwargs: Any
                      ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        return await self._search(self._engine.analyse, board.copy(), limit, **kwargs)

    async def analysis(self, board: Board, limit: Optional[Limit] = None,
                       **kwargs: Any) -> AsyncAnalysisResult:
        result = await self._run(self._engine.analysis, board.copy(), limit, **kwargs)
        return AsyncAnalysisResult(self, result)

    async def quit(self) -> None:
        self._engine._stop_analysis()
        await self._run(self._engine.quit)


class _Transport:
    """What ``popen_uci`` gives beside the protocol, in place of python-chess's subprocess
    transport: ``close()`` ends the engine."""

    def __init__(self, protocol: UciProtocol) -> None:
        self._protocol = protocol
        self._closed = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._protocol._engine.quit()

    def is_closing(self) -> bool:
        return self._closed


async def popen_uci(command: Union[str, List[str]], *, timeout: Optional[float] = TIMEOUT,
                    **_popen_args: Any) -> Tuple[_Transport, UciProtocol]:
    """Starts a UCI engine as ``SimpleEngine.popen_uci`` does, without blocking the event
    loop, and gives python-chess's pair: a transport and a ``UciProtocol``.

    >>> # transport, engine = await caissa.engine.popen_uci("stockfish")
    >>> # result = await engine.play(caissa.Board(), caissa.engine.Limit(time=0.1))
    >>> # await engine.quit()
    """
    loop = asyncio.get_running_loop()
    engine = await loop.run_in_executor(
        None, lambda: SimpleEngine.popen_uci(command, timeout=timeout))
    protocol = UciProtocol(engine)
    return _Transport(protocol), protocol
