"""The decisions of a Swick hand, as a seat sends them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from shared.games import lifecycle
from shared.games.exact_fields import OPTIONAL
from shared.games.swick.cards import Card


@dataclass(frozen=True, slots=True)
class ChooseAnte:
    """The dealer sets the ante of a normal hand (the dealer pays it plus 3)."""

    amount: int
    entropy: str = field(default="", metadata=OPTIONAL)
    kind: Literal["ante"] = "ante"


@dataclass(frozen=True, slots=True)
class Ready:
    """Be dealt into this hand, optionally adding entropy to its shuffle."""

    entropy: str = field(default="", metadata=OPTIONAL)
    kind: Literal["ready"] = "ready"


@dataclass(frozen=True, slots=True)
class SkipHand:
    """Sit this hand out only (what the table decides when the ready-up deadline passes)."""

    kind: Literal["skip_hand"] = "skip_hand"


@dataclass(frozen=True, slots=True)
class DecideTrump:
    """The dealer keeps the turned trump card or leaves it on the table."""

    keep: bool
    kind: Literal["trump"] = "trump"


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock in (play the hand) or pass (``knock=False``)."""

    knock: bool
    kind: Literal["knock"] = "knock"


@dataclass(frozen=True, slots=True)
class Draw:
    """Discard 0 to 3 cards face down and draw as many."""

    discards: tuple[Card, ...]
    kind: Literal["draw"] = "draw"


@dataclass(frozen=True, slots=True)
class DiscardFourth:
    """A dealer who kept the trump card discards one card, down to three."""

    card: Card
    kind: Literal["discard"] = "discard"


@dataclass(frozen=True, slots=True)
class FaceTrump:
    """With a kept face trump: play for two tricks, or set single (``play=False``) at once."""

    play: bool
    kind: Literal["face_trump"] = "face_trump"


PlayCard = lifecycle.PlayCard  # a card is played the same in every game, over its cards
NextHand = lifecycle.NextHand  # seen the result: the interlude is the lifecycle's

HandAction: TypeAlias = (
    ChooseAnte
    | Ready
    | SkipHand
    | NextHand
    | DecideTrump
    | Knock
    | Draw
    | DiscardFourth
    | FaceTrump
    | lifecycle.PlayCard[Card]
)
Action: TypeAlias = HandAction | lifecycle.LifecycleAction
