"""The built-in Euchre bots at the platform's levels: ``easy``, ``medium`` and ``hard``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots.euchre import heuristics
from services.bots.euchre.knowledge import from_view
from services.bots.euchre.search import WORLDS, Search
from services.bots.strategy import Seeded
from shared.games.euchre import actions as ac
from shared.games.euchre.views import EuchreView


class Easy(Seeded):
    """Never makes trump unless stuck (then a random suit); otherwise any legal action."""

    def choose(self, view: EuchreView, legal: Sequence[ac.Action]) -> ac.Action:
        if ac.Pass() in legal:
            return ac.Pass()
        plain = [a for a in legal if not getattr(a, "alone", False)]
        return self.rng.choice(plain or list(legal))


class Medium(Seeded):
    """Rules of thumb for every decision (see ``heuristics``)."""

    def choose(self, view: EuchreView, legal: Sequence[ac.Action]) -> ac.Action:
        return heuristics.choose(from_view(view), legal)


class Hard:
    """Sampled worlds played out by the rules of thumb (see ``search``)."""

    def __init__(self, rng: random.Random, worlds: int = WORLDS) -> None:
        self.search = Search(rng, worlds)

    def choose(self, view: EuchreView, legal: Sequence[ac.Action]) -> ac.Action:
        return self.search.choose(view, legal)
