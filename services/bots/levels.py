"""The built-in bots: ``easy``, ``medium`` and ``hard``, each playing every game (Swick's
strategies here, Euchre's in ``services.bots.euchre``, Contract Whist's in
``services.bots.contract_whist``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from services.bots import heuristics
from services.bots.budget import HARD_CAP_MS, HARD_WORLDS
from services.bots.contract_whist import levels as whist
from services.bots.euchre import levels as euchre
from services.bots.games import view_game
from services.bots.knowledge import from_view
from services.bots.search import Search
from services.bots.strategy import AnyLegal, Seeded, Strategy, StrategyFactory
from shared.games.swick.actions import Action
from shared.games.swick.views import SwickView


class Easy(AnyLegal[SwickView, Action]):
    """Any legal action, at random."""


class Medium(Seeded):
    """Sound heuristics for every decision (see ``heuristics``)."""

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


class PerGame:
    """One level's strategy for each game, chosen by the view's game."""

    def __init__(self, by_game: Mapping[str, Any]) -> None:
        self.by_game = by_game

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return self.by_game[view_game(view)].choose(view, legal)


def per_game(
    swick: StrategyFactory,
    euchre: Callable[[random.Random], Any],
    whist: Callable[[random.Random], Any],
) -> StrategyFactory:
    """A level's factory: its Swick, Euchre and Contract Whist strategies, sharing the
    generator (a game's strategy draws from it only at that game's tables, so a Swick bot's
    choices are as they were before the other games came)."""

    def make(rng: random.Random) -> Strategy:
        return PerGame({"swick": swick(rng), "euchre": euchre(rng), "contract-whist": whist(rng)})

    return make


LEVELS: dict[str, StrategyFactory] = {
    "easy": per_game(Easy, euchre.Easy, whist.Easy),
    "medium": per_game(Medium, euchre.Medium, whist.Medium),
    "hard": per_game(Hard, euchre.Hard, whist.Hard),
}


def strategy(level: str, rng: random.Random) -> Strategy:
    return LEVELS[level](rng)
