"""Contract Whist for bots: the view, the actions, the cards and the built-in medium bot's
measures.

At a Contract Whist table (``view.game == "contract-whist"``) a bot's ``choose(view, legal)``
is given a ``WhistView`` and returns one of ``legal``::

    import random
    from collections.abc import Sequence

    from swick_sdk import contract_whist as sdk


    class MyBot:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def choose(self, view: sdk.WhistView, legal: Sequence[sdk.Action]) -> sdk.Action:
            bids = [action for action in legal if isinstance(action, sdk.MakeBid)]
            if bids:  # the legal bid nearest the hand's likely tricks, one lower on a tie
                want = sdk.likely_tricks(view.hand)
                return min(bids, key=lambda action: (abs(action.bid - want), action.bid))
            return sdk.medium(view, legal)

**The view** (``WhistView``): the seat's own hand (``hand``), the round (``round_no`` of
``rounds``) and the cards each seat was dealt (``cards``), every bid in bidding order
(``bids``: ``Bid``) and their total, the bid the last bidder may not make
(``forbidden_bid``: never among the legal actions), who chooses trump (``chooser``), trump or
no trumps, the trick in progress (``trick``: ``(seat, card)`` pairs) and the round's finished
tricks (``played``) with who took each (``takers``), the totals (``scores``) and the score
sheet (``sheet``: ``RoundResult``), and every seat's public state (``seats``: ``SeatView``).

**The phases** (``Phase``) and what each asks for: ``bid`` (``MakeBid``), ``trump`` (the
highest bidder: ``ChooseTrump``, a suit or ``None`` for no trumps), ``tricks``
(``PlayCard``) and ``interlude`` (``NextHand``).

**Cards** in a view are the full 52-card deck, ints ``suit * 13 + rank`` (rank 0 the Two, 12
the Ace; suits ♣ 0, ♦ 1, ♥ 2, ♠ 3 as in every game): ``suit_of``, ``rank_of``, ``make``,
``label`` and ``parse``/``code`` (the protocol's ``"QH"``) convert; ``index`` gives a card's
number in the one numbering every game shares (for this deck, the card itself) and
``from_index`` the card back.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.bots.contract_whist import heuristics
from services.bots.contract_whist.knowledge import from_view
from shared.games.contract_whist.actions import Action, ChooseTrump, MakeBid, NextHand, PlayCard
from shared.games.contract_whist.cards import (
    DECK,
    SUITS,
    Card,
    Suit,
    code,
    label,
    make,
    parse,
    rank_of,
    suit_of,
)
from shared.games.contract_whist.state import Bid, Phase, RoundResult
from shared.games.contract_whist.views import SeatView, Trick, WhistView
from shared.games.interface import Option
from swick_sdk.cards import Numbering
from swick_sdk.options import legal_actions, refused

GAME = "contract-whist"
SEATS = range(2, 6)  # the table sizes a game is played at

_NUMBERING = Numbering(GAME, DECK, code)
index = _NUMBERING.index
from_index = _NUMBERING.from_index

__all__ = [
    "DECK",
    "GAME",
    "SEATS",
    "SUITS",
    "Action",
    "Bid",
    "Card",
    "ChooseTrump",
    "MakeBid",
    "NextHand",
    "Option",
    "Phase",
    "PlayCard",
    "RoundResult",
    "SeatView",
    "Suit",
    "Trick",
    "WhistView",
    "code",
    "from_index",
    "index",
    "label",
    "legal_actions",
    "likely_tricks",
    "make",
    "medium",
    "parse",
    "rank_of",
    "refused",
    "suit_of",
]


def likely_tricks(hand: Sequence[Card]) -> float:
    """The tricks ``hand`` is likely to take (the medium bot's measure for its bid)."""
    return heuristics.likely_tricks(hand)


def medium(view: WhistView, legal: Sequence[Action]) -> Action:
    """What the built-in ``medium`` bot would choose: a sound default to build on."""
    return heuristics.choose(from_view(view), legal)
