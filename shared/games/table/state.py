"""What the lifecycle reads and writes of a table's state: the seats and the command bookkeeping
every game's ``State`` holds under the same names."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol, Self, TypeVar

from shared.games.lifecycle import Player

RECENT_IDS = 64
"""How many accepted action ids a table remembers to refuse a duplicate."""
TIMER_RANGE_MS = (10_000, 120_000)
"""How long a decision timer may be (a private table may have none)."""
AWAY_GRACE_MS = 3_000
"""How long an away seat's decision waits before the table decides for it."""
INTERLUDE_MAX_MS = 30_000
"""The longest a hand's result may hold the next hand."""

T = TypeVar("T")


class TableConfig(Protocol):
    @property
    def timer_ms(self) -> int | None: ...
    @property
    def away_grace_ms(self) -> int: ...
    @property
    def interlude_ms(self) -> int | None: ...


class TableState(Protocol):
    """The fields and helpers of a game's ``State`` that the lifecycle owns."""

    seq: int
    turn: int | None  # the seat whose turn it is, in a phase where one seat acts at a time
    turn_seq: int
    deadline: int | None
    recent_ids: tuple[str, ...]
    players: tuple[Player | None, ...]
    stacks: tuple[int, ...]
    sitting_out: tuple[bool, ...]
    leaving: tuple[bool, ...]
    connected: tuple[bool, ...]
    timeouts: tuple[int, ...]
    left_by_bots: tuple[int, ...]
    host: int | None
    unattended_since: int | None
    closing: bool
    interlude: tuple[int, ...]

    @property
    def config(self) -> TableConfig: ...
    @property
    def phase(self) -> StrEnum: ...
    def copy(self) -> Self: ...
    def away(self, seat: int) -> bool: ...


class ForfeitState(TableState, Protocol):
    """A table whose game, cut short, is forfeited by those who ended it."""

    quitters: tuple[int, ...]


class SeatsHelpers:
    """What every game's ``State`` (a dataclass deriving from this) does with its seats."""

    connected: tuple[bool, ...]
    timeouts: tuple[int, ...]

    def copy(self) -> Self:
        """A shallow copy: the fields hold immutable values, so it is a state of its own."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def away(self, seat: int) -> bool:
        """A disconnected seat, or one that timed out twice running, is decided for quickly."""
        return not self.connected[seat] or self.timeouts[seat] >= 2


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with one item replaced."""
    return (*values[:index], value, *values[index + 1 :])


def tricks_taken(takers: Iterable[int], seats: int) -> tuple[int, ...]:
    """How many tricks each of ``seats`` seats took, from the seat that took each trick."""
    taken = [0] * seats
    for seat in takers:
        taken[seat] += 1
    return tuple(taken)
