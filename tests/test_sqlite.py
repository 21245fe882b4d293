"""The embedded database: transactions roll back whole (also when cancelled), the connection
stays usable after, migrations run once per scope, scripts split into statements."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shared.sqlite import IN_LIST, Database, first, in_lists, rows_in, run, run_many, statements


async def open_db(tmp_path: Path) -> Database:
    db = await Database.open(tmp_path / "test.db")
    async with db.write() as conn:
        await run(conn, "CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    return db


async def count(db: Database) -> int:
    async with db.read() as conn:
        row = await first(conn, "SELECT count(*) AS n FROM t")
    assert row is not None
    return int(row["n"])


async def test_a_failed_block_rolls_back_whole(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        with pytest.raises(RuntimeError):
            async with db.write() as conn:
                await run(conn, "INSERT INTO t VALUES ('a', 1)")
                raise RuntimeError("changed my mind")
        with pytest.raises(Exception, match="UNIQUE"):
            async with db.write() as conn:
                await run(conn, "INSERT INTO t VALUES ('b', 1)")
                await run(conn, "INSERT INTO t VALUES ('b', 2)")
        assert await count(db) == 0
        async with db.write() as conn:
            await run(conn, "INSERT INTO t VALUES ('c', 1)")
        assert await count(db) == 1
    finally:
        await db.close()


async def test_a_cancelled_transaction_rolls_back_and_frees_the_connection(
    tmp_path: Path,
) -> None:
    db = await open_db(tmp_path)
    inside = asyncio.Event()

    async def stuck() -> None:
        async with db.write() as conn:
            await run(conn, "INSERT INTO t VALUES ('x', 1)")
            inside.set()
            await asyncio.sleep(60)

    try:
        task = asyncio.create_task(stuck())
        await inside.wait()
        waiting = asyncio.create_task(count(db))  # queued behind the open transaction
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await waiting == 0
        async with db.write() as conn:
            await run(conn, "INSERT INTO t VALUES ('y', 1)")
        assert await count(db) == 1
    finally:
        await db.close()


async def test_migrations_run_once_per_scope(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "001_one.sql").write_text(
        "-- A table; and a row.\nCREATE TABLE one (a TEXT);\nINSERT INTO one VALUES ('x;y');\n"
    )
    (folder / "002_two.sql").write_text("CREATE TABLE two (a TEXT); -- trailing\n-- the end\n")
    db = await Database.open(tmp_path / "m.db")
    try:
        assert await db.migrate("s", folder) == ["001_one.sql", "002_two.sql"]
        assert await db.migrate("s", folder) == []
        async with db.read() as conn:
            row = await first(conn, "SELECT a FROM one")
        assert row is not None
        assert row["a"] == "x;y"
        # Another scope keeps its own record (here: the tables exist, so it fails whole).
        with pytest.raises(Exception, match="already exists"):
            await db.migrate("other", folder)
        async with db.read() as conn:
            done = await conn.execute_fetchall("SELECT scope, name FROM migrations")
        assert sorted(tuple(r) for r in done) == [("s", "001_one.sql"), ("s", "002_two.sql")]
    finally:
        await db.close()


def test_scripts_split_into_statements() -> None:
    assert statements("-- only a comment\n") == []
    script = "SELECT 1; SELECT ';'; -- a comment; with a semicolon\nSELECT 2;\n"
    assert statements(script) == [
        "SELECT 1;",
        "SELECT ';';",
        "-- a comment; with a semicolon\nSELECT 2;",
    ]
    with pytest.raises(ValueError, match="incomplete"):
        statements("SELECT 1;\nSELECT 2\n")


def test_in_lists_slice_values_to_the_bound_with_their_marks() -> None:
    values = list(range(2 * IN_LIST + 1))
    slices = list(in_lists(values))
    assert [len(chunk) for _, chunk in slices] == [IN_LIST, IN_LIST, 1]
    assert [v for _, chunk in slices for v in chunk] == values
    assert all(marks == ",".join("?" * len(chunk)) for marks, chunk in slices)
    assert list(in_lists([])) == []


async def test_rows_in_reads_more_values_than_one_statement_binds(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    try:
        async with db.write() as conn:
            await run_many(
                conn, "INSERT INTO t (k, v) VALUES (?, ?)", [(f"k{i}", i) for i in range(1200)]
            )
        wanted = [f"k{i}" for i in range(0, 1200, 2)] + ["absent"] * 600
        async with db.read() as conn:
            rows = await rows_in(conn, "SELECT v FROM t WHERE k IN ({marks})", wanted)
        assert sorted(int(row["v"]) for row in rows) == list(range(0, 1200, 2))
    finally:
        await db.close()
