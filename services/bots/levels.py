"""The built-in bots: ``easy``, ``medium`` and ``hard``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots import heuristics
from services.bots.knowledge import from_view
from services.bots.search import Search
from services.bots.strategy import Strategy, StrategyFactory
from shared.games.swick.actions import Action
from shared.games.swick.views import SwickView


class Easy:
    """Any legal action, at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SwickView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


class Medium:
    """Sound heuristics for every decision (see ``heuristics``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SwickView, legal: Sequence[Action]) -> Action:
        return heuristics.choose(from_view(view), legal)


class Hard:
    """Determinized Monte Carlo search with the pure engine (see ``search``)."""

    def __init__(self, rng: random.Random, budget_ms: float = 200.0, worlds: int = 400) -> None:
        self.search = Search(rng, budget_ms=budget_ms, max_worlds=worlds)

    def choose(self, view: SwickView, legal: Sequence[Action]) -> Action:
        return self.search.choose(view, legal)


LEVELS: dict[str, StrategyFactory] = {"easy": Easy, "medium": Medium, "hard": Hard}


def strategy(level: str, rng: random.Random) -> Strategy:
    return LEVELS[level](rng)
