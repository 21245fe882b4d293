"""What the table decides for a seat whose deadline passes, worked out from that seat's view.

A bot answers with it when its strategy fails or answers illegally, so the table moves on at
once, exactly as it would have on the timer. It is ``legal.default_action`` (rules §3) from what
the seat can see: the legal options carry everything the state would add (the antes a hand
can start at, the cards the rules let it play or discard).
"""

from __future__ import annotations

from shared.games.swick import actions as ac
from shared.games.swick.legal import KNOCK, LEAVE_TRUMP, PASS, PLAY_FACE, SKIP_HAND
from shared.games.swick.play import lowest
from shared.games.swick.state import Phase
from shared.games.swick.views import SwickView


def seat_default(view: SwickView) -> ac.Action:
    """The action the table's timer would take for the seat of ``view``."""
    legal = [option.action for option in view.options if option.legal]
    trump = None if view.trump_card is None else view.trump_card >> 3
    phase = view.phase
    if phase is Phase.TRICKS:
        return ac.PlayCard(lowest([a.card for a in legal if isinstance(a, ac.PlayCard)], trump))
    if phase is Phase.KNOCK:
        return PASS
    if phase is Phase.DEALER_KNOCK:
        return KNOCK if view.kept else PASS
    if phase is Phase.DRAW or phase is Phase.DEALER_DRAW:
        return ac.Draw(())
    if phase is Phase.READY:
        return SKIP_HAND
    if phase is Phase.TRUMP:
        return LEAVE_TRUMP
    if phase is Phase.ANTE:
        return ac.ChooseAnte(min(a.amount for a in legal if isinstance(a, ac.ChooseAnte)))
    if phase is Phase.DEALER_DISCARD:
        cards = [a.card for a in legal if isinstance(a, ac.DiscardFourth)]
        return ac.DiscardFourth(lowest(cards, trump))
    if phase is Phase.FACE_TRUMP:
        return PLAY_FACE
    raise ValueError(f"nothing to decide at {phase}")
