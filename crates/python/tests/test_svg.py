"""caissa.svg: the board drawn as SVG, every square and piece where it stands, the highlights,
marks, arrows and coordinates, both ways up."""

import xml.etree.ElementTree as ElementTree

import caissa
import caissa.svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg):
    return ElementTree.fromstring(svg)


def by_class(root, tag, cls):
    return [e for e in root.iter(NS + tag) if cls in e.get("class", "").split()]


def test_squares_pieces_and_orientation():
    board = caissa.Board()
    root = parse(caissa.svg.board(board, size=300))
    assert root.get("width") == "300"
    assert len(by_class(root, "rect", "square")) == 64
    pieces = by_class(root, "text", "piece")
    assert len(pieces) == 32
    kings = {p.get("class").split()[1]: float(p.get("y")) for p in pieces
             if p.get("class").split()[2] in ("K", "k")}
    assert kings["white"] > kings["black"]  # White at the bottom
    flipped = parse(caissa.svg.board(board, flipped=True))
    kings = {p.get("class").split()[1]: float(p.get("y")) for p in by_class(flipped, "text", "piece")
             if p.get("class").split()[2] in ("K", "k")}
    assert kings["white"] < kings["black"]
    assert len(by_class(root, "text", "coord")) == 32
    assert not by_class(parse(caissa.svg.board(board, coordinates=False)), "text", "coord")
    assert not by_class(parse(caissa.svg.board()), "text", "piece")  # an empty board


def test_highlights_marks_and_arrows():
    board = caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")  # Black is mated
    last = caissa.Move.from_uci("f7g7")
    colors = caissa.svg.COLORS
    root = parse(caissa.svg.board(board, lastmove=last, squares=[caissa.A1, caissa.B2],
                                  arrows=[(caissa.E2, caissa.E4),
                                          caissa.svg.Arrow(caissa.D2, caissa.D4, color="red")]))
    fills = [r.get("fill") for r in by_class(root, "rect", "square")]
    assert sum(f in (colors["square light lastmove"], colors["square dark lastmove"])
               for f in fills) == 2
    assert len(by_class(root, "rect", "check")) == 1  # the mated king's square
    assert len(by_class(root, "circle", "marked")) == 2
    assert len(by_class(root, "line", "arrow")) == 2
    assert caissa.Board()._repr_svg_() == caissa.svg.board(caissa.Board())


def test_fill_borders_style_and_one_piece():
    root = parse(caissa.svg.board(caissa.Board(), fill={caissa.E4: "#ff000080", caissa.D5: "blue"},
                                  borders=True, style=".square { opacity: 0.9 }"))
    fills = by_class(root, "rect", "fill")
    assert sorted(f.get("fill") for f in fills) == ["#ff000080", "blue"]
    assert len(by_class(root, "rect", "border")) == 1
    assert ".square" in root.find(NS + "style").text
    one = parse(caissa.svg.piece(caissa.Piece.from_symbol("q"), size=60))
    assert one.get("width") == "60"
    [queen] = by_class(one, "text", "piece")
    assert queen.get("class").split() == ["piece", "black", "q"]
    assert queen.text == caissa.UNICODE_PIECE_SYMBOLS["q"]


def test_images_show_themselves_in_jupyter_as_python_chess_images():
    import chess.svg
    image = caissa.svg.board(caissa.Board())
    assert isinstance(image, caissa.svg.SvgWrapper) and isinstance(image, str)
    assert image._repr_svg_() == image
    assert caissa.svg.piece(caissa.Piece.from_symbol("q"))._repr_svg_().startswith("<svg")
    assert type(chess.svg.board(chess.Board())).__name__ == "SvgWrapper"
    assert caissa.svg.SQUARE_SIZE == chess.svg.SQUARE_SIZE


def test_arrow_colours_are_python_chess_names():
    import chess.svg
    assert caissa.svg.Arrow(1, 2).color == chess.svg.Arrow(1, 2).color == "green"
    image = caissa.svg.board(caissa.Board(), arrows=[caissa.svg.Arrow(12, 28, color="red"),
                                                     (1, 18)])
    assert caissa.svg.COLORS["arrow red"] in image and caissa.svg.COLORS["arrow green"] in image
    assert 'stroke="red"' not in image
    assert caissa.svg.Arrow(0, 9, color="#123456").pgn() == "Ga1b2"
