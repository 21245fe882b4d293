"""An example Contract Whist bot: bids low (its likely tricks rounded down) and plays to make
the bid like ``medium``.

It imports nothing but the bot SDK (``swick_sdk``), as a bot outside this repository would.
Measure it against the built-in bots, every deal played at every seating:

    swick arena --game contract-whist --seats examples.whist_bot:Underbidder,medium \\
        --deals 40 --duplicate

and check it answers legally wherever it is asked:

    swick bots check --game contract-whist --strategy examples.whist_bot:Underbidder
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from swick_sdk import contract_whist as sdk


class Underbidder:
    """Bids the legal bid nearest its hand's likely tricks rounded down (the lower on a tie:
    the hook's forbidden bid is never legal); otherwise plays like the medium bot."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: sdk.WhistView, legal: Sequence[sdk.Action]) -> sdk.Action:
        bids = [action for action in legal if isinstance(action, sdk.MakeBid)]
        if bids:
            want = math.floor(sdk.likely_tricks(view.hand))
            return min(bids, key=lambda action: (abs(action.bid - want), action.bid))
        return sdk.medium(view, legal)
