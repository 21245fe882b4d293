"""The per-seat fields of a new table: every seat empty, with nothing in hand."""

from __future__ import annotations

from typing import TypedDict

from shared.games.lifecycle import Player


class EmptySeats(TypedDict):
    players: tuple[Player | None, ...]
    stacks: tuple[int, ...]
    sitting_out: tuple[bool, ...]
    leaving: tuple[bool, ...]
    connected: tuple[bool, ...]
    timeouts: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]


def empty_seats(n: int) -> EmptySeats:
    """The fields every game's ``State`` holds one of per seat, for ``n`` empty seats."""
    return EmptySeats(
        players=(None,) * n,
        stacks=(0,) * n,
        sitting_out=(False,) * n,
        leaving=(False,) * n,
        connected=(False,) * n,
        timeouts=(0,) * n,
        hands=((),) * n,
    )
