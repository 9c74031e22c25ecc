"""The FIDE Laws of Chess for Python, on the caissa engine written in Rust.

The API follows python-chess where the semantics match: ``Board``, ``Move``, ``Piece``, squares
as ``0..64`` with constants ``A1`` ... ``H8``, piece types ``PAWN`` ... ``KING`` as ``1..6``,
colours ``WHITE`` / ``BLACK`` as ``True`` / ``False``. Where caissa differs on purpose, the
docstrings say so:

- ``Board(fen)`` refuses illegal positions (``IllegalPositionError``) and there is no empty board;
- ``push`` checks legality (``IllegalMoveError``), as ``push_san`` and ``push_uci`` do, and the
  move predicates (``is_capture``, ``gives_check``, ...) answer about legal moves, ``False``
  for any other; ``is_valid()`` is always true;
- ``outcome()`` ends the game on every position caissa's analysis proves dead (FIDE 5.2.2,
  ``dead_position``), blocked pawn walls included, where python-chess only counts material
  (``is_insufficient_material``, the same here); ``is_dead_position`` asks the analysis;
- a fifty-move claim with a written move that mates is correct (FIDE 9.3.1); once the game has
  ended there are no claims;
- ``legal_moves`` is a list.

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
    AmbiguousMoveError, Arbiter, ArbiterError, Board, IllegalMoveError, IllegalPositionError, InvalidFenError,
    InvalidMoveError, InvalidTimeControlError, Move, Outcome, PgnParseError, Piece, SquareSet,
    TimeControl,
    __version__, parse_square, square, square_file, square_name, square_rank,
)

from caissa import pgn  # noqa: E402  (the submodule, as caissa.pgn)
