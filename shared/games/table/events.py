"""The lifecycle's events, the same at every game's table (and so in every game's log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeAlias, TypeVar

from shared.games.lifecycle import Seating

C = TypeVar("C")  # a game's ``Card``, with its codes


@dataclass(frozen=True, slots=True)
class Accepted:
    """Opens the events of every accepted command; ``actor`` is ``None`` for the table."""

    action_id: str
    actor: int | None
    kind: Literal["accepted"] = "accepted"


@dataclass(frozen=True, slots=True)
class SeatTaken(Seating):
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
class Waiting:
    """Too few seats can play: the table waits for players."""

    kind: Literal["waiting"] = "waiting"


@dataclass(frozen=True, slots=True)
class InterludeStarted:
    """The hand's result shows until ``until`` (ms), or until these people have seen it."""

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
    """The table closes at its next hand boundary. ``quitters`` are the seats whose people end
    the game by closing it (the last to leave, or all who abandoned it): they forfeit; empty
    when no player chose it (the table could not be set up). A game without forfeits has its
    own ``table_closing`` event, with no ``quitters``."""

    quitters: tuple[int, ...] = ()
    kind: Literal["table_closing"] = "table_closing"


@dataclass(frozen=True, slots=True)
class TableClosed:
    """Every seat is vacated; the table takes no more commands."""

    kind: Literal["table_closed"] = "table_closed"


@dataclass(frozen=True, slots=True)
class CardPlayed(Generic[C]):
    """``seat`` played ``card``: the same in every game but for its cards. A game's union holds
    it as ``CardPlayed[Card]``, so its codes encode the card; an event is built unparametrized
    (``CardPlayed(seat, card)``: a frozen slotted instance cannot take its parameter)."""

    seat: int
    card: C
    kind: Literal["card_played"] = "card_played"


@dataclass(frozen=True, slots=True)
class DealerDiscarded(Generic[C]):
    """The dealer laid ``card`` away, in the games whose dealer takes one card too many; a
    game's union holds it as ``DealerDiscarded[Card]``, like ``CardPlayed``."""

    card: C
    kind: Literal["dealer_discarded"] = "dealer_discarded"


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """The trick is complete and ``winner`` takes it: the same in every game."""

    winner: int
    kind: Literal["trick_taken"] = "trick_taken"


LifecycleEvent: TypeAlias = (
    Accepted
    | SeatTaken
    | SeatLeft
    | LeavingAfterHand
    | SatOut
    | ConnectionChanged
    | HostChanged
    | Waiting
    | InterludeStarted
    | ResultSeen
    | InterludeEnded
    | TimedOut
    | DeadlineSet
    | AttendanceChanged
    | TableClosed
)
"""Every game's lifecycle events but ``table_closing``, whose fields differ between games."""

__all__ = [  # what a game's events module takes in (``import *``) as its own
    "Accepted",
    "AttendanceChanged",
    "CardPlayed",
    "ConnectionChanged",
    "DeadlineSet",
    "HostChanged",
    "InterludeEnded",
    "InterludeStarted",
    "LeavingAfterHand",
    "LifecycleEvent",
    "ResultSeen",
    "SatOut",
    "SeatLeft",
    "SeatTaken",
    "TableClosed",
    "TimedOut",
    "TrickTaken",
    "Waiting",
]
