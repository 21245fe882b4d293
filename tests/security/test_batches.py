"""A table worker takes the requests waiting across its shards as one batch, in one commit, in
order, each answered once; a batch whose commit fails is replayed one request at a time, so
one bad request is refused alone. In one process (embedded mode: the in-memory bus and SQLite),
with the store's commits held back while requests pile up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from services.table.storage import Append, Queued
from services.table.store_sqlite import SqliteTableStore
from shared import messages as m
from shared.bus import Topology
from shared.memory_bus import MemoryBus
from shared.sqlite import Database
from tests.in_process import create_table, logged, running_worker

WITHIN = 30.0


class HeldStore(SqliteTableStore):
    """The SQLite store, whose commits wait while ``gate`` is clear; it notes each batch."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()
        self.batches: list[list[str]] = []  # action ids of each commit tried

    async def append_batch(self, owner: str, appends: Sequence[Append]) -> list[Queued | None]:
        self.batches.append([a.write.action_id for a in appends])
        self.waiting.set()
        await self.gate.wait()
        return await super().append_batch(owner, appends)


class Rig:
    def __init__(self, bus: MemoryBus, store: HeldStore) -> None:
        self.store = store
        self.gateway = bus.as_user(bus.topology.user("gateway"))
        self.outcomes: dict[str, list[m.Outcome]] = {}
        self.answered = asyncio.Event()

    async def send(self, request: m.Request) -> None:
        await self.gateway.request(request.table_id, request.model_dump_json().encode())

    async def listen(self, tables: Sequence[str]) -> None:
        updates = await self.gateway.updates_queue()
        for table in tables:
            await updates.watch(table)
        async with updates.messages() as deliveries:
            async for delivery in deliveries:
                for update in m.unpack(delivery.body):
                    if update.outcome is not None:
                        self.outcomes.setdefault(update.outcome.request_id, []).append(
                            update.outcome
                        )
                        self.answered.set()

    async def answer(self, request_id: str) -> m.Outcome:
        async with asyncio.timeout(WITHIN):
            while request_id not in self.outcomes:
                self.answered.clear()
                await self.answered.wait()
        return self.outcomes[request_id][0]

    async def logged(self, table: str) -> list[str]:
        return await logged(self.store, table)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    db = await Database.open(tmp_path / "swick.sqlite3")
    store = HeldStore(db)
    await store.migrate(4)
    bus = MemoryBus(Topology("batches", 4))
    rig = Rig(bus, store)
    listening = asyncio.create_task(rig.listen(["t-a", "t-b"]))
    try:
        async with running_worker(store, bus):
            yield rig
    finally:
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await db.close()


async def open_table(rig: Rig, table: str, host: str) -> None:
    create = create_table(table, host, invite_code=f"code-{table}")
    await rig.send(create)
    assert (await rig.answer(create.request_id)).ok


def sit_out(table: str, request_id: str, player: str, out: bool) -> m.Act:
    action: dict[str, Any] = {"kind": "sit_out", "sitting_out": out}
    return m.Act(table_id=table, request_id=request_id, player_id=player, seq=0, action=action)


async def hold_commits(rig: Rig, first: m.Request) -> None:
    """Send ``first`` and hold its commit: what is sent next waits in the worker's inbox."""
    rig.store.gate.clear()
    rig.store.waiting.clear()
    await rig.send(first)
    await asyncio.wait_for(rig.store.waiting.wait(), WITHIN)


async def test_waiting_requests_go_in_one_commit_in_order(rig: Rig) -> None:
    await open_table(rig, "t-a", "alice")
    await open_table(rig, "t-b", "bob")
    await hold_commits(rig, sit_out("t-a", "a1", "alice", True))
    waiting = [
        sit_out("t-a", "a2", "alice", False),
        sit_out("t-b", "b1", "bob", True),
        sit_out("t-a", "a2", "alice", False),  # sent twice: applied once
        sit_out("t-a", "a3", "alice", False),  # changes nothing: refused by the game
        sit_out("t-a", "a4", "alice", True),
        sit_out("t-b", "b2", "nobody", True),  # not seated: refused
    ]
    for request in waiting:
        await rig.send(request)
    rig.store.gate.set()
    for request_id in ("a1", "a2", "b1", "a3", "a4", "b2"):
        await rig.answer(request_id)
    # Two shards: each table's requests keep their order, the shards' may interleave.
    assert rig.store.batches[-2][0] == "a1"
    assert sorted(rig.store.batches[-1]) == ["a2", "a4", "b1"]
    assert (await rig.logged("t-a"))[-3:] == ["a1", "a2", "a4"]
    assert (await rig.logged("t-b"))[-1:] == ["b1"]
    answers = {rid: [(o.ok, o.code) for o in outcomes] for rid, outcomes in rig.outcomes.items()}
    assert answers["a1"] == [(True, "")]
    assert answers["a2"] == [(True, ""), (False, "duplicate")]
    assert answers["a4"] == [(True, "")]
    assert answers["b1"] == [(True, "")]
    assert [ok for ok, _ in answers["a3"]] == [False]
    assert answers["b2"] == [(False, "not_seated")]


async def test_a_batch_that_cannot_commit_is_replayed_one_request_at_a_time(rig: Rig) -> None:
    """Carol joins two tables in one batch: each join looked fine alone, the commit refuses
    the second seat, and replayed one by one the first join stands and the second is refused."""
    await open_table(rig, "t-a", "alice")
    await open_table(rig, "t-b", "bob")
    await hold_commits(rig, sit_out("t-a", "a1", "alice", True))
    await rig.send(m.Join(table_id="t-a", request_id="carol-a", player_id="carol", name="Carol"))
    await rig.send(sit_out("t-b", "b1", "bob", True))
    await rig.send(m.Join(table_id="t-b", request_id="carol-b", player_id="carol", name="Carol"))
    rig.store.gate.set()
    assert (await rig.answer("carol-a")).ok
    refused = await rig.answer("carol-b")
    assert (refused.ok, refused.code) == (False, "seated_elsewhere")
    assert (await rig.answer("b1")).ok
    failed, *one_by_one = rig.store.batches[-3:]
    assert sorted(failed) == ["b1", "carol-a", "carol-b"]
    # Alone, Carol's second join is refused before it reaches the store: she sits at t-a.
    assert one_by_one == [[action_id] for action_id in failed if action_id != "carol-b"]
    assert (await rig.logged("t-a"))[-2:] == ["a1", "carol-a"]
    assert (await rig.logged("t-b"))[-1:] == ["b1"]
    assert all(len(outcomes) == 1 for outcomes in rig.outcomes.values())
