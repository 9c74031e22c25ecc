"""PGN for Python on caissa's streaming reader: ``read_games(path_or_file)`` yields ``Game``
objects (headers, main line moves and SAN, comments, clocks, evaluations, boards), each read
and replayed in Rust with the GIL released.

>>> import io, caissa.pgn
>>> game = next(caissa.pgn.read_games(io.StringIO("1. e4 { [%eval 0.3] } e5 *")))
>>> game.evals[0]
Eval(cp=30, mate=None, depth=None)
"""

from caissa._caissa import Eval, Game, GameReader, PgnParseError, read_games

__all__ = ["Eval", "Game", "GameReader", "PgnParseError", "read_games"]
