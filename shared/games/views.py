"""The parts of a seat's view that every game builds the same way from its state.

Each game's view is a dataclass of its own, its fields in the order its JSON has them. Every
view starts with the fields of ``ViewHead``; the helpers below fill in the fields the views share
by name (``View(**header(...), ...)``), wherever each view has them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from shared.games.lifecycle import Player

P = TypeVar("P", bound=StrEnum)
C = TypeVar("C")
P_co = TypeVar("P_co", bound=StrEnum, covariant=True)
C_co = TypeVar("C_co", covariant=True)

REVEALED = ("ended", "closed")
"""The phases in which the game is over, so its seed is shown."""


@dataclass(frozen=True, slots=True)
class ViewHead:
    """The first fields of every game's view. A view declares ``phase`` and ``config`` again
    with its own game's types; they keep their places here."""

    seat: int | None  # whose view this is; None for a spectator
    seq: int
    phase: Any
    config: Any
    host: int | None
    game_no: int


class SeatsState(Protocol):
    """What ``presence`` reads of a game's state."""

    @property
    def players(self) -> tuple[Player | None, ...]: ...
    @property
    def connected(self) -> tuple[bool, ...]: ...
    @property
    def timeouts(self) -> tuple[int, ...]: ...
    @property
    def sitting_out(self) -> tuple[bool, ...]: ...
    @property
    def leaving(self) -> tuple[bool, ...]: ...
    def away(self, seat: int) -> bool: ...


class GameState(SeatsState, Protocol[P_co, C_co]):
    """What ``header`` reads of a game's state."""

    @property
    def seq(self) -> int: ...
    @property
    def phase(self) -> P_co: ...
    @property
    def config(self) -> C_co: ...
    @property
    def host(self) -> int | None: ...
    @property
    def game_no(self) -> int: ...
    @property
    def fingerprint(self) -> str: ...
    @property
    def seed(self) -> str: ...
    @property
    def deadline(self) -> int | None: ...


class Header(TypedDict, Generic[P, C]):
    seat: int | None
    seq: int
    phase: P
    config: C
    host: int | None
    game_no: int
    fingerprint: str
    seed: str | None
    to_act: tuple[int, ...]
    deadline: int | None


class Presence(TypedDict):
    connected: bool
    away: bool
    timeouts: int
    sitting_out: bool
    leaving: bool


def viewer(s: SeatsState, seat: int | None) -> int | None:
    """The seat a view is for: ``seat`` when a player sits in it; otherwise ``None``, a
    spectator's view, which shows no hand."""
    if seat is not None and 0 <= seat < len(s.players) and s.players[seat] is not None:
        return seat
    return None


def header(s: GameState[P, C], seat: int | None, to_act: tuple[int, ...]) -> Header[P, C]:
    """The table, the game and whose turn it is; the seed once the game is over."""
    return Header(
        seat=seat,
        seq=s.seq,
        phase=s.phase,
        config=s.config,
        host=s.host,
        game_no=s.game_no,
        fingerprint=s.fingerprint,
        seed=s.seed if s.phase in REVEALED else None,
        to_act=to_act,
        deadline=s.deadline,
    )


def presence(s: SeatsState, seat: int) -> Presence:
    """Whether the seat's player is here, and whether the table waits for them."""
    return Presence(
        connected=s.connected[seat],
        away=s.players[seat] is not None and s.away(seat),
        timeouts=s.timeouts[seat],
        sitting_out=s.sitting_out[seat],
        leaving=s.leaving[seat],
    )
