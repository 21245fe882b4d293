"""What the table decides for a seat whose deadline passes, worked out from that seat's view.

A bot answers with it when its strategy fails or answers illegally, so the table moves on at
once, exactly as it would have on the timer: ``legal.default_choice`` from what the seat sees.
"""

from __future__ import annotations

from shared.games.contract_whist import actions as ac
from shared.games.contract_whist.legal import default_choice
from shared.games.contract_whist.views import WhistView


def seat_default(view: WhistView) -> ac.Action:
    """The action the table's timer would take for the seat of ``view``."""
    return default_choice(view.phase, view.hand, view.trick, view.trump, view.options)
