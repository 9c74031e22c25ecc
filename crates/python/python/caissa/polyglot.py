"""Polyglot opening books, as python-chess's ``chess.polyglot``: ``open_reader(path)`` reads a
``.bin`` book (checked once: whole 16-byte entries sorted by key, ``ValueError`` otherwise) and
finds a position's moves with ``find_all``, ``find``, ``get``, ``choice`` and
``weighted_choice``. The book is read and searched in Rust (``caissa-notation``'s
``polyglot``); it is held in memory whole, where python-chess maps the file.

>>> import caissa, caissa.polyglot, pathlib, tempfile
>>> board = caissa.Board()
>>> key = board.polyglot_key().to_bytes(8, "big")
>>> e2e4 = (caissa.E2 << 6 | caissa.E4).to_bytes(2, "big")
>>> path = pathlib.Path(tempfile.mkdtemp()) / "book.bin"
>>> _ = path.write_bytes(key + e2e4 + (10).to_bytes(2, "big") + bytes(4))
>>> with caissa.polyglot.open_reader(path) as reader:
...     entry = reader.find(board)
>>> entry.move.uci(), entry.weight
('e2e4', 10)
"""

import os
import random as _random
from typing import Container, Iterator, Optional, Union

from caissa._caissa import Board, BookEntry, BookReader, Move

Entry = BookEntry

__all__ = ["Entry", "MemoryMappedReader", "Reader", "open_reader", "zobrist_hash"]


def zobrist_hash(board: Board) -> int:
    """The Polyglot key of ``board``'s position (python-chess's ``chess.polyglot.zobrist_hash``,
    ``board.polyglot_key()``).

    >>> hex(caissa.polyglot.zobrist_hash(caissa.Board()))
    '0x463b96181691fc9c'
    """
    return board.polyglot_key()


class Reader:
    """A Polyglot book with python-chess's reader methods; a context manager."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self._book: Optional[BookReader] = BookReader(os.fspath(path))

    def _open(self) -> BookReader:
        if self._book is None:
            raise ValueError("the book is closed")
        return self._book

    def __len__(self) -> int:
        return len(self._open())

    def __getitem__(self, index: int) -> Entry:
        return self._open()[index]

    def __iter__(self) -> Iterator[Entry]:
        book = self._open()
        return (book[i] for i in range(len(book)))

    def find_all(self, board: Union[Board, int], *, minimum_weight: int = 1,
                 exclude_moves: Container[Move] = ()) -> Iterator[Entry]:
        """The entries of ``board`` (a ``Board`` or a Polyglot key) with at least
        ``minimum_weight``, in the book's order, leaving out ``exclude_moves``; for a board only
        those whose move is legal there."""
        for entry in self._open().find_all(board, minimum_weight=minimum_weight):
            if entry.move not in exclude_moves:
                yield entry

    def find(self, board: Union[Board, int], *, minimum_weight: int = 1,
             exclude_moves: Container[Move] = ()) -> Entry:
        """The first of the entries with the highest weight; ``IndexError`` when there is
        none."""
        best = None
        for entry in self.find_all(board, minimum_weight=minimum_weight,
                                   exclude_moves=exclude_moves):
            if best is None or entry.weight > best.weight:
                best = entry
        if best is None:
            raise IndexError("no entry for the position")
        return best

    def get(self, board: Union[Board, int], default: Optional[Entry] = None, *,
            minimum_weight: int = 1, exclude_moves: Container[Move] = ()) -> Optional[Entry]:
        """``find``, with ``default`` when there is no entry."""
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(self, board: Union[Board, int], *, minimum_weight: int = 1,
               exclude_moves: Container[Move] = (),
               random: Optional[_random.Random] = None) -> Entry:
        """An entry chosen at random, each as likely; ``IndexError`` when there is none. (One
        pass keeping the ``i``-th entry with chance ``1/(i+1)``: the same picks as python-chess
        for the same ``random``.)"""
        rng = random or _random
        chosen = None
        for i, entry in enumerate(self.find_all(board, minimum_weight=minimum_weight,
                                                exclude_moves=exclude_moves)):
            if chosen is None or rng.randint(0, i) == i:
                chosen = entry
        if chosen is None:
            raise IndexError("no entry for the position")
        return chosen

    def weighted_choice(self, board: Union[Board, int], *, exclude_moves: Container[Move] = (),
                        random: Optional[_random.Random] = None) -> Entry:
        """An entry chosen at random in proportion to its weight; ``IndexError`` when the
        weights add up to nothing."""
        entries = list(self.find_all(board, exclude_moves=exclude_moves))
        total = sum(entry.weight for entry in entries)
        if total == 0:
            raise IndexError("no entry with a weight for the position")
        pick = (random or _random).randint(0, total - 1)
        for entry in entries:
            pick -= entry.weight
            if pick < 0:
                return entry
        return entries[-1]

    def close(self) -> None:
        """Lets the book go; the reader cannot be used after."""
        self._book = None

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def open_reader(path: Union[str, "os.PathLike[str]"]) -> Reader:
    """The book at ``path`` (``OSError`` if it cannot be read, ``ValueError`` if it is no
    Polyglot book)."""
    return Reader(path)


#: python-chess's name for the reader ``open_reader`` returns (caissa holds the book in memory).
MemoryMappedReader = Reader
