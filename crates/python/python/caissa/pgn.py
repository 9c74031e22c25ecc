"""PGN for Python on caissa's streaming reader: ``read_games(path_or_file)`` yields ``Game``
objects (headers, main line moves and SAN, comments, clocks, evaluations, boards), each read
and replayed in Rust with the GIL released; ``select(path_or_file, filter, ...)`` is ``caissa pgn
select`` (tag filters, PGN or UCI export) on every core.

>>> import io, caissa.pgn
>>> game = next(caissa.pgn.read_games(io.StringIO("1. e4 { [%eval 0.3] } e5 *")))
>>> game.evals[0]
Eval(cp=30, mate=None, depth=None)
"""

from caissa._caissa import Eval, FilterError, Game, GameReader, PgnParseError, read_games, select

__all__ = ["Eval", "FilterError", "Game", "GameReader", "PgnParseError", "read_games", "select"]
