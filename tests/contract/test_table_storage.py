"""The contract of ``TableStorage``, one suite run against PostgreSQL and SQLite.

Tables, the log and its snapshots, fencing (a stale epoch or another owner writes nothing),
duplicate actions, one seat per player, departures, the outbox, leases, heartbeats and the
operators' overview.

Shard leases are one global namespace (the session's database has exactly the running
cluster's shards, held by its workers, and its operator page lists them all), so the
PostgreSQL store here is a database of this module, created and dropped around it; each test
still takes ids and shards of its own. Tests of counts over everything (workers, the
overview) get a database of their own.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from services.load.platform import fresh_database
from services.table.storage import (
    Append,
    DuplicateAction,
    Fenced,
    GameRecordRow,
    HistoryCursor,
    SeatConflict,
    TableRow,
    TableStorage,
    TooManyTables,
    Winner,
    Write,
)
from services.table.store import TableStore, connect_pool
from services.table.store_sqlite import SqliteTableStore
from shared.settings import Settings
from shared.tables_read import PlayerResult
from tests.contract.conftest import of_each_backend, uid

FIRST_SHARD = 0
NO_SHARD = -1  # a shard without a lease row
_shards = itertools.count(FIRST_SHARD)
TTL = 30.0


# Stores.


@asynccontextmanager
async def postgres_store(
    settings: Settings, shards: int, pool_size: int
) -> AsyncIterator[TableStore]:
    """A migrated PostgreSQL store (``shards`` lease rows) in a database of its own."""
    async with fresh_database(settings.database_url) as dsn:
        pool = await connect_pool(dsn, size=pool_size)
        try:
            store = TableStore(pool)
            await store.migrate(shards)
            yield store
        finally:
            await pool.close()


@asynccontextmanager
async def sqlite_store(path: Path, shards: int) -> AsyncIterator[SqliteTableStore]:
    """A migrated SQLite store (``shards`` lease rows) in the file at ``path``."""
    store = await SqliteTableStore.open(path)
    try:
        await store.migrate(shards)
        yield store
    finally:
        await store.close()


@pytest.fixture(scope="module")
async def postgres_table_store(settings: Settings) -> AsyncIterator[TableStorage]:
    async with postgres_store(settings, 8, pool_size=4) as store:
        await store.migrate(8)  # again: nothing to do
        yield store


@pytest.fixture
async def sqlite_table_store(tmp_path: Path) -> AsyncIterator[TableStorage]:
    async with sqlite_store(tmp_path / "swick.db", 8) as store:
        await store.migrate(8)  # again: nothing to do
        yield store


# The store of one backend, shared with this module's tests (so: ids and shards of our own).
store = of_each_backend("table_store")


@pytest.fixture
async def postgres_own_table_store(settings: Settings) -> AsyncIterator[TableStorage]:
    async with postgres_store(settings, 4, pool_size=2) as store:
        yield store


@pytest.fixture
async def sqlite_own_table_store(tmp_path: Path) -> AsyncIterator[TableStorage]:
    async with sqlite_store(tmp_path / "own.db", 4) as store:
        yield store


# A store in a database of its own (for counts over everything).
own_store = of_each_backend("own_table_store")


# Helpers.


async def new_shard(store: TableStorage) -> int:
    """A shard nobody else uses, with its (free) lease row."""
    shard = next(_shards)
    await store.migrate(shard + 1)
    return shard


def new_row(
    shard: int, *, private: bool = True, phase: str = "lobby", table_id: str | None = None
) -> TableRow:
    return TableRow(
        table_id=table_id or uid("t"),
        game="swick",
        shard=shard,
        config={"seats": 4, "antes": [3, 6], "timer_ms": 30_000, "extra": {"a": [1, None]}},
        private=private,
        invite_code=uid("inv"),
        seq=0,
        phase=phase,
        seats=[None, {"id": "p", "name": "Pat"}, None, None],
        deadline=None,
    )


def write(
    seq: int,
    *,
    action: str | None = None,
    snapshot: Any | None = None,
    posting: bool = False,
    claims: Sequence[tuple[str, int]] = (),
    releases: Sequence[str] = (),
    phase: str = "play",
) -> Write:
    return Write(
        seq=seq,
        action_id=action or f"a{seq}",
        events=[{"kind": "e", "seq": seq, "n": 1}, {"kind": "f", "seq": seq, "n": 2}],
        phase=phase,
        seats=[{"id": f"p{seq}", "name": "Pat", "stack": seq}, None],
        deadline=1_700_000_000_000 + seq,
        snapshot=snapshot,
        posting=(lambda number: {"posting_no": number, "seq": seq}) if posting else None,
        seat_claims=claims,
        seat_releases=releases,
    )


async def leased_table(store: TableStorage, *, phase: str = "lobby") -> tuple[TableRow, str, int]:
    """A new table on a new shard whose lease we hold: (row, owner, epoch)."""
    shard = await new_shard(store)
    owner = uid("w")
    epoch = await store.acquire(shard, owner, TTL)
    assert epoch is not None
    row = new_row(shard, phase=phase)
    assert await store.create(row)
    return row, owner, epoch


async def outbox_of(store: TableStorage, shard: int) -> list[tuple[int, Any]]:
    await asyncio.sleep(0.01)
    return await store.outbox([shard], older_than=0.0)


# Tables.


async def test_create_then_read_by_id_and_invite(store: TableStorage) -> None:
    shard = await new_shard(store)
    row = new_row(shard)
    assert await store.create(row)
    assert await store.table(row.table_id) == row
    assert await store.by_invite(row.invite_code) == row
    assert await store.table(uid("missing")) is None
    assert await store.by_invite(uid("missing")) is None
    # The same id, or the same invite code, is refused and changes nothing.
    again = new_row(shard, table_id=row.table_id)
    assert not await store.create(again)
    assert await store.by_invite(again.invite_code) is None
    clash = replace(new_row(shard), invite_code=row.invite_code)
    assert not await store.create(clash)
    assert await store.table(clash.table_id) is None
    assert await store.by_invite(row.invite_code) == row


async def test_a_host_opens_at_most_the_limit_of_tables_even_all_at_once(
    store: TableStorage,
) -> None:
    shard, host, other = await new_shard(store), uid("host"), uid("host")
    rows = [replace(new_row(shard), host_id=host) for _ in range(20)]
    outcomes = await asyncio.gather(
        *(store.create(row, host_limit=3) for row in rows), return_exceptions=True
    )
    assert sum(outcome is True for outcome in outcomes) == 3
    assert all(isinstance(o, TooManyTables) for o in outcomes if o is not True)
    created = [row for row, outcome in zip(rows, outcomes, strict=True) if outcome is True]
    refused = [row for row, outcome in zip(rows, outcomes, strict=True) if outcome is not True]
    for row in refused:
        assert await store.table(row.table_id) is None  # nothing written
    assert await store.table(created[0].table_id) == created[0]
    # A redelivered creation of a table that exists is "exists", not "too many".
    assert not await store.create(created[0], host_limit=3)
    # Another host is not limited by this one; without a limit nothing is counted.
    assert await store.create(replace(new_row(shard), host_id=other), host_limit=3)
    assert await store.create(replace(new_row(shard), host_id=host))
    # A closed table no longer counts.
    owner = uid("w")
    epoch = await store.acquire(shard, owner, TTL)
    assert epoch is not None
    await store.append(created[0].table_id, shard, owner, epoch, write(1, phase="closed"))
    await store.append(created[1].table_id, shard, owner, epoch, write(1, phase="closed"))
    assert await store.create(replace(new_row(shard), host_id=host), host_limit=3)
    with pytest.raises(TooManyTables):
        await store.create(replace(new_row(shard), host_id=host), host_limit=3)


async def test_game_records_are_stored_once_and_read_back_byte_for_byte(
    store: TableStorage,
) -> None:
    row = new_row(await new_shard(store))
    assert await store.create(row)
    assert await store.game_record(row.table_id, 1) is None
    # Text as built, not re-serialized JSON: spacing, key order and escapes stay as they are.
    text = '{"seed":"ab12","hands":[{"z":1,"a":"\\u2660 ♠"}] ,"algorithm":"x"}'
    first = GameRecordRow(row.table_id, 1, text, ("p-1", "p-2"))
    await store.save_record(first)
    assert await store.game_record(row.table_id, 1) == first
    # A record stored already is kept: the same game built again changes nothing.
    await store.save_record(GameRecordRow(row.table_id, 1, "{}", ()))
    assert await store.game_record(row.table_id, 1) == first
    assert await store.game_record(row.table_id, 2) is None
    second = GameRecordRow(row.table_id, 2, "{}", ())
    await store.save_record(second)
    assert await store.game_record(row.table_id, 2) == second
    assert await store.game_record(uid("missing"), 1) is None


async def test_game_replays_are_stored_once_and_read_back_byte_for_byte(
    store: TableStorage,
) -> None:
    row = new_row(await new_shard(store))
    assert await store.create(row)
    assert await store.game_replay(row.table_id, 1) is None
    packed = bytes(range(256)) * 3  # any bytes: gzip output holds every value
    await store.save_replay(row.table_id, 1, packed)
    assert await store.game_replay(row.table_id, 1) == packed
    await store.save_replay(row.table_id, 1, b"again")  # one stored already is kept
    assert await store.game_replay(row.table_id, 1) == packed
    assert await store.game_replay(row.table_id, 2) is None


async def test_the_lobby_lists_public_tables_in_play_latest_first(store: TableStorage) -> None:
    shard = await new_shard(store)
    owner = uid("w")
    epoch = await store.acquire(shard, owner, TTL)
    assert epoch is not None
    first, second, hidden, closed, over = (
        new_row(shard, private=False),
        new_row(shard, private=False),
        new_row(shard),
        new_row(shard, private=False, phase="closed"),
        new_row(shard, private=False, phase="ended"),  # its game is over: nothing to join
    )
    for row in (first, second, hidden, closed, over):
        assert await store.create(row)
        await asyncio.sleep(0.002)
    mine = {row.table_id for row in (first, second, hidden, closed, over)}

    async def listed() -> list[str]:
        return [row.table_id for row in await store.lobby() if row.table_id in mine]

    assert await listed() == [second.table_id, first.table_id]
    # A write moves a table up; closing it takes it out.
    await store.append(first.table_id, shard, owner, epoch, write(1))
    assert await listed() == [first.table_id, second.table_id]
    await store.append(second.table_id, shard, owner, epoch, write(1, phase="ended"))
    assert await listed() == [first.table_id]
    assert len(await store.lobby(limit=1)) == 1
    await store.append(first.table_id, shard, owner, epoch, write(2, phase="closed"))
    assert await listed() == []


async def test_live_tables_are_those_of_the_shard_not_closed(store: TableStorage) -> None:
    shard, other = await new_shard(store), await new_shard(store)
    rows = {phase: new_row(shard, phase=phase) for phase in ("lobby", "ante", "play", "ended")}
    rows["closed"] = new_row(shard, phase="closed")
    elsewhere = new_row(other, phase="play")
    for row in [*rows.values(), elsewhere]:
        assert await store.create(row)
    live = await store.live_tables(shard)
    assert sorted(live) == sorted(row.table_id for phase, row in rows.items() if phase != "closed")
    assert await store.live_tables(other) == [elsewhere.table_id]


# The log.


async def test_append_then_load_replays_from_the_latest_snapshot(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    assert await store.load(uid("missing")) is None
    stored = await store.load(row.table_id)
    assert stored is not None
    assert (stored.row, stored.snapshot, stored.batches) == (row, None, [])
    for seq in range(1, 8):
        snapshot = {"state": seq, "deep": [{"x": seq}]} if seq in (3, 5) else None
        queued = await store.append(
            row.table_id, row.shard, owner, epoch, write(seq, snapshot=snapshot)
        )
        assert queued is None  # no posting, nothing queued
        if seq == 2:
            stored = await store.load(row.table_id)
            assert stored is not None
            assert stored.snapshot is None
            assert [seq for seq, _ in stored.batches] == [1, 2]
    stored = await store.load(row.table_id)
    assert stored is not None
    assert stored.snapshot == {"state": 5, "deep": [{"x": 5}]}
    assert stored.batches == [(6, write(6).events), (7, write(7).events)]
    last = write(7)
    assert stored.row == replace(
        row, seq=7, phase=last.phase, seats=last.seats, deadline=last.deadline
    )
    assert await store.table(row.table_id) == stored.row
    assert await store.events(row.table_id) == [e for s in range(1, 8) for e in write(s).events]
    assert await store.events(uid("missing")) == []


async def test_load_back_replays_from_an_earlier_snapshot(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    for seq in range(1, 8):
        snapshot = {"state": seq} if seq in (3, 5) else None
        await store.append(row.table_id, row.shard, owner, epoch, write(seq, snapshot=snapshot))
    latest = await store.load(row.table_id, back=1)
    assert latest is not None and latest.snapshot == {"state": 5}
    earlier = await store.load(row.table_id, back=2)
    assert earlier is not None and earlier.snapshot == {"state": 3}
    assert [seq for seq, _ in earlier.batches] == [4, 5, 6, 7]
    assert earlier.row == latest.row
    everything = await store.load(row.table_id, back=3)  # fewer snapshots: the whole log
    assert everything is not None and everything.snapshot is None
    assert [seq for seq, _ in everything.batches] == list(range(1, 8))


# Fencing.


async def assert_untouched(store: TableStorage, row: TableRow, seq: int, events: int) -> None:
    """Nothing of a refused write is there: the log, the summary, seats, the outbox."""
    stored = await store.load(row.table_id)
    assert stored is not None
    assert stored.row.seq == seq
    assert len(await store.events(row.table_id)) == events
    assert await outbox_of(store, row.shard) == []


async def test_a_stale_epoch_or_another_owner_writes_nothing(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    player = uid("p")
    await store.append(row.table_id, row.shard, owner, epoch, write(1))
    full = write(2, snapshot={"s": 2}, posting=True, claims=[(player, 0)])
    # Another owner, with or without the right epoch.
    for stranger, at in ((uid("w"), epoch), (uid("w"), epoch + 1)):
        with pytest.raises(Fenced):
            await store.append(row.table_id, row.shard, stranger, at, full)
    # The lease taken again (even by the same owner) bumps the epoch: the old one is stale.
    newer = await store.acquire(row.shard, owner, TTL)
    assert newer == epoch + 1
    with pytest.raises(Fenced):
        await store.append(row.table_id, row.shard, owner, epoch, full)
    # Taken over by another worker after the lease expired.
    await store.release(owner, row.shard)
    thief = uid("w")
    stolen = await store.acquire(row.shard, thief, TTL)
    assert stolen == epoch + 2
    with pytest.raises(Fenced):
        await store.append(row.table_id, row.shard, owner, newer, full)
    # A shard without a lease row fences everyone.
    with pytest.raises(Fenced):
        await store.append(row.table_id, NO_SHARD, owner, epoch, full)
    await assert_untouched(store, row, seq=1, events=2)
    assert await store.seat_of(player) is None
    stored = await store.load(row.table_id)
    assert stored is not None
    assert stored.snapshot is None
    # The new owner writes.
    queued = await store.append(row.table_id, row.shard, thief, stolen, full)
    assert queued is not None
    assert queued[1] == {"posting_no": 1, "seq": 2}
    assert await store.seat_of(player) == (row.table_id, 0)


async def test_a_batch_writes_every_table_in_order_in_one_go(store: TableStorage) -> None:
    first, owner, epoch = await leased_table(store)
    second = new_row(first.shard)
    assert await store.create(second)
    queued = await store.append_batch(
        owner,
        [
            Append(first.table_id, first.shard, epoch, write(1)),
            Append(second.table_id, second.shard, epoch, write(1, posting=True)),
            Append(first.table_id, first.shard, epoch, write(2, posting=True)),
        ],
    )
    assert queued[0] is None
    assert queued[1] is not None and queued[1][1] == {"posting_no": 1, "seq": 1}
    assert queued[2] is not None and queued[2][1] == {"posting_no": 1, "seq": 2}
    assert [q[0] for q in await outbox_of(store, first.shard)] == [queued[1][0], queued[2][0]]
    assert (await store.table(first.table_id) or first).seq == 2
    assert len(await store.events(first.table_id)) == 4
    assert (await store.table(second.table_id) or second).seq == 1


@pytest.mark.parametrize("fault", ["duplicate", "fenced", "seat"])
async def test_a_batch_with_one_bad_write_writes_nothing(store: TableStorage, fault: str) -> None:
    row, owner, epoch = await leased_table(store)
    other, other_owner, other_epoch = await leased_table(store)
    player, seated = uid("p"), uid("p")
    await store.append(row.table_id, row.shard, owner, epoch, write(1, action="same"))
    await store.append(
        other.table_id, other.shard, other_owner, other_epoch, write(1, claims=[(seated, 0)])
    )
    bad = {
        "duplicate": Append(row.table_id, row.shard, epoch, write(3, action="same")),
        "fenced": Append(other.table_id, other.shard, other_epoch, write(2)),  # not its owner
        "seat": Append(row.table_id, row.shard, epoch, write(3, claims=[(seated, 1)])),
    }[fault]
    with pytest.raises(
        {"duplicate": DuplicateAction, "fenced": Fenced, "seat": SeatConflict}[fault]
    ):
        await store.append_batch(
            owner,
            [
                Append(
                    row.table_id, row.shard, epoch, write(2, posting=True, claims=[(player, 1)])
                ),
                bad,
            ],
        )
    await assert_untouched(store, row, seq=1, events=2)
    assert await store.seat_of(player) is None


async def test_an_expired_lease_nobody_took_still_writes(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    await store.release(owner, row.shard)
    await store.append(row.table_id, row.shard, owner, epoch, write(1))
    assert (await store.table(row.table_id) or row).seq == 1


async def test_a_seq_written_already_is_fenced(store: TableStorage) -> None:
    """Another worker wrote this seq: fenced, whether or not the action id is the same."""
    row, owner, epoch = await leased_table(store)
    await store.append(row.table_id, row.shard, owner, epoch, write(1, action="x"))
    for action in ("y", "x"):
        with pytest.raises(Fenced):
            await store.append(
                row.table_id, row.shard, owner, epoch, write(1, action=action, posting=True)
            )
    await assert_untouched(store, row, seq=1, events=2)


async def test_a_repeated_action_id_is_a_duplicate(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    player = uid("p")
    await store.append(row.table_id, row.shard, owner, epoch, write(1, action="same"))
    again = write(2, action="same", posting=True, claims=[(player, 1)], snapshot={"s": 2})
    with pytest.raises(DuplicateAction):
        await store.append(row.table_id, row.shard, owner, epoch, again)
    await assert_untouched(store, row, seq=1, events=2)
    assert await store.seat_of(player) is None
    # The same action id at another table is another action.
    other = new_row(row.shard)
    assert await store.create(other)
    await store.append(other.table_id, row.shard, owner, epoch, write(1, action="same"))
    # And the table goes on with a new one.
    await store.append(row.table_id, row.shard, owner, epoch, write(2, action="new"))
    assert (await store.table(row.table_id) or row).seq == 2


# Seats.


async def test_a_player_holds_one_seat_over_all_tables(store: TableStorage) -> None:
    here, owner, epoch = await leased_table(store)
    there = new_row(here.shard)
    assert await store.create(there)
    ann, bob = uid("ann"), uid("bob")
    await store.append(here.table_id, here.shard, owner, epoch, write(1, claims=[(ann, 0)]))
    assert await store.seat_of(ann) == (here.table_id, 0)
    assert await store.seat_of(bob) is None
    # Ann cannot sit there too, and nothing of that write happens (Bob stays unseated).
    with pytest.raises(SeatConflict):
        await store.append(
            there.table_id,
            there.shard,
            owner,
            epoch,
            write(1, claims=[(bob, 0), (ann, 1)], posting=True),
        )
    await assert_untouched(store, there, seq=0, events=0)
    assert await store.seat_of(bob) is None
    # Nor twice at the same table.
    with pytest.raises(SeatConflict):
        await store.append(here.table_id, here.shard, owner, epoch, write(2, claims=[(ann, 3)]))
    # Moving seats at one table: released, then claimed, in one write.
    await store.append(
        here.table_id, here.shard, owner, epoch, write(2, releases=[ann], claims=[(ann, 2)])
    )
    assert await store.seat_of(ann) == (here.table_id, 2)
    # Once she left, she may sit there.
    await store.append(here.table_id, here.shard, owner, epoch, write(3, releases=[ann]))
    assert await store.seat_of(ann) is None
    await store.append(there.table_id, there.shard, owner, epoch, write(1, claims=[(ann, 1)]))
    assert await store.seat_of(ann) == (there.table_id, 1)


async def test_departures_remember_the_posting_that_settled_a_player(
    store: TableStorage,
) -> None:
    row, owner, epoch = await leased_table(store)
    other = new_row(row.shard)
    assert await store.create(other)
    ann, bob = uid("ann"), uid("bob")
    assert await store.departure(ann) is None
    await store.append(
        row.table_id, row.shard, owner, epoch, write(1, claims=[(ann, 0), (bob, 1)], posting=True)
    )
    await store.append(row.table_id, row.shard, owner, epoch, write(2, posting=True))
    # Ann leaves in the command that makes the table's third posting (her last hand settled):
    # her departure points at that posting.
    queued = await store.append(
        row.table_id, row.shard, owner, epoch, write(3, releases=[ann], posting=True)
    )
    assert queued is not None
    assert queued[1]["posting_no"] == 3
    assert await store.departure(ann) == (row.table_id, 3)
    assert await store.departure(bob) is None
    # Without a posting: the table's last one; a later departure from another table replaces it.
    await store.append(row.table_id, row.shard, owner, epoch, write(4, releases=[bob]))
    assert await store.departure(bob) == (row.table_id, 3)
    await store.append(other.table_id, other.shard, owner, epoch, write(1, claims=[(ann, 0)]))
    await store.append(other.table_id, other.shard, owner, epoch, write(2, releases=[ann]))
    assert await store.departure(ann) == (other.table_id, 0)


# The outbox.


async def test_postings_are_numbered_and_queued_until_sent(store: TableStorage) -> None:
    row, owner, epoch = await leased_table(store)
    other = new_row(row.shard)
    assert await store.create(other)
    queued = []
    for seq in range(1, 5):
        result = await store.append(
            row.table_id, row.shard, owner, epoch, write(seq, posting=seq != 2)
        )
        assert (result is None) == (seq == 2)
        if result is not None:
            queued.append(result)
    assert [body for _, body in queued] == [
        {"posting_no": 1, "seq": 1},
        {"posting_no": 2, "seq": 3},
        {"posting_no": 3, "seq": 4},
    ]
    ids = [outbox_id for outbox_id, _ in queued]
    assert ids == sorted(ids)
    assert len(set(ids)) == 3
    assert await outbox_of(store, row.shard) == queued
    # Only postings older than asked for, only of the shards asked for.
    assert await store.outbox([row.shard], older_than=3600.0) == []
    assert await store.outbox([NO_SHARD], older_than=0.0) == []
    # The other table numbers its own postings.
    extra = await store.append(other.table_id, row.shard, owner, epoch, write(1, posting=True))
    assert extra is not None
    assert extra[1] == {"posting_no": 1, "seq": 1}
    await store.sent([ids[0], ids[2]])
    await store.sent([])
    await store.sent([ids[0]])  # gone already: ignored
    assert await outbox_of(store, row.shard) == [queued[1], extra]
    await store.sent([queued[1][0], extra[0]])
    assert await outbox_of(store, row.shard) == []
    # Ids only grow, even after the newest was taken out.
    later = await store.append(row.table_id, row.shard, owner, epoch, write(5, posting=True))
    assert later is not None
    assert later[0] > extra[0]
    assert later[1] == {"posting_no": 4, "seq": 5}


# Leases and workers.


async def test_a_lease_goes_to_one_owner_at_a_time(store: TableStorage) -> None:
    shard = await new_shard(store)
    ann, bob = uid("ann"), uid("bob")
    assert await store.acquire(NO_SHARD, ann, TTL) is None  # no such shard
    assert await store.acquire(shard, ann, TTL) == 1
    assert await store.acquire(shard, ann, TTL) == 2  # taken again: a new epoch
    assert await store.acquire(shard, bob, TTL) is None
    assert await store.renew(ann, {shard: 2}, TTL) == {shard}
    assert await store.renew(ann, {shard: 1}, TTL) == set()  # a stale epoch
    assert await store.renew(bob, {shard: 2}, TTL) == set()
    assert await store.renew(ann, {}, TTL) == set()
    await store.release(bob, shard)  # not his: nothing happens
    assert await store.acquire(shard, bob, TTL) is None
    await store.release(ann, shard)
    assert await store.acquire(shard, bob, TTL) == 3
    assert await store.renew(ann, {shard: 2}, TTL) == set()
    assert await store.acquire(shard, ann, TTL) is None


async def test_leases_expire_unless_renewed(store: TableStorage) -> None:
    mine, kept = await new_shard(store), await new_shard(store)
    ann, bob = uid("ann"), uid("bob")
    assert await store.acquire(mine, ann, 0.3) == 1
    assert await store.acquire(kept, ann, 0.3) == 1
    await asyncio.sleep(0.15)
    assert await store.renew(ann, {kept: 1}, 1.0) == {kept}
    assert await store.acquire(mine, bob, TTL) is None
    await asyncio.sleep(0.3)
    assert await store.acquire(mine, bob, TTL) == 2  # expired
    assert await store.acquire(kept, bob, TTL) is None  # renewed
    # Expired but not taken by anyone: still renewable.
    await asyncio.sleep(0.8)
    assert await store.renew(ann, {mine: 1, kept: 1}, TTL) == {kept}


async def test_heartbeats_count_live_workers_and_leave_frees_leases(
    own_store: TableStorage,
) -> None:
    store = own_store
    ann, bob = uid("ann"), uid("bob")
    assert await store.heartbeat(ann, 10.0) == 1
    assert await store.heartbeat(bob, 10.0) == 2
    assert await store.heartbeat(ann, 10.0) == 2
    await asyncio.sleep(0.3)
    assert await store.heartbeat(ann, 0.2) == 1  # Bob was not seen that recently
    assert await store.heartbeat(ann, 10.0) == 2
    assert await store.acquire(0, bob, TTL) == 1
    assert await store.acquire(1, bob, TTL) == 1
    assert await store.acquire(2, ann, TTL) == 1
    await store.leave(bob)
    assert await store.heartbeat(ann, 10.0) == 1
    assert await store.acquire(0, ann, TTL) == 2
    assert await store.acquire(1, ann, TTL) == 2
    await store.leave(uid("nobody"))
    assert await store.renew(ann, {0: 2, 1: 2, 2: 1}, TTL) == {0, 1, 2}


async def test_the_overview_shows_live_tables_shards_and_workers(own_store: TableStorage) -> None:
    store = own_store
    assert await store.overview() == {
        "tables": [],
        "shards": [{"shard": k, "owner": None, "epoch": 0, "live": False} for k in range(4)],
        "workers": [],
    }
    assert await store.heartbeat("w-b", 10.0) == 1
    assert await store.heartbeat("w-a", 10.0) == 2
    assert await store.acquire(1, "w-a", TTL) == 1
    assert await store.acquire(2, "w-b", TTL) == 1
    await store.release("w-b", 2)
    rows = {phase: new_row(1, phase=phase) for phase in ("lobby", "ante", "play", "ended")}
    for row in rows.values():
        assert await store.create(row)
        await asyncio.sleep(0.002)
    seats = [None, {"id": "p1", "name": "Pat"}, {"id": "p2", "name": "Sam"}]
    await store.append(
        rows["ante"].table_id, 1, "w-a", 1, replace(write(1, phase="play"), seats=seats)
    )
    overview = await store.overview()
    assert [t["table_id"] for t in overview["tables"]] == [
        rows["ante"].table_id,
        rows["play"].table_id,
    ]
    latest = overview["tables"][0]
    assert {k: v for k, v in latest.items() if k != "updated_at"} == {
        "table_id": rows["ante"].table_id,
        "phase": "play",
        "seq": 1,
        "shard": 1,
        "private": True,
        "players": ["Pat", "Sam"],
    }
    updated = datetime.fromisoformat(latest["updated_at"])
    assert updated.utcoffset() == timedelta(0)
    assert abs((datetime.now(UTC) - updated).total_seconds()) < 60
    assert overview["shards"] == [
        {"shard": 0, "owner": None, "epoch": 0, "live": False},
        {"shard": 1, "owner": "w-a", "epoch": 1, "live": True},
        {"shard": 2, "owner": "w-b", "epoch": 1, "live": False},
        {"shard": 3, "owner": None, "epoch": 0, "live": False},
    ]
    assert [w["worker_id"] for w in overview["workers"]] == ["w-a", "w-b"]
    assert all(0 <= w["seen_s_ago"] < 5 for w in overview["workers"])


# Bot accounts.


async def test_a_bot_name_is_registered_once(store: TableStorage) -> None:
    name = uid("bot")
    assert await store.bot_account(name) is None
    assert await store.register_bot(name, "Ada")
    assert not await store.register_bot(name, "Mallory")  # taken: the first owner keeps it
    account = await store.bot_account(name)
    assert account is not None
    assert (account.name, account.owner) == (name, "Ada")
    assert datetime.fromisoformat(account.created_at).tzinfo is not None
    assert name in [a.name for a in await store.bot_accounts()]


async def test_bot_accounts_are_listed_by_name(own_store: TableStorage) -> None:
    for name in ("zeta", "alpha", "mu"):
        assert await own_store.register_bot(name, "ops")
    assert [a.name for a in await own_store.bot_accounts()] == ["alpha", "mu", "zeta"]


async def test_games_won_count_ranked_wins_of_people_once_per_opponents_and_day(
    store: TableStorage,
) -> None:
    shard = await new_shard(store)
    euchre = replace(new_row(shard), game="euchre")
    other = replace(new_row(shard), game="contract-whist")
    assert await store.create(euchre) and await store.create(other)
    ann, ben, bot = uid("ann"), uid("ben"), uid("bot")
    since = datetime.now(UTC).timestamp() - 5
    pair = (Winner(ann, "Ann", False), Winner(bot, "Robo", True))
    beaten = tuple(sorted((ben, "bot:easy")))
    first = GameRecordRow(euchre.table_id, 1, "{}", (ann, ben, bot), pair, beaten, True)
    await store.save_record(first)
    assert await store.game_record(euchre.table_id, 1) == first
    await store.save_record(
        GameRecordRow(euchre.table_id, 2, "{}", (ann,), pair[:1], ("bot:hard",), True)
    )
    # The same opponents again the same day, and a game too short to rank: neither counts.
    await store.save_record(GameRecordRow(euchre.table_id, 3, "{}", (ann,), pair, beaten, True))
    await store.save_record(GameRecordRow(euchre.table_id, 4, "{}", (ann,), pair, ("x",)))
    await store.save_record(GameRecordRow(euchre.table_id, 5, "{}", (ann,), ()))  # cut short
    await store.save_record(
        GameRecordRow(other.table_id, 1, "{}", (ben,), (Winner(ben, "Ben", False),), (), True)
    )
    mine = {ann, ben, bot}
    won = [row for row in await store.games_won("euchre", since, 1000) if row["player_id"] in mine]
    # Ann's bot partner won with her, but bots are on no people's board.
    assert won == [{"player_id": ann, "name": "Ann", "bot": False, "won": 2}]
    whist = await store.games_won("contract-whist", since, 1000)
    assert [row for row in whist if row["player_id"] in mine] == [
        {"player_id": ben, "name": "Ben", "bot": False, "won": 1}
    ]
    assert not [r for r in await store.games_won("swick", since, 1000) if r["player_id"] in mine]
    later = datetime.now(UTC).timestamp() + 60
    assert not [r for r in await store.games_won("euchre", later, 1000) if r["player_id"] in mine]


def results_of(*players: tuple[str, int, str | None, int | None]) -> tuple[PlayerResult, ...]:
    """Results of a game of two sides: (player, seat, bot, place) each."""
    return tuple(
        PlayerResult(player, seat, f"name {seat}", bot, seat % 2, 5, 10 * seat, place)
        for player, seat, bot, place in players
    )


async def test_a_players_history_pages_their_games_newest_first(store: TableStorage) -> None:
    """Each player's results are stored with the record (once, however often it is saved)
    and a history reads a player's games newest first, a page at a time from a cursor, of
    one game or all, each with everyone's results by seat."""
    shard = await new_shard(store)
    euchre = replace(new_row(shard), game="euchre")
    whist = replace(new_row(shard), game="contract-whist")
    assert await store.create(euchre) and await store.create(whist)
    ann, ben = uid("ann"), uid("ben")
    games = {
        (euchre.table_id, 1): results_of((ben, 1, None, 2), (ann, 0, None, 1)),
        (euchre.table_id, 2): results_of((ann, 0, None, 2), (uid("bot"), 1, "easy", 1)),
        (whist.table_id, 1): results_of((ann, 2, None, None)),
        (whist.table_id, 2): results_of((ben, 0, None, 1)),  # not Ann's
    }
    for (table_id, game_no), results in games.items():
        record = GameRecordRow(table_id, game_no, "{}", (), results=results)
        await store.save_record(record)
        await store.save_record(record)  # a redelivered game's end: stored once
    pages, cursor = [], None
    while page := await store.games_of(ann, None, cursor, 2):
        pages.append(page)
        cursor = page[-1].cursor
    assert [len(page) for page in pages] == [2, 1]
    played = [game for page in pages for game in page]
    keys = [(g.ended_ms, g.table_id, g.game_no) for g in played]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 3
    assert {(g.table_id, g.game_no) for g in played} == set(list(games)[:3])
    for game in played:
        expected = sorted(games[game.table_id, game.game_no], key=lambda r: r.seat)
        assert game.results == tuple(expected)
        assert game.game == ("euchre" if game.table_id == euchre.table_id else "contract-whist")
    assert played[0].places == (2 if played[0].game == "euchre" else 1)
    only_whist = await store.games_of(ann, "contract-whist", None, 10)
    assert [(g.table_id, g.game_no) for g in only_whist] == [(whist.table_id, 1)]
    assert [g.game_no for g in await store.games_of(ben, "contract-whist", None, 10)] == [2]
    assert await store.games_of(uid("nobody"), None, None, 10) == []


def test_a_history_cursor_reads_back_what_it_wrote_and_refuses_other_text() -> None:
    cursor = HistoryCursor(1765149000123, "t-a.b", 3)
    assert HistoryCursor.parse(str(cursor)) == cursor
    for text in ("", "12", "x.1.t", "1.x.t", "1.2.", "-1.2.t", "1.2." + "t" * 300):
        with pytest.raises(ValueError):
            HistoryCursor.parse(text)


async def test_a_game_rates_its_players_once_on_their_ladders(store: TableStorage) -> None:
    """A finished game's first save moves its players' ratings, people and bots on ladders of
    their own; saving it again (a redelivered game's end) moves nothing; the next game starts
    from the ratings the first left."""
    shard = await new_shard(store)
    game = f"g{uid('')[-8:]}"  # a ladder of this test's own: the boards list every player
    table = replace(new_row(shard), game=game)
    assert await store.create(table)
    ann, ben = uid("ann"), uid("ben")
    first = results_of((ann, 0, None, 1), (ben, 1, None, 2), (uid("b"), 3, "hard", 2))
    record = GameRecordRow(table.table_id, 1, "{}", (), results=first)
    for _ in range(3):
        await store.save_record(record)
    people = await store.rating_board(game, "people", 10)
    assert [(r.rated, r.games) for r in people] == [(ann, 1), (ben, 1)]
    assert people[0].mu > 1500 > people[1].mu and people[0].name == "name 0"
    (bot,) = await store.rating_board(game, "bots", 10)
    assert (bot.rated, bot.name, bot.games) == ("hard", "hard", 1)
    assert [(r.game, r.games) for r in await store.ratings_of(ann)] == [(game, 1)]
    # A second game, Ben first: from where the first left them.
    second = results_of((ann, 0, None, 2), (ben, 1, None, 1))
    await store.save_record(GameRecordRow(table.table_id, 2, "{}", (), results=second))
    after = {r.rated: r for r in await store.rating_board(game, "people", 10)}
    assert after[ann].games == after[ben].games == 2
    assert after[ann].mu < people[0].mu and after[ben].mu > people[1].mu
    # A game cut short (no places) rates nobody.
    short = results_of((ann, 0, None, None), (ben, 1, None, None))
    await store.save_record(GameRecordRow(table.table_id, 3, "{}", (), results=short))
    assert {r.rated: r.games for r in await store.rating_board(game, "people", 10)} == {
        ann: 2,
        ben: 2,
    }
    assert await store.ratings_of(uid("nobody")) == []


async def test_a_players_statistics_add_up_their_games_of_one_game(store: TableStorage) -> None:
    shard = await new_shard(store)
    game = f"g{uid('')[-8:]}"
    table = replace(new_row(shard), game=game)
    assert await store.create(table)
    ann = uid("ann")
    for game_no, (place, left, made) in enumerate(((1, False, 2), (2, False, 1), (3, True, 0)), 1):
        mine = PlayerResult(ann, 0, "Ann", None, 0, 5, 0, place, left, {"made": made, "hands": 4})
        other = PlayerResult(uid("ben"), 1, "Ben", None, 1, 5, 0, 1, False, {"made": 9})
        record = GameRecordRow(table.table_id, game_no, "{}", (), results=(mine, other))
        await store.save_record(record)
        await store.save_record(record)
    stats = await store.stats_of(ann, game)
    assert (stats.game, stats.games, stats.first, stats.left) == (game, 3, 1, 1)
    assert stats.stats == {"made": 3, "hands": 12}
    nothing = await store.stats_of(ann, "swick")
    assert (nothing.games, nothing.first, nothing.left, nothing.stats) == (0, 0, 0, {})
