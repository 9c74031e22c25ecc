"""caissa.engine with Stockfish (Debian's package, which `cargo xtask ci` installs): moves,
analyses, options, the time a search takes, and the errors of engines that misbehave."""

import os
import shutil
import sys
import time

import pytest

import caissa
import caissa.engine
from caissa.engine import Cp, Limit, Mate, PovScore, SimpleEngine

os.environ["PATH"] = os.environ.get("PATH", "") + os.pathsep + "/usr/games"
STOCKFISH = shutil.which("stockfish")
if STOCKFISH is None and os.environ.get("CI"):
    raise RuntimeError("stockfish is not installed: `cargo xtask ci` installs it")
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
GNUCHESS = shutil.which("gnuchess")
if GNUCHESS is None and os.environ.get("CI"):
    raise RuntimeError("gnuchess is not installed: `cargo xtask ci` installs it")
needs_gnuchess = pytest.mark.skipif(GNUCHESS is None, reason="gnuchess is not installed")


def stockfish():
    """Stockfish on one thread with a small hash, as each test here uses it."""
    engine = SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    return engine


@needs_stockfish
def test_play_and_analyse_with_stockfish():
    with SimpleEngine.popen_uci(STOCKFISH) as engine:
        assert "Stockfish" in engine.id["name"]
        assert "Threads" in engine.options
        engine.configure({"Threads": 1, "Hash": 16})
        board = caissa.Board()
        for _ in range(6):
            result = engine.play(board, Limit(depth=6))
            assert board.is_legal(result.move)
            assert result.info["depth"] >= 1
            board.push(result.move)
        # A mate in one, found and scored as a mate, from either side's view.
        mate = caissa.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(mate, Limit(depth=8))
        assert info["pv"][0].uci() == "a1a8"
        assert info["score"].relative == Mate(1) and info["score"].black() == Mate(-1)
        assert engine.play(mate, Limit(depth=8)).move.uci() == "a1a8"
        # The side to move is lost: its score is negative from its own view.
        lost = caissa.Board("6k1/8/8/8/8/8/4q3/K7 w - - 0 1")
        score = engine.analyse(lost, Limit(depth=10))["score"]
        assert score.relative.score(mate_score=100000) < 0 and score.white() == score.relative
        # The best lines of a MultiPV search, each with its moves and score, the best first;
        # the option goes back to one line after it.
        lines = engine.analyse(caissa.Board(), Limit(depth=8), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({line["pv"][0] for line in lines}) == 3
        scores = [line["score"].relative.score() for line in lines]
        assert scores == sorted(scores, reverse=True)
        assert engine.analyse(caissa.Board(), Limit(depth=4)).get("multipv", 1) == 1
        # python-chess's keywords are taken.
        info = engine.analyse(caissa.Board(), Limit(depth=4), game=object(),
                              info=caissa.engine.INFO_SCORE | caissa.engine.INFO_PV)
        assert "score" in info and info["pv"]
        played = engine.play(caissa.Board(), Limit(depth=4), game="g", info=caissa.engine.INFO_ALL,
                             ponder=False, draw_offered=False)
        assert caissa.Board().is_legal(played.move)
        # A game that has ended has nothing to search: no move, and the score engines give
        # (python-chess's answers, from Stockfish).
        stalemate = caissa.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        mated = caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        assert engine.play(stalemate, Limit(depth=1)).move is None
        assert engine.play(mated, Limit(depth=1)).info["score"] == PovScore(Mate(0), caissa.BLACK)
        # A search of an ended game stops an analysis still running, as any search does.
        running = engine.analysis(caissa.Board())
        engine.analyse(mated, Limit(depth=1))
        assert running.wait().move is not None
        assert engine.analyse(stalemate, Limit(depth=1))["score"] == PovScore(Cp(0), caissa.BLACK)
        assert engine.analyse(mated, Limit(depth=1))["score"] == PovScore(Mate(0), caissa.BLACK)
        assert engine.analyse(mated, Limit(depth=1), multipv=2)[0]["depth"] == 0
        # A search by time takes about that time.
        start = time.monotonic()
        engine.play(caissa.Board(), Limit(time=0.2))
        assert 0.15 < time.monotonic() - start < 5


@needs_stockfish
def test_a_quit_engine_refuses_and_a_missing_one_raises():
    engine = SimpleEngine.popen_uci([STOCKFISH])
    engine.quit()
    with pytest.raises(caissa.EngineError, match="quit"):
        engine.play(caissa.Board(), Limit(depth=1))
    engine.quit()  # twice is harmless


def test_engines_that_cannot_start_or_do_not_speak_uci_raise():
    with pytest.raises(caissa.EngineError, match="cannot start"):
        SimpleEngine.popen_uci("/nonexistent/engine")
    # A program that prints no `uciok`: the handshake times out.
    silent = [sys.executable, "-c", "import time; time.sleep(5)"]
    with pytest.raises(caissa.EngineError, match="uciok"):
        SimpleEngine.popen_uci(silent, timeout=0.5)


def test_scores_as_python_chess_has_them():
    assert -Cp(20) == Cp(-20) and -Mate(3) == Mate(-3)
    assert Mate(-2).score(mate_score=1000) == -998 and Mate(3).score() is None
    assert Cp(5).mate() is None and Mate(4).is_mate()
    assert PovScore(Cp(30), caissa.BLACK).white() == Cp(-30)


def test_scores_order_print_and_give_wdl_as_python_chess_does():
    """Every centipawn score from -30 to +30 pawns (in steps of 7), every mate up to 30 moves
    either way and the mate given: `str`, `repr`, `-`, `abs`, `score`, every WDL model at nine
    plies, and the order of 2,000 random pairs, against python-chess."""
    import random

    import chess
    import chess.engine

    from caissa.engine import MateGiven

    pairs = [(chess.engine.Cp(n), Cp(n)) for n in range(-3000, 3001, 7)]
    pairs += [(chess.engine.Mate(n), Mate(n)) for n in range(-30, 31)]
    pairs.append((chess.engine.MateGiven, MateGiven))
    models = ["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"]
    for peer, ours in pairs:
        assert (str(ours), repr(ours), repr(-ours), repr(abs(ours)), repr(+ours)) == (
            str(peer), repr(peer), repr(-peer), repr(abs(peer)), repr(+peer))
        assert (ours.score(mate_score=1000), ours.mate(), ours.is_mate()) == (
            peer.score(mate_score=1000), peer.mate(), peer.is_mate())
        for model in models:
            for ply in (-5, 0, 1, 10, 30, 60, 100, 200, 300):
                assert tuple(ours.wdl(model=model, ply=ply)) == tuple(
                    peer.wdl(model=model, ply=ply)), (peer, model, ply)
    rng = random.Random(5)
    for _ in range(2000):
        (peer_a, ours_a), (peer_b, ours_b) = rng.choice(pairs), rng.choice(pairs)
        assert (ours_a < ours_b, ours_a <= ours_b, ours_a == ours_b, ours_a > ours_b) == (
            peer_a < peer_b, peer_a <= peer_b, peer_a == peer_b, peer_a > peer_b)
    assert max(ours for _, ours in pairs) == MateGiven and -MateGiven == Mate(0)
    pov = PovScore(Cp(20), caissa.BLACK).wdl()
    peer = chess.engine.PovScore(chess.engine.Cp(20), chess.BLACK).wdl()
    assert (tuple(pov.white()), tuple(pov.relative)) == (tuple(peer.white()), tuple(peer.relative))
    with pytest.raises(ValueError, match="WDL model"):
        Cp(5).wdl(model="sf99")
    assert Limit(depth=3, clock_id=7).clock_id == 7
    assert repr(Limit(depth=3, time=0.5)) == repr(chess.engine.Limit(depth=3, time=0.5))
    # Wdl and PovWdl as python-chess's: iterated, not a tuple; a PovWdl also indexed.
    from caissa.engine import PovWdl, Wdl

    ours, peer = Wdl(1, 2, 3), chess.engine.Wdl(1, 2, 3)
    assert (tuple(ours), tuple(+ours), tuple(-ours), ours == (1, 2, 3)) == (
        tuple(peer), tuple(+peer), tuple(-peer), peer == (1, 2, 3))
    pov, peer_pov = PovWdl(ours, caissa.BLACK), chess.engine.PovWdl(peer, chess.BLACK)
    assert (tuple(pov), len(pov), pov[2], tuple(pov.white())) == (
        tuple(peer_pov), len(peer_pov), peer_pov[2], tuple(peer_pov.white()))


def test_info_flags_are_python_chess_flags():
    import chess.engine
    for name in ("NONE", "BASIC", "SCORE", "PV", "REFUTATION", "CURRLINE", "ALL"):
        assert int(getattr(caissa.engine, "INFO_" + name)) == int(getattr(chess.engine, "INFO_" + name))
        assert int(getattr(caissa.engine.Info, name)) == int(getattr(chess.engine.Info, name))


def peer_engine():
    import chess.engine
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    return engine


@needs_stockfish
def test_an_analysis_gives_each_info_as_python_chess_analysis_does():
    """The same engine, the same position, a fixed depth on one thread: the same scored
    lines in the same order and the same best move as python-chess's ``analysis``."""
    import chess
    import chess.engine
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    with stockfish() as engine, peer_engine() as peer:
        with engine.analysis(caissa.Board(fen), Limit(depth=10)) as ours:
            got = [(i["depth"], i["score"].white().score(), [m.uci() for m in i["pv"]])
                   for i in ours if "score" in i]
        with peer.analysis(chess.Board(fen), chess.engine.Limit(depth=10)) as theirs:
            expected = [(i["depth"], i["score"].white().score(), [m.uci() for m in i["pv"]])
                        for i in theirs if "score" in i]
        assert got == expected and [d for d, _, _ in got][-1] == 10
        assert ours.wait().move.uci() == theirs.wait().move.uci()
        assert ours.info["depth"] == theirs.info["depth"] == 10
        assert ours.info["score"].white() == Cp(theirs.info["score"].white().score())
        # Each line of a MultiPV analysis merged in `multipv`, the option back to one after.
        lines = engine.analysis(caissa.Board(fen), Limit(depth=8), multipv=3)
        best = lines.wait()
        assert [line["multipv"] for line in lines.multipv] == [1, 2, 3]
        assert best.move == lines.multipv[0]["pv"][0]
        assert engine.analyse(caissa.Board(), Limit(depth=4)).get("multipv", 1) == 1


@needs_stockfish
def test_an_infinite_analysis_runs_until_stopped():
    with stockfish() as engine:
        analysis = engine.analysis(caissa.Board())
        depths = []
        for info in analysis:
            if "score" in info:
                depths.append(info["depth"])
            if len(depths) == 8:
                analysis.stop()
        assert depths == sorted(depths) and len(depths) >= 8
        best = analysis.wait()
        assert caissa.Board().is_legal(best.move)
        assert analysis.next() is None and analysis.empty() and not analysis.would_block()
        with pytest.raises(caissa.engine.AnalysisComplete):
            analysis.get()
        # Another command stops an analysis under way first; leaving the `with` stops it too.
        running = engine.analysis(caissa.Board())
        assert running.get() is not None
        assert caissa.Board().is_legal(engine.play(caissa.Board(), Limit(depth=3)).move)
        assert running.wait().move is not None
        with engine.analysis(caissa.Board()) as left:
            assert left.get() is not None
        assert left.wait().move is not None
        # Searches among some moves only, as python-chess's `root_moves`.
        board = caissa.Board()
        only = [caissa.Move.from_uci("a2a3"), caissa.Move.from_uci("h2h3")]
        assert engine.play(board, Limit(depth=6), root_moves=only).move in only
        assert engine.analyse(board, Limit(depth=6), root_moves=only)["pv"][0] in only
        with engine.analysis(board, Limit(depth=6), root_moves=only[:1]) as narrow:
            assert narrow.wait().move == only[0]
        played = engine.play(board, Limit(depth=4), options={"MultiPV": 2},
                             opponent=caissa.engine.Opponent(name="Ann", is_engine=False))
        assert board.is_legal(played.move) and engine._config["multipv"] == "1"


@needs_stockfish
def test_an_analysis_stopped_from_another_thread_and_its_options_set_back():
    import threading
    with stockfish() as engine:
        analysis = engine.analysis(caissa.Board())
        seen = []
        reader = threading.Thread(target=lambda: seen.extend(analysis), daemon=True)
        reader.start()
        time.sleep(0.3)
        analysis.stop()
        reader.join(timeout=10)
        assert not reader.is_alive(), "the reading thread ended once stopped"
        assert seen and analysis.wait().move is not None
        # Options given for one search are set back after it, even when it cannot start.
        engine.analysis(caissa.Board(), Limit(depth=3), options={"MultiPV": 2}).wait()
        plain = engine.analysis(caissa.Board(), Limit(depth=3))
        plain.wait()
        assert len(plain.multipv) == 1
        mated = caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        done = engine.analysis(mated, multipv=3)
        assert done.wait().move is None and done.info["score"] == PovScore(Mate(0), caissa.BLACK)
        assert done.next()["depth"] == 0 and done.next() is None and done.empty()
        again = engine.analysis(caissa.Board(), Limit(depth=3))
        again.wait()
        assert len(again.multipv) == 1


@needs_stockfish
def test_the_asyncio_api_as_python_chess_has_it():
    import asyncio

    async def run():
        transport, engine = await caissa.engine.popen_uci(STOCKFISH)
        assert "Stockfish" in engine.id["name"] and "Hash" in engine.options
        await engine.configure({"Threads": 1, "Hash": 16})
        await engine.ping()
        board = caissa.Board()
        result = await engine.play(board, Limit(depth=5))
        assert board.is_legal(result.move)
        info = await engine.analyse(board, Limit(depth=5))
        assert info["depth"] == 5 and info["pv"]
        # The loop goes on while the engine thinks.
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.ensure_future(tick())
        with await engine.analysis(board) as analysis:
            depths = []
            async for info in analysis:
                if "score" in info:
                    depths.append(info["depth"])
                if len(depths) == 6:
                    analysis.stop()
        best = await analysis.wait()
        ticker.cancel()
        assert board.is_legal(best.move) and depths == sorted(depths)
        finished = await engine.analysis(board, Limit(depth=4))
        assert (await finished.wait()).move is not None
        taken = [info async for info in finished]
        assert taken[-1]["depth"] == 4 and await finished.next() is None
        await engine.quit()
        transport.close()
        return ticks

    assert asyncio.run(run()) > 0


@needs_stockfish
def test_options_wdl_and_a_terminated_engine_as_python_chess_has_them():
    import chess.engine
    with stockfish() as engine, peer_engine() as peer:
        assert set(engine.options) == set(peer.options)
        for name, theirs in peer.options.items():
            ours = engine.options[name.upper()]
            assert (ours.name, ours.type, ours.default, ours.min, ours.max, ours.var) == (
                theirs.name, theirs.type, theirs.default, theirs.min, theirs.max, theirs.var)
            assert ours.is_managed() == theirs.is_managed()
        assert engine.options["Hash"].parse("64") == 64
        with pytest.raises(caissa.EngineError):
            engine.options["Hash"].parse(10 ** 12)
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(caissa.Board(), Limit(depth=8))
        wdl = info["wdl"]
        assert isinstance(wdl, caissa.engine.PovWdl) and wdl.white().total() == 1000
        assert wdl.black() == -wdl.white() and 0 < wdl.white().expectation() < 1
        black = engine.analyse(caissa.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
                               Limit(depth=8))["wdl"]
        assert black.turn == caissa.BLACK and black.pov(caissa.BLACK) == black.relative
    engine = stockfish()
    engine.quit()
    with pytest.raises(caissa.engine.EngineTerminatedError):
        engine.play(caissa.Board(), Limit(depth=1))
    assert issubclass(caissa.engine.EngineTerminatedError, caissa.EngineError)


@needs_stockfish
def test_second_review_findings_on_engines_stay_fixed():
    import asyncio
    import threading
    with stockfish() as engine:
        # Two threads ending one analysis: each returns.
        for _ in range(10):
            analysis = engine.analysis(caissa.Board())
            reader = threading.Thread(target=lambda: list(analysis), daemon=True)
            reader.start()
            engine.play(caissa.Board(), Limit(time=0.02))
            reader.join(timeout=10)
            assert not reader.is_alive()
        # Option names in any case are set back to what `configure` gave.
        engine.configure({"multipv": 2})
        engine.analyse(caissa.Board(), Limit(depth=4), multipv=3)
        lines = engine.analysis(caissa.Board(), Limit(depth=4))
        lines.wait()
        assert len(lines.multipv) == 2
        engine.configure({"MultiPV": 1})
        engine.analysis(caissa.Board(), Limit(depth=3), options={"multipv": 4}).wait()
        one = engine.analysis(caissa.Board(), Limit(depth=3))
        one.wait()
        assert len(one.multipv) == 1

    async def run():
        transport, engine = await caissa.engine.popen_uci(STOCKFISH)
        analysis = await engine.analysis(caissa.Board())
        await asyncio.sleep(0.2)
        start = time.monotonic()
        analysis.empty()
        analysis.would_block()
        assert time.monotonic() - start < 0.1, "a poll never waits for the engine"
        # A cancelled search is stopped.
        analysis.stop()
        await analysis.wait()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(engine.play(caissa.Board(), Limit(time=3)), 0.2)
        start = time.monotonic()
        await engine.ping()
        assert time.monotonic() - start < 2
        # Quitting during an analysis ends its loop; calls after it raise EngineTerminatedError.
        running = await engine.analysis(caissa.Board())
        await running.get()
        await engine.quit()
        assert [info async for info in running] is not None
        assert (await running.wait()).move is not None
        with pytest.raises(caissa.engine.EngineTerminatedError):
            await engine.play(caissa.Board(), Limit(depth=1))
        transport.close()

    asyncio.run(run())


@needs_stockfish
def test_chess960_games_and_opponents_reach_the_engine():
    import random
    rng = random.Random(960)
    with stockfish() as engine:
        for number in (0, 100, 518, 959):
            board = caissa.Board.from_chess960(number)
            castled = False
            for _ in range(60):
                moves = list(board.legal_moves)
                if not moves:
                    break
                castles = [m for m in moves if board.is_castling(m)]
                move = castles[0] if castles and not castled else rng.choice(moves)
                castled = castled or board.is_castling(move)
                board.push(move)
                if board.is_game_over():
                    break
            if not board.is_game_over():
                result = engine.play(board, Limit(nodes=2000))
                assert board.is_legal(result.move)
            # Back to standard chess: the next standard board is searched as one.
            assert caissa.Board().is_legal(engine.play(caissa.Board(), Limit(depth=2)).move)
        engine.send_opponent_information(opponent=caissa.engine.Opponent(
            name="Ann", title="GM", rating=2700, is_engine=False))
        engine.send_game_result(caissa.Board(), True)


@needs_stockfish
def test_options_are_checked_before_the_engine_gets_them():
    with stockfish() as engine:
        for bad in ({"Hash": "x"}, {"Hash": -1}, {"Debug Log File": "\nquit"}, {"Bogus": 1},
                    {"Threads": 1, "Hash": 10 ** 12}):
            with pytest.raises(caissa.EngineError):
                engine.configure(bad)
        engine.configure({"hash": 32, "UCI_ShowWDL": "true"})
        assert engine.play(caissa.Board(), Limit(depth=2)).move is not None


@needs_gnuchess
def test_gnu_chess_a_second_engine_with_its_own_habits():
    """GNU Chess in UCI mode, which declares no ``MultiPV`` option: one line asked for is its
    usual search and more an ``EngineError``, as python-chess has them; moves, depth limits,
    clocks, an infinite analysis stopped and a mate's score as from Stockfish."""
    import chess
    import chess.engine
    command = [GNUCHESS, "--uci"]
    with SimpleEngine.popen_uci(command) as engine, \
            chess.engine.SimpleEngine.popen_uci(command) as peer:
        assert "MultiPV" not in engine.options and "Hash" in engine.options
        assert sorted(engine.options) == sorted(peer.options)
        board, peer_board = caissa.Board(), chess.Board()
        for san in ("e4", "e5"):
            board.push_san(san)
            peer_board.push_san(san)
        lines = engine.analyse(board, Limit(depth=5), multipv=1)
        expected = peer.analyse(peer_board, chess.engine.Limit(depth=5), multipv=1)
        assert len(lines) == len(expected) == 1
        assert [m.uci() for m in lines[0]["pv"]] == [m.uci() for m in expected[0]["pv"]]
        assert lines[0]["score"].white().score() == expected[0]["score"].white().score()
        with pytest.raises(caissa.EngineError):
            engine.analyse(board, Limit(depth=5), multipv=2)
        with pytest.raises(chess.engine.EngineError):
            peer.analyse(peer_board, chess.engine.Limit(depth=5), multipv=2)
        # The engine still answers after the refusal.
        played = engine.play(board, Limit(depth=4))
        assert board.is_legal(played.move) and played.info["depth"] == 4
        clocked = engine.play(board, Limit(white_clock=5, black_clock=5, white_inc=0.1,
                                           black_inc=0.1))
        assert board.is_legal(clocked.move)
        with engine.analysis(board) as analysis:
            time.sleep(0.2)
            analysis.stop()
            best = analysis.wait()
        assert board.is_legal(best.move) and analysis.info["depth"] >= 1
        mate = engine.play(caissa.Board("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), Limit(depth=3))
        assert mate.move.uci() == "f1f8" and mate.info["score"].white() == Mate(1)
        # A stalemate is not sent: GNU Chess answers `bestmove a1a1` there, which python-chess
        # reports as an error.
        assert engine.play(caissa.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
                           Limit(depth=3)).move is None
