"""Euchre for bots: the view, the actions, the cards and the built-in medium bot's measures.

At a Euchre table (``view.game == "euchre"``) a bot's ``choose(view, legal)`` is given a
``EuchreView`` and returns one of ``legal``::

    import random
    from collections.abc import Sequence

    from swick_sdk import euchre as sdk


    class MyBot:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def choose(self, view: sdk.EuchreView, legal: Sequence[sdk.Action]) -> sdk.Action:
            choice = sdk.medium(view, legal)
            if isinstance(choice, sdk.OrderUp | sdk.NameTrump) and choice.alone:
                return sdk.with_partner(choice)  # never alone
            return choice

**The view** (``EuchreView``): the seat's own hand (``hand``), the dealer's own discard
(``discarded``), the turn-up and where it lies (``turn_up``, ``turn_up_at``), every call made
(``calls``: ``Call``), trump, the maker and whether they went alone, who sits out
(``resting``), the trick in progress (``trick``: ``(seat, card)`` pairs) and the hand's
finished tricks (``played``) with who took each (``winners``), the teams' tricks and scores,
every seat's public state (``seats``: ``SeatView``) and the last hand's result
(``HandResult``). Seats 0 and 2 are one team (``team_of``), 1 and 3 the other.

**The phases** (``Phase``) and what each asks for: ``order`` (the first round: ``OrderUp``,
alone or not, or ``Pass``), ``discard`` (the dealer who took the turn-up: ``Discard``),
``name`` (the second round: ``NameTrump`` or ``Pass``; the dealer is stuck and must name),
``tricks`` (``PlayCard``) and ``interlude`` (``NextHand``).

**Cards** in a view are Euchre's 24 cards, ints ``suit * 6 + rank`` (rank 0 the Nine, 5 the
Ace; suits ♣ 0, ♦ 1, ♥ 2, ♠ 3 as in every game): ``suit_of``, ``rank_of``, ``make``,
``label`` and ``parse``/``code`` (the protocol's ``"JH"``) convert; ``index`` gives a card's
number in the one numbering every game shares and ``from_index`` the card back. The bowers
change a card's suit: ``effective_suit``, ``is_trump``, ``right_bower``, ``left_bower``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from services.bots.euchre import heuristics
from services.bots.euchre.knowledge import from_view
from shared.games.euchre.actions import (
    Action,
    Discard,
    NameTrump,
    NextHand,
    OrderUp,
    Pass,
    PlayCard,
)
from shared.games.euchre.cards import (
    DECK,
    SUITS,
    Card,
    Suit,
    code,
    effective_suit,
    is_trump,
    label,
    left_bower,
    make,
    parse,
    rank_of,
    right_bower,
    same_colour,
    suit_of,
)
from shared.games.euchre.state import Call, HandResult, Phase, partner_of, team_of
from shared.games.euchre.views import EuchreView, SeatView, Trick
from shared.games.interface import Option
from swick_sdk.cards import Numbering
from swick_sdk.options import legal_actions, refused

GAME = "euchre"
SEATS = range(4, 5)  # four seats, two partnerships

_NUMBERING = Numbering(GAME, DECK, code)
index = _NUMBERING.index
from_index = _NUMBERING.from_index

__all__ = [
    "DECK",
    "GAME",
    "SEATS",
    "SUITS",
    "Action",
    "Call",
    "Card",
    "Discard",
    "EuchreView",
    "HandResult",
    "NameTrump",
    "NextHand",
    "Option",
    "OrderUp",
    "Pass",
    "Phase",
    "PlayCard",
    "SeatView",
    "Suit",
    "Trick",
    "code",
    "effective_suit",
    "from_index",
    "hand_value",
    "index",
    "is_trump",
    "label",
    "left_bower",
    "legal_actions",
    "make",
    "medium",
    "parse",
    "partner_of",
    "rank_of",
    "refused",
    "right_bower",
    "same_colour",
    "suit_of",
    "team_of",
    "with_partner",
]


def hand_value(hand: Sequence[Card], trump: int) -> float:
    """The likely tricks of ``hand`` with ``trump`` as trump (the medium bot's measure: it
    makes trump at about 2.7 and goes alone at about 4.3)."""
    return heuristics.hand_value(hand, trump)


def with_partner(call: OrderUp | NameTrump) -> OrderUp | NameTrump:
    """The same call, not alone."""
    return replace(call, alone=False)


def medium(view: EuchreView, legal: Sequence[Action]) -> Action:
    """What the built-in ``medium`` bot would choose: a sound default to build on."""
    return heuristics.choose(from_view(view), legal)
