"""An example bot: plays like ``medium`` but only knocks with a strong hand.

Run it against the built-in bots in the arena:

    swick arena --seats examples.cautious_bot:Cautious,medium,medium --hands 5000

and serve it to real tables (they seat it by the name ``cautious``):

    swick bots --strategy examples.cautious_bot:Cautious --name cautious
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots import heuristics
from services.bots.knowledge import from_view
from shared.games.swick import actions as ac
from shared.games.swick.state import Phase
from shared.games.swick.views import SwickView


class Cautious:
    """Knocks only with two likely tricks; otherwise plays like the medium bot."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        knowledge = from_view(view)
        if view.phase is Phase.KNOCK:
            return ac.Knock(knock=heuristics.strength(knowledge.hand, knowledge.trump) >= 2.0)
        return heuristics.choose(knowledge, legal)
