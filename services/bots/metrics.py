"""What a bots service shows on its ``/metrics``."""

from __future__ import annotations

from shared.observability import ServiceMetrics


class BotMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.turns = self.counter("swick_bot_turns", "Turns played by this bots service", ["bot"])
        self.failures = self.counter(
            "swick_bot_strategy_failures",
            "Turns answered with the rules' default because the strategy raised (error),"
            " answered an action that is not legal (illegal) or took too long (timeout)",
            ["bot", "kind"],
        )
        self.stale = self.counter(
            "swick_bot_stale_turns",
            "Turns dropped unanswered: their deadline had passed or a newer one had come",
            ["bot"],
        )
        self.set_aside = self.counter(
            "swick_bot_turns_set_aside",
            "Turns that can never be played (they do not parse), rejected and logged",
            ["bot"],
        )
        self.refused = self.counter(
            "swick_bot_actions_refused",
            "Answers the broker refused because the bot's actions queue was full (it sends more"
            " than the tables take): the seat gets the timer's decision",
            ["bot"],
        )
        self.restarts = self.counter(
            "swick_bot_consumer_restarts",
            "Times a bot's consumer stopped on a broker error and was started again",
            ["bot"],
        )
