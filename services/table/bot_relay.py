"""The bots' actions, from each bot's own queue to the tables' shards, at a bounded rate per bot.

A bot's user may write only to its own actions queue (``Topology.bot_actions``), which holds
at most ``Topology.bot_actions_limit`` messages: a bot that floods is refused there by the
broker, and fills no queue but its own. Every table worker consumes every registered bot's
queue (single-active-consumer: one of them at a time takes each), through a token bucket of
its own per bot (``RATE`` a second, bursts of ``BURST``), so what a bot sends reaches the
shards no faster than that whatever it publishes: the shard queues, which people's requests
share, never hold more of a bot's actions than a moment's worth.

What it forwards goes to the table's shard as the table workers' own user, with the bot's name
in ``Act.bot``: the worker trusts that field only from its own user (``sender``), and then
checks it as it would the bot's own word (a bot acts only for the seats of its name). What it
cannot forward (not the bot's own user, too large, not an action, the shard's queue full) is
dropped and counted (``swick_bot_actions_total``), and logged sampled: one line, then at most
one per ``LOG_EVERY`` seconds with the count of those left out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Protocol

import aio_pika
from pydantic import ValidationError

from services.table.metrics import TableMetrics
from services.table.storage import BotAccount
from shared import messages as m
from shared.bus import Bus, QueueFull, Topology
from shared.sampled_log import SampledLog
from shared.token_bucket import TokenBucket

log = logging.getLogger("swick.table.bots")

RATE = 200.0  # actions a second per bot: a busy bot's share of every table it plays at
BURST = 400.0
PREFETCH = 16
REFRESH_SECONDS = 5.0  # how often the bot accounts are read again (new ones get a consumer)
LOG_EVERY = 10.0
MAX_ACTION_BYTES = 16_384  # the table worker's bound on any request


def sender(
    request: m.Request, user: str | None, topology: Topology
) -> tuple[str | None, str | None]:
    """Who sent ``request``: (its user, the bot name of that user or ``None``). An action the
    relay forwarded (``Act.bot``, from the table workers' own user) is the bot's own; from
    anyone else that field means nothing."""
    if isinstance(request, m.Act) and request.bot is not None and user == topology.user("table"):
        return topology.bot_user(request.bot), request.bot
    return user, topology.bot_of(user)


class BotAccounts(Protocol):
    """Where the registered bots are listed (the tables' storage)."""

    async def bot_accounts(self) -> list[BotAccount]: ...


@dataclass(eq=False)
class BotRelay:
    bus: Bus
    store: BotAccounts
    metrics: TableMetrics
    _: KW_ONLY
    rate: float = RATE
    burst: float = BURST
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    buckets: dict[str, TokenBucket] = field(init=False, default_factory=dict)
    relays: dict[str, asyncio.Task[None]] = field(init=False, default_factory=dict)
    dropped: SampledLog = field(init=False)

    def __post_init__(self) -> None:
        self.dropped = SampledLog(log, every=LOG_EVERY, clock=self.clock)

    async def run(self) -> None:
        """Relay each registered bot's actions; look for newly registered bots now and then."""
        try:
            while True:
                for account in await self.store.bot_accounts():
                    relay = self.relays.get(account.name)
                    if relay is None or relay.done():
                        self.relays[account.name] = asyncio.get_running_loop().create_task(
                            self._relay_quietly(account.name)
                        )
                await asyncio.sleep(REFRESH_SECONDS)
        finally:
            for relay in self.relays.values():
                relay.cancel()
            await asyncio.gather(*self.relays.values(), return_exceptions=True)

    async def _relay_quietly(self, bot: str) -> None:
        """A bot whose queue the broker does not have (an account registered before this
        topology, say) is looked for again at the next refresh."""
        try:
            await self.relay(bot)
        except (aio_pika.exceptions.AMQPError, ConnectionError) as error:
            log.warning("cannot relay a bot's actions: %r", error, extra={"bot": bot})

    async def relay(self, bot: str) -> None:
        """Forward ``bot``'s actions for good, each once its bucket has a token."""
        queue = self.bus.topology.bot_actions(bot)
        bucket = self.buckets.setdefault(bot, TokenBucket(self.rate, self.burst, self.clock))
        async with self.bus.consume(queue, prefetch=PREFETCH) as deliveries:
            async for delivery in deliveries:
                while not bucket.take():
                    await self.sleep(bucket.wait())
                outcome = await self._forward(bot, delivery.body, delivery.user_id)
                self.metrics.bot_actions.labels(bot, outcome).inc()
                with contextlib.suppress(aio_pika.exceptions.AMQPError):
                    await delivery.ack()

    async def _forward(self, bot: str, body: bytes, user: str | None) -> str:
        """Send one action on to its table's shard; the outcome, as counted."""
        t = self.bus.topology
        if user != t.bot_user(bot):
            return self._drop(bot, "forbidden", "not published by the bot's own user", user)
        if len(body) > MAX_ACTION_BYTES:
            return self._drop(bot, "malformed", "oversized", user)
        try:
            request = m.REQUEST.validate_json(body)
        except ValidationError as error:
            return self._drop(bot, "malformed", str(error.errors()[:1]), user)
        if not isinstance(request, m.Act):
            return self._drop(bot, "forbidden", "a bot may only act", user)
        forwarded = request.model_copy(update={"bot": bot})
        try:
            await self.bus.request(request.table_id, forwarded.model_dump_json().encode())
        except QueueFull:
            return self._drop(bot, "shard_full", "the table's shard queue is full", user)
        return "relayed"

    def _drop(self, bot: str, outcome: str, reason: str, user: str | None) -> str:
        self.dropped.warning(
            "dropped a bot's action: %s",
            reason,
            extra={"bot": bot, "sender": user, "outcome": outcome},
        )
        return outcome
