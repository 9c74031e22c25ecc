"""PGN for Python on caissa's streaming reader: ``read_games(path_or_file)`` yields ``Game``
objects (headers, main line moves and SAN, comments, clocks, evaluations, boards), each read
and replayed in Rust with the GIL released; ``select(path_or_file, filter, ...)`` is ``caissa pgn
select`` (tag filters; PGN, UCI, LAN, SAN, FEN or EPD out) on every core; ``to_arrow(paths,
...)`` streams the selected games as Arrow record batches in the Hugging Face Lichess columns,
for pyarrow, polars and DuckDB through the Arrow PyCapsule interface.
``shards(path, size)`` cuts a file into byte ranges at game boundaries, for Dask or Spark tasks
that each read one; ``read_games``, ``read_headers_all``, ``select`` and ``to_arrow`` take a
``Shard`` wherever they take a path.

>>> import io, caissa.pgn
>>> game = next(caissa.pgn.read_games(io.StringIO("1. e4 { [%eval 0.3] } e5 *")))
>>> game.evals[0]
Eval(cp=30, mate=None, depth=None)
"""

import dataclasses
import enum
import os
import re
import weakref
from collections.abc import MutableMapping, MutableSet
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

from caissa._caissa import (
    ArrowStream,
    ChildNode,
    Eval,
    FilterError,
    Game,
    GameNode,
    GameReader,
    HeadersReader,
    PgnParseError,
    read_games,
    read_headers_all,
    select,
    to_arrow,
)
from caissa._caissa import Board, _shard_ranges
from caissa._caissa import InvalidTimeControlError
from caissa._caissa import TimeControl as _RustTimeControl

__all__ = [
    "ArrowStream",
    "BaseVisitor",
    "BoardBuilder",
    "ChildNode",
    "Eval",
    "FilterError",
    "Game",
    "GameBuilder",
    "GameNode",
    "GameReader",
    "FileExporter",
    "Headers",
    "HeadersBuilder",
    "HeadersReader",
    "Mainline",
    "NagSet",
    "PgnParseError",
    "SKIP",
    "Shard",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "TAG_ROSTER",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "parse_time_control",
    "read_game",
    "read_games",
    "read_headers",
    "read_headers_all",
    "select",
    "shards",
    "skip_game",
    "to_arrow",
]


#: The seven tag roster, in the order the export format writes it.
TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]

# The numeric annotation glyphs python-chess names (PGN standard, section 10).
NAG_NULL = 0
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146


class SkipType(enum.Enum):
    """What a visitor's method returns to skip a game, its movetext or a variation."""

    SKIP = None


SKIP = SkipType.SKIP


class BaseVisitor:
    """python-chess's visitor of a game, for ``game.accept(visitor)`` and
    ``read_game(handle, Visitor=...)``: its methods are called in PGN order with caissa's
    boards and moves (a python-chess visitor that uses only the board and move methods both
    have works unchanged). ``begin_game``, ``end_headers`` and ``begin_variation`` may return
    ``SKIP``. Override ``result``."""

    def begin_game(self) -> Optional[SkipType]:
        """Called at the start of a game."""

    def begin_headers(self) -> Optional["Headers"]:
        """Called before the tag pairs."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """Called for each tag pair."""

    def end_headers(self) -> Optional[SkipType]:
        """Called after the tag pairs."""

    def begin_parse_san(self, board: Any, san: str) -> Optional[SkipType]:
        """python-chess's hook; never called (caissa's reader reads the SAN in Rust)."""

    def parse_san(self, board: Any, san: str) -> Any:
        """python-chess's hook; never called (caissa's reader reads the SAN in Rust)."""
        return board.parse_san(san)

    def visit_move(self, board: Any, move: Any) -> None:
        """Called for each move, with the board before it (to be left as it was)."""

    def visit_board(self, board: Any) -> None:
        """Called with the start position and after each move (to be left as it was)."""

    def visit_comment(self, comment: str) -> None:
        """Called for each comment."""

    def visit_nag(self, nag: int) -> None:
        """Called for each glyph."""

    def begin_variation(self) -> Optional[SkipType]:
        """Called at the start of each variation (not for the main line)."""

    def end_variation(self) -> None:
        """Called at the end of each variation."""

    def visit_result(self, result: str) -> None:
        """Called at the end of the movetext with the ``Result`` tag's value."""

    def end_game(self) -> None:
        """Called at the end of a game."""

    def result(self) -> Any:
        """What the visitor gives back."""
        raise NotImplementedError

    def handle_error(self, error: Exception) -> None:
        """Called for errors; raises them."""
        raise error


class GameBuilder(BaseVisitor):
    """Builds a ``Game`` from the visitor's calls (python-chess's ``GameBuilder``, the default
    of ``read_game``, which builds games in Rust without it)."""

    def __init__(self, *, Game: Any = None) -> None:
        self.Game = Game or globals()["Game"]

    def begin_game(self) -> None:
        self.game = self.Game(headers={})
        self.variation_stack: List[Any] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> "Headers":
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        node = self.variation_stack[-1]
        node.nags = node.nags | {nag}

    def begin_variation(self) -> None:
        self.variation_stack.append(self.variation_stack[-1].parent)
        self.starting_comment = ""
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        node = self.variation_stack[-1]
        if self.in_variation or (node.parent is None and node.is_end()):
            node.comment = " ".join(c for c in (node.comment, comment) if c)
        else:
            self.starting_comment = " ".join(c for c in (self.starting_comment, comment) if c)

    def visit_move(self, board: Any, move: Any) -> None:
        node = self.variation_stack[-1].add_variation(move)
        node.starting_comment = self.starting_comment
        self.variation_stack[-1] = node
        self.starting_comment = ""
        self.in_variation = True

    def result(self) -> Any:
        return self.game


class HeadersBuilder(BaseVisitor):
    """Collects a game's tag pairs and skips its movetext (python-chess's ``HeadersBuilder``)."""

    def begin_headers(self) -> Dict[str, str]:
        self.headers: Dict[str, str] = {}
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Dict[str, str]:
        return self.headers


class BoardBuilder(BaseVisitor):
    """Gives the board at the end of a game's main line (python-chess's ``BoardBuilder``)."""

    def begin_game(self) -> None:
        self.skip_variation_depth = 0

    def begin_variation(self) -> SkipType:
        return SKIP

    def visit_board(self, board: Any) -> None:
        self.board = board.copy()

    def result(self) -> Any:
        return self.board


class SkipVisitor(BaseVisitor):
    """Skips whole games (python-chess's ``SkipVisitor``)."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


def _accept_node(node: Any, board: Any, visitor: Any) -> None:
    """The visitor's calls for one move: its starting comment, the move, the board after it,
    its glyphs and its comment."""
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    move = node.move
    visitor.visit_move(board, move)
    board.push(move)
    visitor.visit_board(board)
    board.pop()
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    comment = node._raw_comment
    if comment:
        visitor.visit_comment(comment)


def _walk(first: Any, sidelines: Any, board: Any, visitor: Any) -> None:
    """The visitor's calls for the line from ``first`` (on ``board``, the position before
    it) and the ``sidelines`` beside it: each move, then the variations of its parent that
    it stands beside, then the rest of the line, in python-chess's order, without recursion."""
    # Frames: [node, state, sidelines iterator, in_variation].
    stack: List[List[Any]] = [[first, "pre", sidelines, False]]
    while stack:
        top = stack[-1]
        if top[3]:
            top[3] = False
            visitor.end_variation()
        node, state = top[0], top[1]
        if state == "pre":
            _accept_node(node, board, visitor)
            top[1] = "variations"
        elif state == "variations":
            side = next(top[2], None)
            if side is not None:
                if visitor.begin_variation() is not SKIP:
                    stack.append([side, "pre", iter(()), False])
                top[3] = True
            elif node.variations:
                board.push(node.move)
                children = node.variations
                stack.append([children[0], "pre", iter(children[1:]), False])
                top[1] = "post"
            else:
                top[1] = "end"
        elif state == "post":
            board.pop()
            top[1] = "end"
        else:
            stack.pop()


def _accept(game: Game, visitor: Any) -> Any:
    """``game.accept(visitor)`` for any visitor, in python-chess's order."""
    if visitor.begin_game() is not SKIP:
        visitor.begin_headers()
        for name, value in game.headers.items():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            board = game.board()
            visitor.visit_board(board)
            if game._raw_comment:
                visitor.visit_comment(game._raw_comment)
            first = game.next()
            if first is not None:
                _walk(first, iter(game.variations[1:]), board, visitor)
            visitor.visit_result(game.headers.get("Result", "*"))
    visitor.end_game()
    return visitor.result()


def _accept_subgame(node: Any, visitor: Any) -> Any:
    """``node.accept_subgame(visitor)`` for any visitor but the exporters: the game as if it
    started after ``node``, the start tags (``FEN``, ``SetUp``, ``Variant``) those of ``node``'s
    board, after the game's other tags, as python-chess's ``GameNode.accept_subgame``."""
    if visitor.begin_game() is not SKIP:
        board = node.board()
        visitor.begin_headers()
        for name, value in node._subgame_tags():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            visitor.visit_board(board)
            children = node.variations
            if children:
                _walk(children[0], iter(children[1:]), board, visitor)
            visitor.visit_result(node.game().headers.get("Result", "*"))
    visitor.end_game()
    return visitor.result()


def _accept_line(node: Any, visitor: Any) -> Any:
    """``node.accept(visitor)``: the move and what follows it, without the moves beside it
    and without the game's calls, as python-chess's ``ChildNode.accept``."""
    _walk(node, iter(()), node.parent.board(), visitor)
    return visitor.result()


class TimeControlType(enum.Enum):
    """The speed of a ``TimeControl`` (python-chess's ``TimeControlType``)."""

    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    """One period of a ``TimeControl``: ``moves`` to make in it (0 for the rest of the game),
    its ``time`` in seconds, and the ``increment`` or ``delay`` per move in seconds."""

    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A PGN ``TimeControl`` tag read (``parse_time_control``, ``Game.time_control()``): its
    periods and its speed, as python-chess's ``TimeControl``."""

    parts: List[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


# The speeds by the first period's seconds plus 60 increments, python-chess's classes (FIDE's
# with bullet added): below 3 minutes bullet, 15 blitz, 60 rapid, else standard.
_SPEED_LIMITS = [(3 * 60, TimeControlType.BULLET), (15 * 60, TimeControlType.BLITZ),
                 (60 * 60, TimeControlType.RAPID)]


def parse_time_control(time_control: str) -> TimeControl:
    """Reads a PGN ``TimeControl`` tag value with caissa's reader (``caissa.TimeControl``) into
    python-chess's ``TimeControl``: ``''`` and ``'?'`` are ``UNKNOWN``, ``'-'`` ``UNLIMITED``.
    Raises ``ValueError`` (``caissa.InvalidTimeControlError``) for text that is not a time
    control. Delays are written ``+5d``; an hourglass (``*60``) is one part of its time.
    caissa's reader takes the PGN standard's whole seconds: python-chess's fractions
    (``300+2.5d``, ``300+0.5``), quotas of ``0`` moves and extra ``+`` terms raise here, and
    ``caissa``'s own ``300d5`` and ``*60`` are read where python-chess raises.

    >>> tc = caissa.pgn.parse_time_control("40/7200:3600")
    >>> [(p.moves, p.time) for p in tc.parts], tc.type.name
    ([(40, 7200), (0, 3600)], 'STANDARD')
    >>> caissa.pgn.parse_time_control("180+2").type.name
    'BLITZ'
    """
    if not time_control or time_control.startswith("?"):
        return TimeControl()
    if time_control.startswith("-"):
        return TimeControl(type=TimeControlType.UNLIMITED)
    # python-chess writes a delay `300+5d`, caissa's reader `300d5`.
    text = re.sub(r"\+(\d+)[dD](?=:|$)", r"d\1", time_control)
    parts = []
    for period in _RustTimeControl(text).periods:
        bonus = period["bonus"]
        increment = bonus.get("fischer", 0) / 1000 if isinstance(bonus, dict) else 0
        delay = 0.0
        if isinstance(bonus, dict):
            delay = (bonus.get("simple_delay", 0) or bonus.get("bronstein", 0)) / 1000
        if period["base_ms"] % 1000:
            # python-chess's parts hold whole seconds, as the PGN standard writes them.
            raise InvalidTimeControlError(f"not whole seconds: {time_control!r}")
        parts.append(TimeControlPart(moves=period["moves"] or 0, time=period["base_ms"] // 1000,
                                     increment=increment, delay=delay))
    first = parts[0].time + 60 * parts[0].increment
    speed = next((kind for limit, kind in _SPEED_LIMITS if first < limit),
                 TimeControlType.STANDARD)
    return TimeControl(parts=parts, type=speed)


class StringExporter:
    r"""What ``game.accept`` writes a game with, as python-chess's ``StringExporter``: PGN
    with or without the tags, comments (and glyphs) and variations, the movetext in lines of
    at most ``columns`` characters broken where python-chess breaks them (a comment is never
    broken) or, with ``columns=None``, on one line; no final newline.

    >>> import io
    >>> game = caissa.pgn.read_game(io.StringIO("1. e4 { Best } e5 (1... c5) *"))
    >>> game.accept(caissa.pgn.StringExporter(headers=False, variations=False))
    '1. e4 { Best } 1... e5 *'
    """

    def __init__(self, *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations

    def _take(self, text: str) -> str:
        return text.rstrip()


class FileExporter(StringExporter):
    r"""As ``StringExporter``, but ``game.accept`` writes the game to the text file ``handle``,
    followed by a blank line, and returns the number of characters written (python-chess's
    ``FileExporter``).

    >>> import io
    >>> out = io.StringIO()
    >>> game = caissa.pgn.read_game(io.StringIO("1. d4 d5 *"))
    >>> game.accept(caissa.pgn.FileExporter(out, headers=False)), out.getvalue()
    (12, '1. d4 d5 *\n\n')
    """

    def __init__(self, handle: Any, *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments,
                         variations=variations)
        self.handle = handle

    def _take(self, text: str) -> int:  # type: ignore[override]
        text = text.rstrip() + "\n\n"
        self.handle.write(text)
        return len(text)


class Mainline(list):
    """The nodes of a main line (``node.mainline()``): a ``list``, and as python-chess's
    ``Mainline`` ``str()`` of it is the line's text and ``accept(visitor)`` hands its moves to
    a visitor.

    >>> import io
    >>> game = caissa.pgn.read_game(io.StringIO("1. e4 { x } e5 (1... c5) 2. Nf3 *"))
    >>> line = game.mainline()
    >>> len(line), str(line)
    (3, '1. e4 { x } 1... e5 2. Nf3')
    """

    def __init__(self, start: Any, nodes: List[Any]) -> None:
        super().__init__(nodes)
        self.start = start

    def __str__(self) -> str:
        return self.start._mainline_text()

    def accept(self, visitor: Any) -> Any:
        """Hands each move of the line to ``visitor`` (its comments and glyphs, no
        variations) and returns its result, as python-chess's ``Mainline.accept``."""
        board = self.start.board()
        for node in self:
            _accept_node(node, board, visitor)
            board.push(node.move)
        return visitor.result()


class NagSet(MutableSet):
    """The glyphs of a move (``node.nags``), as python-chess's set of ints but live: ``add``,
    ``discard``, ``remove``, ``|=`` and the other set methods change the move's glyphs. The
    game itself has none (adding one raises ``ValueError``).

    >>> import io
    >>> game = caissa.pgn.read_game(io.StringIO("1. e4 $1 *"))
    >>> game.next().nags.add(caissa.pgn.NAG_NOVELTY)
    >>> game.next().nags == {1, 146}, str(game).split()[-4:]
    (True, ['e4', '$1', '$146', '*'])
    """

    __slots__ = ("_node",)

    def __init__(self, node: Any) -> None:
        self._node = node

    def __contains__(self, nag: object) -> bool:
        return nag in self._node._nags

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._node._nags))

    def __len__(self) -> int:
        return len(self._node._nags)

    def add(self, nag: int) -> None:
        """Adds the glyph ``nag`` (0 to 255)."""
        self._node.nags = self._node._nags | {nag}

    def discard(self, nag: int) -> None:
        """Takes the glyph ``nag`` out, if the move has it."""
        self._node.nags = self._node._nags - {nag}

    def update(self, *others: Any) -> None:
        """Adds the glyphs of every one of ``others``."""
        self._node.nags = self._node._nags.union(*others)

    def difference_update(self, *others: Any) -> None:
        """Takes out the glyphs of every one of ``others``."""
        self._node.nags = self._node._nags.difference(*others)

    def intersection_update(self, *others: Any) -> None:
        """Keeps the glyphs that every one of ``others`` has."""
        self._node.nags = self._node._nags.intersection(*others)

    def symmetric_difference_update(self, other: Any) -> None:
        """Keeps the glyphs in exactly one of the move's and ``other``."""
        self._node.nags = self._node._nags.symmetric_difference(other)

    def union(self, *others: Any) -> set:
        """The glyphs and those of ``others``, as a new ``set``."""
        return self._node._nags.union(*others)

    def intersection(self, *others: Any) -> set:
        """The glyphs that ``others`` have too, as a new ``set``."""
        return self._node._nags.intersection(*others)

    def difference(self, *others: Any) -> set:
        """The glyphs that ``others`` do not have, as a new ``set``."""
        return self._node._nags.difference(*others)

    def symmetric_difference(self, other: Any) -> set:
        """The glyphs in exactly one of the move's and ``other``, as a new ``set``."""
        return self._node._nags.symmetric_difference(other)

    def issubset(self, other: Any) -> bool:
        """Whether every glyph is in ``other``."""
        return self._node._nags.issubset(other)

    def issuperset(self, other: Any) -> bool:
        """Whether every glyph of ``other`` is here."""
        return self._node._nags.issuperset(other)

    def copy(self) -> set:
        """The glyphs as a ``set``, apart from the move."""
        return set(self._node._nags)

    @classmethod
    def _from_iterable(cls, iterable: Any) -> set:  # type: ignore[override]
        # The set operators (`|`, `&`, ...) give plain sets.
        return set(iterable)

    def __repr__(self) -> str:
        return repr(set(self)) if self else "set()"


class Headers(MutableMapping):
    r"""The tag pairs of a ``Game`` (its ``headers``), as python-chess's ``chess.pgn.Headers``:
    a mutable mapping of names to values that reads and changes the game's tags. The seven tag
    roster comes first, in its order, then the others in the order they were added. A name
    other than letters, digits and ``_``, or a value with a line break, raises ``ValueError``;
    so do ``FEN``, ``SetUp`` and ``Variant`` values that give no start position, or that change
    the start of a game that has moves (or had: removed moves keep theirs). A new ``Result``
    ends the movetext too. Games read have the roster filled in as python-chess fills it
    (``?`` for a missing tag, the ``Result`` of the movetext's end).

    >>> game = caissa.pgn.Game()
    >>> game.headers["Annotator"] = "caissa"
    >>> game.headers["White"] = "Ann"
    >>> del game.headers["Site"]
    >>> list(game.headers)
    ['Event', 'Date', 'Round', 'White', 'Black', 'Result', 'Annotator']
    >>> game.headers
    Headers(Event='?', Date='????.??.??', Round='?', White='Ann', Black='?', Result='*', Annotator='caissa')
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getitem__(self, name: str) -> str:
        value = self._game._tag(name)
        if value is None:
            raise KeyError(name)
        return value

    def __setitem__(self, name: str, value: str) -> None:
        self._game._set_tag(name, value)

    def __delitem__(self, name: str) -> None:
        if not self._game._remove_tag(name):
            raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._game._tag(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._game._tag_names())

    def __len__(self) -> int:
        return len(self._game._tag_names())

    def copy(self) -> Dict[str, str]:
        """The tags as a ``dict``, apart from the game."""
        return dict(self.items())

    def board(self) -> Board:
        """A board at the start these tags give (``FEN``, ``Variant``): the game's start."""
        return self._game.board()

    def is_chess960(self) -> bool:
        """Whether the ``Variant`` tag names Chess960, under one of python-chess's names."""
        return self.get("Variant", "").lower() in (
            "chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random")

    def is_wild(self) -> bool:
        """Whether the ``Variant`` tag names one of FICS's wild variants (python-chess's
        ``is_wild``); caissa reads none of them."""
        return self.get("Variant", "").lower() in (
            "wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7",
            "wild/8", "wild/8a")

    def variant(self) -> type:
        """The board class of the game's variant: ``Board`` (caissa plays standard chess and
        Chess960)."""
        return Board

    @classmethod
    def builder(cls) -> "HeadersBuilder":
        """A visitor that collects a game's tags (python-chess's ``Headers.builder()``; it
        gives them as a ``dict``)."""
        return HeadersBuilder()

    def __repr__(self) -> str:
        pairs = ", ".join(f"{name}={value!r}" for name, value in self.items())
        return f"Headers({pairs})"


class Shard(NamedTuple):
    """Bytes ``start`` to ``end`` of the PGN file at ``path``, cut at game boundaries: what
    ``shards`` cuts a file into. ``read_games``, ``select`` and ``to_arrow`` take a shard where
    they take a path and read only its bytes: the games the whole file has there, with the
    errors at the file's lines, columns and bytes (the first error of a shard counts the
    file's lines before it). A tuple, so it pickles and travels to Dask workers as it is.

    Only the ranges ``shards`` gives read as the file does; another range may begin inside a
    game.
    """

    path: str
    start: int
    end: int


def shards(path: Union[str, "os.PathLike[str]"], size: int = 64 * 2**20) -> List[Shard]:
    r"""The file at ``path`` cut into shards (``Shard``) of about ``size`` bytes (at least 1;
    64 MiB by default): each ends at the first game boundary at or after ``size`` bytes from its
    start, or at the end of the file. The shards cover the file, in order; an empty file has none.

    A game boundary is a line where a game surely begins, however the text before it reads (a
    tag-pair line after a line that is not a tag pair nor a ``%`` line; see the Rust docs of
    ``caissa_notation::pgn::chunks``): each shard reads alone exactly as it does in place. The
    cuts are found by reading a window of the file around each of them (64 KiB each way,
    widened over longer lines, at most 16 MiB), never the whole file, so sharding a large file
    is quick; a line longer than 8 MiB may make a shard larger than needed, never wrong.

    A compressed file (zstd, gzip, bzip2: found from its first bytes) cannot be cut without
    reading it whole: it is one shard, from 0 to its size, which the readers decompress.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.pgn"
    >>> _ = path.write_text('[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 ) *\n')
    >>> first, second = caissa.pgn.shards(path, size=1)
    >>> (first.start, first.end), (second.start, second.end)
    ((0, 25), (25, 48))
    >>> [game.headers["Event"] for game in caissa.pgn.read_games(first)]
    ['a']
    >>> try:
    ...     next(caissa.pgn.read_games(second))
    ... except caissa.PgnParseError as error:
    ...     print(error.line, error.column)
    7 7
    """
    path = os.fspath(path)
    return [Shard(path, start, end) for start, end in _shard_ranges(path, size)]


# The readers `read_game` and `read_headers` keep for each file object (by kind: games or
# headers), and where the file stood after each one's last read: the readers read ahead in
# blocks, so a later call goes on with the same reader while the file has not been moved. Weak
# keys, and readers that reach the file only through a weak reference (`_WeakFile`), so a
# dropped file takes its readers with it. A file object that allows no weak reference (rare:
# a class with `__slots__` and no `__weakref__`) is kept, with its readers, for the process's
# life.
_READERS: "weakref.WeakKeyDictionary[Any, Dict[str, Tuple[Any, Optional[int]]]]" = (
    weakref.WeakKeyDictionary()
)
_READERS_BY_ID: Dict[int, Tuple[Any, Dict[str, Tuple[Any, Optional[int]]]]] = {}


class _WeakFile:
    """A file object's `read`, through a weak reference: what a kept reader reads from, so
    that it does not keep the file alive. A file gone reads as its end."""

    def __init__(self, handle: Any) -> None:
        self._handle = weakref.ref(handle)

    def read(self, size: int = -1) -> Any:
        handle = self._handle()
        return b"" if handle is None else handle.read(size)


def _tell(handle: Any) -> Optional[int]:
    try:
        return handle.tell()
    except (AttributeError, OSError, ValueError):
        return None


def _next_of(handle: Any, kind: str, open_reader: Any) -> Any:
    """The next item of the reader of `kind` that `open_reader(handle)` makes for `handle`,
    kept between calls while the file stays where the last call left it (and always for a
    file that cannot tell where it is, such as a pipe: its reader has read ahead of it)."""
    try:
        readers = _READERS.setdefault(handle, {})
        source = _WeakFile(handle)
    except TypeError:
        readers = _READERS_BY_ID.setdefault(id(handle), (handle, {}))[1]
        source = handle
    position = _tell(handle)
    reader, last = readers.get(kind, (None, None))
    if reader is None or position != last:
        reader = open_reader(source)
    try:
        return next(reader, None)
    finally:
        readers[kind] = (reader, _tell(handle))


def _game_from_pgn(text: str, tag_names: List[str],
                   first_comments: Tuple[List[str], List[str]]) -> Game:
    """A pickled ``Game`` (see ``Game.__reduce__``): its PGN read, with only its own tags and
    its comments before the first move as they were."""
    import io

    game = read_game(io.StringIO(text))
    for name in list(game.headers):
        if name not in tag_names:
            del game.headers[name]
    game._set_first_comments(first_comments)
    return game


def _node_of(game: Game, path: List[int]) -> Any:
    """A pickled node (see ``ChildNode.__reduce__``): the node of ``game`` that ``path`` (the
    variation taken at each step from the start) leads to."""
    node = game
    for index in path:
        node = node.variations[index]
    return node


def read_game(handle: Any, *, Visitor: Any = None, lenient: bool = False) -> Any:
    r"""The next game of the open file ``handle`` (text or binary), or ``None`` at its end: the
    loop python-chess users write, ``while (game := read_game(f)) is not None``.

    The file is read ahead in blocks by ``read_games``' reader, which later calls on the same
    file object go on with as long as the file has not been moved (its ``tell()`` is where the
    last call left it; always for a file that cannot tell, such as a pipe or ``sys.stdin``);
    after a ``seek`` the next call reads from the new place. Unlike
    python-chess, which logs a broken game's errors and returns what it could read, a game that
    cannot be read or replayed raises ``PgnParseError`` (with ``line`` and ``column``), and the
    next call goes on with the next game; ``lenient=True`` reads past what python-chess reads
    past (see ``read_games``), with a ``UserWarning`` each. With ``Visitor`` (a ``BaseVisitor``
    class), the game read is handed to a new one (``game.accept(Visitor())``) and its result
    returned.

    >>> import io
    >>> f = io.StringIO("1. e4 e5 *\n\n1. d4 d5 2. c4 *\n")
    >>> [len(caissa.pgn.read_game(f)), len(caissa.pgn.read_game(f)), caissa.pgn.read_game(f)]
    [2, 3, None]
    """
    if lenient:
        game = _next_of(handle, "lenient games", lambda h: read_games(h, lenient=True))
    else:
        game = _next_of(handle, "games", read_games)
    if game is None or Visitor is None or Visitor is GameBuilder:
        return game
    return game.accept(Visitor())


def skip_game(handle: Any) -> bool:
    r"""Passes over the next game of the open file ``handle`` without reading its movetext;
    whether there was one (python-chess's ``skip_game``). Kept between calls as
    ``read_headers`` keeps its reader.

    >>> import io
    >>> f = io.StringIO("1. e4 *\n\n1. d4 *\n")
    >>> caissa.pgn.skip_game(f), caissa.pgn.skip_game(f), caissa.pgn.skip_game(f)
    (True, True, False)
    """
    return read_headers(handle) is not None


def read_headers(handle: Any) -> Optional[Dict[str, str]]:
    r"""The tag pairs of the next game of the open file ``handle``, its movetext skipped
    unread, or ``None`` at the end (python-chess's ``read_headers``; ``read_headers_all`` for a
    whole file). Kept between calls as ``read_game`` keeps its reader; the two keep separate
    places, so do not mix them on one file object.

    >>> import io
    >>> f = io.StringIO('[White "A"]\n\n1. e4 *\n\n[White "B"]\n\n1. d4 *\n')
    >>> caissa.pgn.read_headers(f)["White"], caissa.pgn.read_headers(f)["White"]
    ('A', 'B')
    """
    return _next_of(handle, "headers", read_headers_all)
