"""Each seat's result of a finished game: what the history lists and the ratings rank by.

A game module says it (``GameModule.results``) from the game's start and end events, so that a
result is a pure function of the log, built with the game's record and stored beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result: its ``side`` (the seat itself, or its partnership in a game of
    teams), its ``points`` (``None`` in a game of chips only), the chips it won (+) or lost
    (−) over the game, and its ``place`` (1 the best, ties sharing one; ``None`` when the game
    was cut short with no result)."""

    seat: int
    side: int
    points: int | None
    chips: int
    place: int | None


def places_by(values: Sequence[int]) -> list[int]:
    """Competition places of ``values``, the highest first: ``[5, 9, 5]`` places ``[2, 1, 2]``."""
    return [1 + sum(other > value for other in values) for value in values]


def net_chips(stakes: Sequence[int], payouts: Sequence[int], seat: int) -> int:
    """What ``seat`` won or lost: its share of the pot less its stake (none at a points-only
    table, whose stakes and payouts are empty or zeros)."""
    paid = stakes[seat] if seat < len(stakes) else 0
    return (payouts[seat] if seat < len(payouts) else 0) - paid
