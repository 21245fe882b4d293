"""The arena is reproducible: the same seed gives the same result, however slow the machine.

A hard bot's budget is a number of worlds, and the arena gives it no wall-clock cap, so the
clock is never asked. Here a clock on which every look finds a second gone stands for a machine
starved of CPU: the result must not change, and the worlds counter says each search had its
full budget. With a cap, the same clock cuts every search short, and the arena says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from services.bots import arena

SEATS = ("hard", "medium", "medium")
HANDS = 12
WORLDS = 6


def starved_clock() -> Callable[[], float]:
    """Each reading a second after the one before."""
    return itertools.count(start=0.0, step=1.0).__next__


def run(
    seed: int, clock: Callable[[], float] | None = None, cap_ms: float | None = None
) -> dict[str, object]:
    kwargs = {} if clock is None else {"clock": clock}
    strategies = arena.lineup(SEATS, seed, hard_worlds=WORLDS, hard_cap_ms=cap_ms, **kwargs)
    report = arena.report(arena.play(SEATS, strategies, HANDS, seed))
    for speed in ("seconds", "cpu_seconds", "hands_per_second"):
        del report[speed]
    return report


def test_the_same_seed_gives_the_same_result_on_a_starved_machine() -> None:
    first = run(seed=5)
    again = run(seed=5)
    starved = run(seed=5, clock=starved_clock())
    assert first == again == starved
    search = first["hard_search"]
    assert isinstance(search, dict)
    assert search["decisions"] > 0
    assert search["worlds"] == search["decisions"] * WORLDS
    assert search["capped"] == 0
    assert run(seed=6) != first  # the seed does decide


def test_a_cap_that_cuts_searches_short_is_reported() -> None:
    capped = run(seed=5, clock=starved_clock(), cap_ms=200)
    search = capped["hard_search"]
    assert isinstance(search, dict)
    assert search["capped"] == search["decisions"] > 0
    assert search["worlds"] == search["decisions"] * 2  # the least a search samples
