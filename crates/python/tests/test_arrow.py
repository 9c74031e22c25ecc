"""caissa.pgn.to_arrow: the Hugging Face Lichess columns and types, the same games as select,
streamed in bounded batches, read by pyarrow and DuckDB (and polars when installed) through the
Arrow PyCapsule interface, and its errors."""

import datetime
import gzip
import pathlib

import pyarrow
import pytest

import caissa
import caissa.pgn

PGN_DIR = pathlib.Path(__file__).resolve().parents[3] / "data" / "pgn"
SAMPLES = sorted(PGN_DIR.glob("*.pgn"))
LICHESS = PGN_DIR / "lichess-2025-05-sample.pgn"

HF_COLUMNS = [
    ("Event", pyarrow.string()),
    ("Site", pyarrow.string()),
    ("White", pyarrow.string()),
    ("Black", pyarrow.string()),
    ("Result", pyarrow.string()),
    ("WhiteTitle", pyarrow.string()),
    ("BlackTitle", pyarrow.string()),
    ("WhiteElo", pyarrow.int16()),
    ("BlackElo", pyarrow.int16()),
    ("WhiteRatingDiff", pyarrow.int16()),
    ("BlackRatingDiff", pyarrow.int16()),
    ("UTCDate", pyarrow.date32()),
    ("UTCTime", pyarrow.time32("s")),
    ("ECO", pyarrow.string()),
    ("Opening", pyarrow.string()),
    ("Termination", pyarrow.string()),
    ("TimeControl", pyarrow.string()),
    ("movetext", pyarrow.string()),
]


def test_the_schema_is_the_datasets_and_the_per_ply_columns():
    stream = caissa.pgn.to_arrow(LICHESS, columns=["uci", "clocks", "evals"])
    schema = pyarrow.schema(stream)
    assert [(f.name, f.type) for f in schema][: len(HF_COLUMNS)] == HF_COLUMNS
    assert not schema.field("movetext").nullable
    extra = {f.name: f.type for f in schema if f.name not in dict(HF_COLUMNS)}
    assert extra == {
        "uci": pyarrow.list_(pyarrow.field("item", pyarrow.string(), nullable=False)),
        "clock_ms": pyarrow.list_(pyarrow.int32()),
        "eval_cp": pyarrow.list_(pyarrow.int32()),
        "eval_mate": pyarrow.list_(pyarrow.int32()),
    }
    table = pyarrow.table(stream)
    assert table.schema == schema
    with pytest.raises(OSError):
        pyarrow.table(stream)
    assert "read" in repr(stream)


def test_rows_are_the_games_select_takes():
    table = pyarrow.table(caissa.pgn.to_arrow(LICHESS, "WhiteElo >= 2000", columns=["uci"]))
    uci = caissa.pgn.select(LICHESS, "WhiteElo >= 2000", format="uci")
    assert table.num_rows == len(uci) > 0
    assert table["uci"].to_pylist() == [line.split() for line in uci]
    games = [g for g in caissa.pgn.read_games(LICHESS, skip_errors=True)
             if int(g.headers.get("WhiteElo", 0)) >= 2000]
    first = games[0].headers
    row = table.slice(0, 1).to_pylist()[0]
    assert row["White"] == first["White"] and row["WhiteElo"] == int(first["WhiteElo"])
    assert row["UTCDate"] == datetime.date(*map(int, first["UTCDate"].split(".")))
    hours, minutes, seconds = map(int, first["UTCTime"].split(":"))
    assert row["UTCTime"] == datetime.time(hours, minutes, seconds)
    assert row["movetext"].endswith(first["Result"])
    mates = pyarrow.table(caissa.pgn.to_arrow(LICHESS, ending="checkmate", columns=["uci"]))
    assert mates["uci"].to_pylist() == [
        line.split() for line in caissa.pgn.select(LICHESS, ending="checkmate", format="uci")
    ]


def test_clocks_and_evals_per_ply():
    example = (
        '[Event "Casual"]\n\n1. f3 { [%clk 0:03:00] [%eval -0.5] } e5 { [%clk 0:02:59.5] }'
        " 2. g4 { [%eval #-1] } Qh4# 0-1\n"
    )
    path = pathlib.Path(pytest.importorskip("tempfile").mkdtemp()) / "example.pgn.gz"
    path.write_bytes(gzip.compress(example.encode()))
    row = pyarrow.table(caissa.pgn.to_arrow(path, columns=["clocks", "evals"])).to_pylist()[0]
    assert row["clock_ms"] == [180000, 179500, None, None]
    assert row["eval_cp"] == [-50, None, None, None]
    assert row["eval_mate"] == [None, None, -1, None]
    assert row["Event"] == "Casual" and row["WhiteElo"] is None


def test_many_files_stream_in_order_and_stop_at_the_limit():
    stream = caissa.pgn.to_arrow(SAMPLES, threads=2)
    reader = pyarrow.RecordBatchReader.from_stream(stream)
    batches = list(reader)
    total = sum(len(caissa.pgn.select(path, format="uci")) for path in SAMPLES)
    assert sum(b.num_rows for b in batches) == total
    assert all(b.num_rows <= 8192 for b in batches)
    limited = pyarrow.table(caissa.pgn.to_arrow(SAMPLES, limit=5))
    assert limited["movetext"].to_pylist() == pyarrow.concat_batches(batches)["movetext"][:5].to_pylist()
    assert pyarrow.table(caissa.pgn.to_arrow(LICHESS, limit=0)).num_rows == 0
    # A stream dropped unread stops its reader thread: nothing hangs.
    for _ in range(3):
        del stream
        stream = caissa.pgn.to_arrow(SAMPLES)


def test_duckdb_and_polars_read_the_stream():
    duckdb = pytest.importorskip("duckdb")
    games = caissa.pgn.to_arrow(LICHESS)
    counts = duckdb.sql(
        "SELECT Result, count(*) AS n FROM games GROUP BY Result ORDER BY Result"
    ).fetchall()
    expected = {}
    for g in caissa.pgn.read_games(LICHESS, skip_errors=True):
        expected[g.headers["Result"]] = expected.get(g.headers["Result"], 0) + 1
    assert dict(counts) == expected
    polars = pytest.importorskip("polars")
    frame = polars.DataFrame(caissa.pgn.to_arrow(LICHESS, limit=3))
    assert frame.shape[0] == 3 and frame.columns[:2] == ["Event", "Site"]


def test_errors():
    with pytest.raises(OSError):
        caissa.pgn.to_arrow(PGN_DIR / "missing.pgn")
    with pytest.raises(ValueError):
        caissa.pgn.to_arrow(LICHESS, columns=["moves"])
    with pytest.raises(caissa.pgn.FilterError):
        caissa.pgn.to_arrow(LICHESS, "WhiteElo >=")
    path = pathlib.Path(pytest.importorskip("tempfile").mkdtemp()) / "broken.pgn"
    path.write_text("1. e4 e5 *\n\n1. e4 Ke7 *\n\n1. d4 *\n")
    assert pyarrow.table(caissa.pgn.to_arrow(path)).num_rows == 2
    with pytest.raises(pyarrow.ArrowInvalid, match="broken.pgn:3:"):
        pyarrow.table(caissa.pgn.to_arrow(path, skip_errors=False))


def test_the_schema_can_be_read_after_the_stream():
    stream = caissa.pgn.to_arrow(LICHESS)
    table = pyarrow.table(stream)
    assert pyarrow.schema(stream) == table.schema
    with pytest.raises(OSError, match="has been read"):
        pyarrow.table(stream)


@pytest.mark.skipif(not pathlib.Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_a_dropped_stream_stops_its_thread():
    import time

    def threads():
        # The streams' reading threads, by name: other tests' threads may end meanwhile.
        names = []
        for task in pathlib.Path("/proc/self/task").iterdir():
            try:
                names.append((task / "comm").read_text().strip())
            except OSError:  # the thread ended while being listed
                pass
        return names.count("caissa-to-arrow")

    before = threads()
    # A filter that no game passes fills no batch: the reading thread must notice the drop
    # between games, not at its next batch, or it would read all 2,000 files (seconds).
    stream = caissa.pgn.to_arrow([LICHESS] * 2000, "WhiteElo > 9999", threads=1)
    time.sleep(0.05)
    assert threads() > before
    del stream
    deadline = time.perf_counter() + 1
    while threads() > before and time.perf_counter() < deadline:
        time.sleep(0.01)
    assert threads() == before
