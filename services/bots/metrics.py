"""What a bots service shows on its ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter

from shared.observability import ServiceMetrics


class BotMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.turns = Counter(
            "swick_bot_turns", "Turns played by this bots service", ["bot"], registry=self.registry
        )
