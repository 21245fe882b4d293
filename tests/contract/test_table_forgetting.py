"""The tables forget a deleted account's name (``TableReads.forget_player``), in both stores:
every place of the log that named them (events, snapshots, the seats summary) and the finished
game's stored record and replay say ``DELETED_PLAYER`` instead; the record still verifies and
is the same but for that name; the others' names and every id stay; asking again changes
nothing. The game is a real one, played by the Swick engine."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from services.table.storage import TableRow, TableStorage, Write
from shared.games.lifecycle import EndGame, StartGame
from shared.games.records import build_finished
from shared.games.registry import game
from shared.games.swick import SWICK
from shared.games.swick.legal import legal_actions, to_act
from shared.games.swick.state import Phase
from shared.messages import DELETED_PLAYER
from shared.settings import Settings
from tests.contract.conftest import BACKENDS, uid
from tests.contract.test_table_storage import postgres_store, sqlite_store
from tests.engine.support import Table

NAMES = ("Ysolde", "Zebediah", "Xanthe")
TTL = 30.0


@pytest.fixture(params=BACKENDS)
async def store(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[TableStorage]:
    if request.param == "postgres":
        async with postgres_store(settings, 1, pool_size=2) as pg:
            yield pg
    else:
        async with sqlite_store(tmp_path / "forget.db", 1) as lite:
            yield lite


def played(ids: list[str]) -> list[Any]:
    """The events (as JSON) of a three-seat Swick game played to its end by random legal moves,
    its players given ``ids`` and ``NAMES``."""
    table = Table(3, stack=100_000)
    table.act(0, StartGame(bytes(32).hex()))
    rng = random.Random(5)
    for _ in range(3000):
        s = table.state
        if s.phase in (Phase.ANTE, Phase.READY) and s.hand_no >= 2 and s.carry == 0:
            break
        seat = to_act(s)[0]
        table.act(seat, rng.choice([o.action for o in legal_actions(s, seat) if o.legal]))
    table.act(table.state.host, EndGame())
    events = [SWICK.dump_event(event) for event in table.events]
    for event in events:
        if event["kind"] == "seat_taken":
            seat = event["seat"]
            event["player"] = {**event["player"], "id": ids[seat], "name": NAMES[seat]}
    return events


async def stored_game(store: TableStorage, ids: list[str]) -> TableRow:
    """A table whose log holds the game (and a snapshot naming the players), with the record
    and replay a worker stores when the game ends."""
    shard = 0
    owner = "w-forgetting"  # its lease is taken again for every table: ours already
    epoch = await store.acquire(shard, owner, TTL)
    assert epoch is not None
    seats = [{"id": i, "name": n, "stack": 100_000} for i, n in zip(ids, NAMES, strict=True)]
    row = TableRow(
        uid("t"), "swick", shard, {"seats": 3}, False, uid("inv"), 0, "lobby", seats, None
    )
    assert await store.create(row)
    events = played(ids)
    snapshot = {
        "players": [{"id": i, "name": n, "bot": None} for i, n in zip(ids, NAMES, strict=True)]
    }
    for seq, batch in ((1, events[:40]), (2, events[40:])):
        write = Write(
            seq=seq,
            action_id=f"a{seq}",
            events=batch,
            phase="ended",
            seats=seats,
            deadline=None,
            snapshot=snapshot if seq == 1 else None,
        )
        await store.append(row.table_id, shard, owner, epoch, write)
    stored = await store.load(row.table_id, back=10**9)
    assert stored is not None
    built = build_finished(row.table_id, "swick", row.config, 3, stored.batches)
    assert built is not None
    record, replay = built
    await store.save_replay(row.table_id, 1, replay)
    await store.save_record(record)
    return row


async def finished(store: TableStorage, table_id: str) -> tuple[dict[str, Any], str]:
    record = await store.game_record(table_id, 1)
    replay = await store.game_replay(table_id, 1)
    assert record is not None and replay is not None
    return json.loads(record.data), gzip.decompress(replay).decode()


async def test_a_deleted_players_name_is_forgotten_and_the_record_still_verifies(
    store: TableStorage,
) -> None:
    ids = [uid("p"), uid("p"), uid("p")]
    row = await stored_game(store, ids)
    other = await stored_game(store, [uid("p"), uid("p"), uid("p")])  # Zebediah, someone else
    before, replay_before = await finished(store, row.table_id)
    assert game("swick").verify_record(before).ok
    assert [p["name"] for p in before["players"]] == list(NAMES)
    played_before = await store.games_of(ids[0], None, None, 10)
    assert [r.name for r in played_before[0].results] == list(NAMES)

    assert await store.forget_player(ids[1]) == 1
    after, replay_after = await finished(store, row.table_id)
    assert game("swick").verify_record(after).ok
    assert [p["name"] for p in after["players"]] == ["Ysolde", DELETED_PLAYER, "Xanthe"]
    assert {**after, "players": None} == {**before, "players": None}
    assert "Zebediah" in replay_before and "Zebediah" not in replay_after
    assert json.loads(replay_after)["seats"] == ["Ysolde", DELETED_PLAYER, "Xanthe"]
    # The log names them no more, but keeps their id (and everyone else's name).
    stored = await store.load(row.table_id)  # from its snapshot
    assert stored is not None and stored.snapshot is not None
    text = json.dumps([stored.snapshot, stored.row.seats, await store.events(row.table_id)])
    assert "Zebediah" not in text and ids[1] in text and "Ysolde" in text
    record = await store.game_record(row.table_id, 1)
    assert record is not None and ids[1] in record.players
    # Their history and their table mates' say "Deleted player", with every result kept.
    for player_id in ids[:2]:
        (game_after,) = await store.games_of(player_id, None, None, 10)
        assert [r.name for r in game_after.results] == ["Ysolde", DELETED_PLAYER, "Xanthe"]
        assert [replace(r, name="") for r in game_after.results] == [
            replace(r, name="") for r in played_before[0].results
        ]
    # Another player of the same name, at another table, keeps it.
    assert "Zebediah" in (await finished(store, other.table_id))[1]

    # Again: nothing changes.
    assert await store.forget_player(ids[1]) == 1
    assert await finished(store, row.table_id) == (after, replay_after)
    assert await store.forget_player(uid("p")) == 0
