"""The decisions of a Euchre hand, as a seat sends them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games import lifecycle
from shared.games.euchre.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class OrderUp:
    """First round: make the turn-up's suit trump (the dealer's call is "pick it up")."""

    alone: bool = False
    kind: Literal["order_up"] = "order_up"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """Second round: make ``suit`` trump (never the turned-down suit)."""

    suit: Suit
    alone: bool = False
    kind: Literal["name_trump"] = "name_trump"


@dataclass(frozen=True, slots=True)
class Pass:
    kind: Literal["pass"] = "pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """The dealer who took the turn-up lays one card face down under the kitty."""

    card: Card
    kind: Literal["discard"] = "discard"


PlayCard = lifecycle.PlayCard  # a card is played the same in every game, over its cards
NextHand = lifecycle.NextHand  # seen the result: the interlude is the lifecycle's

HandAction: TypeAlias = OrderUp | NameTrump | Pass | Discard | lifecycle.PlayCard[Card] | NextHand
Action: TypeAlias = HandAction | lifecycle.LifecycleAction
