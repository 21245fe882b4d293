"""An example Euchre bot: makes trump only with a strong hand and never goes alone; otherwise
it plays like ``medium``.

It imports nothing but the bot SDK (``swick_sdk``), as a bot outside this repository would.
Measure it against the built-in bots, every deal played with the partnerships both ways:

    swick arena --game euchre --seats examples.euchre_bot:Steady,medium --deals 200 --duplicate

and check it answers legally wherever it is asked:

    swick bots check --game euchre --strategy examples.euchre_bot:Steady
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from swick_sdk import euchre as sdk

STRONG = 3.2  # likely tricks (medium's measure) to make trump with; medium makes it at 2.7


class Steady:
    """Passes unless its hand is worth ``STRONG`` tricks in the suit it would make trump, and
    never plays alone."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: sdk.EuchreView, legal: Sequence[sdk.Action]) -> sdk.Action:
        choice = sdk.medium(view, legal)
        if isinstance(choice, sdk.OrderUp | sdk.NameTrump):
            if isinstance(choice, sdk.NameTrump):
                trump = choice.suit
            else:
                assert view.turn_up is not None  # ordering up is offered only with one
                trump = sdk.suit_of(view.turn_up)
            if sdk.Pass() in legal and sdk.hand_value(view.hand, trump) < STRONG:
                return sdk.Pass()
            partnered = sdk.with_partner(choice)
            if partnered in legal:
                return partnered
        return choice
