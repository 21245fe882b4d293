"""The gateways' chat log (``services.gateway.chat``), on each backend and in memory: a table
keeps its last lines, oldest first, each as it was said."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.gateway import protocol as p
from services.gateway.chat import KEPT, ChatLog, MemoryChat, PostgresChat, SqliteChat
from services.gateway.history import chat_out
from services.load.platform import fresh_database
from services.table.store import connect_pool
from shared import messages as m
from shared.settings import Settings
from shared.sqlite import Database
from tests.contract.conftest import uid


@pytest.fixture(params=["postgres", "sqlite", "memory"])
async def chat(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[ChatLog]:
    if request.param == "postgres":
        async with fresh_database(settings.database_url) as dsn:
            pool = await connect_pool(dsn, size=2)
            try:
                log: ChatLog = PostgresChat(pool)
                await log.migrate()
                await log.migrate()  # again: nothing to do
                yield log
            finally:
                await pool.close()
    elif request.param == "sqlite":
        db = await Database.open(tmp_path / "swick.db")
        try:
            sqlite = SqliteChat(db)
            await sqlite.migrate()
            await sqlite.migrate()
            yield sqlite
        finally:
            await db.close()
    else:
        yield MemoryChat()


def line(table: str, n: int) -> m.ChatLine:
    return m.ChatLine(
        table_id=table, id=f"l{n}", player_id="p-1", name="Ann", text=f"line {n} ♠", at=1000 + n
    )


async def test_a_table_keeps_its_last_lines_in_order(chat: ChatLog) -> None:
    table, other = uid("t"), uid("t")
    assert await chat.recent(table) == []
    for n in range(KEPT + 12):
        await chat.add(line(table, n))
    await chat.add(line(other, 0))
    assert await chat.recent(table) == [line(table, n) for n in range(12, KEPT + 12)]
    assert await chat.recent(other) == [line(other, 0)]


def test_a_history_framed_unparsed_is_the_models_own_json() -> None:
    view = {"seat": 1, "seq": 7, "hand": ["AS", None], "name": 'a "quoted" ♠'}
    chat = [chat_out(line('t-1"x', 1))]
    text = p.history_frame('t-1"x', chat, [json.dumps(view, ensure_ascii=False)] * 2)
    model = p.History(table='t-1"x', chat=chat, views=[view, view]).model_dump()
    assert json.loads(text) == model
    assert (
        json.loads(p.history_frame("t", [], []))
        == p.History(table="t", chat=[], views=[]).model_dump()
    )
