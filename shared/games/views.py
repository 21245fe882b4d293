"""The parts of a seat's view that every game builds the same way from its state.

Each game's view is a dataclass of its own, its fields in the order its JSON has them. Every
view starts with the fields of ``ViewHead``. A game's ``view_for`` names each field by keyword,
those of ``ViewHead`` and each seat's presence too, rather than spreading shared dicts into it
(``**``): a view is built for every seat after every command, and those dicts cost more than
the rest of its fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from shared.games.lifecycle import Player

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
    """What ``viewer`` reads of a game's state."""

    @property
    def players(self) -> tuple[Player | None, ...]: ...


def viewer(s: SeatsState, seat: int | None) -> int | None:
    """The seat a view is for: ``seat`` when a player sits in it; otherwise ``None``, a
    spectator's view, which shows no hand."""
    if seat is not None and 0 <= seat < len(s.players) and s.players[seat] is not None:
        return seat
    return None
