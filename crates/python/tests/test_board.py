"""caissa.Board and the small types: every function of the python-chess-like API, and the
positions carried by the exceptions."""

import copy
import pathlib
import pickle
import random

import chess
import chess.polyglot
import pytest

import caissa
import caissa.pgn

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def play(board, sans):
    for san in sans.split():
        board.push_san(san)
    return board


def test_constants_name_squares_pieces_and_colours():
    assert (caissa.A1, caissa.E4, caissa.H8) == (0, 28, 63)
    assert caissa.SQUARES == list(range(64))
    assert caissa.SQUARE_NAMES[28] == "e4"
    assert caissa.FILE_NAMES == list("abcdefgh")
    assert caissa.RANK_NAMES == list("12345678")
    assert (caissa.PAWN, caissa.KNIGHT, caissa.BISHOP) == (1, 2, 3)
    assert (caissa.ROOK, caissa.QUEEN, caissa.KING) == (4, 5, 6)
    assert caissa.PIECE_TYPES == [1, 2, 3, 4, 5, 6]
    assert caissa.PIECE_SYMBOLS == [None, "p", "n", "b", "r", "q", "k"]
    assert caissa.PIECE_NAMES[6] == "king"
    assert (caissa.WHITE, caissa.BLACK) == (True, False)
    assert caissa.STARTING_FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_square_functions():
    assert caissa.square_name(0) == "a1"
    assert caissa.parse_square("e4") == caissa.E4
    assert caissa.square(4, 3) == caissa.E4
    assert caissa.square_file(caissa.E4) == 4
    assert caissa.square_rank(caissa.E4) == 3
    for bad in ["", "e9", "i1", "e44"]:
        with pytest.raises(ValueError):
            caissa.parse_square(bad)
    with pytest.raises(ValueError):
        caissa.square_name(64)
    with pytest.raises(ValueError):
        caissa.square(8, 0)


def test_piece():
    knight = caissa.Piece.from_symbol("n")
    assert (knight.piece_type, knight.color, knight.symbol()) == (caissa.KNIGHT, False, "n")
    assert caissa.Piece(caissa.QUEEN, caissa.WHITE).symbol() == "Q"
    assert caissa.Piece(caissa.KNIGHT, caissa.BLACK) == knight
    assert len({knight, caissa.Piece.from_symbol("n")}) == 1
    assert repr(knight) == "Piece.from_symbol('n')"
    for bad in ["", "x", "nn"]:
        with pytest.raises(ValueError):
            caissa.Piece.from_symbol(bad)
    with pytest.raises(ValueError):
        caissa.Piece(7, True)


def test_move_from_uci():
    m = caissa.Move.from_uci("e7e8q")
    assert (m.from_square, m.to_square, m.promotion) == (caissa.E7, caissa.E8, caissa.QUEEN)
    assert m == caissa.Move(caissa.E7, caissa.E8, caissa.QUEEN)
    assert str(m) == m.uci() == "e7e8q"
    assert repr(caissa.Move.from_uci("g1f3")) == "Move.from_uci('g1f3')"
    assert caissa.Move.from_uci("g1f3").promotion is None
    assert len({caissa.Move.from_uci("e2e4"), caissa.Move(caissa.E2, caissa.E4)}) == 1


@pytest.mark.parametrize(
    "text,byte", [("", 0), ("e2", 2), ("e2e9", 2), ("e7e8k", 4), ("e2e4e", 4), ("e2e4q1", 5)]
)
def test_move_from_uci_errors_say_where(text, byte):
    with pytest.raises(caissa.InvalidMoveError) as info:
        caissa.Move.from_uci(text)
    assert isinstance(info.value, ValueError)
    assert info.value.byte == byte


def test_move_refuses_bad_promotions_and_squares():
    with pytest.raises(ValueError):
        caissa.Move(caissa.E7, caissa.E8, caissa.KING)
    with pytest.raises(ValueError):
        caissa.Move(64, 0)
    # As python-chess: a move onto its own square is no UCI (`0000` is the null move).
    for text in ("e2e2", "a1a1"):
        with pytest.raises(chess.InvalidMoveError):
            chess.Move.from_uci(text)
        with pytest.raises(caissa.InvalidMoveError):
            caissa.Move.from_uci(text)


def test_board_from_fen_and_back():
    board = caissa.Board(KIWIPETE)
    assert board.fen() == KIWIPETE
    assert repr(board) == f"Board('{KIWIPETE}')"
    assert caissa.Board().fen() == caissa.STARTING_FEN
    assert caissa.Board(caissa.STARTING_FEN) == caissa.Board()
    assert board.board_fen() == KIWIPETE.split()[0]
    assert board.turn == caissa.WHITE
    assert (board.halfmove_clock, board.fullmove_number, board.ply()) == (0, 1, 0)
    assert board.piece_at(caissa.E1) == caissa.Piece(caissa.KING, caissa.WHITE)
    assert board.piece_at(caissa.E3) is None
    assert board.king(caissa.BLACK) == caissa.E8
    assert str(caissa.Board()).splitlines()[0] == "r n b q k b n r"


def test_fen_en_passant_modes():
    board = play(caissa.Board(), "e4")
    assert board.fen().split()[3] == "-"
    assert board.fen(en_passant="fen").split()[3] == "e3"
    assert board.fen(en_passant="xfen").split()[3] == "-"
    play(board, "d5 e5 f5")
    assert board.fen().split()[3] == "f6"
    with pytest.raises(ValueError):
        board.fen(en_passant="sometimes")


@pytest.mark.parametrize(
    "fen,field,byte",
    [
        ("", "placement", 0),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement", 42),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move", 44),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling", 49),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant", 51),
    ],
)
def test_fen_errors_say_where(fen, field, byte):
    with pytest.raises(caissa.InvalidFenError) as info:
        caissa.Board(fen)
    assert isinstance(info.value, ValueError)
    assert (info.value.field, info.value.byte) == (field, byte)


def test_illegal_positions_list_their_problems():
    board = caissa.Board("8/8/8/8/8/8/8/K7 w - - 0 1")
    with pytest.raises(caissa.IllegalPositionError) as info:
        board.legal_moves
    assert isinstance(info.value, ValueError)
    assert info.value.problems == ["black has no king"]
    assert board.status() == chess.STATUS_NO_BLACK_KING and not board.is_valid()


def test_chess960():
    board = caissa.Board.from_chess960(0)
    assert board.fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert board.fen(shredder=True).split()[2] == "HFhf"
    assert board.chess960
    assert caissa.Board.from_chess960(518).fen() == caissa.STARTING_FEN
    assert caissa.Board.from_chess960_pos(0) == board
    with pytest.raises(ValueError):
        caissa.Board.from_chess960(960)
    # King takes rook: the UCI of Chess960 castling.
    board = caissa.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    assert board.push_san("O-O") == caissa.Move.from_uci("e1h1")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    assert board.push_uci("e8a8") == caissa.Move.from_uci("e8a8")
    assert board.fen(shredder=True) == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"


def test_push_pop_peek_and_move_stack():
    board = caissa.Board()
    e4 = board.push_san("e4")
    assert e4 == caissa.Move.from_uci("e2e4")
    assert board.push_uci("e7e5") == caissa.Move.from_uci("e7e5")
    board.push(caissa.Move.from_uci("g1f3"))
    assert board.move_stack == [caissa.Move.from_uci(u) for u in ["e2e4", "e7e5", "g1f3"]]
    assert board.peek() == caissa.Move.from_uci("g1f3")
    assert board.ply() == 3
    assert board.pop() == caissa.Move.from_uci("g1f3")
    assert board.pop() == caissa.Move.from_uci("e7e5")
    assert board.pop() == e4
    assert board == caissa.Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_castling_is_the_two_square_king_move_in_standard_chess():
    board = caissa.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert caissa.Move.from_uci("e1g1") in board.legal_moves
    # The king taking its rook is read as castling too, as python-chess reads it; the list
    # writes the two-square step.
    assert caissa.Move.from_uci("e1h1") in board.legal_moves
    assert caissa.Move.from_uci("e1h1") not in list(board.legal_moves)
    assert board.san(caissa.Move.from_uci("e1c1")) == "O-O-O"
    assert board.push_san("O-O") == caissa.Move.from_uci("e1g1")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


def test_copy_keeps_the_move_stack():
    board = play(caissa.Board(), "e4 e5")
    for other in [board.copy(), copy.copy(board)]:
        assert other.move_stack == board.move_stack
        other.pop()
        assert len(board.move_stack) == 2


def test_illegal_moves_are_refused_and_nothing_is_played():
    board = caissa.Board()
    with pytest.raises(caissa.IllegalMoveError):
        board.push(caissa.Move.from_uci("e2e5"))
    with pytest.raises(caissa.IllegalMoveError):
        board.push_uci("e1e2")
    with pytest.raises(caissa.IllegalMoveError):
        board.push_san("Nf6")
    with pytest.raises(caissa.IllegalMoveError):
        board.san(caissa.Move.from_uci("a1a8"))
    assert board == caissa.Board() and board.move_stack == []
    assert not board.is_legal(caissa.Move.from_uci("e2e5"))
    assert board.is_legal(caissa.Move.from_uci("e2e4"))


def test_san_errors_say_where_and_which_moves():
    board = caissa.Board("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1")
    with pytest.raises(caissa.AmbiguousMoveError) as info:
        board.push_san("Nb3")
    assert isinstance(info.value, ValueError)
    assert sorted(info.value.candidates) == ["a1b3", "c1b3"]
    for text, byte in [("", 0), ("Nx", 2), ("Nb3=Q", 3), ("O-O-X", 4)]:
        with pytest.raises(caissa.InvalidMoveError) as info:
            board.push_san(text)
        assert info.value.byte == byte, text
    with pytest.raises(caissa.InvalidMoveError) as info:
        board.push_uci("a1")
    assert info.value.byte == 2


def test_san_reading_is_lenient_like_python_chess():
    board = caissa.Board()
    assert board.parse_san("Ng1f3") == caissa.Move.from_uci("g1f3")
    assert board.parse_san("e2e4") == caissa.Move.from_uci("e2e4")
    assert board.parse_san("Nf3+") == caissa.Move.from_uci("g1f3")
    board = caissa.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert board.parse_san("0-0") == caissa.Move.from_uci("e1g1")


def test_san_writing():
    board = caissa.Board(KIWIPETE)
    assert board.san(caissa.Move.from_uci("e5f7")) == "Nxf7"
    assert board.san(caissa.Move.from_uci("e1c1")) == "O-O-O"
    assert board.san(caissa.Move.from_uci("f3f6")) == "Qxf6"
    check = play(caissa.Board(), "e4 f5")
    assert check.san(caissa.Move.from_uci("d1h5")) == "Qh5+"
    assert check.lan_free_san(caissa.Move.from_uci("d1h5")) == "Qh5"
    assert board.san_and_push(caissa.Move.from_uci("a2a4")) == "a4"
    assert board.uci(caissa.Move.from_uci("b4a3")) == "b4a3"
    assert caissa.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1").san(caissa.Move.from_uci("a1a8")) == "Ra8#"


def test_legal_moves_and_perft():
    assert len(caissa.Board().legal_moves) == 20 == caissa.Board().legal_moves.count()
    assert caissa.Board().legal_moves[-1] in caissa.Board().legal_moves
    assert len(caissa.Board(KIWIPETE).legal_moves) == 48
    assert caissa.Board().perft(4) == 197_281
    assert caissa.Board(KIWIPETE).perft(3) == 97_862
    assert caissa.Board.from_chess960(0).perft(3) == 9_006
    assert all(isinstance(m, caissa.Move) for m in caissa.Board().legal_moves)


def test_check_mate_stalemate():
    mate = play(caissa.Board(), "f3 e5 g4 Qh4#")
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    assert list(mate.legal_moves) == [] and mate.legal_moves.count() == 0
    assert not mate.legal_moves
    assert mate.is_game_over()
    outcome = mate.outcome()
    assert (outcome.termination, outcome.winner, outcome.article) == ("checkmate", False, "5.1.1")
    assert outcome.result() == mate.result() == "0-1"
    stalemate = caissa.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and not stalemate.is_check()
    assert stalemate.outcome().termination == "stalemate"
    assert stalemate.outcome().winner is None
    assert stalemate.result() == "1/2-1/2"
    assert caissa.Board().outcome() is None and caissa.Board().result() == "*"


def test_insufficient_material_and_dead_positions():
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1",
    ]:
        board = caissa.Board(fen)
        assert board.is_insufficient_material(), fen
        assert board.is_dead_position(), fen
        assert board.outcome().termination == "dead_position"
        assert board.outcome().article == "5.2.2"
    # A blocked pawn wall: material enough (as python-chess counts), yet dead.
    wall = caissa.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1")
    assert not wall.is_insufficient_material()
    assert wall.is_dead_position()
    assert not wall.can_win(caissa.WHITE)
    assert wall.outcome().termination == "dead_position"
    board = caissa.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert not board.is_insufficient_material() and not board.is_dead_position()
    assert not board.has_insufficient_material(caissa.WHITE)
    assert board.has_insufficient_material(caissa.BLACK)
    assert board.can_win(caissa.WHITE) and not board.can_win(caissa.BLACK)


def test_moves_after_an_automatic_ending_are_recorded():
    board = caissa.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert board.is_game_over()
    board.push_san("Kd2")
    assert board.outcome().termination == "dead_position"


KNIGHT_DANCE = "Nf3 Nf6 Ng1 Ng8"


def test_threefold_and_fivefold_repetition():
    board = caissa.Board()
    play(board, KNIGHT_DANCE)
    assert board.is_repetition(2) and not board.is_repetition(3)
    # One move from the third occurrence: the claim with a written move (9.2.1.1).
    play(board, "Nf3 Nf6 Ng1")
    assert board.can_claim_threefold_repetition()
    assert board.can_claim_draw()
    assert board.outcome(claim_draw=True).termination == "threefold_repetition"
    assert board.outcome(claim_draw=True).article == "9.2.1.1"
    play(board, "Ng8")
    assert board.is_repetition(3) and board.can_claim_threefold_repetition()
    assert board.outcome(claim_draw=True).article == "9.2.1.2"
    assert board.outcome() is None and not board.is_game_over()
    assert board.is_game_over(claim_draw=True)
    play(board, KNIGHT_DANCE + " " + KNIGHT_DANCE)
    assert board.is_fivefold_repetition()
    outcome = board.outcome()
    assert (outcome.termination, outcome.article) == ("fivefold_repetition", "9.6.1")
    # The game is over: nothing to claim.
    assert not board.can_claim_threefold_repetition()


def test_fifty_and_seventy_five_moves():
    board = caissa.Board("4k3/8/8/8/8/8/r7/4K2R w - - 99 80")
    assert not board.can_claim_fifty_moves() or board.halfmove_clock == 99
    # A quiet written move completes the fifty moves (9.3.1).
    assert board.can_claim_fifty_moves()
    board.push_san("Rh2")
    assert board.can_claim_fifty_moves()
    assert board.outcome(claim_draw=True).termination == "fifty_moves"
    assert board.outcome(claim_draw=True).article == "9.3.2"
    board = caissa.Board("4k3/8/8/8/8/8/r7/4K2R w - - 150 100")
    assert board.is_seventyfive_moves()
    assert board.outcome().termination == "seventy_five_moves"
    assert board.outcome().article == "9.6.2"


def test_zobrist_hash_is_the_same_position_key():
    a = play(caissa.Board(), "Nf3 Nf6 Ng1 Ng8")
    assert a.zobrist_hash() == caissa.Board().zobrist_hash()
    # The en passant square counts only when the capture is legal.
    b = play(caissa.Board(), "e4")
    assert b.zobrist_hash() == caissa.Board(b.fen(en_passant="fen")).zobrist_hash()
    assert caissa.Board().zobrist_hash() != b.zobrist_hash()


# The test positions published with the Polyglot book format.
POLYGLOT_VECTORS = [
    ("", 0x463B96181691FC9C),
    ("e4", 0x823C9B50FD114196),
    ("e4 d5", 0x0756B94461C50FB0),
    ("e4 d5 e5", 0x662FAFB965DB29D4),
    ("e4 d5 e5 f5", 0x22A48B5A8E47FF78),
    ("e4 d5 e5 f5 Ke2", 0x652A607CA3F242C1),
    ("e4 d5 e5 f5 Ke2 Kf7", 0x00FDD303C946BDD9),
    ("a4 b5 h4 b4 c4", 0x3C8123EA7B067637),
    ("a4 b5 h4 b4 c4 bxc3 Ra3", 0x5C3F9B829B279560),
]


@pytest.mark.parametrize("moves,key", POLYGLOT_VECTORS)
def test_polyglot_key_of_the_published_positions(moves, key):
    board = play(caissa.Board(), moves)
    assert board.polyglot_key() == key
    assert caissa.Board(board.fen()).polyglot_key() == key


def test_polyglot_key_counts_an_en_passant_file_the_laws_do_not():
    # exd6 would leave the white king in check from the rook: no legal capture, so not the
    # Laws' en passant right, but the book format counts the pawn standing beside d5.
    pinned = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"
    without = "8/8/8/K2pP2r/8/8/8/7k w - - 0 1"
    assert caissa.Board(pinned).zobrist_hash() == caissa.Board(without).zobrist_hash()
    assert caissa.Board(pinned).polyglot_key() != caissa.Board(without).polyglot_key()
    for fen in [pinned, without]:
        assert caissa.Board(fen).polyglot_key() == chess.polyglot.zobrist_hash(chess.Board(fen))


def test_square_sets_behave_as_python_chess_square_sets():
    squares = caissa.SquareSet([caissa.E4, caissa.A1])
    assert list(squares) == [caissa.A1, caissa.E4]
    assert len(squares) == 2 and caissa.E4 in squares and caissa.E5 not in squares
    assert int(squares) == (1 << caissa.A1) | (1 << caissa.E4)
    assert squares == caissa.SquareSet(int(squares)) and squares == int(squares)
    assert list(squares | caissa.SquareSet([caissa.H8])) == [caissa.A1, caissa.E4, caissa.H8]
    assert list(squares & (1 << caissa.E4)) == [caissa.E4]
    assert list(squares - caissa.SquareSet([caissa.A1])) == [caissa.E4]
    assert len(~squares) == 62 and not caissa.SquareSet()
    assert repr(caissa.SquareSet(1)) == repr(chess.SquareSet(1)) == "SquareSet(0x0000_0000_0000_0001)"
    assert str(caissa.SquareSet([caissa.A8])).splitlines()[0] == "1 . . . . . . ."
    with pytest.raises(ValueError):
        caissa.SquareSet([64])


def test_board_queries_in_a_pinned_position():
    board = caissa.Board("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert board.is_pinned(caissa.WHITE, caissa.E2)
    assert caissa.E8 in board.pin(caissa.WHITE, caissa.E2)
    assert len(board.pin(caissa.WHITE, caissa.E1)) == 64
    assert list(board.attackers(caissa.BLACK, caissa.E2)) == [caissa.E7]
    assert board.find_move(caissa.E1, caissa.D1).uci() == "e1d1"
    with pytest.raises(ValueError):
        board.find_move(caissa.E2, caissa.C3)  # the pinned knight
    board.set_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert board.find_move(caissa.A7, caissa.A8).uci() == "a7a8q"
    assert board.variation_san([caissa.Move.from_uci("a7a8q")]) == "1. a8=Q+"
    board.reset()
    assert board.fen() == caissa.STARTING_FEN and board.is_valid() and board.status() == 0
    with pytest.raises(caissa.InvalidFenError):
        board.set_fen("8/8/8/8/8/8/8 w - - 0 1")
    assert board.fen() == caissa.STARTING_FEN
    board.set_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    assert board.status() == chess.Board.empty().status() and board.fen().startswith("8/8/")


def test_module_functions_and_masks_match_python_chess():
    for square in chess.SQUARES:
        assert caissa.square_mirror(square) == chess.square_mirror(square)
        for other in chess.SQUARES:
            assert caissa.square_distance(square, other) == chess.square_distance(square, other)
    for piece_type in chess.PIECE_TYPES:
        assert caissa.piece_symbol(piece_type) == chess.piece_symbol(piece_type)
        assert caissa.piece_name(piece_type) == chess.piece_name(piece_type)
    assert caissa.STARTING_BOARD_FEN == chess.STARTING_BOARD_FEN
    names = [name for name in dir(chess) if name.startswith("BB_") and isinstance(
        getattr(chess, name), (int, list))]
    ours = [name for name in names if hasattr(caissa, name)]
    assert len(ours) == 94
    for name in ours:
        assert getattr(caissa, name) == getattr(chess, name), name
    assert caissa.SQUARES_180 == chess.SQUARES_180
    statuses = [name for name in dir(chess) if name.startswith("STATUS_")]
    assert len(statuses) == 18
    assert all(getattr(caissa, name) == getattr(chess, name) for name in statuses)
    for a in chess.SQUARES:
        for b in chess.SQUARES:
            assert caissa.ray(a, b) == chess.ray(a, b) and caissa.between(a, b) == chess.between(a, b)
            assert caissa.SquareSet.ray(a, b) == chess.SquareSet.ray(a, b)
            assert caissa.SquareSet.between(a, b) == chess.SquareSet.between(a, b)


BIT_HELPERS = ["lsb", "msb", "popcount", "flip_vertical", "flip_horizontal", "flip_diagonal",
               "flip_anti_diagonal", "shift_down", "shift_2_down", "shift_up", "shift_2_up",
               "shift_right", "shift_2_right", "shift_left", "shift_2_left", "shift_up_left",
               "shift_up_right", "shift_down_left", "shift_down_right"]


def test_bit_helpers_match_python_chess():
    rng = random.Random(64)
    masks = [0, 1, chess.BB_ALL, chess.BB_H8] + [rng.getrandbits(64) & rng.getrandbits(64)
                                                 for _ in range(3000)]
    for bb in masks:
        for name in BIT_HELPERS:
            assert getattr(caissa, name)(bb) == getattr(chess, name)(bb), (name, bb)
        assert list(caissa.scan_forward(bb)) == list(chess.scan_forward(bb))
        assert list(caissa.scan_reversed(bb)) == list(chess.scan_reversed(bb))


def test_square_sets_change_as_python_chess_square_sets():
    """The same random edits to both sets, compared after each; the answers of the set
    methods too."""
    rng = random.Random(8)
    ours, theirs = caissa.SquareSet(), chess.SquareSet()
    for _ in range(3000):
        other = rng.getrandbits(64) & rng.getrandbits(64)
        squares = [rng.randrange(64) for _ in range(rng.randrange(4))]
        op = rng.choice(["add", "discard", "remove", "pop", "clear", "update", "ior", "iand",
                         "isub", "ixor", "intersection_update", "difference_update",
                         "symmetric_difference_update"])
        if op in ("add", "discard", "remove"):
            square = rng.randrange(64)
            try:
                getattr(theirs, op)(square)
            except KeyError:
                with pytest.raises(KeyError):
                    getattr(ours, op)(square)
            else:
                getattr(ours, op)(square)
        elif op == "pop":
            if theirs:
                assert ours.pop() == theirs.pop()
            else:
                with pytest.raises(KeyError):
                    ours.pop()
        elif op == "clear":
            ours.clear()
            theirs.clear()
        elif op == "update":
            ours.update(other, squares)
            theirs.update(other, squares)
        elif op in ("ior", "iand", "isub", "ixor"):
            operand = rng.choice([other, squares, chess.SquareSet(other)])
            mine = caissa.SquareSet(int(operand)) if isinstance(operand, chess.SquareSet) else operand
            if op == "ior":
                ours |= mine
                theirs |= operand
            elif op == "iand":
                ours &= mine
                theirs &= operand
            elif op == "isub":
                ours -= mine
                theirs -= operand
            else:
                ours ^= mine
                theirs ^= operand
        else:
            getattr(ours, op)(other)
            getattr(theirs, op)(other)
        assert int(ours) == int(theirs), op
        for name in ("union", "intersection", "difference", "symmetric_difference"):
            assert int(getattr(ours, name)(other)) == int(getattr(theirs, name)(other))
        for name in ("isdisjoint", "issubset", "issuperset"):
            assert getattr(ours, name)(other) == getattr(theirs, name)(other), name
        assert int(ours.mirror()) == int(theirs.mirror()) and int(ours.copy()) == int(theirs)
    small = chess.SquareSet(0b1011_0000_0001)
    assert list(caissa.SquareSet(int(small)).carry_rippler()) == list(small.carry_rippler())
    everything = caissa.SquareSet(chess.BB_ALL).carry_rippler()
    assert [next(everything) for _ in range(4)] == [0, 1, 2, 3]
    assert caissa.SquareSet.from_square(caissa.E4) == chess.BB_E4
    with pytest.raises(TypeError):
        hash(caissa.SquareSet())
    with pytest.raises(ValueError):
        caissa.SquareSet().update([70])


def test_board_editing_and_views_match_python_chess():
    fen = "r3k2r/pppq1ppp/2n5/3pp3/4P3/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 9"
    ours, peer = caissa.Board(fen), chess.Board(fen)
    assert ours.unicode() == peer.unicode()
    assert ours.unicode(invert_color=True, empty_square=".") == peer.unicode(
        invert_color=True, empty_square=".")
    for edit in (
        lambda b, P: b.set_piece_at(chess.E4, P.from_symbol("q")),
        lambda b, P: b.remove_piece_at(chess.H1),  # White's king-side right goes with the rook
        lambda b, P: b.set_board_fen("4k3/8/8/8/8/8/8/4K3"),
        lambda b, P: b.set_piece_map({chess.E1: P.from_symbol("K"), chess.E8: P.from_symbol("k"),
                                      chess.A3: P.from_symbol("r")}),
    ):
        edit(ours, caissa.Piece)
        edit(peer, chess.Piece)
        assert ours.fen() == peer.fen()
        assert ours.move_stack == []
    # A documented difference: a castling right dropped with its rook is gone for good, where
    # python-chess keeps it and gives it back when a rook returns to the square.
    ours, peer = caissa.Board(fen), chess.Board(fen)
    for board, piece in ((ours, caissa.Piece), (peer, chess.Piece)):
        board.remove_piece_at(chess.H1)
        board.set_piece_at(chess.H1, piece.from_symbol("R"))
    assert ours.fen().split()[2] == "Qkq" and peer.fen().split()[2] == "KQkq"
    ours.remove_piece_at(chess.E1)  # no white king: an unfinished board
    assert ours.status() == chess.STATUS_NO_WHITE_KING
    with pytest.raises(caissa.IllegalPositionError):
        ours.push_san("e4")
    board = caissa.Board()
    board.push_san("e4")
    assert board.root().fen() == caissa.STARTING_FEN and board.root().move_stack == []
    assert caissa.Board().chess960_pos() == 518 and board.chess960_pos() is None
    for number in (0, 1, 517, 518, 959):
        assert caissa.Board.from_chess960(number).chess960_pos() == number
        assert chess.Board.from_chess960_pos(number).chess960_pos() == number
    assert not board.is_variant_end()


def test_more_of_python_chess():
    for a in chess.SQUARES:
        for b in chess.SQUARES:
            assert caissa.square_manhattan_distance(a, b) == chess.square_manhattan_distance(a, b)
            assert caissa.square_knight_distance(a, b) == chess.square_knight_distance(a, b)
    assert caissa.UNICODE_PIECE_SYMBOLS == chess.UNICODE_PIECE_SYMBOLS
    assert caissa.STATUS_VALID == chess.STATUS_VALID == caissa.Board().status()
    for symbol in "PNBRQKpnbrqk":
        ours, peer = caissa.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert ours.unicode_symbol() == peer.unicode_symbol()
        assert ours.unicode_symbol(invert_color=True) == peer.unicode_symbol(invert_color=True)
    fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 99 60"
    ours, peer = caissa.Board(fen), chess.Board(fen)
    assert ours.shredder_fen() == peer.shredder_fen()
    assert ours.is_fifty_moves() == peer.is_fifty_moves() is False
    ours.push_san("Kd7")
    peer.push_san("Kd7")
    assert ours.is_fifty_moves() == peer.is_fifty_moves() is True
    ours.clear_stack()
    peer.clear_stack()
    assert ours.move_stack == [] and ours.fen() == peer.fen()
    ours.reset_board()
    peer.reset_board()
    assert ours.board_fen() == peer.board_fen() and ours.turn == peer.turn
    mate = caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert mate.outcome().termination == caissa.Termination.CHECKMATE
    assert caissa.Termination.INSUFFICIENT_MATERIAL is caissa.Termination.DEAD_POSITION


def test_copy_keeps_the_stack_asked_for():
    ours, peer = caissa.Board(), chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "e4"]:
        ours.push_san(san)
        peer.push_san(san)
    for stack in (True, False, 0, 2, 99):
        mine, theirs = ours.copy(stack=stack), peer.copy(stack=stack)
        assert mine.fen() == theirs.fen()
        assert [m.uci() for m in mine.move_stack] == [m.uci() for m in theirs.move_stack], stack
    assert len(ours.copy().move_stack) == 5


EPD_LINES = [
    '4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id "pawn"; ce 120;',
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; am d4; "
    'pv Bb5 a6 Ba4; acd 12; c0 "Ruy"; hmvc 2; fmvn 3;',
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D1 20; D2 400; xx 1.5; yy; zz e4; '
    'ww "q \\" \\\\";',
]


def plain_operations(operations):
    def plain(value):
        if isinstance(value, list):
            return [m.uci() for m in value]
        if isinstance(value, (chess.Move, caissa.Move)):
            return value.uci()
        return value
    return {opcode: plain(value) for opcode, value in operations.items()}


def test_epd_reads_and_writes_as_python_chess():
    perft = pathlib.Path(__file__).resolve().parents[3] / "data" / "perft"
    lines = [(line, False) for line in EPD_LINES]
    # (standard.epd has FEN counters after the four fields, which python-chess refuses.)
    for name in ("random-d4.epd", "chess960-random-d4.epd"):
        chess960 = name.startswith("chess960")
        text = (perft / name).read_text()
        lines += [(line, chess960) for line in text.splitlines()[:40]
                  if line.strip() and not line.startswith("#")]
    for line, chess960 in lines:
        peer, peer_ops = chess.Board.from_epd(line, chess960=chess960)
        ours, ours_ops = caissa.Board.from_epd(line, chess960=chess960)
        assert ours.fen() == peer.fen(), line
        assert plain_operations(ours_ops) == plain_operations(peer_ops), line
        # Written back with the same operations (python-chess's moves as caissa's).
        mine = {k: (caissa.Move.from_uci(v.uci()) if isinstance(v, chess.Move) else
                    [caissa.Move.from_uci(m.uci()) for m in v] if isinstance(v, list) else v)
                for k, v in peer_ops.items()}
        assert ours.epd(**mine) == peer.epd(**peer_ops), line
        board = caissa.Board(chess960=chess960)
        assert plain_operations(board.set_epd(line)) == plain_operations(peer_ops)
        assert board.fen() == peer.fen()
    assert caissa.Board(chess960=True).chess960 and not caissa.Board().chess960
    # FEN counters after the four fields (python-chess refuses them) read as hmvc and fmvn.
    board, operations = caissa.Board.from_epd("8/8/8/8/8/8/8/K1k5 b - - 3 70")
    assert operations == {"hmvc": 3, "fmvn": 70} and board.fen() == "8/8/8/8/8/8/8/K1k5 b - - 3 70"
    assert caissa.Board().epd() == chess.Board().epd()
    assert caissa.Board().epd(shredder=True, hmvc=0) == chess.Board().epd(shredder=True, hmvc=0)
    board = caissa.Board()
    with pytest.raises(caissa.InvalidFenError) as error:
        board.set_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - bm e4;")
    assert error.value.byte is not None and board.fen() == caissa.STARTING_FEN
    with pytest.raises(ValueError):
        board.set_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e5;")
    with pytest.raises(ValueError):
        board.epd(id="two\nlines")
    with pytest.raises(ValueError):
        board.epd(**{"1x": 1})
    with pytest.raises(caissa.IllegalMoveError):
        board.epd(bm=caissa.Move.from_uci("e2e5"))


def test_epd_of_a_setup_that_is_no_position_reads_as_python_chess():
    # Boards python-chess reads with their problems flagged: an empty board, two white kings,
    # a pawn on the back rank, the side not to move in check.
    for line in ('8/8/8/8/8/8/8/8 w - - id "empty"; hmvc 3;',
                 '4k3/8/8/8/8/8/8/4K2K w - - id "two kings"; acd 7;',
                 'P3k3/8/8/8/8/8/8/4K3 b - - c0 "pawn"; ce -15;',
                 '4k3/8/8/8/8/8/8/4K2r b - -'):
        peer, peer_ops = chess.Board.from_epd(line)
        ours, ours_ops = caissa.Board.from_epd(line)
        assert ours_ops == peer_ops, line
        assert (ours.fen(), int(ours.status()), ours.is_valid()) == \
            (peer.fen(), int(peer.status()), peer.is_valid()), line
        board = caissa.Board()
        assert board.set_epd(line) == peer_ops and board.fen() == peer.fen(), line
        assert ours.epd(**ours_ops) == peer.epd(**peer_ops), line
        with pytest.raises(caissa.IllegalPositionError):
            ours.legal_moves.count()
        with pytest.raises(caissa.IllegalPositionError):
            ours.epd(bm=caissa.Move.from_uci("e1d1"))
    # A move operand needs a legal position (python-chess reads `e4` without a white king).
    board = caissa.Board()
    with pytest.raises(caissa.IllegalPositionError):
        board.set_epd("4k3/8/8/8/8/8/4P3/8 w - - bm e4;")
    assert board.fen() == caissa.STARTING_FEN
    with pytest.raises(caissa.IllegalPositionError):
        caissa.Board.from_epd("4k3/8/8/8/8/8/4P3/8 w - - id \"no king\"; pv e4;")


def test_a_queenside_letter_without_rooks_reads_as_python_chess():
    # python-chess gives `Q` or `q` no right when the side has a king but no rook on its back
    # rank (a stale letter of a puzzle FEN), and the corner's for `K` or `k` there.
    for fen in ("4k3/8/8/8/8/8/8/4K2R w Kq - 0 1", "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
                "r3k3/8/8/8/8/8/8/4K3 w Qq - 0 1", "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                "8/8/8/8/8/8/8/8 w Q - 0 1", "3k4/8/8/8/8/8/8/4K3 w q - 0 1",
                "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"):
        for chess960 in (False, True):
            ours, peer = caissa.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
            assert ours.castling_rights == peer.castling_rights, fen
            assert (ours.fen(), int(ours.status())) == (peer.fen(), int(peer.status())), fen
            if peer.is_valid():
                assert sorted(m.uci() for m in ours.legal_moves) == \
                    sorted(m.uci() for m in peer.legal_moves), fen
            epd = " ".join(fen.split()[:4])
            assert caissa.Board.from_epd(epd, chess960=chess960)[0].fen() == \
                chess.Board.from_epd(epd, chess960=chess960)[0].fen(), fen
    for rights in ("Kq", "KQ"):
        ours, peer = (cls("4k3/8/8/8/8/8/8/4K2R w K - 0 1") for cls in (caissa.Board, chess.Board))
        ours.set_castling_fen(rights)
        peer.set_castling_fen(rights)
        assert (ours.fen(), ours.castling_rights, ours.is_valid()) == \
            (peer.fen(), peer.castling_rights, peer.is_valid()), rights


def test_an_unfinished_boards_en_passant_square_shows_as_python_chess():
    # python-chess shows an en passant square where a pawn stands ready to take, whether or
    # not the pawn that would have pushed past it is there (its status flags the square).
    for fen in ("4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3p4/8/4P3/4K3 b - e3 0 1",
                "4k3/8/8/8/3p4/4N3/8/4K3 b - e3 0 1", "4k3/8/8/8/3pQ3/8/8/4K3 b - e3 0 1",
                "4k3/3p4/8/8/8/8/8/4K3 b - e6 0 1", "8/8/8/8/3p4/8/8/4K3 b - e3 0 1",
                "4k3/8/8/8/3p4/8/8/4K2r b - e3 0 1"):
        ours, peer = caissa.Board(fen), chess.Board(fen)
        for mode in ("legal", "xfen", "fen"):
            assert ours.fen(en_passant=mode) == peer.fen(en_passant=mode), (fen, mode)
        assert (ours.epd(), int(ours.status())) == (peer.epd(), int(peer.status())), fen


def test_castling_fen_mirror_and_variant_flags_as_python_chess():
    for fen, push in ((chess.STARTING_FEN, "e2e4"),
                      ("r3k2r/p7/8/8/8/8/P7/R3K2R b KQkq - 3 20", "a7a6")):
        for rights in ("Kq", "-", "KQkq", "Q", "HAh"):
            ours, peer = caissa.Board(fen), chess.Board(fen)
            ours.push_uci(push)
            peer.push_uci(push)
            ours.set_castling_fen(rights)
            peer.set_castling_fen(rights)
            assert ours.fen() == peer.fen() and ours.move_stack == [] == peer.move_stack
    board = caissa.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(ValueError):
        board.set_castling_fen("K Q")
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    board.set_castling_fen("K")  # no rook to castle with: kept for status(), ignored in play
    assert board.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    assert not board.is_check() and board.legal_moves.count() == 5
    ours, peer = caissa.Board(), chess.Board()
    ours.push_san("e4")
    peer.push_san("e4")
    ours.apply_mirror()
    peer.apply_mirror()
    assert ours.fen() == peer.fen()
    for name in ("uci_variant", "xboard_variant", "aliases", "one_king", "connected_kings",
                 "captures_compulsory"):
        assert getattr(caissa.Board, name) == getattr(chess.Board, name), name
        assert getattr(ours, name) == getattr(peer, name), name
    assert not any((ours.is_variant_win(), ours.is_variant_loss(), ours.is_variant_draw()))
    chess960 = caissa.Board.from_chess960(100)
    chess960.reset()
    assert chess960.chess960 and chess960.fen() == chess.STARTING_FEN


def test_review_findings_on_boards_stay_fixed():
    board, peer = caissa.Board(), chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"):
        board.push_san(san)
        peer.push_san(san)
    for uci in ("e1g1", "e1h1"):
        ours_move, their_move = caissa.Move.from_uci(uci), chess.Move.from_uci(uci)
        assert board.is_pseudo_legal(ours_move) == peer.is_pseudo_legal(their_move) is True
        assert (ours_move in board.legal_moves) == (their_move in peer.legal_moves) is True
        assert (ours_move in board.pseudo_legal_moves) == (their_move in peer.pseudo_legal_moves)
    squares = caissa.SquareSet([1, 2])
    alias = squares
    squares.update(squares)
    squares.symmetric_difference_update(squares)
    assert alias is squares and int(alias) == 0
    squares.add(5)
    squares -= squares
    assert int(alias) == 0
    board.set_castling_fen("")
    peer.set_castling_fen("")
    assert board.fen() == peer.fen()
    _, ours_ops = caissa.Board.from_epd("8/8/8/8/8/8/8/K1k5 w - - x 123456789012345678901234567890;")
    assert ours_ops["x"] == 123456789012345678901234567890
    assert caissa.Board().epd(flag=True) == chess.Board().epd(flag=True)


def test_more_review_findings_match_python_chess():
    rng = random.Random(3)
    ours, peer = caissa.Board(), chess.Board()
    for _ in range(30):
        moves = list(peer.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        ours.push_uci(move.uci())
        peer.push(move)
        for _ in range(5):
            occupied = rng.getrandbits(64) | int(peer.occupied)
            square = rng.randrange(64)
            for color in chess.COLORS:
                assert ours.attackers_mask(color, square, occupied) == peer.attackers_mask(
                    color, square, occupied)
                assert ours.is_attacked_by(color, square, occupied) == peer.is_attacked_by(
                    color, square, occupied)
        mask = rng.getrandbits(64)
        assert {sq: p.symbol() for sq, p in ours.piece_map(mask=mask).items()} == {
            sq: p.symbol() for sq, p in peer.piece_map(mask=mask).items()}
        for invert in (False, True):
            for borders in (False, True):
                for orientation in (True, False):
                    kwargs = {"invert_color": invert, "borders": borders,
                              "orientation": orientation}
                    assert ours.unicode(**kwargs) == peer.unicode(**kwargs), kwargs
    assert ours.board_fen(promoted=False) == peer.board_fen(promoted=False)
    black_first = caissa.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    peer_black = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    line = ["e7e5", "g1f3"]
    assert black_first.variation_san([caissa.Move.from_uci(u) for u in line]) == \
        peer_black.variation_san([chess.Move.from_uci(u) for u in line])
    chess960 = caissa.Board.from_chess960(0)
    assert repr(chess960) == repr(chess.Board.from_chess960_pos(0))
    assert eval(repr(chess960), {"Board": caissa.Board}) == chess960
    assert caissa.Board.starting_fen == chess.Board.starting_fen == caissa.Board().starting_fen
    castle = caissa.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    peer_castle = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for flag in (None, True, False):
        assert castle.uci(caissa.Move.from_uci("e1g1"), chess960=flag) == peer_castle.uci(
            chess.Move.from_uci("e1g1"), chess960=flag)
    squares, theirs = caissa.SquareSet(0x8100_0000_0000_0081), chess.SquareSet(0x8100_0000_0000_0081)
    assert squares.tolist() == theirs.tolist() and list(reversed(squares)) == list(reversed(theirs))
    for shift in (1, 8, 63, 64, 70):
        assert int(squares << shift) == int(theirs << shift)
        assert int(squares >> shift) == int(theirs >> shift)


def test_transforms_xboard_and_chess960_setup_as_python_chess():
    board, peer = caissa.Board(), chess.Board()
    play(board, "e4 c5 e5 d5")
    for san in ["e4", "c5", "e5", "d5"]:
        peer.push_san(san)
    for ours_f, theirs_f in [(caissa.flip_vertical, chess.flip_vertical),
                             (caissa.flip_horizontal, chess.flip_horizontal)]:
        expected = peer.transform(theirs_f)
        got = board.transform(ours_f)
        assert got.fen() == expected.fen() and got.move_stack == []
        assert len(board.move_stack) == 4, "transform leaves the board as it was"
    # The en passant square follows the pawns (and is dropped where no capture is legal).
    assert board.transform(caissa.flip_horizontal).fen() == peer.transform(
        chess.flip_horizontal).fen()
    copy_ = board.copy()
    copy_.apply_transform(caissa.flip_horizontal)
    assert copy_.fen() == peer.transform(chess.flip_horizontal).fen()
    with pytest.raises(ValueError, match="two men"):
        board.transform(lambda bb: bb & 0xFF or 1)
    # No kings: an unfinished board, as python-chess's is not valid.
    assert board.transform(lambda bb: 0).status() == chess.Board().transform(lambda bb: 0).status()
    for broken in (lambda bb: -1, lambda bb: 1 << 64, lambda bb: "a1"):
        with pytest.raises(ValueError, match="64-bit mask"):
            board.transform(broken)
    board.set_chess960_pos(100)
    peer.set_chess960_pos(100)
    assert board.fen() == peer.fen() and board.chess960 and board.move_stack == []
    with pytest.raises(ValueError):
        board.set_chess960_pos(960)
    for move in peer.legal_moves:
        mine = caissa.Move.from_uci(peer.uci(move))
        assert board.xboard(mine) == peer.xboard(move)
        assert board.xboard(mine, chess960=False) == peer.xboard(move, chess960=False)
        assert board.parse_xboard(peer.xboard(move)) == mine
    assert caissa.Move.from_uci("e7e8q").xboard() == chess.Move.from_uci("e7e8q").xboard()
    board = caissa.Board()
    assert board.push_xboard("e2e4") == caissa.Move.from_uci("e2e4")
    assert isinstance(board.legal_moves, caissa.LegalMoveGenerator)
    assert isinstance(board.pseudo_legal_moves, caissa.PseudoLegalMoveGenerator)


def test_null_moves_as_python_chess_plays_them():
    """Random games with null moves among the moves (where the side to move is not in check):
    the same positions, move stack, ply, texts and copies as python-chess, and back again."""
    assert caissa.Move.null() == caissa.Move(0, 0) == caissa.Move.from_uci("0000")
    assert not caissa.Move.null() and caissa.Move.from_uci("e2e4")
    assert repr(caissa.Move.null()) == repr(chess.Move.null())
    assert caissa.Move.null().xboard() == chess.Move.null().xboard() == "@@@@"
    rng = random.Random(7)
    nulls = 0
    for _ in range(20):
        ours, peer = caissa.Board(), chess.Board()
        for _ in range(30):
            moves = list(peer.legal_moves)
            if not moves:
                break
            if not peer.is_check() and rng.random() < 0.25:
                move = chess.Move.null()
                nulls += 1
                text = rng.choice(["--", "Z0", "0000", "@@@@"])
                assert ours.parse_san(text) == caissa.Move.null()
                assert ours.san(caissa.Move.null()) == peer.san(move) == "--"
                assert ours.lan(caissa.Move.null()) == peer.lan(move)
                assert ours.uci(caissa.Move.null()) == peer.uci(move) == "0000"
                assert ours.xboard(caissa.Move.null()) == peer.xboard(move)
                assert not ours.is_legal(caissa.Move.null())
                assert caissa.Move.null() not in ours.legal_moves
                ours.push_san(text)
            else:
                move = rng.choice(moves)
                ours.push(caissa.Move.from_uci(peer.uci(move)))
            peer.push(move)
            assert ours.fen() == peer.fen()
            assert ours.ply() == peer.ply()
            assert [m.uci() for m in ours.move_stack] == [peer.uci(m) if m else "0000"
                                                            for m in peer.move_stack]
            assert ours.peek().uci() == (peer.uci(peer.peek()) if peer.peek() else "0000")
        assert ours.root().fen() == peer.root().fen()
        for n in range(len(peer.move_stack) + 2):
            mine, theirs = ours.copy(stack=n), peer.copy(stack=n)
            assert mine.fen() == theirs.fen() and mine.root().fen() == theirs.root().fen()
            assert len(mine.move_stack) == len(theirs.move_stack)
        while peer.move_stack:
            assert ours.pop().uci() == (peer.uci(peer.peek()) if peer.peek() else "0000")
            peer.pop()
            assert ours.fen() == peer.fen()
    assert nulls > 50
    # python-chess passes in check too and leaves an illegal board; caissa refuses.
    check = caissa.Board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    with pytest.raises(caissa.IllegalMoveError, match="null move in check"):
        check.push(caissa.Move.null())
    assert check.fen() == "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1" and not check.move_stack
    board = caissa.Board()
    assert board.push_uci("0000") == caissa.Move.null() and board.turn == caissa.BLACK
    assert board.san_and_push(caissa.Move.null()) == "--" and board.turn == caissa.WHITE


def test_review_findings_of_the_twelfth_session_on_boards_stay_fixed():
    import caissa.svg
    # No null move after the end of the game, which PGN could not write back.
    stalemate = caissa.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    with pytest.raises(caissa.IllegalMoveError, match="after the end of the game"):
        stalemate.push(caissa.Move.null())
    for bad in (-1, 960, 2 ** 63, 2 ** 70, "1"):
        with pytest.raises(ValueError):
            caissa.Board().set_chess960_pos(bad)
        with pytest.raises(ValueError):
            caissa.Board.from_chess960(bad)
    # XBoard writes the move as given, as python-chess does.
    board, peer = caissa.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), chess.Board(
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    for uci in ("e1h1", "e1g1"):
        assert board.xboard(caissa.Move.from_uci(uci)) == peer.xboard(chess.Move.from_uci(uci))
    # A null last move marks no square.
    plain = caissa.svg.board(caissa.Board())
    assert caissa.svg.board(caissa.Board(), lastmove=caissa.Move.null()) == plain


def test_values_pickle_and_copy_as_python_chess_values_do():
    import pickle
    board = caissa.Board()
    play(board, "e4 e5 Nf3")
    board.push(caissa.Move.null())
    chess960 = caissa.Board.from_chess960(100)
    for _ in range(3):
        chess960.push(list(chess960.legal_moves)[-1])
    values = [caissa.Move.from_uci("e7e8q"), caissa.Move.null(), caissa.Piece.from_symbol("n"),
              caissa.SquareSet([caissa.A1, caissa.H8]), caissa.TimeControl("40/5400+30:1800+30"),
              caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").outcome(),
              caissa.Outcome("time_forfeit", False, "6.9")]
    for value in values:
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert type(again) is type(value) and repr(again) == repr(value)
            if not isinstance(value, caissa.TimeControl):
                assert again == value
    for value in (board, chess960):
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert again.fen() == value.fen() and again.chess960 == value.chess960
            assert again.move_stack == value.move_stack
            assert again.root().fen() == value.root().fen()
    again = pickle.loads(pickle.dumps(board))
    assert again.pop() == caissa.Move.null() and again.pop() == caissa.Move.from_uci("g1f3")
    assert caissa.Outcome("checkmate", True) == caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").outcome()
    with pytest.raises(ValueError):
        caissa.Outcome("resigned", None)
    # A winner by its truth, as python-chess's colours are (`chess.Outcome` takes any value).
    assert caissa.Outcome("checkmate", 1).winner is True
    assert caissa.Outcome("checkmate", 0).result() == chess.Outcome(
        chess.Termination.CHECKMATE, 0).result() == "0-1"


def test_fuzzing_findings_stay_fixed():
    board, peer = caissa.Board(), chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
        peer.push_san(san)
    for stack in (None, -1, -3, -10, 2):
        mine, theirs = board.copy(stack=stack), peer.copy(stack=stack)
        assert len(mine.move_stack) == len(theirs.move_stack), stack
        assert mine.root().fen() == theirs.root().fen(), stack
    for text in ("e7e8Q", "a7a8N"):
        with pytest.raises(chess.InvalidMoveError):
            chess.Move.from_uci(text)
        with pytest.raises(caissa.InvalidMoveError):
            caissa.Move.from_uci(text)


# The flags of a setup that a game cannot reach but caissa plays on.
COUNT_FLAGS = (chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS
               | chess.STATUS_TOO_MANY_WHITE_PIECES | chess.STATUS_TOO_MANY_BLACK_PIECES)


def compare_edited(ours, peer, where):
    """The same setup and status as python-chess's board after the same edits; the same legal
    moves where caissa's board is a game, and `IllegalPositionError` where it is unfinished,
    which it is exactly when python-chess's status has a flag other than the counts. Castling
    rights and en passant squares that a change of pieces leaves without a use are dropped by
    caissa, as python-chess's FEN drops them (its status flags them)."""
    dropped = chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE
    checks = chess.STATUS_IMPOSSIBLE_CHECK
    assert ours.board_fen() == peer.board_fen(), where
    assert (ours.turn, ours.halfmove_clock, ours.fullmove_number) == (
        peer.turn, peer.halfmove_clock, peer.fullmove_number), where
    assert ours.status() & ~dropped & ~checks == peer.status() & ~dropped & ~checks, where
    assert ours.piece_map() == {sq: caissa.Piece.from_symbol(p.symbol())
                                for sq, p in peer.piece_map().items()}, where
    # caissa's impossible checks include python-chess's where the kings let it look.
    if peer.status() & checks and not ours.status() & (
            chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS):
        assert ours.status() & checks, where
    if all(len(peer.pieces(chess.KING, color)) == 1 for color in chess.COLORS):
        # (With several kings python-chess picks one to judge castling by.)
        assert ours.fen() == peer.fen() and ours.epd() == peer.epd(), where
    assert ours.was_into_check() == peer.was_into_check(), where
    try:
        moves = sorted(m.uci() for m in ours.legal_moves)
    except caissa.IllegalPositionError:
        # Unfinished: python-chess's board is not valid either.
        assert peer.status() & ~COUNT_FLAGS and not ours.is_valid(), where
        with pytest.raises(caissa.IllegalPositionError):
            ours.is_game_over()
    else:
        assert not peer.status() & ~dropped & ~COUNT_FLAGS, where
        assert moves == sorted(m.uci() for m in peer.legal_moves), where
    again = pickle.loads(pickle.dumps(ours))
    assert again == ours and again.status() == ours.status(), where


def test_editing_a_board_piece_by_piece_as_python_chess():
    """python-chess's habits of building a position: an empty board, pieces set one at a time,
    the side to move and the counters set, pieces taken off; random edits from random game
    positions, every step compared (see `compare_edited`)."""
    rng = random.Random(2026)
    symbols = "PNBRQKpnbrqk"
    for game in range(60):
        ours, peer = (caissa.Board(), chess.Board()) if game % 4 else (
            caissa.Board.empty(), chess.Board.empty())
        for _ in range(rng.randrange(0, 40)):
            moves = list(peer.legal_moves)
            if not moves or game % 4 == 0:
                break
            m = rng.choice(moves)
            peer.push(m)
            ours.push_uci(m.uci())
        for step in range(16):
            kind = rng.random()
            where = f"game {game} step {step}: {peer.fen()}"
            if kind < 0.45 or game % 4 == 0 and kind < 0.8:
                sq = rng.randrange(64)
                symbol = rng.choice(symbols + "..")
                ours.set_piece_at(sq, None if symbol == "." else caissa.Piece.from_symbol(symbol))
                peer.set_piece_at(sq, None if symbol == "." else chess.Piece.from_symbol(symbol))
            elif kind < 0.6:
                sq = rng.choice(list(peer.piece_map()) or [0])
                taken = ours.remove_piece_at(sq)
                expected = peer.remove_piece_at(sq)
                assert (taken and taken.symbol()) == (expected and expected.symbol()), where
            elif kind < 0.7:
                ours.turn = peer.turn = not peer.turn
            elif kind < 0.75:
                ours.clear_board()
                peer.clear_board()
            elif kind < 0.8:
                ours.halfmove_clock = peer.halfmove_clock = rng.randrange(120)
            elif kind < 0.85:
                ours.fullmove_number = peer.fullmove_number = rng.randrange(1, 90)
            elif kind < 0.9:
                ours.clear()
                peer.clear()
            elif kind < 0.93:
                ours.reset()
                peer.reset()
            elif kind < 0.96:
                rooks = rng.choice([0, chess.BB_A1, chess.BB_H8, chess.BB_CORNERS,
                                    chess.BB_A1 | chess.BB_H1])
                ours.castling_rights = peer.castling_rights = rooks
            elif kind < 0.98:
                square = rng.choice([None] + list(chess.SquareSet(chess.BB_RANK_3 | chess.BB_RANK_6)))
                ours.ep_square = peer.ep_square = square
            else:
                ours.set_board_fen(peer.board_fen())
            compare_edited(ours, peer, f"{where} -> {peer.fen()}")
            assert ours.move_stack == [], where


def test_an_unfinished_board():
    board = caissa.Board(None)
    peer = chess.Board(None)
    assert board.fen() == peer.fen() and board.status() == peer.status()
    assert board == caissa.Board.empty() and board != caissa.Board()
    for name in ("legal_moves", "is_check", "outcome", "zobrist_hash", "polyglot_key", "san"):
        with pytest.raises(caissa.IllegalPositionError) as info:
            attribute = getattr(board, name)
            if callable(attribute):
                attribute() if name != "san" else attribute(caissa.Move.from_uci("e1e2"))
        assert "white has no king" in info.value.problems
    # Read and changed, copied and pickled as it stands.
    assert board.move_stack == [] and board.ply() == 0 and board.king(caissa.WHITE) is None
    assert board.copy() == board == pickle.loads(pickle.dumps(board)) == copy.deepcopy(board)
    assert board.root() == board
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(caissa.IllegalPositionError):
        caissa.pgn.Game.from_board(board)
    # The setters keep a right or square that does not fit, and `status()` says so.
    board = caissa.Board()
    board.castling_rights = chess.BB_A1 | chess.BB_H1 | chess.BB_H8
    assert board.fen().split()[2] == "KQk" and board.is_valid()
    board.remove_piece_at(chess.H8)
    assert board.fen().split()[2] == "KQ" and board.is_valid()  # dropped with its rook
    board.castling_rights = chess.BB_H8
    peer = chess.Board(board.fen())
    peer.castling_rights = chess.BB_H8
    assert board.status() == peer.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    board.castling_rights = chess.BB_H1
    assert board.is_valid() and board.fen().split()[2] == "K"
    with pytest.raises(ValueError, match="back rank"):
        board.castling_rights = chess.BB_E4
    board = caissa.Board()
    board.push_san("e4")
    assert board.ep_square == chess.E3
    board.ep_square = chess.E6
    assert board.status() == chess.STATUS_INVALID_EP_SQUARE
    board.ep_square = None
    assert board.is_valid() and board.ep_square is None
    with pytest.raises(ValueError):
        board.fullmove_number = 0
    # Checks no move gives: three checkers, two sliders on a line through the king, and two
    # knights, which python-chess lets pass.
    for fen, peer_flags in (("4k3/8/8/8/8/3n4/8/r3K2r w - - 0 1", 0),
                            ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", 0),
                            ("4k3/8/8/8/8/3n4/2n5/4K3 w - - 0 1", chess.STATUS_IMPOSSIBLE_CHECK)):
        board = caissa.Board(fen)
        assert board.status() == chess.Board(fen).status() | peer_flags, fen
        assert board.status() & chess.STATUS_IMPOSSIBLE_CHECK and not board.is_valid()
    # The side to move with the other king in check: python-chess's OPPOSITE_CHECK.
    board = caissa.Board("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1")
    board.turn = caissa.WHITE
    assert board.status() == chess.STATUS_OPPOSITE_CHECK
    board.turn = caissa.BLACK
    assert board.is_check() and board.legal_moves.count() == 4
    # A Chess960 castling right that the standard game does not have.
    board = caissa.Board.from_chess960(0)
    board.chess960 = False
    assert board.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    board.chess960 = True
    assert board.is_valid() and board.chess960_pos() == 0
    # python-chess's `Status` names and type aliases.
    assert {s.name: s.value for s in caissa.Status} == {s.name: s.value for s in chess.Status}
    assert caissa.Board.empty().status() == caissa.Status.EMPTY | caissa.Status.NO_WHITE_KING | (
        caissa.Status.NO_BLACK_KING)
    assert (caissa.Square, caissa.Color, caissa.PieceType, caissa.Bitboard) == (int, bool, int, int)
    # Drawn and shown as it stands.
    from caissa import svg

    board = caissa.Board.empty()
    board.set_piece_at(caissa.E4, caissa.Piece.from_symbol("Q"))
    assert "<svg" in svg.board(board) and "<svg" in board._repr_svg_()
    assert str(board).count("Q") == 1 and repr(board) == "Board('8/8/8/8/4Q3/8/8/8 w - - 0 1')"


def test_review_findings_on_unfinished_boards_stay_fixed():
    # Checks are judged whatever else is wrong (here a castling right without its rook).
    fen = "8/r7/8/K7/r7/8/8/k7 w a - 0 1"
    assert caissa.Board(fen).status() == chess.Board(fen).status() == (
        chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_IMPOSSIBLE_CHECK)
    # A change of pieces that leaves the board unfinished drops the rights and the en passant
    # square that no longer fit, as it does where the board stays legal; the FEN reads back.
    board = caissa.Board()
    board.push_san("e4")
    board.clear_board()
    assert board.fen() == "8/8/8/8/8/8/8/8 b - - 0 1"
    assert caissa.Board(board.fen()).status() == board.status()
    # What the setters take, a FEN says, so every board pickles and reads back.
    board = caissa.Board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1")
    board.castling_rights = chess.BB_E8  # the king's own square: a right with no rook
    assert board.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.castling_rights == board.castling_rights == chess.BB_E8
    with pytest.raises(ValueError):
        board.castling_rights = chess.BB_E1 | chess.BB_H1  # two rights on one side of e1's king
    with pytest.raises(ValueError):
        board.ep_square = chess.H1  # not a square a FEN can name
    with pytest.raises(ValueError):
        board.ep_square = -1
    board = caissa.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    board.ep_square = chess.E6
    assert board.status() == chess.STATUS_INVALID_EP_SQUARE
    assert pickle.loads(pickle.dumps(board)).ep_square == chess.E6
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"  # not a square to take on
    assert board.fen(en_passant="fen") == chess.Board(
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1").fen(en_passant="fen")  # but as set, for 'fen'
    # 'legal' writes it only where the capture is legal, as python-chess works it out.
    for fen in ("4k3/8/8/3pP3/8/8/8/4K2r w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"):
        board, peer = caissa.Board(fen), chess.Board(fen)
        assert board.fen() == peer.fen() and board.fen(en_passant="xfen") == peer.fen(
            en_passant="xfen"), fen
    # Boards compare as python-chess's: usable castling rights, a legal en passant square.
    fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    assert caissa.Board(fen, chess960=True) != caissa.Board(fen)
    assert caissa.Board("4k3/8/8/8/8/8/8/4K3 w - e6 0 1") == caissa.Board(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert not caissa.Board("4k3/8/8/8/8/8/8/4K3 w K - 0 1").has_kingside_castling_rights(True)
    assert caissa.Board.empty().status() == 2051
    board = caissa.Board.empty()
    board.castling_rights = chess.BB_A1 | chess.BB_H1
    peer = chess.Board.empty()
    peer.castling_rights = chess.BB_A1 | chess.BB_H1
    assert board.status() == peer.status()
    # Setting the side already to move changes nothing.
    board = caissa.Board()
    for san in ("e4", "d5", "e5", "f5"):
        board.push_san(san)
    board.turn = board.turn
    assert "e5f6" in [m.uci() for m in board.legal_moves] and len(board.move_stack) == 4
    # `turn` keeps castling rights that were set on purpose, and takes any truth value.
    board = caissa.Board("4k3/8/8/8/8/8/8/4K3 w K - 0 1")
    board.turn = 1
    assert board.status() == chess.STATUS_BAD_CASTLING_RIGHTS and board.castling_rights == chess.BB_H1
    board.turn = 0
    assert board.turn is False
    board.chess960 = 1
    assert board.chess960
    # Methods that read the setup work on an unfinished board.
    board = caissa.Board.empty()
    board.set_epd("4k3/8/8/8/8/8/8/4K3 w - -")
    assert board.is_valid()
    board = caissa.Board("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1")
    board.turn = caissa.WHITE
    assert board.was_into_check() and not caissa.Board().was_into_check()
    assert list(board.attackers(caissa.WHITE, caissa.E8)) == [caissa.E2]
    assert board.is_attacked_by(caissa.WHITE, caissa.E8)
    board = caissa.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")
    assert board.epd() == "8/8/8/8/8/8/8/4K3 w - -"
    assert board.mirror().fen() == chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1").mirror().fen()
    assert caissa.Board.empty(chess960=True) == caissa.Board.empty()
    assert caissa.Board("4k3/8/8/8/8/8/8/K3K3 w - - 0 1").king(caissa.WHITE) == chess.E1
    assert caissa.Status.NO_WHITE_KING in caissa.Board.empty().status()
    assert caissa.Board("r3k2r/8/8/8/8/8/8/R3K1KR w KQkq - 0 1").status() == chess.Board(
        "r3k2r/8/8/8/8/8/8/R3K1KR w KQkq - 0 1").status()


def test_repetitions_count_across_null_moves_as_python_chess_counts_them():
    """Knights shuffling with null moves among their moves: the repetition queries, the
    threefold claim and the fivefold ending after every move, against python-chess."""
    rng = random.Random(39)
    endings = {chess.Termination.THREEFOLD_REPETITION: "threefold_repetition",
               chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition"}
    nulls = 0
    endings_seen = set()
    for game in range(30):
        ours, peer = caissa.Board(), chess.Board()
        for ply in range(40):
            where = f"game {game} ply {ply}: {peer.move_stack}"
            assert [ours.is_repetition(n) for n in range(1, 7)] == [
                peer.is_repetition(n) for n in range(1, 7)], where
            # Once the game has ended (fivefold) caissa has no claims (documented).
            assert ours.can_claim_threefold_repetition() == (
                peer.can_claim_threefold_repetition() and peer.outcome() is None), where
            assert ours.is_fivefold_repetition() == peer.is_fivefold_repetition(), where
            for claim_draw in (False, True):
                expected = peer.outcome(claim_draw=claim_draw)
                got = ours.outcome(claim_draw=claim_draw)
                assert (got and got.termination) == (expected and endings[expected.termination]), where
                endings_seen.add(got and got.termination)
            # A side's own last move taken back, most of the time: repetitions come quickly.
            own = [m for m in peer.move_stack[-2::-2] if m]
            back = own and chess.Move(own[0].to_square, own[0].from_square)
            if rng.random() < 0.3 and not peer.is_check():
                move = chess.Move.null()
                nulls += 1
            elif back and back in peer.legal_moves and rng.random() < 0.7:
                move = back
            else:
                knights = [m for m in peer.legal_moves
                           if peer.piece_type_at(m.from_square) == chess.KNIGHT]
                move = rng.choice(knights or list(peer.legal_moves))
            peer.push(move)
            ours.push(caissa.Move.from_uci(move.uci()))
    assert nulls > 200 and endings_seen >= {"threefold_repetition", "fivefold_repetition"}


def test_third_review_findings_on_null_moves_stay_fixed():
    # A fivefold repetition across null moves ends the game: no claims, the PGN's result.
    board = caissa.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 60")
    for _ in range(8):
        board.push(caissa.Move.null())
    assert board.outcome().termination == "fivefold_repetition"
    assert not board.can_claim_fifty_moves() and not board.can_claim_draw()
    board = caissa.Board()
    for _ in range(8):
        board.push(caissa.Move.null())
    assert caissa.pgn.Game.from_board(board).headers["Result"] == "1/2-1/2" == board.result()
    # Both claims at once: the fifty moves first, as python-chess's outcome() looks.
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 92 50"
    ours, peer = caissa.Board(fen), chess.Board(fen)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        ours.push_uci(uci)
        peer.push_uci(uci)
    assert peer.outcome(claim_draw=True).termination == chess.Termination.FIFTY_MOVES
    assert ours.outcome(claim_draw=True).termination == "fifty_moves"
    # A threefold repetition across null moves cites its sub-article, as one within a game does.
    board = caissa.Board()
    for _ in range(4):
        board.push(caissa.Move.null())
    assert board.outcome(claim_draw=True).article == "9.2.1.2"


def test_review_findings_of_the_twentieth_session_stay_fixed():
    # Castling rights and an en passant square that do not fit (a stale `KQkq`) are kept for
    # `status()`, as python-chess keeps them, and the board plays without them.
    for fen in ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1"):
        board, peer = caissa.Board(fen), chess.Board(fen)
        assert board.status() == peer.status() != chess.STATUS_VALID, fen
        assert board.fen() == peer.fen(), fen
        assert sorted(m.uci() for m in board.legal_moves) == sorted(
            m.uci() for m in peer.legal_moves), fen
        assert board.is_checkmate() == peer.is_checkmate() and not board.is_valid()
        first = sorted(board.legal_moves, key=lambda m: m.uci())[0]
        board.push(first)
        peer.push(chess.Move.from_uci(first.uci()))
        assert board.fen() == peer.fen() and board.status() == chess.STATUS_VALID, fen
    # Other problems leave the board unplayable, as before.
    with pytest.raises(caissa.IllegalPositionError):
        caissa.Board("4k3/8/8/8/8/8/8/8 w KQkq - 0 1").legal_moves
    # A FEN read from a file keeps its line's end.
    assert caissa.Board(chess.STARTING_FEN + "\n") == caissa.Board()
    assert caissa.Board(chess.STARTING_FEN + "\r\n").fen() == chess.STARTING_FEN
    # python-chess's keywords.
    board = caissa.Board()
    assert board.fen(promoted=False) == board.shredder_fen(en_passant="fen", promoted=None).replace(
        "HAha", "KQkq")
    board.set_piece_at(chess.E4, caissa.Piece.from_symbol("Q"), promoted=True)
    assert board.piece_at(chess.E4) == caissa.Piece.from_symbol("Q")
    assert caissa.Board().variation_san(variation=[caissa.Move.from_uci("e2e4")]) == "1. e4"
    board = caissa.Board()
    assert board.push_xboard(san="e4") == caissa.Move.from_uci("e2e4")
    # `chess960_pos` with python-chess's relaxations.
    for number in (0, 518, 959):
        board, peer = caissa.Board.from_chess960(number), chess.Board.from_chess960_pos(number)
        board.turn = peer.turn = chess.BLACK
        board.castling_rights = peer.castling_rights = 0
        for kwargs in ({}, {"ignore_turn": True}, {"ignore_castling": True},
                       {"ignore_turn": True, "ignore_castling": True},
                       {"ignore_turn": True, "ignore_castling": True, "ignore_counters": False}):
            assert board.chess960_pos(**kwargs) == peer.chess960_pos(**kwargs), (number, kwargs)
    # A game node's continuations by python-chess's keyword.
    game = caissa.pgn.Game()
    e4 = caissa.Move.from_uci("e2e4")
    game.add_variation(e4)
    assert game.has_variation(move=e4) and game.variation(move=e4).move == e4
