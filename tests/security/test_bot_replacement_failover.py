"""A bot that stops answering leaves its seat at the hand's end and a fresh filling bot takes
it, and a worker that takes the table over in between does the same: the seat waiting for the
replacement is in the table's state (its log), not in the first worker's memory.

Before, the seats waiting were remembered only by the worker that made the bot leave: after a
failover, Swick left the seat empty, and Euchre and Contract Whist filled it under the old bot's
id (``bot:<table>:<seat>``), one wallet for two bots' chips.

Over the embedded mode's parts (real table workers, the in-memory bus, one SQLite file), on a
clock the test moves; the table's ticks are sent by the test, as a worker's timer would."""

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
from shared.bus import Topology
from shared.games.lifecycle import AddBot, Leave, Player
from shared.games.registry import game
from shared.memory_bus import MemoryBus
from shared.sqlite import Database
from tests.clock import Clock
from tests.engine.support import Table
from tests.security.table_driver import NEVER_ABANDONED, WITHIN, TableDriver

DEAD = "t-dead"  # a registered bot whose service never answers
STEPS = 600  # timeouts a short game of defaults takes, with room to spare


class Rig(TableDriver):
    def __init__(self, db: Database, bus: MemoryBus, clock: Clock) -> None:
        super().__init__(bus, SqliteTableStore(db), clock)
        self.ledger = SqliteLedger(db, 4000)

    @contextlib.asynccontextmanager
    async def worker(self) -> AsyncIterator[None]:
        """A table worker on the shared store and clock; stopped (its leases given up) after
        the block, as one replaced in a deployment."""
        worker = TableWorker(
            self.bus.as_user(self.bus.topology.user("table")),
            self.store,
            LocalWallets(self.ledger),
            lease_ttl=30,
            tick=0.05,
            abandon_after=NEVER_ABANDONED,
            clock=self.clock,
        )
        running = asyncio.create_task(worker.run())
        try:
            await asyncio.wait_for(worker.ready.wait(), WITHIN)
            yield
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    db = await Database.open(tmp_path / "swick.sqlite3")
    try:
        rig = Rig(db, MemoryBus(Topology("failover", 4)), Clock())
        await rig.store.migrate(4)
        for name in ("medium", DEAD):
            await rig.store.register_bot(name, "swick")
        await rig.ledger.migrate()
        yield rig
    finally:
        await db.close()


def leaving_dead_bot(state: Any) -> int | None:
    """The seat of a dead bot that is to leave at the hand's end, if one is."""
    return next(
        (
            seat
            for seat, player in enumerate(state.players)
            if player is not None and player.bot == DEAD and state.leaving[seat]
        ),
        None,
    )


GAMES = [
    ("euchre", {"seats": 4, "target": 5}, {1: DEAD, 2: "medium", 3: "medium"}),
    ("contract-whist", {"seats": 3, "rounds": 3}, {1: DEAD, 2: "medium"}),
]
# Swick deals no hand to a bot that never answers (it never readies), so such a bot leaves at
# once, in the request that seats its replacement too: the Swick case is the engine's below.


@pytest.mark.parametrize(("name", "settings", "bots"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_new_worker_seats_the_replacement_under_a_fresh_id(
    rig: Rig, name: str, settings: dict[str, Any], bots: dict[int, str]
) -> None:
    table = f"t-failover-{name}"
    g = game(name)
    async with rig.worker():
        await rig.open(table, name, settings, bots)
        # The dead bots are decided for until one, away, is to leave at the hand's end.
        for _ in range(STEPS):
            state = await rig.state(table)
            if (seat := leaving_dead_bot(state)) is not None:
                break
            assert not any(p is None for p in state.players), "a dead bot left without the gap"
            await rig.time_out(table)
        else:
            pytest.fail("no dead bot was made to leave")
    dead = state.players[seat]
    # The first worker is gone; a second one takes the table over from its log.
    async with rig.worker():
        for _ in range(STEPS):
            state = await rig.state(table)
            if state.players[seat] is not None and state.players[seat].bot == "medium":
                break
            await rig.time_out(table)
        replacement = state.players[seat]
        assert replacement is not None and replacement.bot == "medium"
        assert replacement.id.startswith(f"bot:{table}:{seat}:") and replacement.id != dead.id
        for _ in range(STEPS):
            state = await rig.state(table)
            if g.phase(state) == "ended":
                break
            await rig.time_out(table)
        assert g.phase(state) == "ended"
    events = await rig.store.events(table)
    taken = [e for e in events if e["kind"] == "seat_taken" and e["seat"] == seat]
    assert [e["player"]["id"] for e in taken] == [dead.id, replacement.id]  # no other bot sat there


def test_swick_the_seat_a_bot_left_is_in_the_state_a_worker_loads() -> None:
    t = Table(seats=4, timer_ms=30_000)
    t.act(3, Leave())
    t.act(0, AddBot(3, Player("bot:t:3", "Bot", DEAD), 10_000))
    t.start()
    t.ready_all()
    t.act(3, Leave())  # the table's leave for the bot: dealt in, it plays the hand out
    assert not t.state.left_by_bots
    while t.state.players[3] is not None:
        t.expire()
    assert t.state.left_by_bots == (3,)
    # What a worker taking the table over loads: a snapshot, or the events replayed.
    swick = game("swick")
    assert swick.left_by_bots(swick.load_state(swick.dump_state(t.state))) == (3,)
    assert t.replay(t.events).left_by_bots == (3,)
    t.act(2, Leave())  # a person leaving is not replaced by a bot
    assert t.state.left_by_bots == (3,)
    t.act(0, AddBot(3, Player("bot:t:3:9", "Bot", "medium"), 10_000))
    assert not t.state.left_by_bots
