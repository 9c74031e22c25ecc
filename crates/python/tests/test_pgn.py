"""caissa.pgn.read_games: paths and file objects, headers, main lines, comments, clocks and
evaluations, errors with their positions, and the same games as python-chess reads."""

import io
import pathlib
import re

import chess
import chess.pgn
import pytest

import caissa
import caissa.pgn

PGN_DIR = pathlib.Path(__file__).resolve().parents[3] / "data" / "pgn"
SAMPLES = sorted(PGN_DIR.glob("*.pgn"))
LICHESS = PGN_DIR / "lichess-2025-05-sample.pgn"

EXAMPLE = """[Event "Casual"]
[White "Anna"]
[Black "Bert"]
[Result "0-1"]

{ A short game } 1. f3 { [%clk 0:03:00] [%eval -0.5,20] Weak } e5 { [%clk 0:02:59.5] }
( 1... d5 ) 2. g4?? { [%eval #-1] } Qh4# 0-1
"""


def test_headers_moves_comments_clocks_evals():
    (game,) = caissa.pgn.read_games(io.StringIO(EXAMPLE))
    # The seven tag roster is filled in, as python-chess's reader fills it.
    assert game.headers == {"Event": "Casual", "Site": "?", "Date": "????.??.??", "Round": "?",
                            "White": "Anna", "Black": "Bert", "Result": "0-1"}
    assert game.san == ["f3", "e5", "g4", "Qh4#"]
    assert [m.uci() for m in game.moves] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert game.mainline_moves() == game.moves
    assert game.comments == ["Weak", "", "", ""]
    assert game.game_comments == ["A short game"]
    assert game.clocks == [180.0, 179.5, None, None]
    assert (game.evals[0].cp, game.evals[0].mate, game.evals[0].depth) == (-50, None, 20)
    assert (game.evals[2].cp, game.evals[2].mate) == (None, -1)
    assert game.evals[1] is None
    assert game.termination_marker == "0-1"
    assert len(game) == 4
    assert game.board() == caissa.Board()
    end = game.end().board()
    assert end.is_checkmate() and end.outcome().winner is False
    assert len(end.move_stack) == 4
    assert "Qh4#" in game.to_pgn()
    assert repr(game) == "<Game Anna - Bert, 4 moves>"


def test_paths_binary_and_text_files_give_the_same_games(tmp_path):
    path = tmp_path / "example.pgn"
    path.write_text(EXAMPLE + "\n" + EXAMPLE, encoding="utf-8")
    sources = [
        str(path),
        path,
        open(path, "rb"),
        open(path, encoding="utf-8"),
        io.StringIO(EXAMPLE + "\n" + EXAMPLE),
    ]
    for source in sources:
        games = list(caissa.pgn.read_games(source))
        assert [g.san for g in games] == [["f3", "e5", "g4", "Qh4#"]] * 2, source


def test_text_files_with_characters_beyond_ascii():
    text = '[White "Müller – Ø"]\n\n1. e4 { très bien… } *\n' * 300
    games = list(caissa.pgn.read_games(io.StringIO(text)))
    assert len(games) == 300
    assert all(g.headers["White"] == "Müller – Ø" for g in games)
    assert games[-1].comments == ["très bien…"]


def test_a_missing_file_is_an_os_error():
    with pytest.raises(OSError):
        caissa.pgn.read_games("/no/such/file.pgn")


def test_errors_say_where_and_reading_goes_on():
    text = "1. e4 e5 *\n\n1. e4 ) e5 *\n\n1. e4 Ke7 Kxe8 *\n\n1. d4 *\n"
    games = caissa.pgn.read_games(io.StringIO(text))
    assert next(games).san == ["e4", "e5"]
    with pytest.raises(caissa.pgn.PgnParseError) as info:
        next(games)
    assert isinstance(info.value, ValueError)
    assert (info.value.line, info.value.column, info.value.ply) == (3, 7, None)
    with pytest.raises(caissa.PgnParseError) as info:
        next(games)
    assert (info.value.line, info.value.ply) == (None, 1)
    assert next(games).san == ["d4"]
    with pytest.raises(StopIteration):
        next(games)
    skipped = list(caissa.pgn.read_games(io.StringIO(text), skip_errors=True))
    assert [g.san for g in skipped] == [["e4", "e5"], ["d4"]]


def test_chess960_and_fen_starts():
    text = '[Variant "Chess960"]\n[FEN "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1"]\n\n1. O-O *\n'
    (game,) = caissa.pgn.read_games(io.StringIO(text))
    assert game.board().chess960
    assert game.moves[0].uci() == "b1e1"
    assert game.end().board().fen() == "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"


def peer_games(path):
    with open(path, encoding="utf-8-sig") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            yield game


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_the_same_games_as_python_chess(path):
    """The same headers, moves, SAN, final position, clocks and evaluations."""
    ours = list(caissa.pgn.read_games(path, skip_errors=True))
    peers = [g for g in peer_games(path) if not g.errors]
    assert len(ours) == len(peers)
    for game, peer in zip(ours, peers):
        for name, value in game.headers.items():
            assert peer.headers[name] == value
        nodes = list(peer.mainline())
        if not nodes and len(game) > 0:
            # Documented difference: after a tag section and two blank lines python-chess
            # reads a game without moves, then the movetext alone (from the standard start,
            # so an error); caissa reads one game.
            assert path.name == "cm-pgn-test-list.pgn"
            continue
        assert [m.uci() for m in game.moves] == [n.move.uci() for n in nodes]
        board = peer.board()
        sans = []
        for node in nodes:
            sans.append(board.san(node.move))
            board.push(node.move)
        replay = game.board()
        assert [replay.san_and_push(m) for m in game.moves] == sans
        assert game.end().board().fen() == board.fen()
        assert game.clocks == [n.clock() for n in nodes]
        evals = [n.eval() for n in nodes]
        for ours_eval, peer_eval in zip(game.evals, evals):
            if peer_eval is None:
                assert ours_eval is None
            elif peer_eval.is_mate():
                assert ours_eval.mate == peer_eval.white().mate()
            else:
                assert ours_eval.cp == peer_eval.white().score()


def test_select_filters_and_writes_like_caissa_pgn_select(tmp_path):
    high = list(caissa.pgn.select(LICHESS, "WhiteElo >= 2000 and BlackElo >= 2000"))
    expected = [
        g for g in caissa.pgn.read_games(LICHESS, skip_errors=True)
        if int(g.headers.get("WhiteElo", 0)) >= 2000 and int(g.headers.get("BlackElo", 0)) >= 2000
    ]
    assert 0 < len(high) == len(expected) < 438
    assert all(text.startswith("[Event ") for text in high)
    uci = caissa.pgn.select(LICHESS, "WhiteElo >= 2000 and BlackElo >= 2000", format="uci", threads=1)
    assert [line.split() for line in uci] == [[m.uci() for m in g.moves] for g in expected]
    stripped = caissa.pgn.select(io.BytesIO(EXAMPLE.encode()), strip=["comments", "variations"],
                                 ply_count=True)
    assert "{" not in stripped[0] and "(" not in stripped[0]
    assert '[PlyCount "4"]' in stripped[0]
    import gzip
    packed = tmp_path / "example.pgn.gz"
    packed.write_bytes(gzip.compress(EXAMPLE.encode()))
    assert caissa.pgn.select(packed, format="uci") == ["f2f3 e7e5 g2g4 d8h4\n"]


def test_select_errors_say_where():
    with pytest.raises(caissa.pgn.FilterError) as info:
        caissa.pgn.select(io.BytesIO(b"1. e4 *"), "WhiteElo >=")
    assert isinstance(info.value, ValueError) and info.value.byte == 11
    text = b"1. e4 e5 *\n\n1. e4 Ke7 *\n"
    assert caissa.pgn.select(io.BytesIO(text), format="uci") == ["e2e4 e7e5\n"]
    with pytest.raises(caissa.pgn.PgnParseError) as info:
        caissa.pgn.select(io.BytesIO(text), skip_errors=False)
    assert (info.value.line, info.value.ply) == (3, 1)
    assert info.value.byte == text.index(b"Ke7")
    for bad in [{"format": "json"}, {"strip": ["clocks"]}, {"ending": "resignation"},
                {"contains": ["castles"]}, {"position": "8/8/8 w - - 0 1"}]:
        with pytest.raises(ValueError):
            caissa.pgn.select(io.BytesIO(text), **bad)
    with pytest.raises(caissa.InvalidMoveError):
        caissa.pgn.select(io.BytesIO(text), moves=["e4", "Zz9"])


def _peer_facts(path):
    """What python-chess sees on every well-formed game's main line, in one replay each."""
    for game in caissa.pgn.read_games(path, skip_errors=True):
        board = chess.Board(game.headers.get("FEN", chess.STARTING_FEN))
        facts = {"uci": [m.uci() for m in game.moves], "features": set(), "san": [],
                 "epds": {board.epd()}}
        for m in game.moves:
            peer = chess.Move.from_uci(m.uci())
            if board.is_queenside_castling(peer):
                facts["features"].add("queenside-castling")
            if board.is_castling(peer):
                facts["features"].add("castling")
            if board.is_en_passant(peer):
                facts["features"].add("en-passant")
            if len(facts["san"]) < 2:
                facts["san"].append(board.san(peer))
            board.push(peer)
            facts["epds"].add(board.epd())
        facts["mate"] = board.is_checkmate()
        yield facts


def test_select_game_filters_agree_with_python_chess():
    games = list(_peer_facts(LICHESS))

    def chosen(**kwargs):
        return [line.split() for line in caissa.pgn.select(LICHESS, format="uci", **kwargs)]

    def expected(keep):
        return [g["uci"] for g in games if keep(g)]

    mates = chosen(ending="checkmate")
    assert 0 < len(mates) and mates == expected(lambda g: g["mate"])
    castled = expected(lambda g: "queenside-castling" in g["features"])
    assert 0 < len(castled) and chosen(contains=["queenside-castling"]) == castled
    both = expected(lambda g: {"castling", "en-passant"} <= g["features"])
    assert 0 < len(both) and chosen(contains=["castling", "en-passant"]) == both
    assert chosen(min_plies=80, max_plies=90) == expected(lambda g: 80 <= len(g["uci"]) <= 90)
    sicilian = expected(lambda g: g["san"] == ["e4", "c5"])
    assert 0 < len(sicilian) and chosen(moves=["e4", "c5"]) == sicilian
    after = chess.Board()
    for san in ["d4", "d5", "c4"]:
        after.push_san(san)
    gambit = expected(lambda g: after.epd() in g["epds"])
    assert 0 < len(gambit)
    assert chosen(position=after.fen()) == gambit
    assert chosen(position=caissa.Board(after.fen())) == gambit
    high = chosen(filter=["WhiteElo >= 2000", "BlackElo >= 2000"], ending="checkmate")
    assert high == chosen(filter="WhiteElo >= 2000 and BlackElo >= 2000", ending="checkmate")
    assert chosen(limit=3) == [g["uci"] for g in games[:3]]
    assert chosen(limit=0) == []
    # Inverted, the games the same conditions leave out (the sample's games are all sound).
    assert chosen(ending="checkmate", invert=True) == expected(lambda g: not g["mate"])
    not_sicilian = expected(lambda g: g["san"] != ["e4", "c5"])
    assert chosen(moves="e4 c5", invert=True) == not_sicilian
    elo = [g for g in caissa.pgn.read_games(LICHESS) if int(g.headers.get("WhiteElo", 0)) >= 2000]
    low_or_short = [
        [m.uci() for m in g.moves]
        for g in caissa.pgn.read_games(LICHESS)
        if int(g.headers.get("WhiteElo", 0)) < 2000 or len(g.moves) < 60
    ]
    assert 0 < len(elo) and 0 < len(low_or_short) < len(games)
    assert chosen(filter="WhiteElo >= 2000", min_plies=60, invert=True) == low_or_short
    import pyarrow
    table = pyarrow.table(caissa.pgn.to_arrow(LICHESS, "WhiteElo >= 2000", invert=True))
    assert table.num_rows == len(games) - len(elo)


def test_select_writes_lan_fen_epd_openings_and_fen_comments():
    text = b'[Event "x"]\n\n1. e4 c5 2. Nf3 d6 *\n'
    (lan,) = caissa.pgn.select(io.BytesIO(text), format="lan")
    assert lan.split() == ["e2-e4", "c7-c5", "Ng1-f3", "d7-d6"]
    peer = chess.Board()
    fens = [peer.fen()]
    for san in ["e4", "c5", "Nf3", "d6"]:
        peer.push_san(san)
        fens.append(peer.fen())
    (fen,) = caissa.pgn.select(io.BytesIO(text), format="fen")
    assert fen.splitlines() == fens
    (epd,) = caissa.pgn.select(io.BytesIO(text), format="epd")
    assert epd.splitlines() == [" ".join(f.split()[:4]) for f in fens]
    (named,) = caissa.pgn.select(io.BytesIO(text), openings=True)
    assert '[ECO "B50"]' in named and "Sicilian" in named
    # SAN lines: canonical, whatever the movetext wrote, as python-chess writes each move.
    written = b'[Event "x"]\n\n1. e2e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7 { mate } 1-0\n'
    (san,) = caissa.pgn.select(io.BytesIO(written), format="san")
    peer_game = chess.pgn.read_game(io.StringIO(written.decode()))
    board = peer_game.board()
    expected = []
    for move in peer_game.mainline_moves():
        expected.append(board.san(move))
        board.push(move)
    assert san == " ".join(expected) + "\n" == "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#\n"
    (commented,) = caissa.pgn.select(io.BytesIO(text), fen_comments=True)
    assert re.findall(r"\{ ([^}]*) \}", commented) == fens[1:]
    import pyarrow
    path = pathlib.Path(pytest.importorskip("tempfile").mkdtemp()) / "sicilian.pgn"
    path.write_bytes(text)
    row = pyarrow.table(caissa.pgn.to_arrow(path, openings=True)).to_pylist()[0]
    assert row["ECO"] == "B50" and "Sicilian" in row["Opening"]


def test_select_fixes_results_that_the_board_contradicts():
    # Fool's mate written as a draw, a stalemate written as a win, and a game whose tag
    # contradicts its result token; the last game's result is left alone.
    text = (
        b'[Result "1/2-1/2"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n'
        b'[FEN "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"]\n[Result "1-0"]\n\n1. Kh6 1-0\n\n'
        b'[Result "1-0"]\n\n1. e4 e5 0-1\n\n'
        b'[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    fixed = caissa.pgn.select(io.BytesIO(text), fix_result=True)
    results = [re.search(r'\[Result "([^"]*)"\]', g).group(1) for g in fixed]
    assert results == ["0-1", "1/2-1/2", "0-1", "1-0"]
    assert [g.split()[-1] for g in fixed] == results
    # python-chess agrees with the board.
    for game_text, result in zip(fixed[:2], results):
        game = chess.pgn.read_game(io.StringIO(game_text))
        assert game.end().board().outcome().result() == result
    unfixed = caissa.pgn.select(io.BytesIO(text))
    assert [re.search(r'\[Result "([^"]*)"\]', g).group(1) for g in unfixed][:2] == [
        "1/2-1/2",
        "1-0",
    ]


def test_select_reads_leniently_with_warnings():
    text = b"1. e4 d5 2. e5 f5 3. exf6 e.p. $300 Nf6 1/2\n"
    assert caissa.pgn.select(io.BytesIO(text), format="uci") == []
    with pytest.warns(UserWarning) as caught:
        games = caissa.pgn.select(io.BytesIO(text), format="uci", lenient=True)
    assert games == ["e2e4 d7d5 e4e5 f7f5 e5f6 g8f6\n"]
    assert [str(w.message) for w in caught] == [
        "1:27: 'e.p.' after a move, stepped over",
        "1:32: glyph $300 is above $255, left out",
        "1:41: result '1/2' read as '1/2-1/2'",
    ]


def test_read_games_reads_leniently_as_python_chess_does():
    # Spellings python-chess reads past: `e.p.` after a move, a glyph above $255, `1/2`, and
    # text after the result (here a second game follows on the next line but one).
    text = (b'[Event "a"]\n\n1. e4 d5 2. e5 f5 3. exf6 e.p. $300 Nf6 1/2 agreed\n\n'
            b'[Event "b"]\n\n1. d4 d5 2. c4 1-0 white resigns? no\n\n[Event "c"]\n\n1. c4 *\n')
    with pytest.raises(caissa.PgnParseError):
        list(caissa.pgn.read_games(io.BytesIO(text)))
    with pytest.warns(UserWarning) as caught:
        ours = list(caissa.pgn.read_games(io.BytesIO(text), lenient=True))
    assert [str(w.message) for w in caught] == [
        "3:27: 'e.p.' after a move, stepped over",
        "3:32: glyph $300 is above $255, left out",
        "3:41: result '1/2' read as '1/2-1/2'",
        "3:45: text after the result, passed over",
        "7:20: text after the result, passed over",
    ]
    f = io.StringIO(text.decode())
    theirs = []
    while (game := chess.pgn.read_game(f)) is not None:
        theirs.append(game)
    assert [g.headers["Event"] for g in ours] == [g.headers["Event"] for g in theirs]
    assert [[m.uci() for m in g.mainline_moves()] for g in ours] == \
        [[m.uci() for m in g.mainline_moves()] for g in theirs]
    assert [g.headers["Result"] for g in ours] == ["1/2-1/2", "1-0", "*"]
    # python-chess writes a tag's quotes unescaped; read leniently, the value is its own.
    written = chess.pgn.Game()
    written.headers["Event"] = 'The "Open" 2024'
    written.add_main_variation(chess.Move.from_uci("e2e4"))
    with pytest.raises(caissa.PgnParseError):
        caissa.pgn.read_game(io.StringIO(str(written)))
    with pytest.warns(UserWarning, match="unescaped in a tag value"):
        back = caissa.pgn.read_game(io.StringIO(str(written)), lenient=True)
    assert back.headers["Event"] == 'The "Open" 2024' and len(back.moves) == 1
    f = io.StringIO(text.decode())
    with pytest.warns(UserWarning):
        assert caissa.pgn.read_game(f, lenient=True).headers["Event"] == "a"
    with pytest.warns(UserWarning):
        assert caissa.pgn.read_game(f, lenient=True).headers["Event"] == "b"
    assert caissa.pgn.read_game(f, lenient=True).headers["Event"] == "c"
    assert caissa.pgn.read_game(f, lenient=True) is None


def test_read_game_loops_as_python_chess_does():
    path = LICHESS
    ours, theirs = [], []
    with open(path, encoding="utf-8") as f:
        while (game := caissa.pgn.read_game(f)) is not None:
            ours.append((game.headers.get("Site"), [m.uci() for m in game.moves]))
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            theirs.append((game.headers.get("Site"), [m.uci() for m in game.mainline_moves()]))
    assert len(ours) == len(theirs) > 400
    assert ours == theirs
    # Two files read in turns, and a seek back to the start.
    with open(path, "rb") as a, open(path, "rb") as b:
        first = caissa.pgn.read_game(a).headers["Site"]
        assert caissa.pgn.read_game(b).headers["Site"] == first
        second = caissa.pgn.read_game(a).headers["Site"]
        assert second != first and caissa.pgn.read_game(b).headers["Site"] == second
        a.seek(0)
        assert caissa.pgn.read_game(a).headers["Site"] == first
    # A broken game raises with its place, and the next call goes on after it.
    broken = io.StringIO("1. e4 e5 *\n\n1. e4 e4 *\n\n1. d4 *\n")
    assert len(caissa.pgn.read_game(broken)) == 2
    with pytest.raises(caissa.PgnParseError) as error:
        caissa.pgn.read_game(broken)
    assert error.value.ply == 1  # the second move, Black's e4
    assert [m.uci() for m in caissa.pgn.read_game(broken).moves] == ["d2d4"]
    assert caissa.pgn.read_game(broken) is None


def test_mainline_nodes_and_from_board_as_python_chess():
    with open(LICHESS, encoding="utf-8") as ours_file, open(LICHESS, encoding="utf-8") as f:
        for _ in range(40):
            ours = caissa.pgn.read_game(ours_file)
            peer = chess.pgn.read_game(f)
            nodes = ours.mainline()
            theirs = list(peer.mainline())
            assert len(nodes) == len(theirs) == len(ours)
            for node, other in zip(nodes, theirs):
                assert node.move.uci() == other.move.uci()
                assert node.san() == other.san() and node.uci() == other.uci()
                assert node.clock() == other.clock()
                assert node.ply() == other.ply() and node.turn() == other.turn()
                assert node.is_end() == other.is_end()
                score, ours_score = other.eval(), node.eval()
                if score is None:
                    assert ours_score is None
                else:
                    assert ours_score.turn == score.turn
                    assert ours_score.relative.score() == score.relative.score()
                    assert ours_score.white().mate() == score.white().mate()
                    assert ours_score.is_mate() == score.is_mate()
                    assert node.eval_depth() == other.eval_depth()
                # caissa's comment leaves out the [%...] commands python-chess keeps.
                assert node.comment == re.sub(r"\s*\[%[^\]]*\]\s*", " ", other.comment).strip()
            if nodes:
                assert nodes[-1].board().fen() == theirs[-1].board().fen()
                assert ours.next().next() is None or ours.next().next().ply() == 2
            # A board's game, written and read back by python-chess.
            end = ours.end().board()
            written = str(caissa.pgn.Game.from_board(end))
            back = chess.pgn.read_game(io.StringIO(written))
            assert not back.errors
            assert [m.uci() for m in back.mainline_moves()] == [m.uci() for m in ours.moves]
            assert back.headers["Result"] == end.result()
            assert ours.errors == []


def test_headers_without_movetext_as_python_chess():
    with open(LICHESS, encoding="utf-8") as f:
        theirs = []
        while (headers := chess.pgn.read_headers(f)) is not None:
            theirs.append(dict(headers))
    ours = list(caissa.pgn.read_headers_all(LICHESS))
    assert ours == theirs and len(ours) > 400
    with open(LICHESS, "rb") as f:
        one_by_one = []
        while (headers := caissa.pgn.read_headers(f)) is not None:
            one_by_one.append(headers)
    assert one_by_one == ours
    # A game whose movetext does not read still gives its tags: the movetext is not read.
    assert [h["White"] for h in caissa.pgn.read_headers_all(
        io.BytesIO(b'[White "A"]\n\n1. e4 e4 *\n\n[White "B"]\n\n1. d4 *\n'))] == ["A", "B"]


def test_from_board_with_headers_is_read_back_by_python_chess():
    board = caissa.Board()
    for san in ["e4", "e5", "Nf3"]:
        board.push_san(san)
    game = caissa.pgn.Game.from_board(board, headers={
        "Event": "Club A", "White": "Ann", "WhiteElo": "2100", "Annotator": "Bo"})
    back = chess.pgn.read_game(io.StringIO(str(game)))
    assert not back.errors
    assert back.headers["Event"] == "Club A" and back.headers["White"] == "Ann"
    assert back.headers["Annotator"] == "Bo" and back.headers["WhiteElo"] == "2100"
    # Quotes and backslashes are escaped as PGN says (python-chess writes them bare and reads
    # `\"` as two characters), and caissa reads them back.
    quoted = caissa.pgn.Game.from_board(board, headers={"Event": 'Club "A" \\ B'})
    assert '[Event "Club \\"A\\" \\\\ B"]' in str(quoted)
    again = next(caissa.pgn.read_games(io.StringIO(str(quoted))))
    assert again.headers["Event"] == 'Club "A" \\ B'
    assert list(back.headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert [m.uci() for m in back.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    for bad in ({"Bad Name": "x"}, {"": "x"}, {"Event": "two\nlines"}):
        with pytest.raises(ValueError):
            caissa.pgn.Game.from_board(board, headers=bad)
    # A game from another start: its start tags in python-chess's order, FEN, SetUp, Variant.
    for fen, chess960 in (("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False),
                          (chess.Board.from_chess960_pos(100).fen(), True)):
        ours = caissa.Board(fen, chess960=chess960)
        peer = chess.Board(fen, chess960=chess960)
        move = next(iter(peer.legal_moves))
        ours.push(caissa.Move.from_uci(move.uci()))
        peer.push(move)
        assert str(caissa.pgn.Game.from_board(ours)) == str(chess.pgn.Game.from_board(peer))


class _Pipe:
    """A file object that cannot tell where it is (as a pipe or `sys.stdin` cannot), handing
    out at most `block` characters a read."""

    def __init__(self, text, block=7):
        self._text, self._at, self._block = text, 0, block

    def read(self, size=-1):
        size = self._block if size < 0 else min(size, self._block)
        chunk = self._text[self._at:self._at + size]
        self._at += len(chunk)
        return chunk

    def tell(self):
        raise OSError("not seekable")


def test_read_game_on_a_file_that_cannot_tell_loses_no_game():
    pipe = _Pipe("1. e4 *\n\n1. d4 *\n\n1. c4 *\n")
    firsts = []
    while (game := caissa.pgn.read_game(pipe)) is not None:
        firsts.append(game.moves[0].uci())
    assert firsts == ["e2e4", "d2d4", "c2c4"]


def test_read_game_keeps_no_file_alive():
    import gc
    import weakref

    f = io.StringIO("1. e4 *\n\n1. d4 *\n")
    assert caissa.pgn.read_game(f) is not None
    caissa.pgn.read_headers(f)
    gone = weakref.ref(f)
    del f
    gc.collect()
    assert gone() is None


class _Failing:
    """A file object whose reads fail once `text` has been read."""

    def __init__(self, text):
        self._text = text

    def read(self, size=-1):
        if not self._text:
            raise OSError("the disk went away")
        chunk, self._text = self._text, ""
        return chunk


@pytest.mark.parametrize("skip_errors", [False, True])
def test_a_failing_input_raises_oserror_even_when_skipping_errors(skip_errors):
    # (The reader reads ahead: the failure may come before the first game is given.)
    games = caissa.pgn.read_games(_Failing("1. e4 *\n\n1. d4 "), skip_errors=skip_errors)
    with pytest.raises(OSError, match="the disk went away"):
        list(games)


@pytest.mark.parametrize("threads", [0, 257, 10**9])
def test_select_takes_1_to_256_threads(threads):
    with pytest.raises(ValueError, match="threads must be 1 to 256"):
        caissa.pgn.select(LICHESS, threads=threads)
    with pytest.raises(ValueError, match="threads must be 1 to 256"):
        caissa.pgn.to_arrow(LICHESS, threads=threads)


def test_select_takes_one_string_where_it_takes_a_list():
    listed = caissa.pgn.select(LICHESS, moves=["e4", "e5"], contains=["castling"],
                               strip=["comments"], format="uci")
    assert listed
    assert caissa.pgn.select(LICHESS, moves="e4 e5", contains="castling", strip="comments",
                             format="uci") == listed
    import pyarrow

    table = pyarrow.table(caissa.pgn.to_arrow(LICHESS, columns="uci", moves="e4 e5"))
    assert "uci" in table.column_names
    assert all(uci[:2] == ["e2e4", "e7e5"] for uci in table["uci"].to_pylist())


def test_select_reaches_chess960_positions_and_warns_of_text_not_utf8(tmp_path):
    game = ('[Variant "Chess960"]\n[FEN "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"]\n\n'
            "1. b3 b6 2. Ng3 *\n")
    path = tmp_path / "960.pgn"
    path.write_text(game)
    reached = "nrbkqbrn/p1pppppp/1p6/8/8/1P6/P1PPPPPP/NRBKQBRN w GBgb - 0 2"
    assert len(caissa.pgn.select(path, position=reached)) == 1
    assert caissa.pgn.select(path, position=reached.replace("GBgb", "-")) == []
    latin1 = tmp_path / "latin1.pgn"
    latin1.write_bytes(b'[White "M\xfcller"]\n\n1. e4 {caf\xe9} e5 *\n')
    with pytest.warns(UserWarning) as caught:
        (text,) = caissa.pgn.select(latin1)
    assert [str(w.message) for w in caught] == [
        "1:1: tag value is not UTF-8: written with U+FFFD for the bad bytes",
        "3:7: comment is not UTF-8: written with U+FFFD for the bad bytes"]
    assert "M\ufffdller" in text
