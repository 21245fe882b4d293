"""The built-in Contract Whist bots at the platform's levels: ``easy``, ``medium``, ``hard``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots.contract_whist import heuristics
from services.bots.contract_whist.knowledge import from_view
from services.bots.contract_whist.search import WORLDS, Search
from services.bots.strategy import AnyLegal, Seeded
from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.views import WhistView


class Easy(AnyLegal[WhistView, ac.Action]):
    """Any legal action, at random."""


class Medium(Seeded):
    """Rules of thumb for every decision (see ``heuristics``)."""

    def choose(self, view: WhistView, legal: Sequence[ac.Action]) -> ac.Action:
        return heuristics.choose(from_view(view), legal)


class Hard:
    """Sampled worlds played out by the rules of thumb (see ``search``)."""

    def __init__(self, rng: random.Random, worlds: int = WORLDS) -> None:
        self.search = Search(rng, worlds)

    def choose(self, view: WhistView, legal: Sequence[ac.Action]) -> ac.Action:
        return self.search.choose(from_view(view), legal)
