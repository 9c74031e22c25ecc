"""caissa.pgn.shards: byte ranges of a PGN file at game boundaries, covering the file; read
alone by read_games, select and to_arrow, they give the whole file's games with the whole
file's error places; compressed files are one shard."""

import bz2
import gzip
import pathlib
import pickle

import pyarrow
import pytest

import caissa
import caissa.pgn

PGN_DIR = pathlib.Path(__file__).resolve().parents[3] / "data" / "pgn"
SAMPLES = sorted(PGN_DIR.glob("*.pgn"))


def outcomes(source):
    """What read_games gives for each game: its parts, or its error's place."""
    games = caissa.pgn.read_games(source)
    found = []
    while True:
        try:
            game = next(games)
        except StopIteration:
            return found
        except caissa.pgn.PgnParseError as error:
            found.append(("error", error.line, error.column, error.ply, str(error)))
        else:
            found.append((game.headers, game.san, game.comments, game.clocks, game.evals,
                          game.termination_marker))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_shards_cover_the_file_at_boundaries_and_read_as_the_whole(path, tmp_path):
    data = path.read_bytes()
    crlf = tmp_path / f"crlf-{path.name}"
    crlf.write_bytes(data.replace(b"\n", b"\r\n"))
    cases = [(source, text, size) for source, text in [(path, data), (crlf, crlf.read_bytes())]
             for size in [256, 4096]]
    for source, text, size in cases:
        shards = caissa.pgn.shards(source, size=size)
        assert len(shards) > (1 if size == 256 else len(text) // 10_000)
        assert all(isinstance(s, caissa.pgn.Shard) and s.path == str(source) for s in shards)
        assert shards[0].start == 0 and shards[-1].end == len(text)
        assert all(a.end == b.start for a, b in zip(shards, shards[1:]))
        for shard in shards:
            assert shard.end > shard.start
            assert shard.end - shard.start >= size or shard is shards[-1]
            if shard.start > 0:
                # A tag pair begins the shard's first line.
                assert text[shard.start - 1] in b"\r\n" and text[shard.start:shard.start + 1] == b"["
        whole = outcomes(source)
        assert len(whole) > 0
        assert [o for shard in shards for o in outcomes(shard)] == whole


def test_an_error_in_a_later_shard_is_placed_in_the_file(tmp_path):
    game = '[Event "e{n}"]\n[Site "s"]\n\n1. e4 {{ a comment }} e5 2. Nf3 Nc6 *\n\n'
    games = [game.format(n=n) for n in range(400)]
    games[333] = games[333].replace("2. Nf3", "2. ) Nf3")
    text = "".join(games)
    for ends in ["\n", "\r\n"]:
        path = tmp_path / f"games-{len(ends)}.pgn"
        data = text.replace("\n", ends).encode()
        path.write_bytes(data)
        byte = data.index(b")")
        line = data[:byte].count(b"\n") + 1
        column = byte - max(data.rfind(b"\n", 0, byte), -1)
        shards = caissa.pgn.shards(path, size=2000)
        (holder,) = [s for s in shards if s.start <= byte < s.end]
        # In a later shard, not in its first game.
        assert holder is not shards[0] and byte - holder.start > 2 * len(game)
        with pytest.raises(caissa.pgn.PgnParseError) as whole:
            list(caissa.pgn.read_games(path))
        with pytest.raises(caissa.pgn.PgnParseError) as alone:
            list(caissa.pgn.read_games(holder))
        place = (whole.value.line, whole.value.column)
        assert place == (alone.value.line, alone.value.column) == (line, column)
        assert str(alone.value) == str(whole.value)
        held = data[holder.start:holder.end].count(b"[Event ")
        assert len(list(caissa.pgn.read_games(holder, skip_errors=True))) == held - 1
        with pytest.raises(caissa.pgn.PgnParseError) as selected:
            caissa.pgn.select(holder, skip_errors=False)
        assert (selected.value.line, selected.value.column, selected.value.byte) == (
            line, column, byte)
        stream = caissa.pgn.to_arrow(holder, skip_errors=False)
        with pytest.raises(pyarrow.ArrowInvalid, match=f"{path}:{line}:{column}: "):
            pyarrow.table(stream)


def test_to_arrow_and_select_read_a_list_of_shards_as_the_file():
    lichess = PGN_DIR / "lichess-2025-05-sample.pgn"
    shards = caissa.pgn.shards(lichess, size=50_000)
    assert len(shards) > 10
    whole = pyarrow.table(caissa.pgn.to_arrow(lichess, columns=["uci"]))
    cut = pyarrow.table(caissa.pgn.to_arrow(shards, columns=["uci"], threads=1))
    assert cut.num_rows == whole.num_rows > 0
    assert cut.equals(whole)
    uci = [line for s in shards for line in caissa.pgn.select(s, format="uci", threads=1)]
    assert uci == caissa.pgn.select(lichess, format="uci")


def test_compressed_files_are_one_shard(tmp_path):
    text = (PGN_DIR / "mliebelt-sample-games.pgn").read_bytes()
    plain = tmp_path / "games.pgn"
    plain.write_bytes(text)
    packed = {
        "gz": gzip.compress(text),
        "bz2": bz2.compress(text),
        "zst": pyarrow.compress(text, codec="zstd", asbytes=True),
    }
    expected = outcomes(plain)
    rows = pyarrow.table(caissa.pgn.to_arrow(plain)).num_rows
    for suffix, data in packed.items():
        path = tmp_path / f"games.pgn.{suffix}"
        path.write_bytes(data)
        assert caissa.pgn.shards(path, size=100) == [caissa.pgn.Shard(str(path), 0, len(data))]
        (shard,) = caissa.pgn.shards(path, size=100)
        assert outcomes(shard) == outcomes(path) == expected, suffix
        assert pyarrow.table(caissa.pgn.to_arrow(shard)).num_rows == rows


def test_shards_pickle_and_odd_arguments(tmp_path):
    path = PGN_DIR / "cm-pgn-test-list.pgn"
    shards = caissa.pgn.shards(str(path), size=1)
    assert pickle.loads(pickle.dumps(shards)) == shards
    path_, start, end = shards[1]
    assert (path_, start, end) == (shards[1].path, shards[1].start, shards[1].end)
    # The default size is larger than the file: one shard.
    assert caissa.pgn.shards(path) == [caissa.pgn.Shard(str(path), 0, path.stat().st_size)]
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert caissa.pgn.shards(empty) == []
    with pytest.raises(ValueError):
        caissa.pgn.shards(path, size=0)
    with pytest.raises(OSError):
        caissa.pgn.shards(tmp_path / "missing.pgn")
    with pytest.raises(ValueError):
        caissa.pgn.read_games(caissa.pgn.Shard(str(path), 10, 5))
