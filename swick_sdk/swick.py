"""Swick for bots: the view, the actions, the cards and the built-in medium bot's measures.

A Swick bot's ``choose(view, legal)`` is given a ``SwickView`` and returns one of ``legal``::

    import random
    from collections.abc import Sequence

    from swick_sdk import swick as sdk


    class MyBot:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def choose(self, view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action:
            if view.phase is sdk.Phase.KNOCK:
                return sdk.Knock(knock=sdk.strength(sdk.own_cards(view), sdk.trump_suit(view)) >= 2)
            return sdk.medium(view, legal)

**The view** (``SwickView``) is exactly what a player at the seat sees: its own cards
(``hand``; ``None`` for a blind dealer's unseen cards), its own discards (``discarded``), every
seat's public state (``seats``: ``SeatView``), the trump card and whether the dealer kept it,
the trick in progress (``trick``: ``(seat, card)`` in the order played) and the hand's finished
tricks (``played``), the pot and the carry, the play order (``order``: the seats dealt in, from
the dealer's left, the dealer last), who is to act (``to_act``) and the last hand's result.

**A seat's status** (``SeatView.status``, ``SeatStatus``): ``""`` not dealt in this hand (an
empty seat, a seat sitting out, or between hands); ``"dealt"`` dealt in, not yet decided;
``"in"`` knocked in (plays the tricks); ``"passed"`` passed (out of the hand); ``"dropped"``
a dealer who chose Set single (out of the hand, pays the set).

**The phases** (``Phase``): between hands ``ante`` (the dealer sets the ante: ``ChooseAnte``),
``ready`` (``Ready`` or ``SkipHand``), ``interlude`` and ``ended``; within a hand ``trump``
(the blind dealer keeps or leaves the trump card: ``DecideTrump``), ``knock`` (``Knock``),
``draw`` (``Draw``: the cards to discard and draw), ``dealer_knock``, ``dealer_draw``,
``dealer_discard`` (``DiscardFourth``), ``face_trump`` (``FaceTrump``) and ``tricks``
(``PlayCard``). ``SWICK_RULES.md`` has the rules.

**Cards** in a view are Swick's 32 cards, ints ``suit * 8 + rank`` (rank 0 is the Seven, 7 the
Ace): ``suit_of``, ``rank_of``, ``make``, ``label`` and ``parse``/``code`` (the protocol's
``"AS"``) convert; ``index`` gives a card's number in the one numbering every game shares
(``swick_sdk.card_index`` of its code) and ``from_index`` the card back.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.bots import heuristics
from services.bots.knowledge import from_view
from shared.games.interface import Option
from shared.games.swick.actions import (
    Action,
    ChooseAnte,
    DecideTrump,
    DiscardFourth,
    Draw,
    FaceTrump,
    Knock,
    PlayCard,
    Ready,
    SkipHand,
)
from shared.games.swick.cards import DECK, Card, code, label, make, parse, rank_of, suit_of
from shared.games.swick.state import HandResult, Phase, SeatStatus
from shared.games.swick.views import SeatView, SwickView, Trick
from swick_sdk.cards import Numbering
from swick_sdk.options import legal_actions, refused

GAME = "swick"
SEATS = range(3, 7)  # the table sizes a Swick game is played at

_NUMBERING = Numbering(GAME, DECK, code)
index = _NUMBERING.index
from_index = _NUMBERING.from_index

__all__ = [
    "DECK",
    "GAME",
    "SEATS",
    "Action",
    "Card",
    "ChooseAnte",
    "DecideTrump",
    "DiscardFourth",
    "Draw",
    "FaceTrump",
    "HandResult",
    "Knock",
    "Option",
    "Phase",
    "PlayCard",
    "Ready",
    "SeatStatus",
    "SeatView",
    "SkipHand",
    "SwickView",
    "Trick",
    "code",
    "from_index",
    "index",
    "label",
    "legal_actions",
    "make",
    "medium",
    "own_cards",
    "parse",
    "play_order",
    "rank_of",
    "refused",
    "seen_cards",
    "strength",
    "suit_of",
    "trump_suit",
]


def own_cards(view: SwickView) -> tuple[Card, ...]:
    """The cards of the seat's hand it can see (a blind dealer's unseen cards left out)."""
    return tuple(card for card in view.hand if card is not None)


def trump_suit(view: SwickView) -> int | None:
    """The trump suit, once a trump card is turned."""
    return None if view.trump_card is None else suit_of(view.trump_card)


def play_order(view: SwickView) -> tuple[int, ...]:
    """The seats still in the hand (status ``"in"``), in play order: from the dealer's left,
    the dealer last. The first trick's leader is the first of them; later tricks are led by
    the last trick's winner, and play goes on in this order round the table."""
    return tuple(seat for seat in view.order if view.seats[seat].status == "in")


def seen_cards(view: SwickView) -> frozenset[Card]:
    """Every card the seat has seen this hand: its own, its discards, the trump card and the
    cards played to tricks. None of them is in another player's hand."""
    cards = set(own_cards(view)) | set(view.discarded)
    if view.trump_card is not None:
        cards.add(view.trump_card)
    for trick in (*view.played, view.trick):
        cards.update(card for _, card in trick)
    return frozenset(cards)


def strength(hand: Sequence[Card], trump: int | None) -> float:
    """The likely tricks of ``hand`` with ``trump`` as the trump suit (the medium bot's
    measure: about 1 a sure trick)."""
    return heuristics.strength(hand, trump)


def medium(view: SwickView, legal: Sequence[Action]) -> Action:
    """What the built-in ``medium`` bot would choose: a sound default to build on."""
    return heuristics.choose(from_view(view), legal)
