"""The decisions of a Euchre hand, as a seat sends them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games.euchre.cards import Card, Suit
from shared.games.lifecycle import LifecycleAction


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


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card
    kind: Literal["play"] = "play"


@dataclass(frozen=True, slots=True)
class NextHand:
    """Done looking at the last hand's result: the next one may be dealt."""

    kind: Literal["next_hand"] = "next_hand"


HandAction: TypeAlias = OrderUp | NameTrump | Pass | Discard | PlayCard | NextHand
Action: TypeAlias = HandAction | LifecycleAction
