"""caissa beside python-chess: the same jobs in one run, with the ratios.

    python crates/python/bench/compare.py [--games N] [--repeat R] [PGN...]

Jobs (default input: the PGN samples of data/pgn):

- read and replay every game: python-chess's ``read_game`` loop (it replays each move to
  check it) against ``caissa.pgn.read_games``, alone and with every game's moves as Python
  ``Move`` objects, and against ``caissa.pgn.to_arrow`` made into a ``pyarrow`` table (every
  core; needs pyarrow);
- select: the games with both Elos at least 2000, their main lines in UCI: python-chess's
  ``read_game`` loop with the test in Python against ``caissa.pgn.select`` (every core);
- per call, over the positions of the first N games: ``push_san`` (with ``pop`` to undo it),
  ``legal_moves`` (made into a list) and ``is_game_over``.

Build the extension optimised first (``pip install ./crates/python``, profile
``python-release``); a debug build measures the wrong thing. Each figure is the best of R
runs. The script prints a table and asks nothing else of the machine.
"""

import argparse
import logging
import pathlib
import time

import chess
import chess.pgn

import caissa
import caissa.pgn

ROOT = pathlib.Path(__file__).resolve().parents[3]


def best(job, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def python_chess_read(paths):
    games = 0
    for path in paths:
        with open(path, encoding="utf-8-sig") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games += 1
                for _ in game.mainline_moves():
                    pass
    return games


def caissa_read(paths, with_moves):
    games = 0
    for path in paths:
        for game in caissa.pgn.read_games(path, skip_errors=True):
            games += 1
            if with_moves:
                game.moves
    return games


def python_chess_select(paths):
    lines = []
    for path in paths:
        with open(path, encoding="utf-8-sig") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                elos = [game.headers.get(tag, "") for tag in ("WhiteElo", "BlackElo")]
                if game.errors or not all(e.isdigit() and int(e) >= 2000 for e in elos):
                    continue
                lines.append(" ".join(m.uci() for m in game.mainline_moves()) + "\n")
    return lines


def caissa_select(paths):
    return [
        line
        for path in paths
        for line in caissa.pgn.select(path, "WhiteElo >= 2000 and BlackElo >= 2000", format="uci")
    ]


def caissa_to_arrow(paths):
    import pyarrow

    return pyarrow.table(caissa.pgn.to_arrow(paths)).num_rows


def sample_lines(paths, limit):
    """(start FEN, chess960, SAN list) of the first `limit` games."""
    lines = []
    for game in (g for p in paths for g in caissa.pgn.read_games(p, skip_errors=True)):
        board = game.board()
        lines.append((board.fen(), board.chess960, [board.san_and_push(m) for m in game.moves]))
        if len(lines) == limit:
            break
    return lines


def per_call(lines, make_board, call):
    """Seconds per `call(board, san)` over every position of `lines`, and the call count."""
    total = 0.0
    calls = 0
    for fen, chess960, sans in lines:
        board = make_board(fen, chess960)
        for san in sans:
            start = time.perf_counter()
            call(board, san)
            total += time.perf_counter() - start
            calls += 1
            board.push_san(san)
    return total / calls, calls


def push_pop(board, san):
    board.push_san(san)
    board.pop()


CALLS = {
    "push_san + pop": push_pop,
    "legal_moves": lambda board, _: list(board.legal_moves),
    "is_game_over": lambda board, _: board.is_game_over(),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="*", type=pathlib.Path)
    parser.add_argument("--games", type=int, default=100, help="games for the per-call jobs")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best counts)")
    args = parser.parse_args()
    # python-chess logs each game it cannot replay; the table is what this script shows.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    paths = args.pgn or sorted((ROOT / "data" / "pgn").glob("*.pgn"))
    size = sum(p.stat().st_size for p in paths)
    print(f"inputs: {len(paths)} files, {size / 1e6:.2f} MB; best of {args.repeat} runs")
    print(f"caissa {caissa.__version__}, python-chess {chess.__version__}\n")

    peer = best(lambda: python_chess_read(paths), args.repeat)
    games = python_chess_read(paths)
    print(f"{'job':<34} {'python-chess':>14} {'caissa':>14} {'ratio':>8}")
    jobs = [
        ("read + replay (read_games)", lambda: caissa_read(paths, False)),
        ("read + replay + moves as objects", lambda: caissa_read(paths, True)),
    ]
    try:
        import pyarrow  # noqa: F401

        jobs.append(("read + replay (to_arrow table)", lambda: caissa_to_arrow(paths)))
    except ImportError:
        print("(no pyarrow: to_arrow left out)")
    for name, job in jobs:
        ours = best(job, args.repeat)
        print(f"{name:<34} {size / peer / 1e6:>9.2f} MB/s {size / ours / 1e6:>9.2f} MB/s "
              f"{peer / ours:>7.1f}x")
    print(f"{'':<34} ({games} games)")
    peer = best(lambda: python_chess_select(paths), args.repeat)
    ours = best(lambda: caissa_select(paths), args.repeat)
    selected = len(caissa_select(paths))
    print(f"{'select Elo >= 2000, UCI':<34} {size / peer / 1e6:>9.2f} MB/s {size / ours / 1e6:>9.2f} MB/s "
          f"{peer / ours:>7.1f}x")
    print(f"{'':<34} ({selected} games selected)")

    lines = sample_lines(paths, args.games)
    for name, call in CALLS.items():
        peer_s, calls = min(
            (per_call(lines, lambda f, c: chess.Board(f, chess960=c), call) for _ in range(args.repeat)),
        )
        ours_s, _ = min(
            (per_call(lines, lambda f, c: caissa.Board(f, chess960=c), call) for _ in range(args.repeat)),
        )
        print(f"{name:<34} {peer_s * 1e6:>11.2f} µs {ours_s * 1e6:>11.2f} µs {peer_s / ours_s:>7.1f}x")
    print(f"{'':<34} ({calls} positions per call)")


if __name__ == "__main__":
    main()
