"""A table worker: owns a share of the shards, and runs every table of the shards it owns.

Ownership is a lease per shard in PostgreSQL, renewed every ``tick``; a worker aims for its
share (shards / live workers), takes expired leases up to it and releases what is over it, so
adding a worker moves tables to it and a dead worker's tables move within a lease's time. The
shard queues have single-active-consumer on top, so only one process consumes each in order.

For each request: check who sent it (the broker vouches for its user), decide it with the
game, log the events under the lease (fenced), then publish each seat's view, wake the bots
whose turn it is, send the postings from the outbox and arm the table's deadline. A request is
acknowledged to the broker only after that. The requests waiting across the worker's shards
are taken together (``batch.py``): decided in turn, logged in one transaction, then answered
and acknowledged together.

Who may ask what: a gateway speaks for people (any request but a timer's tick, never an action
of a bot's seat); a bot's user acts only for the seats of its own bot name; the worker's own
user sends ticks. Anything else is dropped with a log line, unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from pydantic import ValidationError

from services.table.action_ids import bot_action_id
from services.table.batch import Batch, Item, Send
from services.table.bot_relay import BotRelay
from services.table.bot_relay import sender as relayed_sender
from services.table.closing import close_at, wake_at
from services.table.metrics import TableMetrics
from services.table.presence import Apply, Defer, Presence
from services.table.records import build_finished
from services.table.replays import ALL_BATCHES
from services.table.storage import (
    Append,
    DuplicateAction,
    Fenced,
    Queued,
    SeatConflict,
    TableRow,
    TableStorage,
    TooManyTables,
    Write,
)
from services.table.wallets import Wallets, WalletUnavailable, returned_stakes
from shared import messages as m
from shared.bot_names import BOT_NAMES
from shared.bus import DEFAULT_BOT_TURN_TTL_MS, Bus, Delivery, shard_of
from shared.fairness import new_seed
from shared.games.interface import Command, IllegalCommand, Transfer
from shared.games.lifecycle import (
    TABLE_ACTION_KINDS,
    AddBot,
    CloseTable,
    Leave,
    Player,
    SetConnected,
    StartGame,
    TakeSeat,
)
from shared.games.registry import AnyGame, game
from shared.sampled_log import SampledLog
from shared.startup import described
from shared.supervise import Backoff, retryable, supervise

log = logging.getLogger("swick.table")

MAX_REQUEST_BYTES = 16_384
QUEUE_CHECK_SECONDS = 5.0
PREFETCH = 8  # requests a shard's consumer holds before acknowledging the first
TICK_RETRY_SECONDS = 1.0
BATCH_LIMIT = 64  # requests in one batch: bounds how long one commit holds every shard up


@dataclass
class LiveTable:
    row: TableRow
    game: AnyGame
    state: Any
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)  # its deadline's tick
    presence: Presence | None = field(default=None, repr=False)
    presence_checks: dict[int, asyncio.Task[None]] = field(default_factory=dict, repr=False)


def account(table_id: str, name: str) -> str:
    """The ledger's name of a leg's account: a table's pot and carry are its own."""
    return name if name.startswith("wallet:") or name == m.HOUSE else f"{name}:{table_id}"


def posting(
    table_id: str,
    seq: int,
    moves: Sequence[Transfer],
    players: Sequence[Player | None],
    stacks: Sequence[int],
    game: str = "swick",
) -> Callable[[int], dict[str, Any]]:
    """The posting of one command's chip movements, once its number is known.

    It carries the stacks the table holds afterwards for every player it touches (their stack
    before plus what the legs moved), so the ledger can check its wallets against them.
    """
    seated = {p.id: (p, stack) for p, stack in zip(players, stacks, strict=True) if p is not None}
    net = dict.fromkeys((pid for pid in seated), 0)
    for t in moves:
        for name, sign in ((t.debit, -1), (t.credit, 1)):
            if name.startswith("wallet:"):
                net[name.removeprefix("wallet:")] += sign * t.amount
    touched = [pid for pid in seated if any(pid in (t.debit[7:], t.credit[7:]) for t in moves)]

    def body(number: int) -> dict[str, Any]:
        return m.Posting(
            id=f"{table_id}:{seq}",
            table_id=table_id,
            posting_no=number,
            hand_no=moves[0].hand_no,
            legs=tuple(
                m.Leg(
                    debit=account(table_id, t.debit),
                    credit=account(table_id, t.credit),
                    amount=t.amount,
                    code=t.code,
                )
                for t in moves
            ),
            stacks={pid: seated[pid][1] + net[pid] for pid in touched},
            names={pid: seated[pid][0].name for pid in touched},
            bots=tuple(pid for pid in touched if seated[pid][0].bot is not None),
            game=game,
        ).model_dump(mode="json")

    return body


FILLING_BOT = "medium"  # the level of a bot the table seats in a seat left during a game
# The stack a seating action carries until the game has accepted it and the ledger has given
# the real one (``TableWorker._staked``): the games' seating rules hold for any stack >= 0.
UNSTAKED = 0


def bot_player(table_id: str, seat: int, name: str) -> Player:
    """A bot's identity: one per table and seat, so it has a wallet of its own."""
    return Player(f"bot:{table_id}:{seat}", BOT_NAMES[seat % len(BOT_NAMES)], name)


def filling_bot(table_id: str, seat: int, seq: int) -> Player:
    """A bot the table seats itself (for an unanswering bot, or in a seat left during a game):
    an identity (and wallet) of its own per seating, so each bot settles its chips apart, named
    from the table's state (seat and seq) so that any worker seats the same one."""
    return Player(f"bot:{table_id}:{seat}:{seq}", BOT_NAMES[seat % len(BOT_NAMES)], FILLING_BOT)


class Forbidden(Exception):
    """The sender may not make this request: dropped, and not answered."""


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TableWorker:
    def __init__(
        self,
        bus: Bus,
        store: TableStorage,
        wallets: Wallets,
        *,
        worker_id: str | None = None,
        lease_ttl: float = 1.5,
        tick: float = 0.4,
        clock: Callable[[], float] = time.time,
        bot_turn_ttl_ms: int = DEFAULT_BOT_TURN_TTL_MS,
        abandon_after: float = 300.0,
        host_tables: int | None = 3,
    ) -> None:
        self.bus = bus
        self.bot_turn_ttl_ms = bot_turn_ttl_ms
        self.store = store
        self.wallets = wallets
        self.worker_id = worker_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self.lease_ttl = lease_ttl
        self.tick = tick
        self.clock = clock
        self.abandon_ms = int(abandon_after * 1000)  # a table nobody attends closes after this
        self.host_tables = host_tables  # open tables one player may host
        self.shards = bus.topology.shards
        self.owned: dict[int, int] = {}  # shard -> lease epoch
        self.consumers: dict[int, asyncio.Task[None]] = {}
        self.busy: set[int] = set()  # shards with a request in the batch being handled
        self.leaving: set[int] = set()  # shards to give up once their requests are handled
        self._inbox: asyncio.Queue[Item] = asyncio.Queue()  # from every shard, in order
        self._batch: Batch | None = None  # while one is decided: its commit is still to come
        self._bundle: list[m.TableUpdate | m.Refusal] | None = None  # updates going out together
        self._between_batches = asyncio.Event()
        self.tables: dict[str, LiveTable] = {}
        self.ready = asyncio.Event()
        self.metrics = TableMetrics()
        self.relay = BotRelay(bus, store, self.metrics)  # the bots' actions, paced per bot
        self._forbidden = SampledLog(log)  # a flood of them writes a line now and then
        # Postings committed with their commands, on their way to the broker: published off
        # the command path, in commit order, so no table waits for the broker's confirms.
        self._postings: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()
        self._recording: set[asyncio.Task[None]] = set()  # records being stored
        self._ticking: set[asyncio.Task[None]] = set()  # ticks being sent

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # Shards.

    async def run(self) -> None:
        try:
            async with asyncio.TaskGroup() as tasks:
                tasks.create_task(self.bus.lost())  # crash-only: leases expire, others take over
                tasks.create_task(self._leases(tasks))
                tasks.create_task(self._process())
                # Postings a failed publication left in the outbox go out with the relay.
                tasks.create_task(supervise("the outbox relay", self._relay_outbox, logger=log))
                tasks.create_task(
                    supervise("the postings publisher", self._publish_postings, logger=log)
                )
                tasks.create_task(supervise("the queue measurer", self._measure_queues, logger=log))
                tasks.create_task(supervise("the bot relay", self.relay.run, logger=log))
        finally:
            for shard in list(self.owned):
                self._drop(shard)
            with contextlib.suppress(Exception):
                await asyncio.shield(self.store.leave(self.worker_id))

    def _preference(self) -> list[int]:
        start = zlib.crc32(self.worker_id.encode()) % self.shards
        return [(start + k) % self.shards for k in range(self.shards)]

    async def _leases(self, tasks: asyncio.TaskGroup) -> None:
        """Renew the leases every tick, through the database's passing trouble: while it is
        away the worker is not ready, and once its leases may have expired it gives up its
        shards (another worker may hold them now: fencing refuses our writes anyway)."""
        backoff = Backoff()
        renewed = self.clock()
        while True:
            try:
                await self._lease_round(tasks)
            except Exception as error:
                if not retryable(error):
                    log.exception("the lease loop failed; stopping")
                    raise
                self.ready.clear()
                if self.owned and self.clock() - renewed >= self.lease_ttl:
                    log.warning("the leases expired while the database was away")
                    for shard in list(self.owned):
                        self.metrics.shards_lost.inc()
                        self._drop(shard)
                pause = backoff.next()
                log.warning(
                    "could not renew the leases: %s; retrying in %.2f s", described(error), pause
                )
                await backoff.sleep(pause)
            else:
                renewed = self.clock()
                backoff.reset()
                await asyncio.sleep(self.tick)

    async def _lease_round(self, tasks: asyncio.TaskGroup) -> None:
        live = await self.store.heartbeat(self.worker_id, self.lease_ttl)
        kept = await self.store.renew(self.worker_id, self.owned, self.lease_ttl)
        for shard in set(self.owned) - kept:
            log.warning("lost the lease of a shard", extra={"shard": shard})
            self.metrics.shards_lost.inc()
            self._drop(shard)
        target = math.ceil(self.shards / max(live, 1))
        if len(self.owned) < target:
            for shard in self._preference():
                if len(self.owned) >= target:
                    break
                if shard in self.owned:
                    continue
                epoch = await self.store.acquire(shard, self.worker_id, self.lease_ttl)
                if epoch is not None:
                    await self._take(shard, epoch, tasks)
        elif len(self.owned) > target:
            for shard in sorted(self.owned, reverse=True)[: len(self.owned) - target]:
                log.info("handing a shard over", extra={"shard": shard, "workers": live})
                await self._hand_over(shard)
        self.ready.set()
        self.metrics.shards.set(len(self.owned))
        self.metrics.tables.set(len(self.tables))

    async def _measure_queues(self) -> None:
        """Apart from the leases: a broker slow to answer must not delay their renewal."""
        while True:
            await asyncio.sleep(QUEUE_CHECK_SECONDS)
            for shard in list(self.owned):
                name = self.bus.topology.shard_queue(shard)
                depth = await self.bus.depth(name)
                if shard in self.owned:  # a queue's depth comes from its owner alone
                    self.metrics.queue_depth.labels(name).set(depth)

    async def _take(self, shard: int, epoch: int, tasks: asyncio.TaskGroup) -> None:
        log.info("took a shard", extra={"shard": shard, "epoch": epoch, "worker": self.worker_id})
        self.metrics.takeovers.inc()
        self.owned[shard] = epoch
        try:
            for table_id in await self.store.live_tables(shard):
                table = await self._load(table_id)
                if table is not None:
                    self._arm(table)
                    await self._wake_bots(table, (), None)
                    if self._seats_to_fill(table):
                        # Through the shard, in order, once it is consumed: the table itself
                        # seats the bots its last owner did not get to.
                        self._tick_due(self._tick_now(table))
        except BaseException:
            self._drop(shard)  # never a shard held without its consumer: taken again later
            raise
        self.consumers[shard] = tasks.create_task(self._consume(shard, epoch))

    def _drop(self, shard: int) -> None:
        self.owned.pop(shard, None)
        self.metrics.queue_depth.remove(self.bus.topology.shard_queue(shard))
        consumer = self.consumers.pop(shard, None)
        if consumer is not None:
            consumer.cancel()
        for table_id, table in list(self.tables.items()):
            if table.row.shard == shard:
                if table.timer is not None:
                    table.timer.cancel()
                for check in table.presence_checks.values():
                    check.cancel()
                del self.tables[table_id]

    async def _hand_over(self, shard: int) -> None:
        """Give a shard up between two requests, never half way through one (a request cut
        short is redelivered and answered "duplicate" although its sender sent it once)."""
        consumer = self.consumers.get(shard)
        if consumer is not None:
            self.leaving.add(shard)  # no later batch takes its requests
            while shard in self.busy:
                await self._between_batches.wait()
            consumer.cancel()  # closing its channel requeues what it holds, unhandled
            await asyncio.wait([consumer], timeout=10)
            self.leaving.discard(shard)
        self._drop(shard)
        await self.store.release(self.worker_id, shard)

    async def _consume(self, shard: int, epoch: int) -> None:
        # A few requests in hand per shard: the rest wait in the broker, so a busy worker's
        # event loop stays short enough to renew its leases in time.
        queue = self.bus.topology.shard_queue(shard)
        async with self.bus.consume(queue, prefetch=PREFETCH) as deliveries:
            async for delivery in deliveries:
                self._inbox.put_nowait(Item(shard, epoch, delivery))

    def _current(self, item: Item) -> bool:
        """Whether ``item``'s shard is still ours under the lease it came with (if not, its
        channel is closed or closing, and the broker gives it to the shard's next owner)."""
        return self.owned.get(item.shard) == item.epoch and item.shard not in self.leaving

    async def _process(self) -> None:
        """Take what waits (never waiting for more), as one batch."""
        while True:
            items = [await self._inbox.get()]
            while len(items) < BATCH_LIMIT and not self._inbox.empty():
                items.append(self._inbox.get_nowait())
            items = [item for item in items if self._current(item)]
            if not items:
                continue
            received = time.perf_counter()
            self.busy = {item.shard for item in items}
            self._between_batches.clear()
            try:
                if len(items) == 1 or not await self._batched(items):
                    for item in items:
                        if self._current(item):
                            await self._one(item)
            finally:
                self.busy = set()
                self._between_batches.set()
            self.metrics.batch_commands.observe(len(items))
            elapsed = time.perf_counter() - received
            for _ in items:
                self.metrics.command_seconds.observe(elapsed)

    async def _batched(self, items: list[Item]) -> bool:
        """Handle ``items`` as one batch; false if its commit failed, with nothing of it kept
        in memory or sent (they are to be handled one by one)."""
        batch = self._batch = Batch()
        try:
            for item in items:
                await self._handle(item.shard, item.delivery)
            if batch.staged:
                batch.committed(await self.store.append_batch(self.worker_id, batch.appends()))
        except Exception as error:
            batch.roll_back()
            if not isinstance(error, Fenced | DuplicateAction | SeatConflict) and not retryable(
                error
            ):
                raise
            log.info("a batch failed, handling its requests one by one: %s", described(error))
            return False
        finally:
            self._batch = None
        async with self._bundled():
            for send in batch.sends:
                await send()
        last: dict[int, Delivery] = {}
        for item in items:
            last[item.shard] = item.delivery
        for delivery in last.values():
            await delivery.ack(multiple=True)  # each shard's channel: all of it up to there
        return True

    async def _one(self, item: Item) -> None:
        """Handle one request and commit it alone."""
        shard, delivery = item.shard, item.delivery
        try:
            async with self._bundled():
                await self._handle(shard, delivery)
            await delivery.ack()
        except Fenced:
            log.warning("fenced out of a shard", extra={"shard": shard})
            self.metrics.shards_lost.inc()
            self._drop(shard)  # closing the channel requeues the delivery
        except Exception as error:
            if not retryable(error):
                raise
            # The database failed us half way through a request (its write may or may not
            # have committed): give the shard up, with its tables' state in memory; the lease
            # loop takes it again and reloads them from the log, and the request, requeued,
            # is applied then (or found a duplicate).
            log.warning(
                "the database failed a request; retaking the shard: %s",
                described(error),
                extra={"shard": shard},
            )
            self.metrics.shards_lost.inc()
            self._drop(shard)
            with contextlib.suppress(Exception):
                await self.store.release(self.worker_id, shard)

    @contextlib.asynccontextmanager
    async def _bundled(self) -> AsyncIterator[None]:
        """Gather the updates sent in the block, and publish them as one message at its end."""
        self._bundle = []
        try:
            yield
        finally:
            bundle, self._bundle = self._bundle, None
        if bundle:
            tables = [update.table_id for update in bundle]
            await self.bus.publish_updates(tables, m.pack(bundle))

    async def _send_update(self, update: m.TableUpdate | m.Refusal) -> None:
        if self._batch is not None:
            self._batch.sends.append(lambda: self._send_update(update))
        elif self._bundle is not None:
            self._bundle.append(update)
        else:
            await self.bus.publish_updates([update.table_id], m.pack([update]))

    async def _emit(self, send: Send) -> None:
        """Send now, or once the batch being decided is committed."""
        if self._batch is None:
            await send()
        else:
            self._batch.sends.append(send)

    async def _publish_postings(self) -> None:
        """Publish the postings of committed commands, then clear them from the outbox in
        batches. A crash in between leaves them to ``_relay_outbox`` (the ledger applies a
        posting once, however often it arrives)."""
        while True:
            batch = [await self._postings.get()]
            while not self._postings.empty():
                batch.append(self._postings.get_nowait())
            await self._post(batch)

    async def _relay_outbox(self) -> None:
        """Postings whose publication after commit did not happen (a crash) go out here."""
        while True:
            await asyncio.sleep(2.0)
            if self.owned:
                await self._post(await self.store.outbox(list(self.owned), older_than=2.0))

    async def _post(self, rows: Sequence[tuple[int, Any]]) -> None:
        """Publish outbox rows in order, then clear them from the outbox."""
        for _, body in rows:
            await self.bus.publish_posting(json.dumps(body).encode())
        await self.store.sent([row_id for row_id, _ in rows])

    # Tables.

    async def _load(self, table_id: str) -> LiveTable | None:
        cached = self.tables.get(table_id)
        if cached is not None:
            return cached
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        g = game(stored.row.game)
        state = (
            g.load_state(stored.snapshot)
            if stored.snapshot is not None
            else g.new_table(g.make_config(stored.row.config))
        )
        for _, events in stored.batches:
            for data in events:
                state = g.evolve(state, g.load_event(data))
        table = LiveTable(stored.row, g, state)
        if g.phase(state) != "closed":  # a closed table is only read, never kept
            self.tables[table_id] = table
        log.info("loaded", extra={"table": table_id, "seq": g.seq(state)})
        return table

    async def _handle(self, shard: int, delivery: Delivery) -> None:
        if len(delivery.body) > MAX_REQUEST_BYTES:
            log.warning("dropped an oversized request")
            return
        try:
            request = m.REQUEST.validate_json(delivery.body)
        except ValidationError as error:
            log.warning("dropped a malformed request: %s", error.errors()[:1])
            return
        if shard_of(request.table_id, self.shards) != shard:
            log.warning("dropped a request on the wrong shard", extra={"table": request.table_id})
            return
        sender, bot = relayed_sender(request, delivery.user_id, self.bus.topology)
        try:
            self._check_sender(request, sender, bot)
        except Forbidden as forbidden:
            self._forbid(request, sender, str(forbidden))
            return
        if isinstance(request, m.CreateTable):
            await self._create(shard, request)
            return
        table = await self._load(request.table_id)
        if table is None:
            if bot is None:
                await self._refuse(request, "no_table", "There is no such table")
            return
        try:
            if isinstance(request, m.Act):
                actor = self._seat(table, request.player_id)
                self._check_actor(table, actor, bot)
                if actor is None:
                    raise Refused("not_seated", "Take a seat at this table first")
                action = await self._action(table, actor, request.action)
                # A gateway files each person's ids under their player id already; a bot's
                # are filed under its seat's by the table, whatever it sent.
                action_id = request.request_id
                if bot is not None:
                    action_id = bot_action_id(request.player_id, request.request_id)
                await self._apply(table, actor, action, action_id, request.seq, request)
            elif isinstance(request, m.Join):
                await self._join(table, request)
            elif isinstance(request, m.Presence):
                self._check_actor(table, self._seat(table, request.player_id), bot)
                await self._presence(table, request)
            elif isinstance(request, m.Sync):
                await self._publish(table, None, snapshot_for=request.player_id or "*")
            elif isinstance(request, m.Tick):
                await self._tick(table, request)
            await self._replace_unanswering_bots(table)
            await self._fill_left_seats(table)
        except Refused as refusal:
            await self._refuse(request, refusal.code, refusal.message)
        except Forbidden as forbidden:
            self._forbid(request, sender, str(forbidden))

    def _check_sender(self, request: m.Request, sender: str | None, bot: str | None) -> None:
        """Raise ``Forbidden`` unless ``sender`` (the broker's word) may send ``request``."""
        t = self.bus.topology
        if bot is not None:
            if not isinstance(request, m.Act):
                raise Forbidden("a bot may only act")
            if request.action.get("kind") in TABLE_ACTION_KINDS:
                # Sitting out, leaving, seating or starting are for people and the table: a
                # bot that sat out would hold its seat, and the game, for ever.
                raise Forbidden("a bot makes only its game decisions")
        elif sender == t.user("table"):
            if not isinstance(request, m.Tick) and not (
                isinstance(request, m.Presence) and request.due
            ):
                raise Forbidden("a table worker only sends its timers' ticks and presence checks")
        elif sender == t.user("gateway"):
            if isinstance(request, m.Tick) or (isinstance(request, m.Presence) and request.due):
                raise Forbidden("only a table worker sends ticks and presence checks")
        else:
            raise Forbidden("not a user of this platform's services")

    def _check_actor(self, table: LiveTable, actor: int | None, bot: str | None) -> None:
        """A bot acts only for a seat of its own bot name; a gateway never for a bot's seat."""
        player = None if actor is None else table.game.players(table.state)[actor]
        held_by = None if player is None else player.bot
        if bot is not None and held_by != bot:
            raise Forbidden(f"the bot {bot} does not hold that seat")
        if bot is None and held_by is not None:
            raise Forbidden("a gateway does not act for a bot's seat")

    async def _replace_unanswering_bots(self, table: LiveTable) -> None:
        """A bot that timed out twice running (away, as a person would be) leaves its seat,
        at once between hands, at the hand's end during one (played by the defaults until
        then), and the filling bot takes it: a dead bots service holds no game hostage. The
        filling bot itself is kept (its replacement would be served by the same service).
        The seats to fill are the table's state (``left_by_bots``), so a worker that takes the
        table over between the leaving and the seating seats the bot all the same."""
        g = table.game
        if g.phase(table.state) in ("lobby", "ended", "closed"):
            return
        for seat, away in enumerate(g.away(table.state)):
            player = g.players(table.state)[seat]
            if player is None or not away or player.bot is None or player.bot == FILLING_BOT:
                continue
            seq = g.seq(table.state)
            leave = Command(
                actor=seat,
                action=Leave(),
                action_id=f"replace:{seat}:{seq}",
                seq=seq,
                at=self.now_ms(),
            )
            try:
                after, _ = g.step(table.state, leave)
            except IllegalCommand:
                continue  # leaving already, at the end of the hand
            if g.phase(after) == "closed":
                continue  # it was the last to play with the people gone: the table closes anyway
            if await self._apply_command(table, leave, None):
                log.info(
                    "replacing a bot that does not answer",
                    extra={"table": table.row.table_id, "seat": seat, "bot": player.bot},
                )
        for seat in g.left_by_bots(table.state):
            if g.phase(table.state) not in ("lobby", "ended", "closed"):
                await self._seat_filling_bot(table, seat, "replace-bot")

    async def _seat_filling_bot(self, table: LiveTable, seat: int, why: str) -> None:
        """Seat the table's own bot in ``seat``, under an action id naming ``why``, the seat and
        the table's seq (a redelivery seats it once). A cashier that does not answer leaves the
        seat empty until the table's next request."""
        seq = table.game.seq(table.state)
        action = AddBot(seat, filling_bot(table.row.table_id, seat, seq), UNSTAKED)
        try:
            await self._apply(table, None, action, f"{why}:{seat}:{seq}", 0, None, False)
        except Refused as refusal:
            log.warning(
                "could not seat the table's bot: %s",
                refusal.message,
                extra={"table": table.row.table_id, "seat": seat},
            )

    def _forbid(self, request: m.Request, sender: str | None, reason: str) -> None:
        self.metrics.commands.labels("forbidden").inc()
        self._forbidden.warning(
            "dropped a request its sender may not make: %s",
            reason,
            extra={"table": request.table_id, "request": request.request_id, "sender": sender},
        )

    def _seat(self, table: LiveTable, player_id: str) -> int | None:
        for seat, player in enumerate(table.game.players(table.state)):
            if player is not None and player.id == player_id:
                return seat
        return None

    async def _action(self, table: LiveTable, actor: int, data: dict[str, Any]) -> Any:
        """A player's action, with what the table supplies itself (a seed, a bot's identity)."""
        kind = data.get("kind")
        if kind == "start_game":
            return StartGame(new_seed().hex())
        if kind == "add_bot":
            seat, level = data.get("seat"), data.get("bot", "medium")
            if (
                not isinstance(seat, int)
                or isinstance(seat, bool)
                or not isinstance(level, str)
                or not m.BOT_NAME.fullmatch(level)
            ):
                raise Refused("malformed", "add_bot takes a seat and a bot: easy, medium, hard...")
            await self._registered(level)
            return AddBot(seat, bot_player(table.row.table_id, seat, level), UNSTAKED)
        if kind in ("take_seat", "set_connected", "timeout", "close_table"):
            raise Refused("not_allowed", "Only the table itself can do that")
        try:
            return table.game.load_action(data)
        except IllegalCommand as error:
            raise Refused(error.code, error.message) from None

    async def _registered(self, name: str) -> None:
        """Only a registered bot takes a seat (and gets a wallet)."""
        if await self.store.bot_account(name) is None:
            raise Refused("unknown_bot", f"No bot named {name}: seat easy, medium, hard...")

    async def _staked(self, table: LiveTable, command: Command[Any]) -> Command[Any]:
        """A seating command with the stack its player sits down with, asked of the ledger
        (which opens the wallet, stakes a bot, records the seat) only once the game accepts the
        seating, which it judges whatever the stack: a command the game refuses comes back as
        it was, and is refused without the ledger hearing of it."""
        try:
            table.game.decide(table.state, command)
        except IllegalCommand:
            return command
        action: TakeSeat | AddBot = command.action
        stack = await self._stack(action.player, table.row.table_id)
        return replace(command, action=replace(action, stack=stack))

    async def _stack(self, player: Player, table_id: str) -> int:
        """The chips ``player`` sits down with at ``table_id``: their whole balance."""
        try:
            departure = await self.store.departure(player.id)
            return await self.wallets.seat(player, departure, table_id)
        except WalletUnavailable as error:
            raise Refused("cashier", str(error)) from None

    async def _create(self, shard: int, request: m.CreateTable) -> None:
        expired = request.expires_at is not None and self.now_ms() > request.expires_at
        if expired and await self.store.table(request.table_id) is None:
            await self._refuse(request, "expired", "The table was not opened in time: try again")
            return  # (one begun in time is finished as usual below)
        g = game(request.game)
        try:
            config = g.make_config(request.settings)
        except IllegalCommand as error:
            await self._refuse(request, error.code, error.message)
            return
        state = g.new_table(config)
        row = TableRow(
            request.table_id,
            g.name,
            shard,
            dict(request.settings),
            bool(request.settings.get("private", False)),
            request.invite_code,
            0,
            g.phase(state),
            [None] * len(g.players(state)),
            None,
            request.host_id,
        )
        try:
            created = await self.store.create(row, self.host_tables)
        except TooManyTables:
            await self._refuse(
                request,
                "too_many_tables",
                f"You already host {self.host_tables} open tables: play at one of them, or wait"
                " for them to close",
            )
            return
        if created:
            table = LiveTable(row, g, state)
            self.tables[row.table_id] = table
        else:
            existing = await self._load(request.table_id)
            if existing is None or existing.row.invite_code != request.invite_code:
                await self._refuse(request, "exists", "That table exists already")
                return
            table = existing  # redelivered: a worker stopped part way through setting it up
        await self._set_up(table, request)

    async def _set_up(self, table: LiveTable, request: m.CreateTable) -> None:
        """Seat the host, then the bots, then deal if asked: each step that is not done yet,
        so a redelivered request finishes what its first delivery began. The request is
        answered once the table stands as asked; a table that cannot be set up closes."""
        g, rid = table.game, request.request_id
        done = True
        try:
            if g.players(table.state)[0] is None:
                seat_host = TakeSeat(0, Player(request.host_id, request.host_name), UNSTAKED)
                done = await self._apply(table, None, seat_host, f"{rid}:host", 0, request, False)
            for seat, level in sorted(request.bots.items()):
                if done and g.players(table.state)[seat] is None:
                    await self._registered(level)
                    action = AddBot(seat, bot_player(table.row.table_id, seat, level), UNSTAKED)
                    done = await self._apply(
                        table, 0, action, f"{rid}:bot:{seat}", 0, request, False
                    )
            if done and request.start and g.phase(table.state) == "lobby":
                start = StartGame(new_seed().hex())
                done = await self._apply(table, 0, start, f"{rid}:start", 0, request, False)
        except Refused as refusal:
            await self._refuse(request, refusal.code, refusal.message)
            done = False
        if not done:
            await self._apply(table, None, CloseTable(), f"{rid}:close", 0, None)
            return
        await self._publish(table, m.Outcome(request_id=rid, player_id=request.host_id, ok=True))

    async def _join(self, table: LiveTable, request: m.Join) -> None:
        if table.game.phase(table.state) == "closed":
            raise Refused("table_closed", "This table has closed: find another in the lobby")
        elsewhere = await self.store.seat_of(request.player_id)
        if elsewhere is not None and elsewhere[0] != table.row.table_id:
            raise Refused("seated_elsewhere", "You already have a seat at another table")
        players = table.game.players(table.state)
        seat = request.seat
        if seat is None:
            seat = next((i for i, p in enumerate(players) if p is None), None)
            if seat is None:
                raise Refused("table_full", "Every seat at this table is taken")
        action = TakeSeat(seat, Player(request.player_id, request.name), UNSTAKED)
        await self._apply(table, None, action, request.request_id, 0, request)

    @staticmethod
    def _seats_to_fill(table: LiveTable) -> bool:
        """Whether the table has a seat a bot should take now (``_replace_unanswering_bots``,
        ``_fill_left_seats``)."""
        g = table.game
        if g.phase(table.state) in ("lobby", "ended", "closed"):
            return False
        return bool(g.left_by_bots(table.state)) or (
            g.form.bot_fills_left_seat and None in g.players(table.state)
        )

    async def _fill_left_seats(self, table: LiveTable) -> None:
        """At a game that cannot go on a player short (``bot_fills_left_seat``), a seat left
        empty during a game is taken at once by a medium bot, marked as a bot like any other.
        Its action id and its id name the seat and the table's seq, so a redelivery seats it
        once, and no two bots seated there share a wallet."""
        g = table.game
        if not g.form.bot_fills_left_seat or g.phase(table.state) in ("lobby", "ended", "closed"):
            return
        for seat, player in enumerate(g.players(table.state)):
            if player is None:
                await self._seat_filling_bot(table, seat, "fill")

    async def _tick(self, table: LiveTable, tick: m.Tick) -> None:
        g, state = table.game, table.state
        if g.seq(state) != tick.seq:
            return  # the table moved on since: it was armed again then
        now = self.now_ms()
        deadline = g.deadline(state)
        closing = close_at(g, state, self.abandon_ms)
        if deadline is not None and now >= deadline:
            command = g.timeout(state, f"timeout:{tick.seq}", now)
            if await self._apply_command(table, command, None):
                self.metrics.timeouts.inc()
                log.info(
                    "decided on a timeout", extra={"table": table.row.table_id, "seq": tick.seq}
                )
        elif closing is not None and now >= closing:
            close = Command(
                actor=None,
                action=CloseTable(self.abandon_ms),
                action_id=f"close:{tick.seq}",
                seq=tick.seq,
                at=now,
            )
            if await self._apply_command(table, close, None):
                log.info("closing an abandoned table", extra={"table": table.row.table_id})
        else:
            self._arm(table)

    async def _apply(
        self,
        table: LiveTable,
        actor: int | None,
        action: Any,
        action_id: str,
        seq: int,
        request: m.Act | m.Join | m.CreateTable | None,
        answer: bool = True,
    ) -> bool:
        """Apply an action; ``request`` hears of a refusal, and of success if ``answer``."""
        command = Command(
            actor=actor, action=action, action_id=action_id, seq=seq, at=self.now_ms()
        )
        return await self._apply_command(table, command, request, answer)

    async def _apply_command(
        self,
        table: LiveTable,
        command: Command[Any],
        request: m.Act | m.Join | m.CreateTable | None,
        answer: bool = True,
    ) -> bool:
        g, before = table.game, table.state
        if isinstance(command.action, TakeSeat | AddBot):
            command = await self._staked(table, command)
        try:
            after, events = g.step(before, command)
        except IllegalCommand as refusal:
            if request is not None:
                await self._refuse(request, refusal.code, refusal.message)
                if refusal.code == "duplicate":
                    await self._resend(table, request)
            return False
        players_before, players_after = g.players(before), g.players(after)
        seats = [
            None if p is None else {"id": p.id, "name": p.name, "bot": p.bot} for p in players_after
        ]
        claims = [
            (p.id, seat)
            for seat, p in enumerate(players_after)
            if p is not None and p not in players_before
        ]
        releases = [p.id for p in players_before if p is not None and p not in players_after]
        moves = g.transfers(before, events)
        moves = [*moves, *returned_stakes(players_before, players_after, g.stacks(before), moves)]
        write = Write(
            seq=g.seq(after),
            action_id=command.action_id,
            events=[g.dump_event(event) for event in events],
            phase=g.phase(after),
            seats=seats,
            deadline=g.deadline(after),
            snapshot=g.dump_state(after) if any(g.checkpoint(e) for e in events) else None,
            posting=posting(
                table.row.table_id,
                g.seq(after),
                moves,
                players_before,
                g.stacks(before),
                table.row.game,
            )
            if moves
            else None,
            seat_claims=claims,
            seat_releases=releases,
        )
        epoch = self.owned.get(table.row.shard)
        if epoch is None:
            raise Fenced(f"shard {table.row.shard} is not ours")
        append = Append(table.row.table_id, table.row.shard, epoch, write)
        if self._batch is not None:
            staged = self._batch.stage(table, after, append)
            pending = g.to_act(before)
            self._batch.sends.append(
                lambda: self._committed(
                    table, after, pending, command, write, request, answer, staged.queued
                )
            )
            return True
        try:
            queued = await self.store.append(
                table.row.table_id, table.row.shard, self.worker_id, epoch, write
            )
        except DuplicateAction:
            if request is not None:
                await self._refuse(request, "duplicate", "This action was already applied")
                await self._resend(table, request)
            return False
        except SeatConflict:
            if request is not None:
                await self._refuse(
                    request, "seated_elsewhere", "You already have a seat at another table"
                )
            return False
        table.state = after
        await self._committed(
            table, after, g.to_act(before), command, write, request, answer, queued
        )
        return True

    async def _committed(
        self,
        table: LiveTable,
        after: Any,
        pending_before: Sequence[int],
        command: Command[Any],
        write: Write,
        request: m.Act | m.Join | m.CreateTable | None,
        answer: bool,
        queued: Queued | None,
    ) -> None:
        """What follows a command's commit: answers, views, bots' turns, postings, timers."""
        self.metrics.commands.labels("accepted").inc()
        if any(event.get("kind") == "game_ended" for event in write.events):
            self._record_game(table)
        if write.snapshot is not None:
            log.info("hand over", extra={"table": table.row.table_id, "seq": write.seq})
        outcome = None
        if request is not None and answer:
            outcome = m.Outcome(
                request_id=request.request_id,
                player_id=getattr(request, "player_id", getattr(request, "host_id", None)),
                ok=True,
            )
        await self._publish(table, outcome, state=after)
        await self._wake_bots(table, pending_before, command.actor, state=after)
        if queued is not None:
            self._postings.put_nowait(queued)
        self._arm(table)
        if write.phase == "closed":
            log.info("closed", extra={"table": table.row.table_id})
            for check in table.presence_checks.values():
                check.cancel()  # no seat is left to check
            self.tables.pop(table.row.table_id, None)  # loaded again if ever asked about

    # Presence.

    async def _presence(self, table: LiveTable, request: m.Presence) -> None:
        """A gateway's report of a player's connection, or the table's deferred check of it:
        applied only when it changes the seat, a disconnect at most once per window."""
        seat = self._seat(table, request.player_id)
        if seat is None:
            return
        if table.presence is None:
            table.presence = Presence(self.clock)
        current = not self._connection_differs(table, seat, True)
        if request.due:
            decision = table.presence.due(seat, current)
        else:
            decision = table.presence.report(seat, request.connected, current)
        if isinstance(decision, Apply):
            action = SetConnected(seat, decision.connected)
            await self._apply(table, None, action, request.request_id, 0, None)
        elif isinstance(decision, Defer):
            check = m.Presence(
                table_id=table.row.table_id,
                request_id=f"presence-due:{seat}:{secrets.token_hex(4)}",
                player_id=request.player_id,
                connected=request.connected,
                due=True,
            )
            delay = max(0.0, decision.at - self.clock())
            previous = table.presence_checks.pop(seat, None)
            if previous is not None:
                previous.cancel()
            table.presence_checks[seat] = asyncio.get_running_loop().create_task(
                self._send_later(check, delay)
            )

    def _connection_differs(self, table: LiveTable, seat: int, connected: bool) -> bool:
        """Whether reporting ``connected`` for ``seat`` would change the table (the game
        refuses a report that changes nothing)."""
        trial = Command(
            actor=None,
            action=SetConnected(seat, connected),
            action_id="presence-trial",
            seq=0,
            at=self.now_ms(),
        )
        try:
            table.game.decide(table.state, trial)
        except IllegalCommand:
            return False
        return True

    async def _send_later(self, request: m.Presence, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.bus.request(request.table_id, request.model_dump_json().encode())

    # Records.

    def _record_game(self, table: LiveTable) -> None:
        """Store the record and the replay of the game that just ended, off the command path."""
        task = asyncio.get_running_loop().create_task(self._store_record(table.row))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def _store_record(self, row: TableRow) -> None:
        table_id = row.table_id
        try:
            stored = await self.store.load(table_id, back=ALL_BATCHES)
            if stored is None:
                return
            # In a thread: a long game's log takes a while to parse, and leases wait for no one.
            built = await asyncio.to_thread(
                build_finished, table_id, row.game, row.config, len(row.seats), stored.batches
            )
            if built is None:
                return
            record, replay = built
            # The replay first: a stored record says the game ended, and its replay is then
            # there for every gateway to serve without reading the log.
            await self.store.save_replay(table_id, record.game_no, replay)
            await self.store.save_record(record)
        except Exception:
            # A gateway builds a missing record or replay once, when it is first asked for.
            log.exception("could not store a game's record", extra={"table": table_id})

    # Publishing.

    async def _resend(self, table: LiveTable, request: m.Act | m.Join | m.CreateTable) -> None:
        """A duplicate may be a redelivery whose first answer was lost with a worker: send its
        sender the table as it stands, so their view catches up with what was applied."""
        player = getattr(request, "player_id", getattr(request, "host_id", None))
        await self._publish(table, None, snapshot_for=player)

    async def _publish(
        self,
        table: LiveTable,
        outcome: m.Outcome | None,
        snapshot_for: str | None = None,
        state: Any = None,
    ) -> None:
        """Publish the table's views (as of ``state``, by default as it stands now)."""
        g = table.game
        state = table.state if state is None else state
        people = {
            seat: player.id
            for seat, player in enumerate(g.players(state))
            if player is not None and player.bot is None
        }
        spectator, views = g.views_json(state, people)
        update = m.TableUpdate(
            table_id=table.row.table_id,
            seq=g.seq(state),
            views={people[seat]: view for seat, view in views.items()},
            spectator=spectator,
            outcome=outcome,
            snapshot_for=snapshot_for,
        )
        await self._send_update(update)

    async def _refuse(self, request: m.Request, code: str, message: str) -> None:
        self.metrics.commands.labels("refused").inc()
        log.info(
            "refused",
            extra={"table": request.table_id, "request": request.request_id, "code": code},
        )
        player = getattr(request, "player_id", getattr(request, "host_id", None))
        outcome = m.Outcome(
            request_id=request.request_id, player_id=player, ok=False, code=code, message=message
        )
        await self._send_update(m.Refusal(table_id=request.table_id, outcome=outcome))

    async def _wake_bots(
        self,
        table: LiveTable,
        pending_before: Sequence[int],
        actor: int | None,
        state: Any = None,
    ) -> None:
        """Send a bot its turn when its decision opens (not again while it stays open)."""
        g = table.game
        state = table.state if state is None else state
        players = g.players(state)
        for seat in g.to_act(state):
            player = players[seat]
            if player is None or player.bot is None:
                continue
            if seat in pending_before and seat != actor:
                continue
            turn = m.BotTurn(
                table_id=table.row.table_id,
                seat=seat,
                seq=g.seq(state),
                bot=player.bot,
                player_id=player.id,
                view=g.dump_view(g.view_for(state, seat)),
            )
            await self._emit(
                partial(
                    self.bus.publish_bot_turn,
                    player.bot,
                    turn.model_dump_json().encode(),
                    ttl_ms=self.bot_turn_ttl_ms,
                )
            )

    def _arm(self, table: LiveTable) -> None:
        """Wake the table when its deadline passes, through its own shard queue (in order)."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        deadline = wake_at(table.game, table.state, self.abandon_ms)
        if deadline is None:
            return
        delay = max(0.0, deadline / 1000 - self.clock())
        # A handle on the loop's timer heap, not a task per command: most are cancelled.
        table.timer = asyncio.get_running_loop().call_later(
            delay, self._tick_due, self._tick_now(table)
        )

    @staticmethod
    def _tick_now(table: LiveTable) -> m.Tick:
        seq = table.game.seq(table.state)
        return m.Tick(table_id=table.row.table_id, request_id=f"tick:{seq}", seq=seq)

    def _tick_due(self, tick: m.Tick) -> None:
        task = asyncio.get_running_loop().create_task(self._send_tick(tick))
        self._ticking.add(task)
        task.add_done_callback(self._ticking.discard)

    async def _send_tick(self, tick: m.Tick) -> None:
        try:
            await self.bus.request(tick.table_id, tick.model_dump_json().encode())
        except Exception as error:
            # Lost, the table would wait for its deadline forever: try again shortly.
            log.warning(
                "could not send a tick: %s", described(error), extra={"table": tick.table_id}
            )
            table = self.tables.get(tick.table_id)
            if table is not None and table.game.seq(table.state) == tick.seq:
                table.timer = asyncio.get_running_loop().call_later(
                    TICK_RETRY_SECONDS, self._tick_due, tick
                )
