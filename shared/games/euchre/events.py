"""What happened at a Euchre table: the facts ``decide`` finds and ``evolve`` applies.

Every random outcome is recorded as data (the dealt hands, the turn-up and the kitty), so
replaying a table's events reproduces it exactly without the seed. The lifecycle's events are
the table's (``shared.games.table.events``), as are a card played and a trick taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games.euchre.cards import Card, Suit
from shared.games.euchre.state import GameEndReason, HandResult
from shared.games.table import events as table
from shared.games.table.events import *  # noqa: F403  (the table's events are this game's)
from shared.games.table.events import LifecycleEvent


@dataclass(frozen=True, slots=True)
class GameStarted:
    """``first_dealer`` was drawn from the seed among all four seats; ``stakes`` is what each
    seat paid into the pot (the table's stake; empty or zeros at a points-only table)."""

    seed: str
    fingerprint: str
    first_dealer: int
    stakes: tuple[int, ...] = ()
    kind: Literal["game_started"] = "game_started"


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Five cards to each seat (by seat number), the turn-up and the three kitty cards."""

    hand_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    turn_up: Card
    kitty: tuple[Card, ...]
    kind: Literal["hand_dealt"] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    kind: Literal["passed"] = "passed"


@dataclass(frozen=True, slots=True)
class TurnedDown:
    """All four passed the turn-up: it is turned down and the second round begins."""

    kind: Literal["turned_down"] = "turned_down"


@dataclass(frozen=True, slots=True)
class TrumpMade:
    """``seat`` made ``suit`` trump (ordering up in the first round, naming in the second)."""

    seat: int
    suit: Suit
    alone: bool
    kind: Literal["trump_made"] = "trump_made"


@dataclass(frozen=True, slots=True)
class TurnUpTaken:
    """The dealer takes the turn-up into their hand and must discard one card."""

    kind: Literal["turn_up_taken"] = "turn_up_taken"


DealerDiscarded = table.DealerDiscarded  # the same in the games that have it


@dataclass(frozen=True, slots=True)
class TricksStarted:
    leader: int
    kind: Literal["tricks_started"] = "tricks_started"


@dataclass(frozen=True, slots=True)
class HandScored:
    result: HandResult
    kind: Literal["hand_scored"] = "hand_scored"


@dataclass(frozen=True, slots=True)
class GameEnded:
    """``winner`` is the team that reached the target or whose opponents forfeited (``None``
    when the game was cut short without a forfeit); ``payouts`` is what each seat takes from
    the pot (empty or zeros without a stake); ``forfeited`` the seats of the partnership that
    ended the game early and so lost its stakes to the winner (rules §12.5)."""

    seed: str
    scores: tuple[int, int]
    winner: int | None
    reason: GameEndReason
    payouts: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()
    kind: Literal["game_ended"] = "game_ended"


TableClosing = table.TableClosing  # a closing with the seats that forfeit

Event: TypeAlias = (
    LifecycleEvent
    | TableClosing
    | GameStarted
    | HandDealt
    | Passed
    | TurnedDown
    | TrumpMade
    | TurnUpTaken
    | table.DealerDiscarded[Card]
    | TricksStarted
    | table.CardPlayed[Card]
    | table.TrickTaken
    | HandScored
    | GameEnded
)
