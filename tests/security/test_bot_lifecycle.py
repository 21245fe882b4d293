"""A bot makes its game decisions and nothing else; a bot that stops answering is decided for
and replaced; a bot cannot take a person's action id. Over the embedded mode's parts (the real
table worker, the in-memory bus, one SQLite file), each service's bus handle stamping its own
user, on a clock the test moves: deadlines pass when the test says so, and the table's own tick
is sent by the test (as the worker's timer would send it)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.ledger.ledger_sqlite import SqliteLedger
from services.local_wallets import LocalWallets
from services.table.store_sqlite import SqliteTableStore
from services.table.worker import TableWorker
from shared import messages as m
from shared.bus import Topology
from shared.games.registry import game
from shared.memory_bus import MemoryBus
from shared.sqlite import Database
from tests.clock import Clock
from tests.in_process import logged
from tests.security.table_driver import NEVER_ABANDONED, WITHIN, TableDriver

DEAD = "t-dead"  # a registered bot whose service never answers


class Rig(TableDriver):
    def __init__(self, bus: MemoryBus, store: SqliteTableStore, clock: Clock) -> None:
        super().__init__(bus, store, clock)
        self.dead = bus.as_user(bus.topology.bot_user(DEAD))


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    db = await Database.open(tmp_path / "swick.sqlite3")
    store = SqliteTableStore(db)
    await store.migrate(4)
    for name in ("easy", "medium", DEAD):
        await store.register_bot(name, "swick")
    ledger = SqliteLedger(db, 4000)
    await ledger.migrate()
    bus = MemoryBus(Topology("botlife", 4))
    clock = Clock()
    worker = TableWorker(
        bus.as_user(bus.topology.user("table")),
        store,
        LocalWallets(ledger),
        lease_ttl=30,
        tick=0.05,
        abandon_after=NEVER_ABANDONED,
        clock=clock,
    )
    running = asyncio.create_task(worker.run())
    try:
        await asyncio.wait_for(worker.ready.wait(), WITHIN)
        yield Rig(bus, store, clock)
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await db.close()


def act(table: str, request_id: str, player_id: str, action: dict[str, Any], seq: int = 0) -> bytes:
    request = m.Act(
        table_id=table, request_id=request_id, player_id=player_id, seq=seq, action=action
    )
    return request.model_dump_json().encode()


async def test_a_bots_lifecycle_actions_are_dropped_and_change_nothing(rig: Rig) -> None:
    table = "t-lifecycle"
    await rig.open(table, "swick", {"seats": 4}, {1: DEAD, 2: "medium"})
    before_log = await logged(rig.store, table)
    before = await rig.state(table)
    own = f"bot:{table}:1"
    lifecycle: list[dict[str, Any]] = [
        {"kind": "sit_out", "sitting_out": True},
        {"kind": "leave"},
        {"kind": "add_bot", "seat": 3, "bot": "easy"},
        {"kind": "end_game"},
        {"kind": "hand_over_host", "seat": 1},
        {"kind": "start_game"},
    ]
    for n, action in enumerate(lifecycle):
        await rig.dead.bot_action(table, act(table, f"{own}/life-{n}", own, action))
    # Alice's own request, after all of them on the same queue: once applied, they were handled.
    await rig.gateway.request(
        table, act(table, "alice/own", "alice", {"kind": "sit_out", "sitting_out": True})
    )
    assert await rig.until_logged(table, "alice/own") == [*before_log, "alice/own"]
    after = await rig.state(table)
    assert after.players == before.players and after.stacks == before.stacks
    assert after.sitting_out[1:] == before.sitting_out[1:]


async def test_a_bot_cannot_take_a_persons_action_id(rig: Rig) -> None:
    table = "t-preempt"
    await rig.open(table, "swick", {"seats": 3}, {1: DEAD, 2: "medium"})
    g = game("swick")
    # The table decides for the seats until the bot's decision is pending.
    while 1 not in g.to_act(state := await rig.state(table)):
        await rig.time_out(table)
    [choice, *_] = [o.action for o in g.legal_actions(state, 1) if o.legal]
    own = f"bot:{table}:1"
    stolen = "alice/victim-1"  # the id Alice's next request will have
    await rig.dead.bot_action(table, act(table, stolen, own, g.dump_action(choice), state.seq))
    bots = await rig.until_logged(table, f"{own}/{stolen}")  # applied, under its own name
    await rig.gateway.request(
        table, act(table, stolen, "alice", {"kind": "sit_out", "sitting_out": True})
    )
    assert (await rig.until_logged(table, stolen))[len(bots) :] == [stolen]
    assert (await rig.state(table)).sitting_out[0]


async def test_a_bot_that_never_answers_is_decided_for_then_replaced(rig: Rig) -> None:
    table = "t-dead-bot"
    await rig.open(table, "euchre", {"seats": 4, "target": 5}, {1: DEAD, 2: "medium", 3: "medium"})
    g = game("euchre")
    dead = (await rig.state(table)).players[1]
    assert dead.bot == DEAD
    for _ in range(400):  # a game of defaults to 5 points is far shorter
        if g.phase(await rig.state(table)) == "ended":
            break
        await rig.time_out(table)
    state = await rig.state(table)
    assert g.phase(state) == "ended"
    events = await rig.store.events(table)
    # The dead bot was decided for twice running (away, as a person would be), then its
    # seat went to the filling bot, who played on to the game's end.
    timed_out = [e["seat"] for e in events if e["kind"] == "timed_out"]
    assert timed_out.count(1) >= 2
    replacement = state.players[1]
    assert replacement.bot == "medium" and replacement.id != dead.id
    assert "game_ended" in [e["kind"] for e in events]
    actions = await logged(rig.store, table)
    assert [a for a in actions if a.startswith("replace")] == [
        a for a in actions if a.startswith(("replace:1:", "replace-bot:1:"))
    ]  # the filling bots at seats 2 and 3 are kept
