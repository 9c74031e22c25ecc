"""caissa inside Dask: the sample PGNs cut into byte-range shards at game boundaries
(caissa.pgn.shards, several a file) on a two-worker LocalCluster, each mapped to Arrow batches
by caissa.pgn.to_arrow on its worker and written as a Parquet partition in the Hugging Face
Lichess columns, then queried with DuckDB. A real cluster runs the same code with another Client
address."""

import pathlib

import pytest

import caissa.pgn

distributed = pytest.importorskip("dask.distributed")
duckdb = pytest.importorskip("duckdb")

PGN_DIR = pathlib.Path(__file__).resolve().parents[3] / "data" / "pgn"
SAMPLES = sorted(PGN_DIR.glob("*.pgn"))


def test_shards_to_parquet_on_a_local_cluster_then_duckdb(tmp_path):
    out = tmp_path / "games"
    out.mkdir()

    # Shards of 64 KiB: more shards than files, so that files are split across the workers.
    shards = [shard for path in SAMPLES for shard in caissa.pgn.shards(path, size=64 * 2**10)]
    assert len(shards) > 2 * len(SAMPLES)

    # Defined here so that Dask ships it by value: the workers need only the caissa package.
    def shard_to_parquet(number, shard):
        import pyarrow
        import pyarrow.parquet

        import caissa.pgn

        reader = pyarrow.RecordBatchReader.from_stream(
            caissa.pgn.to_arrow(shard, columns=["uci"], threads=1)
        )
        target = out / f"part-{number}.parquet"
        rows = 0
        with pyarrow.parquet.ParquetWriter(target, reader.schema) as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        return str(target), rows

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        futures = client.map(shard_to_parquet, range(len(shards)), shards)
        written = client.gather(futures)
        # Both workers took shards.
        assert len({w for holders in client.who_has(futures).values() for w in holders}) == 2

    games = [g for path in SAMPLES for g in caissa.pgn.read_games(path, skip_errors=True)]
    assert sum(rows for _, rows in written) == len(games) > 0
    assert all(rows > 0 for _, rows in written)
    parquet = str(out / "*.parquet")
    table = f"read_parquet('{parquet}')"
    assert duckdb.sql(f"SELECT count(*) FROM {table}").fetchall()[0][0] == len(games)
    by_result = dict(duckdb.sql(f"SELECT Result, count(*) FROM {table} GROUP BY Result").fetchall())
    expected = {}
    for g in games:
        result = g.headers.get("Result")
        expected[result] = expected.get(result, 0) + 1
    assert by_result == expected
    types = {row[0]: row[1] for row in duckdb.sql(f"DESCRIBE SELECT * FROM {table}").fetchall()}
    assert (types["WhiteElo"], types["UTCDate"], types["uci"]) == ("SMALLINT", "DATE", "VARCHAR[]")
    plies = duckdb.sql(f"SELECT sum(len(uci)) FROM {table}").fetchall()[0][0]
    assert plies == sum(len(g.moves) for g in games)
