"""The built-in bots: ``easy``, ``medium`` and ``hard``."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from services.bots import heuristics
from services.bots.budget import HARD_CAP_MS, HARD_WORLDS
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

    def __init__(
        self,
        rng: random.Random,
        worlds: int = HARD_WORLDS,
        cap_ms: float | None = HARD_CAP_MS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.search = Search(rng, worlds=worlds, cap_ms=cap_ms, clock=clock)

    def choose(self, view: SwickView, legal: Sequence[Action]) -> Action:
        return self.search.choose(view, legal)


LEVELS: dict[str, StrategyFactory] = {"easy": Easy, "medium": Medium, "hard": Hard}


def strategy(level: str, rng: random.Random) -> Strategy:
    return LEVELS[level](rng)
