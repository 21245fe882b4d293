"""``swick bench replays``: what one client looping over finished games' replays costs every
other socket of a gateway.

The benchmark makes a throwaway database (on the server of ``SWICK_DATABASE_URL``), logs
``games`` Euchre tables there as table workers log them (each table ``per_table`` games of
random legal play, so a table's log is a few games long), stores each last game's record and
replay as the worker does when a game ends, and runs a gateway on a free local port (its bus in
memory: no broker needed). ``sockets`` signed-in sockets then ping it every 50 ms, timing each
round trip, while one client asks for the replays one after another, in turns of ``seconds``:

- ``idle``: nobody asks for replays (the floor);
- ``rebuild``: the path before replays were stored: every request rebuilds the replay from the
  table's whole log (the gateway's storage here stores no replay, so each is built anew);
- ``stored``: the stored replays, the throttle lifted: what serving them costs;
- ``throttled``: the stored replays under the shipped limit per client address.

The pinging sockets, the looping client and the gateway share this process's event loop, so a
ping's round trip is the time the gateway kept everyone waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import secrets
import socket
import statistics
import time
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, replace
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from services.gateway.app import create_app
from services.gateway.limits import AddressRate
from services.gateway.state import REPLAY_BURST, REPLAYS_PER_SECOND
from services.load.platform import fresh_database
from services.table.storage import Append, TableRow, Write
from services.table.store import TableStore
from shared.bus import shard_of
from shared.games.interface import Command
from shared.games.lifecycle import Player, StartGame, TakeSeat
from shared.games.records import build_finished
from shared.games.registry import game
from shared.memory_bus import MemoryBus
from shared.postgres import connect_pool
from shared.settings import DEFAULT_DATABASE, Settings

PING_SECONDS = 0.05
MODES = ("idle", "rebuild", "stored", "throttled")
# No timer (the engine then needs the table private in its config; the table row is public).
SETTINGS = {"seats": 4, "target": 5, "timer_ms": None, "private": True, "interlude_ms": 0}
OWNER = "bench-replays"


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    mode: str
    seconds: float
    replays_served: int
    refused: int  # 429s
    pings: int
    ping_p50_ms: float
    ping_p95_ms: float
    ping_max_ms: float


class ForgetsReplays(TableStore):
    """The table storage as it was before replays were stored: it keeps none, so the gateway
    builds every replay asked for from the table's log."""

    async def save_replay(self, table_id: str, game_no: int, replay: bytes) -> None:
        return None

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None:
        return None


def played(rng: random.Random, games: int) -> list[tuple[int, list[Any]]]:
    """A Euchre table's logged batches: four players seated, then ``games`` games of uniform
    random legal play."""
    g = game("euchre")
    state = g.new_table(g.make_config(SETTINGS))
    batches: list[tuple[int, list[Any]]] = []
    ids = itertools.count()

    def command(actor: int | None, action: object) -> None:
        nonlocal state
        request = Command(actor=actor, action=action, action_id=f"a{next(ids)}", seq=g.seq(state))
        state, events = g.step(state, request)
        batches.append((g.seq(state), [g.dump_event(event) for event in events]))

    for seat in range(4):
        command(None, TakeSeat(seat, Player(f"p{seat}", f"Player {seat}"), 10_000))
    for _ in range(games):
        command(0, StartGame(secrets.token_hex(32)))
        while g.phase(state) != "ended":
            seat = g.to_act(state)[0]
            options = [o.action for o in g.legal_actions(state, seat) if o.legal]
            kept = [o for o in options if type(o).__name__ not in ("SitOut", "Leave")]
            command(seat, rng.choice(kept or options))
    return batches


async def log_tables(store: TableStore, shards: int, games: int, per_table: int) -> list[str]:
    """``games`` tables logged under leases as a worker logs them, each last game's record and
    replay stored: the tables' ids."""
    rng = random.Random(1)
    epochs = {}
    for shard in range(shards):
        epoch = await store.acquire(shard, OWNER, 3600)
        assert epoch is not None
        epochs[shard] = epoch
    tables = []
    for n in range(games):
        table_id = f"t-bench-{n}-{secrets.token_hex(3)}"
        shard = shard_of(table_id, shards)
        row = TableRow(
            table_id, "euchre", shard, SETTINGS, False, secrets.token_hex(4), 0, "lobby", [], None
        )
        assert await store.create(row)
        batches = await asyncio.to_thread(played, rng, per_table)
        writes = [
            Append(table_id, shard, epochs[shard], Write(seq, f"a{seq}", events, "play", [], None))
            for seq, events in batches
        ]
        await store.append_batch(OWNER, writes)
        built = await asyncio.to_thread(build_finished, table_id, "euchre", SETTINGS, 4, batches)
        assert built is not None
        record, packed = built
        await store.save_replay(table_id, record.game_no, packed)
        await store.save_record(record)
        tables.append(table_id)
    return tables


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def gateway(settings: Settings, store: TableStore, port: int) -> AsyncIterator[Any]:
    """A gateway on ``port`` over ``store``, its bus in memory; yields its app."""
    app = create_app(settings, bus=MemoryBus(settings.topology), store=store)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn sets a flag, and has no event to await
        await asyncio.sleep(0.01)
    try:
        yield app
    finally:
        server.should_exit = True
        await task


async def pinging(ws: ClientConnection, times: list[float], stop: asyncio.Event) -> None:
    for n in itertools.count():
        if stop.is_set():
            return
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "ping", "id": f"ping-{n}"}))
        while json.loads(await ws.recv()).get("id") != f"ping-{n}":
            pass  # not the answer to this ping
        times.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(PING_SECONDS)


async def looping(base: str, paths: list[str], stop: asyncio.Event) -> tuple[int, int]:
    """Ask for ``paths`` in turn until ``stop``: (replays served, refused)."""
    served = refused = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for path in itertools.cycle(paths):
            if stop.is_set():
                break
            # Read as sent, not decompressed: the client's own work would slow the pings too.
            async with http.stream("GET", path) as reply:
                body = b"".join([chunk async for chunk in reply.aiter_raw()])
            if reply.status_code == 200:
                served += 1
            elif reply.status_code == 429:
                refused += 1
                await asyncio.sleep(0.01)  # a real client would wait; this one only a little
            else:
                raise RuntimeError(f"{path}: {reply.status_code} {body[:200]!r}")
    return served, refused


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def measure(
    mode: str,
    app: Any,
    base: str,
    sockets: list[ClientConnection],
    paths: list[str],
    seconds: float,
) -> ReplayFigures:
    gw = app.state.gateway
    if mode == "throttled":
        gw.replay_rate = AddressRate(REPLAYS_PER_SECOND, REPLAY_BURST)  # the shipped limit
    else:
        gw.replay_rate = AddressRate(1e9, 1e9)  # lifted: the cost of serving alone
    stop = asyncio.Event()
    times: list[float] = []
    pings = [asyncio.create_task(pinging(ws, times, stop)) for ws in sockets]
    loop = asyncio.create_task(looping(base, paths, stop)) if mode != "idle" else None
    await asyncio.sleep(seconds)
    stop.set()
    served, refused = await loop if loop is not None else (0, 0)
    await asyncio.gather(*pings)
    return ReplayFigures(
        mode,
        seconds,
        served,
        refused,
        len(times),
        round(statistics.median(times), 2),
        round(percentile(times, 0.95), 2),
        round(max(times), 2),
    )


async def run(
    seconds: float = 8.0, games: int = 80, per_table: int = 2, sockets: int = 20
) -> list[ReplayFigures]:
    dsn = os.environ.get("SWICK_DATABASE_URL", DEFAULT_DATABASE)
    async with fresh_database(dsn, label="bench") as database_url:
        settings = replace(
            Settings(), database_url=database_url, grants_per_address=len(MODES) * sockets, shards=8
        )
        pool = await connect_pool(database_url, size=4)
        try:
            store = TableStore(pool)
            await store.migrate(settings.shards)
            tables = await log_tables(store, settings.shards, games, per_table)
            paths = [f"/api/tables/{t}/games/{per_table}/replay" for t in tables]
            figures = []
            for mode in MODES:
                served_by = ForgetsReplays(pool) if mode == "rebuild" else store
                port = free_port()
                base = f"http://127.0.0.1:{port}"
                async with gateway(settings, served_by, port) as app:
                    opened = await open_sockets(base, sockets)
                    try:
                        figures.append(await measure(mode, app, base, opened, paths, seconds))
                    finally:
                        for ws in opened:
                            await ws.close()
        finally:
            await pool.close()
    return figures


async def open_sockets(base: str, count: int) -> list[ClientConnection]:
    opened = []
    async with httpx.AsyncClient(base_url=base) as http:
        for n in range(count):
            reply = await http.post("/api/players", json={"name": f"Pinger {n}"})
            reply.raise_for_status()
            token = reply.json()["token"]
            opened.append(await connect(f"ws://{base.removeprefix('http://')}/ws?token={token}"))
    return opened


def report(figures: list[ReplayFigures]) -> dict[str, Any]:
    return {"modes": [asdict(f) for f in figures]}


def describe(figures: list[ReplayFigures]) -> str:
    lines = ["other sockets' ping while one client loops over replays:"]
    for f in figures:
        lines.append(
            f"  {f.mode:<9} replays {f.replays_served / f.seconds:7.1f}/s"
            f" (429: {f.refused / f.seconds:7.1f}/s)  ping p50 {f.ping_p50_ms:6.2f} ms"
            f"  p95 {f.ping_p95_ms:6.2f} ms  max {f.ping_max_ms:7.2f} ms  ({f.pings} pings)"
        )
    return "\n".join(lines)
