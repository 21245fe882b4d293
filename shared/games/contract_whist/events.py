"""What happened at a Contract Whist table: the facts ``decide`` finds and ``evolve`` applies.

Every random outcome is recorded as data (the dealt hands and the undealt cards), so replaying
a table's events reproduces it exactly without the seed. The lifecycle's events are the table's
(``shared.games.table.events``), as are a card played and a trick taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games.contract_whist.cards import Card, Suit
from shared.games.contract_whist.state import GameEndReason, RoundResult
from shared.games.table import events as table
from shared.games.table.events import *  # noqa: F403  (the table's events are this game's)
from shared.games.table.events import LifecycleEvent


@dataclass(frozen=True, slots=True)
class GameStarted:
    """``first_bidder`` was drawn from the seed among all seats; ``stakes`` is what each seat
    paid into the pot (the table's stake, or nothing at a points-only table)."""

    seed: str
    fingerprint: str
    first_bidder: int
    stakes: tuple[int, ...]
    kind: Literal["game_started"] = "game_started"


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """``cards`` cards to each seat (by seat number); ``undealt`` the rest of the deck."""

    round_no: int
    cards: int
    first_bidder: int
    hands: tuple[tuple[Card, ...], ...]
    undealt: tuple[Card, ...]
    kind: Literal["round_dealt"] = "round_dealt"


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    bid: int
    kind: Literal["bid_made"] = "bid_made"


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """``seat`` (the highest bidder) chose ``suit``, or no trumps (``suit`` ``None``); the first
    bidder leads."""

    seat: int
    suit: Suit | None
    kind: Literal["trump_chosen"] = "trump_chosen"


@dataclass(frozen=True, slots=True)
class RoundScored:
    result: RoundResult
    kind: Literal["round_scored"] = "round_scored"


@dataclass(frozen=True, slots=True)
class GameEnded:
    """``winners`` are the seats sharing the highest total, or, the game cut short, the seated
    seats that did not end it; ``payouts`` is what each seat takes from the pot (all zero
    without a stake); ``forfeited`` the seats that ended the game early and so lost their
    stakes to the winners (rules §8.4)."""

    seed: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    payouts: tuple[int, ...]
    reason: GameEndReason
    forfeited: tuple[int, ...] = ()
    kind: Literal["game_ended"] = "game_ended"


TableClosing = table.TableClosing  # a closing with the seats that forfeit

Event: TypeAlias = (
    LifecycleEvent
    | TableClosing
    | GameStarted
    | RoundDealt
    | BidMade
    | TrumpChosen
    | table.CardPlayed[Card]
    | table.TrickTaken
    | RoundScored
    | GameEnded
)
