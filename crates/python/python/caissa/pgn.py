"""PGN for Python on caissa's streaming reader: ``read_games(path_or_file)`` yields ``Game``
objects (headers, main line moves and SAN, comments, clocks, evaluations, boards), each read
and replayed in Rust with the GIL released; ``select(path_or_file, filter, ...)`` is ``caissa pgn
select`` (tag filters, PGN or UCI export) on every core; ``to_arrow(paths, ...)`` streams the
selected games as Arrow record batches in the Hugging Face Lichess columns, for pyarrow, polars
and DuckDB through the Arrow PyCapsule interface.

>>> import io, caissa.pgn
>>> game = next(caissa.pgn.read_games(io.StringIO("1. e4 { [%eval 0.3] } e5 *")))
>>> game.evals[0]
Eval(cp=30, mate=None, depth=None)
"""

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

__all__ = [
    "ArrowStream",
    "Eval",
    "FilterError",
    "Game",
    "GameReader",
    "PgnParseError",
    "read_games",
    "select",
    "to_arrow",
]
