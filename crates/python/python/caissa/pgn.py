"""PGN for Python on caissa's streaming reader: ``read_games(path_or_file)`` yields ``Game``
objects (headers, main line moves and SAN, comments, clocks, evaluations, boards), each read
and replayed in Rust with the GIL released; ``select(path_or_file, filter, ...)`` is ``caissa pgn
select`` (tag filters, PGN or UCI export) on every core; ``to_arrow(paths, ...)`` streams the
selected games as Arrow record batches in the Hugging Face Lichess columns, for pyarrow, polars
and DuckDB through the Arrow PyCapsule interface.
``shards(path, size)`` cuts a file into byte ranges at game boundaries, for Dask or Spark tasks
that each read one; the three readers take a ``Shard`` wherever they take a path.

>>> import io, caissa.pgn
>>> game = next(caissa.pgn.read_games(io.StringIO("1. e4 { [%eval 0.3] } e5 *")))
>>> game.evals[0]
Eval(cp=30, mate=None, depth=None)
"""

import os
from typing import List, NamedTuple, Union

from caissa._caissa import (
    ArrowStream,
    Eval,
    FilterError,
    Game,
    GameReader,
    PgnParseError,
    read_games,
    select,
    to_arrow,
)
from caissa._caissa import _shard_ranges

__all__ = [
    "ArrowStream",
    "Eval",
    "FilterError",
    "Game",
    "GameReader",
    "PgnParseError",
    "Shard",
    "read_games",
    "select",
    "shards",
    "to_arrow",
]


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
