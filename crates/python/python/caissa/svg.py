"""Boards as SVG images, as python-chess's ``chess.svg.board``: squares, coordinates, the last
move and a king in check highlighted, marked squares and arrows. The pieces are the Unicode
chess symbols drawn as text (no piece artwork is shipped), so they look as the viewer's fonts
draw them. ``Board`` shows itself this way in Jupyter (``_repr_svg_``).

>>> import caissa, caissa.svg
>>> svg = caissa.svg.board(caissa.Board(), size=200, lastmove=caissa.Move.from_uci("e2e4"))
>>> svg.startswith("<svg") and svg.count('class="piece') == 32
True
"""

from typing import Dict, Iterable, Optional, Tuple, Union
from xml.sax.saxutils import escape

from caissa._caissa import (
    FILE_NAMES, RANK_NAMES, SQUARE_NAMES, UNICODE_PIECE_SYMBOLS, Board, IllegalPositionError, Move,
    Piece, SquareSet,
    square_file, square_rank,
)

__all__ = ["Arrow", "SvgWrapper", "board", "piece"]


class SvgWrapper(str):
    """The SVG text, shown as an image in Jupyter (python-chess's ``SvgWrapper``)."""

    def _repr_svg_(self) -> "SvgWrapper":
        return self


#: The colours python-chess uses by default, by the same names.
COLORS: Dict[str, str] = {
    "square light": "#ffce9e",
    "square dark": "#d18b47",
    "square light lastmove": "#cdd16a",
    "square dark lastmove": "#aaa23b",
    "check": "#ff0000",
    "marked": "#15781b80",
    "arrow": "#15781b80",
    "arrow green": "#15781b80",
    "arrow red": "#88202080",
    "arrow yellow": "#e68f00b3",
    "arrow blue": "#00308880",
    "coord": "#333333",
    "piece white": "#ffffff",
    "piece black": "#000000",
}

#: The side of a square, in the image's units.
SQUARE = 45
#: python-chess's name for ``SQUARE``.
SQUARE_SIZE = SQUARE
#: The margin that holds the coordinates.
MARGIN = 20


class Arrow:
    """An arrow from ``tail`` to ``head`` (squares), in ``color`` (python-chess's names,
    ``green`` by default, ``red``, ``yellow``, ``blue``, drawn in the ``arrow <name>`` colours;
    or any SVG colour; a square marked when ``tail`` and ``head`` are the same). ``pgn()`` and ``from_pgn`` read and write
    the form of PGN's ``[%cal ...]`` and ``[%csl ...]`` commands, with python-chess's colour
    names (``green``, ``red``, ``yellow``, ``blue``).

    >>> caissa.svg.Arrow.from_pgn("Re2e4").pgn(), caissa.svg.Arrow(caissa.D4, caissa.D4).pgn()
    ('Re2e4', 'Gd4')
    """

    _LETTERS = {"red": "R", "yellow": "Y", "blue": "B"}

    def __init__(self, tail: int, head: int, *, color: str = "green") -> None:
        self.tail = tail
        self.head = head
        self.color = color

    def pgn(self) -> str:
        """The arrow as PGN's commands write it: a colour letter and one square or two."""
        letter = self._LETTERS.get(self.color, "G")
        tail, head = SQUARE_NAMES[self.tail], SQUARE_NAMES[self.head]
        return f"{letter}{tail}" if self.tail == self.head else f"{letter}{tail}{head}"

    @classmethod
    def from_pgn(cls, text: str) -> "Arrow":
        """The arrow of a command's item: ``Ge2e4``, or ``Re4`` for a square (colour letter
        optional, green by default). Raises ``ValueError`` for anything else."""
        colors = {letter: name for name, letter in cls._LETTERS.items()}
        color = "green"
        if text[:1] in "GRYB" and len(text) in (3, 5):
            color, text = colors.get(text[0], "green"), text[1:]
        squares = [text[i:i + 2] for i in range(0, len(text), 2)]
        if len(squares) not in (1, 2) or any(sq not in SQUARE_NAMES for sq in squares):
            raise ValueError(f"not an arrow: {text!r}")
        tail = SQUARE_NAMES.index(squares[0])
        return cls(tail, SQUARE_NAMES.index(squares[-1]), color=color)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Arrow) and (self.tail, self.head, self.color) == (
            other.tail, other.head, other.color)

    def __repr__(self) -> str:
        return (f"Arrow({SQUARE_NAMES[self.tail].upper()}, {SQUARE_NAMES[self.head].upper()}, "
                f"color={self.color!r})")


def _in_check(board: Board) -> bool:
    """Whether the side to move is in check; not on an unfinished board (pieces that make no
    legal position), which has no check to show."""
    try:
        return board.is_check()
    except IllegalPositionError:
        return False


def board(board: Optional[Board] = None, *, orientation: bool = True,
          lastmove: Optional[Move] = None, check: Optional[int] = None,
          arrows: Iterable[Union[Arrow, Tuple[int, int]]] = (),
          squares: Union[SquareSet, Iterable[int], int, None] = None,
          size: Optional[int] = None, coordinates: bool = True,
          colors: Optional[Dict[str, str]] = None, flipped: bool = False,
          fill: Optional[Dict[int, str]] = None, borders: bool = False,
          style: Optional[str] = None) -> SvgWrapper:
    """The board as an SVG document: White at the bottom (``orientation=False`` or
    ``flipped=True`` for Black), the ``lastmove``'s squares and the king in ``check`` (by
    default the side to move's king when it is in check) highlighted, the squares of ``fill``
    (a dict of squares and colours) filled, ``squares`` marked, ``arrows`` drawn, ``size``
    pixels wide (the image scales), the files and ranks around it with ``coordinates``, a
    line round the squares with ``borders``, and the CSS ``style`` in the document.
    ``board=None`` draws an empty board."""
    palette = {**COLORS, **(colors or {})}
    white_bottom = orientation != flipped
    margin = MARGIN if coordinates else 0
    full = 8 * SQUARE + 2 * margin

    def corner(square: int) -> Tuple[int, int]:
        file, rank = square_file(square), square_rank(square)
        column = file if white_bottom else 7 - file
        row = 7 - rank if white_bottom else rank
        return margin + column * SQUARE, margin + row * SQUARE

    def center(square: int) -> Tuple[float, float]:
        x, y = corner(square)
        return x + SQUARE / 2, y + SQUARE / 2

    if check is None and board is not None and _in_check(board):
        check = board.king(board.turn)
    # The null move (false, as python-chess's) marks no square.
    moved = {lastmove.from_square, lastmove.to_square} if lastmove else set()
    marked = set() if squares is None else set(SquareSet(squares))
    width = f' width="{size}" height="{size}"' if size is not None else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full} {full}"{width}>']
    if style:
        parts.append(f"<style>{escape(style)}</style>")
    for square in range(64):
        x, y = corner(square)
        shade = "light" if (square_file(square) + square_rank(square)) % 2 else "dark"
        key = f"square {shade} lastmove" if square in moved else f"square {shade}"
        parts.append(f'<rect class="square {shade}" x="{x}" y="{y}" width="{SQUARE}" '
                     f'height="{SQUARE}" fill="{palette[key]}" />')
        if fill and square in fill:
            parts.append(f'<rect class="fill" x="{x}" y="{y}" width="{SQUARE}" '
                         f'height="{SQUARE}" fill="{escape(fill[square])}" />')
        if square == check:
            parts.append(f'<rect class="check" x="{x}" y="{y}" width="{SQUARE}" '
                         f'height="{SQUARE}" fill="{palette["check"]}" fill-opacity="0.6" />')
        if square in marked:
            cx, cy = center(square)
            parts.append(f'<circle class="marked" cx="{cx}" cy="{cy}" r="{SQUARE * 0.4}" '
                         f'fill="none" stroke="{palette["marked"]}" stroke-width="4" />')
    if board is not None:
        for square, man in sorted(board.piece_map().items()):
            parts.append(_piece_text(man, *center(square), palette))
    for arrow in arrows:
        tail, head, color = ((arrow.tail, arrow.head, arrow.color) if isinstance(arrow, Arrow)
                             else (arrow[0], arrow[1], "green"))
        color = palette.get(f"arrow {color}", color)
        (x1, y1), (x2, y2) = center(tail), center(head)
        parts.append(f'<line class="arrow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                     f'stroke="{color}" stroke-width="{SQUARE * 0.2}" stroke-linecap="round" />')
        parts.append(f'<circle class="arrow head" cx="{x2}" cy="{y2}" r="{SQUARE * 0.2}" '
                     f'fill="{color}" />')
    if borders:
        parts.append(f'<rect class="border" x="{margin}" y="{margin}" width="{8 * SQUARE}" '
                     f'height="{8 * SQUARE}" fill="none" stroke="{palette["coord"]}" '
                     f'stroke-width="1" />')
    if coordinates:
        for index in range(8):
            file = index if white_bottom else 7 - index
            rank = 7 - index if white_bottom else index
            x = margin + index * SQUARE + SQUARE / 2
            y = margin + index * SQUARE + SQUARE / 2
            for edge in (margin / 2, full - margin / 2):
                parts.append(f'<text class="coord file" x="{x}" y="{edge}" font-size="12" '
                             f'text-anchor="middle" dominant-baseline="central" '
                             f'fill="{palette["coord"]}">{FILE_NAMES[file]}</text>')
                parts.append(f'<text class="coord rank" x="{edge}" y="{y}" font-size="12" '
                             f'text-anchor="middle" dominant-baseline="central" '
                             f'fill="{palette["coord"]}">{RANK_NAMES[rank]}</text>')
    parts.append("</svg>")
    return SvgWrapper("".join(parts))


def _piece_text(piece: Piece, cx: float, cy: float, palette: Dict[str, str]) -> str:
    """The SVG text element of ``piece`` centred on ``(cx, cy)``."""
    side = "white" if piece.color else "black"
    glyph = UNICODE_PIECE_SYMBOLS[piece.symbol().lower()]  # the filled shapes
    # White's pieces are the filled shapes in white, outlined; Black's are filled alone (an
    # outline in white eats the thin parts of the king and queen).
    outline = 'stroke="black" stroke-width="1"' if piece.color else 'stroke="none"'
    return (f'<text class="piece {side} {escape(piece.symbol())}" x="{cx}" y="{cy}" '
            f'font-size="{SQUARE * 0.85}" text-anchor="middle" dominant-baseline="central" '
            f'fill="{palette["piece " + side]}" {outline}>{glyph}</text>')


def piece(piece: Piece, size: Optional[int] = None) -> SvgWrapper:
    """One piece as an SVG document, drawn as ``board`` draws it (python-chess's
    ``chess.svg.piece``).

    >>> caissa.svg.piece(caissa.Piece.from_symbol("K"), size=45).count('class="piece white K"')
    1
    """
    width = f' width="{size}" height="{size}"' if size is not None else ""
    return SvgWrapper(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SQUARE} {SQUARE}"{width}>'
        f'{_piece_text(piece, SQUARE / 2, SQUARE / 2, COLORS)}</svg>')
