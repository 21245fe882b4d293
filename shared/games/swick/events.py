"""What happened at a Swick table: the facts ``decide`` finds and ``evolve`` applies.

Every random outcome is recorded as data (the dealt cards, the recycled stock), so replaying a
table's events reproduces it exactly without the seed. The lifecycle's events are the table's
(``shared.games.table.events``), as are a card played and a trick taken; a Swick table's
closing has no forfeit, so no ``quitters``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games.swick.cards import Card
from shared.games.swick.state import GameEndReason, HandResult, Phase, Standing
from shared.games.table import events as table
from shared.games.table.events import *  # noqa: F403  (the table's events are this game's)
from shared.games.table.events import LifecycleEvent


@dataclass(frozen=True, slots=True)
class GameStarted:
    """``first_dealer`` was drawn from the seed among ``dealer_candidates``."""

    seed: str
    fingerprint: str
    first_dealer: int
    dealer_candidates: tuple[int, ...]
    kind: Literal["game_started"] = "game_started"


@dataclass(frozen=True, slots=True)
class HandOpened:
    """A hand begins: ``candidates`` are the seats asked to ready up besides the dealer."""

    dealer: int
    free_ride: bool
    candidates: tuple[int, ...]
    kind: Literal["hand_opened"] = "hand_opened"


@dataclass(frozen=True, slots=True)
class AnteChosen:
    amount: int
    entropy: str
    kind: Literal["ante_chosen"] = "ante_chosen"


@dataclass(frozen=True, slots=True)
class Readied:
    seat: int
    entropy: str
    kind: Literal["readied"] = "readied"


@dataclass(frozen=True, slots=True)
class HandSkipped:
    seat: int
    kind: Literal["hand_skipped"] = "hand_skipped"


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Antes paid and cards dealt. ``order`` runs from the dealer's left; the dealer is last."""

    hand_no: int
    order: tuple[int, ...]
    antes: tuple[int, ...]
    context: str
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card
    stock: tuple[Card, ...]
    kind: Literal["hand_dealt"] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class PhaseStarted:
    phase: Phase
    turn: int | None
    kind: Literal["phase_started"] = "phase_started"


@dataclass(frozen=True, slots=True)
class TrumpDecided:
    keep: bool
    kind: Literal["trump_decided"] = "trump_decided"


@dataclass(frozen=True, slots=True)
class Knocked:
    seat: int
    knock: bool
    kind: Literal["knocked"] = "knocked"


@dataclass(frozen=True, slots=True)
class Drew:
    """``recycled``: earlier discards, reshuffled and put under the stock before this draw."""

    seat: int
    discards: tuple[Card, ...]
    drawn: tuple[Card, ...]
    recycled: tuple[Card, ...] = ()
    kind: Literal["drew"] = "drew"


DealerDiscarded = table.DealerDiscarded  # the same in the games that have it


@dataclass(frozen=True, slots=True)
class FaceTrumpDecided:
    play: bool
    kind: Literal["face_trump_decided"] = "face_trump_decided"


@dataclass(frozen=True, slots=True)
class HandSettled:
    result: HandResult
    kind: Literal["hand_settled"] = "hand_settled"


@dataclass(frozen=True, slots=True)
class TableClosing:
    """The table closes at its next hand boundary."""

    kind: Literal["table_closing"] = "table_closing"


@dataclass(frozen=True, slots=True)
class CarryShared:
    """The table closes with a carry: it goes to the seated players, ``shares`` by seat."""

    shares: tuple[int, ...]
    kind: Literal["carry_shared"] = "carry_shared"


@dataclass(frozen=True, slots=True)
class GameEnded:
    seed: str
    standings: tuple[Standing, ...]
    reason: GameEndReason = "host"
    kind: Literal["game_ended"] = "game_ended"


Event: TypeAlias = (
    LifecycleEvent
    | GameStarted
    | HandOpened
    | AnteChosen
    | Readied
    | HandSkipped
    | HandDealt
    | PhaseStarted
    | TrumpDecided
    | Knocked
    | Drew
    | table.DealerDiscarded[Card]
    | FaceTrumpDecided
    | table.CardPlayed[Card]
    | table.TrickTaken
    | HandSettled
    | GameEnded
    | TableClosing
    | CarryShared
)
