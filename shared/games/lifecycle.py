"""Table actions every game accepts: seating, sitting out, starting and ending a game.

The services build these directly; each game's own decisions (bids, cards...) come from the
game module. A game's action type is the union of these and its own, ``NextHand`` among them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Generic, Literal, TypeAlias, TypeVar, get_args

BOT_DECISION_MS = 30_000
"""A bot's decision at a table without a timer times out after this: a person there is waited
for, but a bot that stops answering must not hold the table for ever."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits in a seat. ``bot`` is the strategy's level or name for bots, ``None`` for people."""

    id: str
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Seating:
    """``player`` sits in ``seat`` with ``stack``: what seating a person or a bot names, and the
    ``seat_taken`` event that records it."""

    seat: int
    player: Player
    stack: int


@dataclass(frozen=True, slots=True)
class TakeSeat(Seating):
    """A person sits down (issued by the table for an authenticated player)."""

    kind: Literal["take_seat"] = "take_seat"


@dataclass(frozen=True, slots=True)
class AddBot(Seating):
    """The host seats a bot in an empty seat."""

    kind: Literal["add_bot"] = "add_bot"


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table: at once between hands, at the end of the hand during one."""

    kind: Literal["leave"] = "leave"


@dataclass(frozen=True, slots=True)
class SitOut:
    """Sit out from the next hand on (``True``) or come back (``False``)."""

    sitting_out: bool
    kind: Literal["sit_out"] = "sit_out"


@dataclass(frozen=True, slots=True)
class SetConnected:
    """The table reports a seat's connection; a disconnected seat is decided for."""

    seat: int
    connected: bool
    kind: Literal["set_connected"] = "set_connected"


@dataclass(frozen=True, slots=True)
class StartGame:
    """The host starts a game; the table supplies the secret seed."""

    seed: str
    kind: Literal["start_game"] = "start_game"


@dataclass(frozen=True, slots=True)
class EndGame:
    """The host ends the game between hands."""

    kind: Literal["end_game"] = "end_game"


@dataclass(frozen=True, slots=True)
class HandOverHost:
    seat: int
    kind: Literal["hand_over_host"] = "hand_over_host"


@dataclass(frozen=True, slots=True)
class CloseTable:
    """The table closes at its next hand boundary: the game ends and every seat is vacated.

    With ``unattended_ms``, only if no seat has held a connected person for that long (the
    table was abandoned); with 0, whatever the seats hold (the table could not be set up).
    """

    unattended_ms: int = 0
    kind: Literal["close_table"] = "close_table"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The pending decision's deadline passed: the table decides by the default."""

    kind: Literal["timeout"] = "timeout"


LifecycleAction: TypeAlias = (
    TakeSeat
    | AddBot
    | Leave
    | SitOut
    | SetConnected
    | StartGame
    | EndGame
    | HandOverHost
    | CloseTable
    | Timeout
)


TABLE_ACTION_KINDS = frozenset(
    field.default
    for action in get_args(LifecycleAction)
    for field in fields(action)
    if field.name == "kind"
)
"""The kinds of the table's own actions: never a bot's to send (it makes only its decisions)."""


@dataclass(frozen=True, slots=True)
class NextHand:
    """Done looking at the last hand's result: the next one may open.

    A seat's decision in the lifecycle's interlude, so one of every game's own actions (a bot
    sends it) rather than a table action."""

    kind: Literal["next_hand"] = "next_hand"


C = TypeVar("C")  # a game's ``Card``, with its codes


@dataclass(frozen=True, slots=True)
class PlayCard(Generic[C]):
    """Play ``card`` to the trick: every game's own action but for its cards, held in its union
    as ``PlayCard[Card]`` (so its codes parse the card) and built unparametrized."""

    card: C
    kind: Literal["play"] = "play"
