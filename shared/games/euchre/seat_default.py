"""What the table decides for a seat whose deadline passes, worked out from that seat's view.

A bot answers with it when its strategy fails or answers illegally, so the table moves on at
once, exactly as it would have on the timer: ``legal.default_choice`` from what the seat sees.
"""

from __future__ import annotations

from shared.games.euchre import actions as ac
from shared.games.euchre.cards import suit_of
from shared.games.euchre.legal import default_choice
from shared.games.euchre.views import EuchreView


def seat_default(view: EuchreView) -> ac.Action:
    """The action the table's timer would take for the seat of ``view``."""
    barred = None
    if view.turn_up_at == "down" and view.turn_up is not None:
        barred = suit_of(view.turn_up)
    return default_choice(
        view.phase,
        view.seat is not None and view.seat == view.dealer,
        view.hand,
        view.trump,
        view.options,
        barred,
    )
