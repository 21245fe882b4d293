"""``swick bench flood``: a person's action -> own view latency while a registered bot floods.

The benchmark starts the platform (``services.load.platform``: a ledger, table workers and a
gateway, each as its own broker user, in a namespace and database of their own), registers a
bot, and seats a person alone at a table. The person then toggles sitting out ``actions``
times, one action every ``PACE`` seconds, timing each from sending it to seeing it in their
own view; first with no flood, then while the bot's credential publishes ``flood`` forged acts
(in the person's name, for that table and for other tables of its shard) to the bot's actions
exchange as fast as the broker confirms them, from a process of its own (as an attacker's client
would be: its event loop is not the person's). It reports both latencies, what the broker
refused, what the table workers' relay did with the rest (its ``swick_bot_actions_total``),
what the workers dropped as forbidden, and the queues' depths when the flooded turn ends.

Bounded: the flood is ``flood`` messages, every wait has a deadline, and everything talks to
the loopback broker, database and services only.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
import re
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import aio_pika
import httpx

from services.load.loadtest import percentiles
from services.load.people import Person, Tally
from services.load.platform import Platform, isolated
from services.progress import SILENT, Progress
from services.table.bot_relay import RATE as RELAY_RATE
from shared import messages as m
from shared.bus import RabbitBus, refused_as_full, shard_of

PACE = 0.05  # seconds between the person's actions: under the gateway's 30 messages a second
ANSWER_WITHIN = 60.0  # seconds an action may take before the run gives up on it
IN_FLIGHT = 500  # the flood's unconfirmed publishes at once
OTHER_TABLES = 64  # made-up tables on the person's shard that the flood also names
RELAY_WITHIN = 30.0  # seconds for a worker's relay to find the new bot (it looks every 5 s)
BOT = "flood"
OUTCOMES = ("relayed", "forbidden", "malformed", "shard_full")  # services/table/bot_relay.py


@dataclass(frozen=True, slots=True)
class Latency:
    actions: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    seconds: float  # the turn's wall time


@dataclass(frozen=True, slots=True)
class FloodFigures:
    workers: int
    shards: int
    quiet: Latency  # no flood
    flooded: Latency  # while the bot floods (the flood starts with the turn)
    actions_during_publishing: int  # of the flooded turn's, sent before the flood's last publish
    flood: int  # forged acts the bot published
    flood_seconds: float  # publishing them, until the broker confirmed or refused the last
    refused_by_broker: int  # the bot's queue was full
    taken_by_broker: int
    # Once the relay drained the bot's queue (bounded in time: see ``drained``):
    relay: dict[str, int]  # the workers' relay: outcome -> actions (OUTCOMES)
    forbidden_at_tables: int  # requests the workers dropped as forbidden since the flood began
    # At the end of the flooded turn:
    bot_queue_depth: int
    bot_queue_limit: int
    person_shard_depth: int
    max_shard_depth: int
    shard_limit: int


def forged_acts(table: str, player_id: str, shards: int, count: int) -> list[bytes]:
    """``count`` acts in ``player_id``'s name, half for ``table``, half for made-up tables of
    its shard: the requests the bot has no right to make, aimed where the person's go."""
    shard = shard_of(table, shards)
    others: list[str] = []
    while len(others) < OTHER_TABLES:
        candidate = f"t-{secrets.token_hex(6)}"
        if shard_of(candidate, shards) == shard:
            others.append(candidate)
    return [
        m.Act(
            table_id=table if k % 2 == 0 else others[k % OTHER_TABLES],
            request_id=f"forged-{k}",
            player_id=player_id,
            seq=0,
            action={"kind": "sit_out", "sitting_out": True},
        )
        .model_dump_json()
        .encode()
        for k in range(count)
    ]


async def publish_flood(
    url: str, exchange_name: str, bodies: list[bytes]
) -> tuple[int, int, float]:
    """Publish ``bodies`` as the bot (``url``'s user), confirmed: (taken, refused as full, when
    the broker had answered for the last one, by ``perf_counter``)."""
    user = url.split("//", 1)[1].split(":", 1)[0]
    taken = refused = 0
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        exchange = await channel.get_exchange(exchange_name, ensure=False)
        for start in range(0, len(bodies), IN_FLIGHT):
            results = await asyncio.gather(
                *(
                    exchange.publish(aio_pika.Message(body, user_id=user), routing_key="")
                    for body in bodies[start : start + IN_FLIGHT]
                ),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, BaseException):
                    if not refused_as_full(result):
                        raise result
                    refused += 1
                else:
                    taken += 1
        published_at = time.perf_counter()
    return taken, refused, published_at


def flood_apart(url: str, exchange_name: str, bodies: list[bytes]) -> tuple[int, int, float]:
    """``publish_flood`` in a process of its own, as an attacker's client would be: the
    person's latency is then not the flood's event loop's (``perf_counter`` is the machine's
    monotonic clock, comparable across processes)."""
    return asyncio.run(publish_flood(url, exchange_name, bodies))


async def toggle_sitting_out(
    person: Person, table: str, actions: int, progress: Progress
) -> tuple[list[float], list[float]]:
    """``actions`` paced sit-out toggles: each one's seconds to the person's own view showing
    it, and when (``perf_counter``) each was sent, in order."""
    latencies: list[float] = []
    sent_at: list[float] = []
    for _ in range(actions):
        view = await person.until(lambda v: True)
        wanted = not view["seats"][view["seat"]]["sitting_out"]
        action = {"kind": "sit_out", "sitting_out": wanted}
        message = {"type": "act", "table": table, "seq": view["seq"], "action": action}
        sent = time.perf_counter()
        answer = asyncio.create_task(person.request(message, within=ANSWER_WITHIN))

        def shows_it(view: dict[str, Any], wanted: bool = wanted) -> bool:
            return bool(view["seats"][view["seat"]]["sitting_out"] == wanted)

        seen = await person.until(shows_it, within=ANSWER_WITHIN)
        latencies.append(person.view_at - sent)
        sent_at.append(sent)
        reply = await answer
        if reply["type"] != "ack":
            raise RuntimeError(f"the person's action was refused: {reply} (view {seen['seq']})")
        progress.advance()
        await asyncio.sleep(PACE)
    return latencies, sent_at


def summary(latencies: list[float], seconds: float) -> Latency:
    cuts = percentiles(latencies)
    return Latency(len(latencies), cuts["p50"], cuts["p95"], cuts["max"], round(seconds, 2))


async def worker_counters(platform: Platform, pattern: str) -> dict[str, float]:
    """``pattern``'s samples (a metric with one label captured) summed over the live workers:
    captured label -> total."""
    totals: dict[str, float] = {}
    async with httpx.AsyncClient(timeout=10) as http:
        for process in platform.running("table"):
            reply = await http.get(f"http://127.0.0.1:{platform.probes[process.pid]}/metrics")
            for label, value in re.findall(pattern + r" ([0-9.e+]+)", reply.text):
                totals[label] = totals.get(label, 0.0) + float(value)
    return totals


async def forbidden_total(platform: Platform) -> int:
    counts = await worker_counters(platform, r'swick_commands_total\{outcome="(forbidden)"\}')
    return int(counts.get("forbidden", 0))


async def relay_outcomes(platform: Platform, bot: str) -> dict[str, int]:
    pattern = rf'swick_bot_actions_total\{{bot="{re.escape(bot)}",outcome="(\w+)"\}}'
    counts = await worker_counters(platform, pattern)
    return {outcome: int(counts.get(outcome, 0)) for outcome in OUTCOMES}


async def drained(platform: Platform, observer: RabbitBus, taken: int) -> dict[str, int]:
    """The relay's outcomes once it has dealt with all ``taken`` actions and the shards have
    none left waiting, or as they stand when that takes longer than the relay's rate allows
    (with some slack)."""
    t = platform.settings.topology
    deadline = time.monotonic() + RELAY_WITHIN + taken / RELAY_RATE
    while True:
        relay = await relay_outcomes(platform, BOT)
        waiting = [await observer.depth(t.shard_queue(k)) for k in range(t.shards)]
        if (sum(relay.values()) >= taken and not any(waiting)) or time.monotonic() > deadline:
            return relay
        await asyncio.sleep(0.2)


async def relay_consuming(observer: RabbitBus, queue: str) -> None:
    """Wait until a worker's relay consumes the bot's queue (else the flood would only fill
    it, and measure nothing)."""
    deadline = time.monotonic() + RELAY_WITHIN
    while True:
        channel = await observer.connection.channel()
        try:
            declared = await channel.declare_queue(queue, passive=True)
            if declared.declaration_result.consumer_count:
                return
        finally:
            await channel.close()
        if time.monotonic() > deadline:
            raise TimeoutError(f"no table worker consumes {queue}")
        await asyncio.sleep(0.2)


async def seated_person(base: str) -> tuple[Person, str]:
    """A person alone at a new three-seat table, watching it: (the person, the table)."""
    person = Person(base, "Alice", Tally(), random.Random(1), (0.0, 0.0))
    person.acting = False  # this benchmark chooses the person's actions itself
    async with httpx.AsyncClient(timeout=30) as http:
        await person.sign_up(http)
        await person.connect()
        reply = await http.post(
            f"{base}/api/tables",
            json={"seats": 3},
            headers={"authorization": f"Bearer {person.token}"},
        )
        reply.raise_for_status()
    person.table = table = reply.json()["id"]
    for _ in range(100):  # the new table reaches its worker a moment after the lobby answers
        if (await person.request({"type": "watch", "table": table}))["type"] == "ack":
            await person.until(lambda v: v["seat"] is not None)
            return person, table
        await asyncio.sleep(0.1)
    raise RuntimeError(f"{table} never reached its worker")


async def measure(
    platform: Platform, actions: int, flood: int, progress: Progress = SILENT
) -> FloodFigures:
    """Both turns on a running ``platform`` (its bot ``BOT`` registered, the person seated)."""
    s, t = platform.settings, platform.settings.topology
    person, table = await seated_person(platform.base)
    observer = await RabbitBus.connect(s.amqp_url, t, robust=False)
    flooding: asyncio.Future[tuple[int, int, float]] | None = None
    flooder: ProcessPoolExecutor | None = None
    try:
        await relay_consuming(observer, t.bot_actions(BOT))
        progress.stage("the person acting, no flood", actions)
        started = time.perf_counter()
        quiet, _ = await toggle_sitting_out(person, table, actions, progress)
        quiet_seconds = time.perf_counter() - started

        bodies = forged_acts(table, person.id, t.shards, flood)
        forbidden_before = await forbidden_total(platform)
        progress.stage(f"the person acting while the bot floods {flood:,} acts", actions)
        started = time.perf_counter()
        flooder = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        flooding = asyncio.ensure_future(
            asyncio.get_running_loop().run_in_executor(
                flooder, flood_apart, s.amqp_url_for(f"bot-{BOT}"), t.bot_actions(BOT), bodies
            )
        )
        flooded, sent_at = await toggle_sitting_out(person, table, actions, progress)
        flooded_seconds = time.perf_counter() - started
        bot_depth = await observer.depth(t.bot_actions(BOT))
        shard_depths = [await observer.depth(t.shard_queue(k)) for k in range(t.shards)]
        taken, refused, published_at = await flooding
        progress.stage("the relay draining the bot's queue")
        relay = await drained(platform, observer, taken)
        forbidden = await forbidden_total(platform) - forbidden_before
    finally:
        if flooding is not None:
            flooding.cancel()  # done by now, unless the person's turn failed
        if flooder is not None:
            flooder.shutdown(wait=False, cancel_futures=True)
        await observer.close()
        await person.close()
    during = sum(1 for at in sent_at if at < published_at) if flooded else 0
    return FloodFigures(
        workers=len(platform.running("table")),
        shards=t.shards,
        quiet=summary(quiet, quiet_seconds),
        flooded=summary(flooded, flooded_seconds),
        actions_during_publishing=during,
        flood=flood,
        flood_seconds=round(published_at - started, 2),
        refused_by_broker=refused,
        taken_by_broker=taken,
        relay=relay,
        forbidden_at_tables=forbidden,
        bot_queue_depth=bot_depth,
        bot_queue_limit=t.bot_actions_limit,
        person_shard_depth=shard_depths[shard_of(table, t.shards)],
        max_shard_depth=max(shard_depths),
        shard_limit=t.shard_limit,
    )


@contextlib.asynccontextmanager
async def platform_with_bot(
    amqp_url: str, database_url: str, workers: int, shards: int
) -> AsyncIterator[Platform]:
    """The platform (no bots services: the person sits alone), with the bot ``BOT``
    registered, stopped and removed afterwards."""
    async with isolated(amqp_url, database_url, shards=shards, label="flood") as settings:
        platform = Platform(settings, Path(tempfile.mkdtemp(prefix="swick-flood-")))
        try:
            await platform.start(workers=workers, bots=0)
            # Never started: only its credential is used, to flood.
            await platform.register_bot(BOT, "services.bots.levels:Easy", owner="Mallory")
            yield platform
        finally:
            platform.stop()


async def run(
    amqp_url: str,
    database_url: str,
    *,
    actions: int = 200,
    flood: int = 50_000,
    workers: int = 2,
    shards: int = 32,
    progress: Progress = SILENT,
) -> FloodFigures:
    if actions < 1 or flood < 1:
        raise ValueError("a flood benchmark needs at least one action and one forged act")
    progress.stage(f"starting {workers} table worker(s), the ledger and the gateway")
    async with platform_with_bot(amqp_url, database_url, workers, shards) as platform:
        return await measure(platform, actions, flood, progress)


def report(figures: FloodFigures) -> dict[str, Any]:
    return {"benchmark": "flood", **asdict(figures)}


def describe(f: FloodFigures) -> str:
    def line(name: str, x: Latency) -> str:
        return (
            f"  {name:<8} p50 {x.p50_ms:8.2f} ms  p95 {x.p95_ms:8.2f} ms  max {x.max_ms:8.2f} ms"
            f"  ({x.actions} actions in {x.seconds:.1f} s)"
        )

    relay = ", ".join(f"{outcome} {count:,}" for outcome, count in f.relay.items())
    return "\n".join(
        [
            f"a person's action -> own view, {f.workers} worker(s), {f.shards} shards:",
            line("quiet", f.quiet),
            line("flooded", f.flooded),
            f"  flood: {f.flood:,} forged acts in {f.flood_seconds:.1f} s"
            f" ({f.actions_during_publishing} of the flooded actions sent while publishing);"
            f" broker refused {f.refused_by_broker:,}, took {f.taken_by_broker:,}",
            f"  relay: {relay}; dropped as forbidden at the tables: {f.forbidden_at_tables:,}",
            f"  queues at the end: the bot's {f.bot_queue_depth:,} (bound {f.bot_queue_limit:,}),"
            f" the person's shard {f.person_shard_depth:,}, deepest shard {f.max_shard_depth:,}"
            f" (bound {f.shard_limit:,})",
        ]
    )
