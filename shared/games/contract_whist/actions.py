"""The decisions of a Contract Whist round, as a seat sends them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games import lifecycle
from shared.games.contract_whist.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class MakeBid:
    """The number of tricks the seat says it will take this round (0 to the cards held)."""

    bid: int
    kind: Literal["bid"] = "bid"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The highest bidder makes ``suit`` trump, or plays the round at no trumps (``None``)."""

    suit: Suit | None
    kind: Literal["choose_trump"] = "choose_trump"


PlayCard = lifecycle.PlayCard  # a card is played the same in every game, over its cards
NextHand = lifecycle.NextHand  # seen the result: the interlude is the lifecycle's

RoundAction: TypeAlias = MakeBid | ChooseTrump | lifecycle.PlayCard[Card] | NextHand
Action: TypeAlias = RoundAction | lifecycle.LifecycleAction
