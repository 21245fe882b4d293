"""The parts of a seat's view that every game builds the same way from its state.

Each game's view is a dataclass of its own, its fields in the order its JSON has them, starting
with those of ``ViewHead``. The fields every view fills alike come from here, each group as one
tuple passed by position: the header (``header``: the table, the game, whose turn it is) and
each seat's presence (``presence``)::

    SwickView(*header(s, seat, to_act(s)), hand_no=s.hand_no, ...)
    SeatView(*presence(s, i, player), seat=i, ...)

A dataclass's ``__init__`` takes the fields that are not keyword-only first, in their order.
So a view makes each field of its own keyword-only (``kw_only``) but the shared ones, wherever
those stand among its fields: they come first in its ``__init__``, while its fields, and its
JSON, keep their order. The rest are named by keyword.

Not dicts spread into the view (``**``): a view is built for every seat after every command,
and such dicts cost more than the rest of its fields, where a tuple costs less than the
keywords it replaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeAlias, TypeVar

from shared.games.lifecycle import Player
from shared.games.table.state import TableConfig, TableState

P = TypeVar("P", bound=StrEnum)
C = TypeVar("C", bound=TableConfig)
P_co = TypeVar("P_co", bound=StrEnum, covariant=True)
C_co = TypeVar("C_co", bound=TableConfig, covariant=True)

REVEALED = ("ended", "closed")
"""The phases in which the game is over, so its seed is shown."""


@dataclass(frozen=True, slots=True)
class ViewHead:
    """The first fields of every game's view. A view declares ``phase`` and ``config`` again
    with its own game's types; they keep their places here.

    The rest of ``header``'s fields, ``fingerprint``, ``seed``, ``to_act`` and ``deadline``,
    stand among the view's own: each view declares them where its JSON has them
    (``HandViewHead`` does for Swick's and Euchre's), its own fields before them ``kw_only``."""

    seat: int | None  # whose view this is; None for a spectator
    seq: int
    phase: Any
    config: Any
    host: int | None
    game_no: int


@dataclass(frozen=True, slots=True)
class HandViewHead(ViewHead):
    """The head of the view of a game dealt in numbered hands (Swick's, Euchre's)."""

    hand_no: int = field(kw_only=True)
    fingerprint: str
    seed: str | None  # revealed when the game ends
    dealer: int | None = field(kw_only=True)
    to_act: tuple[int, ...]
    deadline: int | None


Header: TypeAlias = tuple[
    int | None, int, P, C, int | None, int, str, str | None, tuple[int, ...], int | None
]
"""A view's ``seat``, ``seq``, ``phase``, ``config``, ``host``, ``game_no``, ``fingerprint``,
``seed``, ``to_act`` and ``deadline``: the first arguments of its ``__init__``."""

Presence: TypeAlias = tuple[bool, bool, int, bool, bool]
"""A seat's ``connected``, ``away``, ``timeouts``, ``sitting_out`` and ``leaving``: the first
arguments of a seat view's ``__init__``."""


class GameState(TableState, Protocol[P_co, C_co]):
    """What ``header`` reads of a game's state, besides what every table's state holds."""

    game_no: int
    fingerprint: str
    seed: str

    @property
    def config(self) -> C_co: ...
    @property
    def phase(self) -> P_co: ...


def viewer(s: TableState, seat: int | None) -> int | None:
    """The seat a view is for: ``seat`` when a player sits in it; otherwise ``None``, a
    spectator's view, which shows no hand."""
    if seat is not None and 0 <= seat < len(s.players) and s.players[seat] is not None:
        return seat
    return None


def header(s: GameState[P, C], seat: int | None, to_act: tuple[int, ...]) -> Header[P, C]:
    """The table, the game and whose turn it is, for ``seat``'s view (``viewer``'s); the seed
    once the game is over."""
    return (
        seat,
        s.seq,
        s.phase,
        s.config,
        s.host,
        s.game_no,
        s.fingerprint,
        s.seed if s.phase in REVEALED else None,
        to_act,
        s.deadline,
    )


def presence(s: TableState, seat: int, player: Player | None) -> Presence:
    """Whether ``seat``'s ``player`` is here, and whether the table waits for them."""
    return (
        s.connected[seat],
        player is not None and s.away(seat),
        s.timeouts[seat],
        s.sitting_out[seat],
        s.leaving[seat],
    )
