"""What happened at a Contract Whist table: the facts ``decide`` finds and ``evolve`` applies.

Every random outcome is recorded as data (the dealt hands and the undealt cards), so replaying
a table's events reproduces it exactly without the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from shared.games.contract_whist.cards import Card, Suit
from shared.games.contract_whist.state import GameEndReason, RoundResult
from shared.games.lifecycle import Player


@dataclass(frozen=True, slots=True)
class Accepted:
    """Opens the events of every accepted command; ``actor`` is ``None`` for the table."""

    action_id: str
    actor: int | None
    kind: Literal["accepted"] = "accepted"


@dataclass(frozen=True, slots=True)
class SeatTaken:
    seat: int
    player: Player
    stack: int
    kind: Literal["seat_taken"] = "seat_taken"


@dataclass(frozen=True, slots=True)
class SeatLeft:
    seat: int
    kind: Literal["seat_left"] = "seat_left"


@dataclass(frozen=True, slots=True)
class LeavingAfterHand:
    seat: int
    kind: Literal["leaving_after_hand"] = "leaving_after_hand"


@dataclass(frozen=True, slots=True)
class SatOut:
    seat: int
    sitting_out: bool
    kind: Literal["sat_out"] = "sat_out"


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    seat: int
    connected: bool
    kind: Literal["connection_changed"] = "connection_changed"


@dataclass(frozen=True, slots=True)
class HostChanged:
    seat: int | None
    kind: Literal["host_changed"] = "host_changed"


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
class Waiting:
    """Not every seat can play: the table waits for players."""

    kind: Literal["waiting"] = "waiting"


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
class CardPlayed:
    seat: int
    card: Card
    kind: Literal["card_played"] = "card_played"


@dataclass(frozen=True, slots=True)
class TrickTaken:
    winner: int
    kind: Literal["trick_taken"] = "trick_taken"


@dataclass(frozen=True, slots=True)
class RoundScored:
    result: RoundResult
    kind: Literal["round_scored"] = "round_scored"


@dataclass(frozen=True, slots=True)
class InterludeStarted:
    """The round's result shows until ``until`` (ms), or until these people have seen it."""

    seats: tuple[int, ...]
    until: int
    kind: Literal["interlude_started"] = "interlude_started"


@dataclass(frozen=True, slots=True)
class ResultSeen:
    seat: int
    kind: Literal["result_seen"] = "result_seen"


@dataclass(frozen=True, slots=True)
class InterludeEnded:
    kind: Literal["interlude_ended"] = "interlude_ended"


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: int
    kind: Literal["timed_out"] = "timed_out"


@dataclass(frozen=True, slots=True)
class DeadlineSet:
    at: int | None
    kind: Literal["deadline_set"] = "deadline_set"


@dataclass(frozen=True, slots=True)
class AttendanceChanged:
    """Since when no seat has held a connected person (``None``: one does again)."""

    unattended_since: int | None
    kind: Literal["attendance_changed"] = "attendance_changed"


@dataclass(frozen=True, slots=True)
class TableClosing:
    """The table closes at its next round boundary. ``quitters`` are the seats whose people end
    the game by closing it (the last to leave, or all who abandoned it): they forfeit their
    stakes (rules §8.4); empty when no player chose it (the table could not be set up)."""

    quitters: tuple[int, ...] = ()
    kind: Literal["table_closing"] = "table_closing"


@dataclass(frozen=True, slots=True)
class TableClosed:
    """Every seat is vacated; the table takes no more commands."""

    kind: Literal["table_closed"] = "table_closed"


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


Event: TypeAlias = (
    Accepted
    | SeatTaken
    | SeatLeft
    | LeavingAfterHand
    | SatOut
    | ConnectionChanged
    | HostChanged
    | GameStarted
    | Waiting
    | RoundDealt
    | BidMade
    | TrumpChosen
    | CardPlayed
    | TrickTaken
    | RoundScored
    | InterludeStarted
    | ResultSeen
    | InterludeEnded
    | TimedOut
    | DeadlineSet
    | AttendanceChanged
    | TableClosing
    | TableClosed
    | GameEnded
)
