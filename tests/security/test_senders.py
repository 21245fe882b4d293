"""Who may ask a table what, in one process over the in-memory bus (embedded mode): the same
checks as on the broker, where each service's bus handle stamps its own user.

A gateway speaks for people, a bot's user for the seats of its own bot name, the table worker
sends its timers' ticks; anything else is dropped unanswered and changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.table.store_sqlite import SqliteTableStore
from services.table.worker import TableWorker
from shared import messages as m
from shared.bus import Topology
from shared.memory_bus import MemoryBus
from shared.sqlite import Database
from tests.in_process import create_table, running_worker, until_logged

TABLE = "t-senders"


class Rig:
    def __init__(self, bus: MemoryBus, store: SqliteTableStore, worker: TableWorker) -> None:
        self.bus = bus
        self.store = store
        self.worker = worker
        t = bus.topology
        self.gateway = bus.as_user(t.user("gateway"))
        self.table = bus.as_user(t.user("table"))
        self.easy = bus.as_user(t.bot_user("easy"))
        self.stranger = bus.as_user("someone-else")

    async def until_logged(self, action_id: str) -> list[str]:
        return await until_logged(self.store, TABLE, action_id)

    async def until_forbidden(self, count: int) -> None:
        """Wait until ``count`` requests were dropped as forbidden (a bot's come through its
        own queue and the relay, so they may follow a gateway's)."""
        deadline = time.monotonic() + 30
        while self.forbidden() < count:
            assert time.monotonic() < deadline, f"only {self.forbidden()} of {count} dropped"
            await asyncio.sleep(0.01)

    def forbidden(self) -> float:
        """Requests dropped as forbidden: by the table, or by the relay of the bot's queue."""
        registry = self.worker.metrics.registry
        table = registry.get_sample_value("swick_commands_total", {"outcome": "forbidden"})
        relay = registry.get_sample_value(
            "swick_bot_actions_total", {"bot": "easy", "outcome": "forbidden"}
        )
        return (table or 0.0) + (relay or 0.0)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    db = await Database.open(tmp_path / "swick.sqlite3")
    store = SqliteTableStore(db)
    await store.migrate(4)
    for name in ("easy", "medium"):
        await store.register_bot(name, "swick")
    bus = MemoryBus(Topology("senders", 4))
    try:
        async with running_worker(store, bus) as worker:
            yield Rig(bus, store, worker)
    finally:
        await db.close()


def act(request_id: str, player_id: str, action: dict[str, Any], seq: int = 0) -> bytes:
    return (
        m.Act(table_id=TABLE, request_id=request_id, player_id=player_id, seq=seq, action=action)
        .model_dump_json()
        .encode()
    )


SIT_OUT = {"kind": "sit_out", "sitting_out": True}


async def test_each_sender_is_taken_only_at_its_word(rig: Rig) -> None:
    create = create_table(TABLE, "alice", bots={1: "easy", 2: "medium"})
    forged = create.model_copy(update={"request_id": "mallory/create", "host_id": "mallory"})
    await rig.stranger.request(TABLE, forged.model_dump_json().encode())  # nobody's: dropped
    await rig.gateway.request(TABLE, create.model_dump_json().encode())
    before = await rig.until_logged("alice/create:bot:2")
    assert before == ["alice/create:host", "alice/create:bot:1", "alice/create:bot:2"]
    easy_seat, medium_seat = f"bot:{TABLE}:1", f"bot:{TABLE}:2"
    # Each of these is someone speaking for another, or out of turn: all dropped.
    await rig.easy.bot_action(TABLE, act("easy-for-alice", "alice", SIT_OUT))
    await rig.easy.bot_action(TABLE, act("easy-for-medium", medium_seat, SIT_OUT))
    join = m.Join(table_id=TABLE, request_id="easy-join", player_id="bob", name="Bob")
    await rig.easy.bot_action(TABLE, join.model_dump_json().encode())
    await rig.gateway.request(TABLE, act("gateway-for-easy", easy_seat, SIT_OUT))
    tick = m.Tick(table_id=TABLE, request_id="tick:0", seq=0)
    await rig.gateway.request(TABLE, tick.model_dump_json().encode())
    await rig.table.request(TABLE, act("table-for-alice", "alice", SIT_OUT))
    await rig.stranger.request(TABLE, act("stranger-for-alice", "alice", SIT_OUT))
    # A bot's sit_out even for its own seat is dropped: a bot makes only its game decisions
    # (see test_bot_lifecycle.py).
    await rig.easy.bot_action(TABLE, act("easy-own", easy_seat, SIT_OUT))
    # Every request above is dropped (the forged create too); a person's own is applied.
    await rig.until_forbidden(9)
    await rig.gateway.request(TABLE, act("alice-own", "alice", SIT_OUT))
    logged = await rig.until_logged("alice-own")
    assert logged == [*before, "alice-own"]
    assert rig.forbidden() == 9
