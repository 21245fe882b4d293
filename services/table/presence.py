"""When a seat's connection changes count: reconnect churn must not grow a table's log.

Gateways report each player's connection as it opens and closes. A report that matches the
seat's state changes nothing. A disconnect is applied at most once per ``window`` seconds per
seat: one within the window of the last applied disconnect waits until the window ends, and is
dropped if the player is back by then. A reconnect is applied at once (it can only follow an
applied disconnect), so a seat logs at most two connection events per window however fast its
player's socket comes and goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

WINDOW_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Apply:
    connected: bool


@dataclass(frozen=True, slots=True)
class Defer:
    """Ask again (``due``) at ``at``, the table's clock in seconds."""

    at: float


@dataclass(frozen=True, slots=True)
class Ignore:
    pass


Decision = Apply | Defer | Ignore


@dataclass
class Presence:
    """One table's connection reports, by seat."""

    clock: Callable[[], float]
    window: float = WINDOW_SECONDS
    reported: dict[int, bool] = field(default_factory=dict)  # the latest report per seat
    disconnected_at: dict[int, float] = field(default_factory=dict)  # last applied disconnect
    waiting: set[int] = field(default_factory=set)  # seats with a deferred disconnect

    def report(self, seat: int, connected: bool, current: bool) -> Decision:
        """A gateway's report; ``current``: the seat's connection as the table holds it."""
        self.reported[seat] = connected
        if connected == current:
            self.waiting.discard(seat)
            return Ignore()
        if connected:
            return Apply(True)
        last = self.disconnected_at.get(seat)
        now = self.clock()
        if last is not None and now < last + self.window:
            if seat in self.waiting:
                return Ignore()  # its check is on its way already
            self.waiting.add(seat)
            return Defer(last + self.window)
        self.disconnected_at[seat] = now
        return Apply(False)

    def due(self, seat: int, current: bool) -> Decision:
        """The deferred check of ``seat``: apply the latest report if it still differs."""
        if seat not in self.waiting:
            return Ignore()
        self.waiting.discard(seat)
        return self.report(seat, self.reported.get(seat, current), current)
