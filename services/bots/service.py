"""The bots service: plays the bot seats' turns from the bus.

Each bot name has a durable queue of turns; every process serving that name consumes it, so
several processes share the load and a dead one's unacknowledged turns go to the others. A
turn carries the seat's view only. Each name is served on a connection of its own, as that
bot's broker user: it can read that name's turns and send actions, nothing else, and the table
accepts its actions only for the seats of that name. The answer goes to the table's shard with
an id made from the table, seat and sequence number: answered twice, it takes effect once, and
a late answer is refused by the table as stale.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping

from pydantic import ValidationError

from services.bots.metrics import BotMetrics
from services.bots.strategy import Strategy, StrategyFactory
from shared import messages as m
from shared.bus import Bus, Delivery
from shared.games.swick.actions import Action
from shared.games.swick.codec import dump_action, load_view
from shared.games.swick.views import SwickView

log = logging.getLogger("swick.bots")

DEFAULT_THINK_MS = 900


class BotService:
    def __init__(
        self,
        buses: Mapping[str, Bus],
        factories: Mapping[str, StrategyFactory],
        *,
        think_ms: int = DEFAULT_THINK_MS,
        rng: random.Random | None = None,
    ) -> None:
        """``buses``: for each bot name of ``factories``, the bus connected as its user."""
        self.buses = buses
        self.rng = rng or random.Random()
        self.think_ms = think_ms
        self.strategies: dict[str, Strategy] = {
            name: factory(random.Random(self.rng.random())) for name, factory in factories.items()
        }
        self.turns_played = 0
        self.metrics = BotMetrics()

    async def run(self) -> None:
        async with asyncio.TaskGroup() as tasks:
            for name in self.strategies:
                tasks.create_task(self._serve(name))

    async def _serve(self, name: str) -> None:
        bus = self.buses[name]
        queue = bus.topology.bot_queue(name)
        async with bus.consume(queue, prefetch=8) as deliveries, asyncio.TaskGroup() as tasks:
            async for delivery in deliveries:
                tasks.create_task(self._play(name, delivery))

    async def _play(self, name: str, delivery: Delivery) -> None:
        try:
            turn = m.BotTurn.model_validate_json(delivery.body)
            view = load_view(turn.view)
        except ValidationError as error:
            log.error("dropped a bot turn that does not parse: %s", error.errors()[:1])
            await delivery.ack()
            return
        legal = [option.action for option in view.options if option.legal]
        if legal:
            await asyncio.sleep(self._think(view))
            strategy = self.strategies[name]
            action = await asyncio.to_thread(strategy.choose, view, legal)
            act = m.Act(
                table_id=turn.table_id,
                request_id=f"{turn.player_id}/turn-{turn.seq}",
                player_id=turn.player_id,
                seq=turn.seq,
                action=_dump(action),
            )
            await self.buses[name].bot_action(turn.table_id, act.model_dump_json().encode())
            self.turns_played += 1
            self.metrics.turns.labels(name).inc()
        await delivery.ack()

    def _think(self, view: SwickView) -> float:
        """A natural pause at a table with people; none at a table of bots."""
        people = any(s.player is not None and s.player.bot is None for s in view.seats)
        return self.think_ms / 1000 * self.rng.uniform(0.6, 1.4) if people else 0.0


def _dump(action: Action) -> dict[str, object]:
    data: dict[str, object] = dump_action(action)
    return data
