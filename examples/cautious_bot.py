"""An example bot: plays like ``medium`` but only knocks with a strong hand.

It imports nothing but the bot SDK (``swick_sdk``), as a bot outside this repository
would. Run it against the built-in bots in the arena:

    swick arena --seats examples.cautious_bot:Cautious,medium,medium --deals 5000

and serve it to real tables (they seat it by the name ``cautious``):

    swick bots --strategy examples.cautious_bot:Cautious --name cautious
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from swick_sdk import swick as sdk


class Cautious:
    """Knocks only with two likely tricks; otherwise plays like the medium bot."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action:
        if view.phase is sdk.Phase.KNOCK:
            strong = sdk.strength(sdk.own_cards(view), sdk.trump_suit(view)) >= 2.0
            return sdk.Knock(knock=strong)
        return sdk.medium(view, legal)
