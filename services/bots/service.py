"""The bots service: plays the bot seats' turns from the bus.

Each bot name has a durable queue of turns; every process serving that name consumes it, so
several processes share the load and a dead one's unacknowledged turns go to the others. A
turn carries the seat's view only. Each name is served on a connection of its own, as that
bot's broker user: it can read that name's turns and send actions, nothing else, and the table
accepts its actions only for the seats of that name. The answer goes to the table's shard with
an id made from the table, seat and sequence number: answered twice, it takes effect once, and
a late answer is refused by the table as stale. Answers go to the bot's own actions queue,
which the tables take at a bounded rate per bot: when it is full the broker refuses the answer,
which is dropped (counted, and logged once in a while) and the seat gets the timer's decision.

How a strategy is called: one instance per bot name in a process, for all its tables, called
from one thread of its own, one decision at a time (so a strategy needs no locking, and one
name's searches never compete with another's in this process). A strategy that raises, or
answers with an action that is not legal, or does not answer within ``DECISION_LIMIT_S``, is
logged once with the table and seat, and the seat gets the rules' default, the decision the
table's timer would take, at once.

A turn is stale, and dropped unanswered, when its deadline has passed by this service's clock
(the table decides for the seat then), or when a newer turn for the same table and seat has
been received (the older decision is closed). Both are checked when the turn arrives, before
the strategy is called and before the answer is sent, so turns piled up while the service was
down cost nothing. A turn that does not parse can never be played: it is set aside at once
(rejected, logged with its reason and counted) and the others keep flowing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiormq.exceptions import AMQPError, ChannelInvalidStateError

from services.bots.decider import Decider
from services.bots.games import BotGame, game_of
from services.bots.metrics import BotMetrics
from services.bots.strategy import Strategy, StrategyFactory
from shared import messages as m
from shared.bus import Bus, Delivery, QueueFull
from shared.sampled_log import SampledLog

log = logging.getLogger("swick.bots")

DEFAULT_THINK_MS = 900
PREFETCH = 8
# A consumer that stops is started again after a pause that doubles up to the cap.
RETRY_FIRST_S = 0.5
RETRY_CAP_S = 30.0
# How many (table, seat) pairs the staleness check remembers the newest turn of.
REMEMBERED_SEATS = 10_000
# A decision that takes longer is given up: the seat gets the default, and the strategy a new
# instance on a new thread (a thread cannot be stopped: the old one is left to finish). Past
# a few such threads, the process stops, so that its supervisor starts a clean one.
DECISION_LIMIT_S = 10.0
MAX_ABANDONED_THREADS = 3
# What a lost or refused connection raises: retrying can succeed. Anything else is a bug of
# this service, and takes the process down for its supervisor to restart.
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    AMQPError,
    ChannelInvalidStateError,
    ConnectionError,
    TimeoutError,
)


class BotService:
    def __init__(
        self,
        buses: Mapping[str, Bus],
        factories: Mapping[str, StrategyFactory],
        *,
        think_ms: int = DEFAULT_THINK_MS,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        decision_limit_s: float = DECISION_LIMIT_S,
    ) -> None:
        """``buses``: for each bot name of ``factories``, the bus connected as its user.
        ``clock``: seconds since the epoch, compared with the turns' deadlines."""
        self.buses = buses
        self.rng = rng or random.Random()
        self.think_ms = think_ms
        self.clock = clock
        self.decision_limit_s = decision_limit_s
        self.factories = factories
        self.strategies: dict[str, Strategy] = {
            name: factory(random.Random(self.rng.random())) for name, factory in factories.items()
        }
        self.abandoned_threads = 0
        self.turns_played = 0
        self.metrics = BotMetrics()
        self.consuming = dict.fromkeys(factories, False)
        self._threads = {name: Decider(f"bot-{name}") for name in factories}
        self._turns = {name: asyncio.Lock() for name in factories}
        self._newest: OrderedDict[tuple[str, int], int] = OrderedDict()
        self._refused = SampledLog(log)

    def ready(self) -> bool:
        """Every bot name's turns are being consumed."""
        return all(self.consuming.values())

    async def run(self) -> None:
        try:
            async with asyncio.TaskGroup() as tasks:
                for name in self.strategies:
                    tasks.create_task(self._serve(name))
        finally:
            for thread in self._threads.values():
                thread.stop()

    async def _serve(self, name: str) -> None:
        """Consume ``name``'s turns; start again after a broker error, with a capped backoff."""
        bus = self.buses[name]
        queue = bus.topology.bot_queue(name)
        pause = RETRY_FIRST_S
        while True:
            try:
                async with bus.consume(queue, prefetch=PREFETCH) as deliveries:
                    self.consuming[name] = True
                    pause = RETRY_FIRST_S
                    async with asyncio.TaskGroup() as tasks:
                        async for delivery in deliveries:
                            tasks.create_task(self._play(name, delivery))
                raise ConnectionError("the broker ended the consumer")
            except* BROKER_ERRORS as group:
                error = group.exceptions[0]
                log.warning(
                    "stopped consuming a bot's turns: %r; again in %.1f s",
                    error,
                    pause,
                    extra={"bot": name, "queue": queue},
                )
            except* Exception as group:
                log.critical(
                    "a bot's consumer failed: the process stops for its supervisor to restart it",
                    exc_info=group,
                    extra={"bot": name, "queue": queue},
                )
                raise
            finally:
                self.consuming[name] = False
            self.metrics.restarts.labels(name).inc()
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_CAP_S)

    async def _play(self, name: str, delivery: Delivery) -> None:
        try:
            turn = m.BotTurn.model_validate_json(delivery.body)
            played = game_of(turn.view)
            if played is None:
                raise ValueError(f"a view of a game no bot here plays: {turn.view.get('game')!r}")
            view = played.load_view(turn.view)
        except Exception as error:  # whatever is wrong with it, it never will parse
            await self._set_aside(name, delivery, f"does not parse: {error}")
            return
        where = {"bot": name, "table": turn.table_id, "seat": turn.seat, "seq": turn.seq}
        self._received(turn)
        legal = [option.action for option in view.options if option.legal]
        if not legal or self._stale(turn, view):
            await self._drop(name, delivery, legal)
            return
        await asyncio.sleep(self._think(view))
        async with self._turns[name]:  # one decision at a time: see the module's docstring
            if self._stale(turn, view):
                await self._drop(name, delivery, legal)
                return
            action = await self._choose(name, played, view, legal, where)
        if self._stale(turn, view):
            await self._drop(name, delivery, legal)
            return
        act = m.Act(
            table_id=turn.table_id,
            request_id=f"{turn.player_id}/turn-{turn.seq}",
            player_id=turn.player_id,
            seq=turn.seq,
            action=played.dump_action(action),
        )
        try:
            await self.buses[name].bot_action(turn.table_id, act.model_dump_json().encode())
        except QueueFull:
            # Sending it again would only add to the backlog: the table's timer decides.
            self.metrics.refused.labels(name).inc()
            self._refused.warning("the bot's actions queue is full: an answer dropped", extra=where)
            await delivery.ack()
            return
        except BROKER_ERRORS as error:
            # Put back for another try (here or in another process); a turn whose deadline
            # passes meanwhile is dropped then, so the attempts are bounded.
            log.warning("could not send a bot's answer: %r", error, extra=where)
            await _put_back(delivery)
            return
        self.turns_played += 1
        self.metrics.turns.labels(name).inc()
        await delivery.ack()
        if self.abandoned_threads > MAX_ABANDONED_THREADS:  # once the seat has its answer
            raise RuntimeError(f"{self.abandoned_threads} strategy threads hung: restarting")

    async def _choose(
        self,
        name: str,
        played: BotGame,
        view: Any,
        legal: Sequence[Any],
        where: dict[str, object],
    ) -> Any:
        """The strategy's choice if it is legal, else the rules' default (a strategy given a
        game it does not play fails, and the seat gets the default)."""
        seat_default = played.seat_default
        strategy = self.strategies[name]
        decision = self._threads[name].run(lambda: strategy.choose(view, legal))
        try:
            action = await asyncio.wait_for(decision, self.decision_limit_s)
        except TimeoutError:
            log.error(
                "a bot's strategy did not answer within %g s: the seat gets the default",
                self.decision_limit_s,
                extra=where,
            )
            self.metrics.failures.labels(name, "timeout").inc()
            self._abandon(name)
            return seat_default(view)
        except Exception:
            log.exception("a bot's strategy failed: the seat gets the default", extra=where)
            self.metrics.failures.labels(name, "error").inc()
            return seat_default(view)
        if action not in legal:
            log.error(
                "a bot's strategy answered %r, which is not legal: the seat gets the default",
                action,
                extra=where,
            )
            self.metrics.failures.labels(name, "illegal").inc()
            return seat_default(view)
        return action

    def _abandon(self, name: str) -> None:
        """Leave the hung decision's thread and instance behind; go on with new ones."""
        self.abandoned_threads += 1
        self._threads[name].stop()
        self._threads[name] = Decider(f"bot-{name}")
        self.strategies[name] = self.factories[name](random.Random(self.rng.random()))

    def _received(self, turn: m.BotTurn) -> None:
        key = (turn.table_id, turn.seat)
        newest = max(turn.seq, self._newest.pop(key, turn.seq))
        self._newest[key] = newest
        while len(self._newest) > REMEMBERED_SEATS:
            self._newest.popitem(last=False)

    def _stale(self, turn: m.BotTurn, view: Any) -> bool:
        """Its deadline passed, or a newer turn for the same seat was received."""
        if view.deadline is not None and self.clock() * 1000 >= view.deadline:
            return True
        return self._newest.get((turn.table_id, turn.seat), turn.seq) > turn.seq

    async def _drop(self, name: str, delivery: Delivery, legal: Sequence[Any]) -> None:
        if legal:
            self.metrics.stale.labels(name).inc()
        await delivery.ack()

    async def _set_aside(self, name: str, delivery: Delivery, reason: str) -> None:
        log.error(
            "set aside a bot turn: %s",
            reason[:300],
            extra={"bot": name, "body": delivery.body[:200].decode(errors="replace")},
        )
        self.metrics.set_aside.labels(name).inc()
        await delivery.nack(requeue=False)

    def _think(self, view: Any) -> float:
        """A natural pause at a table with people; none at a table of bots."""
        people = any(s.player is not None and s.player.bot is None for s in view.seats)
        return self.think_ms / 1000 * self.rng.uniform(0.6, 1.4) if people else 0.0


async def _put_back(delivery: Delivery) -> None:
    # If the channel is gone, the broker puts back what was never acknowledged.
    with contextlib.suppress(*BROKER_ERRORS):
        await delivery.nack(requeue=True)
