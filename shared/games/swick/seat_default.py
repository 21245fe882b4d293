"""What the table decides for a seat whose deadline passes, worked out from that seat's view.

A bot answers with it when its strategy fails or answers illegally, so the table moves on at
once, exactly as it would have on the timer. It is ``legal.default_choice`` (rules §3) from what
the seat can see: the legal options carry everything the state would add (the antes a hand
can start at, the cards the rules let it play or discard).
"""

from __future__ import annotations

from shared.games.swick import actions as ac
from shared.games.swick.legal import default_choice
from shared.games.swick.views import SwickView


def seat_default(view: SwickView) -> ac.Action:
    """The action the table's timer would take for the seat of ``view``."""
    trump = None if view.trump_card is None else view.trump_card >> 3
    return default_choice(view.phase, view.kept, trump, view.options)
